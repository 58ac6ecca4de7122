"""`model.card(sku)` in extra_constraints: a sku the model has no card of is a PlannerError naming it, the
model's cards and the closest name (it returned None, and `m.card("rtx-409") <= 0` raised "'<=' not supported
between instances of 'NoneType' and 'int'"). Every card of the scenario has a count, 0 for one that cannot be
bought. scenarios/entry.yaml lists rtx-3060-12gb and rtx-4060-ti-16gb; after the exact reductions its one cloud
offer is Azure's Standard_NC4as_T4_v3; the catalog has no price for rtx-a5000 nor h100-pcie
(planner/data/onprem_cards.csv: their price cells are empty)."""

from pathlib import Path

import pulp
import pytest

from planner import plan
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = str(ROOT / "scenarios" / "entry.yaml")
ITS_CARDS = "(the model's cards: rtx-3060-12gb, rtx-4060-ti-16gb)"


def _card_of(sku: str, **kwargs):
    """Plan ENTRY with an extra constraint at most 0 of `sku`; the PlannerError it raises."""
    with pytest.raises(PlannerError) as info:
        plan(ENTRY, baselines=False, extra_constraints=lambda m: m.prob.addConstraint(m.card(sku) <= 0, "x"), **kwargs)
    return str(info.value)


def test_a_misspelt_card_names_the_model_s_cards_and_the_closest():
    assert _card_of("rtx-3060") == f"model.card('rtx-3060'): no card rtx-3060 in this model; did you mean rtx-3060-12gb? " \
                                   f"{ITS_CARDS}"
    assert _card_of("zzz") == f"model.card('zzz'): no card zzz in this model {ITS_CARDS}"


def test_a_catalog_card_the_scenario_does_not_list_says_so_and_that_it_has_no_price():
    assert _card_of("rtx-a5000") == (f"model.card('rtx-a5000'): card rtx-a5000 is not among the scenario's cards "
                                     f"{ITS_CARDS}; list it in onprem.cards; it has no sourced price in the catalog, so "
                                     "give onprem.card_overrides.rtx-a5000.price (and currency) from a quote")
    assert _card_of("h100pcie") == ("model.card('h100pcie'): no card h100pcie in this model; did you mean h100-pcie, a "
                                    f"catalog card the scenario does not list (add it to onprem.cards)? {ITS_CARDS}")


def test_a_cloud_offer_is_no_card():
    assert _card_of("Standard_NC4as_T4_v3") == ("model.card('Standard_NC4as_T4_v3'): Standard_NC4as_T4_v3 is a cloud "
                                                "offer, not an on-prem card; model.card counts on-prem cards "
                                                f"{ITS_CARDS}")


def test_missing_ok_gives_none_for_a_card_not_in_the_model():
    seen = {}

    def look(m):
        seen["missing"] = m.card("rtx-409", missing_ok=True)
        seen["held"] = m.card("rtx-3060-12gb", missing_ok=True)

    plan(ENTRY, baselines=False, extra_constraints=look)
    assert seen["missing"] is None and isinstance(seen["held"], pulp.LpAffineExpression)


def test_a_listed_card_with_no_price_counts_0_and_the_plan_says_it_is_not_bought():
    seen = {}

    def at_most_none(m):
        seen["a5000"] = m.card("rtx-a5000")
        m.prob += (m.card("rtx-a5000") <= 0, "no_a5000")

    p = plan(ENTRY, baselines=False, extra_constraints=at_most_none,
             onprem__cards=["rtx-3060-12gb", "rtx-4060-ti-16gb", "rtx-a5000"])
    assert len(seen["a5000"]) == 0 and seen["a5000"].constant == 0   # no variable: none can be bought
    assert ("card rtx-a5000 has no sourced price in the catalog: it is not bought; set "
            "onprem.card_overrides.rtx-a5000.price (and currency) from a quote") in p.warnings
