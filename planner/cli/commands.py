"""The `fleetplan` commands: validate, schema, offers, inventory, plan, compare, sweep (the `prices`
commands are in planner/cli/prices.py). They format what the engine returns; none computes a cost.

JSON and CSV go to stdout untouched; messages and warnings go to stderr. A reader that stops early
(`fleetplan offers --format csv | head -1`) ends the command quietly with exit 0 (`_Group`).

The engine, the reports and pandas are imported inside the commands that use them: `fleetplan --help`,
`validate` and `schema` load none of them (tests/planner/test_startup.py).
"""

from __future__ import annotations

import gc
import json
import math
import numbers
import os
import re
import sys
from collections.abc import Collection
from enum import Enum
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import typer
from typer.core import TyperGroup

from planner.cli.console import (
    CONTEXT_SETTINGS,
    COUNT_IN,
    HELP_MARKUP,
    TABLE_ROWS,
    Format,
    _plain_stderr,
    choice_option,
    emit,
    err,
    escape,
    fail,
    infeasible,
    infeasible_text,
    number_readings,
    number_within,
    os_error,
    path_given,
    progress_bar,
    quiet_broken_pipe,
    seconds_within,
    skip_teardown,
    solve_progress_line,
    stdout_console,
    store_option,
)
from planner.errors import (
    InfeasibleError,
    ModelTooLarge,
    PlannerError,
    PricesRefuteScenario,
    PriceStoreLocked,
    PriceStoreUnusable,
    ScenarioError,
    TooManyPurchaseVariables,
)
from planner.text import counted, one_line, plural, shortened
from pricing_adapters.shown import days_old

# The environment variables the planner, its price adapters and `fleetplan dashboard` read (shown at the end of
# `fleetplan --help`).
ENVIRONMENT = [
    ("FLEETPLAN_STORE", "price store file (default: prices.sqlite in the platform's data directory)"),
    ("FLEETPLAN_AZURE_PRICES_URL", "Azure Retail Prices API (default https://prices.azure.com/api/retail/prices)"),
    ("FLEETPLAN_AZURE_ARM_URL", "Azure Resource Manager, for VM size facts (default https://management.azure.com)"),
    ("AZURE_SUBSCRIPTION_ID", "Azure subscription for VM size facts (or `prices refresh --subscription`)"),
    ("AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_PRICING, AWS_ENDPOINT_URL_EC2", "AWS API endpoints (boto3)"),
    ("AWS_PROFILE, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN",
     "AWS credentials (boto3's chain: also config and credentials files, SSO)"),
    # read by `fleetplan dashboard`'s server (fleetplan_dashboard.jobs, .state, .trace), named here, not imported
    ("FLEETPLAN_DASHBOARD_TIME_LIMIT", "`fleetplan dashboard`: seconds a plan's solves may take in all (default 60); "
                                       "each baseline's solve as long, the re-solves of what each decision is worth "
                                       "five times that in all"),
    ("FLEETPLAN_DASHBOARD_WORKERS", "`fleetplan dashboard`: 0 plans everything in the server's process, not in a "
                                    "worker process (default 1)"),
    ("FLEETPLAN_DASHBOARD_TRACE", "`fleetplan dashboard`: FILE to append each page run's timings to (for "
                                  "benchmarks/dashboard_browser.py)"),
]
EPILOG = "Environment variables:\n\n" + "\n\n".join(f"{name}: {what}" for name, what in ENVIRONMENT)


class _Group(TyperGroup):
    """The root group: a closed stdout (the reader stopped early) ends any command quietly with exit 0,
    instead of click's exit 1 (which is `infeasible` here) or a traceback at the final flush."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)    # --help and --version print here
        except BrokenPipeError:
            quiet_broken_pipe()
        except SystemExit as exc:
            _rich_broken_pipe(exc)

    def invoke(self, ctx):
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()      # fail here, not at exit, when the reader has gone
        except BrokenPipeError:
            quiet_broken_pipe()
        except SystemExit as exc:
            _rich_broken_pipe(exc)
        except OSError as exc:          # stdout on a full disk: one line, exit 2
            os_error(exc)


def _rich_broken_pipe(exc: SystemExit) -> None:
    """rich (tables, help) meets a closed stdout by pointing it at the null device and raising
    SystemExit(1) while handling the BrokenPipeError: make that exit 0 too; re-raise any other exit."""
    if isinstance(exc.__context__, BrokenPipeError):
        raise typer.Exit(0) from None
    raise exc


app = typer.Typer(cls=_Group, no_args_is_help=True, context_settings=CONTEXT_SETTINGS, rich_markup_mode=HELP_MARKUP,
                  epilog=EPILOG, help="GPU fleet planner: buy, rent from AWS/Azure, or mix — at the lowest total cost.")


def shadowing_packages() -> list[str]:
    """Other installed distributions that also provide our top-level packages (`planner` and
    `pricing_adapters` are common names: installing such a distribution would overwrite ours)."""
    from importlib.metadata import packages_distributions

    owners = packages_distributions()
    return [f"{pkg} is also provided by {', '.join(sorted({d for d in owners[pkg] if d != DISTRIBUTION}))}"
            for pkg in ("planner", "pricing_adapters") if set(owners.get(pkg, [])) - {DISTRIBUTION}]


DISTRIBUTION = "gpu-fleet-planner"


def _print_version(value: bool) -> None:
    """The version and where the packages were imported from (which copy runs), and a warning when
    another installed distribution provides a package of the same name."""
    if value:
        import planner
        import pricing_adapters
        from planner import __version__

        sys.stdout.write(f"fleetplan {__version__}\nplanner: {Path(planner.__file__).parent}\n"
                         f"pricing_adapters: {Path(pricing_adapters.__file__).parent}\n")
        for problem in shadowing_packages():
            err.print(f"warning: {problem}; uninstall it or use a separate virtual environment")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Show the version and exit."),
) -> None:
    """GPU fleet planner: buy, rent from AWS/Azure, or mix — at the lowest total cost."""


# --------------------------------------------------------------------------------------------------


class ValidateFormat(str, Enum):
    """validate's outputs: no csv, as its problems are no table of like rows (each file has its own)."""
    table = "table"
    json = "json"


@app.command()
def validate(files: list[Path] = typer.Argument(..., metavar="SCENARIO", parser=path_given("a file"),
                                               help="scenario YAML files"),
             store: Path | None = store_option(),
             fmt: ValidateFormat = choice_option(
                 ValidateFormat.table, "--format",
                 help="table (each problem and an ok line per file, on stderr) | json (one object on stdout: ok, and "
                      "each file's problems — errors and warnings — with their line, column, field and message). "
                      "No csv: the problems are no table")) -> None:
    """Check scenario files; report every problem of every file, with its line. Exit 2 when a file has an error
    (warnings alone exit 0). A model plan refuses as too large without --time-limit is a warning where the scenario
    alone shows it (its card purchases: --max-purchase-variables); the model's dispatch variables and reservation
    offers depend on the prices and are checked by plan (--max-variables)."""
    skip_teardown()

    try:
        _check_store(store)
    except PlannerError as exc:
        fail(exc)
    checked = []
    for path in files:
        checked.append(_validated_file(path, store))
        if fmt is ValidateFormat.table:   # said as each file is checked
            _print_validated(checked[-1])
    if fmt is ValidateFormat.json:
        sys.stdout.write(json.dumps(_validation_json(checked), indent=2) + "\n")
    if not all(file.ok for file in checked):
        raise typer.Exit(2)


class ValidatedFile(NamedTuple):
    """What validate found in one file: its scenario (None when it does not load, or the file cannot be read), its
    errors and warnings, each "FILE:LINE:COL: field: message" (or "FILE: …" where no place is known), in the order
    validate prints them. `warnings` start with the field they are about; `unplaced_warnings` (what the prices say:
    a purchase option with no price) with no field; `prices_read` what the prices checked against are, where they
    are not those asked (no price store: the packaged snapshot's; a locked store: none), said before the file's ok
    line, which they qualify."""

    file: str
    scenario: Any
    errors: list[str]
    warnings: list[str]
    unplaced_warnings: list[str]
    prices_read: list[str]

    @property
    def ok(self) -> bool:
        return self.scenario is not None and not self.errors


def _validated_file(path: Path, store: Path | None) -> ValidatedFile:
    """Every problem of the scenario file at `path` in one pass (its model, its regions against the prices, its
    numbers for units), as validate reports them."""
    from planner.scenario.cost_basis import scenario_cost_warnings, whole_board_gaps
    from planner.scenario.loading import (
        check_scenario_file,
        dotted,
        in_file_order,
        plausibility_warnings,
        plausibility_warnings_as_written,
        prices_as_written,
        text_places,
    )
    from planner.scenario.model import assumed_site_figures

    try:
        checked = check_scenario_file(path)
    except ScenarioError as exc:   # not read at all: not found, not UTF-8 text
        return ValidatedFile(str(path), None, exc.problems, [], [], [])
    scenario = checked.scenario
    if scenario is not None:
        problems, warnings = _price_checks(scenario, store)
        # a workload no unit allowed can serve (too little GPU memory): plan's "no fleet", said before its wait
        problems += _serving_checks(scenario, store, checked.text, str(path)) if not problems else []
        # unit minimums whose new cards alone pass the capex budget or power cap: plan's "no fleet", at once
        problems += _min_units_checks(scenario, checked.text, str(path))
        too_large, may_be = _size_checks(scenario)
        unpriced, not_bought = _card_checks(scenario)
        # bounds of a card sold as whole boards that hold no whole board: plan stops on them (engine.inputs)
        problems, warnings = problems + too_large + unpriced + whole_board_gaps(scenario), warnings + may_be
        implausible = plausibility_warnings(scenario)
    else:
        # every problem in one pass: what can be checked without the whole scenario is checked on the file's
        # values as written, its regions against the prices and its numbers for units, beside the model's problems
        written = prices_as_written(checked.data, checked.base_dir) if checked.data is not None else None
        problems, warnings = ([], []) if written is None else _price_checks(
            _scenario_of_prices(written, checked.data, checked.base_dir), store, whole=False)
        implausible = plausibility_warnings_as_written(checked.data, checked.base_dir) if checked.data is not None else []
        # units required of a card with no sourced price: an error plan gives too, said beside the model's
        unpriced, not_bought = _card_checks(_cards_as_written(checked.data)) if checked.data is not None else ([], [])
        problems = problems + [(field, text) for field, text in unpriced
                               if not any(p.startswith(f"{path}:") and dotted(field) in p for p in checked.problems)]
        not_bought = []
    # values that look typed in another unit, placed in the text validated as its problems are
    fields = [field for field, _ in implausible] + [field for field, _ in problems if field]
    places = dict(zip(fields, text_places(checked.text, str(path), fields)))
    placed = [f"{places[field] if field else path}: {problem}" for field, problem in problems]
    implausible = _not_rejected(implausible, places, [*(checked.problems if scenario is None else []), *placed],
                                str(path))
    errors = placed if scenario is not None else in_file_order(checked.problems + placed)
    read = [w for w in warnings if w.startswith("prices: ")]   # (_price_checks' words of the prices read)
    # a card with no sourced price, at the entry that names it: its onprem.cards item, or its key in existing/min_units
    cards = text_places(checked.text, str(path), [field for field, _ in not_bought], value=False)
    # the site figures on-prem cards are costed with left to the defaults, at the `onprem` key
    assumed = assumed_site_figures(scenario) if scenario is not None else []
    # lower-bound catalog prices of cards listed, a capex budget below any card's price: at the field each is about
    assumed += scenario_cost_warnings(scenario) if scenario is not None else []
    sites = text_places(checked.text, str(path), [field for field, _ in assumed], value=False)
    # a purchase option with no price ("reserved_1y: no reserved_1y prices …"), at its prices.purchase_options item
    options = list(scenario.prices.purchase_options) if scenario is not None and scenario.prices.options_given else []
    gaps = [(("prices", "purchase_options", options.index(w.split(": ", 1)[0])), w) for w in warnings
            if w not in read and w.split(": ", 1)[0] in options]
    gap_places = text_places(checked.text, str(path), [field for field, _ in gaps])
    return ValidatedFile(str(path), scenario, errors,
                         [*(f"{places[field]}: {text}" for field, text in implausible),
                          *(f"{place}: {text}" for place, (_, text) in zip(cards, not_bought)),
                          *(f"{place}: {text}" for place, (_, text) in zip(sites, assumed)),
                          *(f"{place}: {dotted(field)}: {text}" for place, (field, text) in zip(gap_places, gaps))],
                         [f"{path}: {w}" for w in warnings if w not in read and w not in dict(gaps).values()],
                         [f"{path}: {w}" for w in read])


def _scenario_of_prices(prices, data: dict, base_dir: Path | None) -> SimpleNamespace:
    """What _price_checks reads of a scenario file that does not load: `prices` (scenario.loading.prices_as_written
    of its `data`), naming its offers CSV as the file wrote it (fileio.files_as_written), as a scenario that loads
    does: absolute as written, else relative to the file's folder `base_dir` (offers/q3.csv, not the path it was
    resolved to, /home/u/plans/offers/q3.csv, which the user never wrote)."""
    from planner.catalog.prices import PRICE_SOURCE_WORDS
    from planner.fileio import written_path

    if base_dir is None or prices.source in PRICE_SOURCE_WORDS:
        return SimpleNamespace(prices=prices)

    given = str(data["prices"]["source"])
    folder = Path(os.path.realpath(base_dir))   # as the loader keeps a scenario's folder (fileio.file_folder)
    shown = given if os.path.isabs(given) else written_path(prices.source, folder)
    return SimpleNamespace(prices=prices, _folder=folder, _files_as_written={"prices.source": (prices.source, shown)})


def _print_validated(file: ValidatedFile) -> None:
    """On stderr: what prices the file was checked against where they are not those asked (the ok line means "ok on
    those"), then its errors, each a line `error: FILE:LINE:COL: …` (the first MAX_PROBLEMS_SHOWN), else its ok line
    (its scenario's name, workloads and months), then its warnings, and after a file's errors where there are more
    than one, how many. A file that does not load had its problems under a line `FILE: N problems`, unlabelled,
    where one problem of a file that loads was an `error:` line: one form for both."""
    from planner.errors import MAX_PROBLEMS_SHOWN

    for warning in file.prices_read:
        err.warn(warning)
    for problem in file.errors[:MAX_PROBLEMS_SHOWN]:
        err.labelled("error:", problem, "bold red")
    if file.ok:
        scenario = file.scenario
        workloads, months = len(scenario.workloads), scenario.horizon_months   # "1 workload, 1 month", not "1 months"
        err.labelled("ok", f"{file.file}: {one_line(scenario.name)} — {counted(workloads, 'workload')}, "
                           f"{counted(months, 'month')}", "green")
    warnings = [*file.warnings, *file.unplaced_warnings]
    for warning in warnings:
        err.warn(warning)
    if len(file.errors) > 1:
        shown = (f" (the first {MAX_PROBLEMS_SHOWN:,} shown; --format json lists them all)"
                 if len(file.errors) > MAX_PROBLEMS_SHOWN else "")
        err.print(f"{file.file}: {counted(len(file.errors), 'error')}"
                  + (f", {counted(len(warnings), 'warning')}" if warnings else "") + shown)


def _validation_json(checked: list[ValidatedFile]) -> dict:
    """validate's findings as data: ok (no file has an error), and per file its name as given, ok, its scenario's
    name, workloads and horizon (null where it does not load), and its problems, errors first, each with its
    severity, line and column (null where the file has no place for it), field (null where it names none) and
    message."""
    return {"ok": all(file.ok for file in checked), "files": [{
        "file": file.file, "ok": file.ok,
        "scenario": None if file.scenario is None else file.scenario.name,
        "workloads": None if file.scenario is None else len(file.scenario.workloads),
        "horizon_months": None if file.scenario is None else file.scenario.horizon_months,
        "problems": [*(_finding(text, file.file, "error") for text in file.errors),
                     *(_finding(text, file.file, "warning") for text in file.warnings),
                     *(_finding(text, file.file, "warning", fielded=False)
                       for text in [*file.prices_read, *file.unplaced_warnings])],
    } for file in checked]}


