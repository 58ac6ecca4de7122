"""A budget-holder audit in a browser: the "What each decision is worth" expander closed after every edit of a number
(the layout above it changed, so the browser saw a new expander), and a capex budget above the scenario model's bound
(1e15 typed) showed only the loader's words in the main area, nothing under the box, no thousands separators."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
HYBRID = load_scenario_text((ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8"))
DECISIONS = "What each decision is worth"


def test_the_decisions_expander_stays_open_across_an_edit(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.expander(key="decisions_box")   # a fixed key: the same expander whatever the layout above it
    assert box.label.startswith(DECISIONS) and not box.proto.expanded   # closed at first
    at.session_state["decisions_box"] = True                             # the user opens it
    at.run()
    assert at.expander(key="decisions_box").proto.expanded
    at.slider(key="edit:electricity_per_kwh").set_value(0.30).run()      # an edit of a number
    assert not at.exception, [e.value for e in at.exception]
    assert at.expander(key="decisions_box").proto.expanded                # still open


def test_a_cap_above_the_models_bound_is_refused_in_the_pages_words():
    # the bounds: MAX_MONEY (1e12) for money; MAX_WATTS × MAX_UNITS / 1000 = 1e6 × 1e7 / 1000 = 1e10 kW for power
    assert state.refused_cap(HYBRID, "capex_budget", 1e15) == (
        "onprem.capex_budget: 1,000,000,000,000,000 is above 1,000,000,000,000, the most a scenario takes; expected "
        "USD of new hardware as paid, 0 to 1,000,000,000,000. (An empty box: no cap.)")
    assert state.refused_cap(HYBRID, "power_cap_kw", 2e10) == (
        "onprem.power_cap_kw: 20,000,000,000 is above 10,000,000,000, the most a scenario takes; expected kW of "
        "installed IT power, 0 to 10,000,000,000. (An empty box: no cap.)")
    assert state.refused_cap(HYBRID, "capex_budget", 1e12) is None      # the bound itself is taken
    assert state.refused_cap(HYBRID, "power_cap_kw", 1e10) is None


def test_a_huge_capex_budget_is_said_under_its_box_and_not_planned_with(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    at.number_input(key="edit:capex_budget").set_value(1e15).run()
    assert not at.exception, [e.value for e in at.exception]
    expected = "onprem.capex_budget: 1,000,000,000,000,000 is above 1,000,000,000,000"
    assert any(expected in e.value.replace("\\", "") for e in at.sidebar.error)          # under the box
    assert not any("expected a number" in e.value for e in at.error)                      # not the loader's words
    assert not any(m.label.startswith("Total cost") for m in at.metric)                   # no plan made with it
