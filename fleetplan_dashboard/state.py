"""Which scenario the dashboard shows, the edits made to it with the widgets, uploads, plans, sharing.

The session holds:
- `base`: the id of the scenario being edited, `file:NAME` (an example scenario, `SCENARIO_DIR`) or
  `upload:NAME:HASH` (an uploaded file, its text kept in `uploads`);
- `edit:*`: one entry per widget of the Plan page (see `default_edits`), so the Compare and Export
  pages, which draw no such widgets, still see the current edits.

Edits become dotted overrides (`workloads.NAME.gpu_hours_per_month`, `onprem.pue` …) applied by
`planner.scenario.apply_overrides`, the function the library and the CLI use, with its checks; only
the values that differ from the file are changed, so an untouched scenario is exactly the file's.
The same overrides are the URL's query (`share_params`), so a link reopens the same plan, and they can
be written into the scenario's own text, comments kept (`edited_text`).

Plans are cached in this process, keyed on the scenario's JSON and a stamp of its price source: the
recommended plan is made here (`recommended`, what the page waits for), its baselines in a worker
process while the page draws (`baselines_future`), and the plans of the values the user will
probably pick next in a second, low-priority worker (`plan_ahead`), so that a slider step usually
finds its plan made. Worker processes, not threads: the engine's Python parts would hold the GIL.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import math
import multiprocessing
import os
import pickle
import re
import threading
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path
from typing import Any, get_args

import streamlit as st
import yaml

from planner.engine import Plan
from planner.engine.solve import DEFAULT_SOLVER
from planner.errors import InfeasibleError, PlannerError, ScenarioError
from planner.scenario import (
    BUILTIN_PROFILES,
    PurchaseOption,
    Scenario,
    YamlRefused,
    apply_overrides,
    load_scenario_text,
    read_yaml_value,
)
from pricing_adapters import registry

# The example scenarios are package data, `fleetplan_dashboard/scenarios/`: in the repository a link to its
# top-level `scenarios/` folder, in an installed package a copy in site-packages (pyproject.toml).
SCENARIO_DIR = Path(str(files("fleetplan_dashboard") / "scenarios"))
DEFAULT_SCENARIO = "startup-hybrid.yaml"
MAX_UPLOAD_BYTES = 256 * 1024
STALE_AFTER_DAYS = 90
EDIT_PREFIX = "edit:"
PROVIDERS: tuple[str, ...] = registry.cloud_providers()
PURCHASE_OPTIONS: tuple[str, ...] = get_args(PurchaseOption)


# ---------------------------------------------------------------------------------------------------
# Scenario sources: files in scenarios/ and uploads


def scenario_files() -> list[str]:
    """Names of the scenario files in `scenarios/`, sorted."""
    return sorted(p.name for p in SCENARIO_DIR.glob("*.y*ml") if p.suffix in (".yaml", ".yml"))


def default_base_id() -> str:
    files = scenario_files()
    name = DEFAULT_SCENARIO if DEFAULT_SCENARIO in files else (files[0] if files else DEFAULT_SCENARIO)
    return f"file:{name}"


def base_label(base_id: str) -> str:
    kind, _, rest = base_id.partition(":")
    if kind == "upload":
        return f"{rest.rsplit(':', 1)[0]} (uploaded)"
    return rest


def upload_id(name: str, text: str) -> str:
    return f"upload:{name}:{hashlib.sha256(text.encode()).hexdigest()[:8]}"


@st.cache_data(show_spinner=False, max_entries=64)
def _load_text(text: str, origin: str, base_dir: str | None) -> tuple[Scenario | None, tuple[str, ...]]:
    try:
        return load_scenario_text(text, origin=origin, base_dir=Path(base_dir) if base_dir else None), ()
    except ScenarioError as exc:
        return None, tuple(exc.problems)


def load_file(name: str) -> tuple[Scenario | None, tuple[str, ...]]:
    """A scenario file of `scenarios/` (validated; cached until the file changes)."""
    path = SCENARIO_DIR / name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, (f"scenarios/{name}: cannot read: {exc}",)
    return _load_text(text, f"scenarios/{name}", str(SCENARIO_DIR))


def _line_of(text: str, key: str, value: str) -> int:
    """1-based line of `key: value` in YAML text (the first match), else 1."""
    pattern = re.compile(rf"\b{re.escape(key)}\s*:\s*['\"]?{re.escape(value)}")
    for i, line in enumerate(text.splitlines(), 1):
        if pattern.search(line):
            return i
    return 1


def read_upload(name: str, data: bytes) -> tuple[Scenario | None, list[str], str]:
    """Validate an uploaded scenario file: (scenario or None, problems, text).

    Read as text with YAML's safe loader only (nothing in it is executed), at most `MAX_UPLOAD_BYTES`.
    Problems are `name:line:col: field.path: message` lines, all of them at once. An upload cannot
    carry the files a scenario may point to, so a profile or price source naming a file is refused
    before validation, which would look the file up on this server and say whether it exists.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        return None, [f"{name}: file is {len(data) / 1024:,.0f} KB; the limit is {MAX_UPLOAD_BYTES // 1024} KB"], ""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, [f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})"], ""
    if not text.strip():
        return None, [f"{name}:1:1: the file is empty"], text
    refused = refuse_files(name, text)
    if refused:
        return None, refused, text
    scenario, problems = _load_text(text, name, None)
    return scenario, list(problems), text