# A field as validate's problems name it: `horizon_months`, `workloads[0].reference_gpu`, `onprem.card_overrides.rtx-4090`
FIELD_PATH = re.compile(r"([A-Za-z_][\w-]*(?:\[\d+\]|\.[^\s.:\[\]]+)*): ")


def _finding(text: str, origin: str, severity: str, fielded: bool = True) -> dict:
    """A problem of validate, "ORIGIN:LINE:COL: field: message" (or "ORIGIN: …", with no place), as {severity, line,
    column, field, message}; null where the text has none. `fielded`: its message starts with the field it is about
    (what a check of the prices says of an option, "reserved_1y: no reserved_1y prices …", names no field)."""
    line = column = field = None
    message = text
    if text.startswith(origin):
        rest = text[len(origin):]
        if place := re.match(r":(\d+):(\d+): ", rest):
            line, column, message = int(place[1]), int(place[2]), rest[place.end():]
        elif rest.startswith(": "):
            message = rest[2:]
    if fielded and (named := FIELD_PATH.match(message)):
        field, message = named[1], message[named.end():]
    return {"severity": severity, "line": line, "column": column, "field": field, "message": message}


def _not_rejected(implausible: list, places: dict, problems: list[str], origin: str) -> list:
    """Of `implausible` ((field, warning) pairs of plausibility_warnings), those whose field has no problem among
    `problems` ("FILE:LINE:COL: …"): a value a check rejects is said once, by its error ("busy_watts 0.4 is below
    the catalog's idle_watts 68 … did you mean 400?"), not again as a warning ("0.4 W is below any GPU's draw … write
    400"). A problem is the field's where it is placed where the field is (`places`: text_places'); a field the text
    does not place (a default) keeps its warning."""
    rejected = {found[0] for problem in problems if (found := re.match(rf"{re.escape(origin)}:\d+:\d+(?=: )", problem))}
    return [(field, text) for field, text in implausible if places[field] not in rejected]


def _price_checks(scenario, store: Path | None, whole: bool = True) -> tuple[list[tuple[tuple, str]], list[str]]:
    """(problems, warnings) of the scenario against its price source, as `plan` finds them, each problem with
    the path of the field it is about (() when none: the file is named alone): a region that
    no offer has (a typo: plan stops there), and purchase options allowed with no price (a loud gap, not an
    error: the plan uses the options that are priced), an offers CSV that `plan` would refuse (a bad cell,
    not found, a currency fx has no rate for), and what `plan` says of the price store (none there yet: the
    packaged snapshot is used). A file at its path that is no usable store (damaged, not ours, a folder: left where
    it is, as every check leaves what it reads) is a problem of prices.source (plan fails on it until it is moved); a
    store another process keeps locked a warning that the prices were not checked (plan would fail on it now, not
    once the lock clears). The packaged snapshot is read without pandas
    (`price_coverage`), so validating stays quick. `whole=False`: `scenario` holds only the `prices` of a file that
    does not load, as written (scenario.loading.prices_as_written), and only its regions are checked (and the store
    said): the offers' currencies and the options' gaps need the whole scenario."""
    from planner import catalog
    from planner.catalog.offers import SOURCE_FIELD
    from planner.catalog.prices import PRICE_SOURCE_WORDS, scenario_provenance
    from planner.scenario.loading import named_as_written
    source = scenario.prices.source
    try:
        coverage, provenance = catalog.price_coverage(source, store, scenario.prices.snapshot,
                                                      catalog.offers.prices_named(scenario))
    except PriceStoreLocked as exc:   # "ok" alone hid that plan would fail on it now; a lock clears by itself
        return [], [f"prices: {exc}; the scenario's prices were not checked"]
    except PriceStoreUnusable as exc:   # plan is certain to fail until the file is moved: no warning, an error
        return [(SOURCE_FIELD, f"prices.source: {exc}")], []
    except PlannerError as exc:
        if getattr(exc, "field", None):   # a pinned store snapshot that is not there (PricesRefuteScenario)
            return [(exc.field, str(exc))], []
        return ([((), f"prices.source: {exc}")] if source not in PRICE_SOURCE_WORDS else []), []
    # what plan says of the store too (none yet, the packaged snapshot used): silent, validate said only "ok"; a
    # store to make or fill with the refresh commands of the scenario's providers and regions, as plan names them
    # narrowed to the scenario's providers and regions as plan narrows it: an Azure eastus scenario pinned to a store
    # was told "aws: packaged snapshot (not refreshed up to snapshot #1)", which plan does not say (an audit)
    p = scenario.prices
    narrowed = scenario_provenance(provenance, p.providers, p.regions)
    said = [f"prices: {narrowed['warning']}"] if narrowed.get("warning") else []
    read = provenance["source"]   # the prices read: "snapshot" where no store was found
    try:
        catalog.check_regions(coverage, scenario, read)
        if whole and source not in PRICE_SOURCE_WORDS:   # an offers CSV says its own currencies: fx must convert them
            catalog.cloud_rows(scenario, catalog.price_table(source, store, named=catalog.offers.prices_named(scenario))[0],
                               read)
    except PlannerError as exc:   # a region no offer has: its list item (PricesRefuteScenario.field)
        return [(getattr(exc, "field", None) or (), str(exc))], said
    if not whole:
        return [], said
    # the prices named as plan names them: of those read, the scenario's (a store that holds none of its providers
    # and regions gives it the packaged snapshot's)
    used = named_as_written(scenario, narrowed["source"])
    return [], [*said, *catalog.option_gaps(scenario, coverage, used)]


def _serving_checks(scenario, store: Path | None, text: str, origin: str) -> list[tuple[tuple, str]]:
    """The workloads of `scenario` that no unit it allows can serve (catalog.servable: too little GPU memory per GPU,
    too few GPUs per node, spot only for a workload that is not interruptible …), each a problem at the field its
    reasons are about (workloads[i].min_gpu_memory_gb; the workload's name where that field is not written), in the
    words of plan's explanation (engine.explain.unservable_text), where plan finds no fleet after its solve's wait.
    The packaged snapshot is read without pandas (catalog.prices.offer_facts); a price source that does not read is
    left to _price_checks."""
    from planner.catalog import servable
    from planner.catalog.offers import prices_named, unpriced_card_rows
    from planner.catalog.prices import offer_facts
    from planner.scenario.loading import dotted, text_places

    p = scenario.prices
    try:
        offers = offer_facts(p.source, store, p.snapshot, prices_named(scenario))
    except PlannerError:
        return []
    unpriced = {card["card_id"] for card in unpriced_card_rows(scenario)}
    problems = []
    for j, field, why in servable.unservable(scenario, offers, unpriced):
        path = ("workloads", j, field)
        if text_places(text, origin, [path])[0] == origin:   # a default, not in the file: at the workload's name
            path = ("workloads", j, "name")
        problems.append((path, f"{dotted(path)}: {why}; `fleetplan plan` would find no fleet"))
    return problems


def _min_units_checks(scenario, text: str, origin: str) -> list[tuple[tuple, str]]:
    """The caps (onprem.capex_budget, capex_budget_per_year, power_cap_kw) that the cards constraints.min_units asks
    exceed alone, each a problem at the min_units entry of the first card that needs it, naming the cap's line
    (catalog.unit_floors.min_units_beyond_caps: on the figures the engine costs the cards by, and the units owned;
    the library's plan() makes the same check, without lines). Plan found no fleet after its solve's wait, and named
    the budget alone. Cards with no sourced price are _card_checks'."""
    from planner.catalog.unit_floors import min_units_beyond_caps
    from planner.scenario.loading import text_places

    def where(field: str) -> str:
        place = text_places(text, origin, [tuple(field.split("."))])[0]
        return f" (line {place.split(':')[-2]})" if place != origin else ""

    return [(("constraints", "min_units", floor.sku), why) for floor, why in min_units_beyond_caps(scenario, where)]


def _card_checks(scenario) -> tuple[list[tuple[tuple, str]], list[tuple[tuple, str]]]:
    """(problems, warnings) of the scenario's catalog cards with no sourced price (and no onprem.card_overrides price),
    in plan's words (catalog.unpriced_card_findings), each with the path of the field it is about: a card listed is
    not bought, one owned is never sold (its resale value is unknown), each warned of at the entry that names it
    first (its onprem.cards item, else its onprem.existing or constraints.min_units key), its path leading the text
    as other warnings' do; units required of one (constraints.min_units) an error, as plan refuses them. Read from
    the catalog's text rows, without pandas."""
    from planner.catalog.offers import units_required, unpriced_card_findings, unpriced_card_rows
    from planner.scenario.loading import dotted

    unpriced = unpriced_card_rows(scenario)
    required, warnings = unpriced_card_findings(unpriced)   # the errors in the order of the cards required
    fields = [("constraints", "min_units", card["card_id"]) for card in unpriced if units_required(card)]
    listed = [_listing_field(scenario, card["card_id"]) for card in unpriced] if warnings else []
    return list(zip(fields, required)), [(field, f"{dotted(field)}: {text}") for field, text in zip(listed, warnings)]


def _cards_as_written(data) -> SimpleNamespace:
    """What _card_checks reads of a scenario file that does not load, from its values as written: onprem.cards,
    existing, custom_cards, card_overrides and constraints.min_units, each only where it has its shape (a list of
    names, mappings by name, whole counts); anything else reads as none (the model's problems say it)."""
    def mapping(parent, key) -> dict:
        value = parent.get(key) if isinstance(parent, dict) else None
        return {k: v for k, v in value.items() if isinstance(k, str)} if isinstance(value, dict) else {}

    def count(value) -> int:
        value = value.get("count") if isinstance(value, dict) else value
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    onprem = data.get("onprem") if isinstance(data, dict) else None
    listed = onprem.get("cards") if isinstance(onprem, dict) else None
    existing = {card: count(v) for card, v in mapping(onprem, "existing").items()}
    overrides = {card: SimpleNamespace(**{k: v for k, v in o.items() if k in ("price", "host_cost_per_card")})
                 for card, o in mapping(onprem, "card_overrides").items() if isinstance(o, dict)}
    return SimpleNamespace(
        onprem=SimpleNamespace(cards=[c for c in listed if isinstance(c, str)] if isinstance(listed, list) else [],
                               existing=existing, custom_cards=mapping(onprem, "custom_cards"), card_overrides=overrides,
                               owned_count=lambda card: existing.get(card, 0)),
        constraints=SimpleNamespace(min_units={card: count(v) for card, v in
                                               mapping(data.get("constraints") if isinstance(data, dict) else None,
                                                       "min_units").items()}))


def _listing_field(scenario, card: str) -> tuple:
    """The path of the entry of `scenario` that names catalog card `card` first, in unpriced_card_rows' order: its
    onprem.cards item, else its onprem.existing key, else its constraints.min_units key."""
    o = scenario.onprem
    if card in o.cards:
        return ("onprem", "cards", list(o.cards).index(card))
    return ("onprem", "existing", card) if card in o.existing else ("constraints", "min_units", card)


def _size_checks(scenario) -> tuple[list[tuple[tuple, str]], list[str]]:
    """(problems, warnings) of the size of the model of `scenario` that plan, without --time-limit, refuses: more than
    MAX_PURCHASE_VARIABLES integer purchase variables, in plan's words. Without the catalog and the prices (pandas:
    validate stays quick) only the fewest and the most it holds are known (scenario.size.purchase_counts): said
    where the fewest are more (plan is certain to refuse it so), and where the most are (plan refuses it if each card
    listed is priced and can serve a workload). Its reservation offers and its dispatch variables (--max-variables) depend on
    the prices: plan checks them. Warnings both: plan plans either with --time-limit (or --max-purchase-variables),
    so the scenario holds no error."""
    from planner.scenario.size import FEWER_PURCHASES, FEWER_RESERVATIONS, purchase_counts, reservations_possible

    fewest, most = purchase_counts(scenario)
    reserved = reservations_possible(scenario)

    def refusal(count, least: bool = False, when: str = "") -> str:
        exc = TooManyPurchaseVariables((count.purchases, count.cards, count.months, count.owned, 0), MAX_PURCHASE_VARIABLES,
                                       FEWER_RESERVATIONS if reserved else FEWER_PURCHASES)
        return _too_many_purchases(exc, time_limit_allows=True, least=least, when=when)

    if fewest.total > MAX_PURCHASE_VARIABLES:
        return [], [refusal(fewest, least=reserved or fewest != most)]
    if most.total > MAX_PURCHASE_VARIABLES:
        return [], [refusal(most, least=reserved, when=" if each card listed is priced and can serve a workload (the "
                                                       "catalog says which)")]
    return [], []


@app.command()
def schema(out: Path | None = typer.Option(None, "--out", metavar="FILE", parser=path_given("a file"),
                                             help="write to this file instead of stdout")) -> None:
    """Write the JSON Schema of scenario files (for editor completion and checks)."""
    from planner.scenario import scenario_json_schema

    skip_teardown()

    text = json.dumps(scenario_json_schema(), indent=2) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    from planner.fileio import write_atomic

    try:
        _check_file_to_write(f"--out {out}", out, "a file name", "scenario.schema.json")
    except PlannerError as exc:
        fail(exc)
    try:
        write_atomic(out, text)
    except OSError as exc:
        fail(PlannerError(f"--out {out}: cannot write: {exc.strerror or exc}"))
    err.print(f"wrote {out}")


def _parse_fx(pairs: list[str], known: Collection[str] = (), shown: str = "USD") -> dict[str, float]:
    """currency code → USD per 1 unit, from `CODE=RATE` pairs (_read_fx: the rate of `shown` among them)."""
    return _read_fx(pairs, known, shown)[0]


