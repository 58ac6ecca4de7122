"""Exact offer reductions: units that cannot be in any optimal fleet are dropped before the model is
built (the unreduced model stays callable to check them; tests compare both on small cases).

- cheapest cloud fill: with no caps on cloud capacity, continuous offers reduce to the cheapest one
  per unit of delivered work for each workload (the cloud-share cap counts work, not offers) — for a
  single_type workload the cheapest of each GPU type, since it may be placed on any of them;
- serving workloads rent whole instances, where a smaller or dearer-per-work instance can win: every
  continuous offer that serves one is kept, except one dominated by an offer of the same GPU type that
  delivers at least as much work to every workload for no more money per hour (one instance of it
  replaces one of the other, whole for whole);
- reservations pruned when one unit could never save more on-demand spend than it costs, or when
  another reservation delivers at least as much work to every workload for no more money (of the same
  GPU type when it serves a single_type workload). A reservation that serves a serving workload is
  never pruned for its value: the whole on-demand instances it saves can cost more than their work at
  the cheapest rate.
(Load-duration periods — merged weekly hours and months of equal demand — are made in `resolve_inputs`.)
"""

from __future__ import annotations

import numpy as np

from planner.engine.inputs import Inputs
from planner.engine.schedule import continuous_cost_per_work


def cost_per_work(inp: Inputs) -> np.ndarray:
    """[U × W] money per reference-GPU-hour of work from each on-demand or spot unit (inf elsewhere)."""
    return continuous_cost_per_work(inp.schedule, inp.col("kind"), inp.work)


def _flag(inp: Inputs, column: str) -> np.ndarray:
    return inp.workloads[column].to_numpy(dtype=bool)


def _cheapest(cost: np.ndarray, candidates: np.ndarray, order: np.ndarray) -> int | None:
    """The unit in `candidates` (a mask) with the least finite `cost`, ties to the first in `order`."""
    col = np.where(candidates[order], cost[order], np.inf)
    return int(order[int(np.argmin(col))]) if np.isfinite(col).any() else None


def _undominated(inp: Inputs, units: np.ndarray) -> np.ndarray:
    """Mask of the `units` (indices) that no other of them of the same GPU type beats: at least the work
    for every workload, for no more money per hour (ties: the lowest unit_id stays)."""
    rate, gpu, work = inp.schedule.busy_rate(), inp.col("gpu"), inp.work
    keep = np.zeros(len(inp.units), dtype=bool)
    order = sorted(units, key=lambda i: (rate[i], inp.col("unit_id")[i]))
    kept: list[int] = []
    for i in order:
        if not any(gpu[k] == gpu[i] and (work[k] >= work[i]).all() for k in kept):
            kept.append(i)
            keep[i] = True
    return keep


def reduce_cheapest_cloud_fill(inp: Inputs) -> Inputs:
    """Keep, per workload, only the continuous offer with the lowest cost per delivered work (per GPU type
    for single_type workloads), and the undominated offers that serve a serving workload."""
    cost = cost_per_work(inp)
    cont = np.isin(inp.col("kind"), ("on_demand", "spot"))
    keep = ~cont
    serving, single = _flag(inp, "serving"), _flag(inp, "single_type")
    if serving.any():
        keep |= _undominated(inp, np.flatnonzero(cont & (inp.work[:, serving] > 0).any(axis=1)))
    order = np.lexsort((inp.col("unit_id"),))  # ties: lowest unit_id wins
    gpu = inp.col("gpu")
    for j in np.flatnonzero(~serving):
        groups = [gpu == g for g in dict.fromkeys(gpu[cont])] if single[j] else [cont]
        for candidates in groups:
            best = _cheapest(cost[:, j], candidates, order)
            if best is not None:
                keep[best] = True
    return inp.keep(keep, "cloud offers beaten by a cheaper fill")


def _best_cloud_value_per_hour(inp: Inputs) -> np.ndarray:
    """[U] the most on-demand spend one unit-hour of each unit can replace: Σ-free max over workloads of
    its work × the cheapest continuous cost per work (of its own GPU type for single_type workloads)."""
    cost = cost_per_work(inp)
    best = np.broadcast_to(cost.min(axis=0), inp.work.shape).copy()          # [U × W]
    single = _flag(inp, "single_type")
    if single.any():
        gpu = inp.col("gpu")
        for g in dict.fromkeys(gpu):
            mine = gpu == g
            best[np.ix_(mine, single)] = cost[np.ix_(mine, single)].min(axis=0)
    with np.errstate(invalid="ignore"):
        return np.nanmax(np.where(inp.work > 0, inp.work * best, 0.0), axis=1)


def reduce_reservations(inp: Inputs) -> Inputs:
    """Drop reservations that can never pay for themselves, then those dominated by another."""
    res = inp.col("kind") == "reserved"
    if not res.any():
        return inp
    period_weight = (inp.periods["slot_hours"] * inp.periods["discount_sum"]).sum()
    value = _best_cloud_value_per_hour(inp) * period_weight
    serves_serving = (inp.work[:, _flag(inp, "serving")] > 0).any(axis=1)
    commit = inp.schedule.present_values("held", inp.discount)
    inp = inp.keep(~res | serves_serving | (commit < value), "reservations never cheaper than on-demand")
    commit = inp.schedule.present_values("held", inp.discount)
    kind, work, gpu = inp.col("kind"), inp.work, inp.col("gpu")
    placed = (work[:, _flag(inp, "single_type")] > 0).any(axis=1)   # serves a single_type workload
    kept: list[int] = []
    keep = np.ones(len(inp.units), dtype=bool)
    for i in np.argsort(commit, kind="stable"):
        if kind[i] != "reserved":
            continue
        if any((work[k] >= work[i]).all() and commit[k] <= commit[i] and (not placed[i] or gpu[k] == gpu[i])
               for k in kept):
            keep[i] = False
        else:
            kept.append(i)
    return inp.keep(keep, "reservations dominated by another")


def reduce(inp: Inputs) -> Inputs:
    """The exact offer reductions."""
    return reduce_reservations(reduce_cheapest_cloud_fill(inp))