def refuse_files(name: str, text: str) -> list[str]:
    """Why the raw YAML `text` may not be validated on this server: its syntax error (the validator
    would blank the line and go on, checking the rest), or each profile and `prices.source` that names
    a file rather than a built-in. The messages never depend on the file system."""
    try:
        data = read_yaml_value(text)      # the scenario loader's limits: no alias bomb, no deep nesting
    except YamlRefused as exc:
        where = f"{exc.mark.line + 1}:{exc.mark.column + 1}" if exc.mark else "1:1"
        return [f"{name}:{where}: {exc.what}"]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{mark.line + 1}:{mark.column + 1}" if mark else "1:1"
        return [f"{name}:{where}: YAML syntax: {getattr(exc, 'problem', None) or exc}"]
    if not isinstance(data, dict):
        return []
    refused = []
    workloads = data.get("workloads")
    for i, w in enumerate(workloads if isinstance(workloads, list) else ()):
        profile = w.get("profile") if isinstance(w, dict) else None
        if isinstance(profile, str) and profile not in BUILTIN_PROFILES:
            refused.append(f"{name}:{_line_of(text, 'profile', profile)}:1: workloads[{i}].profile: an uploaded "
                           f"scenario can use only the built-in profiles ({', '.join(BUILTIN_PROFILES)}), "
                           f"not a file ({profile!r})")
    source = data["prices"].get("source") if isinstance(data.get("prices"), dict) else None
    if isinstance(source, str) and source not in ("snapshot", "store"):
        refused.append(f"{name}:{_line_of(text, 'source', source)}:1: prices.source: an uploaded scenario can "
                       f"use snapshot or store, not a file ({source!r})")
    return refused


def load_base(base_id: str, uploads: dict[str, str] | None = None) -> tuple[Scenario | None, tuple[str, ...]]:
    """The scenario behind a base id (a file or an upload kept in the session)."""
    kind, _, rest = base_id.partition(":")
    if kind == "file":
        return load_file(rest)
    text = (uploads or {}).get(base_id)
    if text is None:
        return None, (f"{base_label(base_id)}: the upload is no longer in this session; upload it again",)
    return _load_text(text, rest.rsplit(":", 1)[0], None)


# ---------------------------------------------------------------------------------------------------
# Edits made with the Plan page's widgets


