"""Exact offer reductions: units that cannot be in any optimal fleet are dropped before the model is
built (the unreduced model stays callable to check them; tests compare both on small cases).

- cheapest cloud fill: with no caps on cloud capacity, continuous offers reduce to the cheapest one
  per unit of delivered work for each workload (the cloud-share cap counts work, not offers);
- reservations pruned when one unit could never save more on-demand spend than it costs, or when
  another reservation delivers at least as much work to every workload for no more money.
(Load-duration periods — merged weekly hours and months of equal demand — are made in `resolve_inputs`.)
"""

from __future__ import annotations

import numpy as np

from planner.engine.inputs import Inputs
from planner.engine.schedule import continuous_cost_per_work


def cost_per_work(inp: Inputs) -> np.ndarray:
    """[U × W] money per reference-GPU-hour of work from each on-demand or spot unit (inf elsewhere)."""
    return continuous_cost_per_work(inp.schedule, inp.col("kind"), inp.work)


def reduce_cheapest_cloud_fill(inp: Inputs) -> Inputs:
    """Keep, per workload, only the continuous offer with the lowest cost per delivered work."""
    cost = cost_per_work(inp)
    cont = np.isin(inp.col("kind"), ("on_demand", "spot"))
    keep = ~cont
    order = np.lexsort((inp.col("unit_id"),))  # ties: lowest unit_id wins
    for j in range(inp.work.shape[1]):
        col = cost[order, j]
        if np.isfinite(col).any():
            keep[order[int(np.argmin(col))]] = True
    return inp.keep(keep, "cloud offers beaten by a cheaper fill")


def reduce_reservations(inp: Inputs) -> Inputs:
    """Drop reservations that can never pay for themselves, then those dominated by another."""
    res = inp.col("kind") == "reserved"
    if not res.any():
        return inp
    best = cost_per_work(inp).min(axis=0)          # [W]
    period_weight = (inp.periods["slot_hours"] * inp.periods["discount_sum"]).sum()
    with np.errstate(invalid="ignore"):
        best_value_per_hour = np.nanmax(np.where(inp.work > 0, inp.work * best[None, :], 0.0), axis=1)
    value = best_value_per_hour * period_weight
    commit = inp.schedule.present_values("held", inp.discount)
    inp = inp.keep(~res | (commit < value), "reservations never cheaper than on-demand")
    commit = inp.schedule.present_values("held", inp.discount)
    kind, work = inp.col("kind"), inp.work
    kept: list[int] = []
    keep = np.ones(len(inp.units), dtype=bool)
    for i in np.argsort(commit, kind="stable"):
        if kind[i] != "reserved":
            continue
        if any((work[k] >= work[i]).all() and commit[k] <= commit[i] for k in kept):
            keep[i] = False
        else:
            kept.append(i)
    return inp.keep(keep, "reservations dominated by another")


def reduce(inp: Inputs) -> Inputs:
    """The exact offer reductions."""
    return reduce_reservations(reduce_cheapest_cloud_fill(inp))
