"""add_decisions re-solves a plan under the extra_constraints plan() was given, without being passed them
again; and a re-solve with one more restriction that comes out cheaper than the plan (a Plan read back,
whose constraints are gone) is an error, not a runner-up 10 % cheaper than the plan (a review, 2026-12-04)."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from planner import add_decisions, load_scenario, plan
from planner.errors import PlannerError

STARTUP = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"


def no_rtx_4090(m) -> None:
    m.prob += (m.card("rtx-4090") <= 0, "no_rtx_4090")


def test_add_decisions_applies_the_plans_own_extra_constraints():
    s = load_scenario(STARTUP)
    constrained = plan(s, baselines=False, extra_constraints=no_rtx_4090)
    # the same restriction as a scenario field: an independent route to the same model
    capped = plan(s, baselines=False, overrides={"constraints.max_units": {"rtx-4090": 0}})
    assert constrained.total == pytest.approx(capped.total, abs=0.01)
    assert constrained.total > plan(s, baselines=False).total + 1.0   # the constraint binds
    add_decisions(constrained)            # not passed again
    add_decisions(capped)
    assert constrained.runner_up["total"] >= constrained.total - 0.005
    assert constrained.runner_up["total"] == pytest.approx(capped.runner_up["total"], abs=0.01)
    assert constrained.runner_up["fleet"] == capped.runner_up["fleet"]
    def rows(p):
        d = p.decisions.assign(total_if_forbidden=p.decisions["total_if_forbidden"].round(2).fillna(-1.0))
        return sorted(d[["decision", "card_or_offer", "month", "status", "total_if_forbidden"]].values.tolist())
    assert rows(constrained) == rows(capped)


def test_a_restricted_re_solve_cheaper_than_the_plan_is_an_error():
    constrained = plan(load_scenario(STARTUP), baselines=False, extra_constraints=no_rtx_4090)
    read_back = pickle.loads(pickle.dumps(constrained))   # a Plan read back keeps no callable
    said = f"below the plan's {constrained.total:,.2f}: a plan with one more restriction cannot cost less"
    with pytest.raises(PlannerError, match=re.escape(said)):
        add_decisions(read_back, threads=1)