def _read_fx(pairs: list[str], known: Collection[str] = (), shown: str = "USD") -> tuple[dict[str, float], Any]:
    """(currency code → USD per 1 unit, the ShownRate of `shown` or None for USD), from `CODE=RATE` pairs (the code
    in any case). `shown`: the currency `offers` shows its prices in (--currency), whose rate it needs (missing, it is
    asked for). Its rate is taken either way, the key saying which way it runs: `--fx EUR=1.087` is USD per 1 EUR, as
    a card's currency's is (`--fx CNY=0.13749`); `--fx USD=0.92` is EUR per 1 USD, as a scenario's fx {USD: 0.92} in
    EUR says it (copied as it is; refused, it was turned round by hand, and a rate turned the wrong way, 0.92 for
    1.087, cannot be told from a real one). Both given must agree to the digits given (`_agree`).

    PlannerError, naming every bad pair, for a malformed pair or a rate that is not a finite positive number (CNY=-1
    would make every yuan-priced card cost less than nothing) or is outside a scenario fx's bounds, a code that is no
    code of ISO 4217 list one (checked as a scenario's fx keys are, with the same "did you mean" and the date a
    withdrawn code was withdrawn), a code given twice, a rate for USD other than 1 where the prices are in USD (USD is
    1 by definition), the two spellings of the shown rate disagreeing, or — when `known` lists the currencies there
    are prices in — a code outside it: each of these was ignored without a word."""
    from planner.catalog import suggest
    from planner.cli.offers_table import ShownRate
    from planner.scenario.model import MAX_FX, currency_hint
    from pricing_adapters.currencies import LIST_ONE_FILE, is_iso_4217

    fx: dict[str, float] = {}
    written: dict[str, str] = {}   # the rates of `shown` and of USD as given (their digits: _agree)
    seen: set[str] = set()
    problems = []
    for pair in pairs:
        code, _, rate = pair.partition("=")
        code = code.strip().upper()
        try:
            value = float(rate)
        except ValueError:
            value = math.nan
        said = f"--fx {shortened(pair, repr)}"   # a pasted 120 KB value is not echoed whole
        unit = f"{shown} per USD" if code == "USD" and shown != "USD" else "USD per unit"
        if not (code and math.isfinite(value) and value > 0):
            comma = [d for d, why in number_readings(rate.strip()) if why]   # 0,92: a decimal comma
            problems.append(f"{said}: expected CODE=RATE with a rate > 0, e.g. --fx CNY=0.14 (USD per 1 CNY)"
                            + (f"; did you mean --fx {code}={comma[0]}? (a decimal point, not a comma)" if comma else ""))
        elif not 1 / MAX_FX <= value <= MAX_FX:   # the bounds of a scenario's fx: 1e308 overflowed a price to inf
            problems.append(f"{said}: expected a rate from {1 / MAX_FX:g} to {MAX_FX:g} {unit}, as a "
                            "scenario's fx takes")
        elif not is_iso_4217(code):   # EUE, BGN: three capital letters but no currency in use
            problems.append(f"{said}: {shortened(code, repr)} is not a currency code of ISO 4217 list one "
                            f"({LIST_ONE_FILE}){currency_hint(code) or ', e.g. --fx CNY=0.14'}")
        elif code == "USD" and shown == "USD" and value != 1:
            problems.append(f"{said}: the prices are shown in USD, so USD is 1 by definition; give the rate of a "
                            f"card's currency, e.g. --fx CNY=0.14 (USD per 1 CNY), or, for the prices in another "
                            f"currency at {value:g} of it per USD (a scenario's fx {{USD: {value:g}}}), add "
                            f"--currency <CODE>")
        elif code in seen:
            problems.append(f"{said}: {code} is given twice; give one rate")
        elif known and code not in known:
            near = suggest(code, sorted(known))
            # the one use of a rate for a currency nothing is priced in: showing the prices in it
            problems.append(f"{said}: nothing is priced in {code} (prices are in {', '.join(sorted(known))})"
                            + (f"; did you mean {near[0]}?" if near else "")
                            + (f"; to see the offers in {code}, add --currency {code} (this rate is USD per 1 {code})"
                               if not near else ""))
        else:
            seen.add(code)
            if code in (shown, "USD") and shown != "USD":
                written[code] = rate.strip()
            if code != "USD" or shown == "USD":   # (under another --currency, USD=r is r of it per USD: below)
                fx[code] = value
    shown_rate = None
    if shown != "USD":
        given = {code for code in (shown, "USD") if code in written}
        if len(given) == 2:
            shown_rate, disagree = _agree(shown, written[shown], written["USD"])
            if disagree:
                problems.append(disagree)
        elif given:
            (code,) = given
            shown_rate = ShownRate(shown, float(written[code]), per_usd=code == "USD")
        # (a --fx of the shown currency or of USD that is refused already says which rate to give)
        elif not {shown, "USD"} & {p.partition("=")[0].strip().upper() for p in pairs}:
            problems.append(f"--currency {shown}: give its rate, --fx {shown}=<USD per 1 {shown}> or --fx "
                            f"USD=<{shown} per 1 USD> (a scenario's fx {{USD: r}} in {shown}: --fx USD=r)")
        if shown_rate is not None:
            fx[shown] = shown_rate.usd_per_unit
    if problems:
        raise PlannerError("; ".join(problems))
    return fx, shown_rate


def _agree(shown: str, own: str, usd: str) -> tuple[Any, str]:
    """(the ShownRate of `shown` from both spellings of its rate, '' — or None and why they disagree). `own`: USD per
    1 `shown` (--fx EUR=1.087), `usd`: `shown` per 1 USD (--fx USD=0.92), each as written. They agree when one, turned
    round and rounded to the decimals the other is written with, is the other (1 / 0.92 = 1.0869565 is 1.087 to three
    decimals); the one written the more finely for its size is used (1.087, to 0.001 in 1.087, beside 0.92, to 0.01)."""
    from decimal import Decimal

    from planner.cli.offers_table import ShownRate

    e, u = float(own), float(usd)
    e_places, u_places = (-int(Decimal(text).as_tuple().exponent) for text in (own, usd))
    if round(1 / u, e_places) == e or round(1 / e, u_places) == u:
        if 10.0 ** -e_places / e <= 10.0 ** -u_places / u:
            return ShownRate(shown, e, agreeing=f"USD={u:.15g}"), ""
        return ShownRate(shown, u, per_usd=True, agreeing=f"{shown}={e:.15g}"), ""
    off = (e * u - 1) * 100
    # a rate and its inverse lie on either side of 1
    turned = f"; both are {'below' if e < 1 else 'above'} 1, so one of them is turned round" if (e - 1) * (u - 1) > 0 else ""
    return None, (f"--fx {shown}={e:.15g} and --fx USD={u:.15g} disagree: {shown}={e:.15g} reads 1 {shown} = {e:.15g} "
                  f"USD, USD={u:.15g} reads 1 USD = {u:.15g} {shown}, which is 1 {shown} = {1 / u:.6g} USD; "
                  f"{shown}={e:.15g} is {abs(off):.3g}% {'above' if off > 0 else 'below'} that, more than the "
                  f"rounding of their digits{turned}; give one of them")


def _offer_currencies() -> set[str]:
    """The currencies of `offers`' prices: the cards' own, and USD (cloud prices are in USD)."""
    from planner.catalog import load_cards

    return {"USD", *load_cards()["currency"].dropna()}


def _shown_currency(given: str) -> str:
    """The ISO 4217 code of `offers --currency` (in any case); PlannerError with a "did you mean" for one that is
    no code of list one."""
    from planner.scenario.model import currency_hint
    from pricing_adapters.currencies import LIST_ONE_FILE, is_iso_4217

    code = given.strip().upper()
    if not is_iso_4217(code):
        raise PlannerError(f"--currency {shortened(given, repr)}: expected a currency code of ISO 4217 list one "
                           f"({LIST_ONE_FILE}){currency_hint(code) or ', e.g. --currency EUR'}")
    return code


def _catalog_leaves_out() -> dict[str, str]:
    """card id -> what its catalog price leaves out (onprem_cards.csv `price_leaves_out`), for each card with one."""
    from planner.catalog import load_cards

    leaves = load_cards()["price_leaves_out"].fillna("").astype(str).str.strip()
    return {card: text for card, text in leaves.items() if text}


def _catalog_boards() -> dict[str, int]:
    """card id -> GPUs of the whole board it is sold as only (onprem_cards.csv `sold_in_units_of` > 1)."""
    from planner.catalog import board_gpus, card_rows

    return {card: gpus for card in card_rows() if (gpus := board_gpus(card)) > 1}


def _check_offer_numbers(**given: float | None) -> None:
    """PlannerError naming every option of `offers` outside the range a scenario allows for the same figure
    (--electricity -5 ranked on-prem cards below zero; nan filtered out every offer without a word)."""
    from planner.scenario.model import MAX_UNIT_PRICE

    ranges = {"min_memory": ("--min-memory", 0, 10_000), "max_price": ("--max-price", 0, MAX_UNIT_PRICE),
              "electricity": ("--electricity", 0, MAX_UNIT_PRICE), "pue": ("--pue", 1.0, 3.0), "limit": ("--limit", 0, None)}
    problems = []
    for name, value in given.items():
        option, least, most = ranges[name]
        if value is not None and not (math.isfinite(value) and least <= value and (most is None or value <= most)):
            span = f"from {least:g} to {most:g}" if most else f"≥ {least:g}"
            problems.append(f"{option} {value:g}: expected a number {span}")
    if problems:
        raise PlannerError("; ".join(problems))


TABLE_COLUMNS = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb",
                 "usd_per_hour", "usd_per_gpu_hour", "as_of"]
# Columns of `offers` that count (GPUs, vCPUs per unit). The offers table holds them as float64, for the empty
# cells of unknown counts and the partial GPUs of fractional VMs (1/6 of an A10), so its CSV and JSON wrote
# `gpu_count` 1.0 and `vcpus` 4.0; the table draws 1 already.
COUNT_COLUMNS = ("gpu_count", "vcpus")


def _whole_counts(table, fmt: Format):
    """`table` with each whole number of its COUNT_COLUMNS an int (written 1, not 1.0), a fraction as it is
    (0.5 GPU), and an unknown count None (null in JSON); for CSV, as text ("" for unknown): its writer would
    read a column of ints and None back as floats (1.0, NaN)."""
    import pandas as pd

    out = table.copy()
    for col in COUNT_COLUMNS:
        cells = [None if math.isnan(v) else int(v) if v.is_integer() else v for v in out[col].astype(float).tolist()]
        if fmt is Format.csv:
            cells = ["" if v is None else str(v) for v in cells]
        out[col] = pd.Series(cells, index=out.index, dtype=object)
    return out


@app.command()
def offers(
    ctx: typer.Context,
    gpu: str | None = typer.Option(None, "--gpu", metavar="GPU", help="GPU id, alias or family (A100-80GB finds PCIe and SXM)"),
    min_memory: float | None = typer.Option(None, "--min-memory", metavar="GB", parser=number_within("GB per GPU"),
                                            help="least GB per GPU"),
    provider: list[str] = typer.Option([], "--provider", metavar="PROVIDER", help="aws, azure, onprem (repeatable)"),
    region: list[str] = typer.Option([], "--region", metavar="REGION", help="region code (repeatable)"),
    option: list[str] = typer.Option([], "--option", metavar="OPTION", help="purchase option (repeatable)"),
    max_price: float | None = typer.Option(None, "--max-price", metavar="PRICE",
                                            parser=number_within("a price per GPU-hour"), help=(
        "most per GPU-hour, in --currency (USD unless given)")),
    fx: list[str] = typer.Option([], "--fx", metavar="CUR=RATE", help=(
        "USD per 1 unit of a card's currency, e.g. CNY=0.14; the rate of --currency either way round, the key says "
        "which: EUR=1.087 (USD per 1 EUR) or USD=0.92 (EUR per 1 USD, a scenario's fx {USD: 0.92} as written); "
        "both must agree")),
    currency: str = typer.Option("USD", "--currency", metavar="CUR", help=(
        "show the prices in this currency, at its --fx rate, e.g. --currency EUR --fx EUR=1.087 or --fx USD=0.92; "
        "--max-price and --electricity are read in it too")),
    # the defaults of a scenario's onprem (scenario.model, not imported here: --help stays quick; a test checks them)
    electricity: float = typer.Option(0.12, "--electricity", metavar="PRICE", parser=number_within("a price per kWh"), help=(
        "price of a kWh for on-prem cards, in --currency (USD unless given); default 0.12 USD (in another --currency, "
        "at its --fx rate): an assumption with no source (no current public average found); give your site's "
        "tariff")),
    pue: float = typer.Option(1.58, "--pue", metavar="PUE", parser=number_within("a PUE"), help=(
        "site PUE for on-prem cards; default 1.58: the industry average PUE of 2023, Uptime Institute "
        "(Uptime Intelligence Update 221, 2023-11-23)")),
    limit: int | None = typer.Option(None, "--limit", metavar="N", parser=number_within("a whole number of rows", whole=True),
                                      help="show only the first N rows"),
    fmt: Format = choice_option(Format.table, "--format"),
) -> None:
    """Every way to get a GPU: cloud offers (packaged snapshot) and on-prem cards, cheapest per GPU-hour first.

    On-prem cards are costed as owned and busy every hour of their life: capex (card + host share)
    over the life, maintenance, and busy watts × PUE × electricity.

    The table's `note` column numbers the notes listed under it (why a figure is empty: "gpu_count unknown";
    "lower bound: …" for a catalog price that leaves out part of the cost, the HGX H200's host; "sold only as whole
    8-GPU boards" for the HGX rows, priced per GPU; "undated" for a
    price with no date, its as_of cell "undated" too); csv and json carry the table's columns and vcpus, memory_gb,
    zone and the note itself too (an undated price's as_of empty), but not a price's source: a cloud price's is in
    the packaged snapshot (pricing_adapters/snapshots/), a card's in planner/data/onprem_cards.csv.
    --currency EUR --fx EUR=1.087 (USD per EUR) or --fx USD=0.92 (EUR per USD, as a scenario's fx says it) shows
    the prices in EUR (in csv and json to six decimals), the rate read back in the title and under the table (in
    csv and json, each note:
    "1 USD = 0.92 EUR (--fx USD=0.92)"); --max-price and --electricity are then in EUR too (the default electricity,
    0.12 USD a kWh, at that rate).
    On a terminal too narrow for the table, the headers are short and as_of, note, gpu_memory_gb, usd_per_hour
    are left out as needed (a line under the table names them).
    """
    from planner.cli.offers_table import CONVERTED_DECIMALS, UNDATED, caveated, in_currency, offers_narrower, rate_note
    from planner.engine.offer_costs import OfferFilter, offers_table

    skip_teardown()

    try:
        _check_offer_numbers(min_memory=min_memory, max_price=max_price, electricity=electricity, pue=pue, limit=limit)
        code = _shown_currency(currency)
        rates, shown_rate = _read_fx(fx, _offer_currencies() | {code}, shown=code)
        # --max-price and --electricity are in the currency shown; the default tariff is USD (no source either way)
        to_usd = shown_rate.to_usd if shown_rate is not None else float
        # (by name: typer has its own copy of click, whose ParameterSource is not click's)
        tariff_given = getattr(ctx.get_parameter_source("electricity"), "name", "DEFAULT") != "DEFAULT"
        table, warnings = offers_table(OfferFilter(
            gpu=gpu, min_memory_gb=min_memory, providers=tuple(provider), regions=tuple(region),
            options=tuple(option), max_usd_per_gpu_hour=None if max_price is None else to_usd(max_price),
            max_price_currency=code),
            fx_to_usd=rates, electricity_usd_per_kwh=to_usd(electricity) if tariff_given else electricity, pue=pue)
    except PlannerError as exc:
        fail(exc)
    for w in [*_option_gaps(provider, region, option), *warnings]:
        err.warn(w)
    if (said := _store_not_read()) is not None:
        err.warn(said, label="note")
    matched = len(table)
    if limit is not None:
        table = table.head(limit)
    unpriced = int(table["usd_per_gpu_hour"].isna().sum())   # the rows shown with no per-GPU price (sorted last)
    # what a price leaves unsaid, first in its note: a catalog price that is a lower bound, an undated price
    table = caveated(table, _catalog_leaves_out(), _catalog_boards())
    # the rate read back ("1 USD = 0.92 EUR (--fx USD=0.92)"): one given the wrong way round shows
    at_default = electricity if not tariff_given and table["provider"].eq("onprem").any() else None
    rate = rate_note(shown_rate, at_default) if shown_rate is not None else ""
    notes = []
    if fmt is Format.table:
        table = table.assign(as_of=[a if str(a).strip() else UNDATED for a in table["as_of"].fillna("")])
        table, notes = _noted(table)
    else:
        table = _whole_counts(table, fmt)
        if rate:   # the file's only words: each row says what its prices are
            table = table.assign(note=[f"{n} | {rate}" if n else rate for n in table["note"]])
    table = in_currency(table, shown_rate, decimals=None if fmt is Format.table else CONVERTED_DECIMALS)
    shown = _offers_title(len(table), matched, unpriced)
    # narrower than the table, the terminal gets short headers and fewer columns (planner/cli/offers_table.py)
    narrower = offers_narrower(table, code) if fmt is Format.table else None
    reading = f": {shown_rate.reading().partition(' (')[0]}" if shown_rate is not None else ""
    left_out = emit(table, fmt, title=f"{shown} ({code}{reading})", narrower=narrower)
    if "note" not in left_out:   # numbered notes of a note column not drawn would point at nothing
        _print_notes(notes)
    if rate and fmt is Format.table:
        _print_notes([rate], numbered=False)


