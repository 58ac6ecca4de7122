"""Two plans side by side: the inputs that differ, the fleets, the costs by category (b − a).

Either side may be a saved plan (the JSON of `fleetplan plan --format json` or `--out`, which carries
the scenario solved as `scenario_inputs`): it is read back as a `SavedPlan`, not solved again.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from planner._version import __version__
from planner.catalog.prices import HASH_HEX_DIGITS
from planner.engine import COST_CATEGORIES, Plan, plan
from planner.engine.inputs import Inputs
from planner.engine.result import (
    KEPT_KINDS,
    PRESENT,
    annotated,
    copied,
    held,
    keep_to_itself,
    money_attrs,
    present_value_words,
)
from planner.engine.run import check_keywords, check_limits, checked_inputs, checked_scenario
from planner.engine.solve import DEFAULT_SOLVER
from planner.errors import InfeasibleError, ModelTooLarge, PlannerError, ScenarioError, SolverError, shown_problems
from planner.fileio import open_for_reading
from planner.reports.tables import (
    as_written,
    clean,
    prices_used,
    records,
    scenario_files,
)
from planner.scenario import (
    Scenario,
    Workload,
    flatten_scenario,
    load_scenario,
    load_scenario_file,
    load_scenario_text,
    parse_scenario,
)
from planner.scenario.loading import MAX_SCENARIO_CHARS, loaded_from, names_a_file, scenario_folder
from planner.scenario.model import MAX_WORKLOADS
from planner.text import counted, gap_text, not_utf8, shortened
from pricing_adapters.signatures import binary_kind, not_the_file

FLEET_KEY = ["provider", "region", "sku", "gpu", "purchase_option"]
# What a plan records of its prices (`prices`, engine.readback.prices_used) that its scenario does not say:
# which source served them (a store without snapshots falls back to the packaged one) and their dates.
PROVENANCE_KEYS = ("source", "requested_source", "pinned_snapshot", "as_of", "as_of_oldest", "undated_prices",
                   "stale_prices")
SAME_INPUTS = "no scenario input differs: the prices, the card catalog or the planner differ between a and b"
# The unit prices of an offer both plans use (`prices_used`): a change in one explains a total's change that no
# scenario input does (an offers CSV edited in place, a refreshed store, a new snapshot)
PRICE_FIELDS = ("hourly_price", "upfront_price", "term_months", "capex_per_unit")
PRICE_COLUMNS = [*FLEET_KEY, "price", "a", "b"]
INPUTS = "scenario_inputs"   # the key of a saved plan that holds its scenario


@dataclass
class Comparison:
    """Two plans side by side. Money in the plans' currency, present values; delta = b − a.

    `costs` and `fleet` say what their money is in `attrs`, as a Plan's tables do (engine.result.MONEY_COLUMNS):
    `currency`, `money_basis` and `money_columns` (column → basis). On the same basis (`same_basis`: the same
    horizon and discount rate) these are a plan's words, "present value at 8%/year" for cost_a, cost_b and
    cost_delta. On different bases each side's column says its own horizon and rate, and the delta that it is not
    like for like: money_columns {"cost_a": "36 months, present value at 0%/year, undiscounted", "cost_b":
    "24 months, present value at 10%/year", "cost_delta": "b − a, not like for like"}, money_basis the three as
    "cost_a: …; cost_b: …; cost_delta: …" — and `notes` holds "not like for like: a sums 36 months at 0%/year, b
    24 months at 10%/year (present values)" (`basis_note`), the words `fleetplan compare` prints.

    A Comparison keeps its tables, notes and sides to itself (`COMPARISON_KEPT`), as a Plan does: each read of
    `costs`, `fleet`, `notes` … is a copy, so a notebook's edit of one changes nothing `to_dict`, the CLI or a later
    reader says.
    """

    label_a: str
    label_b: str
    currency: str
    inputs: pd.DataFrame      # path, a, b — the assumptions that differ
    fleet: pd.DataFrame       # provider, region, sku, gpu, purchase_option, units_a/b, instance_hours_a/b,
                              # cost_a/b, cost_delta
    costs: pd.DataFrame       # category, cost_a, cost_b, cost_delta (credits negative)
    total_a: float
    total_b: float
    plan_a: Plan | SavedPlan = field(repr=False)
    plan_b: Plan | SavedPlan = field(repr=False)
    notes: list[str] = field(default_factory=list)   # what a reader must know: a side not proven optimal
    provenance: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["path", "a", "b"]))
                              # path, a, b — what the plans record of their prices and planner that differs
    prices: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=PRICE_COLUMNS))
                              # provider … purchase_option, price (field), a, b — unit prices of an offer both
                              # plans use that differ (a plan saved before prices_used gives none)
    inputs_shown: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["path", "a", "b"]))
                              # `inputs` as text (input_text): a field or key one side does not set "(not set)"
                              # ("(not set: no cap)"), numbers 14,000 and true/false as a reader reads them
    sides: dict = field(default_factory=dict)   # "a"/"b": file, saved_plan, generated_at, version (`side_facts`)

    def __setattr__(self, name: str, value) -> None:
        if name in _KEPT:   # a copy: a later edit of the frame, list or dict given changes nothing of the comparison
            self.__dict__[_KEPT[name]] = copied(value)
        else:
            super().__setattr__(name, value)

    def __setstate__(self, state: dict) -> None:
        """Unpickled: a Comparison pickled before it kept its tables to itself holds them under their own names."""
        self.__dict__.update({_KEPT.get(k, k): v for k, v in state.items()})

    def __post_init__(self) -> None:
        # here, not in compare(): every Comparison labels its money, as a Plan does whenever a table is set; on the
        # tables it holds (the attributes give copies)
        for name in ("costs", "fleet"):
            self.__dict__[_KEPT[name]].attrs.update(compared_money_attrs(self.currency, self.basis))

    @property
    def total_differs_with_same_inputs(self) -> bool:
        """Whether the totals differ while no scenario input does: then the prices (their source and dates,
        `provenance`; the unit prices of the offers the plans use, `prices`), the card catalog or the
        planner differ between a and b."""
        return self.total_delta != 0 and self.inputs.empty

    @property
    def total_delta(self) -> float:
        delta = self.total_b - self.total_a
        return 0.0 if abs(delta) < MONEY_ROUNDING else delta

    @property
    def basis(self) -> dict:
        """What each side's totals sum: {"a"/"b": {"horizon_months", "discount_rate"}}. Present values over
        different horizons or at different rates are not like for like; `same_basis` says whether they are."""
        return plans_basis(self.plan_a, self.plan_b)

    @property
    def same_basis(self) -> bool:
        return self.basis["a"] == self.basis["b"]

    @property
    def basis_note(self) -> str | None:
        """"not like for like: a sums 36 months at 0%/year, b 24 months at 10%/year (present values)" when the sides'
        totals are on different bases (also in `notes`), else None."""
        return basis_note(self.basis)

    @property
    def present_money(self) -> str:
        """The currency and basis of the compared sums, for a title, in the words of a plan's
        (reports.tables.present_money): "USD, present value at 8%/year"; each side's rate where they differ,
        "USD; a: present value at 8%/year; b: present value at 0%/year, undiscounted"."""
        rate_a, rate_b = (self.basis[side]["discount_rate"] for side in ("a", "b"))
        if rate_a == rate_b:
            return f"{self.currency}, {present_value_words(rate_a)}"
        return f"{self.currency}; a: {present_value_words(rate_a)}; b: {present_value_words(rate_b)}"

    @property
    def totals(self) -> dict:
        """a, b, delta and delta_pct: the change in percent of |a| (NaN, JSON null, when a's total is 0:
        no percentage of nothing means anything; of |a| so that a rise reads + even from a negative total)."""
        pct = self.total_delta / abs(self.total_a) * 100 if self.total_a else math.nan
        return {"a": self.total_a, "b": self.total_b, "delta": self.total_delta, "delta_pct": pct}

    @property
    def delta_pct_text(self) -> str:
        """The change in percent as a report shows it: "+12.3%", or "n/a" when a's total is 0."""
        pct = self.totals["delta_pct"]
        return "n/a" if math.isnan(pct) else f"{pct:+.1f}%"

    @property
    def status(self) -> dict:
        """Each side's solver status: optimal, or feasible (a fleet the solver had not proven best)."""
        return {"a": self.plan_a.status, "b": self.plan_b.status}

    @property
    def not_proven_notes(self) -> list[str]:
        """The notes that say a side is not proven optimal (the others say what could not be compared)."""
        return [_not_proven(side, p) for side, p in (("a", self.plan_a), ("b", self.plan_b)) if p.status != "optimal"]

    @property
    def provenance_shown(self) -> pd.DataFrame:
        """`provenance` as text (value_text; a thing a plan does not record reads "(not recorded)")."""
        return self.provenance.assign(**{side: [value_text(v, unset="(not recorded)") for v in self.provenance[side]]
                                         for side in ("a", "b")})

    def __repr__(self) -> str:
        """The two sides, their totals and the change, and the tables held, in a line, in the style of a Plan's: the
        dataclass's repr printed every table (4,700 characters for two 4-row fleets)."""
        d = self.__dict__

        def money(value: Any, sign: str = "") -> str:
            return f"{value:{sign},.2f} {d.get('currency')}" if isinstance(value, (int, float)) else repr(value)

        def side(label: Any) -> str:
            return shortened(label, repr) if isinstance(label, str) else repr(label)

        total_a, total_b = d.get("total_a"), d.get("total_b")
        both = all(isinstance(t, (int, float)) for t in (total_a, total_b))
        delta = f", delta {money(self.total_delta, '+')} ({self.delta_pct_text})" if both else ""
        tables = ", ".join(f"{name} {len(frame)}" for name in COMPARISON_KEPT
                           if isinstance(frame := d.get(_KEPT[name]), pd.DataFrame))
        notes = d.get(_KEPT["notes"])
        noted = f"; {counted(len(notes), 'note')}" if isinstance(notes, list) else ""
        basis = "present values" if self.same_basis else "present values, not like for like"
        return (f"Comparison(a={side(d.get('label_a'))} {money(total_a)}, b={side(d.get('label_b'))} {money(total_b)}"
                f"{delta}, {basis}; tables (rows): {tables}{noted})")

    def to_dict(self) -> dict:
        return clean({"a": self.label_a, "b": self.label_b, "currency": self.currency,
                       "inputs": records(self.inputs), "fleet": records(self.fleet),
                       "costs": records(self.costs), "totals": self.totals, "basis": self.basis,
                       "same_basis": self.same_basis, "status": self.status, "notes": list(self.notes),
                       "total_differs_with_same_inputs": self.total_differs_with_same_inputs,
                       "provenance": records(self.provenance), "prices": records(self.prices),
                       "sides": self.sides})


