"""Sweeps: plan every point of a cross product of dotted-path values, locally or on a Dask cluster.

Local worker processes are fed pickled scenarios on a pipe and never import the caller's `__main__`: a
plain script needs no `if __name__ == "__main__":` guard, and the same code runs in a notebook, a threaded
host (Streamlit, a Dask client) or inside a Dask worker (a daemonic process, which multiprocessing may not
give children). Where it is safe and pays (`fork_safe`: a single-threaded process that has not run HiGHS
and has no pyarrow loaded, such as `fleetplan sweep`) they are forked from this process, with what it has
imported; elsewhere they are fresh interpreters that import only the planner (`python -c …`).
"""

from __future__ import annotations

import functools
import gc
import itertools
import json
import math
import numbers
import os
import pickle
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sized
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from planner.engine.baselines import usable_cores
from planner.engine.result import present_value_words
from planner.engine.run import check_keywords, check_limits, check_switches, checked_scenario, plan_summary, unused_store
from planner.engine.solve import DEFAULT_SOLVER, SOLVERS, _SilentHighs, highs_started
from planner.errors import InfeasibleError, PlannerError, PriceSourceError, ScenarioError
from planner.process import configure_process, default_stop_signals, kill_process_group
from planner.scenario import Scenario, apply_overrides
from planner.scenario.loading import check_not_a_plan, mark_validated, profiles_parsed_once
from planner.scenario.model import CURRENCY_PATTERN
from planner.scenario.overrides import ORIGIN, overlapping_paths, path_keys, path_problems
from planner.scenario.yaml_core import dump_yaml
from planner.scratch import ScratchFolder
from planner.text import series, shortened
from pricing_adapters.schema import offer_id

Progress = Callable[[int, int], None]

# The most points one sweep plans. Set up front, the 40,000 points of three --vary lists (100 × 100 × 4)
# took 60 s and 361 MB before the first solve (each point's scenario validated and held: 1.45 ms and
# 6 KB a point); points are now built as they are solved, but the solving is what a size costs: on 2 cores
# (2026-12-02) `fleetplan sweep` planned 68 points/s of entry.yaml, 15 of startup-hybrid.yaml and 8 of
# industrial.yaml, so 10,000 points are 2.5, 11 and 21 minutes there. More is a batch job: split it.
MAX_POINTS = 10_000
# Local worker processes per usable core: a worker solves on one thread, so more workers than cores only
# share the cores (and each holds its own copy of the planner: about 100 MB resident a fresh interpreter).
PROCESSES_PER_CORE = 4
_PRICES = "_prices"   # the key of a row's price provenance, taken out before the table is built
_WARNINGS = "_warnings"   # the key of a row's plan warnings, likewise
_BASIS = "_basis"   # the key of the currency and discount rate of a row's scenario, likewise
# attrs["money_basis"] of a sweep whose points' rates differ (each row's then in its money_basis column): the words of
# `fleetplan sweep`'s title
EACH_POINTS_BASIS = "present value at each point's discount_rate"
EACH_POINTS_CURRENCY = "each point's currency"   # attrs["currency"] of one whose points' currencies differ


def max_processes() -> int:
    """The most local worker processes a sweep starts: PROCESSES_PER_CORE per usable core."""
    return PROCESSES_PER_CORE * usable_cores()


def check_size(counts: list[int], max_points: int = MAX_POINTS) -> None:
    """PlannerError, before any point is built, when the cross product of lists of these lengths has
    more than `max_points` points."""
    n = math.prod(counts)
    if n > max_points:
        sizes = " × ".join(f"{c:,}" for c in counts)
        raise PlannerError(f"sweep: {n:,} points ({sizes}); at most {max_points:,} per sweep — split it "
                           "(fewer values per --vary, or several sweeps)")


def check_processes(processes: int) -> None:
    """PlannerError for more local worker processes than `max_processes()`, or fewer than 1."""
    if isinstance(processes, bool) or not isinstance(processes, numbers.Integral) or processes < 1:
        raise PlannerError(f"sweep: processes: expected a whole number from 1 (1 = in this process), got {processes!r}")
    most = max_processes()
    if processes > most:
        raise PlannerError(f"sweep: {processes:,} worker processes; at most {most} on this machine "
                           f"({PROCESSES_PER_CORE} per core × {usable_cores()} usable cores): each worker solves on "
                           "one core, so more only share them; a Dask cluster goes wider")


def _check_arguments(vary: Any, max_points: Any, progress: Any, baselines: Any, scheduler_timeout: Any,
                     solver: Any) -> None:
    """PlannerError for a sweep argument of the wrong kind, before anything is read or solved: the library's
    callers got an AttributeError (vary=None), islice's ValueError (max_points=nan), "1 points; at most -1",
    a KeyError from inside dask (scheduler_timeout=nan), "'int' object is not callable" (progress=1) after
    the first point, or one error row per point (solver="gurobi", which each point's plan refused)."""
    if not isinstance(vary, Mapping) and not callable(getattr(vary, "items", None)):   # a pandas Series has items()
        raise PlannerError("sweep: vary: expected a mapping of dotted paths to lists of values, e.g. "
                           f"{{'onprem.electricity_per_kwh': [0.1, 0.2]}}, got {shortened(repr(vary))}")
    if isinstance(vary, Sized) and len(vary) == 0:
        raise PlannerError(f"sweep: {NOTHING_TO_VARY}")
    if isinstance(max_points, bool) or not isinstance(max_points, numbers.Integral) or max_points < 1:
        raise PlannerError(f"sweep: max_points: expected a whole number from 1, got {shortened(repr(max_points))}")
    if progress is not None and not callable(progress):
        raise PlannerError(f"sweep: progress: expected a function progress(done, total) or None, got "
                           f"{shortened(repr(progress))}")
    check_switches("sweep", baselines=baselines)
    if not isinstance(solver, str) or solver not in SOLVERS:
        raise PlannerError(f"sweep: solver: expected one of {', '.join(SOLVERS)}, got {shortened(repr(solver))}")
    if scheduler_timeout is not None and (isinstance(scheduler_timeout, bool)
                                          or not isinstance(scheduler_timeout, numbers.Real)
                                          or not math.isfinite(scheduler_timeout) or scheduler_timeout <= 0):
        raise PlannerError(f"sweep: scheduler_timeout: expected seconds above 0 (or None: distributed's own), got "
                           f"{shortened(repr(scheduler_timeout))}")


def fleet_summary(fleet: pd.DataFrame) -> str:
    """One line: owned and reserved units (with the owned cards sold or switched off, if any), then cloud hours,
    e.g. `1 a100-80gb-pcie, 0 rtx-3060-12gb (2 sold); aws:us-east-1:g5.xlarge:on_demand 96 h`. A cloud offer is named
    by its unit_id, as the plan's fleet table and the offers table name it (provider:region:sku:option): a sweep over
    providers or regions is asked which region, and two regions' rows of one sku must not read alike. Cards switched
    off are said: they are held and cost their maintenance, though the units in service leave them out. Hours are
    whole, with thousands separators, in every output: the line is text to read, as the notes are."""
    units, hours = [], []
    sold_units, off_units = ((fleet[c].tolist() if c in fleet else [0.0] * len(fleet))
                             for c in ("sold_units", "switched_off_units"))
    # a fleet without unit_id (a plan.json trimmed to the fleet's key columns, which load_plan_json takes): its ids
    ids = (fleet["unit_id"].tolist() if "unit_id" in fleet else
           [offer_id(*map(str, key)) for key in zip(*(fleet[c].tolist() for c in ("provider", "region", "sku",
                                                                                 "purchase_option")))])
    for provider, sku, unit_id, n, instance_hours, sold, off in zip(*(fleet[c].tolist() for c in (
            "provider", "sku")), ids, *(fleet[c].tolist() for c in ("units", "instance_hours")), sold_units, off_units):
        if provider == "onprem":
            left = [f"{k:g} {what}" for k, what in ((sold, "sold"), (off, "switched off")) if k > 0]
            units.append(f"{n:g} {sku}" + (f" ({', '.join(left)})" if left else ""))
        elif n == n:   # not NaN: a reservation
            units.append(f"{n:g} {unit_id}")
        else:
            hours.append(f"{unit_id} {instance_hours:,.0f} h")
    return "; ".join(x for x in (", ".join(units), ", ".join(hours)) if x) or "(none)"


