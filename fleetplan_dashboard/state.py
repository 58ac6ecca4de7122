"""Which scenario the dashboard shows, the edits made to it with the widgets, uploads, and cached plans.

The session holds:
- `base`: the id of the scenario being edited, `file:NAME` (an example scenario, `SCENARIO_DIR`) or
  `upload:NAME:HASH` (an uploaded file, its text kept in `uploads`);
- `edit:*`: one entry per widget of the Plan page (see `default_edits`), so the Compare and Export
  pages, which draw no such widgets, still see the current edits.

Edits become dotted overrides (`workloads.NAME.gpu_hours_per_month`, `onprem.pue` …) applied by
`planner.scenario.apply_overrides`, the function the library and the CLI use, with its checks; only
the values that differ from the file are changed, so an untouched scenario is exactly the file's.
Plans are cached with `st.cache_data` keyed on the scenario's JSON and a stamp of its price source.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
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
# Plans, cached


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


@st.cache_data(show_spinner=False, max_entries=256)
def _cached_plan(scenario_json: str, stamp: str, solver: str, _scenario: Scenario) -> Outcome:
    """Keyed on the scenario's JSON and the price stamp; `_scenario` (not hashed) is that scenario."""
    from planner.engine import plan

    try:
        return Outcome("ok", plan=plan(_scenario, solver=solver))
    except InfeasibleError as exc:
        return Outcome("infeasible", message=str(exc))
    except PlannerError as exc:
        return Outcome("error", message=str(exc))


def plan_for(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> Outcome:
    """The plan of `scenario` with its baselines, from the cache when this scenario was planned before."""
    return _cached_plan(scenario.model_dump_json(), prices_stamp(scenario.prices.source), solver, scenario)


def clear_plan_cache() -> None:
    _cached_plan.clear()
