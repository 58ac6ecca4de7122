"""A budget for all of what-each-decision-is-worth's re-solves (add_decisions' `total_seconds`), which the
dashboard sets: a review (2026-12-05) found that their number grows with the cards (282 re-solves for an upload
of 25 custom cards), each allowed the dashboard's 60 s, with no bound on them together."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from planner.engine import add_decisions, plan
from planner.engine.decisions import DecisionsOutOfTime
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


@pytest.fixture(scope="module")
def planned():
    return plan(STARTUP, baselines=False)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_budget_spent_stops_the_re_solves_and_leaves_the_plan_as_it_was(planned, threads):
    p = plan(STARTUP, baselines=False)
    with pytest.raises(DecisionsOutOfTime) as info:
        add_decisions(p, total_seconds=1e-9, threads=threads)   # spent before the first re-solve
    assert str(info.value) == ("what each decision is worth: stopped after 1e-09 s, the limit for all its re-solves "
                               "(0 done); the plan itself stands")
    assert isinstance(info.value, PlannerError)
    assert p.decisions is None and p.runner_up is None and p.total == planned.total


def test_a_budget_not_spent_changes_nothing():
    with_budget = add_decisions(plan(STARTUP, baselines=False), total_seconds=3600)
    without = add_decisions(plan(STARTUP, baselines=False))
    pd.testing.assert_frame_equal(with_budget.decisions, without.decisions)
    pd.testing.assert_frame_equal(with_budget.flip_points, without.flip_points)
    assert with_budget.runner_up["total"] == without.runner_up["total"]


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, True, "60"])
def test_a_budget_that_is_no_number_of_seconds_is_refused(planned, bad):
    with pytest.raises(PlannerError, match=r"^total_seconds: expected seconds above 0 \(or None: no limit\), got "):
        add_decisions(planned, total_seconds=bad)

