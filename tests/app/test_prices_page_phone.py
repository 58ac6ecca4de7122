"""The Prices page's offers table on a phone (390 × 844), what an audit found (2026-12-06): 1,693 px wide, it showed
provider, region and SKU, and its prices began beyond the screen's edge. Now the offer's name is pinned and the price
the offers are ranked by follows it, both inside the 356 px a phone's page holds (measured in Chromium: the
Plan page's tables' test, test_plan_page_table_widths.py); tests/app/test_browser.py checks it in the browser.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
PHONE_PX = 356

# the offers table's columns as the page gets them (engine.offer_costs.offers_table), and after per_reference_hour
RAW = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb", "vcpus", "memory_gb",
       "usd_per_hour", "usd_per_gpu_hour", "zone", "as_of", "note"]
RANKED = ["provider", "region", "sku", "purchase_option", "gpu", "usd_per_reference_gpu_hour", "usd_per_gpu_hour",
          "speed_vs_reference", "cannot_serve", "gpu_count", "gpu_memory_gb", "vcpus", "memory_gb", "usd_per_hour",
          "zone", "as_of", "note"]


def test_the_name_then_the_price_ranked_by_then_the_other_prices_and_the_option_come_first():
    assert tables.offers_column_order(RAW) == [
        "sku", "usd_per_gpu_hour", "usd_per_hour", "purchase_option", "provider", "region", "gpu", "gpu_count",
        "gpu_memory_gb", "vcpus", "memory_gb", "zone", "as_of", "note"]
    assert tables.offers_column_order([c for c in RANKED if c != "cannot_serve"]) == [
        "sku", "usd_per_reference_gpu_hour", "usd_per_gpu_hour", "usd_per_hour", "purchase_option", "provider",
        "region", "gpu", "speed_vs_reference", "gpu_count", "gpu_memory_gb", "vcpus", "memory_gb", "zone", "as_of",
        "note"]


def test_the_reason_column_never_comes_before_the_prices():
    """It came beside the name (2026-12-06, 340 px): on a phone it pushed the price off the screen and cut most reasons.
    The page lists the reasons under the table now (tables.unusable_reasons); the column, if ever given, comes last."""
    order = tables.offers_column_order(RANKED)
    assert order[:5] == ["sku", "usd_per_reference_gpu_hour", "usd_per_gpu_hour", "usd_per_hour", "purchase_option"]


def _shown(at: AppTest) -> tuple[list[str], dict]:
    (table,) = at.dataframe
    return list(table.proto.column_order), json.loads(table.proto.columns)


def test_on_a_phone_the_offers_name_is_pinned_and_the_price_they_are_ranked_by_shows_whole():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    for ranked_by, workload in (("usd_per_reference_gpu_hour", "llm-finetune"),
                                ("usd_per_gpu_hour", "(none: raw USD per GPU-hour)")):
        at.selectbox(key="prices_workload").set_value(workload).run()
        order, settings = _shown(at)
        assert order[:2] == ["sku", ranked_by], workload
        assert settings["sku"]["pinned"] is True
        assert settings["sku"]["width"] + settings[ranked_by]["width"] <= PHONE_PX, workload


LAPTOP_PX = 904    # the page's width on a 1366 px laptop, the sidebar open (Chromium; test_plan_page_table_widths.py)


def test_with_the_offers_a_workload_cannot_use_shown_the_table_keeps_its_name_and_price_and_no_reason():
    """The switch put a 340 px reason column between the pinned name and the price, and the offers it cannot use
    among the usable ones' rows (after them: row 18 for llm-finetune). Now the table is the one without the switch:
    the same usable offers, the name pinned and the price beside it; the reasons are under it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    at.selectbox(key="prices_workload").set_value("llm-finetune").run()
    without = at.dataframe[0].value
    at.toggle(key="prices_unusable").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    order, settings = _shown(at)
    assert order[:2] == ["sku", "usd_per_reference_gpu_hour"] and "cannot_serve" not in order
    assert settings["sku"]["pinned"] is True
    assert settings["sku"]["width"] + settings["usd_per_reference_gpu_hour"]["width"] <= PHONE_PX
    assert at.dataframe[0].value.equals(without)
