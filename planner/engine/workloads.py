"""Workloads as the optimiser sees them: demand per period, and what each unit delivers to each workload.

- Demand: `D(w,m) = gpu_hours_per_month × (1 + growth)^(m−1)` reference-GPU-hours in month m, shaped
  within the month by the workload's weekly profile.
- Work: one hour of a unit delivers `perf(w,g) × gpus` reference-GPU-hours (× (1 − overhead) on spot),
  or nothing when the unit cannot serve the workload — and then the reason is recorded.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from planner import catalog
from planner.engine.profiles import weekly_weights
from planner.errors import ScenarioError
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK, discount_factors


def monthly_demand(scenario) -> np.ndarray:
    """[H × W] reference-GPU-hours per month."""
    months = np.arange(scenario.horizon_months)[:, None]
    base = np.array([w.gpu_hours_per_month for w in scenario.workloads])[None, :]
    growth = np.array([w.growth_per_month for w in scenario.workloads])[None, :]
    return base * (1.0 + growth) ** months


def demand_periods(scenario, merge: bool = True) -> tuple[pd.DataFrame, np.ndarray]:
    """(periods, demand_rate).

    periods: one row per period with `months` (tuple of month numbers), `slot_hours` (hours per month
    the period covers), `n_months`, `discount_sum` (Σ d(m) over its months). demand_rate: [P × W]
    reference-GPU-hours per hour. With `merge`, weekly hours with equal weights for every workload are
    one slot class, and months with equal demand are one group: the load-duration view, exact because
    capacity is the same in every month and dispatch is linear.
    """
    weights = np.column_stack([weekly_weights(w.profile) for w in scenario.workloads])  # [168 × W]
    if merge:
        classes, counts = np.unique(np.round(weights, 12), axis=0, return_counts=True)
    else:
        classes, counts = weights, np.ones(HOURS_PER_WEEK, dtype=int)
    monthly = monthly_demand(scenario)
    d = discount_factors(scenario.discount_rate, scenario.horizon_months)
    groups: dict = {}
    for m in range(scenario.horizon_months):
        key = tuple(np.round(monthly[m], 9)) if merge else m
        groups.setdefault(key, []).append(m + 1)
    rows, rates = [], []
    for months in groups.values():
        for k in range(len(classes)):
            rows.append({"months": tuple(months), "slot_hours": counts[k] * HOURS_PER_MONTH / HOURS_PER_WEEK,
                         "n_months": len(months), "discount_sum": float(sum(d[m - 1] for m in months))})
            rates.append(monthly[months[0] - 1] / HOURS_PER_MONTH * classes[k])
    return pd.DataFrame(rows), np.array(rates)


def _metric_value(gpus: pd.DataFrame, gpu: str, metric: str) -> float:
    return float(gpus.loc[gpu, metric]) if gpu in gpus.index else math.nan


def relative_speed(workload, gpu: str) -> float:
    """perf(w,g): reference-GPU-hours of work per hour on one `gpu` (NaN when no figure exists)."""
    gpus = catalog.load_gpus()
    ref = catalog.resolve_gpu(workload.reference_gpu)
    table = {catalog.resolve_gpu(k): v for k, v in (workload.throughput or {}).items()}
    if gpu in table:
        return table[gpu] / table[ref] if ref in table else table[gpu]
    ref_value = _metric_value(gpus, ref, workload.throughput_metric)
    return _metric_value(gpus, gpu, workload.throughput_metric) / ref_value


def check_reference_metrics(scenario) -> None:
    """Every workload's reference GPU must have a figure for its metric (or a measured table)."""
    gpus = catalog.load_gpus()
    problems = []
    for w in scenario.workloads:
        ref = catalog.resolve_gpu(w.reference_gpu)
        in_table = w.throughput and ref in {catalog.resolve_gpu(k) for k in w.throughput}
        if not in_table and math.isnan(_metric_value(gpus, ref, w.throughput_metric)):
            others = [m for m in catalog.THROUGHPUT_METRICS if not math.isnan(_metric_value(gpus, ref, m))]
            problems.append(f"workload {w.name}: reference GPU {ref} has no {w.throughput_metric} figure in "
                            f"the catalog; set throughput_metric to one of {others} or give a throughput table")
    if problems:
        raise ScenarioError(problems, scenario.name)


def _table_gpus(workload) -> set:
    return {catalog.resolve_gpu(k) for k in (workload.throughput or {})}