def _offers_title(shown: int, matched: int, unpriced: int) -> str:
    """The title of `offers`' table, before its currency: `shown` of `matched` offers, `unpriced` of those shown with no
    per-GPU price (gpu_count unknown: sorted after the priced ones). "15 offers" under --limit 15 hid that 1,906
    matched: "the cheapest 15 of 1,906 offers"; but `--gpu V710 --limit 2` was titled "the cheapest 2 of 35 offers"
    though no V710 offer has a per-GPU price to be cheapest by."""
    if shown >= matched:
        return counted(shown, "offer")
    if not unpriced:
        return f"the cheapest {shown:,} of {matched:,} offers"
    if unpriced == shown:
        return f"{shown:,} of {matched:,} offers, none with a per-GPU price"
    # with any shown row unpriced, every priced row that matched is shown, first
    return (f"{shown:,} of {matched:,} offers: the {shown - unpriced:,} with a per-GPU price, cheapest first, then "
            f"{unpriced:,} of the {matched - shown + unpriced:,} without one")


def _store_not_read() -> str | None:
    """What `offers` says where a price store is at its place ($FLEETPLAN_STORE, else the data folder): its cloud
    prices are the packaged snapshot's, not the store's, which `plan` on `prices.source: store` uses (an audit read
    a store's refreshed 4.04 USD/h in plan beside offers' packaged 3.673, with nothing to tell them apart). None where
    there is no file there; the store is not opened."""
    from planner.catalog.prices import resolve_store
    from pricing_adapters.snapshot import snapshot_info

    try:
        path = resolve_store(None)
        if not path.is_file():
            return None
    except (OSError, ValueError):   # an unreadable $FLEETPLAN_STORE: plan says what is wrong with it
        return None
    return (f"the cloud prices shown are the packaged snapshot's (built {snapshot_info()['built_at'][:10]}), not those "
            f"of the price store at {path}: `fleetplan prices show` shows the store's")


def _option_gaps(providers: list[str], regions: list[str], options: list[str]) -> list[str]:
    """What plan and validate say of a cloud --option the packaged snapshot has no prices of for a --provider in
    the --regions (catalog.option_gaps): `offers --option reserved_1y` printed "0 offers" and nothing else."""
    from planner import catalog
    from pricing_adapters import registry

    cloud = registry.cloud_providers()
    providers = [p for p in providers if p in cloud] if providers else list(cloud)
    options = [o for o in dict.fromkeys(options) if o != "purchase"]   # (purchase: the on-prem cards')
    if not providers or not options:
        return []
    coverage, _ = catalog.price_coverage("snapshot")
    # the options asked on the command line are the user's own choice (a scenario's default ones are not warned of)
    return catalog.gaps_of_options(tuple(providers), tuple(regions) or None, tuple(options), coverage, "snapshot",
                                   plans=False)


def _noted(table) -> tuple:
    """(the TABLE_COLUMNS of `table`, and a `note` column of footnote numbers where a row drawn has a note; the
    notes, numbered from 1 in the order the rows first give them). A table without the note left an empty
    gpu_memory_gb or gpu_count unexplained ("gpu_memory_gb unknown"). The packaged snapshot's notes run to 141
    characters: a column of them would squeeze a table already some 150 wide, so they are printed under it."""
    # an on-prem card's note of several parts ("lower bound: … | capex = card + host share; …") is numbered part by
    # part, so the costing note every card shares is printed once, not again beside each card's own caveat (a cloud
    # offer's note stays whole: "undated | lowest of 2 zone quotes | spot time unknown")
    parts = [n.split(NOTE_PARTS) if n and onprem else ([n] if n else [])
             for n, onprem in zip(table["note"].fillna("").tolist(), table["provider"].eq("onprem").tolist())]
    notes = list(dict.fromkeys(part for row in parts[:TABLE_ROWS] for part in row))
    if not notes:
        return table[TABLE_COLUMNS], []
    number = {note: i for i, note in enumerate(notes, 1)}
    # numbers, NaN (drawn empty) for no note: the column stays right-aligned as the table's other numbers; a row of
    # several parts lists their numbers ("2, 1")
    numbers = [_note_numbers(row, number) for row in parts]
    if any(isinstance(n, str) for n in numbers):
        numbers = ["" if isinstance(n, float) and n != n else str(n if isinstance(n, str) else int(n)) for n in numbers]
    return table[TABLE_COLUMNS].assign(note=numbers), notes


NOTE_PARTS = " | "   # how an offer's note joins its parts (offers_table._first, the snapshot's own notes)


def _note_numbers(parts: list[str], number: dict[str, int]) -> float | str:
    """The footnote number(s) of a row's note `parts`: one as a float (NaN for none or a row not drawn), several as
    '2, 1'."""
    found = [number[part] for part in parts if part in number]
    if not found:
        return math.nan
    return float(found[0]) if len(found) == 1 else ", ".join(str(n) for n in found)


def _print_notes(notes: list[str], numbered: bool = True) -> None:
    """Under the table: `note 1: gpu_memory_gb unknown`, a line each (not `numbered`: the note alone)."""
    if not notes:
        return
    from rich.text import Text

    out = stdout_console(piped_width=240)
    for i, note in enumerate(notes, 1):
        # text, not markup; a line feed in a note shown as \n
        out.print(Text(one_line(f"note {i}: {note}" if numbered else note)))


# `--from -` reads standard input, as most command-line tools do; a file named "-" is `--from ./-`
STDIN = "-"


def _file_or_stdin(text) -> str:
    """The text of `--from`: STDIN, or a file's path as given (a Path would make "./-" the "-" of STDIN)."""
    text = str(text)
    if text != STDIN:
        path_given("a file")(text)   # refuses an empty value and a folder's "dir/"
    return text


@app.command()
def inventory(
    from_file: str | None = typer.Option(None, "--from", metavar="FILE", parser=_file_or_stdin,
                                          help="read saved nvidia-smi output instead of running it "
                                               "(- reads it from standard input)"),
    age_months: int | None = typer.Option(None, "--age-months", parser=number_within("a whole number of months", 0, 1200,
                                                                                     whole=True), metavar="N",
                                          help="the cards' age at month 1 of the plan (nvidia-smi does not know "
                                               "it; without it the block says 0, new, and asks you to set it)"),
) -> None:
    """Turn `nvidia-smi --query-gpu=name,memory.total,power.limit --format=csv,noheader` into `onprem.existing`:
    run here, or read with `--from FILE` (`--from -`: standard input, e.g. piped from `ssh gpu-host nvidia-smi …`)."""
    from planner.catalog.inventory import parse_inventory, read_inventory_file, read_inventory_stdin, read_nvidia_smi

    skip_teardown()

    try:
        if from_file is None:
            text = read_nvidia_smi()
        else:
            text = read_inventory_stdin() if from_file == STDIN else read_inventory_file(Path(from_file))
    except PlannerError as exc:
        fail(exc)
    inv = parse_inventory(text)
    for line, hint in inv.unknown:
        err.warn(f"{line} — {hint}", label="not counted")
    notes = _inventory_notes(inv.existing, age_months)
    for card, said in notes.items():
        for note in said:
            err.warn(f"{card}: {note}")
    sys.stdout.write(inv.yaml_block(age_months, notes))


def _inventory_notes(cards: Collection[str], age_months: int | None) -> dict[str, list[str]]:
    """What a scenario would say of each inventoried catalog card, pasted as counted: cards `age_months` old
    past their catalog life (validate refuses them), and a catalog price in a currency other than USD (the
    scenario needs its rate in fx)."""
    from planner.catalog import card_rows
    from planner.scenario.model import owned_age_problem

    rows = card_rows()
    notes: dict[str, list[str]] = {}
    for card in sorted(cards):
        row = rows.get(card)
        if row is None:
            continue
        said = []
        life = float(row["life_years"]) if row.get("life_years") else None
        if age_months is not None and life is not None and (problem := owned_age_problem(card, age_months, life, False)):
            said.append(problem)
        if row.get("currency") and row["currency"] != "USD":
            cur = row["currency"]
            said.append(f"its catalog price is in {cur}: a scenario in another currency needs its rate, e.g. "
                        f"fx: {{{cur}: <USD per 1 {cur}>}}")
        if said:
            notes[card] = said
    return notes


class Solver(str, Enum):
    cbc = "cbc"
    highs = "highs"


class PlanFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    xlsx = "xlsx"
    focus = "focus"
    md = "md"


# The --max-variables default of plan, compare and sweep. The model's memory grows with its dispatch variables:
# entry.yaml --unreduced --no-baselines --no-decisions (387,072) peaked at 1.29 GB against 0.10 GB reduced (48),
# about 3 KB each; with the decision values, whose re-solves hold two models at once, 2.75 GB; industrial.yaml
# --unreduced (10.3 million) passed 5.4 GB within a minute (peak RSS by /usr/bin/time, 2026-12-05). The shipped
# scenarios reduce to 48-2,880; a 36-month plan of 168 distinct hourly weights, exact, held about 121,000 (issue 11).
MAX_DISPATCH_VARIABLES = 500_000
# The --max-purchase-variables default of plan (without --time-limit), compare and sweep: integer purchase variables,
# one per card and purchase month, per owned batch's choice, per reservation offer (engine.model.PurchaseVariables).
# Branch and bound's time and memory grow steeply with them, which the dispatch count does not foretell:
# startup-hybrid.yaml with 60, 100 and 200 alike custom cards (758, 1,238 and 2,438; 9,216-29,376 dispatch variables)
# planned in 48 s and 440 MB, 170 s and 903 MB, 370 s and 2.5 GB (peak RSS by /usr/bin/time, busy 2-core host,
# 2026-12-05), before the decision values. The shipped scenarios hold 12-38, industrial.yaml over 120 months with
# monthly purchases 120; the dashboard's uploads hold 20 custom cards at most (fleetplan_dashboard.state) and
# every solve of it has a time limit, as --time-limit gives plan.
MAX_PURCHASE_VARIABLES = 1_000
# --max-variables and --max-purchase-variables of plan, compare and sweep ("2M", "1e6", "1,000,000" are understood)
VARIABLES_FROM_1 = number_within("a whole number of variables", 1, whole=True, units=COUNT_IN)
VARIABLES_FROM_0 = number_within("a whole number of variables", 0, whole=True, units=COUNT_IN)


@app.command("plan")
def plan_command(
    file: Path = typer.Argument(..., metavar="SCENARIO", parser=path_given("a file"), help="scenario YAML file"),
    fmt: PlanFormat = choice_option(PlanFormat.table, "--format",
                                    help="table | json (the whole plan) | csv (the fleet) | xlsx (workbook; needs -o) | "
                                         "focus (FinOps FOCUS cost rows, CSV) | md (one-page Markdown summary)"),
    output: Path | None = typer.Option(None, "-o", "--output", metavar="FILE", parser=path_given("a file"),
                                       help="write the --format output to FILE (atomically) instead of stdout; without "
                                            "--format, the format its suffix names (.json, .csv, .xlsx, .md)"),
    solver: Solver = choice_option(Solver.highs, "--solver", help="MILP solver: highs (in-process) or cbc (bundled)"),
    no_baselines: bool = typer.Option(False, "--no-baselines", help="skip the all-cloud/all-on-prem/single-type runs"),
    no_decisions: bool = typer.Option(False, "--no-decisions",
                                      help="skip what each decision is worth, the runner-up plan, the flip points "
                                           "and what each limit costs (re-solves made after the plan is shown)"),
    time_limit: float | None = typer.Option(None, "--time-limit", parser=seconds_within(0.1, 86400),
                                            metavar="SECONDS",
                                            help="SECONDS (0.1 to 86400) for all the solves of the recommended plan "
                                                 "together: its solve, the profile blocks' bounds and refinements, the "
                                                 "merged-hours check and the explanation of a plan with no fleet, each "
                                                 "given what is left; stopped, the plan keeps the best fleet found so far "
                                                 "(status feasible, with its gap); exit 3 if none was found. Each "
                                                 "baseline's solve and each decision value's re-solve gets SECONDS of its "
                                                 "own (--decisions-time-limit bounds the re-solves in all)"),
    profile_slots: int | None = typer.Option(None, "--profile-slots", parser=number_within("a whole number of blocks", 1, 168,
                                                                                        whole=True), metavar="K",
                                             help="group a profile's hourly weights into K load-duration blocks "
                                                  "(default: the scenario's profile_slots, else 24, planned again on more "
                                                  "blocks while the bound is above 1 % of the total; 168 = exact) "
                                                  "and print the bound on the cost error"),
    unreduced: bool = typer.Option(False, "--unreduced", help="solve without the exact reductions (slow; for checks)"),
    max_variables: int = typer.Option(MAX_DISPATCH_VARIABLES, "--max-variables", metavar="N", parser=VARIABLES_FROM_1,
                                      help="refuse (exit 2), before building it, a model of more than N dispatch "
                                           "variables (unit–workload pairs × periods; each takes about 3 KB of "
                                           "memory, twice that while the decision values re-solve)"),
    max_purchase_variables: int | None = typer.Option(
        None, "--max-purchase-variables", parser=VARIABLES_FROM_0, metavar="N",
        help=f"refuse (exit 2), before building it, a model of more than N integer purchase variables (one per card "
             f"and purchase month, per owned batch's choice, per reservation offer), whose branch and bound's time "
             f"and memory grow steeply with them (default: {MAX_PURCHASE_VARIABLES:,} without --time-limit, none "
             "with it)"),
    decisions_time_limit: float | None = typer.Option(
        None, "--decisions-time-limit", parser=seconds_within(0.1, 86400), metavar="SECONDS",
        help="stop the re-solves of what each decision is worth after SECONDS in all; those left are reported as "
             "not computed (default: 20 × the plan's own solve, at least 600)"),
    out: Path | None = typer.Option(None, "--out", metavar="DIR", parser=path_given("a folder"),
                                    help="also write plan.json, fleet.csv, monthly.csv, excluded_offers.csv, "
                                         "plan.xlsx, focus.csv and summary.md into this folder"),
    start: str | None = typer.Option(None, "--start", metavar="YYYY-MM",
                                     help="month 1 of the plan, YYYY-MM (default: next month): dates the FOCUS rows and "
                                          "the workbook's monthly, yearly and purchase schedule sheets (--format focus "
                                          "or xlsx, and --out); recorded as the JSON's start, monthly.csv's "
                                          "calendar_month and summary.md's months (not given: none there)"),
    store: Path | None = store_option(),
) -> None:
    """Find the cheapest fleet for a scenario. Exit 0 with a plan, 1 when infeasible (with the reason), 2 on bad
    input, 3 when the solver stopped (--time-limit) before finding any fleet or failed."""
    # what is imported lives until the process ends: no garbage collection need walk it, while importing
    # (pandas, pulp: a few full collections) or after (gc.freeze) — about 0.2 s of a whole `plan` process
    # (benchmarks/plan_speed.py)
    gc.disable()
    skip_teardown()
    from planner.catalog.prices import resolve_store
    from planner.engine import add_baselines
    from planner.engine import plan as make_plan
    from planner.reports.tables import plan_start
    from planner.scenario.loading import files_read, read_scenario_file, text_places

    gc.freeze()
    gc.enable()
    outputs_checked = False
    scenario, scenario_text = None, ""   # once read: the scenario, and the text a check made after loading places its field in
    early: list[str] = []   # what validate warns of the scenario (_pre_solve_warnings), once it is to be solved
    said_early = False   # whether they were printed before the solve (on a terminal)
    try:
        plan_start(start)   # a bad --start is bad input: report it before solving
        _check_store(store)
        fmt = _format_of_suffix(fmt, output)
        _check_output(fmt, output)
        scenario, scenario_text = read_scenario_file(file)
        # the price store too, wherever it is ($FLEETPLAN_STORE, the data folder), when the scenario reads it
        read_store = [resolve_store(store)] if scenario.prices.source == "store" else []
        _check_not_an_input(output, out, [file, *files_read(scenario), *read_store, *([store] if store else [])])
        if out is not None:   # before solving: refused when written, a large plan's minutes of solves were lost
            from planner.reports.files import check_plan_folder

            check_plan_folder(out, "--out")
        outputs_checked = True   # -o and --out may be written: a plan that finds no fleet says so in them (_no_plan_out)
        early = _pre_solve_warnings(scenario)
        # unit minimums that alone pass a cap: no fleet, said at once as validate says it, not after the solve's wait
        unplannable = _min_units_checks(scenario, scenario_text, str(file))
        if unplannable:
            (field, why), = unplannable[:1]
            raise InfeasibleError(f"{text_places(scenario_text, str(file), [field])[0]}: {why}")
        # (kept where building the inputs fails on the prices: a failed plan says them before its error)
        early += [] if unreduced else _hours_one_by_one(scenario, store)
        # on a terminal at once: a plan with electricity typed in cents solved for minutes before a word of it
        if early and not _plain_stderr():
            for warning in early:
                err.warn(warning)
            said_early = True
        # the table shows the recommended plan before the baselines are solved; other formats need them all
        # a forked child solves the baselines meanwhile where two cores are free (engine.baselines); HiGHS runs
        # on one thread either way (engine.solve: two sent some models' search astray)
        with solve_progress_line("solving the plan"):
            result = make_plan(scenario, solver=solver.value, reduced=not unreduced, baselines=False,
                               prefetch_baselines=not no_baselines, store=store, time_limit=time_limit,
                               overrides={"profile_slots": profile_slots} if profile_slots is not None else None,
                               max_dispatch_variables=max_variables,
                               max_purchase_variables=_purchase_limit(max_purchase_variables, time_limit))
        result.scenario_file = file.absolute()   # as plan() names a file it is given
        # the table prints the baselines and decision values after the plan; other formats and --out's set
        # (written before the table is printed) carry them
        if (fmt is not PlanFormat.table or out is not None) and not no_baselines:
            add_baselines(result, plans=False)
        if not no_decisions and (fmt in _FORMATS_WITH_DECISIONS or out is not None):
            _add_decisions(result, time_limit, store, decisions_time_limit)
        if out is not None:
            from planner.reports import write_plan_files

            replaced = _saved_plan(out)
            try:
                for path in write_plan_files(result, out, start=start, option="--out"):
                    err.print(f"wrote {path}")
            except OSError as exc:
                raise PlannerError(f"--out {out}: cannot write: {exc.strerror or exc}") from None
            if replaced is not None:
                _warn_replaced(out, replaced, _saved_plan(out))
    except InfeasibleError as exc:
        _warn_before_failure(early, said_early)
        for warning in exc.warnings:   # where the prices came from (a store's rows skipped as bad): maybe why
            err.warn(warning)
        said = [*exc.warnings, *early]
        known = {**_known_without_plan(scenario, file, solver), **({"warnings": said} if said else {})}
        if outputs_checked:
            _no_plan_out(exc, output, fmt is PlanFormat.json, out, known)
        infeasible(exc, Format.json if fmt is PlanFormat.json and output is None else Format.table, known)
    except PricesRefuteScenario as exc:   # a mistake in the scenario file: say where in the text planned, as validate does
        _warn_before_failure(early, said_early)
        fail(f"{text_places(scenario_text, str(file), [exc.field])[0]}: {exc}", 2)
    except ModelTooLarge as exc:
        _warn_before_failure(early, said_early)
        fail(f"{file}: {_too_large(exc, unreduced, max_purchase_variables is None and time_limit is None)}")
    except PlannerError as exc:   # a solver that found no fleet within --time-limit, or failed
        _warn_before_failure(early, said_early)
        fail(exc)
    # where the prices came from when not as asked (result.prices["warning"]) is the first of the plan's warnings
    # (engine.run.price_source_warnings), printed with them
    for snap in result.prices.get("snapshots", []):
        err.print(f"prices: {snap['provider']} store snapshot #{snap['id']} fetched {snap['fetched_at']} "
                  f"({days_old(snap['fetched_at'])})", soft_wrap=True)
    for warning in result.warnings:
        if not (said_early and warning in early):   # the plan's warnings carry them (engine.run.plan_notes)
            err.warn(warning)
    if fmt is PlanFormat.table:
        _print_plan(result)
        try:
            if not no_baselines:
                if not len(result.baselines):     # not solved yet for --out
                    warned = set(result.warnings)
                    add_baselines(result, plans=False)
                    # those on estimated speeds only the baselines' totals rest on (engine.run.baseline_speeds)
                    for warning in result.warnings:
                        if warning not in warned:
                            err.warn(warning)
                _print_baselines(result)
            if not no_decisions:
                if result.decisions is None:
                    warned = set(result.warnings)
                    _add_decisions(result, time_limit, store, decisions_time_limit)
                    # a plan whose own solve stopped unproven: the cheaper fleet its re-solves found (decisions.cheaper_found)
                    for warning in result.warnings:
                        if warning not in warned:
                            err.warn(warning)
                _print_decisions(result)
        except PlannerError as exc:
            fail(exc)
    else:
        _write_plan(result, fmt, output, start)


