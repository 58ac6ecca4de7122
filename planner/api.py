"""The library API for notebooks: `load_scenario`, `plan`, `compare`, `sweep` — DataFrames out.

    from planner import load_scenario, plan, compare, sweep
    s = load_scenario("scenarios/startup-hybrid.yaml")
    p = plan(s, onprem__electricity_per_kwh=0.2)            # or overrides={"onprem.electricity_per_kwh": 0.2}
    c = compare(s, plan_b := plan(s, overrides={"workloads.prototyping.gpu_hours_per_month": 3000}))
    table = sweep(s, vary={"onprem.electricity_per_kwh": [0.1, 0.2, 0.3]})

Overrides are dotted paths into the scenario file's structure; workloads are addressed by name
(`workloads.prototyping.gpu_hours_per_month`), dict entries by key (`onprem.existing.rtx-4090`,
`onprem.card_overrides.a100-80gb-pcie.price`). The changed scenario is validated exactly like a file:
its model dump is modified and parsed again by `planner.scenario.parse_scenario`.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
import types
import typing
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import pandas as pd
import yaml
from pydantic import BaseModel

from planner import catalog
from planner.errors import InfeasibleError, PlannerError, ScenarioError
from planner.result import Plan
from planner.scenario import Scenario, load_scenario_file, load_scenario_text, parse_scenario

Progress = Callable[[int, int], None]


# ---------------------------------------------------------------------------------------------------
# Loading


def load_scenario(source: str | Path | dict[str, Any] | Scenario) -> Scenario:
    """A validated Scenario from a file path, a dict, YAML text, or a Scenario (returned as is)."""
    if isinstance(source, Scenario):
        return source
    if isinstance(source, dict):
        return parse_scenario(source, origin="<dict>")
    if isinstance(source, Path) or ("\n" not in str(source) and str(source).endswith((".yaml", ".yml"))):
        return load_scenario_file(source)
    return load_scenario_text(str(source))


# ---------------------------------------------------------------------------------------------------
# Overrides: dotted paths, validated like a file

_ORIGIN = "overrides"


def _unwrap(ann: Any) -> Any:
    """`X | None` → X (the annotation without its None option)."""
    origin = typing.get_origin(ann)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        return args[0] if len(args) == 1 else ann
    return ann


def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _child_schema(ann: Any) -> tuple[str, Any]:
    """What sits under a field: ("model", cls), ("models", cls) for a tuple of models addressed by
    name, ("dict", value annotation) for a free mapping, or ("leaf", None)."""
    ann = _unwrap(ann)
    if _is_model(ann):
        return "model", ann
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin in (tuple, list) and args and _is_model(args[0]):
        return "models", args[0]
    if origin is dict:
        return "dict", args[1] if len(args) == 2 else Any
    return "leaf", None


def _problem(path: str, msg: str) -> ScenarioError:
    return ScenarioError([f"{path}: {msg}"], _ORIGIN)


def _set_path(data: dict, path: str, value: Any) -> None:
    """Set `value` at dotted `path` in a scenario dump, checking each step against the models."""
    parts = path.split(".")
    if not path or any(p == "" for p in parts):
        raise _problem(path, "expected a dotted path such as onprem.electricity_per_kwh")
    node: Any = data
    kind, schema = "model", Scenario
    done: list[str] = []
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        where = ".".join(done) or "(top level)"
        if kind == "leaf":
            raise _problem(path, f"{'.'.join(done)} is a value, not a section; cannot go into '{part}'")
        if kind == "models":                       # workloads, by name (or by 0-based index)
            names = [item.get("name") for item in node]
            if part in names:
                idx = names.index(part)
            elif part.isdigit() and int(part) < len(node):
                idx = int(part)
            else:
                near = catalog.suggest(part, [str(n) for n in names])
                hint = f"; did you mean '{near[0]}'?" if near else f" (known: {', '.join(map(str, names))})"
                raise _problem(path, f"no workload named '{part}' in {where}{hint}")
            if last:
                raise _problem(path, f"name a field of the workload, e.g. {path}.gpu_hours_per_month")
            node, kind, done = node[idx], "model", done + [part]
            continue
        if kind == "model":
            fields = schema.model_fields
            if part not in fields:
                near = catalog.suggest(part, list(fields))
                hint = f"; did you mean '{near[0]}'?" if near else f" (allowed: {', '.join(fields)})"
                raise _problem(path, f"unknown key '{part}' under {where}{hint}")
            child_kind, child_schema = _child_schema(fields[part].annotation)
        else:                                      # a free mapping: any key; the parser checks names
            child_kind, child_schema = _child_schema(schema)
        if last:
            node[part] = value
            return
        child = node.get(part)
        if child is None:
            child = {}
            node[part] = child
        if child_kind == "leaf" or not isinstance(child, (dict, list)):
            raise _problem(path, f"{'.'.join(done + [part])} is a value, not a section; "
                                 f"cannot go into '{parts[k + 1]}'")
        node, kind, schema, done = child, child_kind, child_schema, done + [part]


def _index_to_name(problem: str, data: dict) -> str:
    """`workloads[1].x` in a parser message → `workloads.<name>.x`; drop the meaningless line:col."""
    problem = re.sub(rf"^{_ORIGIN}:\d+:\d+: ", "", problem)
    names = [w.get("name") for w in data.get("workloads") or [] if isinstance(w, dict)]

    def repl(m: re.Match) -> str:
        i = int(m.group(1))
        return f"workloads.{names[i]}" if i < len(names) else m.group(0)
    return re.sub(r"workloads\[(\d+)\]", repl, problem)


def normalise_overrides(overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """One dict of dotted path → value from a dict and keyword arguments (`__` stands for `.`)."""
    out = dict(overrides or {})
    out.update({k.replace("__", "."): v for k, v in kwargs.items()})
    return out


def apply_overrides(scenario: Scenario, overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> Scenario:
    """A new Scenario with the dotted-path overrides applied, validated like a file.

    Raises ScenarioError listing the problems: unknown paths (with "did you mean"), and every value
    the scenario model or the catalog checks reject.
    """
    changes = normalise_overrides(overrides, **kwargs)
    if not changes:
        return scenario
    data = scenario.model_dump(mode="json")
    problems: list[str] = []
    for path, value in changes.items():
        try:
            _set_path(data, str(path), copy.deepcopy(value))
        except ScenarioError as exc:
            problems += exc.problems
    try:
        scenario = parse_scenario(data, origin=_ORIGIN)
    except ScenarioError as exc:   # report bad paths and bad values together
        problems += [_index_to_name(p, data) for p in exc.problems]
    if problems:
        raise ScenarioError(list(dict.fromkeys(problems)), _ORIGIN)
    return scenario


def parse_value(text: str) -> Any:
    """A command-line value as YAML would read it: 0.2 → float, 3 → int, true → bool, [a, b] → list."""
    try:
        return yaml.safe_load(text) if text.strip() else text
    except yaml.YAMLError:
        return text


def split_values(text: str) -> list[str]:
    """Split `V1,V2,…` on commas outside brackets and braces (so `[aws, azure],[aws]` is two values)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