def _check_store(store: str | Path | None) -> None:
    """PriceSourceError where store= or $FLEETPLAN_STORE names a folder or a file in a folder that does not exist
    (catalog.prices.store_mistake), as plan() raises it for `prices.source: store`."""
    from planner.catalog.prices import store_mistake

    mistake = store_mistake(store)
    if mistake:
        raise PriceSourceError(mistake)


def _sweep_point(scenario: Scenario, solver: str, baselines: bool, store: str | None = None,
                 max_dispatch_variables: int | None = None, max_purchase_variables: int | None = None) -> dict:
    """One sweep row (runs in a worker process): infeasible and failed points become rows. The row carries
    under `_PRICES` where its prices came from (source, store, snapshots, warning), as `plan()` reports it,
    under `_WARNINGS` the plan's warnings, and under `_BASIS` its scenario's currency and discount_rate."""
    prices, warnings = None, []
    try:
        # the row reads the all-cloud savings alone: no baseline's bound on a grouped profile's cost error is solved
        p = plan_summary(scenario, solver=solver, baselines=baselines, store=store, baseline_bounds=False,
                         max_dispatch_variables=max_dispatch_variables, max_purchase_variables=max_purchase_variables)
        prices, warnings = _provenance(p.prices), p.warnings
        # a store= the points' prices.source does not read, said once for the sweep as where its prices came from
        # (a point's plan leaves it out of its warnings: PlanSummary.warnings); no fallback warning is then said
        prices["warning"] = prices["warning"] or unused_store(scenario.prices.source, store)
    except InfeasibleError as exc:
        row = {"total": math.nan, "savings_vs_all_cloud": math.nan, "fleet": "", "status": "infeasible",
               "note": str(exc).split(": ", 1)[-1]}
    except PlannerError as exc:
        row = {"total": math.nan, "savings_vs_all_cloud": math.nan, "fleet": "", "status": "error",
               "note": str(exc)}
    else:
        savings, note = math.nan, ""
        if p.baselines is not None and len(p.baselines):
            bl = p.baselines[p.baselines["baseline"] == "all_cloud"]
            if len(bl):
                savings = float(bl["savings"].iloc[0])
                if math.isnan(savings):   # all cloud has no total (infeasible, not solved): why the column is blank
                    why = str(bl["note"].iloc[0])
                    note = f"all cloud {bl['status'].iloc[0]}" + (f": {why}" if why else "")
        row = {"total": p.total, "savings_vs_all_cloud": savings, "fleet": fleet_summary(p.fleet),
               "status": p.status, "note": note}
    if prices is not None:
        row[_PRICES] = prices
    row[_WARNINGS] = list(warnings)
    row[_BASIS] = {"currency": scenario.currency, "discount_rate": scenario.discount_rate}
    return row


def _provenance(prices: Mapping[str, Any]) -> dict:
    """What a sweep reports of a price source's provenance (catalog.price_table): as `plan()` does."""
    return {"source": prices.get("source"), "store": prices.get("store"), "warning": prices.get("warning"),
            "snapshots": [dict(s) for s in prices.get("snapshots", [])]}


def _provenance_key(prices: Mapping[str, Any]) -> tuple:
    return (prices.get("source"), prices.get("store"), prices.get("warning"),
            tuple((s.get("provider"), s.get("id"), s.get("fetched_at")) for s in prices.get("snapshots", [])))


def _sources_by_point(point_prices: list[dict | None]) -> list[dict]:
    """Each distinct price provenance of a sweep's points, in the sweep's order (of the first point that used it;
    points finish in any order), with `points`: the rows (positions in the table) whose plans used it."""
    sources: dict[tuple, dict] = {}
    for i, prices in enumerate(point_prices):
        if prices is not None:
            sources.setdefault(_provenance_key(prices), {**prices, "points": []})["points"].append(i)
    return list(sources.values())


def _error_row(note: str) -> dict:
    """The row of a point whose values the scenario rejects (nothing is solved for it)."""
    return {"total": math.nan, "savings_vs_all_cloud": math.nan, "fleet": "", "status": "error", "note": note}


def sweep_points(scenario: Scenario, vary: Mapping[str, Iterable[Any]],
                 max_points: int = MAX_POINTS) -> tuple[list[dict], list[Scenario | str]]:
    """The cross product of `vary` (in its order, last path fastest) and, for each point, its validated
    scenario or — when the scenario rejects that point's values, all applied together — the problems as
    one line of text.

    Raises ScenarioError up front, before anything is solved, when a path is bad (unknown, given no
    values, the same field as another path, or a key that is no currency code under `fx`): that is a
    mistake in the whole sweep. Its message also lists the bad values found.
    PlannerError, before anything is built, for more than `max_points` points."""
    points = _grid(scenario, vary, max_points)
    return points, [_point_scenario(scenario, point) for point in points]


def _grid(scenario: Scenario, vary: Mapping[str, Iterable[Any]], max_points: int = MAX_POINTS) -> list[dict]:
    """The points of the cross product of `vary`; their scenarios are not built (`_point_scenario`, which
    validates each point as a whole: a value may be valid only with the point's other values, such as
    max_units 8 with min_units 5). Errors as sweep_points."""
    vary = _listed_all(vary, max_points)
    _check_paths(scenario, vary)
    return cross_product(vary)


def _check_paths(scenario: Scenario, vary: dict[str, list], given: Mapping[str, list[str]] | None = None) -> None:
    """ScenarioError when a path of `vary` is bad (unknown, given no values, the same field as another path, a key
    under `fx` that is no currency code); it also names the values that are bad even alone, so that one run shows
    them all (a path's own problem is said once, not again for each of its values). `given`: as check_values."""
    paths = list(vary)
    values = list(vary.values())
    problems = [f"{p}: no values to vary over; give at least one value, or leave {p} out" for p, v in zip(paths, values)
                if not v]
    problems += [q for p, v in zip(paths, values) if v for q in path_problems(scenario, p, v[0])]
    problems += _currency_keys(scenario, paths) + _same_fields(scenario, paths)
    if problems:
        flagged = {p for p in paths if any(q.startswith(f"{p}:") for q in problems)}
        alone, _ = _judged_alone(scenario, {p: v for p, v in vary.items() if p not in flagged})
        raise ScenarioError(list(dict.fromkeys(problems + _named_problems(alone, vary, given))), ORIGIN)


class CheckedVary(Mapping):
    """A sweep's values (dotted path → a tuple of values) as `check_values` checked them against `scenario`: `sweep`
    given them with that same scenario does not check them again (a --vary of 10,000 values is 10,000 scenarios
    built, about 4 s on 2 cores, which `fleetplan sweep` does first to name each bad value as --vary wrote it), nor
    builds again a point the check built (`built`: a row's index → its scenario pickled, or its problems as one
    line). Read-only."""

    def __init__(self, scenario: Scenario, vary: Mapping[str, list], built: Mapping[int, bytes | str] | None = None):
        self.scenario = scenario
        self._vary = {path: tuple(values) for path, values in vary.items()}
        self.built = dict(built or {})

    def __getitem__(self, path: str) -> tuple:
        return self._vary[path]

    def __iter__(self):
        return iter(self._vary)

    def __len__(self) -> int:
        return len(self._vary)