# The tables, notes and sides of a Comparison, each kept under a private name and given out as a copy
# (engine.result.keep_to_itself); its plans keep their own (a SavedPlan is read from a file the comparison left)
COMPARISON_KEPT = ("inputs", "fleet", "costs", "notes", "provenance", "prices", "inputs_shown", "sides")
_KEPT = keep_to_itself(Comparison, COMPARISON_KEPT, "comparison")


# ---------------------------------------------------------------------------------------------------
# Saved plans

PLAN_KEYS = ("scenario", "status", "currency", "total", "costs", "fleet")
MAX_PLAN_BYTES = 64 * 1024 * 1024
# The statuses of a plan (engine.solve): optimal, or feasible when the solver stopped at its limit with a
# fleet not proven best. `infeasible`, `unbounded` and `not_solved` runs give no plan to compare.
PLAN_STATUSES = ("optimal", "feasible")
# How far a saved plan's costs may sum from its total: the writer's total is their sum, so only float
# rounding (or a total rounded to the cent by hand) separates them.
COST_SUM_TOLERANCE = 0.01
# The most a saved fleet row's units, hours or cost may be in size: a planner's plans hold far less (the model
# refuses larger demand and prices), and deltas of rows beyond it overflow to inf
MAX_FLEET_NUMBER = 1e15
MONEY_ROUNDING = 0.005   # half a cent: a difference below it is float noise, shown as 0


@dataclass
class SavedPlan:
    """A plan read back from its JSON: what a comparison needs (fleet, costs, total, currency, the
    scenario solved), without the cash flows and offers of a solved Plan."""

    scenario_name: str
    currency: str
    horizon_months: int | None
    status: str
    total: float
    costs: pd.DataFrame       # category, cost
    fleet: pd.DataFrame
    scenario: Scenario
    version: str | None = None
    generated_at: str | None = None
    source: str = ""
    solver: dict = field(default_factory=dict)   # name, status, gap … as saved (empty when not)
    prices: dict = field(default_factory=dict)   # source, as_of … as saved (empty when not)
    prices_used: pd.DataFrame = field(default_factory=pd.DataFrame)   # FLEET_KEY + PRICE_FIELDS as saved
    saved_prices_used: bool = True   # False: saved without `prices_used` (an older planner): prices not compared
    # each field of its scenario naming a file → the path as saved and its content's hash (None: saved before
    # the planner recorded them, `input_files`)
    input_files: dict = field(default_factory=dict)
    start: str | None = None   # month 1 of the plan as saved (YYYY-MM: plan --start); None where it does not say

    def __setattr__(self, name: str, value) -> None:
        if name in _SAVED_PRIVATE:   # a copy: a later edit of the frame or dict given changes nothing of the plan
            self.__dict__[_SAVED_PRIVATE[name]] = copied(value)
        else:
            super().__setattr__(name, value)

    def __setstate__(self, state: dict) -> None:
        """Unpickled: a SavedPlan pickled before it kept its tables and dicts to itself holds them under their own
        names."""
        self.__dict__.update({_SAVED_PRIVATE.get(k, k): v for k, v in state.items()})


# The tables and dicts of a SavedPlan (costs, fleet, prices_used; solver, prices, input_files), kept as a Plan's are
# (engine.result.keep_to_itself): each read a copy, so a caller's edit of `saved.fleet` or `saved.prices` changes
# nothing of it nor of a comparison made of it after; a changed one is set whole (`saved.prices = {...}`)
SAVED_PLAN_KEPT = annotated(SavedPlan, *KEPT_KINDS)
_SAVED_PRIVATE = keep_to_itself(SavedPlan, SAVED_PLAN_KEPT, "saved plan")


@dataclass(frozen=True)
class InputFile:
    """A file a side's scenario names: `path` as its scenario file wrote it (relative to its folder, or absolute where
    the file wrote it so; absolute in a plan saved before `input_files`), `sha256` the first 12 hex digits of its
    content's hash (None: not known — a plan saved before they were recorded, a file that could not be read) and
    `absolute`, its absolute path where known."""

    path: str
    sha256: str | None
    absolute: str | None = None


def plan_from_dict(doc: Any, source: str = "<dict>") -> SavedPlan:
    """A SavedPlan from the object of `plan_to_dict`; PlannerError (one line) when `doc` is not a plan,
    holds no plan (infeasible), or was saved without its scenario."""
    if not isinstance(doc, dict):
        raise PlannerError(f"{source}: not a plan (expected the JSON object of `fleetplan plan --format json`)")
    if doc.get("status") == "infeasible" and "fleet" not in doc:
        raise PlannerError(f"{source}: holds no plan: infeasible ({doc.get('reason', 'no reason given')})")
    missing = [k for k in PLAN_KEYS if k not in doc]
    if missing:
        raise PlannerError(f"{source}: not a plan (expected the JSON of `fleetplan plan --format json`; "
                           f"missing {', '.join(missing)})")
    if not isinstance(doc["scenario"], str):
        raise PlannerError(f"{source}: scenario is {_shown(doc['scenario'])}; expected the scenario's name as text")
    if doc["status"] not in PLAN_STATUSES:
        raise PlannerError(f"{source}: status is {_shown(doc['status'])}; expected {' or '.join(PLAN_STATUSES)} "
                           "(a solve that ended otherwise holds no plan to compare)")
    total = _number(doc["total"], source, "total")
    costs = _costs(doc["costs"], total, source)
    inputs = doc.get("scenario_inputs")
    if not isinstance(inputs, dict):
        raise PlannerError(f"{source}: the plan does not carry its scenario (scenario_inputs; saved by "
                           f"version {doc.get('version') or 'before 0.1'}): plan it again to compare it")
    workloads = inputs.get("workloads")
    # refused before each is checked: 100,000 workloads gave a problem each, a 7 MB message
    if isinstance(workloads, list) and len(workloads) > MAX_WORKLOADS:
        raise PlannerError(f"{source}: {INPUTS}.workloads: expected at most {MAX_WORKLOADS:,} entries, got "
                           f"{len(workloads):,} (a scenario's limit)")
    try:   # compare never plans a saved plan again: the files its scenario named may have moved since
        scenario = parse_scenario(inputs, origin=INPUTS, check_files=False)
        fleet = _fleet_rows(doc["fleet"], source)
        for col in FLEET_KEY + ["units", "instance_hours", "cost"]:
            if col not in fleet:
                fleet[col] = pd.Series(dtype=float if col in ("units", "instance_hours", "cost") else object)
        for col in ("units", "instance_hours", "cost"):
            fleet[col] = pd.to_numeric(fleet[col], errors="raise").astype(float)
    except ScenarioError as exc:
        problems = "; ".join(shown_problems([_in_inputs(p) for p in exc.problems]))
        if _newer_than_this(doc.get("version")):
            raise PlannerError(f"{source}: looks saved by a newer planner (version {doc['version']}; this one is "
                               f"{__version__}), whose scenarios this one cannot read: {problems}. Upgrade this planner "
                               "(pip install -U gpu-fleet-planner) to compare it, or plan its scenario again with this "
                               "one") from None
        raise PlannerError(f"{source}: {problems}") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise PlannerError(f"{source}: not a readable plan ({exc})") from None
    if doc["currency"] != scenario.currency:   # printed as the totals' unit: only the code its scenario holds
        raise PlannerError(f"{source}: currency {_shown(doc['currency'])} is not the currency of its scenario_inputs "
                           f"({scenario.currency}); expected the plan as `fleetplan plan --format json` saved it")
    horizon = doc.get("horizon_months", scenario.horizon_months)   # older plans may not say it
    if isinstance(horizon, bool) or horizon != scenario.horizon_months:   # the months its totals sum
        raise PlannerError(f"{source}: horizon_months {_shown(horizon)} is not the horizon of its scenario_inputs "
                           f"({scenario.horizon_months}); expected the plan as `fleetplan plan --format json` saved it")
    return SavedPlan(scenario_name=str(doc["scenario"]), currency=scenario.currency,
                     horizon_months=doc.get("horizon_months"), status=str(doc["status"]), total=total,
                     costs=costs, fleet=fleet, scenario=scenario, version=doc.get("version"),
                     generated_at=doc.get("generated_at"), source=source,
                     solver=doc["solver"] if isinstance(doc.get("solver"), dict) else {},
                     prices=doc["prices"] if isinstance(doc.get("prices"), dict) else {},
                     prices_used=_price_rows(doc, source), saved_prices_used="prices_used" in doc,
                     input_files=_saved_files(doc, scenario, source), start=_saved_start(doc.get("start")))


