"""`plan()`: the one entry point of the engine (CLI, dashboard and notebooks call it).

scenario → prices → inputs → reductions → model → solve → Plan, then the baselines solved the same way.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from planner import catalog
from planner.engine.baselines import solve_baselines, solve_inputs
from planner.engine.inputs import Inputs, resolve_inputs
from planner.engine.model import ExtraConstraints
from planner.engine.readback import read_plan
from planner.engine.reductions import reduce
from planner.engine.result import Plan
from planner.engine.solve import DEFAULT_SOLVER
from planner.engine.workloads import speed_sources
from planner.scenario import Scenario, apply_overrides, load_scenario


def inputs_for(scenario: Scenario, store: str | Path | None = None, merge_periods: bool = True) -> Inputs:
    """The unreduced inputs of a validated scenario, priced from its price source (read once)."""
    prices, provenance = catalog.price_table(scenario.prices.source, store)
    return resolve_inputs(scenario, prices, provenance, merge_periods=merge_periods)


def plan_notes(scenario: Scenario, base: Inputs, result: Plan, store: str | Path | None = None) -> tuple:
    """(speeds, warnings) of a plan: where the speed of each GPU it uses comes from, and what the user
    should know — cards with no sourced price, purchase options with no price, stale or undated prices,
    speeds that are estimates, a purchase period that does not divide the horizon."""
    gpus = sorted(set(result.fleet["gpu"].dropna()))
    speeds = speed_sources(scenario, gpus)
    warnings = list(base.warnings)
    prices, _ = catalog.price_table(scenario.prices.source, store)   # cached: read once per plan
    warnings += catalog.option_gaps(scenario, prices)
    warnings += result.prices.get("date_warnings", [])
    estimated = speeds[speeds["source"] == "estimated"]
    for workload, rows in estimated.groupby("workload", sort=False):
        warnings.append(f"{workload}: the speeds of {', '.join(rows['gpu'])} are estimates from datasheet figures, "
                        "not measurements (see the plan's speeds table and docs/speed-model.md); give them in the "
                        "workload's throughput table if you have measured them")
    every, horizon = scenario.onprem.purchase_every_months, scenario.horizon_months
    if every < horizon and horizon % every and result.fleet["kind"].eq("card").any():
        warnings.append(f"purchase_every_months {every} does not divide horizon_months {horizon}: the last "
                        f"purchase period is {horizon % every} months long")
    return speeds, warnings


def plan(scenario: Scenario | str | Path | dict, solver: str = DEFAULT_SOLVER, baselines: bool = True,
         reduced: bool = True, time_limit: float | None = None, overrides: Mapping[str, Any] | None = None,
         store: str | Path | None = None, extra_constraints: ExtraConstraints | None = None,
         **kwargs: Any) -> Plan:
    """The cheapest fleet for `scenario` (a Scenario, a file path, YAML text or a dict).

    - `overrides` / keyword arguments: dotted-path changes, validated like a file —
      `plan(s, onprem__electricity_per_kwh=0.2)` is `plan(s, overrides={"onprem.electricity_per_kwh": 0.2})`;
    - `store`: the price store file for `prices.source: store` (default `$FLEETPLAN_STORE` or the
      platform's data directory);
    - `extra_constraints(model)`: called with the built model of the recommended plan before it is
      solved, to add constraints of your own (`model.prob += …`; `model.card(sku)` is a card's count);
      baselines do not get them;
    - `reduced=False` solves without the exact reductions (slow; for checks).
    Raises InfeasibleError with the reason and the numbers, ScenarioError for bad input.
    """
    s = apply_overrides(load_scenario(scenario), overrides, **kwargs)
    t0 = time.perf_counter()
    base = inputs_for(s, store, merge_periods=reduced)
    t1 = time.perf_counter()
    inp = reduce(base) if reduced else base
    t2 = time.perf_counter()
    model, solution = solve_inputs(inp, solver, time_limit, extra_constraints=extra_constraints)
    result = read_plan(inp, model, solution, s)
    result.speeds, result.warnings = plan_notes(s, base, result, store)
    t3 = time.perf_counter()
    if baselines:
        result.baselines, result.baseline_plans = solve_baselines(base, result.total, solver, time_limit, s)
    result.solver["timings_seconds"] = {"prepare": round(t1 - t0, 4), "reduce": round(t2 - t1, 4),
                                        "build_solve_read": round(t3 - t2, 4),
                                        "baselines": round(time.perf_counter() - t3, 4)}
    return result
