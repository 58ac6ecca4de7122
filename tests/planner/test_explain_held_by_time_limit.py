"""Without a time limit for the plan, the re-solves that name the limits holding an infeasible plan's on-prem capacity
(engine.explain._capacity_held_by: the least cloud share without each limit on cards, without them all, then without
all but each) share a time limit of their own: 20 times the plan's own solve, at least 600 s
(engine.decisions.resolves_time_limit, as add_decisions' re-solves). They had none: a large scenario's explanation ran
on for minutes after the plan failed. The limits they leave unchecked are said to be, where one was dropped without a
word.

The scenario (tests/planner/test_explain_capacity_caps.py): a 1 kW power cap, a yearly capex budget and max_units 2
each hold the on-prem capacity at 2 RTX-A5000s; dropping any one alone leaves it there, and dropping them all frees it
(0.0 %). Time passes on a clock of the test's own: each solve of the explanation takes 250 s on it, or its whole time
limit when that is less, and then stops without a fleet (as HiGHS stops before its first fleet). The plan's own solve
is said to take `plan_seconds`."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from planner.engine import baselines, explain
from planner.engine.solve import TimeBudget, solve
from tests.planner.test_explain_capacity_caps import _explanation

EACH = 250.0
POWER, BUDGET, MOST = ("the power cap of 1 kW", "the capex budget per year of 2,500 USD",
                       "constraints.max_units.rtx-a5000 = 2")
ALL = f"{POWER}, {BUDGET} and {MOST}"
FLEET = "on-prem capacity is limited to 2 × RTX-A5000 (1 owned, 2,500 USD for the others)"


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def _held_by_solves(monkeypatch, plan_seconds: float) -> list[float]:
    """The time limits of the explanation's solves that have one (those naming the limits on cards: the plan has
    none), as each starts; the plan's own solve is said to take `plan_seconds`."""
    clock, limits = _Clock(), []

    def explained(m, solver=explain.DEFAULT_SOLVER, time_limit=None):
        solution = solve(m, solver, time_limit)
        if time_limit is None:
            return solution
        limits.append(time_limit)
        clock.now += min(EACH, time_limit)
        return replace(solution, status="not_solved", objective=math.nan) if time_limit < EACH else solution

    def planned(m, solver="highs", time_limit=None, start=None):
        return replace(solve(m, solver, time_limit), seconds=plan_seconds)

    monkeypatch.setattr(TimeBudget, "clock", staticmethod(clock.monotonic))
    monkeypatch.setattr(explain, "solve", explained)
    monkeypatch.setattr(baselines, "solve", planned)
    return limits


def _ran_out(seconds: str) -> str:
    return (f"is not checked: the time limit of {seconds} s for solving the least cloud share again without these "
            "limits (the plan has none: 20 times its solve, at least 600 s) ran out first")


@pytest.mark.parametrize("plan_seconds, budget, limits, held_by", [
    # 20 × 1 s < 600 s: the power cap and the budget are dropped in 250 s each; max_units has the 100 s left, and
    # stops there: it is not checked, nor the three together
    (1.0, 600, [600, 350, 100], f"; whether {MOST} holds it alone, or {ALL} together, {_ran_out('600')}"),
    # 20 × 40 s: each limit alone is dropped (none lowers the least), and the solve without them all has 50 s
    (40.0, 800, [800, 550, 300, 50], f"; whether {ALL} hold it together {_ran_out('800')}"),
    # 20 × 65 s: without them all 0.0 % (in 250 s); the power cap is then kept (250 s: it holds the 2 cards), the
    # budget stops in the 50 s left, and nothing is left to keep max_units: both stay named, said not checked
    (65.0, 1300, [1300, 1050, 800, 550, 300, 50],
     f", held there by {ALL} together (without them all the least cloud share is 0.0 %); whether each of {BUDGET} and "
     f"{MOST} is needed {_ran_out('1,300')}"),
])
def test_without_a_time_limit_the_solves_naming_the_limits_end_within_their_own_and_say_what_is_unchecked(
        monkeypatch, plan_seconds, budget, limits, held_by):
    given = _held_by_solves(monkeypatch, plan_seconds)
    text = _explanation(1.0, constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 2}}")
    assert given == limits
    assert sum(min(EACH, limit) for limit in given) == budget   # the last solve ends as the time limit does
    assert text.endswith(FLEET + held_by), text


def test_limits_whose_re_solves_the_solver_did_not_prove_are_said_unchecked_and_why(monkeypatch):
    # each solve without a limit finds the 2 cards' least again but stops short of proving it (HiGHS's answer failed
    # its checks), in no time: none is known no lower, so none is named, nor are they solved without them all
    def unproved(m, solver=explain.DEFAULT_SOLVER, time_limit=None):
        solution = solve(m, solver, time_limit)
        held_by = time_limit is not None and solution.status == "optimal"
        return replace(solution, status="feasible") if held_by else solution

    monkeypatch.setattr(explain, "solve", unproved)
    text = _explanation(1.0, constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 2}}")
    assert text.endswith(f"{FLEET}; whether {POWER}, {BUDGET} or {MOST} holds it alone, or {ALL} together, is not "
                         "checked: the solver did not prove the least"), text
