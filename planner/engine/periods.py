"""Demand periods: the hours the model balances supply and demand in.

`D(w,m) = gpu_hours_per_month × (1 + growth)^(m−1)` reference-GPU-hours in month m (engine.workloads:
also from reference_gpus or requests_per_second), shaped within the month by the workload's weekly
profile. A period is a set of months with one weekly-hour level: the model's dispatch is the same in
each of its hours.

A scenario with a serving workload keeps every distinct weekly weight as its own level (no blocks): its
whole instances are sized per slot class, and a block's mix of two corners' instance counts would be
fractional instances in the hours between them.

Weekly hours with equal weights for every workload are one level (exact). When the profiles leave more
distinct weights than the scenario's `profile_slots`, the levels are cut into that many blocks of the
load-duration curve (engine.profile_slots reports the bound on the cost error):
- the plan's periods are the blocks' corners: the least and the most weight of each workload over the
  block. Each hour is worked at the mix λ × most + (1 − λ) × least of the corners' dispatch, with the
  least λ that serves every workload — a real plan of the exact problem whose cost and work are the
  corners' dispatch × the hours given to each corner (Σ λ and Σ 1 − λ over the block's hours). (A
  workload served above its need in an hour may exceed rows that bound dispatch by the hour's own demand
  — single_type placement, a site epoch's card work —; lowering that dispatch to the need meets them and
  costs no more.) So the grouped optimum is an upper bound on the exact one (with one shaped workload,
  the load-duration curve interpolated linearly between the corners);
- the blocks at their hours' mean weights are a relaxation: averaging any exact plan's dispatch over a
  block serves the mean at the same cost and work, so their optimum is a lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from planner import catalog
from planner.engine.profiles import weekly_weights
from planner.engine.workloads import reference_gpu_hours
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK, discount_factors

# Blocks when the scenario leaves profile_slots out. Measured with benchmarks/profile_slots.py on the
# 36-month start-up hybrid with a 168-weight profile (exact: 30 s, 40–80 s with baselines, when chosen; 6.8 s with
# baselines on 2026-12-04, against 1.3 s at K = 24, after the solver moved in-process): the bound on
# the cost error is 0.8–1 % of the total at K = 8, 0.2–0.3 % at 12–16, 0.04–0.09 % at 24 and hardly
# less at 32, while the solve times of K = 8 … 24 differ less between K than between two runs of one K
# (branch and bound); 32 and more grow slower. 24 keeps the error under 0.1 % at the speed of 8.
DEFAULT_PROFILE_SLOTS = 24


@dataclass(frozen=True)
class WeekLevels:
    """Weekly demand levels: `hours` [N] weekly hours each level stands for (fractional for a block's
    corners), `weights` [N × W] each workload's weight in those hours."""

    hours: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class WeekBlocks:
    """The week as the model sees it: `plan` the levels it plans on, `means` the blocks at their mean
    weights (the lower-bound relaxation; None when no block groups different weights), `classes` the
    number of distinct weight vectors of the profiles."""

    plan: WeekLevels
    means: WeekLevels | None
    classes: int


def monthly_demand(scenario) -> np.ndarray:
    """[H × W] reference-GPU-hours per month (from whichever demand field each workload gives)."""
    months = np.arange(scenario.horizon_months)[:, None]
    custom_gpus = catalog.custom_gpu_ids(scenario.onprem.custom_cards)
    base = np.array([reference_gpu_hours(w, custom_gpus) for w in scenario.workloads])[None, :]
    growth = np.array([w.growth_per_month for w in scenario.workloads])[None, :]
    return base * (1.0 + growth) ** months


