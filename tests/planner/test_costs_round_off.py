"""The solver's round-off is no cost: a unit whose hours over the horizon are at most BUSY_HOURS_NOISE (1e-6, the
tolerance Plan.busy_by_workload and the fleet already use) works no hours in any table. A notebook audit (2026-12)
found 2.6e-08 USD of cloud_on_demand in `costs` (8.9e-09 in months 7–9 of `monthly`, rows in `flows`) of a plan whose
fleet holds no on-demand offer, so `p.costs[p.costs.cost != 0]` showed a category no fleet row pays.

The case: examples/worked-example.yaml over 24 months at 6 %/year, 1,600 GPU-hours a month, its g5.xlarge on-demand
offer plus reserved_1y (test figures: 0.5 USD/h, 1,000 USD upfront, 12 months) and reserved_3y (0.4 USD/h, 3,000 USD,
36 months). The plan holds two reserved_1y and the RTX A5000 (docs/cost-model.md, the worked example). By hand, with
d(m) = 1 / 1.06^((m − 1)/12): two reservations do 2 × 730 × 0.8 = 1,168 of the 1,600 reference hours a month (an
A10G does 0.8 of an A5000's), the A5000 the other 432 (its 0.9 availability allows 657). Per month: the reservations'
fees 2 × 0.5 × 730 = 730; the A5000's maintenance 2,500 × 0.05 / 12, idle energy 0.1 kW × 730 h × 1.5 × 0.20 = 21.90
and busy energy (0.4 − 0.1) kW × 1.5 × 0.20 × 432 h = 38.88; the upfront 2 × 1,000 in months 1 and 13, the capex 2,500
in month 1 and the A5000's resale credit −0.5 × 2,500 × (1 − 24/48) = −625 in month 25.
"""

from __future__ import annotations

import pytest

from planner import load_scenario, plan
from tests.planner.test_flows_after_horizon import H, d, worked_with_reservations

MONTHS = range(1, H + 1)
RESERVED = 2 * 1000 * (d(1) + d(13)) + 2 * 0.5 * 730 * sum(d(m) for m in MONTHS)
MAINTENANCE = 2500 * 0.05 / 12 * sum(d(m) for m in MONTHS)
ENERGY = (0.1 * 730 * 1.5 * 0.20 + 0.3 * 1.5 * 0.20 * 432) * sum(d(m) for m in MONTHS)
CAPEX, RESIDUAL = 2500.0, -625.0 * d(25)


@pytest.fixture(scope="module")
def reserved(tmp_path_factory):
    path = worked_with_reservations(tmp_path_factory.mktemp("round_off"),
                                    [("reserved_1y", "0.5", "1000", "12"), ("reserved_3y", "0.4", "3000", "36")])
    return plan(load_scenario(path), baselines=False)


def test_the_fleet_is_two_1y_reservations_and_the_a5000(reserved):
    fleet = reserved.fleet
    assert sorted(zip(fleet["sku"], fleet["purchase_option"], fleet["units"])) == [
        ("g5.xlarge", "reserved_1y", 2.0), ("rtx-a5000", "purchase", 1.0)]


def test_no_cost_category_without_a_fleet_row_pays_it(reserved):
    costs = reserved.costs.set_index("category")["cost"]
    assert costs["cloud_on_demand"] == 0.0 and costs["cloud_spot"] == 0.0
    paid = reserved.costs[reserved.costs["cost"] != 0]
    assert sorted(paid["category"]) == sorted(["capex", "residual_value", "maintenance", "energy", "cloud_reserved"])
    assert (reserved.monthly["cloud_on_demand"] == 0.0).all()
    f = reserved.flows
    assert not (f["purchase_option"] == "on_demand").any()
    assert set(f.loc[f["unit_id"] != "site", "unit_id"]) <= set(reserved.fleet["unit_id"])


def test_the_costs_are_the_hand_figures_and_add_up_to_the_total(reserved):
    costs = reserved.costs.set_index("category")["cost"]
    for category, expected in (("capex", CAPEX), ("residual_value", RESIDUAL), ("maintenance", MAINTENANCE),
                               ("energy", ENERGY), ("cloud_reserved", RESERVED)):
        assert costs[category] == pytest.approx(expected, rel=1e-9), category
    total = CAPEX + RESIDUAL + MAINTENANCE + ENERGY + RESERVED
    assert reserved.total == pytest.approx(total, rel=1e-9)
    assert reserved.total == pytest.approx(costs.sum(), rel=1e-12)
    assert reserved.flows["present_value"].sum() == pytest.approx(reserved.total, rel=1e-12)
    assert reserved.monthly["total_discounted"].sum() == pytest.approx(reserved.total, rel=1e-12)
    assert reserved.fleet["cost"].sum() == pytest.approx(reserved.total, rel=1e-12)
