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
from planner.scenario.overrides import ORIGIN, path_problems

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


def _error_row(note: str) -> dict:
    """The row of a point whose values the scenario rejects (nothing is solved for it)."""
    return {"total": math.nan, "savings_vs_all_cloud": math.nan, "fleet": "", "status": "error", "note": note}


def sweep_points(scenario: Scenario, vary: Mapping[str, Iterable[Any]]) -> tuple[list[dict], list[Scenario | str]]:
    """The cross product of `vary` (in its order, last path fastest) and, for each point, its validated
    scenario or — when the scenario rejects that point's values — the problems as one line of text.

    Raises ScenarioError up front, before anything is solved, when a path is bad (unknown, or given no
    values): that is a mistake in the whole sweep. Its message also lists the bad values found."""
    paths = list(vary)
    values = [list(vary[p]) for p in paths]
    problems = [f"{p}: no values to vary over" for p, v in zip(paths, values) if not v]
    problems += [q for p, v in zip(paths, values) if v for q in path_problems(scenario, p, v[0])]
    # Check each value once on its own, so a bad one is named once, not once per point it is in.
    bad: dict[tuple[int, int], list[str]] = {}
    for k, (p, vals) in enumerate(zip(paths, values)):
        for m, v in enumerate(vals):
            try:
                apply_overrides(scenario, {p: v})
            except ScenarioError as exc:
                bad[k, m] = exc.problems
    if problems:
        raise ScenarioError(list(dict.fromkeys(problems + [q for qs in bad.values() for q in qs])), ORIGIN)
    points, scenarios = [], []
    for combo in itertools.product(*(range(len(v)) for v in values)):
        point = {p: values[k][m] for k, (p, m) in enumerate(zip(paths, combo))}
        points.append(point)
        scenarios.append(_point_scenario(scenario, point, [q for k, m in enumerate(combo) for q in bad.get((k, m), [])]))
    return points, scenarios


def _point_scenario(scenario: Scenario, point: dict, problems: list[str]) -> Scenario | str:
    """The scenario of one point, or its problems as text: its own bad values, or values that are
    fine alone but not together (min_units above max_units)."""
    if problems:
        return "; ".join(dict.fromkeys(problems))
    try:
        return apply_overrides(scenario, point)
    except ScenarioError as exc:
        return "; ".join(exc.problems)


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
    Infeasible points and points whose values the scenario rejects (status error, the problem in
    `note`) are rows, not exceptions; a bad path raises ScenarioError up front.

    Runs on `processes` local worker processes (1 = in this process), or on an existing Dask cluster
    when `scheduler` is its address or a `distributed.Client` (workers need this package installed).
    Rows come back in cross-product order either way, with the same numbers.
    `progress(done, total)` is called as points finish.
    """
    base = load_scenario(scenario)
    points, scenarios = sweep_points(base, vary)
    n = len(points)
    # points the scenario rejects are rows already: nothing to solve for them
    results: list[dict | None] = [_error_row(s) if isinstance(s, str) else None for s in scenarios]
    todo = [(i, s) for i, s in enumerate(scenarios) if not isinstance(s, str)]
    done = n - len(todo)

    def store(i: int, row: dict) -> None:
        nonlocal done
        results[i] = row
        done += 1
        if progress is not None:
            progress(done, n)

    if progress is not None:
        progress(done, n)
    if todo:
        _solve_points(todo, store, scheduler, processes, solver, baselines)
    table = pd.concat([pd.DataFrame(points, columns=list(vary)), pd.DataFrame(results)], axis=1)
    if not baselines:
        table = table.drop(columns=["savings_vs_all_cloud"])
    return table


def _solve_points(todo: list[tuple[int, Scenario]], store: Callable[[int, dict], None], scheduler: Any,
                  processes: int, solver: str, baselines: bool) -> None:
    """Solve each (index, scenario) of `todo` on a Dask cluster, local processes or in this process;
    `store(index, row)` is called as each finishes."""
    if scheduler is not None:
        from distributed import as_completed as dask_completed

        client, owned = _resolve_client(scheduler)
        try:
            futures = client.map(_sweep_point, [s for _, s in todo], solver=solver, baselines=baselines, pure=False)
            index = {f.key: i for (i, _), f in zip(todo, futures)}
            for fut in dask_completed(futures, loop=client.loop):
                store(index[fut.key], fut.result())
        finally:
            if owned:
                client.close()
    elif processes <= 1 or len(todo) == 1:
        for i, s in todo:
            store(i, _sweep_point(s, solver, baselines))
    else:
        with ProcessPoolExecutor(max_workers=min(processes, len(todo)), mp_context=_process_context()) as pool:
            futures = {pool.submit(_sweep_point, s, solver, baselines): i for i, s in todo}
            for fut in as_completed(futures):
                store(futures[fut], fut.result())