def default_edits(s: Scenario) -> dict[str, Any]:
    """The widget values that reproduce `s` exactly. Growth in % per month; money in s.currency."""
    values: dict[str, Any] = {
        "horizon_months": int(s.horizon_months),
        "electricity_per_kwh": float(s.onprem.electricity_per_kwh),
        "pue": float(s.onprem.pue),
        "capex_budget": None if s.onprem.capex_budget is None else float(s.onprem.capex_budget),
        "power_cap_kw": None if s.onprem.power_cap_kw is None else float(s.onprem.power_cap_kw),
        "providers": list(s.prices.providers),
        "purchase_options": list(s.prices.purchase_options),
    }
    for w in s.workloads:
        values[f"demand:{w.name}"] = float(w.gpu_hours_per_month)
        values[f"growth:{w.name}"] = float(w.growth_per_month) * 100
    return values


def _ordered(values, universe: tuple[str, ...]) -> list[str]:
    chosen = set(values)
    return [v for v in universe if v in chosen]


# widget -> (dotted override path, widget value -> scenario value)
_SCALAR_EDITS = {
    "horizon_months": ("horizon_months", int),
    "electricity_per_kwh": ("onprem.electricity_per_kwh", float),
    "pue": ("onprem.pue", float),
    "capex_budget": ("onprem.capex_budget", lambda v: v),
    "power_cap_kw": ("onprem.power_cap_kw", lambda v: v),
    "providers": ("prices.providers", lambda v: _ordered(v, PROVIDERS)),
    "purchase_options": ("prices.purchase_options", lambda v: _ordered(v, PURCHASE_OPTIONS)),
}


def edits_to_overrides(s: Scenario, values: dict[str, Any]) -> dict[str, Any]:
    """The dotted overrides of the widget values that differ from `s` (growth: % per month → share)."""
    defaults = default_edits(s)
    overrides: dict[str, Any] = {}
    for key, value in values.items():
        if key not in defaults or value == defaults[key]:
            continue
        kind, _, name = key.partition(":")
        if kind == "demand":
            overrides[f"workloads.{name}.gpu_hours_per_month"] = float(value)
        elif kind == "growth":
            overrides[f"workloads.{name}.growth_per_month"] = float(value) / 100
        else:
            path, convert = _SCALAR_EDITS[key]
            overrides[path] = convert(value)
    return overrides


def apply_edits(s: Scenario, values: dict[str, Any]) -> Scenario:
    """`s` with the widget values that differ from the file's applied (through `apply_overrides`);
    raises ScenarioError when the result is not a valid scenario."""
    overrides = edits_to_overrides(s, values)
    return apply_overrides(s, overrides) if overrides else s


def edit_key(name: str) -> str:
    return EDIT_PREFIX + name


def ensure_edit_state(s: Scenario) -> None:
    """Give every edit widget of `s` its file value unless the session already holds one."""
    for name, value in default_edits(s).items():
        st.session_state.setdefault(edit_key(name), value)


def clear_edits() -> None:
    for key in [k for k in st.session_state if str(k).startswith(EDIT_PREFIX)]:
        del st.session_state[key]


def current_values(s: Scenario) -> dict[str, Any]:
    return {name: st.session_state.get(edit_key(name), default) for name, default in default_edits(s).items()}


@dataclass
class Current:
    """The scenario on screen: the base (file or upload) and the base with the widget edits."""

    base_id: str
    base: Scenario | None
    edited: Scenario | None
    problems: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return base_label(self.base_id)


def current() -> Current:
    """The current base and edited scenario, from the session (usable on every page)."""
    base_id = st.session_state.get("base") or default_base_id()
    base, problems = load_base(base_id, st.session_state.get("uploads"))
    if base is None:
        return Current(base_id, None, None, list(problems))
    try:
        edited = apply_edits(base, current_values(base))
    except ScenarioError as exc:
        return Current(base_id, base, None, list(exc.problems))
    return Current(base_id, base, edited)


# ---------------------------------------------------------------------------------------------------
# The Plan page's sliders: their ranges and steps, and the values one step away (planned ahead)


@dataclass(frozen=True)
class SliderSpec:
    name: str            # the edit's name (`demand:WORKLOAD`, `horizon_months` …)
    low: float
    high: float
    step: float


