"""Workloads as the optimiser sees them: demand per period, and what each unit delivers to each workload.

- Demand: `D(w,m) = gpu_hours_per_month × (1 + growth)^(m−1)` reference-GPU-hours in month m, shaped
  within the month by the workload's weekly profile. A workload may state its month-1 demand as
  reference GPUs busy on average (`reference_gpus`: × 730 hours) or as requests per second
  (`requests_per_second` with `throughput_unit: requests_per_second`: ÷ the requests/s one reference GPU
  sustains, from its throughput table, × 730 hours); either is the weekly mean, the profile's weights
  (mean 1) shape it hour by hour.
- Work: one hour of a unit delivers `perf(w,g) × gpus × eff(k, interconnect)` reference-GPU-hours
  (gpus: of an instance, those whole k-GPU jobs use, ⌊gpus / k⌋ × k)
  (× (1 − overhead) on spot), where eff is the measured multi-GPU efficiency of jobs on k = gpus_per_job
  GPUs (1 when k = 1, and for a requests/s table, measured in k-GPU replicas already), or nothing when the
  unit cannot serve the workload — and then the reason is
  recorded. perf comes from the workload's throughput table, else its speed model (planner.catalog.speeds;
  docs/speed-model.md).
"""

from __future__ import annotations

import functools
import math
from collections import namedtuple

import numpy as np
import pandas as pd

from planner import catalog
from planner.catalog import speeds
from planner.catalog.gpus import gpu_kinds
from planner.errors import ScenarioError
from planner.months import HOURS_PER_MONTH
from planner.scenario.model import MAX_GPU_HOURS_PER_MONTH


def _table(workload, custom_gpus: dict[str, str] | None = None) -> dict[str, float]:
    """The workload's own throughput table keyed by canonical GPU id (speeds relative to its reference GPU).
    `custom_gpus`: the scenario's custom card id -> GPU id (`catalog.custom_gpu_ids`); a key naming a custom
    card stands for its GPU."""
    custom_gpus = custom_gpus or {}
    return {custom_gpus.get(k) or catalog.resolve_gpu(k): v for k, v in (workload.throughput or {}).items()}


def per_request_unit(workload) -> bool:
    """True when the workload's throughput table holds requests/s (throughput_unit: requests_per_second)."""
    return workload.throughput_unit == "requests_per_second"


def demand_scale(workload, custom_gpus: dict[str, str] | None = None) -> tuple[str, float]:
    """(unit, per reference GPU): the unit a workload's demand is reported in — requests_per_second, or
    reference_gpus — and how many of it one reference GPU delivers (its requests/s, or 1)."""
    if per_request_unit(workload):
        return "requests_per_second", _table(workload, custom_gpus)[catalog.resolve_gpu(workload.reference_gpu)]
    return "reference_gpus", 1.0


def reference_gpu_hours(workload, custom_gpus: dict[str, str] | None = None) -> float:
    """Month-1 demand in reference-GPU-hours, whichever demand field the workload gives."""
    field = workload.demand_field
    if field == "gpu_hours_per_month":
        return float(workload.gpu_hours_per_month)
    per_reference = demand_scale(workload, custom_gpus)[1]
    return workload.demand_amount / per_reference * HOURS_PER_MONTH


def speed_and_source(workload, gpu: str, custom_gpus: dict[str, str] | None = None) -> speeds.Speed:
    """perf(w,g) with its provenance: reference (g is the reference GPU), user (the workload's table),
    measured, estimated, datasheet or none.

    A GPU the table lacks takes the metric's speed model, divided by the reference GPU's speed in the same
    model: the table gives speeds relative to the reference GPU, so both parts share one scale. A ratio
    whose reference speed is estimated is an estimate, whatever the GPU's own.
    `custom_gpus`: as for `_table` (needed when the table names custom cards).
    """
    ref = catalog.resolve_gpu(workload.reference_gpu)
    table = _table(workload, custom_gpus)
    if gpu == ref:
        return _reference_speed(workload, ref, table)
    if per_request_unit(workload):   # requests/s: the table is the only source; a GPU it lacks cannot serve
        if gpu not in table or ref not in table:
            return speeds.Speed(math.nan, "none", f"no requests/s for {gpu} in the throughput table of workload "
                                f"{workload.name} (throughput_unit: requests_per_second)")
        return speeds.Speed(table[gpu] / table[ref], "user",
                            f"{table[gpu]:g} requests/s (throughput table of workload {workload.name}), "
                            f"reference {ref} {table[ref]:g}")
    if gpu in table:
        return speeds.Speed(table[gpu] / table.get(ref, 1.0), "user", f"throughput table of workload {workload.name}")
    metric = workload.throughput_metric
    own, base = speeds.gpu_speed(metric, gpu), speeds.gpu_speed(metric, ref)
    value = own.relative_speed / base.relative_speed
    if math.isnan(value):
        return speeds.Speed(math.nan, "none", own.detail if math.isnan(own.relative_speed) else f"reference {ref}: {base.detail}")
    if base.source == own.source != "estimated":
        return speeds.Speed(value, own.source, own.detail)
    source = "estimated" if "estimated" in (own.source, base.source) else own.source
    reference = f"reference {ref} {base.source}" + (f": {base.detail}" if base.source == "estimated" else "")
    return speeds.Speed(value, source, f"{own.detail}; {reference}")