def _saved_start(start: Any) -> str | None:
    """A saved plan's `start` (month 1, YYYY-MM) as it reads it; None where it has none (undated, or saved before plans
    recorded it) or holds anything but a month (a hand-edited plan)."""
    return start if isinstance(start, str) and re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", start) else None


def _newer_than_this(version: Any) -> bool:
    """Whether `version` (a saved plan's) names a planner newer than this one: 0.2.0 after 0.1.0 (its leading
    numbers compared; False for text that is no version)."""
    saved, this = _version_numbers(version), _version_numbers(__version__)
    return saved is not None and this is not None and saved > this


def _version_numbers(version: Any) -> tuple[int, ...] | None:
    found = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", version) if isinstance(version, str) else None
    return tuple(int(n or 0) for n in found.groups()) if found else None


HASH_TEXT = re.compile(r"[0-9a-f]{12,64}")


def _saved_files(doc: dict, scenario: Scenario, source: str) -> dict[str, InputFile]:
    """Each field of a saved plan's scenario naming a file → its InputFile: its content's hash from the plan's
    `input_files` (None for a plan saved before them, or a field they do not hold); PlannerError naming the
    field when an entry is not {"path": text, "sha256": hex digits or null}. Entries for other fields (a newer
    planner's) are not read."""
    saved = doc.get("input_files")
    if saved is not None and not isinstance(saved, dict):
        raise PlannerError(f"{source}: input_files is {_shown(saved)}; expected an object of field: "
                           '{"path": …, "sha256": …}, as `fleetplan plan --format json` writes it')
    files = {}
    for name, path in scenario_files(scenario).items():
        entry = (saved or {}).get(name)
        if entry is not None and not (isinstance(entry, dict) and isinstance(entry.get("path"), str)
                                      and (entry.get("sha256") is None or (isinstance(entry["sha256"], str)
                                                                           and HASH_TEXT.fullmatch(entry["sha256"])))):
            raise PlannerError(f"{source}: input_files.{name} is {_shown(entry)}; expected "
                               '{"path": "…", "sha256": 12 hex digits or null}, as `fleetplan plan --format json` writes it')
        sha = entry.get("sha256") if isinstance(entry, dict) else None
        files[name] = InputFile(path, sha[:HASH_HEX_DIGITS] if sha else None, path if os.path.isabs(path) else None)
    return files


def _in_inputs(problem: str) -> str:
    """A problem of a saved plan's scenario located by its field path in the JSON (`scenario_inputs.workloads[3].
    name: …`): the parsed dict has no lines, so parse_scenario places a problem at its field only."""
    text = problem.removeprefix(f"{INPUTS}: ")
    return f"{INPUTS}.{text}" if text != problem else problem


def _price_rows(doc: dict, source: str) -> pd.DataFrame:
    """The `prices_used` rows of saved plan `doc` a comparison reads (FLEET_KEY as text, PRICE_FIELDS as numbers,
    NaN where a cell is not one); empty for a plan saved without them. Only shown, never planned with: a tampered
    cell shows as it was saved, or blank; but rows that are no list of objects with their offer's key are refused
    as the fleet's are (_keyed_rows): they were read as no prices, none compared, and nothing said so."""
    if "prices_used" not in doc:
        return pd.DataFrame(columns=[*FLEET_KEY, *PRICE_FIELDS])
    rows = doc["prices_used"]
    _keyed_rows(rows, source, "prices_used", "offer the fleet uses", " and its unit prices")
    table = pd.DataFrame.from_records(rows, columns=[*FLEET_KEY, *PRICE_FIELDS])
    for col in PRICE_FIELDS:
        table[col] = table[col].map(_float_or_nan).astype(float)
    return table