def _nice(x: float) -> float:
    """The smallest 1-2-5 × 10^k at or above x."""
    if x <= 0:
        return 1.0
    base = 10 ** math.floor(math.log10(x))
    return float(next(m * base for m in (1, 2, 5, 10) if m * base >= x - 1e-12))


def slider_specs(s: Scenario) -> list[SliderSpec]:
    """The Plan page's sliders for scenario `s` (the file's values set the ranges)."""
    specs = []
    for w in s.workloads:
        high = _nice(max(4 * w.gpu_hours_per_month, 100.0))
        specs.append(SliderSpec(f"demand:{w.name}", 0.0, high, _nice(high / 400)))
        g = w.growth_per_month * 100
        specs.append(SliderSpec(f"growth:{w.name}", min(-5.0, math.floor(g)), max(10.0, math.ceil(g)), 0.5))
    specs.append(SliderSpec("horizon_months", 1, 120, 1))
    specs.append(SliderSpec("electricity_per_kwh", 0.0, max(1.0, s.onprem.electricity_per_kwh), 0.01))
    specs.append(SliderSpec("pue", 1.0, 3.0, 0.05))
    return specs


def moved(before: dict[str, Any] | None, after: dict[str, Any]) -> tuple[str, int] | None:
    """(edit name, +1 or −1) of the one slider value that changed between two runs, else None."""
    if not before:
        return None
    changed = [k for k, v in after.items() if k in before and before[k] != v]
    if len(changed) != 1 or not isinstance(after[changed[0]], (int, float)) or before[changed[0]] is None:
        return None
    name = changed[0]
    return name, (1 if after[name] > before[name] else -1)


def next_values(s: Scenario, values: dict[str, Any], last: tuple[str, int] | None, ahead: int = 3) -> list[dict]:
    """Widget values the user will probably ask for next: the slider just moved, `ahead` steps further the
    same way, then one step either way of every slider. Plans of these are made in the background."""
    specs = {spec.name: spec for spec in slider_specs(s)}

    def step(name: str, k: int) -> dict | None:
        spec, v = specs[name], values.get(name)
        if v is None:
            return None
        x = round(v + k * spec.step, 10)
        if not spec.low - 1e-9 <= x <= spec.high + 1e-9:
            return None
        return {**values, name: int(x) if isinstance(v, int) else float(x)}

    wanted = []
    if last and last[0] in specs:
        wanted += [step(last[0], k * last[1]) for k in range(1, ahead + 1)]
    for name in specs:
        wanted += [step(name, 1), step(name, -1)]
    return [v for v in wanted if v is not None]


# ---------------------------------------------------------------------------------------------------
# Plans: the recommended plan at once (in this process), then its baselines and the plans of likely next
# values in worker processes, all cached per scenario JSON and price stamp


@dataclass
class Outcome:
    """A plan, or why there is none: kind is `ok`, `infeasible` (the optimiser's explanation) or `error`."""

    kind: str
    plan: Plan | None = None
    message: str = ""


def prices_stamp(source: str) -> str:
    """Changes when the price data behind `source` changes (the packaged snapshot, the store, a CSV)."""
    if source == "snapshot":
        folder = files("pricing_adapters") / "snapshots"
        paths = [Path(str(folder / n)) for n in ("manifest.json", "aws.csv", "azure.csv")]
    elif source == "store":
        from planner.catalog import resolve_store

        paths = [resolve_store()]
    else:
        paths = [Path(source)]
    parts = [source]
    for p in paths:
        try:
            stat = p.stat()
            parts.append(f"{p}:{stat.st_mtime_ns}:{stat.st_size}")
        except OSError:
            parts.append(f"{p}:missing")
    return "|".join(parts)


def recommended_job(scenario: Scenario, solver: str) -> Outcome:
    """The recommended plan of `scenario` without baselines (the engine's `plan(…, baselines=False)`)."""
    from planner.engine import plan

    try:
        return Outcome("ok", plan=plan(scenario, solver=solver, baselines=False))
    except InfeasibleError as exc:
        return Outcome("infeasible", message=str(exc))
    except PlannerError as exc:
        return Outcome("error", message=str(exc))