def _reference_speed(workload, ref: str, table: dict[str, float]) -> speeds.Speed:
    """The reference GPU's own perf: exactly 1, by definition, however its speed under the metric was found
    (an estimate included: it divides itself); the detail names the speed the other GPUs' ratios rest on."""
    own = f"reference GPU of workload {workload.name}, 1 by definition"
    if ref in table:
        unit = " requests/s" if per_request_unit(workload) else ""
        return speeds.Speed(1.0, "reference", f"{own}; its throughput table gives it {table[ref]:g}{unit}")
    if per_request_unit(workload):
        return speeds.Speed(math.nan, "none", f"no requests/s for {ref} in the throughput table of workload "
                            f"{workload.name} (throughput_unit: requests_per_second)")
    base = speeds.gpu_speed(workload.throughput_metric, ref)
    if math.isnan(base.relative_speed):
        return speeds.Speed(math.nan, "none", base.detail)
    return speeds.Speed(1.0, "reference", f"{own}; the other GPUs' speeds under {workload.throughput_metric} are "
                        f"relative to its {base.source} speed ({base.detail})")


def relative_speed(workload, gpu: str, custom_gpus: dict[str, str] | None = None) -> float:
    """perf(w,g): reference-GPU-hours of work per hour on one `gpu` (NaN when no figure exists)."""
    return speed_and_source(workload, gpu, custom_gpus).relative_speed


def check_reference_metrics(scenario) -> None:
    """Every workload's reference GPU must have a speed under its metric (or be in its throughput table)."""
    problems = []
    custom_gpus = catalog.custom_gpu_ids(scenario.onprem.custom_cards)
    for w in scenario.workloads:
        ref = catalog.resolve_gpu(w.reference_gpu)
        if per_request_unit(w):
            if ref not in _table(w, custom_gpus):
                problems.append(f"workload {w.name}: reference GPU {ref} is not in its throughput table; with "
                                f"throughput_unit requests_per_second the table must give the requests/s one {ref} "
                                "sustains (demand is counted in reference GPUs)")
                continue
            # the scenario checks requests/s against its own limit; in GPU-hours a tiny throughput can still
            # ask for more than any fleet (1e6 requests/s at 1e-4 per GPU: 7.3e12 GPU-hours a month)
            hours = reference_gpu_hours(w, custom_gpus) * (1 + w.growth_per_month) ** max(scenario.horizon_months - 1, 0) \
                if w.growth_per_month > 0 else reference_gpu_hours(w, custom_gpus)
            if hours > MAX_GPU_HOURS_PER_MONTH:
                problems.append(f"workload {w.name}: {w.demand_amount:g} requests/s at {_table(w, custom_gpus)[ref]:g} "
                                f"requests/s per {ref} asks for {hours:.3g} reference-GPU-hours in a month, above "
                                f"{MAX_GPU_HOURS_PER_MONTH:.0e}; check requests_per_second and the throughput table")
            continue
        if ref in _table(w) or not math.isnan(speeds.gpu_speed(w.throughput_metric, ref).relative_speed):
            continue
        why = speeds.gpu_speed(w.throughput_metric, ref).detail
        others = [m for m in speeds.METRIC_NAMES if ":" not in m
                  and not math.isnan(speeds.gpu_speed(m, ref).relative_speed)]
        fix = (f"set throughput_metric to one of {others} or give a throughput table naming {ref}" if others
               else f"give a throughput table naming {ref} (speeds of other GPUs relative to it)")
        problems.append(f"workload {w.name}: reference GPU {ref} has no {w.throughput_metric} speed ({why}); {fix}")
    if problems:
        raise ScenarioError(problems, scenario.name)


