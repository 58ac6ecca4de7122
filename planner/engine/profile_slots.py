"""The bound on the cost error of a grouped profile (engine.periods, `profile_slots`).

A plan whose weekly hours were grouped into blocks is solved at the blocks' corners and works each hour
as a mix of its block's corner dispatch that serves it: a real fleet and dispatch for the exact hours,
within every cap (the cloud-share cap reads the profile's own total demand, Inputs.total_demand), whose
cost is the plan's total — so the exact optimum is at most the total. The same blocks at their mean
weights are a relaxation: averaging an exact plan's dispatch over each block's hours meets the mean
demand with the same capacity, cost and cloud work, because every constraint and cost is linear in
dispatch and card counts are shared by all hours of an epoch — so its optimum T_low is at most the exact
optimum. (The averaging leans on two facts: the model's bound on units bought, read from the peak
demand, may cut a unit that only served hours above a block's mean, and dropping such a unit never
raises cost, since a card's net cost — capex less its discounted resale, maintenance, idle energy — and
every busy hour's cost are not negative; and constraints added by `extra_constraints` must be on unit
counts, such as model.card.) The exact optimum lies in [T_low, total], so the
total is at most total − T_low above it: the bound reported next to the total.
"""

from __future__ import annotations

from dataclasses import replace

from planner.engine.baselines import solve_inputs
from planner.engine.inputs import Inputs
from planner.engine.model import ExtraConstraints
from planner.engine.solve import GAP_REL, Solution
from planner.errors import InfeasibleError, SolverError


def mean_weight_inputs(inp: Inputs) -> Inputs:
    """`inp` with every block at its hours' mean weights: the relaxation whose optimum is T_low."""
    return replace(inp, periods=inp.periods_low, demand=inp.demand_low, periods_low=None, demand_low=None,
                   label=f"{inp.label} (profile blocks at mean weights)")


def lower_bound(solution: Solution) -> float | None:
    """The least objective the solver has proved possible: the incumbent less its relative MIP gap (at
    least the gap an optimum is proved to, GAP_REL); None when the solver reports no gap."""
    if solution.gap is None:
        return None
    return solution.objective - max(solution.gap, GAP_REL) * abs(solution.objective)


def profile_grouping(inp: Inputs, total: float, solver: str, time_limit: float | None = None,
                     extra_constraints: ExtraConstraints | None = None) -> dict | None:
    """The grouping of a plan solved from the (reduced) inputs `inp` with total cost `total`, and the
    bound on its cost error: slots, weight_classes, lower_bound (T_low), upper_bound (the plan's total,
    the cost of a real plan of the exact problem), error_bound (total − T_low ≥ total − exact optimum
    ≥ 0) and error_bound_pct (of the total); None when no weekly hours of different weights share a
    block (the plan is exact)."""
    if inp.grouping is None:
        return None
    try:
        _, low = solve_inputs(mean_weight_inputs(inp), solver, time_limit, explain=False,
                              extra_constraints=extra_constraints)
        lower = lower_bound(low)
    # no solution within the time limit, or none at all (extra_constraints on more than unit counts, which
    # the relaxation need not meet): the plan stands, its bound is unknown
    except (SolverError, InfeasibleError):
        lower = None
    upper = total
    error = None if lower is None else max(0.0, upper - lower)
    pct = None if error is None else 100.0 * error / abs(upper) if upper else 0.0
    return {**inp.grouping, "lower_bound": lower, "upper_bound": upper, "error_bound": error, "error_bound_pct": pct}
