"""The one cost schedule and what is built on it, against figures worked out by hand.

The worked example (examples/worked-example.yaml): one RTX A5000 at 2,000 + 500 host, 5 %/year
maintenance, 100 W idle / 400 W busy at PUE 1.5 and 0.20 USD/kWh, a 4-year life over a 24-month
horizon; AWS g5.xlarge on-demand at 1.006 USD/h doing 0.8 of the card's work per hour; 800 h a month.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from planner.engine import CAPS, Cap, inputs_for, plan
from planner.engine.schedule import book_share
from planner.errors import InfeasibleError
from planner.reports import prices_used
from planner.scenario import apply_overrides, load_scenario

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
SHIPPED = sorted((ROOT / "scenarios").glob("*.yaml")) + [WORKED]
ALL_CLOUD_BY_HAND = 800 / 0.8 * 1.006 * 24        # every hour rented: 24,144 USD


def _unit(inp, sku: str) -> int:
    return int(np.flatnonzero(inp.col("sku") == sku)[0])


def test_card_rows_of_the_schedule_by_hand():
    inp = inputs_for(load_scenario(WORKED))
    s, card = inp.schedule, _unit(inp, "rtx-a5000")
    assert s.months == 25                                               # 24 months + the residual month
    first = int(np.flatnonzero((inp.vintages["unit"] == card) & (inp.vintages["first_service"] == 1))[0])
    assert s.totals("buy", "capex")[first] == pytest.approx(2500)
    # resale at half the straight-line book value after 24 of 48 months
    assert s.totals("buy", "residual_value")[first] == pytest.approx(-0.5 * 2500 * (1 - 24 / 48))
    mine = (s.rows["key"] == first) & (s.rows["driver"] == "buy")
    maintenance = s.amounts[mine & (s.rows["category"] == "maintenance")][0]
    assert maintenance[:24] == pytest.approx([2500 * 0.05 / 12] * 24) and maintenance[24] == 0
    idle = s.amounts[mine & (s.rows["category"] == "energy")][0]
    assert idle[:24] == pytest.approx([0.1 * 730 * 1.5 * 0.20] * 24)   # 21.90 USD a month
    # a card bought in month 7 (the third quarter) pays from month 7 and is sold after 18 months
    later = int(np.flatnonzero((inp.vintages["unit"] == card) & (inp.vintages["first_service"] == 7))[0])
    assert s.totals("buy", "maintenance")[later] == pytest.approx(2500 * 0.05 / 12 * 18)
    assert s.totals("buy", "residual_value")[later] == pytest.approx(-0.5 * 2500 * (1 - 18 / 48))
    assert s.busy_rate()[card] == pytest.approx(0.3 * 1.5 * 0.20)       # 0.09 USD per busy hour
    assert s.busy_rate()[_unit(inp, "g5.xlarge")] == pytest.approx(1.006)


def _reserved_offers(tmp_path: Path) -> Path:
    base = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text().splitlines()
    header, od = base[0], base[1]
    res = (od.replace("g5.xlarge:on_demand", "g5.xlarge:reserved_1y").replace(",on_demand,", ",reserved_1y,")
             .replace(",1.006,0.0,USD,0,", ",0.55,1200.0,USD,12,"))
    path = tmp_path / "offers.csv"
    path.write_text("\n".join([header, od, res]) + "\n")
    return path


def test_reservation_terms_are_paid_in_full_and_renewed_by_hand(tmp_path):
    s = apply_overrides(load_scenario(WORKED), {"prices.source": str(_reserved_offers(tmp_path)),
                                                "prices.purchase_options": ["on_demand", "reserved_1y"],
                                                "horizon_months": 18, "discount_rate": 0.08})
    inp = inputs_for(s)
    r = int(np.flatnonzero(inp.col("kind") == "reserved")[0])
    # 18 months need two 12-month terms: 1,200 upfront in months 1 and 13, 0.55 × 730 in months 1..24
    held = (inp.schedule.rows["driver"] == "held").to_numpy()
    paid = inp.schedule.per_key(inp.schedule.amounts, held, len(inp.units))[r]
    expected = np.full(24, 0.55 * 730)
    expected[[0, 12]] += 1200
    assert paid == pytest.approx(expected)
    d = [(1.08) ** (-(m - 1) / 12) for m in range(1, 25)]
    assert inp.schedule.present_values("held", inp.discount)[r] == pytest.approx(float(np.dot(expected, d)))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_fleet_rows_plus_site_costs_add_up_to_the_total(path):
    p = plan(path)
    site = p.flows.loc[p.flows["unit_id"] == "site", "present_value"].sum()
    assert p.fleet["cost"].sum() + site == pytest.approx(p.total, rel=1e-9)
    assert p.costs["cost"].sum() == pytest.approx(p.total, rel=1e-12)
    assert p.monthly["total_discounted"].sum() == pytest.approx(p.total, rel=1e-9)


def test_site_costs_are_their_own_rows_by_hand():
    p = plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False,
             overrides={"onprem.fixed_onprem_per_month": 300, "onprem.colocation_per_kw_month": 20})
    site = p.flows[p.flows["unit_id"] == "site"]
    assert site["cost"].tolist() == pytest.approx([300.0] * 36) and site["month"].tolist() == list(range(1, 37))
    assert p.fleet["cost"].sum() + site["present_value"].sum() == pytest.approx(p.total, rel=1e-9)
    # colocation of each card: installed kW × 20 USD a month, in every month it is in service. The plan keeps one
    # A100 and one RTX 4090 all 36 months (README); busy watts 300 (the scenario's card_overrides) and 810 (the
    # catalog, planner/data/onprem_cards.csv)
    assert p.installed.groupby("card")["units"].agg(["min", "max"]).loc[["a100-80gb-pcie", "rtx-4090"]].eq(1).all().all()
    coloc = p.flows[p.flows["category"] == "colocation"].groupby("sku")["cost"].sum()
    assert coloc.to_dict() == pytest.approx({"a100-80gb-pcie": 36 * 0.300 * 20, "rtx-4090": 36 * 0.810 * 20})


def test_fleet_rows_say_their_kind():
    p = plan(WORKED, baselines=False)
    assert dict(zip(p.fleet["sku"], p.fleet["kind"])) == {"rtx-a5000": "card", "g5.xlarge": "on_demand"}


def test_extra_constraints_hook_forbids_the_card_and_the_plan_rents_everything():
    def no_cards(m):
        m.prob += (m.card("rtx-a5000") == 0, "no_rtx_a5000")
    p = plan(WORKED, baselines=False, extra_constraints=no_cards)
    assert p.total == pytest.approx(ALL_CLOUD_BY_HAND, rel=1e-6)   # the LP solver's tolerance
    assert set(p.fleet["kind"]) == {"on_demand"}


def test_extra_constraints_that_cannot_be_met_are_named():
    def two_cards(m):
        m.prob += (m.card("rtx-a5000") >= 2, "two_cards")   # 5,000 USD > the 2,500 budget
    with pytest.raises(InfeasibleError, match="extra constraints"):
        plan(WORKED, baselines=False, extra_constraints=two_cards)


def test_a_cap_added_to_the_registry_is_built_and_dropped_by_baselines(monkeypatch):
    import pulp

    def no_more_cards(m, limit):
        m.prob += (pulp.lpSum(m.n.values()) <= limit, "max_cards")
    cap = Cap("max_cards", read=lambda s: 0, define=no_more_cards, in_baselines=False,
              measure=lambda m: pulp.lpSum(m.n.values()),
              explain=lambda limit, need, fleet, inp, unproven: f"max_cards {limit} < {need:g}")
    monkeypatch.setattr("planner.engine.constraints.CAPS", [*CAPS, cap])
    p = plan(WORKED)
    assert p.total == pytest.approx(ALL_CLOUD_BY_HAND, rel=1e-6)   # the LP solver's tolerance
    # the baseline all-on-prem ignores the cap and buys cards: its total is not the all-cloud one
    onprem = p.baselines.set_index("baseline").loc["all_onprem", "total"]
    assert onprem < ALL_CLOUD_BY_HAND


def test_exports_use_the_prices_the_plan_used_not_the_file_now(tmp_path):
    offers = _reserved_offers(tmp_path)
    p = plan(WORKED, baselines=False, overrides={"prices.source": str(offers)})
    offers.write_text(offers.read_text().replace(",1.006,", ",9.99,"))   # a refresh after planning
    used = prices_used(p).set_index("sku")
    assert used.loc["g5.xlarge", "hourly_price"] == 1.006


# ---------------------------------------------------------------------------------------------------
# Declining balance: a rate of 2/life a year, so a life of 2 years or less leaves nothing after any age


@pytest.mark.parametrize("life_years", [0.5, 1, 1.5, 2])
def test_declining_balance_of_a_life_of_two_years_or_less_is_worth_nothing_after_any_age(life_years):
    ages = [1, 6, 12, 24, 36]
    assert book_share(ages, life_years, "declining_balance").tolist() == [0.0] * len(ages)
    assert book_share([0], life_years, "declining_balance").tolist() == [1.0]   # new: an owned card sold in month 1


def test_book_share_takes_the_age_in_months_and_the_life_in_years():
    # 2.5 years: 1 − 2/2.5 = 0.2 a year; 4 years: 0.5 a year (docs/cost-model.md §6: 48 months → 0.0625)
    assert book_share([12, 24, 6], 2.5, "declining_balance").tolist() == pytest.approx([0.2, 0.04, 0.2 ** 0.5])
    assert book_share([48], 4, "declining_balance").tolist() == pytest.approx([0.0625])
    assert book_share([18], 1.5, "straight_line").tolist() == pytest.approx([0.0])   # t / (12 × L) = 18/18
    assert book_share([9], 1.5, "straight_line").tolist() == pytest.approx([0.5])