def speed_sources(scenario, gpus, pairs: set[tuple[str, str]] | None = None) -> pd.DataFrame:
    """Where each workload's speed on each GPU comes from: workload, gpu, relative_speed (vs the workload's
    reference GPU), gpus_per_job, scaling_efficiency, source (reference | user | measured | estimated | datasheet |
    none), detail. `gpus`: the canonical GPU ids to list (e.g. those of the plan's units); `pairs`: where given,
    only the (workload, gpu) pairs in it (those a unit of that GPU can serve: engine.readback.servable_pairs)."""
    rows = []
    custom_gpus = catalog.custom_gpu_ids(scenario.onprem.custom_cards)
    for w in scenario.workloads:
        for gpu in dict.fromkeys(gpus):
            if pairs is not None and (w.name, gpu) not in pairs:
                continue
            speed = speed_and_source(w, gpu, custom_gpus)
            efficiency, _ = _scaling(w, gpu)
            rows.append({"workload": w.name, "gpu": gpu, "relative_speed": speed.relative_speed,
                         "gpus_per_job": w.gpus_per_job, "scaling_efficiency": efficiency,
                         "source": speed.source, "detail": speed.detail})
    columns = ["workload", "gpu", "relative_speed", "gpus_per_job", "scaling_efficiency", "source", "detail"]
    return pd.DataFrame(rows, columns=columns)


def _scaling(workload, gpu: str) -> tuple[float, str]:
    """(efficiency, detail) of one job spread over the workload's gpus_per_job GPUs of `gpu`. A requests/s
    table is per GPU as measured in replicas of gpus_per_job GPUs (a replica's requests/s ÷ gpus_per_job),
    so its multi-GPU losses are in it already: the training benchmarks' efficiency does not apply."""
    if per_request_unit(workload) and workload.gpus_per_job > 1:
        return 1.0, f"requests/s per GPU measured in {workload.gpus_per_job}-GPU replicas (the throughput table)"
    return speeds.scaling_efficiency(workload.throughput_metric, gpu, workload.gpus_per_job)


def _reason(workload, unit, gpus: dict[str, tuple[str, float]], table: dict[str, float], speed_of) -> str | None:
    """Why `unit` cannot serve `workload`, or None. `gpus`: GPU id -> (kind, compute capability)
    (`catalog.gpus.gpu_kinds`: a dict, since a pandas `.loc` per unit and workload cost 30 ms of a plan);
    `table`: the workload's `_table`; `speed_of(gpu)`: its `speed_and_source` on `gpu`."""
    gpu = unit.gpu
    if not unit.gpu_known or gpu not in gpus:
        return f"unknown accelerator {unit.accelerator_name or gpu}"
    kind, cc = gpus[gpu]
    if kind == "asic" and gpu not in table:
        # Inferentia, Trainium, Gaudi: not drop-in GPUs; a team that ported its code names them
        return f"{gpu} is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it"
    if unit.kind == "spot" and not workload.interruptible:
        return "spot capacity serves interruptible workloads only"
    if math.isnan(unit.gpu_count) or unit.gpu_count <= 0:
        return "GPU count unknown"
    memory = unit.gpu_memory_gb
    if math.isnan(memory):   # excluded whatever the floor, as before: an offer nobody can size is not planned on
        need = workload.min_gpu_memory_gb
        return "GPU memory unknown" + (f"; {need:g} GB per GPU needed" if need > 0 else "")
    if memory < workload.min_gpu_memory_gb:
        return f"{memory:g} GB per GPU < {workload.min_gpu_memory_gb:g} GB needed"
    if workload.gpus_per_job > 1:
        per_node = unit.cards_per_server if unit.kind == "card" else unit.gpu_count
        if per_node < workload.gpus_per_job:
            return f"{per_node:g} GPUs per node < {workload.gpus_per_job} GPUs per job"
    if workload.min_compute_capability is not None and not (cc >= workload.min_compute_capability):
        return catalog.capability_reason(gpu, cc, workload.min_compute_capability)
    if workload.framework:
        why = catalog.exclusion_reason(workload.framework, gpu, cc)
        if why:
            return why
    speed = speed_of(gpu)
    if per_request_unit(workload) and math.isnan(speed.relative_speed):
        return f"{gpu} is not in the workload's requests/s throughput table: name it there to allow it"
    if math.isnan(speed.relative_speed) or speed.relative_speed <= 0:
        # a custom card's GPU id is made up (CUSTOM-…-hash): its throughput entry is under the card id; the figure
        # to set is the metric's own (a datasheet column) or the bandwidth the speed model estimates from
        metric = workload.throughput_metric
        figure = "memory_bandwidth_gbps" if speeds.is_measured(metric) else metric
        where = (f"give its speed in the workload's throughput table under its onprem.custom_cards id, or set "
                 f"gpu_specs.{figure}" if kind == "custom" else "add it to a throughput table")
        return f"no {workload.throughput_metric} speed for {gpu}: {speed.detail} ({where})"
    return None