def _float_or_nan(value: Any) -> float:
    """A saved cell as a float: NaN where it is no number (text, true, null) or one no float holds (an integer of
    400 digits is JSON too: float() overflows on it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return math.nan
    try:
        return float(value)
    except OverflowError:
        return math.nan


def _shown(value: Any) -> str:
    """A value of a saved plan as a message shows it: JSON (NaN, true, "text"), at most 60 characters."""
    try:
        return json.dumps(value, default=str)[:60]
    except (RecursionError, ValueError):   # nested beyond the encoder's depth (a hand-edited plan)
        return f"a {type(value).__name__} nested too deep to show"


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float))


def _number(value: Any, source: str, name: str, null: bool = False) -> float | None:
    """`value` as a float; PlannerError naming `name` when it is not a finite number (true and false are
    not numbers; null only where `null`: a fleet row's units and hours)."""
    if value is None and null:
        return None
    number = _float_or_nan(value)
    if not math.isfinite(number):
        raise PlannerError(f"{source}: {name} is {_shown(value)}; expected a finite number")
    return number


def _costs(costs: Any, total: float, source: str) -> pd.DataFrame:
    """The costs by category (category, cost); PlannerError when one is not a number or they do not sum
    to `total` (a plan's total is the sum of its costs: an edited file would compare numbers it never had)."""
    if not isinstance(costs, dict):
        raise PlannerError(f"{source}: costs is {_shown(costs)}; expected an object of category: cost")
    for category in costs:
        if category not in COST_CATEGORIES:
            raise PlannerError(f"{source}: costs.{_shown(category)[1:-1]}: not a cost category (expected "
                               f"{', '.join(COST_CATEGORIES)})")
    values = [_number(v, source, f"costs.{k}") for k, v in costs.items()]
    try:
        summed, size = math.fsum(values), math.fsum(map(abs, values))
    except OverflowError:   # finite costs of ±1e308: no plan sums to more than a float holds
        summed = size = math.inf
    if not math.isfinite(size) or abs(summed - total) > COST_SUM_TOLERANCE + 1e-9 * (abs(total) + size):
        raise PlannerError(f"{source}: costs sum to {_money(summed)} but total is {_money(total)}; expected the costs "
                           "by category to sum to the total (was the file edited?)")
    return pd.DataFrame({"category": list(costs), "cost": values})


def _money(x: float) -> str:
    """An amount in a message: to the cent, or in powers of ten where that would run to hundreds of digits."""
    return f"{x:,.2f}" if abs(x) < 1e15 else f"{x:.3g}"


def _fleet_rows(rows: Any, source: str) -> pd.DataFrame:
    """The fleet of a saved plan as a table; PlannerError naming the row and field when it is not a list
    of objects whose key fields (FLEET_KEY, what `compare` matches rows on) are text and whose units, hours and
    cost are there, numbers (units and hours may be null)."""
    _keyed_rows(rows, source, "fleet", "fleet row", ", units, instance_hours and cost")
    seen: dict[tuple, int] = {}
    for i, row in enumerate(rows, start=1):
        for col in ("units", "instance_hours", "cost"):
            # every row the planner writes has them: one without showed its cost as 0 beside the other side's
            if col not in row:
                raise PlannerError(f"{source}: fleet row {i}: {col} is missing; expected a number"
                                   + (" or null" if col != "cost" else "") + " (as `fleetplan plan --format json` "
                                   "writes it)")
            number = _number(row[col], source, f"fleet row {i}: {col}", null=col != "cost")
            if col != "cost" and number is not None and number < 0:   # -5 cards were shown beside "total +0"
                raise PlannerError(f"{source}: fleet row {i}: {col} is {_shown(row[col])}; expected 0 or more")
            # a row is read as written, but within what a plan can hold: costs of ±1.7e308 in two plans
            # compared as a delta of -inf beside "total +0"
            if number is not None and abs(number) > MAX_FLEET_NUMBER:
                raise PlannerError(f"{source}: fleet row {i}: {col} is {_shown(row[col])}; expected a number "
                                   f"from -{MAX_FLEET_NUMBER:.0e} to {MAX_FLEET_NUMBER:.0e}".replace("e+", "e"))
        # One row per unit (unit_id: the offer id, zone included). Two units may share FLEET_KEY (two zones of
        # one instance type): compare sums them. The same unit twice is a file edited or joined by hand.
        unit = tuple(_shown(row.get(col)) for col in [*FLEET_KEY, "unit_id"])
        if unit in seen:
            raise PlannerError(f"{source}: fleet rows {seen[unit]} and {i} are the same unit "
                               f"({', '.join(str(row.get(col)) for col in FLEET_KEY)}); expected each unit once")
        seen[unit] = i
    return pd.DataFrame(rows)


def _keyed_rows(rows: Any, source: str, name: str, one_per: str, fields: str) -> None:
    """PlannerError naming the row and field where the saved list `name` (fleet, prices_used) is not a list of
    objects whose key fields (FLEET_KEY, what `compare` matches rows on) are text: `one_per` says what a row is,
    `fields` what it holds after its key (", units, …")."""
    if not isinstance(rows, list):
        raise PlannerError(f"{source}: {name}: expected a list of objects, one per {one_per} (as `fleetplan plan "
                           "--format json` writes it)")
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise PlannerError(f"{source}: {name} row {i} is {_shown(row)}; expected an object of "
                               f"{', '.join(FLEET_KEY)}{fields} (as `fleetplan plan --format json` writes it)")
        for col in FLEET_KEY:
            value = row.get(col)
            if col not in row:   # compare matches rows on it: a blank key would match nothing, or another blank
                raise PlannerError(f"{source}: {name} row {i}: {col} is missing; expected text "
                                   f"(e.g. {col}: \"{_EXAMPLE[col]}\")")
            if not isinstance(value, str):
                raise PlannerError(f"{source}: {name} row {i}: {col} is {_shown(value)}; expected text "
                                   f"(e.g. {col}: \"{_EXAMPLE[col]}\")")


_EXAMPLE = {"provider": "aws", "region": "us-east-1", "sku": "g5.xlarge", "gpu": "A10G", "purchase_option": "on_demand"}


def load_plan_json(path: str | Path) -> SavedPlan:
    """A SavedPlan from a plan.json file; PlannerError (one line) when it cannot be read or is not a plan."""
    path = Path(path)
    try:
        with open_for_reading(path) as f:
            data = f.read(MAX_PLAN_BYTES + 1)
    except OSError as exc:
        raise PlannerError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return _plan_of(data, path)


def read_side(path: str | Path) -> SavedPlan | Scenario:
    """What the file at `path` holds for a comparison: the saved plan (known by its content, as `is_plan_json`
    says), else the scenario. The file is read once, so a plan through a pipe (`compare <(cat plan.json) b.yaml`)
    is read as a plan, and a scenario through one as a scenario; ScenarioError or PlannerError when neither."""
    path = Path(path)
    try:
        with open_for_reading(path) as f:
            data = f.read(64)
            if _looks_like_json(data) or path.suffix.lower() == ".json":
                data += f.read(MAX_PLAN_BYTES + 1 - len(data))
            elif not path.is_file():   # a pipe read once: the scenario is parsed from these bytes
                data += f.read(4 * (MAX_SCENARIO_CHARS + 1) - len(data))   # UTF-8: at most 4 bytes a character
    except OSError:   # not found, a folder, unreadable: the scenario reader says which, as for any scenario
        return load_scenario_file(path)
    doc, strict = _parsed(data)
    if _holds_plan(doc, path):
        # parsed once where the JSON is a plan's without a key given twice; else _plan_of says what is wrong
        return plan_from_dict(doc, str(path)) if strict else _plan_of(data, path)
    if path.is_file():
        return load_scenario_file(path)
    limit = 4 * (MAX_SCENARIO_CHARS + 1)
    if found := binary_kind(data, whole=len(data) < limit):   # as the scenario reader says it of a file
        raise ScenarioError([not_the_file(str(path), found, "a scenario YAML file")], str(path))
    try:   # a cut at the limit may split a character: the text is refused as too long anyway
        text = codecs.getincrementaldecoder("utf-8")().decode(data, final=len(data) < limit)
    except UnicodeDecodeError as exc:
        raise ScenarioError([f"{path}:{not_utf8(exc)}"], str(path)) from None
    return load_scenario_text(text, origin=str(path), base_dir=scenario_folder(path, regular=False))


def _plan_of(data: bytes, path: Path) -> SavedPlan:
    """The SavedPlan of a file's bytes (at most MAX_PLAN_BYTES + 1 read); PlannerError when they are not one."""
    if len(data) > MAX_PLAN_BYTES:
        raise PlannerError(f"{path}: larger than {MAX_PLAN_BYTES // 2**20} MiB; not a plan")
    try:
        doc = _loads(data.decode("utf-8-sig"))   # a byte-order mark is not content
    except _DuplicateKey as exc:
        raise PlannerError(f"{path}: the key {shortened(exc.key, repr)} is given twice in one object; expected the plan as "
                           "`fleetplan plan --format json` saved it") from None
    except _LongNumber as exc:
        raise PlannerError(f"{path}: {exc}; expected the plan as `fleetplan plan --format json` saved it") from None
    except (ValueError, RecursionError) as exc:   # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise PlannerError(f"{path}: not JSON ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    return plan_from_dict(doc, str(path))


def is_plan_json(x: Any) -> bool:
    """Whether `x` names a saved plan, by its content: a file holding a JSON object with a plan's `status`
    (`plan.json`, `plan.out`, `plan`); a file ending in .json unless it holds a scenario (`workloads`, no
    `status`: read as the scenario it is), so that another .json is told why it is not a plan. A dict of
    a plan is read as one too. A scenario has no `status` key, so it is never taken for a plan. A pipe is
    not read here (what is read from it is gone): `read_side` reads one."""
    if isinstance(x, dict):
        return "fleet" in x and "scenario_inputs" in x
    if isinstance(x, str):
        if "\n" in x:
            return False
        x = Path(x)
    if not isinstance(x, Path):
        return False
    return _holds_plan(_json_object(x), x)


def _holds_plan(doc: Any, path: Path) -> bool:
    """Whether a file at `path` whose JSON is `doc` (None: none) is read as a saved plan (`is_plan_json`)."""
    if path.suffix.lower() == ".json":
        return not (isinstance(doc, dict) and "workloads" in doc and "status" not in doc)
    return isinstance(doc, dict) and "status" in doc and any(k in doc for k in ("fleet", "total", "scenario_inputs",
                                                                               "reason"))


def _looks_like_json(head: bytes) -> bool:
    """Whether a file's first bytes open a JSON object (YAML, a scenario's `name: …` first, does not)."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")


def _parsed(data: bytes) -> tuple[Any, bool]:
    """(the JSON in a file's bytes, or None when they are too many or not a JSON object; whether it was read
    strictly, no object giving a key twice). What it holds tells a plan from a scenario; a key given twice is
    named when it is read as a plan (_plan_of), by the scenario reader for a scenario. A 50 MB plan is parsed
    once, not twice (0.3 s)."""
    if len(data) > MAX_PLAN_BYTES or not _looks_like_json(data[:64]):
        return None, False
    try:
        text = data.decode("utf-8-sig")
        try:
            return _loads(text), True
        except _DuplicateKey:
            return json.loads(text), False
    except (ValueError, RecursionError):
        return None, False


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(f"duplicate key {shortened(key, repr)}")
        self.key = key

    def __reduce__(self):   # pickled as it was made: its args hold only the message
        return type(self), (self.key,)


def _loads(text: str) -> Any:
    """json.loads, refusing a key given twice in one object (_DuplicateKey): json keeps the last one without a
    word, and a plan edited to hold two `status` keys compared as the second."""
    def unique(pairs: list) -> dict:
        obj = dict(pairs)
        if len(obj) < len(pairs):
            seen = set()
            raise _DuplicateKey(next(k for k, _ in pairs if k in seen or seen.add(k)))
        return obj
    return json.loads(text, object_pairs_hook=unique, parse_int=_whole_number)


# int() refuses more digits (sys.get_int_max_str_digits()) in Python's words and advice ("use
# sys.set_int_max_str_digits()"), which a user cannot act on; fewer are read, and a field too large is named
MAX_INT_DIGITS = 4300


class _LongNumber(ValueError):
    pass


def _whole_number(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _LongNumber(f"a whole number of {digits:,} digits (at most {MAX_INT_DIGITS:,} read)")
    return int(text)


def _json_object(path: Path) -> Any:
    """The JSON in the regular file at `path`, or None when it is no such file, too large, or not JSON."""
    try:
        if not path.is_file():
            return None
        with open_for_reading(path) as f:
            data = f.read(64)
            if not _looks_like_json(data):
                return None   # YAML: not read further
            return _parsed(data + f.read(MAX_PLAN_BYTES + 1 - len(data)))[0]
    except (OSError, ValueError):   # ValueError: a name holding NUL
        return None


def _read(x: Any) -> Plan | SavedPlan | Scenario:
    """A side as what it is: a saved plan or a Plan from `plan()` (not solved again), else its scenario,
    validated (a scenario's errors are reported before either side is solved)."""
    if isinstance(x, Path):
        x = read_side(x)
    if isinstance(x, SavedPlan):
        return x
    if isinstance(x, Scenario):   # one the loader did not validate (model_copy(update=…)) is, before either is solved
        return checked_scenario(x)
    if is_plan_json(x):
        return plan_from_dict(x) if isinstance(x, dict) else load_plan_json(x)
    if isinstance(x, Plan):
        if getattr(x, "scenario", None) is None:
            raise PlannerError("compare needs plans made by planner.plan() (they carry their scenario), "
                               "or scenarios")
        return x
    return load_scenario(x)


class SidesUnreadable(ScenarioError):
    """Neither side of a comparison can be read. A ScenarioError, as a side's alone mostly is (a scenario that does
    not load): code that catches that around `compare` catches both sides failing too. `errors`: each side's error
    ({"a": …, "b": …}); `messages`: what each says, a's then b's, each under its file's name (a side given as no
    file: under its side and name, "a (scenario text): …"); `problems`: both sides' lines, a's then b's, led as
    their messages are (a side's error that is no ScenarioError, a saved plan's, is one line); `origin`: "compare".
    The message is both messages, one after the other, not a ScenarioError's count and list."""

    def __init__(self, errors: dict[str, PlannerError], messages: list[str], problems: list[str]):
        self.errors, self.messages, self.problems, self.origin = dict(errors), list(messages), list(problems), "compare"
        self.exit_code = errors["b"].exit_code   # as b's alone, the last said
        PlannerError.__init__(self, "\n".join(self.messages))

    def __reduce__(self):   # pickled as it was made: its args hold only the message
        return type(self), (self.errors, self.messages, self.problems), self.__dict__


def read_sides(a: Any, b: Any) -> tuple[Plan | SavedPlan | Scenario, Plan | SavedPlan | Scenario]:
    """Both sides of a comparison as `_read` reads them (a path by `read_side`, once: a saved plan may come through a
    pipe). Where one cannot be read, its error; where neither can, SidesUnreadable with both: a comparison that said
    the first file's problems only said the second's once they were fixed."""
    read, errors = {}, {}
    for side, x in (("a", a), ("b", b)):
        try:
            read[side] = _read(x)
        except PlannerError as exc:
            errors[side] = exc
    if len(errors) == 2:
        # a file's errors name it; a side given as text, a dict or an object is named as compare names it
        leads = {side: "" if _file_of(x, None) is not None else f"{side} ({_name_of(x)}): "
                 for side, x in (("a", a), ("b", b))}
        messages = [leads[side] + str(errors[side]) for side in leads]
        if messages[0] != messages[1]:   # one file given twice: its problems said once
            problems = [leads[side] + line for side, exc in errors.items()
                        for line in (exc.problems if isinstance(exc, ScenarioError) else [str(exc)])]
            raise SidesUnreadable(errors, messages, problems)
    if errors:
        raise next(iter(errors.values()))
    return read["a"], read["b"]


def _prepared(x: Plan | SavedPlan | Scenario, name: str, side: str, store: str | Path | None,
              max_dispatch_variables: int | None, max_purchase_variables: int | None = None) -> Inputs | None:
    """The inputs of a side read by `_read` as a scenario (None for a plan): its prices read, its inputs built
    and its model's size checked, without a solve (engine.run.checked_inputs)."""
    if not isinstance(x, Scenario):
        return None
    try:
        return checked_inputs(x, store, max_dispatch_variables, max_purchase_variables)
    except ModelTooLarge as exc:
        raise exc.naming(f"{side} ({name}): ") from None


def _planned(x: Plan | SavedPlan | Scenario, name: str, solver: str, baselines: bool, side: str,
             store: str | Path | None, max_dispatch_variables: int | None = None,
             inputs: Inputs | None = None, max_purchase_variables: int | None = None) -> Plan | SavedPlan:
    """A side read by `_read` as a plan: its scenario planned here (from `inputs`, its `_prepared` inputs)."""
    if not isinstance(x, Scenario):
        return x
    try:
        return plan(x, solver=solver, baselines=baselines, store=store, max_dispatch_variables=max_dispatch_variables,
                    inputs=inputs, max_purchase_variables=max_purchase_variables)
    except (InfeasibleError, SolverError) as exc:   # say which side has no fleet: both are planned here
        raise type(exc)(f"{side} ({name}): {exc}") from None
    except ModelTooLarge as exc:
        raise exc.naming(f"{side} ({name}): ") from None


# What a plan's prices.source says when its prices came from its scenario's offers CSV: the same words on both
# sides, as the CSV itself is compared by its content among the inputs (`prices.source`), not by where it lay
OFFERS_CSV = "the scenario's offers CSV (prices.source)"


def _provenance(p: Plan | SavedPlan, files: dict[str, InputFile]) -> dict:
    """What plan `p` records of where its prices came from, which its scenario does not say (PROVENANCE_KEYS
    of its `prices`, its store snapshots without their age, which moves on, or "packaged snapshot"), and the
    planner that made it. `files`: its scenario's files (`_files_of`)."""
    prices = p.prices if isinstance(getattr(p, "prices", None), dict) else {}
    # as saved, each is text or a number; anything else (a hand-edited plan) as the start of its JSON text: a
    # value nested 500 deep stopped the JSON output with a RecursionError
    out = {f"prices used.{k}": prices[k] if _scalar(prices[k]) else _shown(prices[k]) for k in PROVENANCE_KEYS
           if k in prices}
    offers = files.get("prices.source")
    if offers is not None and prices.get("source") in (offers.path, offers.absolute):
        out["prices used.source"] = OFFERS_CSV
    if isinstance(prices.get("snapshots"), list) and prices["snapshots"]:
        out["prices used.snapshots"] = ", ".join(
            f"{s.get('provider')} #{s.get('id')} fetched {s.get('fetched_at')}" if isinstance(s, dict) else _shown(s)
            for s in prices["snapshots"])
    elif prices.get("source") == "snapshot":   # no store snapshot: the packaged one (a store falls back to it)
        out["prices used.snapshots"] = "packaged snapshot"
    data = prices.get("packaged_data")
    if isinstance(data, dict) and isinstance(data.get("sha256"), dict):   # a plan saved before has none: unknown
        def text(value) -> str:   # as saved: text, else as JSON (a hand-edited plan)
            return value[:60] if isinstance(value, str) else _shown(value)

        hashes = ", ".join(f"{Path(text(path)).name} {text(digest)}" for path, digest in list(data["sha256"].items())[:20])
        out["prices used.packaged_data"] = f"built {text(data.get('built_at'))}; sha256 {hashes}"
    out["planner version"] = p.version if isinstance(p, SavedPlan) else __version__
    return out


def _provenance_diff(pa: Plan | SavedPlan, pb: Plan | SavedPlan, files_a: dict, files_b: dict) -> pd.DataFrame:
    """path, a, b of each thing `_provenance` records that differs between the two plans (None: not recorded;
    cells of mixed kinds kept as they are, not a column of floats with NaN for None)."""
    a, b = _provenance(pa, files_a), _provenance(pb, files_b)
    # a side not pinned to a snapshot, beside one that is: what it was priced with in the pin's place
    for side, p, other in ((a, pa, b), (b, pb, a)):
        if PINNED in other and PINNED not in side:
            side[PINNED] = _unpinned(p)
    # the packaged data of a plan saved before it was recorded is not known: no difference to show
    unknown = {k for k in ("prices used.packaged_data",) if k not in a or k not in b}
    return pd.DataFrame([{"path": k, "a": a.get(k), "b": b.get(k)} for k in dict.fromkeys([*a, *b])
                         if a.get(k) != b.get(k) and k not in unknown], columns=["path", "a", "b"], dtype=object)


PINNED = "prices used.pinned_snapshot"


def _unpinned(p: Plan | SavedPlan) -> str | None:
    """What plan `p`, not pinned to a store snapshot, was priced with, as its `prices` record it: "not pinned: the
    store's latest at run time, #2" (the highest id of its snapshots: pinning it gives the same prices), "not pinned:
    the packaged snapshot built 2026-12-04, its cloud prices as of 2026-07-20", "not pinned: the scenario's offers
    CSV"; None ("(not recorded)") where it records none of these."""
    prices = p.prices if isinstance(getattr(p, "prices", None), dict) else {}
    snapshots = prices.get("snapshots") if isinstance(prices.get("snapshots"), list) else []
    ids = [s["id"] for s in snapshots if isinstance(s, dict) and isinstance(s.get("id"), int)
           and not isinstance(s.get("id"), bool)]
    source = prices.get("source")
    if source == "store" and ids:
        return f"not pinned: the store's latest at run time, #{max(ids)}"
    if source == "snapshot":
        data = prices.get("packaged_data") if isinstance(prices.get("packaged_data"), dict) else {}
        built = f" built {data['built_at'][:60]}" if isinstance(data.get("built_at"), str) and data["built_at"] else ""
        return f"not pinned: the packaged snapshot{built}{_cloud_dates(prices)}"
    if isinstance(source, str) and source and source != "store":
        return "not pinned: an offers CSV (prices.source)"
    return None


def _cloud_dates(prices: dict) -> str:
    """", its cloud prices as of 2026-07-20" (or "… 2024-04-04 to 2026-07-20") of a plan's `prices.cloud_dates`; ""
    where it records none (a plan saved before they were recorded, or no cloud price used)."""
    dates = prices.get("cloud_dates") if isinstance(prices.get("cloud_dates"), dict) else {}
    newest, oldest = dates.get("as_of"), dates.get("as_of_oldest") or dates.get("as_of")
    if not (isinstance(newest, str) and newest and isinstance(oldest, str)):
        return ""
    return f", its cloud prices as of {oldest[:10]}" + ("" if oldest[:10] == newest[:10] else f" to {newest[:10]}")


def _prices_of(p: Plan | SavedPlan) -> pd.DataFrame:
    """FLEET_KEY + PRICE_FIELDS of the offers plan `p` uses, one row per key (the first of two zones)."""
    table = p.prices_used if isinstance(p, SavedPlan) else prices_used(p)
    return table[[*FLEET_KEY, *PRICE_FIELDS]].drop_duplicates(FLEET_KEY)


def _price_diff(pa: Plan | SavedPlan, pb: Plan | SavedPlan) -> pd.DataFrame:
    """PRICE_COLUMNS of each unit price of an offer both plans use that differs (beyond float noise)."""
    both = _prices_of(pa).merge(_prices_of(pb), on=FLEET_KEY, suffixes=("_a", "_b"))
    rows = []
    for row in both.itertuples(index=False):
        values = row._asdict()
        for name in PRICE_FIELDS:
            a, b = values[f"{name}_a"], values[f"{name}_b"]
            if pd.isna(a) and pd.isna(b):   # NaN or NA (term_months is Int64): no price on either side
                continue
            if pd.isna(a) or pd.isna(b) or not (a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))):
                rows.append({**{k: values[k] for k in FLEET_KEY}, "price": name, "a": a, "b": b})
    return pd.DataFrame(rows, columns=PRICE_COLUMNS)


