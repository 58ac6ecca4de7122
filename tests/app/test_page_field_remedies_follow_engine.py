"""The pages say where a card's missing price goes in their words by matching the engine's own remedy texts
(engine.offer_costs.UNPRICED_CARDS_REMEDY, catalog.offers.UNPRICED_CARD_REMEDY), not copies of them: a copy stopped
matching, silently, once the engine reworded its sentence, and the pages showed the field paths again.

industrial.yaml lists a100-80gb-pcie, h100-pcie and l40s; the catalog (planner/data/onprem_cards.csv) has no price for
the last two, and the scenario gives none.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from fleetplan_dashboard import tables
from planner.catalog.offers import UNPRICED_CARD_REMEDY
from planner.engine.inputs import _unpriced_cards
from planner.engine.offer_costs import UNPRICED_CARDS_REMEDY

ROOT = Path(__file__).resolve().parents[2]
OVERRIDES = "“Card overrides (your figures for catalog cards)”"
CUSTOM = "“Custom cards (cards the catalog lacks)”"
CARDS_PAGE_WORDS = (f"give one from a quote in the Plan page's quote box (sidebar, On-prem cards), or in the scenario file: "
                    f"a price (and currency) under its {OVERRIDES}, or the card under its {CUSTOM} with its price")
CARD_PAGE_WORDS = (f"set its price from a quote in the Plan page's quote box (sidebar, On-prem cards), or (and its currency) "
                   f"under the scenario file's {OVERRIDES}")


def test_the_offers_views_unpriced_cards_warning_ends_with_the_remedy_the_pages_reword():
    from planner.engine.offer_costs import OfferFilter, offers_table
    from planner.scenario import load_scenario

    s = load_scenario(ROOT / "scenarios" / "industrial.yaml")
    _, warnings = offers_table(OfferFilter(), fx_to_usd={}, scenario=s, allowed_only=True)
    [warning] = [w for w in warnings if w.startswith("on-prem cards h100-pcie, l40s not shown")]
    assert warning.endswith(f"; {UNPRICED_CARDS_REMEDY}")
    shown = tables.in_page_words(warning)
    assert shown == warning.removesuffix(UNPRICED_CARDS_REMEDY) + CARDS_PAGE_WORDS


def test_the_plans_unpriced_card_warning_ends_with_the_remedy_the_pages_reword():
    # a card id with a dot and a plus (a custom card may be named so): the remedy's {card} is any run of non-spaces
    card = {"card_id": "my.card+2", "capex": math.nan, "buyable": True, "min_units": 0, "existing": 0}
    [warning] = _unpriced_cards([card], "s")[1]
    remedy = UNPRICED_CARD_REMEDY.format(card="my.card+2")
    assert warning == f"card my.card+2 has no sourced price in the catalog: it is not bought; {remedy}"
    assert tables.in_page_words(warning) == ("card my.card+2 has no sourced price in the catalog: it is not bought; "
                                             + CARD_PAGE_WORDS)


def test_every_field_remedy_of_the_pages_is_made_of_an_engine_text():
    patterns = {pattern.pattern for pattern, _ in tables.PAGE_FIELD_REMEDIES}
    assert patterns == {tables._template_pattern(UNPRICED_CARDS_REMEDY).pattern,
                        tables._template_pattern(UNPRICED_CARD_REMEDY).pattern}


def test_a_reworded_template_is_matched_with_its_card_as_any_run_of_non_spaces():
    pattern = tables._template_pattern("put {card}'s price (and {{currency}}) in onprem.card_overrides")
    assert pattern.fullmatch("put a.b+c's price (and {currency}) in onprem.card_overrides")
    assert not pattern.fullmatch("put a b's price (and {currency}) in onprem.card_overrides")
    assert not pattern.fullmatch("put a.b+c's price (and {currency}) in onprem_card_overrides")   # "." is literal


def test_requiring_units_of_an_unpriced_card_still_names_its_override_field():
    # the error's remedy comes from the same template (not shown in the pages' words: an error, not a warning)
    from planner.errors import ScenarioError

    card = {"card_id": "my.card+2", "capex": math.nan, "buyable": True, "min_units": 2, "existing": 0}
    with pytest.raises(ScenarioError) as raised:
        _unpriced_cards([card], "s")
    assert raised.value.problems == ["constraints.min_units.my.card+2: card my.card+2 has no sourced price in the "
                                     "catalog; set onprem.card_overrides.my.card+2.price (and currency) from a quote"]
