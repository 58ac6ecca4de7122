"""Solving a built model: HiGHS in this process (the default) or CBC (bundled with pulp, run as a
subprocess), with the status, gap and seconds reported."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import highspy
import pulp

from planner.engine.model import Model
from planner.errors import PlannerError

SOLVERS = ("highs", "cbc")
# HiGHS is the default: in-process (no MPS file, no subprocess) and, on staged purchases, 10-100x faster
# than CBC (industrial.yaml at 60 months with quarterly purchases: 0.5 s against 6.5 s; monthly purchases
# over 120 months: 3.3 s, where CBC had not proved the optimum after 12 minutes). benchmarks/plan_speed.py.
DEFAULT_SOLVER = "highs"
GAP_REL = 1e-9
# HiGHS's RINS and RENS sub-MIP heuristics cost more than they find on these models (a few dozen to a
# few hundred integers over a large LP): off, startup-hybrid.yaml solves in 0.15 s instead of 0.22 s and
# the 120-month monthly-purchase industrial plan in 3.3 s instead of 3.7 s, with the same optima.
HIGHS_OPTIONS = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False}


@dataclass(frozen=True)
class Solution:
    status: str          # optimal | feasible (limit reached) | infeasible | unbounded | not_solved
    objective: float
    solver: str
    seconds: float
    gap: float | None


class _SilentHighs(highspy.Highs):
    """A HiGHS model with its output off from its first call on."""

    def enableCallbacks(self):
        # highspy.Highs.__init__ calls this before any option can be set, and HiGHS writes its banner
        # ("Running HiGHS … Copyright") to file descriptor 1 on the first call of a model that logs.
        self.setOptionValue("output_flag", False)
        super().enableCallbacks()


class _SilentHiGHS(pulp.HiGHS):
    """pulp's HiGHS API on a `_SilentHighs` model: nothing is written to stdout, from any thread."""

    def createAndConfigureSolver(self, lp):
        lp.solverModel = _SilentHighs()
        options = {"output_flag": False, "mip_rel_gap": self.gapRel, **HIGHS_OPTIONS,
                   "time_limit": None if self.timeLimit is None else float(self.timeLimit), **self.optionsDict}
        for key, value in options.items():
            if value is not None:
                lp.solverModel.setOptionValue(key, value)


def _solver(name: str, time_limit: float | None):
    """The pulp solver object of `name`, silent: CBC runs as a subprocess whose output pulp discards
    (msg=False); HiGHS runs in this process with its output off (`_SilentHiGHS`)."""
    if name == "cbc":
        # The models hold a few dozen integers at most (cards, reservations) over a large LP: CBC's cut
        # generation costs 5× the solve there and branch and bound still proves the optimum without it.
        return pulp.PULP_CBC_CMD(msg=False, gapRel=GAP_REL, timeLimit=time_limit, options=["cuts off"])
    if name == "highs":
        return _SilentHiGHS(msg=False, gapRel=GAP_REL, timeLimit=time_limit)
    raise PlannerError(f"unknown solver {name!r}; expected one of {', '.join(SOLVERS)}")


def solve(m: Model, solver: str = DEFAULT_SOLVER, time_limit: float | None = None) -> Solution:
    """Solve the model in place; the status says whether the values are a proven optimum."""
    start = time.perf_counter()
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
            gap = 0.0 if not math.isfinite(gap) or (status == "optimal" and not m.integers) else gap
        except Exception:  # noqa: BLE001 - gap is informative only
            gap = None
    if gap is None and status == "optimal":
        gap = 0.0  # proven within GAP_REL
    objective = float(pulp.value(m.prob.objective) or 0.0) if status in ("optimal", "feasible") else math.nan
    return Solution(status, objective, solver, seconds, gap)
