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

Where the scenario leaves `profile_slots` out, a bound above BOUND_TOLERANCE_PCT of the total is not kept:
engine.run plans again on more blocks (next_slots: 48, then every weekly weight) and the plan says which
groupings it left (`refined_from`); a `profile_slots` of the user's own is kept, with a warning
(loose_bound_warning). A grouping whose solve stopped before the solver proved its optimum (status feasible,
the time limit) is not refined: its total may lie above the grouped optimum, so the bound holds the solver's gap
too (UNPROVEN_GAP); nor is one whose finer grouping cannot be planned (not_refined_warning says why). The plan's
solve, its bounds and its refinements share the plan's time limit (engine.solve.TimeBudget): a bound or a finer
plan the time left does not reach is not computed, and the plan found before it is kept.
"""

from __future__ import annotations

from dataclasses import replace

from planner.engine.baselines import solve_inputs
from planner.engine.inputs import Inputs
from planner.engine.model import ExtraConstraints
from planner.engine.solve import GAP_REL, Solution, TimeBudget
from planner.errors import InfeasibleError, SolverError, SolverFailed
from planner.months import HOURS_PER_WEEK
from planner.text import counted

# The bound on the cost error, in % of the total, up to which a grouping is kept; above it a default grouping is
# planned again on more blocks, and one the scenario sets is warned about. Measured with
# benchmarks/profile_slots.py and the 36-month start-up hybrid on 2026-12-05: 24 blocks bound one shaped workload,
# or one of 168 weights beside one of two (business_hours, deadline_peaks), at 0.01–0.05 % (0.14 % in a 3-month
# case), so those plans are kept at the first solve; two workloads of 168 unrelated weights at 4–9 % with 24
# blocks (their totals 4–7 % above exact), and with 48 at 0.6 % in one case, 2.2–2.7 % in two others (their
# totals 1.7–2.4 % above exact), which are then planned exactly.
# 1 % lies far above what a grouping that works leaves (those plans cost no second plan) and below the default
# close_call_share (2 %), the margin within which the planner calls a runner-up's total close to the plan's.
BOUND_TOLERANCE_PCT = 1.0


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


def profile_grouping(inp: Inputs, total: float, solver: str, time_limit: float | TimeBudget | None = None,
                     extra_constraints: ExtraConstraints | None = None) -> dict | None:
    """The grouping of a plan solved from the (reduced) inputs `inp` with total cost `total`, and the
    bound on its cost error (bounded_grouping); None when no weekly hours of different weights share a block
    (the plan is exact). `time_limit`: seconds for the bound's solve, or what is left of the plan's TimeBudget.
    SolverFailed where the bound's solver failed (grouping_lower_bound)."""
    if inp.grouping is None:
        return None
    return bounded_grouping(inp.grouping, total, grouping_lower_bound(inp, solver, time_limit, extra_constraints))


def grouping_lower_bound(inp: Inputs, solver: str, time_limit: float | TimeBudget | None = None,
                         extra_constraints: ExtraConstraints | None = None) -> float | None:
    """T_low of the grouped inputs `inp`: the least objective proved for the blocks at their mean weights; None
    when that solve gives none, or when `time_limit` (the plan's TimeBudget) is spent before it: not run, its
    bound unknown as that of a solve the limit stopped. SolverFailed where its solver failed (a CBC run that
    crashed): the caller says so (failed_bound_warning), as no time limit is to blame."""
    budget = TimeBudget.of(time_limit)
    if budget.spent():   # no model built for a solve that would not run
        return None
    try:
        _, low = solve_inputs(mean_weight_inputs(inp), solver, budget, explain=False,
                              extra_constraints=extra_constraints)
        return lower_bound(low)
    except SolverFailed:
        raise
    # no solution within the time limit, or none at all (extra_constraints on more than unit counts, which
    # the relaxation need not meet): the plan stands, its bound is unknown
    except (SolverError, InfeasibleError):
        return None


def failed_bound_warning(grouping: dict | None, failed: str) -> str | None:
    """The warning for a grouping whose bound is unknown because the solver of its bound failed (`failed`: what
    failed and the way out, engine.run.solver_failed); None without a grouping. The plan's line on its grouping
    says an unknown bound without naming the cause; this is no time limit, which more time would not mend."""
    if not grouping:
        return None
    return (f"profile_slots: the bound on the cost error of the {grouping['weight_classes']} distinct weekly weights "
            f"grouped into {counted(grouping['slots'], 'block')} is unknown, and not for a time limit: its {failed}")


