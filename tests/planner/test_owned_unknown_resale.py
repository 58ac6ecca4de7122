"""An owned card with no sourced price has an unknown resale value, not a resale value of 0: the plan must not
sell it "for 0" — give a working card away — but keep it or switch it off, and say that a price would let it
weigh a sale (an audit, 2026-12-06: an owned A100 40GB PCIe was sold for 0 USD, "cheaper to sell")."""

from __future__ import annotations

import pytest

from planner import load_scenario, plan
from planner.errors import PlannerError

REMEDY = "resale value unknown: give onprem.card_overrides.a100-40gb-pcie.price to weigh a sale"


def one_owned_a100_40gb(**onprem) -> dict:
    """One A100 40GB PCIe owned new (the catalog has no sourced price for it), 1 A100-80GB-hour of work a month,
    power at 1 USD/kWh: keeping the card idle costs about 38 W × 730 h × 1 USD/kWh = 27.7 USD a month, far more
    than renting that hour, so the plan does not keep it working."""
    return {"name": "one owned A100 40GB", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
            "prices": {"source": "snapshot", "providers": ["aws"], "regions": ["us-east-1"],
                       "purchase_options": ["on_demand"]},
            "onprem": {"electricity_per_kwh": 1.0, "pue": 1.0, "availability": 1.0, "cards": [],
                       "existing": {"a100-40gb-pcie": 1}, **onprem},
            "workloads": [{"name": "training", "gpu_hours_per_month": 1, "reference_gpu": "A100-80GB-PCIE",
                           "min_gpu_memory_gb": 40}]}


def owned_row(p) -> dict:
    (row,) = p.owned.to_dict("records")
    return row


def test_an_owned_card_of_unknown_resale_value_is_switched_off_not_sold_for_0():
    p = plan(load_scenario(one_owned_a100_40gb()), baselines=False)
    row = owned_row(p)
    assert (row["kept"], row["switched_off"], row["sold"]) == (0, 1, 0)
    assert row["note"] == f"cheaper to switch off; {REMEDY}"
    assert "sell" not in p.schedule["action"].tolist()
    warning = next(w for w in p.warnings if "a100-40gb-pcie has no sourced price" in w)
    assert "the units owned are not sold (their resale value is unknown)" in warning


def test_it_is_kept_where_it_may_not_be_switched_off_and_the_note_says_why():
    p = plan(load_scenario(one_owned_a100_40gb(switch_off_owned=False)), baselines=False)
    row = owned_row(p)
    assert (row["kept"], row["switched_off"], row["sold"]) == (1, 0, 0)
    assert row["note"] == f"kept: onprem.switch_off_owned is false; {REMEDY}"


def test_with_a_quoted_price_the_sale_is_weighed_and_credits_half_the_price():
    # price 5,000 USD, no host cost, owned new: the sale credits 0.5 (share_of_book) × 5,000 × book(0) = 2,500,
    # more than the card's end value after 12 months and its idle power: it is sold
    doc = one_owned_a100_40gb(card_overrides={"a100-40gb-pcie": {"price": 5000, "currency": "USD",
                                                                 "host_cost_per_card": 0}})
    p = plan(load_scenario(doc), baselines=False)
    assert (owned_row(p)["sold"], owned_row(p)["note"]) == (1, "cheaper to sell")
    sale = p.schedule[p.schedule["action"] == "sell"]
    assert sale[["units", "amount"]].values.tolist() == [[1, -2500.0]]


def test_more_owned_than_max_units_that_can_neither_be_switched_off_nor_sold_is_refused_with_the_reason():
    doc = one_owned_a100_40gb(switch_off_owned=False)
    doc["constraints"] = {"max_units": {"a100-40gb-pcie": 0}}
    with pytest.raises(PlannerError) as caught:
        plan(load_scenario(doc), baselines=False)
    assert ("max_units.a100-40gb-pcie = 0 < 1 units already owned (onprem.existing), and owned cards may not be "
            "switched off and a100-40gb-pcie's are not sold: its resale value is unknown (give "
            "onprem.card_overrides.a100-40gb-pcie.price to weigh a sale)") in str(caught.value)
