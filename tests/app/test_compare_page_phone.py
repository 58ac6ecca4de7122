"""The Compare page's tables on a phone (390 × 844: 356 px inside the page's margins, measured in Chromium; the Plan
page's tables' test, test_plan_page_table_widths.py), what an audit found (2026-12-06): "Inputs that differ" showed the
input and a sliver of A, B beyond the edge; "Prices that differ" showed provider, region, SKU and GPU, its prices beyond;
the fleets' cost header was cut ("cost, USD (PV"); "Costs by category" cut B − A; none said the rest was a swipe away.
Now each pins its rows' name and shows their values or money next to it (tests/app/test_browser.py checks the line
under each in the browser).

The comparison: startup-hybrid.yaml against an upload quoting its A100 80GB PCIe at 15,000 USD, not 14,000, so one
input and one price differ.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
PHONE_PX = 356
HALF_PAGE_PX = 443    # a fleet's half of the page at 1366 px, the sidebar open (Chromium)


@pytest.fixture(scope="module")
def compare_page():
    text = STARTUP.read_text(encoding="utf-8")
    assert "price: 14000" in text
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("quoted.yaml", text.replace("price: 14000", "price: 15000", 1)
                                                   .encode(), "application/x-yaml")).run()
    at.switch_page(COMPARE_PAGE).run()
    at.selectbox(key="compare_a").set_value("file:startup-hybrid.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _table(at: AppTest, column: str) -> tuple[list[str], dict[str, dict], list[str]]:
    """(the columns shown in order, their settings, the data's columns) of the tables holding `column`, the first."""
    found = [d for d in at.dataframe if column in d.value.columns]
    assert found, [list(d.value.columns) for d in at.dataframe]
    data = list(found[0].value.columns)
    return list(found[0].proto.column_order) or data, json.loads(found[0].proto.columns), data


def _width(settings: dict, columns: list[str]) -> int:
    return sum(settings[c]["width"] for c in columns)


def test_inputs_that_differ_pin_the_input_and_show_a_and_b_beside_it(compare_page):
    order, settings, _ = _table(compare_page, "path")
    assert order[:3] == ["input", order[1], order[2]] and order[1].startswith("A: ") and order[2].startswith("B: ")
    assert settings["input"]["pinned"] is True
    assert _width(settings, order[:3]) <= PHONE_PX


def test_prices_that_differ_pin_the_offer_and_show_a_and_b_with_their_units_beside_it(compare_page):
    # A and B say their unit ("16,500 USD per card", "55.04 USD per instance-hour"), which tells which price each is;
    # the price's words ("new card with its host share") come next, a swipe away (test_compare_dashb_prices.py)
    order, settings, data = _table(compare_page, "price")
    assert order[0] == "offer" and order[1].startswith("A: ") and order[2].startswith("B: ") and order[3] == "price"
    assert sorted(order) == sorted(data)      # every column shown, the offer's others after
    assert settings["offer"]["pinned"] is True
    assert _width(settings, order[:3]) <= PHONE_PX
    prices = next(d.value for d in compare_page.dataframe if "price" in d.value.columns)
    assert prices[order[1]].str.endswith(" USD per card").all() and prices[order[2]].str.endswith(" USD per card").all()


def test_each_fleet_pins_what_and_shows_its_cost_and_action_then_fits_half_the_page(compare_page):
    fleets = [d for d in compare_page.dataframe if "what" in d.value.columns]
    assert len(fleets) == 2
    for fleet in fleets:
        order, settings = list(fleet.value.columns), json.loads(fleet.proto.columns)
        assert order == ["what", "cost", "action", "instance_hours"]
        assert settings["what"]["pinned"] is True
        assert _width(settings, order[:3]) <= PHONE_PX and _width(settings, order) <= HALF_PAGE_PX


def test_costs_by_category_pin_the_category(compare_page):
    _, settings, data = _table(compare_page, "cost_delta")
    assert data[0] == "category" and settings["category"]["pinned"] is True