def _reason(workload, unit, gpus: pd.DataFrame) -> str | None:
    """Why `unit` cannot serve `workload`, or None."""
    gpu = unit.gpu
    if not unit.gpu_known or gpu not in gpus.index:
        return f"unknown accelerator {unit.accelerator_name or gpu}"
    if gpus.loc[gpu, "kind"] == "asic" and gpu not in _table_gpus(workload):
        # Inferentia, Trainium, Gaudi: not drop-in GPUs; a team that ported its code names them
        return f"{gpu} is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it"
    if unit.kind == "spot" and not workload.interruptible:
        return "spot capacity serves interruptible workloads only"
    if math.isnan(unit.gpu_count) or unit.gpu_count <= 0:
        return "GPU count unknown"
    memory = unit.gpu_memory_gb
    if math.isnan(memory) or memory < workload.min_gpu_memory_gb:
        return f"{memory:g} GB per GPU < {workload.min_gpu_memory_gb:g} GB needed"
    if workload.gpus_per_job > 1:
        per_node = unit.cards_per_server if unit.kind == "card" else unit.gpu_count
        if per_node < workload.gpus_per_job:
            return f"{per_node:g} GPUs per node < {workload.gpus_per_job} GPUs per job"
    cc = float(gpus.loc[gpu, "compute_capability"])
    if workload.min_compute_capability is not None and not (cc >= workload.min_compute_capability):
        return f"compute capability {cc:g} < {workload.min_compute_capability:g} needed"
    if workload.framework:
        why = catalog.exclusion_reason(workload.framework, gpu, cc)
        if why:
            return why
    speed = relative_speed(workload, gpu)
    if math.isnan(speed) or speed <= 0:
        return f"no {workload.throughput_metric} figure for {gpu} (add it to a throughput table)"
    return None


def work_matrix(scenario, units: pd.DataFrame) -> tuple[np.ndarray, pd.DataFrame]:
    """(work [U × W] reference-GPU-hours per unit-hour, exclusions).

    `units` needs: unit_id, kind, provider, sku, gpu, gpu_known, accelerator_name, gpu_count,
    gpu_memory_gb, cards_per_server. exclusions: workload, unit_id, kind, provider, sku, gpu, reason.
    Thousands of offers share a few dozen capability profiles, so each profile is judged once.
    """
    from collections import namedtuple

    gpus = catalog.load_gpus()
    cols = ["kind", "gpu", "gpu_known", "accelerator_name", "gpu_count", "gpu_memory_gb", "cards_per_server"]
    Profile = namedtuple("Profile", cols)
    kinds = units["kind"].to_numpy(dtype=object)
    rows = zip(*[units[c].to_numpy(dtype=object) for c in cols])
    profiles: dict = {}
    profile_of = np.empty(len(units), dtype=np.int64)
    for i, row in enumerate(rows):
        kind, gpu, known, name, count, memory, per_server = row
        # NaN != NaN: key missing numbers as None so equal profiles share one entry
        key = ("spot" if kind == "spot" else ("card" if kind == "card" else "cloud"), gpu, bool(known),
               name if not known else "", None if count != count else count,
               None if memory != memory else memory, per_server if kind == "card" else None)
        profile_of[i] = profiles.setdefault(key, len(profiles))
    representatives = [None] * len(profiles)
    for key, k in profiles.items():
        nan = float("nan")
        representatives[k] = Profile(key[0], key[1], key[2], key[3], nan if key[4] is None else key[4],
                                     nan if key[5] is None else key[5], key[6])
    work = np.zeros((len(units), len(scenario.workloads)))
    excluded = []
    for j, w in enumerate(scenario.workloads):
        reasons = [_reason(w, rep, gpus) for rep in representatives]
        speed = {rep.gpu: None for rep, why in zip(representatives, reasons) if not why}
        speed = {gpu: relative_speed(w, gpu) for gpu in speed}
        per_profile = np.array([0.0 if why else speed[rep.gpu] * rep.gpu_count *
                                (1.0 - w.interruption_overhead if rep.kind == "spot" else 1.0)
                                for rep, why in zip(representatives, reasons)])
        work[:, j] = per_profile[profile_of]
        reason_of = np.array([why or "" for why in reasons], dtype=object)[profile_of]
        mask = reason_of != ""
        if mask.any():
            excluded.append(pd.DataFrame({
                "workload": w.name, "unit_id": units["unit_id"].to_numpy()[mask], "kind": kinds[mask],
                "provider": units["provider"].to_numpy()[mask], "sku": units["sku"].to_numpy()[mask],
                "gpu": units["gpu"].to_numpy()[mask], "reason": reason_of[mask]}))
    columns = ["workload", "unit_id", "kind", "provider", "sku", "gpu", "reason"]
    exclusions = pd.concat(excluded, ignore_index=True) if excluded else pd.DataFrame(columns=columns)
    return work, exclusions[columns]
