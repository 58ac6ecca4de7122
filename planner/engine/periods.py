"""Demand periods: the hours the model balances supply and demand in.

`D(w,m) = gpu_hours_per_month × (1 + growth)^(m−1)` reference-GPU-hours in month m (engine.workloads:
also from reference_gpus or requests_per_second), shaped within the month by the workload's weekly
profile. A period is a set of months with one weekly-hour level: the model's dispatch is the same in
each of its hours.

A scenario with a serving workload keeps every distinct weekly weight as its own level (no blocks): its
whole instances are sized per slot class, and a block's mix of two corners' instance counts would be
fractional instances in the hours between them.

Weekly hours with equal weights for every workload are one level (exact). When the profiles leave more
distinct weights than the scenario's `profile_slots`, the levels are grouped into that many blocks
(load_blocks: along the load-duration curve of one shaped workload; split where they serve least above the
need with several), and engine.profile_slots reports the bound on the cost error. Any grouping of the hours
into blocks keeps both bounds:
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

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from planner import catalog
from planner.engine.profiles import weekly_profile
from planner.engine.workloads import reference_gpu_hours
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK, discount_factors

# Blocks when the scenario leaves profile_slots out, to start from (engine.run plans again on more while the
# bound is above engine.profile_slots.BOUND_TOLERANCE_PCT). Measured with benchmarks/profile_slots.py on the
# 36-month start-up hybrid with one 168-weight profile (exact: 30 s, 40–80 s with baselines, when chosen; 6.8 s with
# baselines on 2026-12-04, against 1.3 s at K = 24, after the solver moved in-process): the bound on
# the cost error is 0.8–1 % of the total at K = 8, 0.2–0.3 % at 12–16, 0.04–0.09 % at 24 and hardly
# less at 32, while the solve times of K = 8 … 24 differ less between K than between two runs of one K
# (branch and bound); 32 and more grow slower. 24 keeps that error under 0.1 % at the speed of 8; a 168-weight
# profile beside one of two weights 0.01–0.05 % (2026-12-05); two of 168 unrelated weights 4–9 %, planned again.
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
    number of distinct weight vectors of the profiles, `profile_sha256` the hash of each profile CSV read for
    them (workload name → profiles.WeeklyProfile.sha256; built-in profiles are not in it)."""

    plan: WeekLevels
    means: WeekLevels | None
    classes: int
    profile_sha256: dict = field(default_factory=dict)


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


@dataclass(frozen=True)
class Block:
    """Weekly weight classes planned together: `span` the classes whose least and most weights are its
    corners, `held` those whose hours it holds (a subset of span)."""

    span: np.ndarray
    held: np.ndarray


def _segment_costs(classes: np.ndarray, hours: np.ndarray, share: np.ndarray) -> np.ndarray:
    """[C × C] cost of one block from class i to class j (inclusive, in the given order; inf for j ≤ i) of
    one shaped workload: Σ over its classes but the last of hours × share × min(weight − least, most −
    weight), the distance to the nearer corner — where a chord and a mean miss a convex cost curve the most."""
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


def load_blocks(classes: np.ndarray, hours: np.ndarray, share: np.ndarray, slots: int) -> list[Block]:
    """At most `slots` blocks holding every class once. One shaped workload (after dropping workloads of one
    weight and merging identical profiles): blocks of consecutive weights along its load-duration curve, cut
    by dynamic programming (_segment_costs), neighbours sharing a corner (K + 1 levels). Several: blocks split
    in two one at a time (_split_blocks), where _mix_costs falls most.
    Several workloads had been cut along one order too (their share-weighted load, or its first principal
    component) by the distance to the nearer corner alone, which is 0 for a workload of two weights
    (business_hours) wherever it is cut: 22 of 24 blocks held working and night hours together and planned
    both at both workloads' peaks (an audit's case: startup-hybrid.yaml, prototyping on a 168-weight CSV,
    11.6 % above exact, bound 39.8 %; now 0.01 %, bound 0.03 %)."""
    columns, column_share = _distinct_columns(classes, share)
    if columns.shape[1] <= 1:
        order = np.argsort(columns[:, 0], kind="stable")
        cuts = _best_cuts(columns[order], hours[order], column_share, slots)
        last = len(cuts) - 2
        return [Block(order[cuts[b]:cuts[b + 1] + 1], order[cuts[b]:cuts[b + 1] + (b == last)]) for b in range(last + 1)]
    return [Block(held, held) for held in _split_blocks(columns, hours, column_share, slots)]