def check_values(scenario: Scenario, vary: Mapping[str, Iterable[Any]], max_points: int = MAX_POINTS,
                 given: Mapping[str, list[str]] | None = None) -> CheckedVary:
    """`vary` (dotted path → values), once every value is checked against the scenario, before anything is
    solved. ScenarioError for a bad path (as sweep_points), and for every value that no point of the sweep can
    plan: one the scenario refuses (`horizon_months: abc`, a misspelt profile, an unknown card, `currency: EUR`
    without the rate of USD) at each point that holds it, and one it takes alone but refuses at each of its points
    for the other values there (min_units 5 where every max_units varied beside it is below 5). Such a value is a
    mistake in the sweep, not a result. A point the scenario refuses only for its combination of values (min_units
    5 with max_units 3, each of which plans at other points) stays a point: a cross product cannot leave it out, and
    the sweep makes it an error row. PlannerError, before any value is read, for more than `max_points` points.

    Each value needs one point whose scenario the model takes (built and validated, not solved). The points of the
    diagonal are built first (point j holds value j, modulo its count, of every path): as many as the longest list
    has values, and they hold every value, so in a sweep whose points are all valid they are all the check builds
    (100 × 100 values: 100 of the 10,000 points, and no value alone). Only a value no diagonal point takes is checked
    alone, then at its other points in the order of the rows, until one takes it. So the check builds each point at
    most once (at most `max_points` in all) and each value alone at most once; the sweep gets the points built
    (`CheckedVary.built`) and does not build them again. Each
    problem names its value as `given` (path → the texts the values were read from, as `--vary` wrote them:
    `horizon_months=1e400`, not inf), else as YAML writes it.

    ScenarioError too for values of one path that plan the same, which the sweep would solve twice: `12,12`, or
    `12, 1_2, 12.0` for whole months. The values come back as planned where the scenario reads them as another number
    or a boolean (`"1_2"`, text that the model reads as 12, is 12; 12.0 months is 12; `"yes"` is true), so a sweep's
    column shows what was planned; any other value as given (1 for a price stays 1; a file path as written)."""
    vary = _listed_all(vary, max_points)
    _check_paths(scenario, vary, given)
    points = _PointChecks(scenario, vary)
    with profiles_parsed_once():   # each value's scenario and each point's read the same profile CSVs
        refused, combined, planned = _judged(points)
    problems = (_named_problems(refused, vary, given) + _combination_problems(combined, vary, given)
                + _repeated(vary, planned, given))
    if problems:
        raise ScenarioError(problems, ORIGIN)
    values = {path: [_as_planned(v, planned[path, i]) for i, v in enumerate(values)] for path, values in vary.items()}
    return CheckedVary(scenario, values, points.reusable(values))


def value_warnings(checked: CheckedVary, given: Mapping[str, list[str]] | None = None) -> list[tuple[str, str, str]]:
    """(value, said, warning) for each warning validate gives a varied value as it would in the scenario's file, and
    the scenario does not give itself: a value that looks typed in another unit (`onprem.electricity_per_kwh=28`, cents
    of a euro; scenario.loading.plausibility_warnings) or a capex budget below any card's price
    (cost_basis.implausible_capex_budget). `value` is `PATH=VALUE`, the value as `given` (the texts --vary wrote),
    else as YAML writes it; `said` the warning without its field's path where that is the path varied (`28 EUR a kWh
    (30.43 USD) is more than …; if it is in cents, write 0.28 …`); `warning` the text a plan of its points lists. An
    audit's sweep of that one value ran for 10 minutes without a word of it.

    Each value is judged alone in the scenario, but where the diagonal point the check built that holds it (`built`)
    has no warning of its own: such a point's values pass unjudged alone (so a value passes where another beside it
    makes it plausible, such as a rate for USD that makes 28 a kWh a price in yen; its points' plans list what they
    warn of). A sweep whose diagonal warns of nothing then costs one judgement a diagonal point (0.17 ms: a pickled
    scenario read and judged), not one scenario built a value (1.8 ms; an audit's 36-month scenario, 2026-12-06). A
    value the scenario takes only beside other values is not judged: its points' plans list their warnings."""
    from planner.scenario.cost_basis import implausible_capex_budget
    from planner.scenario.loading import plausibility_warnings

    def said(scenario: Scenario) -> list[str]:
        return [text for _, text in plausibility_warnings(scenario) + implausible_capex_budget(scenario)]

    scenario = checked.scenario
    own = set(said(scenario))
    vary = {path: list(values) for path, values in checked.items()}
    sizes = [len(values) for values in vary.values()]
    strides = [math.prod(sizes[k + 1:]) for k in range(len(sizes))]
    fine = set()   # (path, index) of the values of a diagonal point with no warning of its own
    for j in range(max(sizes) if len(vary) > 1 else 0):
        combo = tuple(j % n for n in sizes)
        built = checked.built.get(sum(i * stride for i, stride in zip(combo, strides)))
        if isinstance(built, bytes) and set(said(pickle.loads(built))) <= own:
            fine.update(zip(vary, combo))
    found = []
    with profiles_parsed_once():
        for path, values in vary.items():
            for i, value in enumerate(values):
                if (path, i) in fine:
                    continue
                built = checked.built.get(i) if len(vary) == 1 else None   # one path: row i is value i alone
                try:
                    alone = pickle.loads(built) if isinstance(built, bytes) else apply_overrides(scenario, {path: value})
                except ScenarioError:
                    continue
                for text in said(alone):
                    if text not in own:
                        value = f"{path}={_shown_value(vary, given, path, i)}"
                        found.append((value, text.removeprefix(f"{path}: "), text))
    return found


class _PointChecks:
    """The points of a sweep as its check builds them, each at most once: `found`, a point's indices (one a path, in
    `vary`'s order) → its scenario pickled (3 KB, where a scenario held is 13 KB), or its problems; `planned`, (path,
    index) → the value the scenario holds at the path, of each value a point built plans (or the check set)."""

    def __init__(self, scenario: Scenario, vary: dict[str, list]):
        self.scenario, self.vary = scenario, vary
        self.paths = list(vary)
        self.sizes = [len(values) for values in vary.values()]
        self.found: dict[tuple[int, ...], bytes | list[str]] = {}
        self.planned: dict[tuple[str, int], Any] = {}

    def plans(self, combo: tuple[int, ...]) -> bool:
        """Whether the point of these indices plans (else `found` holds its problems)."""
        if combo not in self.found:
            try:
                changed = apply_overrides(self.scenario, {p: self.vary[p][j] for p, j in zip(self.paths, combo)})
            except ScenarioError as exc:
                self.found[combo] = exc.problems
            else:
                self.found[combo] = pickle.dumps(changed, protocol=pickle.HIGHEST_PROTOCOL)
                for p, j in zip(self.paths, combo):
                    if (p, j) not in self.planned:
                        self.planned[p, j] = _value_at(changed, self.scenario, p)
        return isinstance(self.found[combo], bytes)

    def holding(self, path: str, i: int) -> Iterable[tuple[int, ...]]:
        """The indices of the points holding value `i` of `path`, in the order of the sweep's rows."""
        return itertools.product(*[(i,) if p == path else range(n) for p, n in zip(self.paths, self.sizes)])

    def refused_alone(self, path: str, i: int) -> list[str]:
        """The problems of value `i` of `path` alone, [] when the scenario takes it (its value then in `planned`). With
        one path the value alone is its point, built once."""
        if len(self.paths) == 1:
            return [] if self.plans((i,)) else self.found[i,]
        try:
            changed = apply_overrides(self.scenario, {path: self.vary[path][i]})
        except ScenarioError as exc:
            return exc.problems
        self.planned[path, i] = _value_at(changed, self.scenario, path)
        return []

    def reusable(self, values: dict[str, list]) -> dict[int, bytes | str]:
        """Each point built, by its row's index, for the sweep: its scenario pickled, or its problems as one line (as
        `_point_scenario` gives them). Not a point holding a value the sweep plans as another (`1_2` planned as 12): the
        sweep builds that one from the values it plans, as before."""
        as_given = [[type(v) is type(w) and v == w for v, w in zip(self.vary[p], values[p])] for p in self.paths]
        strides = [math.prod(self.sizes[k + 1:]) for k in range(len(self.sizes))]
        return {sum(j * stride for j, stride in zip(combo, strides)): found if isinstance(found, bytes) else "; ".join(found)
                for combo, found in self.found.items() if all(same[j] for same, j in zip(as_given, combo))}


