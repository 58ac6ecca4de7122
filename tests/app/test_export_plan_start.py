"""The Export page's files can be dated as `fleetplan plan --start 2027-04 --out DIR` dates them: the zip's monthly.csv
had no plan start, so its calendar_month column was empty whatever the user wanted. The scenario file has no field
for a start (its loader refuses an unknown `start` key), so the page has a box for month 1, empty by default (the
months numbered only, as the command line without --start).

Oracles: startup-hybrid.yaml's horizon, read from the file; month m of a plan whose month 1 is April 2027 is
counted here by hand (months since January 2027: 3 + m − 1); the month after the horizon is the monthly table's
last row (docs/cost-model.md §13)."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest
import yaml
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import exports

ROOT = Path(__file__).resolve().parents[2]
HORIZON = yaml.safe_load((ROOT / "scenarios" / "startup-hybrid.yaml").read_text())["horizon_months"]


def _april_2027_plus(m: int) -> str:
    """YYYY-MM of month m when month 1 is 2027-04."""
    k = 3 + m - 1   # months after January 2027
    return f"{2027 + k // 12}-{k % 12 + 1:02d}"


@pytest.fixture()
def downloads(monkeypatch):
    """{file name: its content} of the page's downloads of the last run (made, or made when asked)."""
    files: dict[str, object] = {}
    add, add_deferred = MediaFileManager.add, MediaFileManager.add_deferred

    def kept(self, data, mimetype, coordinates, file_name=None, *args, **kwargs):
        files[file_name] = data
        return add(self, data, mimetype, coordinates, file_name, *args, **kwargs)

    def kept_deferred(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        files[file_name] = data_callable
        return add_deferred(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add", kept)
    monkeypatch.setattr(MediaFileManager, "add_deferred", kept_deferred)
    return files


def _file(files: dict, suffix: str):
    (data,) = [v for name, v in files.items() if name and name.endswith(suffix)]
    return data() if callable(data) else data


def _calendar_months(files: dict) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(_file(files, "-tables.zip"))) as zf:
        rows = list(csv.DictReader(io.StringIO(zf.read("monthly.csv").decode())))
    assert [int(r["month"]) for r in rows] == list(range(1, HORIZON + 2))
    return [r["calendar_month"] for r in rows]


def _export_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_month_typed_dates_monthly_csv_the_json_and_the_summary_as_the_command_lines_start(downloads):
    at = _export_page()
    # not given: the months numbered only, as the command line's files without --start
    assert at.text_input(key="export_start").value in ("", None)
    assert set(_calendar_months(downloads)) == {""}
    assert json.loads(_file(downloads, "-plan.json"))["start"] is None
    downloads.clear()
    at.text_input(key="export_start").input("2027-04").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error
    assert _calendar_months(downloads) == [_april_2027_plus(m) for m in range(1, HORIZON + 2)]
    assert json.loads(_file(downloads, "-plan.json"))["start"] == "2027-04"
    assert f"months 1–{HORIZON} = 2027-04 to {_april_2027_plus(HORIZON)}" in _file(downloads, "-summary.md").decode()


def test_a_month_that_is_none_is_said_and_the_files_are_made_without_it(downloads):
    at = _export_page()
    at.text_input(key="export_start").input("2027-13").run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error]
    assert said.startswith("Month 1 of the plan: plan start '2027-13': 13 is no month (01-12); expected YYYY-MM"), said
    assert "made without it" in said
    assert set(_calendar_months(downloads)) == {""}


def test_start_given_reads_the_box_as_the_command_line_reads_start():
    assert exports.start_given("") == (None, None)
    assert exports.start_given("  2027-4 ") == ("2027-04", None)
    start, wrong = exports.start_given("April")
    assert start is None and "expected YYYY-MM" in wrong
