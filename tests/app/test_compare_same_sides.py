"""The Compare page opens on the saved file (A) against the Plan page's current edits (B): before anything is edited
both sides are one scenario, and the page showed an empty comparison without a word (an audit, 2026-12-06). It now
says so plainly, and what to do.

Oracle: nothing edited, A and B hold the same scenario by construction; after one edit (the horizon moved from the
file's 36 months to 40) they differ."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
SAME = ("A (startup-hybrid.yaml) and B (startup-hybrid.yaml on the Plan page, not edited) are the same scenario, so "
        "nothing below "
        "differs: nothing is edited on the Plan page yet. Edit a value in its sidebar, or pick another scenario for B.")


def _said(at: AppTest) -> list[str]:
    return [i.value.replace("\\", "") for i in at.info]


def test_the_page_says_when_nothing_is_edited_yet_and_not_once_something_is():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert SAME in _said(at)
    at.switch_page("fleetplan_dashboard/pages/plan.py").run()
    at.slider(key="edit:horizon_months").set_value(40).run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [s for s in _said(at) if "the same scenario" in s]


def test_one_file_picked_on_both_sides_is_said_too():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(COMPARE_PAGE).run()
    at.selectbox(key="compare_b").set_value("file:startup-hybrid.yaml").run()
    assert ("A (startup-hybrid.yaml) and B (startup-hybrid.yaml) are the same scenario, so nothing below differs. "
            "Pick another scenario for A or B.") in _said(at)