def _name_of(x: Any) -> str:
    """A side's name in a message: its file name, or its scenario's name."""
    if isinstance(x, Path) or (isinstance(x, str) and names_a_file(x)):
        return Path(x).name
    return getattr(x, "name", None) or (x.get("name") if isinstance(x, dict) else None) or "scenario text"


def _names_alike(*sides: tuple[Path | None, Plan | SavedPlan | Scenario]) -> list[str]:
    """Each side (the file it was read from, what was read) named alike in a message: by its file where every side
    has one (a Scenario loaded from a file, given as it is, keeps it), else by its scenario's name, quoted — a
    Scenario object beside a file was named "r" against "eur.yaml"."""
    files = [file or loaded_from(read) for file, read in sides]
    if all(files):
        return [str(file) for file in files]
    return [repr(getattr(read, "scenario_name", None) or read.name) for _, read in sides]


def _file_of(x: Any, given: str | Path | None) -> Path | None:
    """The file a side was read from: `given` (the CLI's argument, read by read_side), the path given as the side,
    a saved plan's file or a Plan's scenario file; None for a side given as an object with none."""
    if given is not None:
        return Path(given)
    if isinstance(x, Path) or (isinstance(x, str) and names_a_file(x)):
        return Path(x)
    if isinstance(x, SavedPlan) and x.source != "<dict>":
        return Path(x.source)
    found = getattr(x, "scenario_file", None) if isinstance(x, Plan) else None
    return None if found is None else Path(found)


