"""The fleets HiGHS starts the decisions' re-solves from (engine.decisions, engine.solve's `start`): built by
hand from the plan's schedule here, accepted by the model as a fleet, and changing no answer.

industrial.yaml (60 months, A100s bought every 3 months) buys 24 A100s in month 1, 1 in month 7, 2 in
month 10 … (its schedule); forbidding a purchase starts from the plan with those cards bought one
purchase month earlier (the first purchase: one later).
"""

from __future__ import annotations

from pathlib import Path

import pulp
import pytest

from planner import plan
from planner.engine.decisions import _resolver, _vintage, purchases, start_of
from planner.engine.model import build_model
from planner.engine.solve import solve

ROOT = Path(__file__).resolve().parents[2]
INDUSTRIAL = ROOT / "scenarios" / "industrial.yaml"
A100 = "a100-80gb-pcie"


@pytest.fixture(scope="module")
def industrial():
    p = plan(INDUSTRIAL, baselines=False)
    r = _resolver(p, None, None, None, None)
    return p, r, build_model(r.inp, None)


def by_month(m, start: dict) -> dict[int, float]:
    first = m.inputs.vintages["first_service"].to_numpy()
    return {int(first[k]): start[var] for k, var in m.buy.items() if var in start}


def schedule(p) -> dict[int, float]:
    buys = p.schedule[p.schedule["action"] == "buy"]
    return dict(zip(buys["month"].astype(int), buys["units"]))


@pytest.mark.parametrize(("month", "to"), [(7, 4), (10, 7), (52, 49), (1, 4)])
def test_a_forbidden_purchase_starts_from_the_plan_with_it_moved_one_purchase_month(industrial, month, to):
    p, r, m = industrial
    plan_buys = schedule(p)
    assert plan_buys[1] == 24 and plan_buys[7] == 1 and 4 not in plan_buys   # the schedule, as the docstring says
    start = by_month(m, r.start_without_buy(m, _vintage(r.inp, A100, owned=False, month=month)))
    expected = {mo: plan_buys.get(mo, 0.0) for mo in range(1, 61, 3)}
    expected[to] += expected[month]
    expected[month] = 0.0
    assert start == expected


def test_the_start_is_a_fleet_the_model_accepts_and_no_better_than_the_optimum(industrial):
    # month 13's 5 A100s bought in month 10 instead: a plan with exactly those purchases exists, and it
    # costs at least the optimum without month 13's purchase (which the start leaves to HiGHS to prove)
    p, r, m = industrial
    k = _vintage(r.inp, A100, owned=False, month=13)
    fixed = by_month(m, r.start_without_buy(m, k))

    def exactly(model):
        first = model.inputs.vintages["first_service"].to_numpy()
        for j, var in model.buy.items():
            model.prob += (var == fixed[int(first[j])], f"fixed_buy_{j}")

    def none_in_13(model):
        model.buy[_vintage(model.inputs, A100, owned=False, month=13)].upBound = 0

    started = plan(INDUSTRIAL, baselines=False, extra_constraints=exactly)
    optimum = plan(INDUSTRIAL, baselines=False, extra_constraints=none_in_13)
    assert schedule(started).get(13, 0) == 0 and schedule(started)[10] == 2 + 5
    assert started.total >= optimum.total - 1e-6 * optimum.total
    assert optimum.total > p.total   # forbidding a purchase of the optimum costs more


@pytest.mark.parametrize("month", [1, 22, 52])
def test_a_start_changes_no_answer(industrial, month):
    # the same model solved with and without the start: the same proven optimum (HiGHS's gap 1e-9)
    _, r, _ = industrial
    totals = []
    for started in (False, True):
        m = build_model(r.inp, None)
        k = _vintage(r.inp, A100, owned=False, month=month)
        m.buy[k].upBound = 0
        solution = solve(m, "highs", start=r.start_without_buy(m, k) if started else None)
        assert solution.status == "optimal"
        totals.append(solution.objective)
    assert totals[1] == pytest.approx(totals[0], rel=1e-9)


def test_purchases_read_back_what_start_of_sets(industrial):
    # a model solved with every purchase fixed to a fleet reads that fleet back by (card, month)
    _, r, _ = industrial
    fleet = {(A100, mo): (8.0 if mo in (1, 25) else 0.0) for mo in range(1, 61, 3)}
    m = build_model(r.inp, None)
    for var, units in start_of(m, fleet).items():
        var.lowBound = var.upBound = units
    assert solve(m, "highs").status == "optimal"
    assert purchases(m) == fleet
    assert pulp.value(m.card(A100)) == pytest.approx(16)


def test_one_card_more_starts_in_the_first_purchase_month_and_one_fewer_from_the_last(industrial):
    p, r, _ = industrial
    plan_buys = {(A100, mo): units for mo, units in schedule(p).items()}
    more, fewer = r.plan_with_one(A100, more=True), r.plan_with_one(A100, more=False)
    assert more == {**plan_buys, (A100, 1): 24 + 1}
    assert fewer == {**plan_buys, (A100, 52): 8 - 1}      # month 52 is the plan's last purchase
    assert r.plan_with_one("rtx-4090", more=False) == plan_buys   # no such card bought: nothing to take