def _speeds_of(workload, custom_gpus: dict[str, str]):
    """`speed_and_source(workload, gpu, custom_gpus)` as a function of `gpu`, each GPU worked out once
    (many capability profiles share a GPU)."""
    return functools.cache(lambda gpu: speed_and_source(workload, gpu, custom_gpus))


EXCLUSION_COLUMNS = ["workload", "unit_id", "kind", "provider", "sku", "gpu", "reason"]
# the unit facts that decide what a unit can serve (one class, not one per call: namedtuple() is slow)
_Profile = namedtuple("_Profile", ["kind", "gpu", "gpu_known", "accelerator_name", "gpu_count", "gpu_memory_gb",
                                   "cards_per_server"])


def _job_gpus(unit, gpus_per_job: int) -> float:
    """The GPUs of `unit` that whole jobs of `gpus_per_job` GPUs keep busy: a multiple of it on an instance
    (jobs do not span instances); a card's one (cards of a server are pooled across jobs)."""
    if unit.kind == "card" or gpus_per_job <= 1:
        return unit.gpu_count
    return math.floor(unit.gpu_count / gpus_per_job) * gpus_per_job


def work_matrix(scenario, units: pd.DataFrame) -> tuple[np.ndarray, pd.DataFrame]:
    """(work [U × W] reference-GPU-hours per unit-hour, exclusions).

    `units` needs: unit_id, kind, provider, sku, gpu, gpu_known, accelerator_name, gpu_count,
    gpu_memory_gb, cards_per_server. exclusions: workload, unit_id, kind, provider, sku, gpu, reason.
    Thousands of offers share a few dozen capability profiles, so each profile is judged once.
    """
    gpus = gpu_kinds()   # of catalog.gpu_table(), with the scenario's custom GPUs (site_cards registers them)
    custom_gpus = catalog.custom_gpu_ids(scenario.onprem.custom_cards)
    kinds = units["kind"].to_numpy(dtype=object)
    unit_ids, providers, skus, unit_gpus = (units[c].to_numpy() for c in ("unit_id", "provider", "sku", "gpu"))
    rows = zip(*[units[c].to_numpy(dtype=object) for c in _Profile._fields])
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
        representatives[k] = _Profile(key[0], key[1], key[2], key[3], nan if key[4] is None else key[4],
                                      nan if key[5] is None else key[5], key[6])
    work = np.zeros((len(units), len(scenario.workloads)))
    excluded = []
    for j, w in enumerate(scenario.workloads):
        throughput, speed_of = _table(w, custom_gpus), _speeds_of(w, custom_gpus)
        reasons = [_reason(w, rep, gpus, throughput, speed_of) for rep in representatives]
        usable = dict.fromkeys(rep.gpu for rep, why in zip(representatives, reasons) if not why)
        # work per unit-hour: speed × GPUs whole jobs use × multi-GPU efficiency (1 for one-GPU jobs) × spot
        # survival; an instance of 4 GPUs runs one 3-GPU job (its 4th GPU idles), a card counts alone
        speed = {gpu: speed_of(gpu).relative_speed * _scaling(w, gpu)[0] for gpu in usable}
        per_profile = np.array([0.0 if why else speed[rep.gpu] * _job_gpus(rep, w.gpus_per_job) *
                                (1.0 - w.interruption_overhead if rep.kind == "spot" else 1.0)
                                for rep, why in zip(representatives, reasons)])
        work[:, j] = per_profile[profile_of]
        reason_of = np.array([why or "" for why in reasons], dtype=object)[profile_of]
        mask = reason_of != ""
        if mask.any():
            excluded.append(pd.DataFrame({
                "workload": w.name, "unit_id": unit_ids[mask], "kind": kinds[mask], "provider": providers[mask],
                "sku": skus[mask], "gpu": unit_gpus[mask], "reason": reason_of[mask]}))
    if not excluded:
        return work, pd.DataFrame(columns=EXCLUSION_COLUMNS)
    if len(excluded) == 1:   # already the table concat would copy
        return work, excluded[0]
    return work, pd.concat(excluded, ignore_index=True)   # each part has EXCLUSION_COLUMNS in order
