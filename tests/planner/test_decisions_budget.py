"""A time limit for all of what-each-decision-is-worth's re-solves together (add_decisions' `total_time_limit`),
which the dashboard sets: a review (2026-12-05) found that their number grows with the cards (282 re-solves for
25 custom cards), each allowed the dashboard's 60 s, with no bound on them together."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd
import pytest

from planner.engine import add_decisions, plan
from planner.engine.decisions import DecisionsOutOfTime
from planner.errors import PlannerError

decisions_module = sys.modules["planner.engine.decisions"]
ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


@pytest.fixture(scope="module")
def planned():
    return plan(STARTUP, baselines=False)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_limit_spent_stops_the_re_solves_and_leaves_the_plan_as_it_was(planned, threads):
    p = plan(STARTUP, baselines=False)
    with pytest.raises(DecisionsOutOfTime) as info:
        add_decisions(p, total_time_limit=1e-9, threads=threads)   # spent before the first re-solve
    assert str(info.value) == ("the re-solves of what each decision is worth stopped at their limit of 1e-09 s in all "
                               "(0 done); the plan itself stands")
    assert isinstance(info.value, PlannerError)
    assert p.decisions is None and p.runner_up is None and p.total == planned.total


class _Clock:
    """time.monotonic for the decisions module: 10 s pass at each reading."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 10.0
        return self.now


def test_the_limit_stops_them_midway_and_shortens_each_solve_to_what_is_left(monkeypatch):
    # with a clock that moves 10 s a reading and 45 s in all, the start at 10: each solve reads the clock for its
    # check before (20: 10 s spent), its time limit (30: 45 - 20 = 25 s left, less than the plan's 60 s) and its
    # check after (40: 30 s spent, within). The second: before, 50 (40 s spent, within); its limit at 60, with
    # no time left, is the least a solve gets, 0.1 s; after, 70 (60 s spent): stopped, its answer not counted.
    limits, real = [], decisions_module.solve
    monkeypatch.setattr(decisions_module, "solve", lambda m, solver, limit, start=None:
                        limits.append(limit) or real(m, solver, limit, start=start))
    monkeypatch.setattr(decisions_module.time, "monotonic", _Clock())
    with pytest.raises(DecisionsOutOfTime, match=r"limit of 45 s in all \(1 done\)"):
        add_decisions(plan(STARTUP, baselines=False), time_limit=60, total_time_limit=45, threads=1)
    assert limits == [25.0, 0.1]


def test_a_limit_not_reached_changes_nothing():
    with_limit = add_decisions(plan(STARTUP, baselines=False), total_time_limit=3600)
    without = add_decisions(plan(STARTUP, baselines=False))
    pd.testing.assert_frame_equal(with_limit.decisions, without.decisions)
    pd.testing.assert_frame_equal(with_limit.flip_points, without.flip_points)
    assert with_limit.runner_up["total"] == without.runner_up["total"]


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, True, "60"])
def test_a_limit_that_is_no_number_of_seconds_is_refused(planned, bad):
    with pytest.raises(PlannerError, match=r"^total_time_limit: expected seconds above 0 \(or None: no limit\), got "):
        add_decisions(planned, total_time_limit=bad)