def _judged_alone(scenario: Scenario, vary: dict[str, list]) -> tuple[dict[tuple[str, int], list[str]], dict]:
    """({(path, index): problems} of each value of `vary` the scenario refuses alone, {(path, index): the value
    the scenario holds at its path} of each it accepts)."""
    refused: dict[tuple[str, int], list[str]] = {}
    planned: dict[tuple[str, int], Any] = {}
    for path, values in vary.items():
        for i, value in enumerate(values):
            try:
                planned[path, i] = _value_at(apply_overrides(scenario, {path: value}), scenario, path)
            except ScenarioError as exc:
                refused[path, i] = exc.problems
    return refused, planned


_UNKNOWN = object()   # what _value_at gives where a path names no field it can find (a key the model spells otherwise)


def _value_at(changed: Scenario, scenario: Scenario, path: str) -> Any:
    """The value `changed` (`scenario` with overrides) holds at dotted override `path` as JSON holds it (numbers, text,
    booleans, None, lists, mappings), a workload found as `path` names it in `scenario` (by name or 0-based index: an
    override may rename it); `_UNKNOWN` where no such field is found (a card id the model holds in another case)."""
    names = [w.name for w in scenario.workloads]
    node: Any = changed
    for key in path_keys(str(path), names):
        if isinstance(node, tuple):   # the workloads, in the order of `scenario`'s
            at = names.index(key) if key in names else int(key) if key.isdigit() else len(node)
            if at >= len(node):
                return _UNKNOWN
            node = node[at]
        elif isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, BaseModel) and key in type(node).model_fields:
            node = getattr(node, key)
        else:
            return _UNKNOWN
    return to_jsonable_python(node)


def _as_planned(given: Any, planned: Any) -> Any:
    """`given` where it is the value `planned` as written (1 for a price the model holds as 1.0: "1 stays 1 next to
    1.5"), else `planned` where it is a number or a boolean (`"1_2"` → 12, 12.0 whole months → 12, `"yes"` → true);
    text, lists and mappings as given (a file path as written, not made absolute)."""
    if planned is _UNKNOWN or not isinstance(planned, (bool, int, float)):
        return given
    same_kind = type(given) is type(planned) or (isinstance(planned, float) and type(given) is int)
    return given if same_kind and given == planned else planned


def _repeated(vary: dict[str, list], planned: dict[tuple[str, int], Any], given: Mapping[str, list[str]] | None) -> list[str]:
    """A problem for each set of values of one path that plan the same (`planned`): the sweep would solve the same
    point twice, and its rows would pass for two results."""
    problems = []
    for path, values in vary.items():
        alike: dict[str, list[int]] = {}
        for i in range(len(values)):
            if planned.get((path, i), _UNKNOWN) is not _UNKNOWN:
                alike.setdefault(json.dumps(planned[path, i], sort_keys=True), []).append(i)
        for indices in (found for found in alike.values() if len(found) > 1):
            names = [_shown_value(vary, given, path, i) for i in indices]
            if len(set(names)) == 1:
                problems.append(f"{path}={names[0]}: given {len(names)} times; give each value once")
            else:
                problems.append(f"{path}: {series(names)} are the same value "
                                f"({shortened(value_text(planned[path, indices[0]]))}); give it once")
    return problems


def _judged(points: _PointChecks) -> tuple[dict, dict, dict]:
    """(refused, combined, planned) of every value of a sweep (keys (path, index)): `refused`, the problems of each
    value the scenario refuses alone and at each of its points (those it has alone that every point of it has, not
    another value's also refused there, else those its points share, else its first point's); `combined`, the
    points (indices, problems) of each value taken alone but refused at each of its points that holds no value of
    `refused` (such a point fails for that value, and goes with it); `planned`, the value the scenario holds at its
    path of each other value (at a point that plans it, else alone)."""
    for j in range(max(points.sizes)):   # the diagonal: every value at one point
        points.plans(tuple(j % n for n in points.sizes))
    refused: dict[tuple[str, int], list[str]] = {}
    taken: list[tuple[str, int]] = []   # values taken alone that no point built before plans
    for path, values in points.vary.items():
        for i in range(len(values)):
            if (path, i) in points.planned:
                continue
            own = points.refused_alone(path, i)
            if not own:
                taken.append((path, i))
                continue
            failed, plans = _until_one_plans(points, path, i)
            if not plans:
                everywhere = _shared([points.found[combo] for combo in failed])
                refused[path, i] = [q for q in own if q in everywhere] or everywhere or points.found[failed[0]]
    combined: dict[tuple[str, int], list[tuple[tuple[int, ...], list[str]]]] = {}
    for path, i in taken:
        failed, plans = _until_one_plans(points, path, i, skip=refused)
        if failed and not plans:
            combined[path, i] = [(combo, points.found[combo]) for combo in failed]
    return refused, combined, points.planned


def _until_one_plans(points: _PointChecks, path: str, i: int,
                     skip: Mapping[tuple[str, int], Any] | None = None) -> tuple[list[tuple[int, ...]], bool]:
    """(the indices of the points holding value `i` of `path` that fail, in the order of the rows, up to the first that
    plans, whether one plans). A point holding a value of `skip` is passed over, unbuilt."""
    failed = []
    for combo in points.holding(path, i):
        if skip and any((p, j) in skip for p, j in zip(points.paths, combo)):
            continue
        if points.plans(combo):
            return failed, True
        failed.append(combo)
    return failed, False


def _shared(problems: list[list[str]]) -> list[str]:
    """The problems every list of `problems` holds, in the first's order."""
    return [q for q in problems[0] if all(q in found for found in problems[1:])]


def _combination_problems(combined: dict[tuple[str, int], list[tuple[tuple[int, ...], list[str]]]],
                          vary: dict[str, list], given: Mapping[str, list[str]] | None) -> list[str]:
    """One line for each value of `combined` (path, index → its points' indices and problems), valid alone and
    refused with every value varied beside it: the problems its points share, else its first point's, naming that
    point's other values."""
    lines = []
    for (path, i), failed in combined.items():
        name = f"{path}={_shown_value(vary, given, path, i)}: no point of the sweep can plan it (valid alone, refused"
        combo, first = failed[0]
        at = ", ".join(f"{p}={_shown_value(vary, given, p, j)}" for p, j in zip(vary, combo) if p != path)
        everywhere = _shared([found for _, found in failed])
        if len(failed) == 1:
            lines.append(f"{name} with {at}): {'; '.join(first)}")
        elif everywhere:
            lines.append(f"{name} with each value of {' and '.join(p for p in vary if p != path)}): "
                         f"{'; '.join(everywhere)}")
        else:
            lines.append(f"{name} with each value of {' and '.join(p for p in vary if p != path)}); e.g. with {at}: "
                         f"{'; '.join(first)}")
    return lines


def _named_problems(refused: dict[tuple[str, int], list[str]], vary: dict[str, list],
                    given: Mapping[str, list[str]] | None) -> list[str]:
    """One line per problem of the `refused` values ((path, index) → problems), led by the values it is about as
    `PATH=VALUE` (a problem of one value drops the path it starts with: `horizon_months=abc: expected a whole
    number, got 'abc'`)."""
    by_problem: dict[str, list[tuple[str, int]]] = {}
    for key, problems in refused.items():
        for problem in problems:
            by_problem.setdefault(problem, []).append(key)
    lines = []
    for problem, keys in by_problem.items():
        names = " and ".join(f"{p}={_shown_value(vary, given, p, i)}" for p, i in keys)
        if len(keys) == 1 and problem.startswith(f"{keys[0][0]}: "):
            problem = problem[len(keys[0][0]) + 2:]
        lines.append(f"{names}: {problem}")
    return lines