def bounded_grouping(grouping: dict, total: float, lower: float | None, refined_from: list | tuple = ()) -> dict:
    """`grouping` ({"slots", "weight_classes"}) of a plan with total cost `total` and lower bound `lower` (T_low;
    None: unknown), with lower_bound, upper_bound (the plan's total, the cost of a real plan of the exact
    problem), error_bound (total − T_low ≥ total − exact optimum ≥ 0), error_bound_pct (of the total),
    tolerance_pct (BOUND_TOLERANCE_PCT) and refined_from: the groupings planned before it whose bound was above
    the tolerance, each {"slots", "weight_classes", "error_bound", "error_bound_pct"} (empty when it is the
    first)."""
    error = None if lower is None else max(0.0, total - lower)
    pct = None if error is None else 100.0 * error / abs(total) if total else 0.0
    return {**grouping, "lower_bound": lower, "upper_bound": total, "error_bound": error, "error_bound_pct": pct,
            "tolerance_pct": BOUND_TOLERANCE_PCT, "refined_from": [dict(g) for g in refined_from]}


def above_tolerance(grouping: dict | None) -> bool:
    """Whether the bound of `grouping` (bounded_grouping) is known and above BOUND_TOLERANCE_PCT of the total."""
    return grouping is not None and (grouping["error_bound_pct"] or 0.0) > BOUND_TOLERANCE_PCT


def next_slots(slots: int, classes: int) -> int:
    """The blocks to plan on after `slots` left a bound above the tolerance: twice as many, or every weekly
    weight (168: exact) where twice as many blocks, at up to two corner levels each, could hold as many levels
    as the profile's `classes` distinct weight vectors and solve no faster than the exact model. So 24 → 48 →
    168 at most. (A doubling cut the bound 2.1–6.9× where measured: 3.67 → 1.71 %, 8.26 → 2.73 %, 4.15 →
    0.60 %; too unevenly to skip 48 blocks for a bound that looks out of their reach.)"""
    more = 2 * slots
    return HOURS_PER_WEEK if 2 * more >= classes else more


def loose_bound_warning(grouping: dict | None, currency: str, proven: bool = True) -> str | None:
    """The warning for a `profile_slots` the scenario sets whose plan's bound is above the tolerance (a default
    grouping is planned again instead); None within it, unknown, or exact. `proven`: whether the solver proved
    the grouped plan's optimum (status optimal); else the bound holds the solver's gap too, and says so."""
    if not above_tolerance(grouping):
        return None
    g = grouping
    return (f"profile_slots {g['slots']}: the {g['weight_classes']} distinct weekly weights grouped into "
            f"{counted(g['slots'], 'block')} bound the cost error at {g['error_bound']:,.0f} {currency} "
            f"({g['error_bound_pct']:.2f} % of the total{'' if proven else UNPROVEN_GAP}), above the "
            f"{g['tolerance_pct']:g} % the planner accepts by itself: the exact optimum may be that much lower, and the "
            "baselines and savings are grouped alike; plan exactly with profile_slots: 168 (fleetplan plan "
            "--profile-slots 168), or leave profile_slots out to let the planner add blocks until the bound is within "
            f"{g['tolerance_pct']:g} %")


# where the solver stopped before it proved the grouped plan's optimum (status feasible): its total may lie above
# that optimum by the solver's gap, which the bound (total − T_low) then holds beside the grouping's own error
UNPROVEN_GAP = ", the solver's gap included: it stopped before it proved the optimum on these blocks"


def not_refined_warning(grouping: dict | None, currency: str, why: str) -> str | None:
    """The warning for a grouping the planner chose whose bound is above the tolerance and that the plan keeps,
    not planned again on more blocks (engine.run._solve_within_bound); `why` says why: the solver stopped before
    it proved this grouping's optimum, or the finer grouping found no fleet in time, none cheaper, or is too
    large. None within the tolerance, unknown, or exact."""
    if not above_tolerance(grouping):
        return None
    g = grouping
    return (f"profile_slots: the plan stays on {counted(g['slots'], 'block')} of its {g['weight_classes']} distinct weekly "
            f"weights, which bound the cost error at {g['error_bound']:,.0f} {currency} ({g['error_bound_pct']:.2f} % "
            f"of the total), above the {g['tolerance_pct']:g} % tolerance: the exact optimum may be that much lower, "
            f"and the baselines and savings are grouped alike; not planned on more blocks: {why}")