def side_facts(p: Plan | SavedPlan, file: Path | None) -> dict:
    """What a side is: `file` it was read from (None: given as an object), whether it is a saved plan, and when
    and by which planner version it was made (a saved plan's as saved, None where it does not say; a plan made
    here: this planner, and its generated_at once a report has stamped it), and a saved plan's `start` (month 1,
    YYYY-MM; None where it does not say, and for a plan made here, whose months no one dated)."""
    saved = isinstance(p, SavedPlan)
    return {"file": None if file is None else str(file), "saved_plan": saved,
            "generated_at": p.generated_at if saved else getattr(p, "generated_at", None),
            "version": p.version if saved else __version__,
            "start": getattr(p, "start", None) if saved else None}


def saved_line(facts: dict) -> str:
    """A saved plan's line under its name in a comparison: "saved 2026-12-06T02:18:23Z by planner 0.1.0", then
    "; month 1 = 2027-04" where it records its start (plan --start)."""
    when = facts.get("generated_at") or "at a time not recorded"
    version = facts.get("version") or "of a version not recorded"
    start = facts.get("start")
    return f"saved {when} by planner {version}" + (f"; month 1 = {start}" if start else "")


def compare(a: Any, b: Any, solver: str = DEFAULT_SOLVER, baselines: bool = False,
            store: str | Path | None = None, max_dispatch_variables: int | None = None,
            max_purchase_variables: int | None = None,
            files: tuple[str | Path | None, str | Path | None] = (None, None), **kwargs: Any) -> Comparison:
    """Compare two scenarios (Scenario, path, dict, YAML text), Plans from `plan()` or saved plans (a
    plan.json path, its dict, a SavedPlan); saved plans are read, not solved again. `store`: the price
    store of the scenarios planned here, as `plan(store=…)`; `max_dispatch_variables` and
    `max_purchase_variables` as `plan()`'s (a ModelTooLarge names the side). Both sides are read (`read_sides`:
    SidesUnreadable, with both files' problems, where neither can be), their currencies compared (PlannerError,
    naming each side's file and currency, where they differ), and each scenario side priced and its size checked,
    before either is solved.

    Reports the inputs that differ, the fleets side by side and the cost deltas by category (b − a), and
    what the plans record of their prices and planner that differs (`provenance`). The files a scenario names
    (offers and profile CSVs) are compared by their content. `files`: the files `a` and `b` were read from when
    they are given as what `read_side` read (the CLI's), for their names and the folder their scenarios name
    files against. A keyword argument it does not take is an UnknownKeyword (a PlannerError and a TypeError) with
    "did you mean" (`baseline=False`: baselines=…).
    """
    check_keywords("compare", compare, kwargs)
    check_limits(max_dispatch_variables=max_dispatch_variables, max_purchase_variables=max_purchase_variables)
    limits = (max_dispatch_variables, max_purchase_variables)
    file_a, file_b = _file_of(a, files[0]), _file_of(b, files[1])
    (name_a, name_b), (ra, rb) = (_name_of(a), _name_of(b)), read_sides(a, b)
    check_currencies(ra, rb, _names_alike((file_a, ra), (file_b, rb)))
    # Everything that needs no solve, of both sides, before either is solved: each scenario side's prices read,
    # its inputs built (once: its plan is made from them) and its size checked. Reading moves no store: a file at
    # the store's path that is no usable store is left as it is and fails the first side on it (PriceStoreUnusable).
    ia, ib = _prepared(ra, name_a, "a", store, *limits), _prepared(rb, name_b, "b", store, *limits)
    pa, pb = (_planned(ra, name_a, solver, baselines, "a", store, limits[0], ia, limits[1]),
              _planned(rb, name_b, solver, baselines, "b", store, limits[0], ib, limits[1]))
    for read, made, file in ((ra, pa, file_a), (rb, pb, file_b)):
        if isinstance(read, Scenario) and file is not None:   # named so after a change of the working folder too
            made.scenario_file = file.absolute()
    fa, fb = _by_key(held(pa, "fleet")), _by_key(held(pb, "fleet"))
    fleet = fa.merge(fb, on=FLEET_KEY, how="outer", suffixes=("_a", "_b"), indicator=True)
    order = list(dict.fromkeys([*map(tuple, fa[FLEET_KEY].to_numpy()), *map(tuple, fb[FLEET_KEY].to_numpy())]))
    fleet = fleet.set_index(FLEET_KEY).loc[order].reset_index()      # a's rows first, then b's new ones
    # A row absent on one side is none of it on that side: 0 hours and 0 cost there, as a sum or a difference of the
    # two sides expects (its hours had been NaN beside a cost of 0), and 0 units, but for an offer rented by the hour
    # (NaN units on the side that has it: the fleet table's own rule, no count), whose units are NaN on both sides:
    # its units_b − units_a is NaN either way, where 0 beside NaN read as a count on one side only.
    for side, other, only_other in (("a", "b", "right_only"), ("b", "a", "left_only")):
        absent = fleet["_merge"] == only_other
        fleet.loc[absent, [f"instance_hours_{side}", f"cost_{side}"]] = 0.0
        fleet.loc[absent & fleet[f"units_{other}"].notna(), f"units_{side}"] = 0.0
    fleet[["cost_a", "cost_b"]] = fleet[["cost_a", "cost_b"]].fillna(0.0)
    fleet["cost_delta"] = _delta(fleet["cost_b"], fleet["cost_a"])
    fleet = fleet[FLEET_KEY + ["units_a", "units_b", "instance_hours_a", "instance_hours_b",
                               "cost_a", "cost_b", "cost_delta"]].reset_index(drop=True)
    ca, cb = held(pa, "costs"), held(pb, "costs")
    costs = ca.merge(cb, on="category", how="outer", suffixes=("_a", "_b")).fillna(0.0)
    cats = list(dict.fromkeys([*ca["category"], *cb["category"]]))
    costs = costs.set_index("category").loc[cats].reset_index()
    costs["cost_delta"] = _delta(costs["cost_b"], costs["cost_a"])
    label_a, label_b = pa.scenario_name, pb.scenario_name
    if label_a == label_b:
        label_a, label_b = f"{label_a} (a)", f"{label_b} (b)"
    notes = [_not_proven(side, p) for side, p in (("a", pa), ("b", pb)) if p.status != "optimal"]
    # the label says it too: every report shows the labels, not every one shows the notes
    label_a, label_b = (f"{label} [{p.status}, not proven optimal]" if p.status != "optimal" else label
                        for label, p in ((label_a, pa), (label_b, pb)))
    files_a, files_b = _files_of(pa), _files_of(pb)
    inputs, shown, unjudged = _input_diff(pa.scenario, pb.scenario, files_a, files_b)
    notes += [_unjudged_note(side, p, fields) for side, p, fields in (("a", pa, unjudged["a"]), ("b", pb, unjudged["b"]))
              if fields]
    notes += [f"{side} was saved without unit prices: prices not compared" for side, p in (("a", pa), ("b", pb))
              if isinstance(p, SavedPlan) and not p.saved_prices_used]
    unlike = basis_note(plans_basis(pa, pb))
    if unlike:   # a total_delta read alone would pass for like for like: only basis and same_basis said otherwise
        notes.append(unlike)
    return Comparison(label_a, label_b, pa.currency, inputs, fleet, costs, pa.total, pb.total, pa, pb, notes,
                      _provenance_diff(pa, pb, files_a, files_b), _price_diff(pa, pb), shown,
                      {"a": side_facts(pa, file_a), "b": side_facts(pb, file_b)})


