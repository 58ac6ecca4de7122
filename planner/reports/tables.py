"""The plan as JSON-ready records and plain tables: the object of `fleetplan plan --format json`, CSV
tables, the headline summary, the assumptions and the prices used. Reads a Plan only."""

from __future__ import annotations

import json
import math
import os
import re
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from planner._version import __version__
from planner.catalog.gpus import card_rows, suggest
from planner.catalog.offers import quote_currency
from planner.catalog.prices import PRICE_SOURCE_WORDS, STALE_AFTER_DAYS
from planner.engine import Plan
from planner.engine.profile_slots import UNPROVEN_GAP
from planner.engine.readback import FLEET_MONTHLY_COLUMNS
from planner.engine.result import MONEY_COLUMNS, held, money_attrs, present_value_words
from planner.errors import PlannerError
from planner.fileio import not_a_path, write_atomic, write_problem
from planner.months import MONTHS_PER_YEAR
from planner.scenario import BUILTIN_PROFILES, Scenario, flatten_scenario
from planner.scenario.loading import file_fields, files_read, loaded_from, named_as_written
from planner.text import counted, gap_text, number_text, visible  # noqa: F401 — gap_text: the reports show it from here


def clean(value):
    """`value` with NaN, inf and pandas' missing values (NA, NaT) as None and numpy scalars as Python ones
    (JSON-ready)."""
    if value is pd.NA or value is pd.NaT:   # a missing cell of a string or nullable column: json cannot write NA
        return None
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if hasattr(value, "item"):
        return clean(value.item())
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def records(df: pd.DataFrame) -> list[dict]:
    """DataFrame rows as JSON-ready dicts (NaN and inf → null), read column by column: a numpy number
    column converts in one call, the others cell by cell with `clean` (a plan's tables, 3-4 ms less than
    cleaning `to_dict` rows)."""
    names = list(df.columns)
    if not names:
        return [{} for _ in range(len(df))]
    columns = [_json_column(df.iloc[:, j]) for j in range(len(names))]
    return [dict(zip(names, row)) for row in zip(*columns)]


def _json_column(column: pd.Series) -> list:
    """A column's cells as JSON-ready Python values, as `clean` makes them."""
    dtype = column.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iub":
        return column.to_numpy().tolist()
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        values = column.to_numpy()
        bad = ~np.isfinite(values)
        if not bad.any():
            return values.tolist()
        cells = values.astype(object)   # Python floats
        cells[bad] = None
        return cells.tolist()
    return [clean(x) for x in column.tolist()]


# A spreadsheet evaluates a cell that starts with one of these as a formula (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def starts_a_formula(text: str) -> bool:
    """Whether a spreadsheet would run `text`, typed into a cell, as a formula: it starts with one of
    `FORMULA_START` and is not a plain number."""
    return text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text)


def _line_feeds(text: str) -> str:
    # A bare CR ends a row in a spreadsheet reading CSV, and Python's csv module quotes a field for \n
    # only (with \n line ends): as LF, the field is quoted and stays one cell. XLSX's XML turns CR to LF too.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def spreadsheet_text(value):
    """`value`, made safe for a CSV field: text that starts like a formula (`starts_a_formula`) gets a
    leading apostrophe, and its carriage returns become line feeds; every other value is returned unchanged."""
    if not isinstance(value, str):
        return value
    return _line_feeds("'" + value if starts_a_formula(value) else value)


def spreadsheet_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of `df` with `spreadsheet_text` applied to its column names and text columns (numbers,
    even negative ones, stay numbers)."""
    return _text_mapped(df, spreadsheet_text)


def _text_mapped(df: pd.DataFrame, convert) -> pd.DataFrame:
    """A copy of `df` with `convert` applied to its column names and to every cell of its text columns."""
    out = df.rename(columns=lambda c: convert(str(c)))
    for i, dtype in enumerate(out.dtypes):
        if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
            out.isetitem(i, out.iloc[:, i].map(convert))
    return out


def cell_text(value):
    """A text field as a CSV file holds it: through `spreadsheet_text`, its other control characters
    then shown (`visible`: its CRs are line feeds by then), as a terminal and Markdown show them."""
    return visible(spreadsheet_text(value)) if isinstance(value, str) else value


def workbook_text(text: str) -> str:
    """A text cell as an XLSX file holds it: `cell_text` without the apostrophe. A workbook's string cell is
    never run as a formula, and Excel would show the apostrophe as part of the text; the writer marks text
    that `starts_a_formula` with the quote_prefix format instead, so that editing the cell keeps it text."""
    return visible(_line_feeds(text))


def csv_text(df: pd.DataFrame) -> str:
    """`df` as CSV text (no index, \\n line ends) with no field a spreadsheet would run as a formula, no
    control character but line feeds and tabs, and no infinite number: empty, as JSON's null and the
    workbook's blank cell (a card that never breaks even)."""
    out = _text_mapped(df, cell_text).replace([np.inf, -np.inf], np.nan)
    return out.to_csv(index=False, lineterminator="\n")


def maybe_write(path, data, example: str = "plan.json"):
    """Write `data` to `path` atomically when a path is given (`export_path` checks it first); return `data`."""
    if path is not None:
        write_atomic(export_path(path, example), data)
    return data


def export_path(path: str | os.PathLike, example: str = "plan.json", writer: str | None = None) -> Path:
    """`path` as the file an export may be written to, a leading `~` the home folder (as pandas' writers take
    it); PlannerError naming it where it cannot be, as the CLI's
    -o says: empty, a folder (or written as one, ending in "/"), or in a folder that does not exist — no folder
    is made (a typo's would be). `example` is the file name the message suggests; with `writer` (the function's
    name, "plan_to_excel (to_excel)"), a name ending in another export's suffix is refused too (`check_suffix`:
    `example`'s is the export's own). Before, `to_json(p, "new/")`
    wrote a file named `new`, `to_excel(p, "")` raised IsADirectoryError naming a hidden temporary file, and a
    missing folder was made."""
    if wrong := not_a_path(path, "path=", "the file to write the export to", example):   # to_excel(p, 123)
        raise PlannerError(wrong)
    text = os.fsdecode(os.fspath(path))
    if text == "":
        raise PlannerError(f"no file name given to write the export to; give one, e.g. {example}")
    if writer is not None:
        check_suffix(Path(text), Path(example).suffix, text, writer)
    target = Path(text).expanduser()
    if text.endswith(("/", os.sep)):   # a folder to be: Path drops the "/" and would write a file of that name
        raise PlannerError(f"{text}: is a folder; give a file name, e.g. {target / example}")
    problem = write_problem(target, "a file name", example)
    if problem:
        raise PlannerError(f"{text}: {problem}")
    return target


