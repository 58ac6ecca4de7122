"""What a scenario path that names no scenario is told (an audit, 2026-12-06): `plan("scenarios/startup-hybid.yaml")`
said only "file not found" with startup-hybrid.yaml beside it, and a workbook (`plan("plan.xlsx")`, a zip file) said
"not UTF-8 text (byte 0x8f) … often a Latin-1 accent", sending the user to their editor's encoding. A file spelt like
one in its folder is offered, and a binary file is named by its format's signature, in the library and the CLI alike
(both read the file through loading.read_scenario_file)."""

from __future__ import annotations

import gzip
import io
import os
import sqlite3
import zipfile
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.scenario import loading
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 10, reference_gpu: RTX-4090}\n"


def _problems(path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return info.value.problems


def test_a_misspelt_scenario_file_is_offered_the_one_beside_it(tmp_path):
    (tmp_path / "startup-hybrid.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("startup-hybid", encoding="utf-8")   # spelt alike, but no scenario file
    missing = tmp_path / "startup-hybid.yaml"
    assert _problems(missing) == [f"{missing}: file not found; did you mean '{tmp_path}/startup-hybrid.yaml'?"]
    assert _problems(str(missing)) == _problems(missing)


def test_a_name_alike_only_in_its_ending_is_not_offered(tmp_path):
    # a review (2026-12-06): "nothere.yaml: file not found; did you mean 'powercap.yaml'?" — the two share ".yaml" and
    # little else (difflib: 0.64 of the whole names, 0.4 of "nothere" and "powercap"; its cutoff is 0.6)
    (tmp_path / "powercap.yaml").write_text(SCENARIO, encoding="utf-8")
    assert _problems(tmp_path / "nothere.yaml") == [f"{tmp_path}/nothere.yaml: file not found"]
    assert _problems(tmp_path / "powrcap.yaml") == [
        f"{tmp_path}/powrcap.yaml: file not found; did you mean '{tmp_path}/powercap.yaml'?"]
    assert _problems(tmp_path / "powercap.yml") == [
        f"{tmp_path}/powercap.yml: file not found; did you mean '{tmp_path}/powercap.yaml'?"]


def test_a_scenario_named_without_its_ending_is_offered_the_file(tmp_path):
    (tmp_path / "entry.yml").write_text(SCENARIO, encoding="utf-8")
    assert _problems(tmp_path / "entry") == [f"{tmp_path}/entry: file not found; did you mean '{tmp_path}/entry.yml'?"]


def test_a_misspelt_folder_is_offered_too(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "entry.yaml").write_text(SCENARIO, encoding="utf-8")
    missing = tmp_path / "scenarioz" / "entry.yaml"
    assert _problems(missing) == [f"{missing}: file not found; did you mean '{tmp_path}/scenarios/entry.yaml'?"]


def test_nothing_alike_is_only_not_found(tmp_path):
    (tmp_path / "industrial.yaml").write_text(SCENARIO, encoding="utf-8")
    assert _problems(tmp_path / "budget.yaml") == [f"{tmp_path}/budget.yaml: file not found"]


def test_a_folder_of_many_files_is_read_no_further_than_its_limit(tmp_path, monkeypatch):
    # a folder of 100,000 files must not be listed whole for a "did you mean": its first MAX_FOLDER_ENTRIES entries are
    for i in range(40):
        (tmp_path / f"other-{i}.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "startup-hybrid.yaml").write_text(SCENARIO, encoding="utf-8")
    read: list[int] = []
    real = os.scandir

    class Counted:
        def __init__(self, folder):
            self.entries = real(folder)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.entries.close()

        def __iter__(self):
            for entry in self.entries:
                read.append(1)
                yield entry

    monkeypatch.setattr(loading, "MAX_FOLDER_ENTRIES", 5)
    monkeypatch.setattr(loading.os, "scandir", Counted)
    _problems(tmp_path / "startup-hybid.yaml")
    assert 0 < len(read) <= 5


def test_a_name_holding_nul_is_not_found_not_a_value_error():
    assert _problems("a\x00.yaml") == ["'a\\x00.yaml': file not found (the name holds a NUL character)"]


def _office(part: str) -> bytes:
    """An Office Open XML file as it starts (ECMA-376 Part 2): its content types, then `part` (xl/workbook.xml: an
    Excel workbook; word/document.xml: a Word document)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr(part, "<root/>")
    return out.getvalue()


def _xlsx() -> bytes:
    return _office("xl/workbook.xml")


def _zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("s.yaml", SCENARIO)
    return out.getvalue()


def _sqlite(path: Path) -> bytes:
    con = sqlite3.connect(path)
    con.execute("create table t (x)")
    con.commit()
    con.close()
    return path.read_bytes()


@pytest.mark.parametrize(("name", "make", "said"), [
    ("plan.xlsx", lambda tmp: _xlsx(), "is an Excel workbook (a zip file), not a scenario YAML file"),
    ("notes.docx", lambda tmp: _office("word/document.xml"), "is a Word document (a zip file), not a scenario YAML file"),
    ("s.zip", lambda tmp: _zip(), "is a zip file, not a scenario YAML file"),
    ("s.yaml.gz", lambda tmp: gzip.compress(SCENARIO.encode()),
     "is a gzip-compressed file, not a scenario YAML file; decompress it first"),
    ("s.yaml", lambda tmp: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "is a PDF document, not a scenario YAML file"),
    ("prices.sqlite", lambda tmp: _sqlite(tmp / "made.sqlite"),
     "is an SQLite database, not a scenario YAML file; a price store is given with --store (plan(store=…) in Python)"),
    ("s.pkl", lambda tmp: __import__("pickle").dumps({"name": "x"}, protocol=4),
     "is a Python pickle, not a scenario YAML file; unpickle it in Python, or give the scenario's YAML file"),
])
def test_a_binary_file_is_named_by_its_format(tmp_path, name, make, said):
    path = tmp_path / name
    path.write_bytes(make(tmp_path))
    assert _problems(path) == [f"{path}: {said}"]
    with pytest.raises(ScenarioError) as info:
        plan(str(path))
    assert info.value.problems == [f"{path}: {said}"]


def test_text_that_starts_like_a_signature_is_still_read_as_text(tmp_path):
    # "BZh" starts bzip2 only with its block magic after it; "PAR1" is Parquet only when it ends the file too
    for start in ("BZh: 1\n", "PAR1: 1\n"):
        path = tmp_path / "s.yaml"
        path.write_text(start + SCENARIO, encoding="utf-8")
        problems = _problems(path)
        assert problems[0].startswith(f"{path}:1:1: ") and "unknown key" in problems[0], problems


def test_the_cli_says_the_same(tmp_path):
    workbook = tmp_path / "plan.xlsx"
    workbook.write_bytes(_xlsx())
    (tmp_path / "startup-hybrid.yaml").write_text(SCENARIO, encoding="utf-8")
    missing = tmp_path / "startup-hybid.yaml"
    for command in ("validate", "plan"):
        result = run(command, str(workbook))
        assert result.exit_code == 2, result.output
        assert f"{workbook}: is an Excel workbook (a zip file), not a scenario YAML file" in result.stderr
        assert "Traceback" not in result.output
        result = run(command, str(missing))
        assert result.exit_code == 2, result.output
        assert f"{missing}: file not found; did you mean '{tmp_path}/startup-hybrid.yaml'?" in result.stderr