def _shown_value(vary: dict[str, list], given: Mapping[str, list[str]] | None, path: str, i: int) -> str:
    """Value `i` of `path` in a message: as `given` (the text --vary wrote), else as YAML writes it; a long one cut."""
    return shortened(given[path][i] if given else value_text(vary[path][i]))


def value_text(value: Any) -> str:
    """A varied value as it is written after --vary (YAML), not as Python shows it: a boolean as `true`/`false`,
    None as `null`, a mapping or a list as YAML flow text (`{price: 2000}`, `[aws, azure]`); a number or a text as
    str() gives it (1 stays 1 next to 1.5; inf, nan)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list, tuple)):
        return dump_yaml(value if isinstance(value, dict) else list(value), default_flow_style=True,
                         sort_keys=False, width=10_000).strip()
    return str(value)


def cross_product(vary: Mapping[str, list]) -> list[dict]:
    """The points of `vary` (path → list of values), in the order of a sweep's rows: the cross product in
    `vary`'s order, last path fastest."""
    return [dict(zip(vary, combo)) for combo in itertools.product(*vary.values())]


NOTHING_TO_VARY = ("vary: nothing to vary: give at least one field path and its values, e.g. "
                   "{'onprem.pue': [1.2, 1.4]}")


def _listed_all(vary: Mapping[str, Iterable[Any]], max_points: int) -> dict[str, list]:
    """`vary` with each path's values as a list (`_listed`); PlannerError for more than `max_points` points,
    a range's size counted by its length (an iterator read up to the limit is counted so far), and for no path."""
    listed = {path: _listed(path, values, max_points) for path, values in vary.items()}
    if not listed:   # a sweep of no path: max() of no values counts, deep in the check (ValueError, no word of vary)
        raise PlannerError(NOTHING_TO_VARY)
    check_size([len(vary[p]) if isinstance(vary[p], Sized) else len(v) for p, v in listed.items() if v], max_points)
    return listed


def _listed(path: str, values: Any, max_points: int) -> list:
    """The values of one path as a list, at most `max_points` + 1 of them read: a range of 10**9 or an
    endless iterator is refused by check_size, not listed first (20 million values took 1.8 s and 900 MB
    to refuse). A text, a mapping or a single value is no list of values: `"12"` was swept as 1 and 2."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ScenarioError([f"{path}: expected a list of values to vary over, got {shortened(repr(values))}"
                             + (f"; for one value, [{values!r}]" if isinstance(values, (str, int, float)) else "")],
                            ORIGIN)
    return list(itertools.islice(values, max_points + 1))


def _same_fields(scenario: Scenario, paths: list[str]) -> list[str]:
    """One problem per path that sets the same field as an earlier path under another spelling, or a field
    inside a mapping another path sets whole (`fx` and `fx.CNY`): one value would silently replace the
    other at every point, and the row would show a value that was not planned."""
    return [f"{a} and {b} are the same field; vary it under one path, with all its values" if same else
            f"{a} and {b}: {b} is a field of {a}; vary one of them (the field alone, or the whole {a} with the field "
            "in each value)" for a, b, same in overlapping_paths(scenario, paths)]


def _currency_keys(scenario: Scenario, paths: list[str]) -> list[str]:
    """A problem for each `fx.<key>` path whose key is no currency code: every point would fail alike."""
    problems = []
    for path in paths:
        keys = str(path).split(".")
        if len(keys) < 2 or keys[0] != "fx" or re.fullmatch(CURRENCY_PATTERN, keys[1]):
            continue
        if re.fullmatch(CURRENCY_PATTERN, keys[1].upper()):
            near = [keys[1].upper()]
        else:
            from planner.catalog import load_cards, suggest

            known = {"USD", scenario.currency, *scenario.fx, *load_cards()["currency"].dropna()}
            near = suggest(keys[1], sorted(known))
        hint = f"; did you mean 'fx.{near[0]}'?" if near else ""
        problems.append(f"{path}: expected a currency code of three capital letters (ISO 4217) after fx., "
                        f"got {keys[1]!r}{hint}")
    return problems


def _point_scenario(scenario: Scenario, point: dict) -> Scenario | str:
    """The scenario of one point, with all its values applied together and validated once, or its
    problems as text (each names its path)."""
    try:
        return apply_overrides(scenario, point)
    except ScenarioError as exc:
        return "; ".join(exc.problems)


DASK_HINT = "pip install 'gpu-fleet-planner[dask]'"


def _column_dtype(values: list) -> object:
    """object when some of `values` are None (kept as None), else pandas' own choice."""
    return object if any(v is None for v in values) else None


def _resolve_client(scheduler: Any, timeout: float | None):
    """(client, owned): a distributed.Client for an address (connecting within `timeout` seconds, or
    distributed's own connect timeout when None), or the Client given. PlannerError in one line when
    distributed is not installed or the scheduler cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise PlannerError(f"a Dask scheduler needs the distributed package, which is not installed: {DASK_HINT}") from None

    if isinstance(scheduler, Client):
        return scheduler, False
    from distributed.comm import parse_address, resolve_address

    try:   # a malformed address fails here, before a Client exists (a failed Client complains again when collected)
        scheme, _ = parse_address(str(scheduler))
        if scheme.lower() == "tcp" and scheme != "tcp":
            raise PlannerError(f"Dask scheduler {str(scheduler)!r}: the scheme is written in lower case; did you mean "
                               f"{'tcp' + str(scheduler)[len(scheme):]!r}?")
        if scheme != "ucx":   # distributed warns that it dropped ucx when asked to resolve one
            resolve_address(str(scheduler))
    except ValueError as exc:
        raise PlannerError(f"Dask scheduler {str(scheduler)!r} is not an address ({exc}); expected one such as "
                           "tcp://10.0.0.5:8786") from None
    except OSError as exc:   # socket.gaierror: a host name no resolver knows (a typo, or the notebook's "host")
        raise PlannerError(f"Dask scheduler {str(scheduler)!r}: the host name {_host(str(scheduler))!r} could not be "
                           f"resolved ({exc.strerror or exc}); expected the address of a running Dask scheduler, "
                           "such as tcp://10.0.0.5:8786 or tcp://scheduler.example.com:8786: check the name, or "
                           "give its IP address") from None
    _check_scheme(str(scheduler), scheme)
    kwargs = {} if timeout is None else {"timeout": timeout}
    try:
        return Client(str(scheduler), set_as_default=False, **kwargs), True
    except (OSError, TimeoutError, TypeError, ValueError) as exc:   # TypeError, ValueError: inside distributed
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        within = f" within {timeout:g} s" if timeout is not None else ""
        raise PlannerError(f"Dask scheduler {scheduler}: cannot connect{within} ({first})") from None


def _host(address: str) -> str:
    """The host of a scheduler address (`tcp://host:8786` → host), as distributed reads it."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        return parse_host_port(parse_address(address)[1])[0]
    except ValueError:
        return address