def check_currencies(ra: Plan | SavedPlan | Scenario, rb: Plan | SavedPlan | Scenario, names: tuple,
                     sides: tuple[str, str] = ("a", "b")) -> None:
    """PlannerError, before either side is solved, where the sides (as `_read` read them) are in different currencies:
    their totals cannot be compared (each scenario's prices are converted into its own currency). `names`: each side's
    file, else its name; `sides`: what the caller calls the sides (the dashboard's "A" and "B")."""
    if ra.currency != rb.currency:
        raise PlannerError(f"cannot compare plans in different currencies: {sides[0]} ({names[0]}) is in {ra.currency}, "
                           f"{sides[1]} ({names[1]}) in {rb.currency}; plan both in the same currency (a scenario's "
                           "`currency`, with `fx` rates for the prices in others)")


def plans_basis(pa: Plan | SavedPlan, pb: Plan | SavedPlan) -> dict:
    """What each side's totals sum: {"a"/"b": {"horizon_months", "discount_rate"}} (`Comparison.basis`)."""
    return {side: {"horizon_months": p.scenario.horizon_months, "discount_rate": p.scenario.discount_rate}
            for side, p in (("a", pa), ("b", pb))}


def basis_note(basis: dict) -> str | None:
    """What a reader of totals on different bases (`plans_basis`) must know, in `fleetplan compare`'s words: "not
    like for like: a sums 36 months at 0%/year, b 24 months at 10%/year (present values)"; None on the same basis."""
    a, b = basis["a"], basis["b"]
    if a == b:
        return None
    return (f"not like for like: a sums {a['horizon_months']} months at {a['discount_rate'] * 100:g}%/year, "
            f"b {b['horizon_months']} months at {b['discount_rate'] * 100:g}%/year (present values)")


COMPARED_MONEY = ("cost_a", "cost_b", "cost_delta")   # the money columns of a comparison's costs and fleet


def in_cents(table: pd.DataFrame) -> pd.DataFrame:
    """`table` (a comparison's costs or fleet) with its money columns (COMPARED_MONEY) rounded to the cent, as its
    CSV writes them: a delta b − a of two floats carries noise below the cent (7047.0 − 2731.26 is
    4315.739999999998), and present values hold digits no bill has."""
    money = [c for c in COMPARED_MONEY if c in table.columns]
    return table.assign(**{c: table[c].round(2) + 0.0 for c in money})   # + 0.0: 0, not "-0.0"


def compared_money_attrs(currency: str, basis: dict) -> dict:
    """The `attrs` of a comparison's costs and fleet (see Comparison): a plan's (engine.result.money_attrs) on the
    same basis; else each side's horizon and rate, and the delta not like for like."""
    a, b = basis["a"], basis["b"]
    if a == b:
        return money_attrs(dict.fromkeys(COMPARED_MONEY, PRESENT), currency, a["discount_rate"])
    words = dict(zip(COMPARED_MONEY, (f"{side['horizon_months']} months, {present_value_words(side['discount_rate'])}"
                                      for side in (a, b))))
    words["cost_delta"] = "b − a, not like for like"
    return {"currency": currency, "money_basis": "; ".join(f"{c}: {w}" for c, w in words.items()),
            "money_columns": words}


# ---------------------------------------------------------------------------------------------------
# The inputs that differ

# What an unset optional field means where "none" alone would not say it (the dashboard's Compare page shows
# inputs_shown, so it says the same)
UNSET_MEANS = {"onprem.capex_budget": "no cap", "onprem.capex_budget_per_year": "no cap",
               "onprem.power_cap_kw": "no cap", "constraints.max_cloud_share": "no cap", "prices.regions": "all regions"}
# a card override's figure not set: the catalog's value for the card applies (planner/data/onprem_cards.csv)
_CATALOG_FIGURE = re.compile(r"onprem\.card_overrides\.[^.]+\.(price|host_cost_per_card|busy_watts|idle_watts|"
                             r"cards_per_server|life_years|maintenance_rate_per_year)")
_OVERRIDE_CURRENCY = re.compile(r"onprem\.card_overrides\.([^.]+)\.currency")
# a custom card's own field: every one is there where the side has the card (defaults included), so one the side
# lacks is a card it does not have
_CUSTOM_CARD_FIELD = re.compile(r"onprem\.custom_cards\.[^.]+\.[^.]+")
NOT_SET = "(not set)"          # a field one side leaves unset, or a key it does not hold (card_overrides.x.price, fx.CNY …)
WORKLOAD, NO_WORKLOAD = "(workload)", "(no workload)"   # a workload one side does not have: one row, not one a field
_ABSENT = object()


