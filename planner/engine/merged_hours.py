"""Whether a plan solved with merged hours is exact under the cloud-share cap with several instance offers.

Identical weekly hours (and months) are merged into one period with one whole-instance count per offer
(engine.periods): exact while nothing ties the hours together. The cloud-share cap does — one row over
the whole horizon's work — and with two or more on-demand or spot offers serving a serving workload the
best plan can then use different instance mixes in identical hours (a review's case: a 1-GPU and a 3-GPU
A100 instance, 3.5 A100s of demand, cap 0.7: merged 15,619.89 USD, every hour on its own 15,607.90, 0.08 %
dearer; another: one instance type offered on demand and as spot, 0.27 % dearer). (One offer is handled in
engine.inputs: merging stays exact, or the hours are planned one by one where it is not.)

The check: without the cap nothing ties the hours, so the merged model's optimum without it is the
every-hour optimum without it, a lower bound of the capped every-hour optimum. Where that fleet and
dispatch meet the cap anyway, they are feasible for the capped every-hour problem and optimal for it (an
optimum of a relaxation that is feasible), so the merged plan, which costs no more, is exact; so is a plan
whose total is no more than that bound (another optimum without the cap may meet it). Otherwise the cap
binds and the plan may be slightly too dear: a warning says so, and `--unreduced` plans every hour. Where the
check's solve ends without a proven optimum (the plan's time limit, which the plan's solves drew on first: it is
not run once that is spent), a warning says that whether the plan is exact is not known; where the solver failed
(a CBC run that crashed or was killed), the warning says that, and which solver to make the check with instead.
(Constraints added by `extra_constraints` could tie hours too: with them, the check is not made and the
warning says so.)
"""

from __future__ import annotations

import re
from dataclasses import replace

import pulp

from planner.engine.baselines import solve_inputs
from planner.engine.constraints import cloud_work
from planner.engine.inputs import Inputs, serving_instances
from planner.engine.model import ExtraConstraints
from planner.engine.solve import TimeBudget
from planner.errors import InfeasibleError, SolverError, SolverFailed

# How the warnings of a plan whose merged hours may cost more than the best plan begin: the cap binds (or
# constraints of the caller's own keep the check from being made, or its solve ended unproven or failed), with the
# instance offers counted — not engine.inputs' "max_cloud_share with a serving workload", said of a plan made hour
# by hour (exact)
MAY_BE_DEARER = re.compile(r"max_cloud_share (?:binds )?with \d+ instance offers serving ")


def may_be_dearer(warnings: list[str]) -> bool:
    """Whether a plan's `warnings` say its merged hours may cost more than the best plan (merged_hours_warning)."""
    return any(MAY_BE_DEARER.match(w) for w in warnings)


def serving_instance_offers(inp: Inputs) -> list[str]:
    """The on-demand and spot offers (unit ids) that serve a serving workload in `inp` — each its own
    whole-instance count, so one instance type offered on demand and as spot is two."""
    serving = inp.workloads["serving"].to_numpy(dtype=bool)
    if not serving.any():
        return []
    return sorted(inp.col("unit_id")[serving_instances(inp.col("kind"), inp.work, serving)].tolist())


def merged_hours_warning(inp: Inputs, total: float, solver: str, time_limit: float | TimeBudget | None = None,
                         extra_constraints: ExtraConstraints | None = None) -> str | None:
    """A warning when the plan of the (reduced) inputs `inp`, solved with merged hours at `total`, may cost
    more than the plan of every hour on its own; None when it is exact or the case cannot arise. `time_limit`:
    seconds for the check's solve, or the plan's TimeBudget, of which it gets what the plan's solves left."""
    share = inp.caps.get("max_cloud_share")
    offers = serving_instance_offers(inp) if share is not None and inp.hours_merged else []
    if len(offers) < 2:
        return None
    listed = f"{len(offers)} instance offers serving a serving workload ({', '.join(offers)})"
    if extra_constraints is not None:
        return (f"max_cloud_share with {listed} and constraints of your own (extra_constraints): identical hours "
                "share one instance mix in this plan, and whether the best plan would mix them differently hour by "
                "hour is not checked with such constraints; planning with reduced=False plans every hour on its own")
    budget = TimeBudget.of(time_limit)
    not_known = (f"max_cloud_share with {listed}: identical hours share one instance mix in this plan, and whether the "
                 "best plan would mix them differently hour by hour, for slightly less, is not known: ")
    try:
        exact = _exact_without_cap(inp, total, share, solver, budget)
    except SolverFailed as failed:   # a crash, not a time limit: more time would not help, the other solver may
        return (f"{not_known}the check's solve failed (solver {failed.solver}: {failed.detail}); `fleetplan plan "
                f"--solver {failed.other}` plans and checks with {failed.other}, `--unreduced` plans every hour on its "
                "own (slower)")
    if exact:
        return None
    if exact is None:
        within = ("" if budget.seconds is None else
                  f", within what the plan's solves left of the time limit of {budget.seconds:g} s")
        return (f"{not_known}the check's solve ended without a proven optimum{within}; `fleetplan plan --unreduced` "
                "plans every hour on its own (slower)")
    return (f"max_cloud_share binds with {listed}: identical hours share one instance mix in this plan, and the "
            "best plan may mix them differently hour by hour, so this plan can cost slightly more than the best "
            "(0.08-0.27 % in a review's cases); `fleetplan plan --unreduced` plans every hour on its own (slower)")


def _exact_without_cap(inp: Inputs, total: float, share: float, solver: str, budget: TimeBudget) -> bool | None:
    """Whether the merged model's optimum without the cloud-share cap proves the plan at `total` exact: it
    meets the cap anyway, or `total` is no more than it. None when that is not known: its solve stopped
    before it proved that optimum (the time limit), or `budget` was spent before it (not run). SolverFailed
    when the solver failed."""
    if budget.spent():   # no model built for a solve that would not run
        return None
    uncapped = replace(inp, caps={**inp.caps, "max_cloud_share": None}, label=f"{inp.label} (without max_cloud_share)")
    try:
        model, solution = solve_inputs(uncapped, solver, budget, explain=False)
    except InfeasibleError:
        return False
    except SolverFailed:
        raise
    except SolverError:   # stopped without a fleet: the time limit
        return None
    if solution.status != "optimal":
        return None
    if total <= solution.objective + 1e-9 * max(1.0, abs(solution.objective)):
        return True
    limit = share * inp.total_demand()
    return pulp.value(cloud_work(model)) <= limit + 1e-9 * max(1.0, limit)