def _check_scheme(address: str, scheme: str) -> None:
    """PlannerError for a scheduler address a Client made here cannot use, each of which failed inside
    distributed with a traceback: tls:// and wss:// without Dask's TLS settings (distributed.comm.tls.*, or a
    security loader), inproc:// (a scheduler inside one process) and ucx:// (dropped from distributed)."""
    hint = "or pass a distributed.Client of your own to planner.sweep(scheduler=…)"
    if scheme in ("tls", "wss"):
        import dask
        from distributed.security import Security

        if (Security().get_connection_args("client").get("ssl_context") is None
                and dask.config.get("distributed.client.security-loader", None) is None):
            raise PlannerError(f"Dask scheduler {address!r}: {scheme}:// needs Dask's TLS settings (distributed.comm.tls: "
                               "ca-file and the client's cert and key, e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE), "
                               + hint)
    elif scheme == "inproc":
        raise PlannerError(f"Dask scheduler {address!r}: inproc:// is a scheduler inside one process, which a sweep "
                           f"cannot reach from here; give its tcp:// address, {hint}")
    elif scheme == "ucx":
        raise PlannerError(f"Dask scheduler {address!r}: distributed no longer speaks ucx:// (it moved to the "
                           f"distributed-ucxx package); give a tcp:// address, {hint}")


def sweep(scenario: Scenario | str | Path | dict, vary: Mapping[str, Iterable[Any]],
          scheduler: Any = None, processes: int = 2, baselines: bool = False, solver: str = DEFAULT_SOLVER,
          progress: Progress | None = None, scheduler_timeout: float | None = None,
          store: str | Path | None = None, max_points: int = MAX_POINTS,
          max_dispatch_variables: int | None = None, max_purchase_variables: int | None = None,
          **kwargs: Any) -> pd.DataFrame:
    """Plan every point of the cross product of `vary` (dotted path → values); one row per point.

    Columns: one per varied path, `total` (present value, in the scenario currency, or the point's
    own when `currency` is varied), `savings_vs_all_cloud` (only with `baselines=True`), `fleet` (summary),
    `status` (optimal | infeasible | error), `note`.
    Infeasible points are rows, not exceptions, and so is a point whose values the scenario rejects only together
    (min_units 5 with max_units 3, each of which plans at another point: status error, the problem in `note`).
    ScenarioError, up front, before any point is solved (`check_values`), lists every bad path (unknown, two paths
    to one field such as `workloads.0.x` and `workloads.<first's name>.x`, an `fx` key that is no currency code) and
    every value that no point can plan (`horizon_months: "abc"`, a misspelt profile, `currency: EUR` where no point
    gives the rate of USD, min_units 5 where every max_units varied beside it is below 5), as `fleetplan sweep`
    refuses them.

    `store` is the price store file for `prices.source: store`, as for `plan()` (default
    `$FLEETPLAN_STORE` or the platform's data directory, as each point's process sees them; give the path
    for a Dask cluster). `table.attrs["prices"]` lists where the points' prices came from, each distinct
    source once, in the order of the first point that used it: `source`, `store`, `snapshots` and `warning` (e.g. no
    price store, so the packaged snapshot), as a plan's `prices`, and `points`, the rows (positions in the table)
    whose plans used it; `table.attrs["warnings"]` the plans' warnings (as a plan's
    `warnings`: estimated speeds, unpriced cards, stale prices …), each distinct one once, in order of first
    appearance, as {"warning", "points"} with the number of points whose plan gave it.
    What its money is, as a Plan's tables say it (engine.result.MONEY_COLUMNS): `attrs["currency"]`, the points'
    currency ("each point's currency" when `currency` is varied to more than one: its column gives each row's);
    `attrs["money_basis"]`, the words of a plan ("present value at 8%/year") when every point has the same
    discount_rate, else "present value at each point's discount_rate" and a `money_basis` column gives each row's
    (empty for a point whose values the scenario rejects); `attrs["money_columns"]`, `total` (and
    `savings_vs_all_cloud`) → that basis. A varied `horizon_months` is its own column: each total sums its row's months.

    Runs on `processes` local worker processes (1 = in this process; at most `max_processes()`, 4 per
    core), or on an existing Dask cluster when `scheduler` is its address or a `distributed.Client`
    (workers need this package installed; `scheduler_timeout` seconds to connect to an address, default
    distributed's own, 30 s). At most `max_points` points (MAX_POINTS, 10,000): PlannerError, before
    anything is built or solved, for more. Each point's scenario is built as it is solved, unless the check of the
    values built it (then it is not built again).
    Rows come back in cross-product order either way, with the same numbers. Local workers import only
    the planner, so a plain script needs no `if __name__ == "__main__":` guard. Nothing is printed.
    `progress(done, total)` is called as points finish. `solver`: highs or cbc; another is refused up front
    (PlannerError, as a bad `processes` or `baselines` is), not made an error row of every point.
    `max_dispatch_variables`: a point whose model would hold more dispatch variables is an error row, refused
    before its model is built (as `plan()`), and so is one of more purchase variables than `max_purchase_variables`.
    A keyword argument it does not take is an UnknownKeyword (a PlannerError and a TypeError) with "did you mean"
    (`baseline=True`: baselines=…).
    """
    check_keywords("sweep", sweep, kwargs)
    check_not_a_plan(scenario, "sweep")
    check_limits(max_dispatch_variables=max_dispatch_variables, max_purchase_variables=max_purchase_variables)
    _check_arguments(vary, max_points, progress, baselines, scheduler_timeout, solver)
    checked = vary if isinstance(vary, CheckedVary) else None
    vary = _listed_all(vary, max_points)   # an iterator is read once
    if scheduler is None:
        check_processes(processes)
    base = checked_scenario(scenario)   # one the loader did not validate (model_copy(update=…)) is, before any point
    if base.prices.source == "store":   # once here, not as an error row of every point (plan() raises it)
        _check_store(store)   # as given: the message names what the user wrote
    if store is not None:   # a worker's working folder may not be this process's (a Dask worker); ~ as plan() reads it
        store = os.path.abspath(os.path.expanduser(store))
    # every value checked before any point is solved (unless check_values did it for this scenario): a value no
    # point can plan is refused here
    if checked is None or checked.scenario is not base:
        checked = check_values(base, vary, max_points)
    points = cross_product(checked)
    n = len(points)
    # each point's scenario is built (and validated, once) as it is solved, unless the check built it: a point the
    # scenario rejects becomes an error row then
    results: list[dict | None] = [None] * n
    bases: list[dict | None] = [None] * n   # each row's currency and discount_rate (None: its point was rejected)
    todo = [(i, _built_task(checked.built[i]) if i in checked.built else functools.partial(_point_scenario, base, point))
            for i, point in enumerate(points)]
    done = 0
    point_prices: list[dict | None] = [None] * n   # each point's price provenance (None: its point was rejected)
    # each point's plan's warnings, counted in the points' order once all are done: in the order the workers finished,
    # two identical sweeps listed them differently (a nightly job's logs differed from one night to the next)
    point_warnings: list[list[str]] = [[] for _ in range(n)]

    def record(i: int, row: dict) -> None:
        nonlocal done
        point_prices[i] = row.pop(_PRICES, None)
        point_warnings[i] = list(dict.fromkeys(row.pop(_WARNINGS, ())))
        bases[i] = row.pop(_BASIS, None)
        results[i] = row
        done += 1
        if progress is not None:
            progress(done, n)

    if progress is not None:
        progress(done, n)
    if todo:
        point_kw = {k: v for k, v in (("store", store), ("max_dispatch_variables", max_dispatch_variables),
                                      ("max_purchase_variables", max_purchase_variables)) if v is not None}
        _solve_points(todo, record, scheduler, processes, solver, baselines, scheduler_timeout, point_kw)
    # each varied column as its values were given: pandas would read [None, 5] as [NaN, 5.0], which plan()
    # refuses when a row is fed back (a cap of None is no cap; NaN is no number)
    columns = {path: [point[path] for point in points] for path in vary}
    inputs = pd.DataFrame({path: pd.Series(values, dtype=_column_dtype(values)) for path, values in columns.items()})
    table = pd.concat([inputs, pd.DataFrame(results)], axis=1)
    if not baselines:
        table = table.drop(columns=["savings_vs_all_cloud"])
    table.attrs["prices"] = _sources_by_point(point_prices)
    warned = Counter(warning for said in point_warnings for warning in said)   # in order of first appearance
    table.attrs["warnings"] = [{"warning": w, "points": k} for w, k in warned.items()]
    return _label_money(table, bases, base)


