"""Solving a built model: CBC (bundled with pulp) or HiGHS, with the status, gap and seconds reported."""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from dataclasses import dataclass

import pulp

from planner.engine.model import Model
from planner.errors import PlannerError

SOLVERS = ("cbc", "highs")
GAP_REL = 1e-9


@dataclass(frozen=True)
class Solution:
    status: str          # optimal | feasible (limit reached) | infeasible | unbounded | not_solved
    objective: float
    solver: str
    seconds: float
    gap: float | None


def _solver(name: str, time_limit: float | None):
    if name == "cbc":
        # The models hold a few dozen integers at most (cards, reservations) over a large LP: CBC's cut
        # generation costs 5× the solve there and branch and bound still proves the optimum without it.
        return pulp.PULP_CBC_CMD(msg=False, gapRel=GAP_REL, timeLimit=time_limit, options=["cuts off"])
    if name == "highs":
        return pulp.HiGHS(msg=False, gapRel=GAP_REL, timeLimit=time_limit)
    raise PlannerError(f"unknown solver {name!r}; expected one of {', '.join(SOLVERS)}")


@contextlib.contextmanager
def _stdout_to_stderr():
    """Native solver libraries write banners to file descriptor 1; JSON and CSV on stdout stay clean."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no real stdout (embedded hosts)
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def solve(m: Model, solver: str = "cbc", time_limit: float | None = None) -> Solution:
    """Solve the model in place; the status says whether the values are a proven optimum."""
    start = time.perf_counter()
    with _stdout_to_stderr():
        m.prob.solve(_solver(solver, time_limit))
    seconds = time.perf_counter() - start
    status = {1: "optimal", 2: "feasible", 0: "not_solved", -1: "infeasible", -2: "unbounded", -3: "not_solved"
              }.get(m.prob.sol_status, "not_solved")
    if status == "optimal" and pulp.LpStatus[m.prob.status] != "Optimal":
        status = "infeasible"
    gap = None
    if solver == "highs" and getattr(m.prob, "solverModel", None) is not None:
        try:
            gap = float(m.prob.solverModel.getInfo().mip_gap)
            gap = 0.0 if not math.isfinite(gap) or (status == "optimal" and not m.n and not m.r) else gap
        except Exception:  # noqa: BLE001 - gap is informative only
            gap = None
    if gap is None and status == "optimal":
        gap = 0.0  # proven within GAP_REL
    objective = float(pulp.value(m.prob.objective) or 0.0) if status in ("optimal", "feasible") else math.nan
    return Solution(status, objective, solver, seconds, gap)
