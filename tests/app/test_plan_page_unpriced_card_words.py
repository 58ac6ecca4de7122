"""The Plan page says where a card's missing price goes in the words the Prices page uses: its warnings box said the
plan's "card rtx-a5000 has no sourced price in the catalog: it is not bought; set
onprem.card_overrides.rtx-a5000.price (and currency) from a quote" (engine.inputs), a field path. The plan itself,
and its downloads, keep the engine's words.

startup-hybrid.yaml (the page's default scenario) lists rtx-a5000, which the catalog (planner/data/onprem_cards.csv)
gives no price, and gives none itself.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
ENGINE_WARNING = ("card rtx-a5000 has no sourced price in the catalog: it is not bought; set "
                  "onprem.card_overrides.rtx-a5000.price (and currency) from a quote")
PAGE_WARNING = ("card rtx-a5000 has no sourced price in the catalog: it is not bought; set its price from a quote in the "
                "Plan page's quote box (sidebar, On-prem cards), or (and its currency) under the scenario file's “Card overrides "
                "(your figures for catalog cards)”")


def test_the_plan_warns_of_the_unpriced_card_by_its_field_path():
    from planner.catalog.offers import site_card_rows
    from planner.engine.inputs import _unpriced_cards
    from planner.scenario import load_scenario

    s = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    assert _unpriced_cards(site_card_rows(s), s.name)[1] == [ENGINE_WARNING]


def test_the_unpriced_cards_remedy_is_in_the_pages_words():
    assert tables.in_page_words(ENGINE_WARNING) == PAGE_WARNING


def test_the_plan_page_says_where_a_cards_price_goes_in_its_words():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    [box] = [c.value for c in at.code]
    assert PAGE_WARNING in box.splitlines(), box
    assert "card_overrides" not in box and "custom_cards" not in box
