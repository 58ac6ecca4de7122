"""Which units do a plan's work, where the optimum leaves it open: settled when the plan holds a reservation.

Once held, a reservation's hours cost nothing more, and neither do the hours of a whole serving instance
already rented; the demand rows are ≥, so work beyond a workload's demand costs nothing on either. An
optimum therefore fixes what is held and paid for, but not always which of those units does the work:
in a review's case (2 reservations held all year beside whole on-demand instances in business hours)
the same 18,145.71 USD plan read 13,583 worked reservation hours from HiGHS, 13,448 from HiGHS without
the reductions and all 17,520 held hours from CBC. The fleet's instance-hours of a reservation and the
FOCUS export's Used share of its commitment are read from that work. So a plan holding a reservation has
its work settled by one LP after the solve: every integer fixed at its solved value, the cost kept at the
optimum's, and the least work sought, in reference-GPU-hours delivered, a reservation's counting half of
any other unit's — no work beyond a demand, and a reservation's hours used before any other unit's that
cost no more. (Work, not busy hours: weighed by the hour, a held whole instance of a GPU 2.5× as fast
did the work while the reservation idled, a review's case.)

Its LPs draw on the plan's time limit as the plan's other solves do: each gets what is left of the TimeBudget
the model's solve drew on (they had the solve's whole limit again, past the plan's). Once that is spent they are
not run and the plan keeps the dispatch its solve found — the same total and units held, only which held unit
worked is the solver's choice, as the plan warns (engine.run.UNSETTLED_WARNING) — rather than run past the limit
or lose a plan found for a tie-break.
"""

from __future__ import annotations

import math

import highspy
import numpy as np
import pulp

from planner.engine.model import Model
from planner.engine.solve import _highs_model, _run

RESERVED_WORK_WEIGHT = 1.0   # per reference-GPU-hour a reservation delivers (up to 1.5, by offer id) …
OTHER_WORK_WEIGHT = 2.0      # … and any other unit: reservations work first, and no unit beyond a demand
# the cost row's slack over the optimum (relative): rounding only; a point that misses rows by more goes the
# long way (settle_dispatch), so the total moves by no more than this
COST_SLACK = 1e-12


def settle_dispatch(m: Model) -> bool:
    """Re-solve the work of solved model `m` as the module says, when it holds a reservation and has work to
    place; the variables get the new values and `m.settled` says whether they did (None: nothing to settle).
    Each LP gets what is left of the TimeBudget `m`'s solve drew on, or without one the solve's time limit
    (_seconds_left). False (values left as solved) when there is nothing to settle, an LP ends without an
    optimum, or the budget is spent before one (not run)."""
    if m.settled is not None:   # read back once already (a plan and its fleet)
        return m.settled
    if not m.y or not any(round(var.varValue or 0.0) > 0 for var in m.r.values()):
        return False
    m.settled = _settle(m)
    return m.settled


def _seconds_left(m: Model) -> float | None:
    """Seconds for the next LP that settles `m`'s work (None: no limit; 0: not run): what is left of the plan's
    TimeBudget its solve drew on, else the time limit its solve was given."""
    return m.time_limit if m.budget is None else m.budget.left()


def _settle(m: Model) -> bool:
    if m.budget is not None and m.budget.spent():   # no LP built that would not run: the solve's dispatch stays
        return False
    columns = m.columns if m.columns is not None else m.prob.variables()
    h = _highs_model(m.prob, columns, {"presolve": "on"})
    n = len(columns)
    solved = np.fromiter((var.varValue or 0.0 for var in columns), dtype=float, count=n)
    integer = np.flatnonzero([var.cat == pulp.LpInteger for var in columns]).astype(np.int32)
    if len(integer):
        fixed = np.round(solved[integer])
        h.changeColsIntegrality(len(integer), integer,
                                np.full(len(integer), highspy.HighsVarType.kContinuous))
        h.changeColsBounds(len(integer), integer, fixed, fixed)
        solved[integer] = fixed
    cost = h.col_cost
    priced = np.flatnonzero(cost).astype(np.int32)
    weights = _work_weights(m, n)
    branch = _least_work(h, cost, priced, float(cost @ solved), weights, _seconds_left(m))
    if branch is None:
        # the solver's point misses some rows by its tolerance (CBC's demand rows by 2e-7 in a review's case),
        # so its cost can lie below the least one these integers allow: take that least cost from the LP first
        h.deleteRows(1, np.array([h.getNumRow() - 1], dtype=np.int32))
        h.changeColsCost(n, np.arange(n, dtype=np.int32), cost)
        least = _run(h, _seconds_left(m), mip=False)
        if least.status != "optimal":
            return False
        branch = _least_work(h, cost, priced, least.objective, weights, _seconds_left(m))
        if branch is None:
            return False
    for var, x in zip(columns, branch.values.tolist()):
        if var.cat != pulp.LpInteger:
            var.varValue = x
    return True


def _least_work(h: highspy.Highs, cost: np.ndarray, priced: np.ndarray, optimum: float, weights: np.ndarray,
                time_limit: float | None):
    """The solved branch of `h` with its cost at most `optimum` (+ COST_SLACK) and `weights` as objective; the
    cost row is added as the last row. None when the LP ends without an optimum."""
    n = len(cost)
    h.addRow(-highspy.kHighsInf, optimum + COST_SLACK * max(1.0, abs(optimum)), len(priced), priced, cost[priced])
    h.changeColsCost(n, np.arange(n, dtype=np.int32), weights)
    branch = _run(h, time_limit, mip=False)
    if branch.status != "optimal" or branch.values is None or not math.isfinite(branch.objective):
        return None
    return branch


def _work_weights(m: Model, n: int) -> np.ndarray:
    """[n] per column: the reference-GPU-hours its work delivers over the horizon × the weight of its unit,
    for work variables; 0 else. Reservations weigh 1 to 1.5 in the order of their offer ids, so that of two
    that could do the same work the first does it, in the reduced and the unreduced model alike (with one
    weight the split between them was the LP's, a review's case)."""
    inp = m.inputs
    kind, unit_id = inp.col("kind"), inp.col("unit_id")
    reserved = sorted(str(unit_id[i]) for i in np.flatnonzero(kind == "reserved"))
    rank = {u: k / len(reserved) for k, u in enumerate(reserved)}
    unit_weight = [RESERVED_WORK_WEIGHT + 0.5 * rank[str(unit_id[i])] if kind[i] == "reserved" else OTHER_WORK_WEIGHT
                   for i in range(len(kind))]
    hours = (inp.periods["slot_hours"] * inp.periods["n_months"]).to_numpy(dtype=float)
    work = inp.work
    weights = np.zeros(n)
    for (i, j, p), var in m.y.items():
        weights[var.index] = hours[p] * work[i, j] * unit_weight[i]
    return weights
