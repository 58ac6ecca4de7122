"""A negative capex budget or power cap typed in the sidebar is refused in the page's words under its box and in the
main area, and not planned with, as a negative quote is (tests/app/test_dashboard_dasha_sidebar_fixes.py). With a
min_value the browser kept the figure in the box under Streamlit's own range error and sent nothing, so the plan on
screen was the one made with the cap before, without a word of it. The scenario loader refuses a negative cap in a file
too (here: startup-hybrid.yaml's `capex_budget: 60000` written as -60000)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner.errors import ScenarioError
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
HYBRID_TEXT = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")


def test_a_negative_cap_is_refused_by_the_loader_in_a_file_too():
    assert "capex_budget: 60000" in HYBRID_TEXT   # the premise
    with pytest.raises(ScenarioError):
        load_scenario_text(HYBRID_TEXT.replace("capex_budget: 60000", "capex_budget: -60000"))


def test_refused_cap_says_the_figure_expected_and_no_guess_of_the_one_meant():
    hybrid = load_scenario_text(HYBRID_TEXT)
    assert state.refused_cap(hybrid, "capex_budget", -60000.0) == (
        "onprem.capex_budget: -60,000 is below 0; expected USD of new hardware as paid, 0 or more. "
        "(An empty box: no cap.)")
    assert state.refused_cap(hybrid, "power_cap_kw", -6.5) == (
        "onprem.power_cap_kw: -6.50 is below 0; expected kW of installed IT power, 0 or more. (An empty box: no cap.)")
    assert state.refused_cap(hybrid, "capex_budget", None) is None   # empty: no cap
    assert state.refused_cap(hybrid, "power_cap_kw", 0.0) is None    # 0: no power for cards, a valid cap


def test_a_negative_capex_budget_is_refused_in_the_pages_words_and_not_planned_with():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(m.label.startswith("Total cost") for m in at.metric)
    at.number_input(key="edit:capex_budget").set_value(-60000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key="edit:capex_budget").value == -60000.0   # kept in its box, for the user to fix
    expected = "onprem.capex_budget: -60,000 is below 0; expected USD of new hardware as paid, 0 or more"
    assert any(expected in e.value.replace("\\", "") for e in at.sidebar.error)          # under the box
    main = [e.value.replace("\\", "") for e in at.error if e.value.startswith("These inputs do not make a valid scenario")]
    assert main and expected in main[0]
    assert not any(m.label.startswith("Total cost") for m in at.metric)   # no plan made with it
    at.number_input(key="edit:capex_budget").set_value(60000.0).run()   # fixed: planned again, the message gone
    assert not at.exception, [e.value for e in at.exception]
    assert not [e for e in at.error if "capex_budget" in e.value]
    assert any(m.label.startswith("Total cost") for m in at.metric)
