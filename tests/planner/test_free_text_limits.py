"""Free text has a length limit, and its control characters show as \\xNN in every export (CSV, XLSX,
Markdown), as on a terminal: a pasted file as a description is a clear error, not a 32,767-character cell cut
silently, and an escape sequence in a name cannot recolour or clear the terminal of whoever `cat`s a report."""

from pathlib import Path

import openpyxl
import pytest
import yaml
from typer.testing import CliRunner

from planner import ScenarioError, load_scenario
from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


def _worked(**changes) -> dict:
    doc = yaml.safe_load(WORKED.read_text())
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    doc.update(changes)
    return doc


@pytest.mark.parametrize("path, prefix, limit", [
    (("description",), "", 2000),
    (("onprem", "custom_cards", "my-card", "source"), "", 2000),
    (("onprem", "custom_cards", "my-card", "gpu_specs", "name"), "", 200),
    (("onprem", "custom_cards", "my-card", "gpu_specs", "vendor"), "", 200),
    (("workloads", 0, "framework"), "pytorch==", 200),
    (("workloads", 0, "profile"), "/", 4096),
    (("prices", "source"), "/", 4096),
])
def test_free_text_over_its_limit_is_refused_by_field_and_at_the_limit_it_loads(path, prefix, limit):
    def with_text(n: int) -> dict:
        doc = _worked(onprem={**_worked()["onprem"], "custom_cards": {"my-card": {
            "gpu_specs": {"memory_gb": 24}, "price": 1000, "busy_watts": 300, "idle_watts": 50, "life_years": 4}}})
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = prefix + "x" * (n - len(prefix))
        return doc

    with pytest.raises(ScenarioError) as info:
        load_scenario(with_text(limit + 1))
    text = str(info.value)
    assert f"{path[-1]}: expected at most {limit} characters, got" in text, text
    assert len(info.value.problems) == 1 and len(text) < 400, text   # said once, the value cut
    if not prefix:   # a file or framework version of `limit` x's does not exist
        load_scenario(with_text(limit))


@pytest.mark.parametrize("make, problem", [
    (lambda tmp: "/" + "x" * 300 + ".csv", "cannot open: File name too long"),   # one name over NAME_MAX
    (lambda tmp: str(tmp / "folder.csv"), "not a regular file"),
    (lambda tmp: str(tmp / "fifo.csv"), "not a regular file"),                   # reading it would block
    (lambda tmp: str(tmp / "nowhere" / "p.csv"), "file not found"),
    (lambda tmp: str(tmp / "file.csv" / "p.csv"), "file not found"),              # a file as a folder
])
@pytest.mark.parametrize("field", ["profile", "prices"])
def test_a_price_or_profile_path_that_is_no_readable_file_is_a_clear_problem(tmp_path, make, problem, field):
    (tmp_path / "folder.csv").mkdir()
    (tmp_path / "file.csv").write_text("x\n")
    __import__("os").mkfifo(tmp_path / "fifo.csv")
    doc = _worked()
    if field == "profile":
        doc["workloads"][0]["profile"] = make(tmp_path)
    else:
        doc["prices"]["source"] = make(tmp_path)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump(doc))
    for command in ("validate", "plan"):
        result = CliRunner().invoke(app, [command, str(scenario)])
        assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
        assert result.exit_code == 2, result.output
        assert problem in result.stderr and "Traceback" not in result.output, result.output


def test_control_characters_in_names_show_as_escapes_in_the_workbook(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump(_worked(name="Worked\x1b[31m example\x07",
                                               description="line one\nline\x00 two \x1b[2J")))
    out = tmp_path / "plan.xlsx"
    result = CliRunner().invoke(app, ["plan", str(scenario), "--format", "xlsx", "-o", str(out), "--no-decisions"])
    assert result.exit_code == 0, result.output
    wb = openpyxl.load_workbook(out)
    cells = [v for ws in wb for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)]
    assert "Worked\\x1b[31m example\\x07" in cells
    assert "line one\nline\\x00 two \\x1b[2J" in cells        # a line feed is text; NUL and ESC are shown
    assert wb.properties.title == "Worked\\x1b[31m example\\x07"
    assert not [c for c in cells if any(ord(ch) < 32 and ch not in "\n\t" for ch in c)]
    # xlsxwriter would have stored ESC as _x001B_, which Excel turns back into the character
    assert not [c for c in cells if "_x00" in c]
