"""A budget-holder audit in a browser: the "What each decision is worth" expander closed after every edit of a number
(the layout above it changed, so the browser saw a new expander), and a capex budget above the scenario model's bound
(1e15 typed) showed only the loader's words in the main area, nothing under the box, no thousands separators."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.proto.Metric_pb2 import Metric as MetricProto
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state, tables
from planner import plan
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
HYBRID = load_scenario_text((ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8"))
DECISIONS = "What each decision is worth"


def test_the_decisions_expander_has_a_fixed_key_across_an_edit(fresh_cache):
    # AppTest cannot show whether the browser keeps it open (tests/app/test_browser_decisions_expander.py does): the
    # same key before and after an edit that adds a line above it ("Edited in the dashboard") is what it keeps it by
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.expander(key="decisions_box").label.startswith(DECISIONS)
    at.number_input(key="edit:capex_budget").set_value(50000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(c.value.startswith(":material/edit: Edited in the dashboard") for c in at.caption)   # the layout changed
    assert at.expander(key="decisions_box").label.startswith(DECISIONS)


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


def test_a_quote_above_the_models_bound_is_refused_in_the_pages_words():
    # CardOverride.price: at most MAX_MONEY (1e12); above it only the loader's words showed, in the main area
    assert state.refused_quote(HYBRID, "rtx-4090", 1e15) == (
        "onprem.card_overrides.rtx-4090.price: your quote for rtx-4090 is 1,000,000,000,000,000 USD, above "
        "1,000,000,000,000, the most a scenario takes; expected the price of one card in USD, 0 to 1,000,000,000,000. "
        "(An empty box: the catalog's price.)")
    assert state.refused_quote(HYBRID, "rtx-4090", 1e12) is None      # the bound itself is taken


def test_a_huge_capex_budget_is_said_under_its_box_and_not_planned_with(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    at.number_input(key="edit:capex_budget").set_value(1e15).run()
    assert not at.exception, [e.value for e in at.exception]
    expected = "onprem.capex_budget: 1,000,000,000,000,000 is above 1,000,000,000,000"
    assert any(expected in e.value.replace("\\", "") for e in at.sidebar.error)          # under the box
    assert not any("expected a number" in e.value for e in at.error)                      # not the loader's words
    assert not any(m.label.startswith("Total cost") for m in at.metric)                   # no plan made with it


def _usd(text: str) -> float:
    return float(text.removesuffix(" USD").replace(",", ""))


def test_the_all_cloud_card_says_it_is_the_plan_that_saves(fresh_cache):
    # "All cloud 69,769 USD ↑ saves 33,347 USD (48%)" read as if all cloud saved it
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    total = next(m for m in at.metric if m.label.startswith("Total cost"))
    cloud = next(m for m in at.metric if m.label == "All cloud")
    saving = _usd(cloud.value) - _usd(total.value)
    assert saving > 0   # the premise: startup-hybrid.yaml's plan costs less than all cloud
    said = re.fullmatch(r"the plan saves ([\d,]+) USD \((\d+)%\)", cloud.proto.delta)
    assert said, cloud.proto.delta
    assert abs(_usd(said[1]) - saving) <= 1                                      # each card's figure rounded
    assert abs(int(said[2]) - 100 * saving / _usd(cloud.value)) <= 1
    assert cloud.proto.color == MetricProto.MetricColor.GREEN and cloud.proto.direction == MetricProto.MetricDirection.UP


def test_no_break_even_is_said_without_defining_a_word_the_sentence_does_not_use():
    p = plan(HYBRID)
    assert not tables.all_cloud(p)   # the premise: the plan holds cards
    text = tables.break_even_text(p, tables.cumulative(p), None)
    assert text.startswith("No break-even against all cloud: ")
    assert "first month from which" not in text and "never stays below" not in text
    assert text.endswith("The end point adds the residual value of owned cards and payments after the horizon.")


def test_a_catalog_price_in_another_currency_is_shown_in_the_quote_boxs_currency(fresh_cache):
    # "rtx-3060-12gb: your quote, USD per card" had the placeholder "catalog 2,500 CNY"; onprem_cards.csv's 2,500 CNY
    # at startup-hybrid.yaml's fx (0.13749 USD per CNY) is 343.7 USD
    assert HYBRID.currency == "USD" and HYBRID.fx["CNY"] == 0.13749
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.number_input(key="edit:price:rtx-3060-12gb")
    assert box.label.startswith("rtx-3060-12gb: your quote, USD per card")
    assert box.proto.placeholder == "catalog 344 USD"
    assert box.help.startswith("Empty: the catalog's price, 2,500 CNY (undated); 344 USD at the scenario's fx rate.")