def check_export_path(plan: Plan, path: str | os.PathLike | None, example: str, writer: str) -> Path | None:
    """Where `writer` ("plan_to_excel (to_excel)") may write `plan`'s export given as `path` (`export_path`, which
    refuses a name ending in another export's suffix), checked before the export is built; None when no path is
    given. PlannerError, naming `path` as given, where it is a file the plan was made from (`files_planned_from`),
    as `fleetplan plan -o` refuses it: `to_json(p, "we2.yaml")` replaced the scenario with JSON."""
    if path is None:
        return None
    target = export_path(path, example, writer)
    check_not_an_input([(os.fsdecode(os.fspath(path)), target)], files_planned_from(plan))
    return target


# The endings of the files the exports (and the CLI's -o) write, and what each holds: a name ending in another's is
# refused (`check_suffix`)
EXPORT_SUFFIXES = {".csv": "CSV", ".json": "JSON", ".xlsx": "an Excel workbook", ".md": "Markdown"}


def check_suffix(path: Path, suffix: str, said: str, writer: str) -> None:
    """PlannerError, naming the file as `said` ("-o out.csv"; the library's path as given), where `path`'s name ends
    in the suffix of another export (EXPORT_SUFFIXES) than `suffix`, the one of what `writer` ("--format xlsx",
    "plan_to_excel (to_excel)") writes: `-o out.csv --format xlsx` and `to_excel(p, "out.csv")` wrote a workbook
    named .csv, which a spreadsheet then read as garbled text. A name with no suffix, or one no export writes
    (plan.out), is the user's choice."""
    given = path.suffix.lower()
    if given in EXPORT_SUFFIXES and given != suffix:
        raise PlannerError(f"{said}: a {given} file name for {writer}, which writes {EXPORT_SUFFIXES[suffix]}; "
                           f"did you mean {path.with_suffix(suffix)}?")


def check_not_an_input(written: list[tuple[str, Path]], inputs: list[Path], reader: str = "this plan") -> None:
    """PlannerError where a file to be written — (how it is named, "-o out.json" or the library's path as given;
    its path) of `written` — is one of the `inputs` `reader` (this plan; a sweep, a comparison) reads, by any name
    (./x, a symbolic link): written, it would be lost."""
    for said, path in written:
        for source in inputs:
            try:
                same = os.path.samefile(path, source)
            except OSError:     # either is missing (or unreadable): the write reports its own failure
                same = False
            if same:
                raise PlannerError(f"{said}: is {source}, which {reader} reads; give another file name")


def files_planned_from(plan: Plan) -> list[Path]:
    """The files `plan` was made from, which none of its exports may replace: its scenario file (Plan.scenario_file,
    where plan() or the CLI was given one or a scenario read from one; else the file its scenario was read from,
    loading.loaded_from), the profile and offers CSVs its scenario names (loading.files_read) and the price store it
    read (Plan.store_file)."""
    files = [Path(f) for f in (plan.scenario_file, loaded_from(plan.scenario)) if f is not None]
    if isinstance(plan.scenario, Scenario):
        files += files_read(plan.scenario)
    store = getattr(plan, "store_file", None)
    return files + ([Path(store)] if store else [])


def require_plan(x: Any, what: str) -> None:
    """PlannerError unless `x` is a Plan (from planner.plan): the exports read its tables (a Scenario or None
    raised pydantic's "generated_at Instance is frozen" or an AttributeError)."""
    if not isinstance(x, Plan):
        raise PlannerError(f"{what} needs a Plan from planner.plan() (or add_decisions / add_baselines); "
                           f"got {type(x).__name__}")


def generated_at(plan: Plan) -> str:
    """When the plan was made, UTC ISO 8601 (e.g. 2026-11-30T21:05:09Z): the plan's own `generated_at`
    if it has one, else the time of its first report, kept on the plan so that every export of one plan
    (JSON, XLSX, a rewritten --out set) carries the same stamp."""
    stamp = getattr(plan, "generated_at", None)
    if not stamp:
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            plan.generated_at = stamp
        except (AttributeError, TypeError):   # a frozen or slotted plan: stamp each report
            pass
    return stamp


def scenario_inputs(plan: Plan) -> dict | None:
    """The scenario solved, as JSON-ready data that a scenario reads back (for `compare` of a saved plan); the
    files it names as its file wrote them (`as_written`), so read back from that file's folder: a loaded
    scenario holds them absolute, which differ between two checkouts of one scenario."""
    scenario = getattr(plan, "scenario", None)
    if not hasattr(scenario, "model_dump"):
        return None
    data = scenario.model_dump(mode="json")
    for workload in data["workloads"]:
        if workload["profile"] not in BUILTIN_PROFILES:
            workload["profile"] = as_written(plan, workload["profile"], f"workloads.{workload['name']}.profile")
    if data["prices"]["source"] not in PRICE_SOURCE_WORDS:
        data["prices"]["source"] = as_written(plan, data["prices"]["source"])
    return data


# The files a scenario names — its workloads' profile CSVs and an offers CSV (`prices.source`) — are named in every
# report of a plan by the path its file wrote (relative to the scenario's folder: the same in every checkout; an
# absolute one as written; `as_written`), and recorded in its JSON with the hash of the content the plan read from
# them (`input_files`): `compare` judges them by their content, so an offers CSV edited in place is a changed input
# and two copies of one folder are the same inputs.


def scenario_files(scenario: Any) -> dict[str, str]:
    """The fields of `scenario` that name a file, by the path `compare` gives them (scenario.flatten_scenario's:
    `workloads.NAME.profile`, `prices.source`), each with the path the scenario holds."""
    return file_fields(scenario)


def scenario_folder_of(plan: Any) -> Path | None:
    """The folder the scenario of `plan` names its files against: its file's, where plan() was given a file or a
    scenario loaded from one (Plan.scenario_folder); None when unknown (a plan of YAML text or a dict)."""
    folder = getattr(plan, "scenario_folder", None)
    return None if folder is None else Path(folder)


def as_written(plan: Any, path: str, field: str | None = None) -> str:
    """A file the scenario of `plan` names (`path`, as the scenario holds it: absolute once loaded from a file) as
    every report of the plan shows it: as its scenario file wrote it at `field` (`workloads.NAME.profile`: one file
    may be named relative by one field and absolute by another; scenario.loading.named_as_written, against the
    folder of the file the plan was made from: its scenario, changed by overrides, no longer knows it). The JSON,
    the CLI's lines, the Markdown summary and the workbook all name it so."""
    return named_as_written(getattr(plan, "scenario", None), path, scenario_folder_of(plan), field)


def input_files(plan: Plan) -> dict[str, dict]:
    """Each file the plan's scenario names (`scenario_files`) → {"path": as its scenario file wrote it
    (`as_written`), "sha256": the hash of the content the plan read from it (Plan.input_sha256; None where the plan
    does not hold one)}; {} for a plan without a scenario. The files are not read here: they may have changed
    since the plan read them."""
    scenario = getattr(plan, "scenario", None)
    if not hasattr(scenario, "workloads"):
        return {}
    read = getattr(plan, "input_sha256", None) or {}
    return {field: {"path": as_written(plan, path, field), "sha256": read.get(field)}
            for field, path in scenario_files(scenario).items()}