def _distinct_columns(classes: np.ndarray, share: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(columns [C × V], share [V]): the weights of the workloads whose weight varies, workloads of equal
    weights in every class as one (their shares summed): the same blocks cost the same, cut faster."""
    varies = np.ptp(classes, axis=0) > 0
    columns, index = np.unique(classes[:, varies].T, axis=0, return_inverse=True)
    return columns.T, np.bincount(index.ravel(), weights=share[varies], minlength=len(columns))


def _best_cuts(classes: np.ndarray, hours: np.ndarray, share: np.ndarray, slots: int) -> np.ndarray:
    """The `slots` + 1 positions in the classes' order where blocks start and end (0 first, C − 1 last; block
    b runs from cuts[b] to cuts[b+1] inclusive and holds the hours of cuts[b] … cuts[b+1] − 1, the last block
    also those of C − 1) of least total _segment_costs, by dynamic programming."""
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
    return np.array(cuts[::-1])


# The elements of the [rows × C × W] arrays _mix_costs builds for one chunk of its rows (block ends), 8 bytes
# each: some five live at once, so about 40 MB however many workloads. All rows at once held C × C × W each:
# 168 distinct weekly weights of 500 workloads (scenario.MAX_WORKLOADS) peaked at 456 MB in load_blocks
# (tracemalloc; 92 MB at 100 workloads), before check_size could refuse the model it was cut for.
MIX_CHUNK_ELEMENTS = 1 << 20


def _mix_costs(classes: np.ndarray, hours: np.ndarray, share: np.ndarray,
               chunk_elements: int = MIX_CHUNK_ELEMENTS) -> np.ndarray:
    """[C] the cost of the block of classes 0 … p, for each p: Σ over its classes of hours × Σ_w share_w ×
    (over-service + distance to the nearer corner). An hour is worked at λ × most + (1 − λ) × least with λ its
    largest position between the corners over the workloads, so each workload whose own position is lower is
    served (λ − position) × (most − least) above its need: the work, and the capacity for peaks that never
    meet, a block of unrelated hours pays for (0 for one shaped workload, whose cost is _segment_costs').
    Computed for a chunk of p at a time (`chunk_elements`, MIX_CHUNK_ELEMENTS), each row as it would be alone."""
    n, width = classes.shape
    least = np.minimum.accumulate(classes, axis=0)                             # [p × W]: corners of 0 … p
    most = np.maximum.accumulate(classes, axis=0)
    rows = max(1, chunk_elements // max(1, n * width))
    return np.concatenate([_mix_cost_rows(classes, hours, share, least[p:p + rows], most[p:p + rows], p)
                           for p in range(0, n, rows)]) if n else np.zeros(0)


def _mix_cost_rows(classes: np.ndarray, hours: np.ndarray, share: np.ndarray, least: np.ndarray, most: np.ndarray,
                   first: int) -> np.ndarray:
    """_mix_costs of the blocks 0 … p for p = first, first + 1 …, one per row of their corners `least`, `most`."""
    least, most = least[:, None, :], most[:, None, :]                          # [p × 1 × W]
    above, width = classes[None, :, :] - least, most - least                   # [p × h × W], [p × 1 × W]
    position = np.divide(above, width, out=np.zeros_like(above), where=width > 0)
    mix = position.max(axis=2)                                                 # [p × h]: λ
    over = mix * (width[:, 0, :] @ share)[:, None] - above @ share
    near = np.minimum(above, most - classes[None, :, :]) @ share
    return (np.tril(over + near, k=first) * hours[None, :]).sum(axis=1)        # block 0 … p holds h ≤ p


def _best_split(block: np.ndarray, classes: np.ndarray, hours: np.ndarray, share: np.ndarray) -> tuple:
    """(saving, first, second): `block` (class indices) cut in two where _mix_costs falls most, along its
    share-weighted load or the weights of its widest workload (share × spread); saving 0 and None when no
    cut lowers it."""
    if len(block) < 2:
        return 0.0, None, None
    c, h = classes[block], hours[block]
    widest = int(np.argmax(np.ptp(c, axis=0) * share))
    best = (0.0, None, None)
    for key in (c @ share, c[:, widest]):
        order = np.argsort(key, kind="stable")
        head = _mix_costs(c[order], h[order], share)                          # blocks order[:p + 1]
        tail = _mix_costs(c[order[::-1]], h[order[::-1]], share)[::-1]         # blocks order[p:]
        cut = head[:-1] + tail[1:]
        p = int(np.argmin(cut))
        if head[-1] - cut[p] > best[0] + 1e-12:
            best = (head[-1] - cut[p], block[order[:p + 1]], block[order[p + 1:]])
    return best


def _split_blocks(classes: np.ndarray, hours: np.ndarray, share: np.ndarray, slots: int) -> list[np.ndarray]:
    """Up to `slots` blocks (class indices) of several shaped workloads: from one block of all classes, the
    block whose best cut (_best_split) saves most is cut in two, until there are `slots` or no cut saves."""
    blocks = [np.arange(len(classes))]
    splits = [_best_split(blocks[0], classes, hours, share)]
    while len(blocks) < slots:
        b = max(range(len(blocks)), key=lambda i: splits[i][0])
        saving, first, second = splits[b]
        if first is None:
            break
        blocks[b:b + 1] = [first, second]
        splits[b:b + 1] = [_best_split(first, classes, hours, share), _best_split(second, classes, hours, share)]
    return blocks


def _corners(classes: np.ndarray, hours: np.ndarray, blocks: list[Block]) -> tuple[WeekLevels, WeekLevels]:
    """(plan, means): each block's two corners with the hours the mix gives them, and each block's mean."""
    weights, held, mean_weights, mean_hours = [], [], [], []
    for block in blocks:
        mine = block.held
        least, most = classes[block.span].min(axis=0), classes[block.span].max(axis=0)
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
    profiles = [weekly_profile(w.profile) for w in scenario.workloads]
    weights = np.column_stack([p.weights for p in profiles])  # [168 × W]
    read = {w.name: p.sha256 for w, p in zip(scenario.workloads, profiles) if p.sha256 is not None}
    if not merge:
        return WeekBlocks(WeekLevels(np.ones(HOURS_PER_WEEK), weights), None, HOURS_PER_WEEK, read)
    classes, hours = weight_classes(weights)
    if slots is None or len(classes) <= slots:
        return WeekBlocks(WeekLevels(hours.astype(float), classes), None, len(classes), read)
    # each workload weighs by its share of the horizon's demand
    demand = monthly_demand(scenario).sum(axis=0)
    share = demand / demand.sum() if demand.sum() > 0 else np.full(len(demand), 1.0 / len(demand))
    blocks = load_blocks(classes, hours.astype(float), share, slots)
    plan, means = _corners(classes, hours.astype(float), blocks)
    return WeekBlocks(plan, means, len(classes), read)


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
