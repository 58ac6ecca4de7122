"""The Prices page says where a card's missing price goes in its own words: its warning about the scenario's cards
with no sourced price said "give one in a scenario as onprem.card_overrides.<card>.price (and currency) from a quote,
or as a custom card (onprem.custom_cards) with its price", the offers view's words (engine.offer_costs.offers_table,
which `fleetplan offers` keeps). On the page the fields are named as its caption names them (tables.FIELD_WORDS).

industrial.yaml lists a100-80gb-pcie, h100-pcie and l40s; the catalog (planner/data/onprem_cards.csv) has no price for
the last two, and the scenario gives none.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
FIELD_TEXTS = ("card_overrides", "custom_cards", "gpu_count", "gpu_memory_gb", "pricing_adapters/")
ENGINE_WARNING = ("on-prem cards h100-pcie, l40s not shown: no sourced price in the catalog; give one in a scenario as "
                  "onprem.card_overrides.<card>.price (and currency) from a quote, or as a custom card "
                  "(onprem.custom_cards) with its price")
PAGE_WARNING = ("on-prem cards h100-pcie, l40s not shown: no sourced price in the catalog; give one from a quote in the "
                "Plan page's quote box (sidebar, On-prem cards), or in the scenario file: a price (and currency) under its “Card "
                "overrides (your figures for catalog cards)”, or the card under its “Custom cards (cards the catalog "
                "lacks)” with its price")


def test_the_offers_view_names_the_fields_by_their_paths():
    from planner.engine.offer_costs import OfferFilter, offers_table
    from planner.scenario import load_scenario

    s = load_scenario(ROOT / "scenarios" / "industrial.yaml")
    _, warnings = offers_table(OfferFilter(), fx_to_usd={}, scenario=s, allowed_only=True)
    assert ENGINE_WARNING in warnings


def test_the_unpriced_cards_warning_is_in_the_pages_words():
    assert tables.in_page_words(ENGINE_WARNING) == PAGE_WARNING


def test_the_prices_page_says_where_a_cards_price_goes_in_its_words():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.selectbox(key="base").set_value("file:industrial.yaml").run()
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    for in_use in (True, False):   # the scenario's cards: said with the filter on or off
        at.toggle(key="prices_in_use").set_value(in_use).run()
        said = [w.value.replace("\\", "") for w in at.warning]   # as read (tables.plain escapes its punctuation)
        assert [w for w in said if w.startswith("on-prem cards h100-pcie, l40s")] == [PAGE_WARNING], said
        assert not [w for w in said if any(t in w for t in FIELD_TEXTS)], said