_FORMATS_WITH_DECISIONS = (PlanFormat.json, PlanFormat.xlsx, PlanFormat.md)


def _pre_solve_warnings(scenario) -> list[str]:
    """What validate warns of `scenario` that needs no plan and may be why none is found: values that look typed in
    another unit (electricity in cents, a power cap in watts, kW as W; scenario.loading.plausibility_warnings) and a
    capex budget below any card's price (cost_basis.implausible_capex_budget). A plan's warnings carry the same texts
    (engine.run.plan_notes); a plan that fails says them before its error: an audit's electricity_per_kwh 28 (cents
    for euros) solved for 96 s to "found no fleet within the time limit … try the other solver", without a word of
    the price."""
    from planner.scenario.cost_basis import implausible_capex_budget
    from planner.scenario.loading import plausibility_warnings

    return [text for _, text in plausibility_warnings(scenario) + implausible_capex_budget(scenario)]


def _hours_one_by_one(scenario, store: Path | None) -> list[str]:
    """The warning of a model planned hour by hour (engine.inputs.hours_one_by_one_warning: its periods against the
    merged model's, why, what to change), to be said before the solve: such a model is tens of times larger and can
    solve for minutes, and was named only when its solve stopped without a fleet. Only a scenario with a cloud-share
    cap and a serving workload can tie hours (engine.inputs._instances_tie_hours): only its inputs are built here, a
    second time (plan() builds them again from the caches: milliseconds)."""
    if scenario.constraints.max_cloud_share is None or not any(w.serving for w in scenario.workloads):
        return []
    from planner.engine.inputs import HOURS_ONE_BY_ONE
    from planner.engine.run import inputs_for

    return [w for w in inputs_for(scenario, store).warnings if HOURS_ONE_BY_ONE in w]


def _warn_before_failure(early: list[str], said: bool) -> None:
    """`early` (_pre_solve_warnings) on stderr before a failed plan's error, unless `said` before the solve."""
    if not said:
        for warning in early:
            err.warn(warning)


def _known_without_plan(scenario, file: Path, solver: Solver) -> dict:
    """What the JSON of a plan that has no fleet says besides its status and reason: what is known without a plan,
    under the keys of a plan's JSON (the planner's version, the scenario's name, currency and horizon, the solver's
    name), and the scenario file as given. No costs, fleet or prices: none was planned (compare reads an object
    without `fleet` as holding no plan)."""
    from planner import __version__

    read = {} if scenario is None else {"scenario": scenario.name, "currency": scenario.currency,
                                        "horizon_months": scenario.horizon_months}
    return {"version": __version__, "scenario_file": str(file), **read, "solver": {"name": solver.value}}


def _no_plan_out(exc: InfeasibleError, output: Path | None, json_output: bool, out: Path | None, known: dict) -> None:
    """What a plan (or a comparison) that found no fleet does with -o and --out: -o FILE of --format json
    (`json_output`) is written, atomically, with the object stdout gets without -o (console.infeasible: status,
    reason, `known`); any other -o file and --out's folder are not written, which stderr says, naming what an
    earlier run left there. An audit (2026-12-07): a json -o kept last run's optimal plan while stdout said
    infeasible, and nothing said which file was stale; a finance review could be handed last run's numbers. Files
    are never deleted: they are the user's."""
    if output is not None and json_output:
        from planner.fileio import write_atomic

        try:
            # a leading ~ the home folder, as a plan's export takes it (reports.tables.export_path)
            write_atomic(Path(output).expanduser(), infeasible_text(exc, known))
            err.print(f"wrote {output} (status infeasible: no plan, and why)")
        except OSError as exc_write:
            err.warn(f"-o {output}: NOT written (cannot write: {exc_write.strerror or exc_write}){_held_before(output)}")
    elif output is not None:
        err.warn(f"-o {output}: NOT written: no plan was found{_held_before(output)}")
    if out is not None:
        err.warn(f"--out {out}: NOT written: no plan was found{_held_before_in(out)}")


def _held_before(path: Path) -> str:
    """"; it still holds …, not this run's" of a file this run did not write: the plan of which scenario and when it
    was made where the file tells (a plan's JSON, a summary's first lines), else when it last changed; "" where no
    file is there."""
    try:
        changed = _changed_at(Path(path).expanduser())
    except OSError:
        return ""
    if changed is None:
        return ""
    made = _plan_of(Path(path).expanduser())
    if made is None:
        return f"; it still holds the file written there before (last changed {changed}), not this run's"
    name, when = made
    return f"; it still holds an earlier plan of {one_line(name)!r}{f' made {when}' if when else ''}, not this run's"


def _held_before_in(folder: Path) -> str:
    """_held_before of --out's folder: the plan its plan.json tells (_saved_plan), else the plan files an earlier
    run left there, by when the newest last changed."""
    folder = Path(folder).expanduser()
    saved = _saved_plan(folder)
    if saved is not None:
        when = f" made {saved['generated_at']}" if isinstance(saved["generated_at"], str) else ""
        return (f"; it still holds the files of an earlier plan of {one_line(saved['scenario'])!r}{when}, "
                "not this run's")
    from planner.reports.files import OUT_FILES

    times = []
    for name in OUT_FILES:
        try:
            times.append((folder / name).stat().st_mtime)
        except OSError:
            continue
    if not times:
        return ""
    return f"; it still holds plan files written there before (last changed {_utc_minute(max(times))}), not this run's"


def _changed_at(path: Path) -> str | None:
    """When the regular file at `path` last changed (UTC, to the minute); None where there is none."""
    import stat

    st = path.stat()
    return _utc_minute(st.st_mtime) if stat.S_ISREG(st.st_mode) else None


def _utc_minute(seconds: float) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _plan_of(path: Path) -> tuple[str, str | None] | None:
    """(scenario name, when it was made) of the plan the file at `path` holds, where it tells: a plan's JSON
    (`scenario`, `generated_at`) or a plan's summary (its "# name" title and "Planned with fleetplan … at TIME (UTC)"
    line: reports.markdown.plan_to_markdown); None otherwise."""
    try:
        with open(path, "rb") as f:
            head = f.read(64 * 1024).decode("utf-8", errors="replace")
    except OSError:
        return None
    if head.lstrip().startswith("{"):
        try:
            saved = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(saved, dict) and isinstance(saved.get("scenario"), str) and "fleet" in saved:
            when = saved.get("generated_at")
            return saved["scenario"], when if isinstance(when, str) else None
        return None
    from planner.scenario.loading import summary_header

    return summary_header(head)


def _purchase_limit(given: int | None, time_limit: float | None) -> int | None:
    """plan's limit of purchase variables: `given` (--max-purchase-variables), else MAX_PURCHASE_VARIABLES without
    a time limit and none with one, which bounds each solve."""
    if given is not None:
        return given
    return MAX_PURCHASE_VARIABLES if time_limit is None else None


def _too_large(exc: ModelTooLarge, unreduced: bool, time_limit_allows: bool = False) -> str:
    """What the CLI says of a model over --max-variables or --max-purchase-variables: its size, and how to make
    it smaller or allow it; `time_limit_allows`: the purchase limit is plan's default, which --time-limit lifts."""
    from planner.engine.run import SMALLER_MODEL

    if isinstance(exc, TooManyPurchaseVariables):
        return _too_many_purchases(exc, time_limit_allows)
    smaller = "plan it without --unreduced" if unreduced else SMALLER_MODEL
    memory = exc.dispatch_variables * 3e3   # bytes, at about 3 KB a variable (MAX_DISPATCH_VARIABLES)
    size = f"{memory / 1e9:,.1f} GB" if memory >= 1e9 else f"{max(1.0, memory / 1e6):,.0f} MB"
    return (f"too large to plan with --max-variables {exc.limit:,}: {exc.dispatch_variables:,} dispatch variables "
            f"({counted(exc.pairs, 'unit–workload pair')} × {counted(exc.periods, 'period')}), about {size} of memory to build "
            "(twice that while the decision values re-solve); "
            f"{smaller}, or allow it with --max-variables {exc.dispatch_variables}")


def _too_many_purchases(exc: TooManyPurchaseVariables, time_limit_allows: bool, least: bool = False, when: str = "") -> str:
    """_too_large's words for a model over --max-purchase-variables; `least`: its count is the fewest the model holds
    (validate's, which cannot count them all), `when`: the condition on which it is too large."""
    size = f"{'at least ' if least else ''}{exc.purchase_variables:,} integer purchase variables ({exc.detail})"
    allow = f"{exc.purchase_variables}{' or more' if least else ''}"
    if time_limit_allows:
        return (f"too large to plan without --time-limit{when}: {size}, more than the {exc.limit:,} planned without "
                f"one, as branch and bound's time and memory grow steeply with them; {exc.remedy}, bound each "
                f"solve with --time-limit SECONDS, or allow it with --max-purchase-variables {allow}")
    return (f"too large to plan with --max-purchase-variables {exc.limit:,}{when}: {size}, whose branch and bound's time "
            f"and memory grow steeply with them; {exc.remedy}, or allow it with --max-purchase-variables {allow}")


# how the warning of re-solves left undone tells a CLI user to allow them more time (add_decisions' more_time)
MORE_TIME = "`fleetplan plan --decisions-time-limit SECONDS` allows more time, `--no-decisions` skips them"