def baselines_job(scenario: Scenario, total: float, solver: str) -> tuple:
    """(baselines table, baseline plans) of `scenario`, solved as `plan()` solves them."""
    from planner.engine.baselines import solve_baselines
    from planner.engine.run import inputs_for

    return solve_baselines(inputs_for(scenario), total, solver, None, scenario)


def _worker_start(niceness: int) -> None:
    """A worker process: lower its priority (speculative work yields to the page) and warm the engine."""
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    from planner import catalog

    with contextlib.suppress(Exception):
        catalog.price_table("snapshot")


# Worker processes, not threads: the engine's Python parts would hold the GIL that the page needs.
# FLEETPLAN_DASHBOARD_WORKERS=0 plans everything in the server's process (no baselines ahead of time,
# nothing planned ahead).
WORKERS = os.environ.get("FLEETPLAN_DASHBOARD_WORKERS", "1") != "0"
_MAX_PLANS = 512
_lock = threading.RLock()
_plans: OrderedDict[tuple, Future] = OrderedDict()  # (kind, scenario JSON, price stamp, solver) -> Future
_pools: dict[str, ProcessPoolExecutor] = {}
_ahead: list[tuple[tuple, Scenario, str]] = []      # plans to make in the background, in order
_ahead_running: list[Future] = []


def _key(kind: str, scenario: Scenario, solver: str) -> tuple:
    return kind, scenario.model_dump_json(), prices_stamp(scenario.prices.source), solver


def _remember(key: tuple, future: Future) -> None:
    with _lock:
        _plans[key] = future
        _plans.move_to_end(key)
        while len(_plans) > _MAX_PLANS:
            _plans.popitem(last=False)


def _pool(kind: str) -> ProcessPoolExecutor:
    """`now` (normal priority: the baselines of the plan on screen) or `ahead` (niceness 10: guesses)."""
    with _lock:
        if kind not in _pools:
            _pools[kind] = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                               initializer=_worker_start, initargs=(10 if kind == "ahead" else 0,))
        return _pools[kind]


