"""`fleetplan plan -o FILE` without --format writes the format FILE's suffix names (an audit: `-o plan.xlsx` was refused
for want of --format xlsx); a suffix that names none is refused as before, saying both ways."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.mark.parametrize("name", ["plan.xlsx", "PLAN.XLSX"])
def test_a_workbook_by_its_suffix(tmp_path, name):
    result = run("plan", WORKED, "-o", tmp_path / name, "--no-decisions")
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(tmp_path / name) as book:   # an xlsx is a zip holding the workbook part
        assert "xl/workbook.xml" in book.namelist()


def test_json_and_markdown_by_their_suffixes(tmp_path):
    assert run("plan", WORKED, "-o", tmp_path / "p.json", "--no-decisions").exit_code == 0
    assert json.loads((tmp_path / "p.json").read_text())["status"] == "optimal"
    assert run("plan", WORKED, "-o", tmp_path / "p.md", "--no-decisions").exit_code == 0
    assert (tmp_path / "p.md").read_text().startswith("# ")


def test_a_csv_by_its_suffix_is_the_fleet_not_focus(tmp_path):
    assert run("plan", WORKED, "-o", tmp_path / "p.csv", "--no-decisions").exit_code == 0
    assert (tmp_path / "p.csv").read_text().splitlines()[0].startswith("provider,")


def test_a_suffix_that_names_no_format_is_refused_saying_both_ways(tmp_path):
    result = run("plan", WORKED, "-o", tmp_path / "p.txt", "--no-decisions")
    assert result.exit_code != 0
    assert "needs --format json, csv, xlsx, focus or md, or a file name ending .json, .csv, .xlsx or .md" in \
        " ".join(result.output.split())
    assert not (tmp_path / "p.txt").exists()