def weight_classes(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(classes [C × W], hours [C]): the distinct weight vectors of the 168 weekly hours and how many
    hours hold each (rounded to 12 decimals, so weights read from one CSV value compare equal)."""
    return np.unique(np.round(weights, 12), axis=0, return_counts=True)


def _segment_costs(classes: np.ndarray, hours: np.ndarray, share: np.ndarray) -> np.ndarray:
    """[C × C] cost of one block from class i to class j (inclusive, in the given order; inf for j ≤ i):
    Σ over its classes but the last of hours × Σ_w share_w × min(weight − least, most − weight), the
    distance to the nearer corner — where a chord and a mean miss a convex cost curve the most."""
    n = len(classes)
    cost = np.full((n, n), np.inf)
    for i in range(n - 1):
        run = classes[i:]                                                        # [n−i × W]
        least = np.minimum.accumulate(run, axis=0)[1:, None, :]                  # [j × 1 × W]
        most = np.maximum.accumulate(run, axis=0)[1:, None, :]
        gap = np.minimum(run[None, :, :] - least, most - run[None, :, :]) @ share   # [j × h]
        held = np.tril(np.ones((n - i - 1, n - i)), k=0)                       # block to j holds h < j
        cost[i, i + 1:] = (gap * held * hours[i:][None, :]).sum(axis=1)
    return cost


def load_blocks(classes: np.ndarray, hours: np.ndarray, share: np.ndarray, slots: int) -> tuple[np.ndarray, np.ndarray]:
    """(order, cuts): the classes in the order the blocks follow, and the `slots` + 1 positions in that
    order where blocks start and end (0 first, C − 1 last; block b runs from cuts[b] to cuts[b+1]
    inclusive and holds the hours of cuts[b] … cuts[b+1] − 1, the last block also those of C − 1).
    The cuts minimise _segment_costs by dynamic programming, along whichever order gives the lower cost:
    the share-weighted load, or (several workloads) the direction in which the weight vectors vary most.
    By load alone, two workloads whose weights move against each other have an almost flat load: hours
    far apart in both weights shared blocks, which then sized every hour for both peaks (a review's case:
    a plan 51 % dearer than the exact one, its bound 34 %)."""
    best = None
    for order in _orders(classes, hours, share):
        cuts, cost = _best_cuts(classes[order], hours[order], share, slots)
        if best is None or cost < best[2] - 1e-12:
            best = (order, cuts, cost)
    return best[0], best[1]


def _orders(classes: np.ndarray, hours: np.ndarray, share: np.ndarray) -> list[np.ndarray]:
    """Orders of the classes to cut into blocks: by share-weighted load, and with several workloads by
    the first principal component of the share-weighted weights (hours-weighted; signed to rise with load)."""
    load = classes @ share
    orders = [np.argsort(load, kind="stable")]
    if classes.shape[1] > 1:
        scaled = classes * share[None, :]
        centred = (scaled - hours @ scaled / hours.sum()) * np.sqrt(hours)[:, None]
        direction = np.linalg.svd(centred, full_matrices=False)[2][0]
        key = (classes * share[None, :]) @ direction
        if np.std(key) > 0 and np.std(load) > 0 and np.corrcoef(key, load)[0, 1] < 0:
            key = -key
        orders.append(np.argsort(key, kind="stable"))
    return orders


def _best_cuts(classes: np.ndarray, hours: np.ndarray, share: np.ndarray, slots: int) -> tuple[np.ndarray, float]:
    """(cuts, cost): the `slots` blocks of least total _segment_costs over classes in this order."""
    n = len(classes)
    cost = _segment_costs(classes, hours, share)
    best = np.full((slots + 1, n), np.inf)           # best[k, j]: blocks 1 … k, the k-th ending at class j
    prev = np.zeros((slots + 1, n), dtype=int)
    best[0, 0] = 0.0
    for k in range(1, slots + 1):
        total = best[k - 1][:, None] + cost          # [i, j]: the k-th block runs from i to j
        prev[k] = np.argmin(total, axis=0)
        best[k] = total[prev[k], np.arange(n)]
    cuts = [n - 1]
    for k in range(slots, 0, -1):
        cuts.append(int(prev[k, cuts[-1]]))
    return np.array(cuts[::-1]), float(best[slots, n - 1])


def _corners(classes: np.ndarray, hours: np.ndarray, order: np.ndarray, cuts: np.ndarray) -> tuple[WeekLevels, WeekLevels]:
    """(plan, means): each block's two corners with the hours the mix gives them, and each block's mean."""
    weights, held, mean_weights, mean_hours = [], [], [], []
    for b in range(len(cuts) - 1):
        start, end = cuts[b], cuts[b + 1]
        corner_of = order[start:end + 1]                       # the classes spanning the block
        mine = order[start:end] if b < len(cuts) - 2 else order[start:end + 1]   # the classes it holds
        least, most = classes[corner_of].min(axis=0), classes[corner_of].max(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            lam = np.nan_to_num((classes[mine] - least) / (most - least), nan=0.0).max(axis=1)   # [classes held]
        weights += [most, least]
        held += [float(hours[mine] @ lam), float(hours[mine] @ (1.0 - lam))]
        mean_hours.append(float(hours[mine].sum()))
        mean_weights.append(hours[mine] @ classes[mine] / mean_hours[-1])
    # corners shared by neighbouring blocks (one shaped workload) are one level; unused corners go
    corners, index = np.unique(np.round(np.array(weights), 12), axis=0, return_inverse=True)
    corner_hours = np.bincount(index.ravel(), weights=held, minlength=len(corners))
    used = corner_hours > 1e-12
    return (WeekLevels(corner_hours[used], corners[used]),
            WeekLevels(np.array(mean_hours), np.array(mean_weights)))


def week_blocks(scenario, slots: int | None, merge: bool = True) -> WeekBlocks:
    """The weekly hours of `scenario`: every hour its own (no `merge`), the exact classes (merge, at most
    `slots` of them or `slots` None), else `slots` load-duration blocks."""
    weights = np.column_stack([weekly_weights(w.profile) for w in scenario.workloads])  # [168 × W]
    if not merge:
        return WeekBlocks(WeekLevels(np.ones(HOURS_PER_WEEK), weights), None, HOURS_PER_WEEK)
    classes, hours = weight_classes(weights)
    if slots is None or len(classes) <= slots:
        return WeekBlocks(WeekLevels(hours.astype(float), classes), None, len(classes))
    # each workload weighs by its share of the horizon's demand
    demand = monthly_demand(scenario).sum(axis=0)
    share = demand / demand.sum() if demand.sum() > 0 else np.full(len(demand), 1.0 / len(demand))
    order, cuts = load_blocks(classes, hours.astype(float), share, slots)
    plan, means = _corners(classes, hours.astype(float), order, cuts)
    return WeekBlocks(plan, means, len(classes))


def months_merge_exactly(scenario) -> bool:
    """Whether months of equal demand in one fleet epoch may be solved as one period with the optimum
    unchanged. They hold the same capacity and demand, so with nothing tying months together one month's
    best dispatch is every such month's. The cloud-share cap ties them (a share of the work of the whole
    horizon): with discounting, the work it keeps on-prem is cheapest in the latest months, which one
    period would spread evenly over all of them (12.7 % too dear in a 12-month case at 50 %/year); without
    discounting the months cost the same and spreading it evenly is as cheap."""
    return scenario.constraints.max_cloud_share is None or scenario.discount_rate == 0


def demand_periods(scenario, epoch_of_month: np.ndarray, merge: bool = True,
                   levels: WeekLevels | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """(periods, demand_rate).

    periods: one row per period with `months` (tuple of month numbers), `epoch` (the fleet epoch of its
    months), `slot_hours` (hours per month the period covers), `n_months`, `discount_sum` (Σ d(m) over
    its months). demand_rate: [P × W] reference-GPU-hours per hour. With `merge`, months with equal
    demand in the same fleet epoch are one group where `months_merge_exactly` says so. `levels`: the weekly
    levels (default the exact classes of week_blocks; every weekly hour without `merge`).
    """
    if levels is None:
        levels = week_blocks(scenario, None, merge).plan
    monthly = monthly_demand(scenario)
    d = discount_factors(scenario.discount_rate, scenario.horizon_months)
    merge_months = merge and months_merge_exactly(scenario)
    rounded = np.round(monthly, 9).tolist() if merge_months else None   # rounded once, compared as tuples of floats
    groups: dict = {}
    for m in range(scenario.horizon_months):
        key = (int(epoch_of_month[m]), tuple(rounded[m])) if merge_months else m
        groups.setdefault(key, []).append(m + 1)
    n_levels = len(levels.hours)
    if not groups or not n_levels:
        return pd.DataFrame(), np.array([])
    # one row per (group, level), groups outer: built as columns, the group's facts repeated per level
    month_sets = [tuple(months) for months in groups.values()]
    first = np.array([months[0] for months in month_sets]) - 1          # each group's first month (index)
    months_column = np.empty(len(month_sets), dtype=object)   # filled one by one: numpy would unpack the tuples
    for i, months in enumerate(month_sets):
        months_column[i] = months
    periods = pd.DataFrame({
        "months": np.repeat(months_column, n_levels),
        "epoch": np.repeat(epoch_of_month[first].astype(np.int64), n_levels),
        "slot_hours": np.tile(levels.hours * HOURS_PER_MONTH / HOURS_PER_WEEK, len(month_sets)),
        "n_months": np.repeat(np.array([len(months) for months in month_sets], dtype=np.int64), n_levels),
        # summed month by month, in order (as the demand model has always added them)
        "discount_sum": np.repeat(np.array([float(sum(d[m - 1] for m in months)) for months in month_sets]),
                                  n_levels)})
    rates = (monthly[first] / HOURS_PER_MONTH)[:, None, :] * levels.weights[None, :, :]   # [groups × levels × W]
    return periods, rates.reshape(len(month_sets) * n_levels, -1)