def written_prices(plan: Plan) -> dict:
    """The plan's `prices`, their `source` as its scenario file wrote it where it is the scenario's offers CSV
    (held absolute, it made a plan's JSON differ between two checkouts)."""
    if not isinstance(plan.prices, dict):
        return plan.prices
    prices = dict(plan.prices)
    scenario = getattr(plan, "scenario", None)
    source = getattr(getattr(scenario, "prices", None), "source", None)
    if source not in (None, *PRICE_SOURCE_WORDS) and prices.get("source") == source:
        prices["source"] = as_written(plan, source)
    return prices


def price_source_text(plan: Plan) -> str:
    """Where the plan's prices came from, in a few words for a line of the CLI or the Markdown summary: "snapshot",
    "store", "store, pinned to snapshot #3" (the scenario's prices.snapshot), or its offers CSV as its scenario file
    wrote it (`as_written`)."""
    prices = written_prices(plan)
    source = str(prices.get("source"))
    pinned = prices.get("pinned_snapshot")
    return source if pinned is None else f"{source}, pinned to snapshot #{pinned}"


def plan_to_dict(plan: Plan, start: str | date | None = None) -> dict:
    """One JSON-ready object: the tool's version and when the plan was made (generated_at, UTC), status,
    currency, horizon, `start` (month 1 of the plan as YYYY-MM, `start_month`: --start; null when not given), total,
    costs by category (credits negative, summing to total), fleet, monthly,
    baselines, break_even, utilisation, energy, solver, prices (their source and dates), prices_used (the
    unit prices behind each fleet row), the scenario solved (scenario_inputs, so that `fleetplan compare` can read
    a saved plan) and the hashes of the files it names (input_files)."""
    require_plan(plan, "plan_to_dict (to_json)")
    costs = held(plan, "costs")
    decisions, flips, caps = (held(plan, name, None) for name in ("decisions", "flip_points", "cap_costs"))
    # tables through `records` (JSON-ready already), every other value through `clean`
    return {
        "version": __version__,
        "generated_at": generated_at(plan),
        "scenario": clean(plan.scenario_name),
        "status": clean(plan.status),
        "currency": clean(plan.currency),
        "horizon_months": clean(plan.horizon_months),
        "start": start_month(start, plan.scenario),
        "total": clean(plan.total),
        "costs": clean(dict(zip(costs["category"], costs["cost"]))),
        "fleet": records(held(plan, "fleet")),
        "monthly": records(labelled_monthly(plan, start)),
        "baselines": records(held(plan, "baselines")),
        "break_even": records(held(plan, "break_even")),
        "utilisation": records(held(plan, "utilisation")),
        "energy_kwh": clean(plan.energy_kwh),
        "excluded_offers": records(held(plan, "exclusions")),
        "schedule": records(held(plan, "schedule")),
        "installed": records(held(plan, "installed")),
        "owned": records(held(plan, "owned")),
        "speeds": records(held(plan, "speeds")),
        "assumptions": clean(hardware_assumptions(plan)),
        "warnings": clean(list(plan.warnings)),
        "profile_grouping": clean(plan.profile_grouping),
        "serving": records(held(plan, "serving")),
        # what each decision is worth (engine.decisions); null when they were not computed (--no-decisions)
        "decisions": None if decisions is None else records(decisions),
        "runner_up": clean(plan.runner_up),
        "close_call": clean(plan.close_call),
        "flip_points": None if flips is None else records(flips),
        # what each limit the scenario sets costs the plan: the plan solved again without it (engine.decisions)
        "cap_costs": None if caps is None else records(caps),
        "solver": clean(plan.solver),
        "prices": clean(written_prices(plan)),
        # the unit prices behind each fleet row: `compare` of a saved plan names the prices that changed
        "prices_used": records(prices_used(plan)),
        "scenario_inputs": clean(scenario_inputs(plan)),
        # the files the scenario names: path as written and the hash of their content (compare judges them by it)
        "input_files": clean(input_files(plan)),
    }


def plan_to_json(plan: Plan, path: str | Path | None = None, start: str | date | None = None) -> str:
    """The plan as JSON text (the `--format json` object; `start`: month 1, YYYY-MM, as `plan_to_dict`); written
    atomically when `path` is given."""
    text = json.dumps(plan_to_dict(plan, start), indent=2) + "\n"   # plan_to_dict checks it is a Plan
    return maybe_write(check_export_path(plan, path, "plan.json", "plan_to_json (to_json)"), text)


# The CSV tables with money in them: a CSV file travels without the plan's `currency`, so each row says it
# (as FOCUS's BillingCurrency does). Appended as the last column, so every existing column keeps its name
# and place.
MONEY_TABLES = ("fleet", "monthly", "costs", "baselines", "break_even", "schedule", "owned")
# Those whose money is a present value say so on each row, `money_basis`, since the others' is not: schedule
# holds the money paid in a month (nominal), break_even rates per hour and per month. Monthly holds both (nominal,
# and its total_discounted a present value): its own `money_basis` says so (`labelled_monthly`).
PRESENT_VALUE_TABLES = ("fleet", "costs", "baselines", "owned")


# The monthly table's row H+1 holds what falls after the horizon (docs/cost-model.md §13): its `plan_year` in
# monthly.csv, the JSON and the workbook's monthly and yearly sheets.
AFTER_HORIZON = "after horizon"


def plan_year(month: int, horizon: int) -> int | str:
    """The plan year of `month` (months 1–12 are year 1, a short last year possible), or "after horizon" for H+1."""
    return AFTER_HORIZON if month > horizon else (month - 1) // MONTHS_PER_YEAR + 1


def labelled_monthly(plan: Plan, start: str | date | None = None) -> pd.DataFrame:
    """`plan.monthly` with three columns after its own, for readers without the Plan (the JSON, monthly.csv): its
    `money_basis` ("nominal; total_discounted: present value at 8%/year", the words of its attrs: its `total` is
    nominal), `plan_year` (1, 2, … and "after horizon" on row H+1, which holds the credits and payments after
    the horizon, each payment discounted in its own month: there total_discounted ≠ total × discount_factor) and
    `calendar_month` (YYYY-MM of the row's month counted from `start`, month 1, as the workbook's month_start: row H+1
    the month after the horizon; None for every row when no start is given)."""
    monthly = held(plan, "monthly")
    basis = money_attrs(MONEY_COLUMNS["monthly"], plan.currency, getattr(plan.scenario, "discount_rate", None))
    years = [plan_year(int(m), int(plan.horizon_months)) for m in monthly["month"]]
    first = start_month(start, plan.scenario)
    first_day = plan_start(first) if first is not None else None
    calendar = [None if first_day is None else add_months(first_day, int(m) - 1).strftime("%Y-%m")
                for m in monthly["month"]]
    return fleet_columns_last(monthly.assign(
        money_basis=basis["money_basis"], plan_year=pd.Series(years, index=monthly.index, dtype=object),
        calendar_month=pd.Series(calendar, index=monthly.index, dtype=object)))