# ---------------------------------------------------------------------------------------------------
# Plan


def plan(scenario: Scenario | str | Path | dict, solver: str = "cbc", baselines: bool = True,
         reduced: bool = True, time_limit: float | None = None,
         overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> Plan:
    """The cheapest fleet for `scenario` with optional dotted-path overrides.

    `plan(s, onprem__electricity_per_kwh=0.2)` and `plan(s, overrides={"onprem.electricity_per_kwh": 0.2})`
    are the same. Raises InfeasibleError (with the reason) or ScenarioError (bad override).
    The returned Plan carries the scenario it was solved for as `plan.scenario` (used by the exports).
    """
    from planner.engine import plan as engine_plan

    s = apply_overrides(load_scenario(scenario), overrides, **kwargs)
    result = engine_plan(s, solver=solver, reduced=reduced, baselines=baselines, time_limit=time_limit)
    result.scenario = s
    return result


# ---------------------------------------------------------------------------------------------------
# Flattened scenarios and compare


def _display(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return yaml.safe_dump(list(value), default_flow_style=True, width=10_000).strip()
    return value


def flatten_scenario(scenario: Scenario) -> pd.DataFrame:
    """Every assumption as a row: `path` (the override path, workloads by name) and `value`
    (lists shown as YAML flow text, e.g. `[aws, azure]`; unset optional fields as None)."""
    rows: list[tuple[str, Any]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif prefix == "workloads" and isinstance(value, list):
            for w in value:
                walk(f"workloads.{w['name']}", {k: v for k, v in w.items() if k != "name"})
        else:
            rows.append((prefix, _display(value)))
    walk("", scenario.model_dump(mode="json"))
    return pd.DataFrame(rows, columns=["path", "value"], dtype=object)


def _same(a: Any, b: Any) -> bool:
    """Equal as scenario values (JSON-mode dumps: numbers, strings, bools, None, list text)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def diff_inputs(a: Scenario, b: Scenario) -> pd.DataFrame:
    """The assumptions that differ: path, a, b (None where one side does not set it)."""
    fa = dict(flatten_scenario(a).itertuples(index=False))
    fb = dict(flatten_scenario(b).itertuples(index=False))
    paths = list(fa) + [p for p in fb if p not in fa]
    rows = [(p, fa.get(p), fb.get(p)) for p in paths if not _same(fa.get(p), fb.get(p))]
    return pd.DataFrame(rows, columns=["path", "a", "b"], dtype=object)   # keep None, ints and text as given


FLEET_KEY = ["provider", "region", "sku", "gpu", "purchase_option"]


@dataclass
class Comparison:
    """Two plans side by side. Money in the plans' currency, present values; delta = b − a."""

    label_a: str
    label_b: str
    currency: str
    inputs: pd.DataFrame      # path, a, b — the assumptions that differ
    fleet: pd.DataFrame       # provider, region, sku, gpu, purchase_option, units_a/b, instance_hours_a/b,
                              # cost_a/b, cost_delta
    costs: pd.DataFrame       # category, cost_a, cost_b, cost_delta (credits negative)
    total_a: float
    total_b: float
    plan_a: Plan = field(repr=False)
    plan_b: Plan = field(repr=False)

    @property
    def total_delta(self) -> float:
        return self.total_b - self.total_a

    @property
    def totals(self) -> dict:
        pct = self.total_delta / self.total_a * 100 if self.total_a else math.nan
        return {"a": self.total_a, "b": self.total_b, "delta": self.total_delta, "delta_pct": pct}

    def to_dict(self) -> dict:
        from planner.export import _clean, records

        return _clean({"a": self.label_a, "b": self.label_b, "currency": self.currency,
                       "inputs": records(self.inputs), "fleet": records(self.fleet),
                       "costs": records(self.costs), "totals": self.totals})


def _as_plan(x: Any, solver: str, baselines: bool) -> Plan:
    if isinstance(x, Plan):
        if getattr(x, "scenario", None) is None:
            raise PlannerError("compare needs plans made by planner.plan() (they carry their scenario), "
                               "or scenarios")
        return x
    return plan(x, solver=solver, baselines=baselines)


def compare(a: Any, b: Any, solver: str = "cbc", baselines: bool = False) -> Comparison:
    """Compare two scenarios (Scenario, path, dict, YAML text) or two Plans from `plan()`.

    Reports the inputs that differ, the fleets side by side and the cost deltas by category (b − a).
    """
    pa, pb = _as_plan(a, solver, baselines), _as_plan(b, solver, baselines)
    if pa.currency != pb.currency:
        raise PlannerError(f"cannot compare plans in {pa.currency} and {pb.currency}; set the same currency")
    cols = FLEET_KEY + ["units", "instance_hours", "cost"]
    fa, fb = pa.fleet[cols], pb.fleet[cols]
    fleet = fa.merge(fb, on=FLEET_KEY, how="outer", suffixes=("_a", "_b"))
    order = list(dict.fromkeys([*map(tuple, fa[FLEET_KEY].to_numpy()), *map(tuple, fb[FLEET_KEY].to_numpy())]))
    fleet = fleet.set_index(FLEET_KEY).loc[order].reset_index()      # a's rows first, then b's new ones
    fleet[["cost_a", "cost_b"]] = fleet[["cost_a", "cost_b"]].fillna(0.0)
    fleet["cost_delta"] = fleet["cost_b"] - fleet["cost_a"]
    fleet = fleet[FLEET_KEY + ["units_a", "units_b", "instance_hours_a", "instance_hours_b",
                               "cost_a", "cost_b", "cost_delta"]].reset_index(drop=True)
    costs = pa.costs.merge(pb.costs, on="category", how="outer", suffixes=("_a", "_b")).fillna(0.0)
    cats = list(dict.fromkeys([*pa.costs["category"], *pb.costs["category"]]))
    costs = costs.set_index("category").loc[cats].reset_index()
    costs["cost_delta"] = costs["cost_b"] - costs["cost_a"]
    label_a, label_b = pa.scenario_name, pb.scenario_name
    if label_a == label_b:
        label_a, label_b = f"{label_a} (a)", f"{label_b} (b)"
    return Comparison(label_a, label_b, pa.currency, diff_inputs(pa.scenario, pb.scenario), fleet, costs,
                      pa.total, pb.total, pa, pb)


# ---------------------------------------------------------------------------------------------------
# Sweep


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
    from planner.engine import plan as engine_plan

    try:
        p = engine_plan(scenario, solver=solver, baselines=baselines)
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
        raise ScenarioError(list(dict.fromkeys(problems)), _ORIGIN)
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
    ctx.set_forkserver_preload(["planner.api", "planner.engine"])
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


__all__ = ["Comparison", "apply_overrides", "compare", "diff_inputs", "flatten_scenario", "fleet_summary",
           "load_scenario", "plan", "sweep"]
