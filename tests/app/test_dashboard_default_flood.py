"""Widget defaults the browser sends after losing its widget values are not taken as the user's edits.

An audit in a real browser: a number typed in a sidebar box, then a click on Compare before Enter; some seconds
later one run reported every Plan page widget at Streamlit's default (the picker's first option, entry.yaml; each
slider at its minimum; each list and box empty), and the callbacks opened entry.yaml with every input at its minimum,
in the page and the URL (state.CHANGES_KEY). AppTest cannot make a browser lose its widget values; it can send the
same run: every widget at its default at once. The guard itself is tested on a plain dict for the session.

Oracles: startup-hybrid.yaml's own values (horizon 36 months) and the values typed here by hand.
"""

from __future__ import annotations

from fleetplan_dashboard import state
from tests.app.test_dashboard_edits_kept import _query
from tests.app.test_dashboard_links_uploads import _app as _opened

HORIZON = "edit:horizon_months"
CAPEX = "edit:capex_budget"


def test_a_run_with_every_widget_at_its_default_keeps_the_scenario_and_the_edits():
    at = _opened(scenario="startup-hybrid.yaml")
    at.number_input(key=CAPEX).set_value(20000.0).run()
    assert float(_query(at)["onprem.capex_budget"]) == 20000
    # what the browser sent: the picker's first option, the sliders' minimums, empty lists and boxes, all in one run
    at.selectbox(key="base").set_value("file:entry.yaml")
    at.slider(key=HORIZON).set_value(1)
    at.slider(key="edit:electricity_per_kwh").set_value(0.0)
    at.number_input(key=CAPEX).set_value(None)
    for name in ("cards", "providers", "purchase_options"):
        at.multiselect(key=state.edit_key(name)).set_value([])
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    query = _query(at)
    assert query["scenario"] == "startup-hybrid.yaml" and float(query["onprem.capex_budget"]) == 20000
    assert "horizon_months" not in query and "prices.providers" not in query and "onprem.cards" not in query
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml"
    assert at.slider(key=HORIZON).value == 36 and at.number_input(key=CAPEX).value == 20000
    # one widget set to its default by the user is the user's
    at.slider(key=HORIZON).set_value(1).run()
    assert _query(at)["horizon_months"] == "1" and at.slider(key=HORIZON).value == 1


def test_callbacks_with_no_widget_value_or_the_open_scenario_change_nothing(monkeypatch):
    session: dict = {}
    monkeypatch.setattr(state.st, "session_state", session)
    state.open_base("file:startup-hybrid.yaml", {"capex_budget": 20000.0})
    state.keep_edit("horizon_months")                 # a widget Streamlit dropped: no value under its key
    session[state.BASE_WIDGET] = "file:startup-hybrid.yaml"
    state.pick_base()                                 # the picker says the scenario open: its edits are kept
    assert session[state.SCENARIO_KEY] == "file:startup-hybrid.yaml"
    assert session[state.EDITS_KEY] == {"capex_budget": 20000.0}
    assert not state.undo_default_flood()


PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"


def test_the_prices_page_keeps_the_scenario_and_edits_in_the_url():
    """An audit: Prices from the menu left the URL bare (`/prices`), while Compare and Export keep the query."""
    at = _opened(scenario="startup-hybrid.yaml")
    at.slider(key=HORIZON).set_value(40).run()
    at.query_params.clear()                   # a click in the menu opens the page's own address, no query
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _query(at) == {"scenario": "startup-hybrid.yaml", "horizon_months": "40"}
