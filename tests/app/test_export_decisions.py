"""The Export page and what each decision is worth (a budget-holder audit in a browser): opened soon after an edit,
before the Plan page had started the re-solves (it waits until it has been left alone for two seconds), its caption
said "What each decision is worth is not included: it is made on the Plan page" and the JSON's decisions stayed null
20 s later, though the README promises that the page updates itself when they are done. The page now starts them and
picks them up once made. And its *Month 1 of the plan* box said an empty box numbers the months only, though the
workbook and the cost rows are then dated from next month (reports.tables.plan_start)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner.scenario import load_scenario
from tests.app.test_export_plan_start import _file, downloads  # noqa: F401 - `downloads` is a fixture

ROOT = Path(__file__).resolve().parents[2]
EXPORT = "fleetplan_dashboard/pages/export.py"


def _startup():
    base = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    return state.apply_edits(base, state.default_edits(base))


def test_the_export_page_opened_before_the_decisions_were_started_gets_them(fresh_cache, downloads):  # noqa: F811
    s = _startup()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(EXPORT).run()   # straight here: the Plan page never started them
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(c.value for c in at.caption)
    assert "are being computed" in said and "not included" not in said
    deadline = time.monotonic() + 300
    while state.decisions_of(s) is None and time.monotonic() < deadline:
        time.sleep(1)
    assert state.decisions_of(s) is not None and not state.decisions_of(s).error
    downloads.clear()
    at.run()   # what the page's timer does once they are made
    assert not at.exception, [e.value for e in at.exception]
    assert "include what each decision is worth" in " ".join(c.value for c in at.caption)
    assert json.loads(_file(downloads, "-plan.json"))["decisions"]


def test_the_month_1_box_says_what_an_empty_box_does_to_each_download(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(EXPORT).run()
    box = at.text_input(key="export_start")
    assert "numbered only" not in box.label
    assert "the workbook and the cost rows count from next month" in box.label
    assert "JSON's start is null" in box.help and "calendar_month is empty" in box.help