def _label_money(table: pd.DataFrame, bases: list[dict | None], base: Scenario) -> pd.DataFrame:
    """`table` with its currency and money basis in attrs (see `sweep`), and a `money_basis` column when the
    points' discount rates differ. `bases`: each row's currency and discount_rate (None for a point whose values
    were rejected: no money). A sweep whose every point was rejected has the scenario's."""
    known = [b for b in bases if b is not None] or [{"currency": base.currency, "discount_rate": base.discount_rate}]
    currencies = list(dict.fromkeys(b["currency"] for b in known))
    rates = list(dict.fromkeys(b["discount_rate"] for b in known))
    if len(rates) == 1:
        basis = present_value_words(rates[0])
    else:   # each row says its own, as a plan's CSV rows do; a rejected point has no money to say it of
        basis = EACH_POINTS_BASIS
        table["money_basis"] = pd.Series([None if b is None else present_value_words(b["discount_rate"])
                                          for b in bases], index=table.index, dtype=object)
    money = [c for c in ("total", "savings_vs_all_cloud") if c in table.columns]
    table.attrs.update({"currency": currencies[0] if len(currencies) == 1 else EACH_POINTS_CURRENCY,
                        "money_basis": basis, "money_columns": dict.fromkeys(money, basis)})
    return table


def _built_task(built: bytes | str) -> Callable[[], Scenario] | str:
    """The task of a point the check built: unpickling its scenario (as it is solved: 3 KB held until then, not
    13), or its problems."""
    return built if isinstance(built, str) else functools.partial(_unpickled, built)


def _unpickled(data: bytes) -> Scenario:
    """A scenario this process validated and pickled, as the loader made it: plan() takes it without checking it
    again (loading.mark_validated)."""
    return mark_validated(pickle.loads(data))


def _scenario_of(task: Any) -> Scenario | str:
    """A point's scenario (or its problems as text): built now when the task is its builder."""
    return task() if callable(task) else task


def _solve_points(todo: list[tuple[int, Any]], record: Callable[[int, dict], None], scheduler: Any,
                  processes: int, solver: str, baselines: bool, scheduler_timeout: float | None = None,
                  kw: dict | None = None) -> None:
    """Solve each (index, scenario or its builder) of `todo` on a Dask cluster, local processes or in this
    process; `record(index, row)` is called (in this thread) as each finishes. `kw`: what every point's
    `_sweep_point` gets besides (the price store, the size limit)."""
    kw = kw or {}
    if scheduler is not None:
        client, owned = _resolve_client(scheduler, scheduler_timeout)
        from distributed import as_completed as dask_completed

        try:
            built = [(i, _scenario_of(task)) for i, task in todo]
            for i, s in built:
                if isinstance(s, str):
                    record(i, _error_row(s))
            built = [(i, s) for i, s in built if not isinstance(s, str)]
            futures = client.map(_sweep_point, [s for _, s in built], solver=solver, baselines=baselines,
                                 pure=False, **kw)
            index = {f.key: i for (i, _), f in zip(built, futures)}
            for fut in dask_completed(futures, loop=client.loop):
                record(index[fut.key], fut.result())
        finally:
            if owned:
                client.close()
    elif processes <= 1 or len(todo) == 1 or not sys.executable:
        for i, task in todo:
            s = _scenario_of(task)
            record(i, _error_row(s) if isinstance(s, str) else _sweep_point(s, solver, baselines, **kw))
    else:
        _solve_in_workers(todo, record, min(processes, len(todo)), solver, baselines, kw=kw)


# ---------------------------------------------------------------------------------------------------
# Local worker processes
#
# A worker serves pickled (index, scenario, solver, baselines, kw) tasks from a pipe with pickled (index, row)
# answers on another; its file descriptor 1 points at the null device (so no solver or library can write
# into the answers, or onto the caller's stdout); it ignores Ctrl-C (the caller stops it). It runs in a
# session of its own, so that a sweep stopped early ends the CBC processes of its workers with them, and
# with CBC the workers' temporary files go to a folder of the sweep's, removed at its end.
# A worker gives HiGHS one thread: the sweep already runs one worker per core, and HiGHS's own threads on
# top of that only compete for the same cores. It leaves what it imported out of every collection
# (gc.freeze).
#
# Forked (`fork_safe`), a worker starts with this process's imports and caches: it begins solving at
# once, where a fresh interpreter first imports the planner for about a second on 2 cores (2 points on 2
# workers: 0.3-0.4 s forked, 1.2 s fresh; benchmarks/sweep_speed.py, 2026-12-02) — most of a short sweep.
# Forking is safe only with no other thread (one could hold a lock that the child would wait on forever)
# and before HiGHS has run here (the child's copy of HiGHS's scheduler would count on worker threads it
# lacks), as for the baselines' child (engine.baselines).
# Otherwise a worker is `python -c _WORKER <sys.path as JSON>`: unlike multiprocessing's spawn and
# forkserver children it never imports the caller's __main__, and unlike fork it is safe in a threaded
# host and after HiGHS has started. Like the `fleetplan` process (planner.cli.main) it keeps pyarrow out
# and collects garbage less often (planner.process).

_WORKER = """\
import json, os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
answers = os.fdopen(os.dup(1), "wb")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
sys.path[:] = json.loads(sys.argv[1])
from planner.process import configure_process
configure_process()
import gc
from planner.reports.sweep import _one_solver_thread, _serve
gc.freeze()
_one_solver_thread()
_serve(sys.stdin.buffer, answers)
"""


def _one_solver_thread() -> None:
    """Start HiGHS's scheduler of this thread (the worker solves in its main thread only) with one thread.

    The engine's first solve in this thread asks for the same one thread, which HiGHS accepts; another
    non-zero value would not be (engine.solve). Called in a worker before its first plan."""
    h = _SilentHighs()   # writes no banner: a worker's stdout is for its answers
    h.setOptionValue("output_flag", False)   # highspy < 1.8 does not call the hook that silences the model
    h.setOptionValue("threads", 1)
    h.run()   # an empty model: nothing to solve, but the scheduler starts


def _serve(tasks, answers) -> None:
    """The loop of a worker process: answer each task until stdin closes."""
    pickle.dump(("ready", os.getpid()), answers)
    answers.flush()
    while True:
        try:
            i, scenario, solver, baselines, kw = pickle.load(tasks)
        except EOFError:
            return
        if isinstance(scenario, Scenario):   # validated by the sweep that sent it (its own parent, on this pipe)
            mark_validated(scenario)
        try:
            row = _sweep_point(scenario, solver, baselines, **kw)
        except Exception as exc:   # noqa: BLE001 - a point that fails is a row, as in one process
            row = _error_row(f"{type(exc).__name__}: {exc}")
        pickle.dump((i, row), answers)
        answers.flush()


def fork_safe() -> bool:
    """Whether sweep workers are forked from this process: fork exists (not on macOS, where forking
    without exec is unsafe once system frameworks are loaded), no other Python thread runs, HiGHS has
    not run here yet, and pyarrow is not loaded. With pyarrow, pandas backs its string columns with it,
    and a forked worker would plan with those: 10-15 % more CPU per point than a fresh interpreter, which
    keeps pyarrow out (planner.process), so that a 200-point sweep ran slower forked from a plain script
    (16-17 plans/s against 19, 2026-12-02). `fleetplan sweep` keeps pyarrow out of its own process."""
    return (hasattr(os, "fork") and sys.platform != "darwin" and threading.active_count() == 1
            and not highs_started() and "pyarrow" not in sys.modules)


