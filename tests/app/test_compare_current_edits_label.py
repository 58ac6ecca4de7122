"""The Compare page offers the Plan page's scenario as "Current edits of …" only where something is edited: before any
edit it named edits that did not exist (an audit, in a real browser); it is then the file as on the Plan page, not
edited.

Oracle: nothing edited in a new session; one edit made here by hand (the horizon from the file's 36 months to 40)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"


def _words(at: AppTest) -> list[str]:
    """The options of both pickers and the captions, as read."""
    return [*at.selectbox(key="compare_a").options, *at.selectbox(key="compare_b").options,
            *(c.value.replace("\\", "") for c in at.caption)]


def test_current_edits_is_said_only_once_something_is_edited():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [w for w in _words(at) if "Current edits" in w]
    assert at.selectbox(key="compare_b").options[0] == "startup-hybrid.yaml on the Plan page, not edited"
    at.switch_page("fleetplan_dashboard/pages/plan.py").run()
    at.slider(key="edit:horizon_months").set_value(40).run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="compare_b").options[0] == "Current edits of startup-hybrid.yaml"
    assert at.selectbox(key="compare_b").value == "current"
    assert any("“Current edits” is the Plan page's scenario" in w for w in _words(at))
