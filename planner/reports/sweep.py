"""Sweeps: plan every point of a cross product of dotted-path values, locally or on a Dask cluster.

`sweep()` starts worker processes: in a plain script, call it under `if __name__ == "__main__":`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import pandas as pd

from planner.engine import plan
from planner.errors import InfeasibleError, PlannerError, ScenarioError
from planner.scenario import Scenario, apply_overrides, load_scenario
from planner.scenario.overrides import ORIGIN

Progress = Callable[[int, int], None]


def fleet_summary(fleet: pd.DataFrame) -> str:
    """One line: owned and reserved units, then cloud hours, e.g.
    `1 a100-80gb-pcie, 2 rtx-3060-12gb; aws:g5.xlarge on_demand 96 h`."""
    units, hours = [], []
    for r in fleet.itertuples(index=False):
        if r.provider == "onprem":
            units.append(f"{r.units:g} {r.sku}")
        elif r.units == r.units:   # not NaN: a reservation
            units.append(f"{r.units:g} {r.provider}:{r.sku} {r.purchase_option}")
        else:
            hours.append(f"{r.provider}:{r.sku} {r.purchase_option} {r.instance_hours:,.0f} h")
    return "; ".join(x for x in (", ".join(units), ", ".join(hours)) if x) or "(none)"


def _sweep_point(scenario: Scenario, solver: str, baselines: bool) -> dict:
    """One sweep row (runs in a worker process): infeasible and failed points become rows."""
    try:
        p = plan(scenario, solver=solver, baselines=baselines)
    except InfeasibleError as exc:
        return {"total": math.nan, "savings_vs_all_cloud": math.nan, "fleet": "", "status": "infeasible",
                "note": str(exc).split(": ", 1)[-1]}
    except PlannerError as exc:
        return {"total": math.nan, "savings_vs_all_cloud": math.nan, "fleet": "", "status": "error",
                "note": str(exc)}
    savings = math.nan
    if baselines and len(p.baselines):
        row = p.baselines[p.baselines["baseline"] == "all_cloud"]
        if len(row):
            savings = float(row["savings"].iloc[0])
    return {"total": p.total, "savings_vs_all_cloud": savings, "fleet": fleet_summary(p.fleet),
            "status": p.status, "note": ""}


def sweep_points(scenario: Scenario, vary: Mapping[str, Iterable[Any]]) -> tuple[list[dict], list[Scenario]]:
    """The cross product of `vary` (in its order, last path fastest) and the validated scenario of each
    point. Every bad path or value is reported at once, before anything is solved."""
    paths = list(vary)
    values = [list(vary[p]) for p in paths]
    problems = [f"{p}: no values to vary over" for p, v in zip(paths, values) if not v]
    # Check each path and value once on its own, so problems are listed per input, not per point.
    for p, vals in zip(paths, values):
        for v in vals:
            try:
                apply_overrides(scenario, {p: v})
            except ScenarioError as exc:
                problems += exc.problems
    if problems:
        raise ScenarioError(list(dict.fromkeys(problems)), ORIGIN)
    points = [dict(zip(paths, combo)) for combo in itertools.product(*values)]
    return points, [apply_overrides(scenario, pt) for pt in points]


def _resolve_client(scheduler: Any):
    """(client, owned): a distributed.Client for an address, or the Client given."""
    from distributed import Client

    if isinstance(scheduler, Client):
        return scheduler, False
    return Client(str(scheduler), set_as_default=False), True


def _process_context():
    """Worker processes start from a fork server that has imported the planner: safe in threaded hosts
    (Jupyter kernels, Streamlit, a Dask client) where a plain fork is not, and cheap per worker.
    Platforms without fork (Windows) spawn."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["planner.engine", "planner.reports.sweep"])
    return ctx


def sweep(scenario: Scenario | str | Path | dict, vary: Mapping[str, Iterable[Any]],
          scheduler: Any = None, processes: int = 2, baselines: bool = False, solver: str = "cbc",
          progress: Progress | None = None) -> pd.DataFrame:
    """Plan every point of the cross product of `vary` (dotted path → values); one row per point.

    Columns: one per varied path, `total` (present value, scenario currency), `savings_vs_all_cloud`
    (only with `baselines=True`), `fleet` (summary), `status` (optimal | infeasible | error), `note`.
    Infeasible points are rows, not exceptions; bad paths or values raise ScenarioError up front.

    Runs on `processes` local worker processes (1 = in this process), or on an existing Dask cluster
    when `scheduler` is its address or a `distributed.Client` (workers need this package installed).
    Rows come back in cross-product order either way, with the same numbers.
    `progress(done, total)` is called as points finish.
    """
    base = load_scenario(scenario)
    points, scenarios = sweep_points(base, vary)
    n = len(points)
    results: list[dict | None] = [None] * n
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, n)

    if progress is not None:
        progress(0, n)
    if scheduler is not None:
        from distributed import as_completed as dask_completed

        client, owned = _resolve_client(scheduler)
        try:
            futures = client.map(_sweep_point, scenarios, solver=solver, baselines=baselines, pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            for fut in dask_completed(futures, loop=client.loop):
                results[index[fut.key]] = fut.result()
                tick()
        finally:
            if owned:
                client.close()
    elif processes <= 1 or n == 1:
        for i, s in enumerate(scenarios):
            results[i] = _sweep_point(s, solver, baselines)
            tick()
    else:
        with ProcessPoolExecutor(max_workers=min(processes, n), mp_context=_process_context()) as pool:
            futures = {pool.submit(_sweep_point, s, solver, baselines): i for i, s in enumerate(scenarios)}
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                tick()
    table = pd.concat([pd.DataFrame(points, columns=list(vary)), pd.DataFrame(results)], axis=1)
    if not baselines:
        table = table.drop(columns=["savings_vs_all_cloud"])
    return table