def fleet_columns_last(monthly: pd.DataFrame) -> pd.DataFrame:
    """The monthly table with its cards and kW (readback.FLEET_MONTHLY_COLUMNS, where it has them) moved last:
    added after money_basis, plan_year and calendar_month were, so every column of monthly.csv and the JSON rows
    before them keeps its name and place."""
    fleet = [c for c in FLEET_MONTHLY_COLUMNS if c in monthly.columns]
    return monthly[[c for c in monthly.columns if c not in fleet] + fleet] if fleet else monthly


# every table of a plan that plan_to_csv writes, in the order of its docstring (the dashboard's "All tables" zip)
PLAN_TABLES = ("fleet", "monthly", "costs", "baselines", "break_even", "utilisation", "schedule", "installed", "owned",
               "speeds", "serving", "excluded_offers")


# The fleet's counts held as float64 (NaN where an offer is rented by the hour: docs/cost-model.md), written to its CSV
# as whole numbers ("2", not "2.0"), as its int64 counts (existing_units, sold_units …) are
FLEET_FLOAT_COUNTS = ("units", "new_units")


def whole_counts(df: pd.DataFrame, columns) -> pd.DataFrame:
    """`df` with each of `columns` whose values are all whole numbers (or NaN) as Int64 (NaN an empty CSV field), for
    a CSV only: the plan's table keeps its float64 (the dtype contract); a column holding a fraction is left as it is."""
    out = {}
    for c in columns:
        if c in df.columns and pd.api.types.is_float_dtype(df[c]):
            values = df[c].to_numpy(dtype=float)
            known = values[~np.isnan(values)]
            if np.all(np.isfinite(known) & (known == np.round(known))):
                out[c] = df[c].astype("Int64")
    return df.assign(**out) if out else df


