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


def test_with_the_offers_a_workload_cannot_use_the_reason_comes_beside_the_name():
    """It came tenth, about 1,080 px in: beyond a phone's and a small laptop's screen."""
    assert tables.offers_column_order(RANKED) == [
        "sku", "cannot_serve", "usd_per_reference_gpu_hour", "usd_per_gpu_hour", "usd_per_hour", "purchase_option",
        "provider", "region", "gpu", "speed_vs_reference", "gpu_count", "gpu_memory_gb", "vcpus", "memory_gb", "zone",
        "as_of", "note"]


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


def test_the_reason_an_offer_cannot_be_used_is_beside_its_pinned_name_and_the_prices_after_it_fit_a_laptop():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    at.selectbox(key="prices_workload").set_value("llm-finetune").run()
    at.toggle(key="prices_unusable").set_value(True).run()
    assert not at.exception, [e.value for e in at.exception]
    order, settings = _shown(at)
    prices = ["usd_per_reference_gpu_hour", "usd_per_gpu_hour", "usd_per_hour"]
    assert order[:5] == ["sku", "cannot_serve", *prices]
    assert settings["sku"]["pinned"] is True and settings["sku"]["width"] < PHONE_PX   # the reason begins on a phone
    assert sum(settings[c]["width"] for c in order[:5]) <= LAPTOP_PX