def recommended(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> Outcome:
    """The recommended plan of `scenario` (no baselines): planned ahead, cached, or planned now."""
    key = _key("plan", scenario, solver)
    with _lock:
        future = _plans.get(key)
        if future is not None and future.done() and future.exception() is None:
            _plans.move_to_end(key)
            return future.result()
        # not planned, or still being planned ahead at a low priority: planning it here is faster
        future = Future()
        future.set_running_or_notify_cancel()
        _remember(key, future)
    try:
        outcome = recommended_job(scenario, solver)
    except BaseException as exc:
        future.set_exception(exc)
        raise
    future.set_result(outcome)
    return outcome


def baselines_future(scenario: Scenario, outcome: Outcome, solver: str = DEFAULT_SOLVER) -> Future:
    """The baselines of `scenario` (whose recommended plan is `outcome`), solving in a worker process."""
    key = _key("baselines", scenario, solver)
    with _lock:
        future = _plans.get(key)
        if future is not None and not (future.done() and future.exception() is not None):
            return future
        if WORKERS:
            future = _pool("now").submit(baselines_job, scenario, outcome.plan.total, solver)
        else:
            future = Future()
            future.set_result(baselines_job(scenario, outcome.plan.total, solver))
        _remember(key, future)
        return future


def with_baselines(outcome: Outcome, baselines: tuple) -> Outcome:
    """`outcome`'s plan with its baselines table and plans (a copy: the cached plan stays as it is)."""
    table, plans = baselines
    return Outcome("ok", plan=replace(outcome.plan, baselines=table, baseline_plans=plans))


def baselines_of(scenario: Scenario, outcome: Outcome, solver: str = DEFAULT_SOLVER) -> tuple:
    """The baselines, waiting for the worker; planned here when the worker process failed."""
    try:
        return baselines_future(scenario, outcome, solver).result()
    except (BrokenProcessPool, OSError, pickle.PicklingError):
        return baselines_job(scenario, outcome.plan.total, solver)


def plan_for(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> Outcome:
    """The plan of `scenario` with its baselines (as `planner.engine.plan` makes it), from the cache when
    this scenario was planned before."""
    outcome = recommended(scenario, solver)
    if outcome.kind != "ok":
        return outcome
    return with_baselines(outcome, baselines_of(scenario, outcome, solver))


def plan_ahead(scenarios: list[Scenario], solver: str = DEFAULT_SOLVER) -> None:
    """Plan these scenarios in the background (low priority), one at a time, in order; replaces the
    previous list (the user has moved on), keeping a plan already under way."""
    if not WORKERS:
        return
    with _lock:
        _ahead[:] = []
        seen = set()
        for s in scenarios:
            key = _key("plan", s, solver)
            if key not in _plans and key not in seen:
                seen.add(key)
                _ahead.append((key, s, solver))
        _next_ahead()


def _next_ahead(done: Future | None = None) -> None:
    with _lock:
        if done is not None and done in _ahead_running:
            _ahead_running.remove(done)
        while not _ahead_running and _ahead:
            key, s, solver = _ahead.pop(0)
            if key in _plans:
                continue
            try:
                future = _pool("ahead").submit(recommended_job, s, solver)
            except RuntimeError:   # the pool is shutting down (the server stops)
                _ahead.clear()
                return
            _remember(key, future)
            _ahead_running.append(future)
            future.add_done_callback(_next_ahead)


def clear_plan_cache() -> None:
    with _lock:
        _plans.clear()
        _ahead.clear()


# ---------------------------------------------------------------------------------------------------
# Sharing: the URL carries the scenario file and the edits, as the dotted overrides of the library
# (`?scenario=entry.yaml&workloads.coursework-and-kaggle.gpu_hours_per_month=240&onprem.pue=1.3`)

SCENARIO_PARAM = "scenario"
_LIST_EDITS = ("providers", "purchase_options")
_OPTIONAL_EDITS = ("capex_budget", "power_cap_kw")   # empty: no cap


def edit_paths(s: Scenario) -> dict[str, str]:
    """Edit name -> the dotted override path it sets."""
    paths = {name: path for name, (path, _) in _SCALAR_EDITS.items()}
    for w in s.workloads:
        paths[f"demand:{w.name}"] = f"workloads.{w.name}.gpu_hours_per_month"
        paths[f"growth:{w.name}"] = f"workloads.{w.name}.growth_per_month"
    return paths


def _param_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def share_params(base_id: str, s: Scenario, values: dict[str, Any]) -> dict[str, str]:
    """The URL query of the scenario on screen: its file and the overrides of the edits (none for an
    upload, whose text only this session holds)."""
    kind, _, name = base_id.partition(":")
    if kind != "file":
        return {}
    params = {SCENARIO_PARAM: name}
    params.update({path: _param_text(v) for path, v in edits_to_overrides(s, values).items()})
    return params


def _did_you_mean(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def base_from_params(params: dict[str, str]) -> tuple[str | None, list[str]]:
    """(base id of the URL's `scenario`, problems); (None, []) when the URL names none."""
    name = params.get(SCENARIO_PARAM)
    if not name:
        return None, []
    names = scenario_files()
    if name not in names:
        return None, [f"URL {SCENARIO_PARAM}={name!r}: no such scenario file (one of {', '.join(names)})"
                      + _did_you_mean(name, names)]
    return f"file:{name}", []


def values_from_params(s: Scenario, params: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """The widget values a shared URL sets on scenario `s` (the others keep the file's), and problems
    with the URL's parameters (each one ignored)."""
    values, problems = default_edits(s), []
    by_path = {path: name for name, path in edit_paths(s).items()}
    for path, text in params.items():
        if path == SCENARIO_PARAM:
            continue
        name = by_path.get(path)
        if name is None:
            problems.append(f"URL {path}: not an edit of this page{_did_you_mean(path, by_path)}")
            continue
        try:
            values[name] = _param_value(name, text)
        except ValueError as exc:
            problems.append(f"URL {path}={text!r}: {exc}")
    return values, problems


def _param_value(name: str, text: str) -> Any:
    if name in _LIST_EDITS:
        universe = PROVIDERS if name == "providers" else PURCHASE_OPTIONS
        items = [t.strip() for t in text.split(",") if t.strip()]
        unknown = [t for t in items if t not in universe]
        if unknown:
            raise ValueError(f"{', '.join(unknown)} not among {', '.join(universe)}")
        return _ordered(items, universe)
    if name in _OPTIONAL_EDITS and text.strip().lower() in ("", "none", "null"):
        return None
    try:
        number = float(text)
    except ValueError:
        raise ValueError("expected a number") from None
    if not math.isfinite(number):
        raise ValueError("expected a finite number")
    if name == "horizon_months":
        if number != int(number):
            raise ValueError("expected a whole number of months")
        return int(number)
    return number * 100 if name.startswith("growth:") else number


# ---------------------------------------------------------------------------------------------------
# The scenario's own text with the edits written in: comments and layout kept


def _yaml_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    return yaml.safe_dump(value, default_flow_style=True).splitlines()[0]


def _key_node(mapping: yaml.MappingNode, key: str):
    for k, v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k, v
    return None, None


def _set_in_text(text: str, root: yaml.MappingNode, path: list[str], value: str) -> str | None:
    """`text` with the value at `path` replaced (or a `key: value` line added to its block mapping);
    None when the layout is one this does not edit (a flow mapping, a missing parent)."""
    node = root
    for part in path[:-1]:
        if isinstance(node, yaml.SequenceNode):   # workloads: the item whose name is `part`
            node = next((item for item in node.value if isinstance(item, yaml.MappingNode)
                         and getattr(_key_node(item, "name")[1], "value", None) == part), None)
        else:
            node = _key_node(node, part)[1] if isinstance(node, yaml.MappingNode) else None
        if node is None:
            return None
    if not isinstance(node, yaml.MappingNode):
        return None
    key, old = _key_node(node, path[-1])
    if old is not None:
        if not isinstance(old, (yaml.ScalarNode, yaml.SequenceNode)):
            return None
        return text[:old.start_mark.index] + value + text[old.end_mark.index:]
    if node.flow_style or not node.value:
        return None
    first = node.value[0][0]   # a new line, indented like the mapping's first key
    line_start = text.rfind("\n", 0, first.start_mark.index) + 1
    line = f"{' ' * first.start_mark.column}{path[-1]}: {value}\n"
    if text[line_start:first.start_mark.index].strip():   # "  - name: a": the new key goes below
        line_end = text.find("\n", first.start_mark.index)
        if line_end < 0:
            return None
        return text[:line_end + 1] + line + text[line_end + 1:]
    return text[:line_start] + line + text[line_start:]


def edited_text(text: str, base: Scenario, values: dict[str, Any]) -> tuple[str, bool]:
    """(the scenario file `text` with the widget `values` written in, comments kept?).

    Each edited value replaces the file's value in place (a missing key gets a line of its own). The
    result is loaded back and compared with the edited scenario; where that differs (a layout this does
    not edit), the edited scenario is written out whole instead, without the comments (False)."""
    edited = apply_edits(base, values)
    overrides = edits_to_overrides(base, values)
    out = text
    for path, value in overrides.items():
        parts = path.split(".")
        root = yaml.compose(out, Loader=yaml.SafeLoader)
        changed = _set_in_text(out, root, parts, _yaml_value(value)) if isinstance(root, yaml.MappingNode) else None
        if changed is None:
            out = None
            break
        out = changed
    if out is not None:
        try:
            if load_scenario_text(out, origin="edited", base_dir=None) == edited:
                return out, True
        except (ScenarioError, yaml.YAMLError):
            pass
    body = yaml.safe_dump(edited.model_dump(mode="json", exclude_none=True), sort_keys=False, allow_unicode=True,
                          width=100)
    return body, False