def plan_to_csv(plan: Plan, path: str | Path | None = None, table: str | None = None,
                start: str | date | None = None) -> str:
    """One table of the plan as CSV text (`csv_text`: no field starts a formula): fleet (default, None),
    monthly, costs, baselines, break_even, utilisation, schedule, installed, owned, speeds, serving,
    excluded_offers (`excluded_offers`: the JSON's rows with the `rule` each failed). The
    tables of `MONEY_TABLES` end with a `currency` column (the plan's ISO code), those of
    `PRESENT_VALUE_TABLES` then with `money_basis` ("present value at 8%/year", `present_value_basis`), monthly then
    with `money_basis`, `plan_year` and `calendar_month` (`labelled_monthly`: YYYY-MM counted from `start`, month 1;
    empty without it)."""
    require_plan(plan, "plan_to_csv (to_csv)")
    if table is not None and not isinstance(table, str):   # table=['fleet'] raised "unhashable type: 'list'"
        raise PlannerError(f"table={table!r}: expected one table's name, e.g. table='monthly'")
    if isinstance(path, str) and path in PLAN_TABLES and table is None:   # plan_to_csv(p, "baselines")
        raise PlannerError(f"plan_to_csv(plan, {path!r}): the second argument is the file to write; "
                           f"for the {path} table pass table={path!r} (to write a file of that name, "
                           f"table='fleet')")
    table = "fleet" if table is None else table
    if table not in PLAN_TABLES:   # "did you mean", as Plan.cost says for a category
        near = suggest(table, PLAN_TABLES, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise PlannerError(f"unknown table {table!r}{hint} (one of {', '.join(PLAN_TABLES)})")
    target = check_export_path(plan, path, f"{table}.csv", "plan_to_csv (to_csv)")
    # the Plan holds the JSON's excluded_offers as `exclusions`; the CSV adds the rule each row failed
    df = excluded_offers(plan) if table == "excluded_offers" else held(plan, table)
    if table == "baselines" and "baseline" not in df.columns:   # never solved: not a table with no rows
        raise PlannerError("the plan has no baselines: it was solved without them (plan(..., baselines=False) or "
                           "--no-baselines); add them with planner.add_baselines(plan) or plan with baselines")
    if table == "fleet":
        df = whole_counts(df, FLEET_FLOAT_COUNTS)
    if table in MONEY_TABLES:
        df = df.assign(currency=plan.currency)
    if table in PRESENT_VALUE_TABLES:
        df = df.assign(money_basis=present_value_basis(plan))
    if table == "monthly":   # after `currency`, which keeps its place
        labels = labelled_monthly(plan, start)
        df = fleet_columns_last(df.assign(money_basis=labels["money_basis"], plan_year=labels["plan_year"],
                                          calendar_month=labels["calendar_month"]))
    return maybe_write(target, csv_text(df), f"{table}.csv")


# ---------------------------------------------------------------------------------------------------
# Offers left out: why an offer serves no workload, counted by the rule it failed


# The rules of docs/cost-model.md §4 in their order, each with the start of the reasons engine.workloads._reason
# (and catalog.frameworks.exclusion_reason, rule 8) writes when it fails. A reason names its figures ("24 GB per GPU
# < 80 GB needed"), so startup-hybrid's 69 rows hold 29 reasons; a reviewer counts them by rule. The words hold no
# comma: the CLI's line lists the rules with commas.
EXCLUSION_RULES = (
    ("unknown accelerator", re.compile(r"unknown accelerator ")),
    ("not a GPU (needs its own SDK)", re.compile(r".* is not a GPU \(needs its own SDK\)")),
    ("spot for a workload not interruptible", re.compile(r"spot capacity serves interruptible workloads only")),
    ("GPU count unknown", re.compile(r"GPU count unknown")),
    ("GPU memory unknown", re.compile(r"GPU memory unknown")),
    ("too little memory per GPU", re.compile(r"\S+ GB per GPU < \S+ GB needed")),
    ("too few GPUs per node for a job", re.compile(r"\S+ GPUs per node < \d+ GPUs per job")),
    ("compute capability too low", re.compile(r"compute capability \S+ < \S+ needed")),
    ("framework's CUDA build cannot run the GPU",
     re.compile(r".* \(CUDA [^)]*\) (supports compute capability|needs a CUDA GPU)")),
    ("no speed for the GPU", re.compile(r"no \S+ speed for |.* is not in the workload's requests/s throughput table")),
)
OTHER_RULE = "other"   # a reason no rule's pattern knows: counted, never dropped


def exclusion_rule(reason) -> str:
    """The words of the rule of docs/cost-model.md §4 an exclusion's `reason` says the offer failed ("too little
    memory per GPU" for "24 GB per GPU < 80 GB needed"); `OTHER_RULE` for a reason no rule's pattern matches."""
    text = str(reason)
    return next((rule for rule, pattern in EXCLUSION_RULES if pattern.match(text)), OTHER_RULE)


def excluded_offers(plan: Plan) -> pd.DataFrame:
    """The offers and cards left out, one row per workload, provider, GPU and reason with the count of `offers`
    (the JSON's excluded_offers, the Plan's `exclusions`), then the `rule` each failed (`exclusion_rule`)."""
    table = held(plan, "exclusions", None)
    if not isinstance(table, pd.DataFrame) or table.empty:
        return pd.DataFrame({"workload": [], "provider": [], "gpu": [], "reason": [], "offers": [], "rule": []},
                            dtype=object).astype({"offers": "int64"})
    rule_of = {reason: exclusion_rule(reason) for reason in table["reason"].unique()}   # a few dozen reasons
    return table.assign(rule=table["reason"].map(rule_of))


def excluded_by_rule(plan: Plan) -> pd.DataFrame:
    """rule, offers (left out of a workload, summed: an offer counts once for each workload it cannot serve),
    workloads (their names, in the order of the rows) and the reason with the most offers of the rule (`example`);
    the rule with the most offers first, ties in the order of `EXCLUSION_RULES`."""
    rows = excluded_offers(plan)
    order = [rule for rule, _ in EXCLUSION_RULES] + [OTHER_RULE]
    out = []
    for rule in order:
        of_rule = rows[rows["rule"] == rule]
        if of_rule.empty:
            continue
        by_reason = of_rule.groupby("reason", sort=False)["offers"].sum()
        out.append((rule, int(of_rule["offers"].sum()), ", ".join(dict.fromkeys(of_rule["workload"].astype(str))),
                    str(by_reason.idxmax())))
    table = pd.DataFrame(out, columns=["rule", "offers", "workloads", "example"]).astype({"offers": "int64"})
    return table.sort_values("offers", ascending=False, kind="stable", ignore_index=True)


def excluded_offers_line(plan: Plan) -> str:
    """The offers left out by rule, on one line for the CLI's table ("offers left out (…): 115 too little memory per
    GPU, 24 spot for a workload not interruptible, …", with where each row is listed); "" when none was left out."""
    counts = excluded_by_rule(plan)
    if counts.empty:
        return ""
    rules = ", ".join(f"{n:,} {rule}" for rule, n in zip(counts["rule"], counts["offers"]))
    return (f"offers left out (an offer counts once for each workload it cannot serve): {rules}; each with its "
            "reason: --format json (excluded_offers), --out's excluded_offers.csv and the workbook's excluded offers "
            "sheet")


# ---------------------------------------------------------------------------------------------------
# Plan start and months


FIRST_START_YEAR, LAST_START_YEAR = 1900, 2999   # outside them a start is a typo (27-01, 9999-12)


def plan_start(start: str | date | None = None, scenario=None, today: date | None = None) -> date:
    """The first day of the plan's month 1: `start` (YYYY-MM or a date), else the scenario's `start`
    if it has one, else the first day of the month after `today` (default: today in UTC). PlannerError where it is
    not YYYY-MM, or its month is none of 01-12 (saying so: "expected YYYY-MM" alone read as if 2027-13's form were
    wrong), or its year is out of range."""
    start = start if start is not None else getattr(scenario, "start", None) if scenario is not None else None
    if start is None:
        today = today or datetime.now(timezone.utc).date()   # UTC, as generated_at: the same start in any time zone
        return date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    if isinstance(start, date):
        first, text = start.replace(day=1), start.isoformat()
    else:
        text = str(start).strip()
        found = re.fullmatch(r"(\d{4})-(\d{1,2})", text)
        if found is None:
            raise PlannerError(f"plan start {text!r}: expected YYYY-MM, e.g. 2026-01")
        if not 1 <= int(found[2]) <= 12:
            raise PlannerError(f"plan start {text!r}: {found[2]} is no month (01-12); expected YYYY-MM, e.g. "
                               f"{found[1]}-{'12' if int(found[2]) > 12 else '01'}")
        # the year checked before it makes a date: year 0 is none (date()'s ValueError was a traceback)
        first = date(min(max(int(found[1]), FIRST_START_YEAR - 1), LAST_START_YEAR + 1), int(found[2]), 1)
    # dated rows run to the horizon's end and a reservation's last term after it (at most 120 + 36 months)
    if not FIRST_START_YEAR <= first.year <= LAST_START_YEAR:
        raise PlannerError(f"plan start {text!r}: expected a year from {FIRST_START_YEAR} to {LAST_START_YEAR}")
    return first


def start_month(start: str | date | None = None, scenario=None) -> str | None:
    """Month 1 of the plan as YYYY-MM where it is given (`start`, else the scenario's `start` if it has one), checked
    as `plan_start` checks it; None when neither gives it (the plan's months are then not dated: the JSON's `start`
    null, monthly.csv's calendar_month empty)."""
    given = start if start is not None else getattr(scenario, "start", None) if scenario is not None else None
    return None if given is None else plan_start(given).strftime("%Y-%m")


def add_months(d: date, months: int) -> date:
    k = d.year * 12 + d.month - 1 + months
    return date(k // 12, k % 12 + 1, 1)


# ---------------------------------------------------------------------------------------------------
# Prices used, assumptions, summary


def prices_used(plan: Plan) -> pd.DataFrame:
    """The unit prices behind each fleet row (scenario currency), as the plan used them: cloud hourly
    and upfront prices and terms; for cards the capex per new unit, watts, life and maintenance rate. Then, for a
    card the scenario quotes (`card_quotes`), the price and host share as quoted, their currency and the fx rate
    applied (scenario currency per 1 quoted_currency); for a catalog card whose catalog price (in its source text) is
    in another currency, that currency as quoted_currency and the fx rate its price and host share were converted at
    (quoted_price and quoted_host_cost_per_card blank: the catalog's); blank for cloud offers and catalog prices
    already in the scenario currency. Last, for a card whose override quotes its price or its host share alone in
    another currency than the catalog card's, the catalog's currency and the fx rate of the amount left to the catalog
    (the one whose quoted_ column is blank) as catalog_currency and catalog_fx_rate; blank elsewhere."""
    cols = ["provider", "region", "sku", "gpu", "purchase_option", "hourly_price", "upfront_price",
            "term_months", "capex_per_unit", "busy_watts", "idle_watts", "life_years",
            "maintenance_rate_per_year", "currency", "as_of", "source"]
    used = held(plan, "offers")[cols]
    quotes = card_quotes(plan).set_index("card")
    quoted = {card: {c: quotes[c].get(card) for c in QUOTED_COLUMNS} for card in quotes.index
              if quotes["quoted_currency"].get(card) is not None}
    cards = used["provider"].to_numpy(dtype=object) == "onprem"
    skus = used["sku"].tolist()
    # looked up row by row, in the fleet's order (a merge would reorder the rows)
    rows = [{**(quoted.get(sku) or _converted_catalog_price(plan, sku)), **_left_to_catalog(plan, sku)} if card else {}
            for sku, card in zip(skus, cards)]
    columns = [*QUOTED_COLUMNS, *LEFT_COLUMNS]
    return used.assign(**{c: [row.get(c) for row in rows] for c in columns}).astype(QUOTED_DTYPES)


def _converted_catalog_price(plan: Plan, card: str) -> dict:
    """{"quoted_currency", "fx_rate"} of a catalog card whose price and host share the catalog gives in a currency
    other than the scenario's, as catalog.offers.site_card_rows converts them (the rtx-4090's "1,599 USD" shown as
    2,161.08 EUR with no rate beside it); {} for one in the scenario currency, not in the catalog, or without the
    plan's scenario."""
    row = card_rows().get(card)
    currency = row and row.get("currency")
    if plan.scenario is None or not currency or currency == plan.currency:
        return {}
    rate = plan.scenario.fx_rate(currency)
    return {} if rate is None else {"quoted_currency": currency, "fx_rate": rate}


def _left_to_catalog(plan: Plan, card: str) -> dict:
    """{"catalog_currency", "catalog_fx_rate"} of a catalog card whose onprem.card_overrides entry gives its price or
    its host share alone, in another currency than the catalog card's: the amount it leaves to the catalog keeps the
    catalog's currency and is converted at that currency's rate (catalog.offers.site_card_rows), which the quote's
    currency and rate do not say (a EUR price over the rtx-3060's 5,400 CNY host share); {} elsewhere."""
    overrides = getattr(getattr(plan.scenario, "onprem", None), "card_overrides", None) or {}
    override, row = overrides.get(card), card_rows().get(card)
    # no quote, or both amounts quoted, or neither (the catalog's own amounts: _converted_catalog_price says them)
    if override is None or row is None or (override.price is None) == (override.host_cost_per_card is None):
        return {}
    currency = row.get("currency")
    if not currency or currency == quote_currency(plan.scenario, card):
        return {}
    return {"catalog_currency": currency, "catalog_fx_rate": plan.scenario.fx_rate(currency)}


# The columns of `prices_used` that say how the scenario quotes a card (additive: after the plan's own prices), then
# those of the amount an override leaves to the catalog in another currency (_left_to_catalog)
QUOTED_COLUMNS = ["quoted_price", "quoted_host_cost_per_card", "quoted_currency", "fx_rate"]
LEFT_COLUMNS = ["catalog_currency", "catalog_fx_rate"]
QUOTED_DTYPES = {"quoted_price": "float64", "quoted_host_cost_per_card": "float64", "quoted_currency": object,
                 "fx_rate": "float64", "catalog_currency": object, "catalog_fx_rate": "float64"}


def card_quotes(plan: Plan) -> pd.DataFrame:
    """The cards the scenario prices or describes itself, one row each: card, quote ("override" of a catalog card or
    "custom" card), the price and host share per card as given (NaN where an override leaves the catalog's), the
    currency they were read in (catalog.offers.quote_currency: the quote's own, else an override's are the catalog
    card's and a custom card's the scenario's; None where the quote gives neither amount) and the fx rate applied to
    them (scenario currency per 1 of it), as_of, source, and the other figures given (busy_watts … as "name value"
    text). Read from the plan's scenario; empty without one."""
    columns = ["card", "quote", "quoted_price", "quoted_host_cost_per_card", "quoted_currency", "fx_rate", "as_of",
               "source", "other"]
    o = getattr(plan.scenario, "onprem", None)
    if o is None:
        return pd.DataFrame(columns=columns)
    figures = ("busy_watts", "idle_watts", "cards_per_server", "life_years", "maintenance_rate_per_year")
    rows = []
    for kind, quotes in (("override", o.card_overrides), ("custom", o.custom_cards)):
        for card, q in quotes.items():
            given = q.model_dump(exclude_none=True)
            # the currency the plan read the amounts given in, also where the quote names none (an override's are
            # the catalog card's, converted all the same): with the rate, a reader can redo the plan's figure
            currency = quote_currency(plan.scenario, card)
            rows.append({"card": card, "quote": kind, "quoted_price": given.get("price"),
                         "quoted_host_cost_per_card": given.get("host_cost_per_card"),
                         "quoted_currency": currency,
                         "fx_rate": plan.scenario.fx_rate(currency) if currency else None,
                         "as_of": given.get("as_of"), "source": given.get("source"),
                         "other": ", ".join(f"{f} {given[f]:g}" for f in figures if f in given)})
    return pd.DataFrame(rows, columns=columns).astype({c: QUOTED_DTYPES[c] for c in QUOTED_COLUMNS})


def assumptions(plan: Plan) -> pd.DataFrame:
    """The scenario flattened to path/value rows (workloads by name), as override paths; the files it names as its
    file wrote them (`as_written`)."""
    if plan.scenario is None:
        return pd.DataFrame({"path": ["(scenario not attached to this plan)"], "value": [plan.scenario_name]})
    table = flatten_scenario(plan.scenario)
    files = scenario_files(plan.scenario)
    values = [as_written(plan, value, path) if path in files else value for path, value in zip(table["path"], table["value"])]
    return table.assign(value=pd.Series(values, index=table.index, dtype=object))


def hardware_assumptions(plan: Plan) -> dict:
    """How hardware is bought, valued and retired in this plan (onprem.purchase_every_months, resale …)."""
    o = getattr(plan.scenario, "onprem", None)
    if o is None:
        return {}
    return {"purchase_every_months": o.purchase_every_months, "resale_method": o.resale.method,
            "resale_share_of_book": o.resale.share_of_book, "sell_owned": o.sell_owned,
            "switch_off_owned": o.switch_off_owned, "maintenance_when_off": o.maintenance_when_off,
            "capex_budget": o.capex_budget, "capex_budget_per_year": o.capex_budget_per_year}


def present_value_basis(plan: Plan) -> str:
    """What the plan's totals are, for a label: "present value at 8%/year" (the scenario's discount_rate),
    "present value at 0%/year, undiscounted", or "present value" for a plan without its scenario."""
    return present_value_words(getattr(plan.scenario, "discount_rate", None))


def present_money(plan: Plan) -> str:
    """The currency and basis of a plan's totals, for a label: "USD, present value at 8%/year" (the CLI's titles, the
    Markdown summary's headings, the workbook's headers, the dashboard's labels)."""
    return f"{plan.currency}, {present_value_basis(plan)}"


# A share of a total under this many percent, but not 0, is shown with two significant digits: a table's one or two
# decimals read it as 0 (industrial's +183 USD decision is 0.0091 % of its 2,017,777 USD total). The workbook's
# number format (excel.SHARE) shows such a share with up to four decimals.
SMALL_SHARE_PCT = 0.05


# How a break-even utilisation no utilisation reaches is shown (the CLI's table, the dashboard's column; README)
BREAK_EVEN_NEVER = "never"


def never_breaks_even(utilisation: float) -> bool:
    """True where no utilisation pays the card off against the cloud offer (`utilisation`: engine.readback.break_even's
    break_even_utilisation, a share of the card's hours): inf (cloud work costs less than the card's energy) or above
    1 (it would have to work more hours than there are). NaN: False."""
    return utilisation > 1


def break_even_shown_as(utilisation: float) -> float | str:
    """A break-even utilisation as a table shows it: BREAK_EVEN_NEVER where `never_breaks_even`, else the number (the
    dashboard's column and the CLI's table; JSON, CSV and the workbook keep the number)."""
    return BREAK_EVEN_NEVER if never_breaks_even(utilisation) else utilisation


def shown_share(pct: float, decimals: int = 2) -> float:
    """A share of a total in percent rounded as the reports show it: to `decimals` decimals, or to two significant
    digits where it is under SMALL_SHARE_PCT but not 0 (0.0091, never 0); NaN and inf as they are."""
    if not math.isfinite(pct):
        return pct
    if 0 < abs(pct) < SMALL_SHARE_PCT:
        return float(f"{pct:.2g}")
    return round(pct, decimals) + 0.0   # + 0.0: no "-0.00"


def share_text(pct: float, decimals: int = 2) -> str:
    """`shown_share(pct, decimals)` as text: "1.69" with `decimals` decimals, "0.0091" or "0.000012" for a small
    share (written out, never "1.2e-05"). The CLI, the Markdown summary and the dashboard all show a share so."""
    shown = shown_share(pct, decimals)
    if 0 < abs(pct) < SMALL_SHARE_PCT:   # (0.0499's two digits are 0.05)
        return np.format_float_positional(shown, trim="-")
    return f"{shown:.{decimals}f}"


def site_cost_note(plan: Plan, field: str = "fixed_onprem_per_month") -> str:
    """Why the fleet's cost column falls short of the plan's total, in one sentence (the CLI's fleet table, the
    Markdown summary, the workbook's fleet sheet), or "" where its rows add up to it: the site's fixed cost
    (`fixed_onprem` in cost by category) belongs to no one row. `field` names the scenario field as the output
    shows code (Markdown: in backticks)."""
    costs = held(plan, "costs")
    site = float(costs.loc[costs["category"] == "fixed_onprem", "cost"].sum())
    if not site:
        return ""
    return (f"The rows add up to the total less the site's fixed cost, {site:,.0f} {plan.currency} "
            f"({field}, shared by every on-prem unit).")


def owned_end_value_words(plan: Plan) -> str:
    """What the plan's total holds of the end value of the cards owned before the plan that it keeps to the end,
    "of which −1,056 USD: the end value of the 2 cards owned before the plan and kept", or "" where it holds none:
    a credit that makes a total below the bills paid (a cloud bill of 1,350 USD and a total of 353 USD) and that
    the total's line did not name. Read from the plan's `owned` table: each batch's `end_value` (present value,
    engine.readback.owned_decisions), and the cards of the batches with one (kept and switched off). "" for a plan
    whose owned table has no `end_value` column (one made before it had)."""
    owned = held(plan, "owned")
    if not len(owned) or "end_value" not in owned:
        return ""
    valued = owned[owned["end_value"].fillna(0) != 0]
    present = float(valued["end_value"].sum())
    units = int(valued["kept"].sum() + valued["switched_off"].sum())
    if units == 0 or round(present) == 0:
        return ""
    how = [word for word, column in (("kept", "kept"), ("switched off", "switched_off")) if valued[column].any()]
    return (f"of which {f'{-present:,.0f}'.replace('-', '−')} {plan.currency}: the end value of the "
            f"{counted(units, 'card')} owned before the plan and {' and '.join(how)}")


def binds_words(binds) -> list[str]:
    """A cap costs table's `binds` column (True, False, or None when it cannot be told) as the CLI and the
    dashboard show it: yes, no, ? (None or NaN, as a plan read back from JSON may hold it)."""
    return ["?" if b is None or b != b else "yes" if b else "no" for b in binds]


def grouping_line(plan: Plan) -> str:
    """One line when the weekly profile was grouped into blocks: the bound on the cost error it can cause
    (computed by a second solve, engine.profile_slots; with the solver's gap where it did not prove the plan
    optimal), and the groupings planned before whose bound was above the tolerance (refined_from); empty when
    the plan is exact and was planned so."""
    g = plan.profile_grouping
    if not g:
        return ""
    before = _refined_from(g)
    if g["slots"] >= g["weight_classes"]:
        return f"profile planned exactly on its {counted(g['weight_classes'], 'distinct hourly weight')}: {before}"
    head = (f"profile grouped: {counted(g['weight_classes'], 'distinct hourly weight')} in "
            f"{counted(g['slots'], 'load-duration block')} "
            f"({before + '; ' if before else ''}profile_slots; 168 = exact)")
    if g.get("error_bound") is None:
        return head + ("; the bound on the cost error is unknown (its solve gave none: the time limit, constraints "
                       "of your own that the blocks at their mean weights cannot meet, or a solver that failed, which a "
                       "warning then names)")
    gap = "" if plan.status == "optimal" else UNPROVEN_GAP   # the total may lie above the grouped optimum too
    return (head + f"; the exact optimum is at most {g['error_bound']:,.0f} {plan.currency} "
            f"({g['error_bound_pct']:.2f} %) below this total (lower bound {g['lower_bound']:,.0f}){gap}")


# a baseline's bound on the cost error of a grouped profile where its bound solve gave none (the time limit, or a
# solver that failed)
BOUND_UNKNOWN = "unknown"


def baselines_grouped(plan: Plan) -> bool:
    """Whether the plan's baselines were solved on a grouped profile's blocks, so that each has a bound on its cost
    error (the baselines table's error_bound, NaN where its bound solve gave none: `BOUND_UNKNOWN`): the plan's
    profile groups weekly hours of different weights (profile_grouping) and its table has the bounds. Told by the
    grouping, not by the bounds known: a table whose every bound is unknown is not exact, and every report shows
    the bounds (or says them unknown) for the same plans."""
    g = plan.profile_grouping
    return bool(g) and g["slots"] < g["weight_classes"] and "error_bound" in held(plan, "baselines")


def baseline_bounds_line(plan: Plan) -> str:
    """One line when the baselines were solved on a grouped profile's blocks (`baselines_grouped`): how far each
    baseline's total may lie above its exact optimum (the baselines table's error_bound,
    engine.baselines.grouping_lower_bounds), "unknown" where its bound solve gave none; empty when the profile is exact
    or no baseline has a total."""
    g, table = plan.profile_grouping, held(plan, "baselines")
    if not baselines_grouped(plan):
        return ""
    each = [f"{name} {BOUND_UNKNOWN if error != error else f'{error:,.0f} {plan.currency} ({pct:.2f} %)'}"
            for name, total, error, pct in zip(table["baseline"], table["total"], table["error_bound"],
                                               table["error_bound_pct"]) if total == total]   # not NaN: a total
    if not each:
        return ""
    return (f"baselines on the same {counted(g['slots'], 'block')}: each exact optimum is at most this much below its total — "
            + ", ".join(each))


def _refined_from(grouping: dict) -> str:
    """"24 blocks bounded the cost error at 8.26 % and 48 at 2.73 %, above the 1 % tolerance", or "" where the
    plan kept its first grouping."""
    tried = grouping.get("refined_from") or []
    if not tried:
        return ""
    bounds = [f"{counted(t['slots'], 'block')} bounded the cost error at {t['error_bound_pct']:.2f} %" if i == 0 else
              f"{t['slots']} at {t['error_bound_pct']:.2f} %" for i, t in enumerate(tried)]
    return f"{' and '.join(bounds)}, above the {grouping['tolerance_pct']:g} % tolerance"


def price_dates(prices: dict, currency: str = "") -> str:
    """How old the prices a plan used are, for one line: "dated 2023-11-23 to 2026-07-20, 1 undated",
    "every price used undated", "1 undated, 1 quoted in the scenario", or the text as it reads without a date ("1 quoted
    in the scenario"); with how much of
    the total rests on the undated and on the stale ones where the plan says it (engine.readback.prices_used):
    "dated 2026-03-20 to 2026-07-20, 1 undated (1.3 % of the total); 1 older than 180 days (66.4 % of the total)",
    or, of a total at or below 0 (no share of it reads right), the amount in `currency`: "1 undated (876 USD of the
    total); 1 older than 180 days (a credit of 1,732 USD of the total)"."""
    dates = prices.get("as_of_text") or "undated"
    if dates == "undated":
        return "every price used undated"
    said = f"dated {dates}" if dates[:4].isdigit() else dates
    undated, stale = prices.get("undated_prices") or 0, prices.get("stale_prices") or 0
    if undated and said.startswith("undated, "):   # every price of the data undated, beside the scenario's own quotes
        said = f"{undated} {said}"   # counted, so that its share below is said as for dated ones (it was dropped)
    if undated and (part := _of_the_total(prices, "undated", currency)):
        words = f"{undated} undated"
        said = said.replace(words, f"{words} ({part})", 1)
    if stale and (part := _of_the_total(prices, "stale", currency)):
        said += f"; {stale} older than {STALE_AFTER_DAYS} days ({part})"
    return said


def _of_the_total(prices: dict, kind: str, currency: str) -> str:
    """How much of the total rests on the `kind` (undated, stale) prices: "23.4 % of the total", "under 0.1 % of the
    total", "a credit of 3 % of the total" (a sale's); of a total at or below 0 (no share), "876 USD of the total",
    "a credit of 2,121 USD of the total"; "" where the plan does not say it (saved before it did, or a total of 0
    before the costs were kept)."""
    share, cost = prices.get(f"{kind}_share_of_total"), prices.get(f"{kind}_cost")
    if share is None and cost is None:
        return ""
    # the part's own sign: a share's flips with a total below 0 (a plan saved before the costs: its share's, right
    # where its total is above 0)
    credit = (cost if cost is not None else share) < 0
    if share is not None:
        pct = abs(share) * 100
        words = "under 0.1 %" if 0 < pct < 0.05 else f"{number_text(pct, 1)} %"
    else:
        words = ("under 1" if 0 < abs(cost) < 0.5 else f"{abs(cost):,.0f}") + (f" {currency}" if currency else "")
    return f"{'a credit of ' if credit else ''}{words} of the total"


def assumption_line(plan: Plan) -> str:
    """One line: the scenario's fx rates (`fx_words`), purchases every k months, resale value, what owned cards may do."""
    a = hardware_assumptions(plan)
    if not a:
        return ""
    resale = ("worth nothing when sold" if a["resale_method"] == "none" else
              f"sold at {a['resale_share_of_book']:g} × {a['resale_method'].replace('_', '-')} book value")
    owned = " or ".join([c for c, on in (("sold", a["sell_owned"]), ("switched off", a["switch_off_owned"])) if on])
    # the rates every price in another currency was converted at, as summary.md's row fx words them; first, so that the
    # dashboard's caption names the fields of the rest after it
    fx = fx_words(plan)
    return (f"assumptions: {f'{fx} (fx); ' if fx else ''}cards bought every {counted(a['purchase_every_months'], 'month')}, "
            f"retired at end of life and {resale}; owned cards may be {owned or 'kept only'}")


def fx_words(plan: Plan) -> str:
    """The scenario's exchange rates as summary.md's row `fx` and the terminal's assumptions line word them:
    "1 USD = 0.92 EUR" (scenario-currency units per one of each; "; " between them), a rate given for the scenario's
    own currency "EUR: ignored (the scenario currency)"; "" without rates or without the scenario."""
    fx, cur = getattr(plan.scenario, "fx", None), plan.currency
    if not fx:
        return ""
    return "; ".join(f"1 {k} = {v:,.10g} {cur}" if k != cur else f"{k}: ignored (the scenario currency)"
                     for k, v in fx.items())


def summary_table(plan: Plan, start: date | None = None) -> pd.DataFrame:
    """field/value rows: the plan's headline figures. `total` is the plan total (present value)."""
    rows: list[tuple[str, Any]] = [
        ("scenario", plan.scenario_name), ("status", plan.status), ("currency", plan.currency),
        ("horizon_months", plan.horizon_months), ("total", float(plan.total)),
        ("version", __version__), ("generated_at", generated_at(plan))]
    if start is not None:
        rows.append(("plan_start", start.isoformat()))
    costs, baselines = held(plan, "costs"), held(plan, "baselines")
    rows += [(f"cost.{c}", float(v)) for c, v in zip(costs["category"], costs["cost"])]
    for b in baselines.itertuples(index=False) if len(baselines) else ():
        rows.append((f"baseline.{b.baseline}.total", None if b.total != b.total else float(b.total)))
        rows.append((f"baseline.{b.baseline}.savings", None if b.savings != b.savings else float(b.savings)))
    rows += [(f"assumption.{k}", v) for k, v in hardware_assumptions(plan).items()]
    rows += [(f"warning.{i}", w) for i, w in enumerate(plan.warnings, start=1)]
    prices = written_prices(plan)
    rows += [("energy_kwh", plan.energy_kwh), ("prices.source", prices.get("source"))]
    if prices.get("pinned_snapshot") is not None:   # the scenario's prices.snapshot: the store as it stood then
        rows.append(("prices.pinned_snapshot", prices["pinned_snapshot"]))
    rows += [("prices.as_of", plan.prices.get("as_of_text", plan.prices.get("as_of"))), ("solver", plan.solver.get("name")),
             ("solver.status", plan.solver.get("status")), ("solver.gap", plan.solver.get("gap")),
             ("solver.seconds", plan.solver.get("seconds"))]
    return pd.DataFrame(rows, columns=["field", "value"])