class _ForkedWorker:
    """A worker forked from this process (`_fork_worker`), with the parts of subprocess.Popen the sweep
    uses: `pid`, `stdin` (tasks), `stdout` (answers), `poll`, `wait` and `kill`. A feeding thread and the
    sweep's own thread may wait for it at once: one lock orders the reaping, and, as Popen does, a child
    already reaped elsewhere (ECHILD, e.g. a host that ignores SIGCHLD) counts as ended with code 0."""

    def __init__(self, pid: int, stdin, stdout):
        self.pid, self.stdin, self.stdout = pid, stdin, stdout
        self.returncode: int | None = None
        self._reaping = threading.Lock()

    def poll(self) -> int | None:
        with self._reaping:
            if self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                except ChildProcessError:
                    self.returncode = 0
                else:
                    if pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(f"sweep worker {self.pid}", timeout)
            time.sleep(0.01)
        return self.returncode

    def kill(self) -> None:
        with self._reaping:
            if self.returncode is None:   # not reaped yet, so its pid is still its own
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def _fork_worker(folder: str | None, others: list[_ForkedWorker]) -> None:
    """Fork a worker (see above) and append it to `others`, the workers forked before it, whose pipes it
    must not hold open (a worker sees the end of its tasks only when every copy of their pipe is closed).
    CBC's temporary files go to `folder` when given. OSError when no process can be forked (nothing is
    left open then)."""
    task_read, task_write = os.pipe()
    answer_read, answer_write = os.pipe()
    for stream in (sys.stdout, sys.stderr):   # nothing buffered here is written twice, by both processes
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    # Ctrl-C is held back over the fork: the child, still in the terminal's process group until its
    # setsid, must not take it; the parent gets a pending one once the worker exists and is known
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        with warnings.catch_warnings():
            # Python ≥ 3.12 warns on fork with any thread: the only others here are native pools (OpenBLAS)
            # that re-initialise in the child through their own fork handlers (fork_safe: no Python thread)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        for fd in (task_read, task_write, answer_read, answer_write):
            os.close(fd)
        raise
    if pid == 0:   # the worker: it never returns into the caller's code, and runs none of its exit handlers
        code = 1
        try:
            os.setsid()
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            default_stop_signals()   # a SIGTERM ends the worker silently, not with the parent's Terminated
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            for fd in (task_write, answer_read, *(f.fileno() for w in others for f in (w.stdin, w.stdout))):
                os.close(fd)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.close(devnull)
            # the interpreter's own streams: a host may have replaced sys.stdout and sys.stderr (rich's
            # progress bar in `fleetplan sweep` puts proxies there that redraw the bar on every write)
            sys.stdout, sys.stderr = sys.__stdout__ or sys.stdout, sys.__stderr__ or sys.stderr
            if folder is not None:
                os.environ["TMPDIR"] = tempfile.tempdir = folder   # pulp reads TMPDIR, Python's tempfile its tempdir
            configure_process()
            gc.freeze()
            _one_solver_thread()
            _serve(os.fdopen(task_read, "rb"), os.fdopen(answer_write, "wb"))
            code = 0
        except BaseException:   # noqa: BLE001 - reported on stderr; the caller sees the worker end
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(task_read)
    os.close(answer_write)
    others.append(_ForkedWorker(pid, os.fdopen(task_write, "wb"), os.fdopen(answer_read, "rb")))
    signal.pthread_sigmask(signal.SIG_SETMASK, held)   # a Ctrl-C held back arrives here, with the worker known


def _start_worker(env: dict[str, str] | None = None, keep_fds: tuple[int, ...] = ()) -> subprocess.Popen:
    """A worker process in a session of its own (POSIX), so that ending it ends the CBC processes it
    started too (`_close_worker`): killed alone, a worker would leave its CBC solving as an orphan.
    `keep_fds`: descriptors it inherits (the lock of the sweep's scratch folder, which it then shares)."""
    return subprocess.Popen([sys.executable, "-c", _WORKER, json.dumps([str(p) for p in sys.path])], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=None, close_fds=True, pass_fds=keep_fds, env=env,
                            start_new_session=hasattr(os, "setsid"))


def _solve_in_workers(todo: list[tuple[int, Any]], record: Callable[[int, dict], None], workers: int,
                      solver: str, baselines: bool, kw: dict | None = None) -> None:
    """Solve `todo` on `workers` worker processes, one feeding thread each, which builds each point's
    scenario as it sends it; rows are recorded here. `kw`: what every point's `_sweep_point` gets besides
    (the price store, the size limit), passed with every point."""
    kw = kw or {}
    tasks: queue.SimpleQueue = queue.SimpleQueue()
    for item in todo:
        tasks.put(item)
    answers: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    failed: list[int | None] = []
    # CBC's files (pulp's MPS and solution) go to a folder of this sweep's, removed at its end: a worker
    # killed mid-solve (the sweep stopped early) cannot delete them itself
    folder = ScratchFolder("sweep") if solver == "cbc" else None
    procs: list = []
    threads: list[threading.Thread] = []
    remaining = len(todo)

    def feed(proc: subprocess.Popen) -> None:
        try:
            pickle.load(proc.stdout)                       # ("ready", pid)
        except Exception:   # noqa: BLE001 - EOF, a broken pipe: the worker did not start
            failed.append(proc.poll())
            return
        while not stop.is_set():
            try:
                i, task = tasks.get_nowait()
            except queue.Empty:
                break
            try:
                scenario = _scenario_of(task)
            except Exception as exc:   # noqa: BLE001 - a point that fails is a row, as in one process
                scenario = f"{type(exc).__name__}: {exc}"
            if isinstance(scenario, str):   # the point's values, together, are rejected: nothing to solve
                answers.put((i, _error_row(scenario)))
                continue
            try:
                pickle.dump((i, scenario, solver, baselines, kw), proc.stdin)
                proc.stdin.flush()
                answers.put(pickle.load(proc.stdout))
            except Exception:   # noqa: BLE001 - the worker died while solving this point
                if not stop.is_set():
                    code = proc.wait()
                    answers.put((i, _error_row(f"the worker process solving this point ended (exit code {code})")))
                return

    try:
        # started inside the try: a worker that cannot start (or a Ctrl-C meanwhile) ends those already started
        if fork_safe():   # all forked before the feeding threads start
            for _ in range(workers):
                _fork_worker(None if folder is None else folder.path, procs)
        else:
            for _ in range(workers):
                # the sweep's scratch folder: its path and its lock, so that it is not cleared while they solve
                procs.append(_start_worker(None if folder is None else {**os.environ, "TMPDIR": folder.path},
                                           () if folder is None or folder.lock_fd is None else (folder.lock_fd,)))
        threads = [threading.Thread(target=feed, args=(p,), name="planner-sweep-feed", daemon=True) for p in procs]
        for t in threads:
            t.start()
        while remaining:
            try:
                i, row = answers.get(timeout=0.2)
            except queue.Empty:
                if not any(t.is_alive() for t in threads) and answers.empty():
                    codes = ", ".join(str(c) for c in failed) or "none"
                    raise PlannerError(f"sweep: the worker processes ended before solving every point (exit codes "
                                       f"{codes}; see their messages above); try processes=1") from None
                continue
            record(i, row)
            remaining -= 1
    finally:
        stop.set()
        for p in procs:
            _close_worker(p, kill=remaining > 0)
        for t in threads:
            t.join(timeout=5)
        for p in procs:
            try:
                p.stdout.close()
            except OSError:
                pass
        if folder is not None:
            folder.remove()


def _close_worker(proc: subprocess.Popen, kill: bool) -> None:
    """Close the worker's stdin (it then exits) and wait; kill it when stopping early or when it lingers."""
    if kill:
        _kill_worker(proc)
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        _kill_worker(proc)
        proc.wait()


def _kill_worker(proc: subprocess.Popen) -> None:
    """SIGKILL the worker with the CBC it runs (its session's process group, whose id no new process takes
    while any member lives), or the worker alone where it has no group (yet, or on this platform)."""
    if not kill_process_group(proc.pid):
        proc.kill()