def _add_decisions(result, time_limit: float | None, store: Path | None, total_time_limit: float | None) -> None:
    """engine.add_decisions, with a progress bar on stderr while it works (on a terminal; gone when done):
    on a large scenario its re-solves take minutes. `total_time_limit` (--decisions-time-limit) bounds them all;
    by default engine.decisions.default_total_time_limit."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from planner.engine import add_decisions
    from planner.engine.decisions import default_total_time_limit

    if total_time_limit is None:
        total_time_limit = default_total_time_limit(result)
    said_before_decisions(result, total_time_limit)
    with progress_bar(TextColumn("what each decision is worth"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      transient=True) as bar:
        task = bar.add_task("decisions", total=None)
        add_decisions(result, time_limit=time_limit, store=store, total_time_limit=total_time_limit,
                      progress=lambda done, total: bar.update(task, completed=done, total=total), more_time=MORE_TIME)


# a plan whose own solve took this long has re-solves of minutes ahead (25-60 times the plan's solve: an audit's plan
# of 7.4 s spent 215 s on them), which a process off a terminal, with no progress bar, waited for without a word
SLOW_PLAN_SOLVE_S = 2.0


def said_before_decisions(result, total_time_limit: float) -> None:
    """On stderr where no progress bar is drawn (not a terminal), before the decision values of a plan whose own solve
    took SLOW_PLAN_SOLVE_S or more: what comes next, how long it may take at most and how to skip it."""
    seconds = result.solver.get("seconds")
    if err.console.is_interactive or not isinstance(seconds, (int, float)) or not seconds >= SLOW_PLAN_SOLVE_S:
        return
    err.print(f"plan solved in {seconds:.1f} s; now what each decision is worth: re-solves of the plan, each about as "
              f"long, at most {total_time_limit:,.0f} s in all (`--no-decisions` skips them, `--decisions-time-limit "
              "SECONDS` bounds them)")


def _saved_plan(folder: Path) -> dict | None:
    """What `plan --out` tells a plan saved in `folder` by: its plan.json's scenario name, when it was saved and its
    scenario inputs; None where there is none, or it is no plan's JSON."""
    try:
        saved = json.loads((Path(folder).expanduser() / "plan.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(saved, dict) or not isinstance(saved.get("scenario"), str):
        return None
    return {key: saved.get(key) for key in ("scenario", "generated_at", "scenario_inputs")}


def _warn_replaced(out: Path, old: dict, new: dict | None) -> None:
    """A warning that --out replaced the files of a plan of another scenario, or of the same one with other inputs
    (last quarter's plan, which the README advises keeping to compare): the folder is replaced as a whole, as it
    must be to stay one plan's set, and nothing said so. Nothing for a plan of the same inputs made again."""
    if new is not None and old["scenario"] == new["scenario"] and old["scenario_inputs"] == new["scenario_inputs"]:
        return
    which = ("another scenario" if new is None or old["scenario"] != new["scenario"]
             else "the same scenario with other inputs")
    when = f" saved {old['generated_at']}" if isinstance(old["generated_at"], str) else ""
    err.warn(f"--out {out}: replaced the files of the plan of {one_line(old['scenario'])!r}{when} ({which}); to keep "
             "a plan to compare against, give each plan its own folder")


# `-o -` of plan, compare and sweep: elsewhere `-` is stdout; here it wrote a file named "-" ("wrote -")
STDOUT_ALREADY = "-o -: the output goes to stdout without -o, so leave -o out (a file named - needs its full path)"


# -o FILE without --format: the format its suffix names (a FOCUS CSV needs --format focus)
_FORMAT_OF_SUFFIX = {".json": PlanFormat.json, ".csv": PlanFormat.csv, ".xlsx": PlanFormat.xlsx, ".md": PlanFormat.md}


def _format_of_suffix(fmt: PlanFormat, output: Path | None) -> PlanFormat:
    """The format `-o output` is written in where --format leaves the table (for the terminal, never a file): the one
    its suffix names (`-o plan.xlsx`: the workbook, as an audit's user expected, where it was refused for want of
    --format), else `fmt` (_check_output says what -o needs)."""
    if fmt is not PlanFormat.table or output is None or str(output) == "-":
        return fmt
    return _FORMAT_OF_SUFFIX.get(output.suffix.lower(), fmt)


def _check_output(fmt: PlanFormat, output: Path | None) -> None:
    """PlannerError, before solving, for an -o the format cannot use or a file that cannot be written."""
    if output is None:
        if fmt is PlanFormat.xlsx:
            raise PlannerError("--format xlsx writes a workbook: give the file with -o FILE, e.g. -o plan.xlsx")
        return
    if fmt is PlanFormat.table:
        raise PlannerError("-o FILE needs --format json, csv, xlsx, focus or md, or a file name ending .json, .csv, .xlsx "
                           "or .md (the table is for the terminal)")
    if str(output) == "-":
        if fmt is PlanFormat.xlsx:
            raise PlannerError("-o -: a workbook is not written to stdout; give a file, e.g. -o plan.xlsx")
        raise PlannerError(STDOUT_ALREADY)
    _check_suffix(output, fmt.value, "." + _SUFFIX[fmt])
    _check_file_to_write(f"-o {output}", output, "a file name", "plan." + _SUFFIX[fmt])


def _check_file_to_write(said: str, path: Path, what: str, example: str) -> None:
    """PlannerError, before any work, naming `said`, where no file can be written at `path` (fileio.write_problem),
    or a file stands there this user may not write (fileio.read_only_problem; write_atomic refuses it too, but only
    after the plan's solves). Imported here only: fileio imports ctypes."""
    from planner.fileio import read_only_problem, write_problem

    problem = write_problem(path, what, example) or read_only_problem(path)
    if problem:
        raise PlannerError(f"{said}: {problem}")


_SUFFIX = {PlanFormat.json: "json", PlanFormat.csv: "csv", PlanFormat.xlsx: "xlsx", PlanFormat.focus: "csv",
           PlanFormat.md: "md"}


def _check_suffix(output: Path, fmt: str, suffix: str) -> None:
    """PlannerError where -o's file name ends in the suffix of another format than --format `fmt`'s, `suffix`: the
    library's exports' check (reports.tables.check_suffix), in the CLI's words."""
    from planner.reports.tables import check_suffix

    check_suffix(output, suffix, f"-o {output}", f"--format {fmt}")


def _check_not_an_input(output: Path | None, out: Path | None, inputs: list[Path], reader: str = "this plan") -> None:
    """PlannerError, before solving, where -o or a file --out writes is a file `reader` (the plan; a sweep, a
    comparison) reads (the scenario, its profile and offers CSVs, the price store): written, it would be lost. The
    library's exports' check (reports.tables.check_not_an_input), in the CLI's words."""
    from planner.reports.tables import check_not_an_input

    written = [(f"-o {output}", output)] if output is not None else []
    if out is not None:   # imported only then: it imports the workbook's writer (reports/__init__.py)
        from planner.reports.files import OUT_FILES

        written += [(f"--out {out / name}", out / name) for name in OUT_FILES]
    check_not_an_input(written, inputs, reader)


def _write_plan(result, fmt: PlanFormat, output: Path | None, start: str | None) -> None:
    """The plan in `fmt` on stdout, or written atomically to `output` by the planner.reports function."""
    from planner import reports  # the writer of `fmt` only is imported (planner.reports imports them on first use)

    try:
        if fmt is PlanFormat.json:
            text = reports.plan_to_json(result, path=output, start=start)
        elif fmt is PlanFormat.csv:
            text = reports.plan_to_csv(result, path=output, start=start)
        elif fmt is PlanFormat.focus:
            text = reports.tables.csv_text(reports.plan_to_focus(result, path=output, start=start))
        elif fmt is PlanFormat.md:
            text = reports.plan_to_markdown(result, path=output, start=start)
        else:
            reports.plan_to_excel(result, path=output, start=start)
    except OSError as exc:
        fail(PlannerError(f"-o {output}: cannot write: {exc.strerror or exc}"))
    except PlannerError as exc:
        fail(exc)
    if output is not None:
        err.print(f"wrote {output}")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _check_store(store: Path | None) -> None:
    """PlannerError when --store, or else $FLEETPLAN_STORE, names a folder, or a file in a folder that does not
    exist (catalog.prices.store_mistake, the library's check in the CLI's words): a typo would otherwise create the
    folders and an empty store, and the plan would quietly use packaged prices."""
    from planner.catalog.prices import store_mistake

    mistake = store_mistake(store, "--store ")
    if mistake:
        raise PlannerError(mistake)


def _print_plan(p) -> None:
    from planner.cli.fleet_table import fleet_narrower, fleet_shown
    from planner.cli.plan_views import break_even_shown, estimated_speeds, serving_by_months
    from planner.cli.serving_table import serving_narrower
    from planner.reports.tables import (
        assumption_line,
        grouping_line,
        owned_end_value_words,
        present_money,
        present_value_basis,
        price_dates,
        price_source_text,
        site_cost_note,
    )
    from planner.reports.yearly import yearly_note, yearly_view

    out = stdout_console(piped_width=160)
    cur = p.currency
    money = present_money(p)   # the totals' basis; the purchase schedule alone is nominal (its amounts as paid)
    # the offers CSV as the scenario file wrote it, as the JSON names it; a pinned store snapshot said
    owned_end = owned_end_value_words(p)   # a credit that takes the total below the bills paid
    out.print(f"[bold]{escape(one_line(p.scenario_name))}[/] — {p.status}, {counted(p.horizon_months, 'month')}, total "
              f"[bold]{p.total:,.0f} {cur}[/] ({present_value_basis(p)}{'; ' + owned_end if owned_end else ''}); "
              f"prices: {escape(price_source_text(p))}, "
              f"{escape(price_dates(p.prices, cur))}", soft_wrap=True)   # a CSV's path is the user's: "[/]" in it is no markup
    out.print(assumption_line(p), soft_wrap=True)
    if grouping_line(p):
        out.print(grouping_line(p), soft_wrap=True)
    # narrower than the table, the terminal gets short headers and fewer columns (planner/cli/fleet_table.py)
    emit(fleet_shown(p.fleet), Format.table, title=f"Fleet (cost in {money})", float_digits=1, same_decimals=True,
         narrower=fleet_narrower(p.fleet))
    site = site_cost_note(p)   # the site's fixed cost is no row's: the rows fall short of the total by it
    if site:
        out.print(escape(site), soft_wrap=True)
    if len(p.schedule):
        emit(p.schedule, Format.table, title=f"Purchase schedule (amount in {cur}, nominal: as paid; credits negative)",
             float_digits=0)
    if len(p.owned):
        emit(p.owned, Format.table, float_digits=0,
             title=f"Cards already owned: keep, switch off or sell (fixed costs avoided plus a sale's credit over the "
                   f"end value, in {money}; the site's fixed monthly cost left out; not net of the work bought instead)")
    if len(p.serving):
        # one row per slot and month repeated a constant demand 72 times: months that read the same are one row
        # narrower than the table: the workload over its unit, the hours over their number (planner/cli/serving_table.py)
        serving = serving_by_months(p.serving)
        emit(serving, Format.table, float_digits=2, narrower=serving_narrower(serving),
             title="Serving: whole instances or cards per hour-of-week slot, consecutive months that read the same on "
                   "one row (in_months; hours_of_week: the slot's weekly hours; demand, capacity and served in demand_unit; "
                   "each slot: --format json)")
    # two columns: narrower than the title, which rich would wrap onto two or three lines
    emit(p.costs, Format.table, title=f"Cost by category ({money})", float_digits=0, whole_title=True)
    # what is paid each year: the total above is a present value (reports.yearly, as the workbook's yearly sheet)
    emit(yearly_view(p), Format.table, title=f"By plan year ({cur}): paid (nominal) and present value", float_digits=0,
         whole_title=True)
    out.print(escape(yearly_note(p)[:1].upper() + yearly_note(p)[1:]), soft_wrap=True)
    if len(p.utilisation):
        emit(p.utilisation, Format.table, title="Cards held: utilisation and energy", float_digits=2)
    if len(p.break_even):
        # F and c are rates of a card bought in month 1, undiscounted (engine.readback.break_even); c that of the
        # cloud offer named beside it
        shown, narrow = break_even_shown(p.break_even)
        emit(shown, Format.table, float_digits=3, narrower=narrow,
             title=f"Break-even utilisation (costs in {cur}, nominal: undiscounted)")
    estimated = estimated_speeds(getattr(p, "speeds", None))
    if len(estimated):   # the rows the warnings on estimated speeds point to
        emit(estimated, Format.table,
             title="Speeds that rest on estimates from datasheet figures, not measurements: the GPU's own, or its "
                   "workload's reference GPU's, which every relative speed divides by (estimated_from says which; the "
                   "plan's speeds table, relative to each workload's reference GPU; every speed with its source: "
                   "--format json, --out's summary.md and workbook)")
    from planner.reports.tables import gap_text

    s = p.solver   # its gap a percentage; None (a time limit before any bound) said in words, not "None"
    err.print(f"solver {s['name']}: {s['status']}, gap {gap_text(s['gap'])}, {counted(s['variables'], 'variable')} "
              f"({s['integer_variables']:,} integer), {counted(s['constraints'], 'constraint')}, {s['seconds']:.3f} s")
    from planner.reports.tables import excluded_offers_line

    left_out = excluded_offers_line(p)   # counted by rule: each row with its reason is in the JSON, CSV and workbook
    if left_out:
        out.print(escape(left_out), soft_wrap=True)


def _print_baselines(p) -> None:
    """The baselines, solved after the plan was shown (engine.add_baselines)."""
    from planner.reports.tables import baseline_bounds_line, present_money

    if len(p.baselines):
        # a grouped profile's bounds on a line under the table, as the plan's under its total: two more columns
        # wrapped the label at 80 columns
        shown = p.baselines.drop(columns=["note", "error_bound", "error_bound_pct"], errors="ignore")
        emit(shown, Format.table, title=f"Baselines ({present_money(p)})", float_digits=1, same_decimals=True)
        out = stdout_console(piped_width=160)
        if baseline_bounds_line(p):
            out.print(escape(baseline_bounds_line(p)), soft_wrap=True)
        # why a baseline has no fleet, or why it costs less than the plan: under the table, one line each (a
        # column of them wrapped every row to a dozen lines at 80 columns)
        for baseline, note in zip(p.baselines["baseline"], p.baselines["note"]):
            if note:
                out.print(f"  {escape(one_line(baseline))}: {escape(one_line(note))}", soft_wrap=True)


def _percent(pct: float | None) -> str:
    """A percentage of the plan's total as the Markdown summary shows it (reports.markdown.percent_text: one decimal
    from 1 %, two significant digits under it), "n/a" where there is none (a plan total of 0)."""
    from planner.reports.markdown import percent_text

    return percent_text(pct)


def _more_or_less(increase: float, pct: float | None, cur: str) -> str:
    """An increase over the plan's total in words: "2,511 USD (0.1 %) more", or "… less" where it is below the plan
    (a plan whose own solve stopped unproven: engine.decisions.cheaper_found)."""
    return f"{abs(increase):,.0f} {cur} ({_percent(None if pct is None else abs(pct))}) {'less' if increase < 0 else 'more'}"


def _or_na(pcts, solved) -> list:
    """A column of percentages of the plan's total for a table: "n/a" where a solved row has none (a plan
    total of 0: engine.decisions.increase_pct), blank where unsolved, one under 0.05 % but not 0 with two
    significant digits ("0.0086": the table's one decimal showed industrial's +183 USD decision as 0;
    reports.tables.share_text, as the Markdown summary and the dashboard show it), the numbers as they are
    otherwise."""
    from planner.reports.tables import SMALL_SHARE_PCT, share_text

    out = []
    for v, ok in zip(pcts, solved):
        if ok and (v is None or (isinstance(v, float) and math.isnan(v))):
            out.append("n/a")
        elif isinstance(v, numbers.Real) and 0 < abs(v) < SMALL_SHARE_PCT:
            out.append(share_text(v))
        else:
            out.append(v)
    return out


def _print_decisions(p) -> None:
    """What each decision is worth, the runner-up with both fleets and the close-call line, and the flip
    points (engine.add_decisions, solved after the plan was shown)."""
    import pandas as pd

    from planner.cli.plan_views import held_headers, other_types_words
    from planner.engine.decisions import counts_left_out
    from planner.reports.tables import present_money

    out = stdout_console(piped_width=160)
    cur = p.currency
    if p.decisions is not None and len(p.decisions):
        decisions = p.decisions.drop(columns=["gpu"])
        decisions["increase_pct"] = _or_na(decisions["increase_pct"], decisions["status"].isin(["optimal", "feasible"]))
        emit(decisions, Format.table, float_digits=1, same_decimals=True,
             title=f"What each decision is worth ({present_money(p)}): the total when it is forbidden, and the increase")
    _print_cap_costs(p, out)
    runner = p.runner_up or {}
    if runner.get("fleet") is not None:
        names = list(dict.fromkeys([*runner["plan_fleet"], *runner["fleet"]]))
        fleets = pd.DataFrame({"card_or_offer": names, "recommended": [runner["plan_fleet"].get(n, 0) for n in names],
                               "runner_up": [runner["fleet"].get(n, 0) for n in names]})
        emit(fleets, Format.table, title="Runner-up fleet (cards held over the plan — owned and not sold, kept or "
                                         "switched off, and bought in any month — and reserved units)")
        out.print(f"recommended {p.total:,.0f} {cur}; runner-up {runner['total']:,.0f} {cur}, "
                  f"{_more_or_less(runner['increase'], runner['increase_pct'], cur)}: "
                  + escape("; ".join(runner["differences"])), soft_wrap=True)
        if p.status != "optimal":   # the plan's own total is not proven least: the warnings say what was found
            out.print("[yellow]not proven best:[/] the recommended plan's own solve stopped before it proved the least "
                      "cost, so the runner-up and the decision values compare against a plan a longer solve may "
                      "better (plan without --time-limit)", soft_wrap=True)
        elif runner.get("status") == "feasible":   # a total not proven least can only be too high
            out.print("[yellow]not proven best:[/] the runner-up's solve stopped at its time limit, so a cheaper "
                      "runner-up may exist and the close-call verdict may be wrong (plan without --time-limit)",
                      soft_wrap=True)
    elif runner:
        out.print(f"runner-up: {escape(runner.get('note') or runner.get('status', ''))}", soft_wrap=True)
    types = runner.get("other_types") or {}
    if types.get("fleet") is not None and set(types["fleet"]) != set(runner.get("fleet") or {}):
        out.print(f"{other_types_words(types, runner.get('plan_fleet'))}: {types['total']:,.0f} {cur}, "
                  f"{_more_or_less(types['increase'], types['increase_pct'], cur)}: "
                  + escape("; ".join(types["differences"])), soft_wrap=True)
    every = runner.get("count_alternatives") or []
    alternatives = [a for a in every if a["total"] is not None]
    if alternatives:
        # held_units, what its fleet holds: the best plan holding at most n − 1 may hold fewer still; the count
        # asked as "≤ 87" (alternative_units 87 beside held_units 80 read as two counts that contradict)
        table = pd.DataFrame(alternatives)[["card", "units", "alternative_units", "held_units", "total", "increase",
                                            "increase_pct"]]
        table["alternative_units"] = [("≥ " if a > u else "≤ ") + f"{a:,}"
                                      for u, a in zip(table["units"], table["alternative_units"])]
        table = table.rename(columns={"alternative_units": "asked"})
        table["increase_pct"] = _or_na(table["increase_pct"], [True] * len(table))
        emit(held_headers(table), Format.table, float_digits=1, same_decimals=True,
             title=f"One card more or fewer ({present_money(p)}): the best plan holding at most held − 1 or at least "
                   "held + 1 (of a card sold as whole boards, one board: ± 8), asked: ≤ or ≥ that count, and how many "
                   "it holds (held_units: owned and not sold, kept or switched off, and bought in any month)")
    left_out = counts_left_out(every)   # those without a total: how many, and why (not computed, no plan holds them)
    if left_out:
        out.print(escape(left_out), soft_wrap=True)
    if p.close_call:
        out.print(f"[bold yellow]close call:[/] the runner-up costs within {100 * runner['close_call_share']:g}% of the "
                  "recommended plan — weigh both fleets above", soft_wrap=True)
    done = p.solver.get("decisions")
    if done:
        threads, solves = done.get("threads", 1), sum(done["solves"].values())
        # with no re-solve (nothing bought or capped to value) no thread worked: "0 solves … on 2 threads" read oddly
        err.print("decision values, runner-up, flip points and cap costs: "
                  + (f"{counted(solves, 'solve')}, {done['total_seconds']:.2f} s"
                     + (f" on {threads} threads" if threads > 1 else "") if solves else
                     f"no re-solve needed, {done['total_seconds']:.2f} s"))
    if p.flip_points is not None and len(p.flip_points):
        # flip_share_of_today a share, as the JSON and the workbook name it and as the tables show utilisation
        flips = p.flip_points.drop(columns=["gpu", "solves"])
        flips["flip_share_of_today"] = _small_shares(flips["flip_share_of_today"], FLIP_DIGITS)
        emit(held_headers(flips), Format.table, float_digits=FLIP_DIGITS,
             title="Flip points: the demand of the workload a card mainly serves just below which the plan holds fewer of it")


# decimals of the flip points table: a flip at 1.676 reference GPUs read as 1.7, above it
FLIP_DIGITS = 3


def _small_shares(shares, digits: int) -> list:
    """A column of shares for a table of `digits` decimals: one those would show as 0 but is not (0.00012) with two
    significant digits as text (reports.tables.share_text), the others as they are."""
    from planner.reports.tables import share_text

    return [share_text(v) if isinstance(v, numbers.Real) and 0 < abs(v) < 0.5 * 10.0 ** -digits else v
            for v in shares]


def _print_cap_costs(p, out) -> None:
    """What each limit the scenario sets costs the plan (engine.decisions' cap costs), and the notes of the
    baselines that cost less than the plan, which now name the limits that bind (the baselines table above
    was shown before they were known)."""
    from planner.engine.baselines import CHEAPER_BY_CAPS
    from planner.engine.decisions import CAPS_LIFTED_ALONE
    from planner.reports.tables import binds_words, present_money

    caps = getattr(p, "cap_costs", None)
    if caps is None or not len(caps):
        return
    table = caps.assign(binds=binds_words(caps["binds"]),
                        limit=[f"{v:,.10g}" for v in caps["limit"]])   # as set: 0.45 kW is no 0.5
    table["saving_pct"] = _or_na(table["saving_pct"], table["status"].isin(["optimal", "feasible"]))
    emit(table.drop(columns=["status", "dropped_in"]), Format.table, float_digits=1, same_decimals=True,
         title=f"What each limit costs ({present_money(p)}): the total without it, and the saving — a limit binds "
               "when the plan would cost less without it")
    out.print(CAPS_LIFTED_ALONE, soft_wrap=True)
    for baseline, note in zip(p.baselines.get("baseline", []), p.baselines.get("note", [])):
        if note.startswith(CHEAPER_BY_CAPS):
            out.print(f"  {escape(one_line(baseline))}: {escape(one_line(note))}", soft_wrap=True)


# --------------------------------------------------------------------------------------------------
# compare and sweep


@app.command()
def compare(
    a: Path = typer.Argument(..., parser=path_given("a file"),
                             help="scenario YAML file, or a saved plan (plan.json, or any file holding one) (before)"),
    b: Path = typer.Argument(..., parser=path_given("a file"),
                             help="scenario YAML file, or a saved plan (plan.json, or any file holding one) (after)"),
    fmt: Format = choice_option(Format.table, "--format",
                                help="table | json (the whole comparison) | csv (cost by category to the cent, a, b, "
                                     "delta, and each side's horizon and discount rate)"),
    output: Path | None = typer.Option(None, "-o", "--output", metavar="FILE", parser=path_given("a file"),
                                       help="write the --format output (json or csv) to FILE, atomically, instead of "
                                            "stdout"),
    solver: Solver = choice_option(Solver.highs, "--solver", help="MILP solver: highs (in-process) or cbc (bundled)"),
    store: Path | None = store_option(),
    max_variables: int = typer.Option(MAX_DISPATCH_VARIABLES, "--max-variables", metavar="N", parser=VARIABLES_FROM_1,
                                      help="refuse (exit 2), before building it, a model of more than N dispatch "
                                           "variables, as plan does"),
    max_purchase_variables: int = typer.Option(MAX_PURCHASE_VARIABLES, "--max-purchase-variables", metavar="N",
                                               parser=VARIABLES_FROM_0,
                                               help="refuse (exit 2), before building it, a model of more than N "
                                                    "integer purchase variables, as plan does without --time-limit"),
) -> None:
    """Plan two scenarios and show what differs: inputs, fleets side by side, cost by category (b − a).

    Either side may be a plan saved by `plan --format json` or `plan --out DIR` (plan.json): it is read,
    not solved again. Both files are checked before either is solved: their problems (both files' together),
    different currencies.
    """
    import pandas as pd

    from planner.catalog.prices import resolve_store
    from planner.reports import compare as make_comparison
    from planner.reports.compare import SAME_INPUTS, SidesUnreadable, in_cents, read_sides, saved_line

    skip_teardown()

    sa = sb = None
    output_checked = False
    try:
        _check_store(store)
        _check_table_output(fmt, output, "comparison")
        sa, sb = read_sides(a, b)   # each read once: a saved plan may come through a pipe
        _check_not_an_input(output, None, [a, b, *_files_read_by(sa), *_files_read_by(sb), resolve_store(store)],
                            "this comparison")
        output_checked = True   # -o may be written: a comparison with a side without a fleet says so in it
        cmp = make_comparison(sa, sb, solver=solver.value, store=store, max_dispatch_variables=max_variables,
                              max_purchase_variables=max_purchase_variables, files=(a, b))
    except InfeasibleError as exc:   # as plan: -o of json gets stdout's object, of csv is said not written
        known = _sides_without_plan(exc, {"a": (sa, a), "b": (sb, b)})
        if output_checked:
            _no_plan_out(exc, output, fmt is Format.json, None, known)
        infeasible(exc, fmt if output is None else Format.table, known)
    except ModelTooLarge as exc:
        fail(f"{exc.where}{_too_large(exc, False)}")
    except SidesUnreadable as exc:   # each file's problems under its own label, as validate gives them
        err.labelled("error:", exc.messages[0], "bold red")
        fail(exc.messages[1], exc.exit_code)
    except PlannerError as exc:
        fail(exc)
    unproven = cmp.not_proven_notes
    for note in unproven:
        err.warn(note, label="not proven optimal")
    # what could not be compared (a side saved without unit prices or its files' hashes): JSON's notes hold it, the
    # table prints it under the sides, CSV (rows of costs only) on stderr
    caveats = [note for note in cmp.notes if note not in unproven]
    if fmt is Format.csv:
        for note in caveats:
            err.warn(note, label="note")
    costs = pd.concat([cmp.costs, pd.DataFrame([{"category": "total", "cost_a": cmp.total_a, "cost_b": cmp.total_b,
                                                 "cost_delta": cmp.total_delta}])], ignore_index=True)
    if fmt is Format.json:
        _emit_text(json.dumps(cmp.to_dict(), indent=2) + "\n", output)
    elif fmt is Format.csv:   # each row says what its sums are: a sheet of many comparisons mixes bases
        basis = {"currency": cmp.currency, **{f"{k}_{side}": v for side, b in cmp.basis.items() for k, v in b.items()},
                 "total_differs_with_same_inputs": cmp.total_differs_with_same_inputs}
        _emit_table(in_cents(costs).assign(**basis), fmt, output)
    else:
        cur = cmp.currency
        sides = []
        for side, path, label in (("a", a, cmp.label_a), ("b", b, cmp.label_b)):
            sides.append(f"[bold]{side}[/] = {escape(one_line(str(path)))} ({escape(one_line(label))})")
            if cmp.sides[side]["saved_plan"]:   # when and by which planner version it was made
                sides.append(f"    {escape(one_line(saved_line(cmp.sides[side])))}")
        stdout_console().print("\n".join(sides) + "\n"
                               f"total: {cmp.total_a:,.0f} → {cmp.total_b:,.0f} {cur} "
                               f"([bold]{cmp.total_delta:+,.0f}[/], {cmp.delta_pct_text})")
        for note in caveats:   # the basis note (reports.compare.basis_note) keeps its own yellow "not like for like:"
            label, _, rest = note.partition(": ") if note == cmp.basis_note else ("note", "", note)
            stdout_console().print(f"[yellow]{label}:[/] {escape(one_line(rest))}")
        if cmp.total_differs_with_same_inputs:
            told = [title for title, table in (("Prices that differ", cmp.prices),
                                               ("Provenance that differs", cmp.provenance)) if len(table)]
            stdout_console().print(f"[yellow]{SAME_INPUTS}[/]"
                                   + (f" (what the plans record of them: {' and '.join(told)}, below)" if told else ""))
        # as text (an unset cap "none (no cap)", 14,000, true): emit escapes text cells, so rich does not take a
        # list's "[aws, azure]" for markup
        if len(cmp.inputs_shown):
            emit(cmp.inputs_shown, Format.table, title=f"Inputs that differ ({len(cmp.inputs_shown)})")
        elif not cmp.total_differs_with_same_inputs:   # that line says so already
            stdout_console().print("no scenario input differs")
        if len(cmp.prices):   # the unit prices of an offer both plans use
            emit(cmp.prices, Format.table, title=f"Prices that differ ({len(cmp.prices)}, {cur})", float_digits=4)
        if len(cmp.provenance):   # the prices' source and dates, the planner version
            emit(cmp.provenance_shown, Format.table, title=f"Provenance that differs ({len(cmp.provenance)})")
        emit(cmp.fleet, Format.table, title=f"Fleets side by side (cost in {cmp.present_money})", float_digits=1,
             same_decimals=True)
        # four columns: narrower than the title, which rich would wrap
        emit(costs, Format.table, title=f"Cost by category ({cmp.present_money})", float_digits=0, whole_title=True)


def _check_table_output(fmt: Format, output: Path | None, what: str) -> None:
    """PlannerError, before any work, for an -o of compare or sweep that `fmt` cannot use or a file that cannot be
    written, as plan's -o is checked (_check_output): the table is for the terminal; `-` is stdout already."""
    if output is None:
        return
    if fmt is Format.table:
        raise PlannerError("-o FILE needs --format json or csv (the table is for the terminal)")
    if str(output) == "-":
        raise PlannerError(STDOUT_ALREADY)
    _check_suffix(output, fmt.value, f".{fmt.value}")
    _check_file_to_write(f"-o {output}", output, "a file name", f"{what}.{fmt.value}")


def _files_read_by(side) -> list[Path]:
    """The files a side of compare (what read_side read) is planned from besides its own: a scenario's profile and
    offers CSVs; none for a saved plan (not planned again)."""
    from planner.reports.compare import SavedPlan
    from planner.scenario.loading import files_read

    return [] if isinstance(side, SavedPlan) else files_read(side)


def _emit_table(table, fmt: Format, output: Path | None, **kwargs) -> None:
    """`table` as emit writes it on stdout, or its JSON or CSV written atomically to `output`."""
    if output is None:
        emit(table, fmt, **kwargs)
        return
    from planner.reports.tables import csv_text, records

    _emit_text(json.dumps(records(table), indent=2) + "\n" if fmt is Format.json else csv_text(table), output)


def _emit_text(text: str, output: Path | None) -> None:
    """`text` on stdout, or written atomically to `output` (fileio.write_atomic: readers see the old file or the whole
    new one), then "wrote FILE" on stderr."""
    if output is None:
        sys.stdout.write(text)
        return
    from planner.fileio import write_atomic

    try:
        write_atomic(output, text)
    except OSError as exc:
        fail(PlannerError(f"-o {output}: cannot write: {exc.strerror or exc}"))
    err.print(f"wrote {output}")


def _sides_without_plan(exc: InfeasibleError, sides: dict) -> dict:
    """What the JSON of a comparison with a side that has no fleet says besides its status and reason, under the keys
    of a comparison's JSON: `infeasible_side` ("a" or "b", as the reason names it; null where it does not), the
    currency (null where the sides' differ), each side's `basis` (horizon_months, discount_rate) and `sides` (file,
    saved_plan, generated_at, version). `sides`: side → (what read_side read, or None, the file given)."""
    from planner.reports.compare import SavedPlan, side_facts

    read = {side: (x, file) for side, (x, file) in sides.items() if x is not None}
    scenarios = {side: x.scenario if isinstance(x, SavedPlan) else x for side, (x, _) in read.items()}
    named = re.match(r"([ab]) \(", str(exc))   # reports.compare names the side it planned: "b (name): …"
    currencies = {s.currency for s in scenarios.values()}
    return {"infeasible_side": named[1] if named else None,
            "currency": currencies.pop() if len(currencies) == 1 else None,
            "basis": {side: {"horizon_months": s.horizon_months, "discount_rate": s.discount_rate}
                      for side, s in scenarios.items()},
            "sides": {side: side_facts(x, file) for side, (x, file) in read.items()}}


def _parse_vary(items: list[str]) -> tuple[dict[str, list[str]], dict[str, list]]:
    """The --vary items as (path → the texts of its values, path → its values), each value read as YAML once the
    points are counted: 65,000 values a --vary were each parsed before the sweep's size was checked (22 s to refuse
    four such)."""
    from planner.reports.sweep import check_size
    from planner.scenario import parse_value

    texts = _vary_texts(items)
    check_size([len(values) for values in texts.values()])
    return texts, {path: [parse_value(v) for v in values] for path, values in texts.items()}


def _vary_texts(items: list[str]) -> dict[str, list[str]]:
    """The --vary items as path → the texts of its values (ScenarioError for a malformed or repeated one)."""
    from planner.scenario import split_values

    vary: dict = {}
    problems = []
    for item in items:
        path, sep, values = item.partition("=")
        if not sep or not path.strip() or not values.strip():
            problems.append(f"--vary {item!r}: expected PATH=V1,V2,…, e.g. onprem.electricity_per_kwh=0.1,0.2")
            continue
        if path.strip() in vary:   # the later one would silently replace the earlier values
            problems.append(f"--vary {item!r}: {path.strip()} is varied twice; give all its values in one "
                            f"--vary {path.strip()}=V1,V2,…")
            continue
        vary[path.strip()] = split_values(values)
        empty = [i for i, text in enumerate(vary[path.strip()], 1) if not text]
        if empty:   # `0.1,0.2,`: a comma too many made a point of the value '' (an error row, planned as such)
            problems.append(f"--vary {item!r}: value {', '.join(map(str, empty))} of {len(vary[path.strip()])} is "
                            "empty (a comma too many?); write null for no value, '' for an empty text")
    if problems:
        raise ScenarioError(problems, "--vary")
    return vary


def sweep_warning_lines(warnings: list[dict], planned: int, points: int) -> list[str]:
    """The lines `fleetplan sweep` warns with, from its table's attrs["warnings"] ({"warning", "points"}: each
    distinct warning and the points that gave it), each with its share of the points. One warning worded
    differently at different points — the same subject before its first ": " ("stale prices: 3 of 4 prices used …"
    at three points, "stale prices: 4 of 5 …" at one) — is one line that gives each wording its share: a line per
    wording said the same warning over and over (an audit: 10 lines for 4 points)."""
    def share(count: int) -> str:
        if planned < points:   # a point without a plan gives no warnings: "2 of 4 points" hid that 2 had none
            return "every planned point" if count == planned else f"{count} of the {planned} planned points"
        return "every point" if count == points else f"{count} of {points} points"

    subjects: dict[str, list[tuple[str, int]]] = {}
    for item in warnings:
        subject, colon, rest = item["warning"].partition(": ")
        subjects.setdefault(subject if colon else item["warning"], []).append((rest if colon else "", item["points"]))
    lines = []
    for subject, worded in subjects.items():
        if len(worded) == 1 or any(not rest for rest, _ in worded):
            lines += [f"{subject}: {rest} ({share(n)})" if rest else f"{subject} ({share(n)})" for rest, n in worded]
        else:
            lines.append(f"{subject}: " + "; ".join(f"{rest} ({share(n)})" for rest, n in worded))
    return lines


def _print_sweep_prices(sources: list[dict], grid: dict[str, list]) -> None:
    """Where a sweep's prices came from, as `plan` says it, once for the whole sweep, in the sweep's order: each
    distinct warning (no price store, packaged prices for providers never refreshed) and store snapshot, named with
    the points that used it where not every point did (a sweep of `prices.snapshot`): `prices (prices.snapshot=1):
    aws store snapshot #1 …`. `sources`: the sweep's attrs["prices"] (reports.sweep: in the order of the first point
    that used each, with its `points`); `grid`: the varied values, whose cross product the points are."""
    from planner.reports.sweep import cross_product

    points = cross_product(grid)
    priced = sorted({i for s in sources for i in s.get("points", [])})
    warnings: dict[str, list[int]] = {}
    snapshots: dict[tuple, tuple[dict, list[int]]] = {}
    for s in sources:
        if s.get("warning"):
            warnings.setdefault(s["warning"], []).extend(s.get("points", []))
        for snap in s.get("snapshots", []):
            snapshots.setdefault((snap["provider"], snap["id"]), (snap, []))[1].extend(s.get("points", []))
    for warning, used in warnings.items():
        err.warn(warning, label=f"prices{_points_named(used, priced, points)}")
    # by the first point that used each (a snapshot of two sources is seen first with the later one's points)
    for snap, used in sorted(snapshots.values(), key=lambda entry: min(entry[1], default=0)):
        err.print(f"prices{_points_named(used, priced, points)}: {snap['provider']} store snapshot #{snap['id']} "
                  f"fetched {snap['fetched_at']} ({days_old(snap['fetched_at'])})", soft_wrap=True)


POINTS_NAMED = 10   # of a sweep's points, by number, in a prices line


def _points_named(used: list[int], priced: list[int], points: list[dict]) -> str:
    """" (prices.snapshot=1)": the points (rows of the sweep, from 0) in `used`, among the `priced` ones, by the
    varied values they alone share; by their numbers (1 for the first row) where no values single them out; "" when
    they are all the priced points (the line is every point's)."""
    used = sorted(set(used))
    if not used or used == priced:
        return ""
    def alike(values: dict) -> list[int]:   # the priced points that have these values
        return [i for i in priced if all(_same_value(points[i][path], value) for path, value in values.items())]

    # the values these points share that others do not all have (a path varied over one value says nothing), the
    # first one that singles them out alone if any does
    shared = {path: value for path, value in points[used[0]].items()
              if all(_same_value(points[i][path], value) for i in used) and alike({path: value}) != priced}
    named = next(({path: value} for path, value in shared.items() if alike({path: value}) == used), shared)
    if named and alike(named) == used:
        return f" ({', '.join(f'{path}={_vary_text(value)}' for path, value in named.items())})"
    for path in points[used[0]]:   # one path's values, some of them: "prices.snapshot=2 or null"
        texts = list(dict.fromkeys(_vary_text(points[i][path]) for i in used))
        if [i for i in priced if _vary_text(points[i][path]) in texts] == used:
            return f" ({path}={' or '.join(texts)})"
    shown = ", ".join(str(i + 1) for i in used[:POINTS_NAMED])
    return f" ({plural(len(used), 'point')} {shown}{f', … ({len(used):,} in all)' if len(used) > POINTS_NAMED else ''})"


def _same_value(a, b) -> bool:
    """Two varied values alike as their text: 1 and 1.0 of a --vary are one value, a list is compared whole."""
    return _vary_text(a) == _vary_text(b)


# the warnings of --vary values a sweep prints whole; the rest are named by their values: a --vary of electricity
# prices in cents warns of each of them
VARY_WARNINGS_SHOWN = 10


@app.command()
def sweep(
    file: Path = typer.Argument(..., metavar="SCENARIO", parser=path_given("a file"), help="scenario YAML file"),
    vary: list[str] = typer.Option(..., "--vary", metavar="PATH=V1,V2",
                                   help="PATH=V1,V2,… (repeatable; the cross product is planned), "
                                        "e.g. onprem.electricity_per_kwh=0.1,0.2 or "
                                        "workloads.prototyping.gpu_hours_per_month=1500,3000"),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS", help="address of a running Dask scheduler, "
                                                                      "e.g. tcp://10.0.0.5:8786 (needs the "
                                                                      "[dask] extra)"),
    # at most an hour: dask's parse_timedelta fails on inf, and a scheduler unreachable for an hour is down
    scheduler_timeout: float = typer.Option(30.0, "--scheduler-timeout", parser=seconds_within(0.1, 3600),
                                            metavar="SECONDS",
                                            help="give up (exit 2) when the --scheduler cannot be reached "
                                                 "within SECONDS (0.1 to 3600)"),
    processes: int = typer.Option(2, "--processes", metavar="N",
                                  parser=number_within("a whole number of processes", 1, whole=True),
                                  help="local worker processes (without --scheduler; at most 4 per core)"),
    baselines: bool = typer.Option(False, "--baselines/--no-baselines", help="also solve all-cloud to report savings"),
    solver: Solver = choice_option(Solver.highs, "--solver", help="MILP solver: highs (in-process) or cbc (bundled)"),
    fmt: Format = choice_option(Format.table, "--format"),
    output: Path | None = typer.Option(None, "-o", "--output", metavar="FILE", parser=path_given("a file"),
                                       help="write the --format output (json or csv) to FILE, atomically, once every "
                                            "point is planned, instead of stdout: a sweep stopped early leaves FILE "
                                            "as it was"),
    store: Path | None = store_option(),
    max_variables: int = typer.Option(MAX_DISPATCH_VARIABLES, "--max-variables", metavar="N", parser=VARIABLES_FROM_1,
                                      help="a point whose model would hold more than N dispatch variables is a row "
                                           "with status error, refused before its model is built, as plan does"),
    max_purchase_variables: int = typer.Option(MAX_PURCHASE_VARIABLES, "--max-purchase-variables", metavar="N",
                                               parser=VARIABLES_FROM_0,
                                               help="likewise a point of more than N integer purchase variables"),
) -> None:
    """Plan every combination of the --vary values (one row each; infeasible points are rows too; at most
    10,000 points). A bad path, or a value no point can plan (a typo, a value out of range), is refused before
    anything is solved (exit 2). Exit 0 when some point has a plan; else 2 when every point is an error, 1
    otherwise."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from planner.catalog.prices import resolve_store
    from planner.engine.result import present_value_words
    from planner.reports import sweep as run_sweep
    from planner.reports.sweep import check_processes, check_values, value_warnings
    from planner.scenario import load_scenario_file
    from planner.scenario.loading import files_read
    from planner.scenario.overrides import ORIGIN as OVERRIDES

    skip_teardown()   # the workers are closed and waited for before run_sweep returns or raises
    try:
        _check_store(store)
        _check_table_output(fmt, output, "sweep")
        if scheduler is None:
            check_processes(processes)
        texts, grid = _parse_vary(vary)   # counted before its values are read, and before the scenario is
        scenario = load_scenario_file(file)
        try:   # every value, before any point is solved: a value no point can plan is named as --vary gave it
            grid = check_values(scenario, grid, given=texts)
        except ScenarioError as exc:
            raise (ScenarioError(exc.problems, "--vary") if exc.origin == OVERRIDES else exc) from None
        # what validate would warn of a value in the file (electricity in cents), before the points' solves
        warned = value_warnings(grid, given=texts)
        for value, said, _ in warned[:VARY_WARNINGS_SHOWN]:
            err.warn(f"--vary {value}: {said}")
        if len(warned) > VARY_WARNINGS_SHOWN:
            more = [value for value, _, _ in warned[VARY_WARNINGS_SHOWN:]]
            err.warn(f"--vary: {counted(len(more), 'more value')} warned of likewise: {', '.join(more[:10])}"
                     + (", …" if len(more) > 10 else ""))
        # the files the points read: the scenario's, and those a --vary value names (a profile, an offers CSV)
        given_files = [Path(v) for path, values in grid.items() if path.endswith(".profile") or path == "prices.source"
                       for v in values if isinstance(v, str) and v.strip()]
        _check_not_an_input(output, None, [file, *files_read(scenario), *given_files, resolve_store(store)],
                            "this sweep")
        # redrawn as points finish, by the sweep's own thread: a refresh thread of the bar's would keep the
        # sweep from forking its workers (reports.sweep.fork_safe), which then import the planner afresh
        with progress_bar(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          transient=True, auto_refresh=False) as bar:
            task = bar.add_task("sweep", total=None)
            try:
                table = run_sweep(scenario, grid, scheduler=scheduler, processes=processes, baselines=baselines,
                                  solver=solver.value,
                                  progress=lambda done, n: bar.update(task, completed=done, total=n, refresh=True),
                                  scheduler_timeout=scheduler_timeout if scheduler is not None else None,
                                  store=store, max_dispatch_variables=max_variables,
                                  max_purchase_variables=max_purchase_variables)
            except ScenarioError as exc:   # a bad path or value: the library's "overrides" are what --vary gave
                if exc.origin != OVERRIDES:
                    raise
                raise ScenarioError(exc.problems, "--vary") from None
    except PlannerError as exc:
        fail(exc)
    except OSError as exc:   # an unreachable --scheduler
        fail(str(exc), 2)
    _print_sweep_prices(table.attrs.get("prices", []), grid)
    planned = int(table["status"].isin(("optimal", "feasible")).sum())
    said = {text for _, _, text in warned}   # said with the value before the sweep
    for line in sweep_warning_lines([w for w in table.attrs.get("warnings", []) if w["warning"] not in said],
                                    planned, len(table)):
        err.warn(line)
    bad = len(table) - planned   # a feasible point (the solver stopped at its limit) has a plan, not proved best
    if bad:
        err.print(f"{bad} of {counted(len(table), 'point')} {plural(bad, 'has', 'have')} no plan (see status and note)",
                  style="yellow")
    notes = table["note"].astype(str)
    too_large = notes.str.startswith("too large to plan here")
    purchases = too_large & notes.str.contains(" integer purchase variables (", regex=False)
    # the rows' notes give each point's count; the option that allows them is the CLI's
    for count, option, limit in ((int((too_large & ~purchases).sum()), "--max-variables", max_variables),
                                 (int(purchases.sum()), "--max-purchase-variables", max_purchase_variables)):
        if count:
            err.warn(f"{count} of {counted(len(table), 'point')} {plural(count, 'is', 'are')} too large for {option} "
                     f"{limit:,}; their notes give each model's size, and a larger {option} allows them")
    # the currency of each point's money: its own when the sweep varies it (that column says it then)
    currencies = list(dict.fromkeys(map(str, table["currency"]))) if "currency" in grid else [scenario.currency]
    if fmt is not Format.table and "currency" not in grid:   # a CSV or JSON file travels without the title
        table = table.assign(currency=scenario.currency)
    if fmt is not Format.table and "money_basis" not in table.columns:   # each row, as the plan's fleet.csv says
        # it (where the points' rates differ, the library's column gives each row's)
        table = table.assign(money_basis=table.attrs.get("money_basis", present_value_words(scenario.discount_rate)))
    # inputs as given: 1 stays 1 next to 1.5 (the library's column is pandas' float64: 1.0), and a table does
    # not round them; booleans, null, mappings and lists as YAML writes them. JSON keeps each value's own type
    # (mappings and lists as such); only an inf or nan value becomes its text
    cell = {Format.table: _vary_text, Format.csv: _vary_cell}.get(fmt, _not_finite)
    table = table.assign(**_given_columns(grid, table.index, cell))
    money = currencies[0] if len(currencies) == 1 else "each point's currency"
    # a plan's words for its basis (engine.result.present_value_words); a varied rate is each point's own
    basis = "present value at each point's discount_rate" if "discount_rate" in grid \
        else present_value_words(scenario.discount_rate)
    _emit_table(table, fmt, output, title=f"Sweep of {one_line(file.name)} ({counted(len(table), 'point')}, {money}, {basis})",
                float_digits=0)
    if not planned:   # the rows say why for each point; a script must not read a sweep without any plan as done
        raise typer.Exit(2 if (table["status"] == "error").all() else 1)


def _given_columns(grid: dict[str, list], index, cell) -> dict:
    """Each varied path's column: `cell` of each value as --vary gave it, in the order of the sweep's rows
    (reports.sweep.cross_product), an object Series on `index` (Series.map would read 0, 1.5 as 0.0, 1.5)."""
    import pandas as pd

    from planner.reports.sweep import cross_product

    points = cross_product(grid)
    return {path: pd.Series([cell(point[path]) for point in points], index=index, dtype=object) for path in grid}


def _not_finite(value):
    """A varied number that is inf or nan as its text: a table, CSV and JSON would show an empty cell or null
    for it, leaving the row's error note naming a value its own column does not show."""
    return str(value) if isinstance(value, float) and not math.isfinite(value) else value


def _vary_text(value) -> str:
    """A varied value as the text of a table cell, as it is written after --vary (reports.sweep.value_text)."""
    from planner.reports.sweep import value_text

    return value_text(value)


def _vary_cell(value) -> str | None:
    """A varied value as a CSV cell: its table text (`_vary_text`; as a number, pandas would write 1 as 1.0 in
    a column that holds 1.5), None an empty cell (CSV's null)."""
    return None if value is None else _vary_text(value)