def value_text(value: Any, unset: str = "none") -> str:
    """A value of a comparison as a reader reads it: a number with thousands separators (14,000; 0.12: 15 digits,
    so that a float's 2.1499999999999995 reads 2.15), true/false, None as `unset`, text (lists as YAML flow text)
    as it is."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return unset
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"{value:,.15g}"
    return str(value)


def input_text(path: str, value: Any) -> str:
    """A scenario value of `path` as "Inputs that differ" shows it: a field the side leaves unset (None) and a key it
    does not hold (`_ABSENT`) alike "(not set)" ("none" read as "no host cost" where the catalog's applies), with
    what applies instead where that is known (`unset_text`: "(not set: no cap)"); else value_text."""
    if value is _ABSENT or value is None or (isinstance(value, float) and math.isnan(value)):
        return unset_text(path, absent=value is _ABSENT)
    return value_text(value)


def unset_text(path: str, absent: bool = False) -> str:
    """`NOT_SET` for `path`, with what applies instead where it is known: "(not set: no cap)" of a cap
    (`UNSET_MEANS`), "(not set: the catalog's value)" of a card override's figure, "(not set: no such custom card)"
    of a custom card's field the side lacks (`absent`)."""
    means = (UNSET_MEANS.get(path) or ("the catalog's value" if _CATALOG_FIGURE.fullmatch(path) else None)
             or _catalog_currency(path)
             or ("no such custom card" if absent and _CUSTOM_CARD_FIELD.fullmatch(path) else None))
    return f"(not set: {means})" if means else NOT_SET


def _catalog_currency(path: str) -> str | None:
    """What an override's currency left unset is ("the catalog card's, USD"): its price is read in the catalog card's
    currency, so 1,900 beside 1,900 EUR are two amounts (a bare "(not set)" hid that), else None."""
    override = _OVERRIDE_CURRENCY.fullmatch(path)
    if override is None:
        return None
    from planner.catalog.gpus import card_rows

    currency = (card_rows().get(override[1]) or {}).get("currency")
    return f"the catalog card's, {currency}" if currency else "the catalog card's"


def _files_of(p: Plan | SavedPlan) -> dict[str, InputFile]:
    """Each field of a plan's scenario naming a file → its InputFile: a saved plan's as saved; a plan made here,
    its path as its scenario file names it and the hash of the content the plan read from it (Plan.input_sha256),
    never the file's content now, which may have changed since."""
    if isinstance(p, SavedPlan):
        return p.input_files
    read = getattr(p, "input_sha256", None) or {}
    return {name: InputFile(as_written(p, path, name), read.get(name), path)
            for name, path in scenario_files(p.scenario).items()}


def _input_diff(a: Scenario, b: Scenario, files_a: dict, files_b: dict) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """(the inputs that differ, path, a, b, None where a side does not set it; the same as text, `input_text`;
    {"a"/"b": the file fields whose content that side does not know, compared by path}). A workload one side
    lacks is one row (`WORKLOAD`, `NO_WORKLOAD`); a file field differs when its content does (`_file_row`)."""
    fa, fb = (dict(flatten_scenario(s).itertuples(index=False)) for s in (a, b))
    names_a, names_b = [w.name for w in a.workloads], [w.name for w in b.workloads]
    lone = {**{n: "a" for n in names_a if n not in names_b}, **{n: "b" for n in names_b if n not in names_a}}
    raw, shown, seen = [], [], set()
    unjudged: dict[str, list[str]] = {"a": [], "b": []}
    for path in dict.fromkeys([*fa, *fb]):
        workload = _lone_workload(path, lone)
        if workload is not None:
            if workload not in seen:
                seen.add(workload)
                row = ((f"workloads.{workload}", WORKLOAD, NO_WORKLOAD) if lone[workload] == "a"
                       else (f"workloads.{workload}", NO_WORKLOAD, WORKLOAD))
                raw.append(row)
                shown.append(row)
            continue
        if path in files_a or path in files_b:
            row = _file_row(path, files_a.get(path), files_b.get(path), fa.get(path), fb.get(path), unjudged)
            if row is not None:
                raw.append(row)
                shown.append(row)
            continue
        va, vb = fa.get(path, _ABSENT), fb.get(path, _ABSENT)
        value_a, value_b = (None if v is _ABSENT else v for v in (va, vb))
        if not _same(value_a, value_b):   # a key one side lacks is no setting, as one set to none
            raw.append((path, value_a, value_b))
            shown.append((path, input_text(path, va), input_text(path, vb)))
    # object columns: None, ints and text kept as given
    return (pd.DataFrame(raw, columns=["path", "a", "b"], dtype=object),
            pd.DataFrame(shown, columns=["path", "a", "b"], dtype=object), unjudged)


def _same(a: Any, b: Any) -> bool:
    """Equal as scenario values (JSON-mode dumps: numbers, strings, bools, None, list text): true is not 1."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


_WORKLOAD_FIELDS = frozenset(Workload.model_fields)


def _lone_workload(path: str, lone: dict[str, str]) -> str | None:
    """The workload of `lone` (those on one side only) whose field `path` is, or None: `workloads.NAME.FIELD…`
    with FIELD one of a workload's (so that a workload named `a` does not claim the fields of one named `a.b`)."""
    for name in lone:
        prefix = f"workloads.{name}."
        if path.startswith(prefix) and path[len(prefix):].split(".")[0] in _WORKLOAD_FIELDS:
            return name
    return None


def _file_row(path: str, fa: InputFile | None, fb: InputFile | None, value_a: Any, value_b: Any,
              unjudged: dict[str, list[str]]) -> tuple | None:
    """The row of field `path`, which names a file on one side or both, or None when they do not differ. Both
    hashes known: they differ when the contents do, wherever the files lie (two copies of a folder are the same
    inputs; a CSV edited in place is not); else by path, the field then noted in `unjudged` of the side not
    knowing its file's content. One side naming no file (`flat`, `snapshot`): they differ."""
    if fa is None or fb is None:
        return path, _file_text(fa) if fa else value_a, _file_text(fb) if fb else value_b
    if fa.sha256 and fb.sha256:
        if fa.sha256 == fb.sha256:
            return None
        b = (f"{fb.path} (content changed: sha256 {fa.sha256} → {fb.sha256})" if fb.path == fa.path
             else _file_text(fb))
        return path, _file_text(fa), b
    for side, f in (("a", fa), ("b", fb)):
        if not f.sha256:
            unjudged[side].append(path)
    return None if _same_place(fa, fb) else (path, _file_text(fa), _file_text(fb))


def _file_text(f: InputFile) -> str:
    return f"{f.path} (sha256 {f.sha256})" if f.sha256 else f"{f.path} (content not known)"


def _same_place(fa: InputFile, fb: InputFile) -> bool:
    """Whether two files whose contents cannot both be compared are named alike: the same absolute path where
    both are known, else the same path, or an absolute one ending in the other's relative path (a plan saved
    before paths were kept as written, beside one saved since)."""
    if fa.absolute and fb.absolute:
        return fa.absolute == fb.absolute
    if fa.path == fb.path:
        return True
    full, relative = (fa.path, fb.path) if os.path.isabs(fa.path) else (fb.path, fa.path)
    return (os.path.isabs(full) and not os.path.isabs(relative)
            and Path(full).parts[-len(Path(relative).parts):] == Path(relative).parts)


def _unjudged_note(side: str, p: Plan | SavedPlan, fields: list[str]) -> str:
    """Why the content of `fields`, files side `side`'s scenario names, was not compared."""
    named = ", ".join(fields)
    its = "its" if len(fields) == 1 else "their"
    unknown = f"compared by {its} path alone; whether {its} content changed cannot be told"
    if isinstance(p, SavedPlan):
        return (f"{side} was saved without the content hashes of the files its scenario names (by planner "
                f"{p.version or 'before 0.1'}): {named} {unknown}")
    return f"{side}: the file of {named} could not be read: {unknown}"


def _delta(b: pd.Series, a: pd.Series) -> pd.Series:
    """b − a, 0 where within MONEY_ROUNDING: the same plan read back and solved again differ by 7e-12."""
    delta = b - a
    return delta.where(~(delta.abs() < MONEY_ROUNDING), 0.0)


def _by_key(fleet: pd.DataFrame) -> pd.DataFrame:
    """The fleet's rows summed by FLEET_KEY: units of one instance type in two zones are one row of the
    comparison (a sum of NaN units, hours rented, stays NaN)."""
    cols = FLEET_KEY + ["units", "instance_hours", "cost"]
    return (fleet[cols].groupby(FLEET_KEY, sort=False, dropna=False).sum(min_count=1).reset_index()
            if fleet[FLEET_KEY].duplicated().any() else fleet[cols])


def _not_proven(side: str, p: Plan | SavedPlan) -> str:
    """Why side `side` may not be the cheapest fleet (its status is not optimal)."""
    gap = (getattr(p, "solver", None) or {}).get("gap")
    shown = (f" (gap {gap_text(gap)})" if isinstance(gap, (int, float)) and not isinstance(gap, bool) and math.isfinite(gap)
             else "")   # as the plan's own solver line shows it
    return (f"{side} is {p.status}: the solver stopped at its limit before proving this fleet the cheapest"
            f"{shown}; its total may be above the optimum")
