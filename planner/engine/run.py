"""`plan()`: the one entry point of the engine (CLI, dashboard and notebooks call it).

scenario → prices → inputs → reductions → model → solve → Plan, then the baselines solved the same way.
"""

from __future__ import annotations

import functools
import math
import numbers
import re
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from planner import catalog
from planner.catalog import speeds as speeds_module
from planner.catalog.prices import PRICE_SOURCE_WORDS
from planner.catalog.speeds import EXTRAPOLATED, NVIDIA_ONLY
from planner.catalog.unit_floors import min_units_beyond_caps
from planner.engine.baselines import (
    BaselineChild,
    all_cloud_is_plan_run,
    baseline_pairs,
    baseline_rows,
    baseline_table,
    fleet_pairs,
    loose_bound_warnings,
    plan_splits,
    settle_all_cloud,
    solve_inputs,
    start_baseline_child,
    with_loose_bound_warnings,
)
from planner.engine.inputs import Inputs, resolve_inputs
from planner.engine.merged_hours import merged_hours_warning
from planner.engine.model import ExtraConstraints, packed_apart, purchase_variables
from planner.engine.profile_slots import (
    above_tolerance,
    bounded_grouping,
    failed_bound_warning,
    grouping_lower_bound,
    loose_bound_warning,
    lower_bound,
    next_slots,
    not_refined_warning,
)
from planner.engine.readback import fleet_unit_ids, prices_used, read_fleet, read_plan, servable_pairs
from planner.engine.reductions import reduce
from planner.engine.result import KEPT_KINDS, Plan, _set_fresh, annotated, keep_to_itself
from planner.engine.solve import DEFAULT_SOLVER, Solution, TimeBudget
from planner.engine.workloads import speed_sources
from planner.errors import (
    InfeasibleError,
    ModelTooLarge,
    PlannerError,
    SolverError,
    SolverFailed,
    TooManyPurchaseVariables,
)
from planner.months import HOURS_PER_WEEK
from planner.scenario import Scenario, apply_overrides, diff_inputs, load_scenario
from planner.scenario.cost_basis import bought_cost_warnings
from planner.scenario.loading import (
    check_not_a_plan,
    file_folder,
    files_as_written,
    loaded_from,
    named_as_written,
    parse_scenario,
    plausibility_warnings,
    validated_here,
)
from planner.scenario.model import assumed_site_figures, defaults_left_out
from planner.scenario.size import FEWER_PURCHASES, FEWER_RESERVATIONS
from planner.text import counted, gap_text, shortened

if TYPE_CHECKING:
    import pandas as pd


# engine.dispatch could not settle which held units work (an LP stopped by the time limit, or numerically stuck)
UNSETTLED_WARNING = ("reservations: which held units do the work was left as the solver placed it (settling it stopped "
                     "without an answer, or the plan's time limit was used up before it): the total stands, but a "
                     "reservation's instance_hours and its FOCUS Used share may differ from another solver's")


# How the warnings of a plan a time limit cut short end: how to give its solves more time (a front end with no such
# option of its own says it in its words: fleetplan_dashboard.tables.PAGE_REMEDIES, keyed on these)
UNPROVEN_REMEDY = "a longer time limit (fleetplan plan --time-limit SECONDS, plan(time_limit=…)) lets it finish"
CHEAPER_REMEDY = "plan with a longer --time-limit (or none) for the best fleet"
REFINE_REMEDY = ("a longer time limit for the plan's solves (plan(time_limit=…), fleetplan plan --time-limit) lets the "
                 "planner add blocks")


def unproven_warning(solution: Solution, total: float, currency: str, time_limit: float | None) -> str | None:
    """What a plan whose solve stopped before it proved its fleet the cheapest (status feasible: the time limit, or
    Ctrl-C) is told first: how much cheaper a plan may be (the solver's gap of the total, where it proved a bound)
    and how to let it prove it; None for a proven plan. The status and gap alone were all that said so (the JSON's
    "feasible" and 0.0587, with no warning), where a plan stopped early can be far above the least (0.1 s left an
    industrial.yaml plan at the all-cloud baseline, 86 % above it)."""
    if solution.status != "feasible":
        return None
    at = f" at the time limit of {time_limit:g} s" if time_limit else ""
    if solution.gap is None:
        how_far = "how much cheaper the best plan is, is not known: the solver proved no bound before it stopped"
    else:
        how_far = (f"a plan up to {solution.gap * abs(total):,.0f} {currency} cheaper may exist (gap "
                   f"{gap_text(solution.gap)} of the total)")
    return f"not proven optimal: the solver stopped{at} before it proved this plan the cheapest; {how_far}; {UNPROVEN_REMEDY}"


def inputs_for(scenario: Scenario, store: str | Path | None = None, merge_periods: bool = True) -> Inputs:
    """The unreduced inputs of a validated scenario, priced from its price source (read once)."""
    prices, provenance = catalog.price_table(scenario.prices.source, store, scenario.prices.snapshot,
                                             catalog.offers.prices_named(scenario))
    return resolve_inputs(scenario, prices, provenance, merge_periods=merge_periods)


def check_min_units_within_caps(scenario: Scenario) -> None:
    """InfeasibleError, before the prices are read or a model built, where the new cards constraints.min_units asks
    alone pass onprem.capex_budget, capex_budget_per_year or power_cap_kw (catalog.unit_floors), in the words validate
    and `fleetplan plan` say it (less the lines of the file, which the scenario does not keep), after the plan's
    label as the explanation of a solve that found no fleet says it: plan() built and solved such a model to "no
    fleet" (or ran out of its time limit) where the CLI refused it at once."""
    beyond = min_units_beyond_caps(scenario)
    if beyond:
        raise InfeasibleError(f"{Inputs.label}: {beyond[0][1]}")


# what makes a scenario's model smaller, whoever refuses it
SMALLER_MODEL = ("allow fewer regions or providers (prices.regions, prices.providers), merge workloads or shorten "
                 "horizon_months")
# … and its purchase variables fewer (FEWER_PURCHASES, FEWER_RESERVATIONS): planner.scenario.size's, as validate says them


def check_limits(time_limit: Any = None, max_dispatch_variables: Any = None, max_purchase_variables: Any = None) -> None:
    """PlannerError (bad input, exit 2) for a time limit that is not a number of seconds above 0, or a variable
    limit that is not a whole number from 0; None is no limit. A library caller's NaN meant no limit without a
    word, and -1 s "found no fleet within the time limit" (exit 3), as if the solver had tried."""
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real)
                                   or not _finite(time_limit) or time_limit <= 0):
        raise PlannerError(f"time_limit: expected seconds above 0 (or None: no limit), got {time_limit!r}")
    for name, limit in (("max_dispatch_variables", max_dispatch_variables),
                        ("max_purchase_variables", max_purchase_variables)):
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, numbers.Integral) or limit < 0):
            raise PlannerError(f"{name}: expected a whole number from 0 (or None: no limit), got {limit!r}")


def check_switches(what: str, **switches: Any) -> None:
    """PlannerError for a switch (baselines=, reduced= …) that is not True or False: `plan(s, baselines="no")`
    ran the baselines, as any non-empty text is true."""
    for name, value in switches.items():
        if not isinstance(value, (bool, np.bool_)):
            raise PlannerError(f"{what}: {name}: expected True or False, got {shortened(repr(value))}")


def _finite(number: numbers.Real) -> bool:
    try:
        return math.isfinite(number)
    except OverflowError:   # an int too large for a float (10**400)
        return False


def check_size(inp: Inputs, max_dispatch_variables: int | None, max_purchase_variables: int | None = None) -> None:
    """ModelTooLarge when the model of `inp` would hold more than `max_dispatch_variables` dispatch variables,
    TooManyPurchaseVariables when more than `max_purchase_variables` integer purchase variables, the serving groups'
    shares of units among them (None: no limit). The first bounds the memory of building and solving it; the second
    its branch and bound, whose time and memory the dispatch count does not foretell: 60 alike custom cards (758
    purchase variables, 9,216 dispatch variables) took 48 s and 440 MB to plan (engine.model.PurchaseVariables)."""
    pairs, periods = int((inp.work > 0).sum()), len(inp.periods)
    if max_dispatch_variables is not None and pairs * periods > max_dispatch_variables:
        raise ModelTooLarge(pairs, periods, max_dispatch_variables, SMALLER_MODEL)
    if max_purchase_variables is not None:
        counted = purchase_variables(inp)
        if counted.total > max_purchase_variables:
            remedy = FEWER_RESERVATIONS if counted.reservations else FEWER_PURCHASES
            if counted.serving_shares:   # the serving groups' shares of units (engine.model.serving_shares)
                remedy += (", or give the serving workloads of one model one serving_group (each group holds a share "
                           "of every unit two groups can use, in every period)")
            raise TooManyPurchaseVariables((counted.purchases, counted.cards, counted.months, counted.owned,
                                            counted.reservations, counted.serving_shares), max_purchase_variables,
                                           remedy)


def checked_inputs(scenario: Scenario, store: str | Path | None, max_dispatch_variables: int | None,
                   max_purchase_variables: int | None = None) -> Inputs:
    """The unreduced inputs `plan(scenario, store=store)` would build (its prices read), held to
    `max_dispatch_variables` and `max_purchase_variables` as plan holds them (ModelTooLarge), without building a
    model: compare builds both sides' before it solves either, and gives them to `plan(…, inputs=…)`, so
    neither is built twice."""
    base = inputs_for(scenario, store)
    check_size(reduce(base), max_dispatch_variables, max_purchase_variables)
    return base


def inputs_priced_as(scenario: Scenario, base: Inputs, merge_periods: bool = True) -> Inputs:
    """The unreduced inputs of `scenario` priced from the offers table `base` was priced from: a re-solve
    of a plan with changed inputs keeps the plan's prices though its source changed since (a refresh)."""
    if base.price_table is None:
        raise PlannerError("inputs_priced_as needs inputs made by resolve_inputs (they keep their price table)")
    provenance = {k: v for k, v in base.prices.items() if k != "requested_source"}
    return resolve_inputs(scenario, base.price_table, provenance, merge_periods=merge_periods)


def inputs_of_plan(result: Plan, store: str | Path | None = None) -> Inputs:
    """The unreduced inputs `result` was solved from: kept by `plan()` in this process for as long as the
    Plan lives, else (a Plan unpickled or read back) resolved again from its scenario's price source."""
    kept = _INPUTS_OF_PLAN.get(id(result))
    if kept is not None:
        return kept.base
    if result.scenario is None:
        raise PlannerError("the plan does not carry its scenario (a Plan made by planner.plan does)")
    return inputs_for(result.scenario, store, merge_periods=bool(result.solver.get("reduced", True)))


def extra_constraints_of(result: Plan) -> ExtraConstraints | None:
    """The extra_constraints `result` was made with by plan() in this process (None for a Plan read back)."""
    kept = _INPUTS_OF_PLAN.get(id(result))
    return None if kept is None else kept.extra_constraints


def packed_apart_cards(base: Inputs, fleet: pd.DataFrame) -> list[tuple[str, list[int], int]]:
    """(card, job sizes, cards per server) of each card the plan holds whose job sizes the model packs apart
    (model.packed_apart: too many ways to fill a server)."""
    held = set(fleet.loc[fleet["kind"] == "card", "sku"])
    out, seen = [], set()
    for i in np.flatnonzero(base.col("kind") == "card"):
        sku = str(base.col("sku")[i])
        if sku in held and sku not in seen and (sizes := packed_apart(base, i)):
            seen.add(sku)
            out.append((sku, sizes, int(base.col("cards_per_server")[i])))
    return out


def plan_notes(scenario: Scenario, base: Inputs, fleet: pd.DataFrame, prices: dict, folder: Path | None = None) -> tuple:
    """(speeds, warnings) of a plan with `fleet` and `prices` (readback.prices_used): where the speed of
    each GPU it uses comes from, and what the user should know — cards with no sourced price, purchase
    options with no price, stale or undated prices, speeds that are estimates, a rate given for the
    scenario's own currency, a purchase period that does not divide the horizon, site figures of on-prem cards
    left to their defaults (assumed_site_figures). The baselines' pairs join
    the speeds table when they are solved (baseline_speeds). `folder`: that of the file the scenario was loaded
    from (its overrides' copy no longer knows it), against which an offers CSV is named as the file wrote it."""
    # only the pairs a unit of the fleet can serve: every GPU against every workload named the estimated speed of
    # an RTX 3060 (12 GB) for an 80 GB fine-tune among what the plan rests on
    speeds = speeds_table(scenario, servable_pairs(base, fleet["unit_id"]))
    warnings = list(base.warnings)
    # named as the prices read for this scenario (the packaged snapshot's where a store held none of them); an offers
    # CSV as the scenario's file wrote it, as the plan's JSON names it (not the path it was resolved to)
    source = base.prices.get("source")
    warnings += catalog.option_gaps(scenario, base.price_table, source and named_as_written(scenario, source, folder))
    warnings += prices.get("date_warnings", [])
    warnings += spot_zone_warnings(base, fleet)
    warnings += _plan_estimate_warnings(scenario, speeds)
    # values that look typed in another unit (kW as W, cents, a cap in watts), no demand, a rate for its own currency
    warnings += [text for _, text in plausibility_warnings(scenario)]
    # the site figures on-prem cards are costed with that the scenario left to the defaults, and their basis
    warnings += [text for _, text in assumed_site_figures(scenario)]
    # lower-bound card prices bought, a capex budget below any card's price, purchases paying for part of a host
    cards = fleet[fleet["kind"].eq("card") & fleet["new_units"].gt(0)]
    warnings += [text for _, text in bought_cost_warnings(scenario, dict(zip(cards["sku"], cards["new_units"].astype(int))))]
    for sku, sizes, per_server in packed_apart_cards(base, fleet):
        warnings.append(f"card {sku}: jobs of {', '.join(map(str, sizes))} GPUs share its servers of {per_server} cards "
                        "in too many ways to plan exactly, so each size is packed as if it had the servers to itself: "
                        "the plan may hold fewer cards than those jobs need at once; to plan it exactly, use fewer "
                        "distinct sizes, or run some sizes on another card type (a custom card of its own)")
    warnings += _idle_custom_cards(scenario, base)
    every, horizon = scenario.onprem.purchase_every_months, scenario.horizon_months
    # only where a card may be bought (owned cards alone, `onprem.cards: []`, have no purchase periods to speak of)
    buyable_cards = (base.col("kind") == "card") & base.col("buyable").astype(bool)
    if every < horizon and horizon % every and buyable_cards.any():
        warnings.append(f"purchase_every_months {every} does not divide horizon_months {horizon}: the last "
                        f"purchase period is {counted(horizon % every, 'month')} long")
    return speeds, warnings


# a spot note's "lowest of 4 zone quotes" (pricing_adapters.aws, scripts/build_snapshot.py), and what it dropped
ZONE_QUOTES = re.compile(r"lowest of (\d+) zone quotes?(?:; dropped ([^|]*))?")


def spot_zone_warnings(base: Inputs, fleet: pd.DataFrame) -> list[str]:
    """A warning for each spot offer of `fleet` priced at one availability zone's quote (its offers row names a
    zone, or its note says it is the lowest of the zone quotes): the plan names its region alone, though spot
    capacity at that price may be limited to that zone (an audit's p4d spot pick, 57 % of its total, was the
    lowest of 4 zone quotes: at their median the plan flips to Azure). What is said of the other zones is the
    note's own; the offers hold no other zone's price."""
    table = base.price_table
    spot = set(fleet.loc[fleet["kind"] == "spot", "unit_id"])
    if table is None or not spot or not {"zone", "note"} <= set(table.columns):
        return []
    rows = table[table["offer_id"].isin(spot)]
    out = []
    for provider, region, sku, zone, note, price, currency in zip(
            rows["provider"], rows["region"], rows["sku"], rows["zone"], rows["note"], rows["hourly_price"],
            rows["currency"]):
        zone = zone.strip() if isinstance(zone, str) else ""
        quotes = ZONE_QUOTES.search(note) if isinstance(note, str) else None
        if not zone and quotes is None:
            continue
        said = (f"{provider} {region} {sku} spot is priced at {f'zone {zone}' if zone else 'one zone'}'s quote "
                f"({price:g} {currency}/h)")
        if quotes is not None:
            n = int(quotes[1])
            dropped = f"; dropped {quotes[2].strip()}" if quotes[2] else ""
            said += (f", the only zone quote in its price data{dropped}" if n == 1 else
                     f", the lowest of {n} zone quotes{dropped} (the offers hold no other zone's price)")
        out.append(f"{said}: spot capacity at that price may be limited to that zone, which the plan's fleet does "
                   "not name (fleetplan offers: columns zone and note)")
    return out


def price_source_warnings(source: str, prices: dict, store: str | Path | None) -> list[str]:
    """The warnings on where a plan's prices came from, first among its warnings (a notebook prints those): the
    `prices` (readback.prices_used) warning — no price store, or a damaged one, so the packaged snapshot; providers
    or regions the store never priced — which only `prices["warning"]` held; and `unused_store`."""
    said = [prices.get("warning"), unused_store(source, store)]
    return [f"prices: {text}" for text in said if text]


def unused_store(source: str, store: str | Path | None) -> str | None:
    """What a `store` given (plan(store=…), --store) that the scenario's prices.source `source` (an offers CSV as its
    file wrote it) does not read is told: it was ignored without a word (a sweep's too: reports.sweep). None where
    there is none, or the scenario reads it."""
    if store is None or source == "store":
        return None
    used = ("the packaged snapshot (prices.source: snapshot)" if source in PRICE_SOURCE_WORDS
            else f"the offers CSV {source} (prices.source)")
    return (f"the price store {store} was given, but the scenario's prices come from {used}: the store is not read; "
            "set prices.source: store in the scenario to plan on the store")


# the speeds table's column `used_by` names the plan, then each baseline whose fleet can serve the pair
PLAN_USER = "plan"
BASELINE_NAMES = {"all_cloud": "all cloud", "all_onprem": "all on-prem", "best_single": "the best single type"}
# in every warning on estimated speeds only baselines rest on (baseline_estimate_warnings): a plan's warnings
# made before its baselines were solved again are told by it
BASELINE_ESTIMATES = "the baselines' totals may rest on speeds that are estimates"


def speeds_table(scenario: Scenario, plan_pairs, baselines: Mapping[str, frozenset] | None = None) -> pd.DataFrame:
    """speed_sources of the (workload, gpu) pairs the plan's fleet can serve (`plan_pairs`: servable_pairs) and
    those each baseline's fleet can (`baselines`: baselines.baseline_pairs, in the table's order), with `used_by`
    naming whose: "plan", "plan, all_cloud", "best_single" … A baseline's total is shown beside the plan's, and
    may rest on a speed the plan's does not."""
    users: dict[tuple[str, str], list[str]] = {pair: [PLAN_USER] for pair in plan_pairs}
    for baseline, pairs in (baselines or {}).items():
        for pair in pairs:
            users.setdefault(pair, []).append(baseline)
    speeds = speed_sources(scenario, sorted({gpu for _, gpu in users}), set(users))
    speeds["used_by"] = [", ".join(users[pair]) for pair in zip(speeds["workload"], speeds["gpu"])]
    return speeds


def baseline_speeds(result: Plan, baselines: Mapping[str, frozenset],
                    table: pd.DataFrame | None = None) -> tuple[pd.DataFrame, list[str]]:
    """(speeds, warnings) of `result` once its baselines are solved (`baselines`: the pairs of each baseline's
    fleet, baselines.baseline_pairs): the plan's pairs and theirs, and a warning for each workload whose speed
    only baselines rest on is an estimate, in place of any such warnings of baselines solved before. Every path
    that adds baselines sets them so (plan, add_baselines with or without the forked child, the dashboard's
    with_baselines). A plan without its scenario keeps its own. `table`: the baselines table, whose labels the
    warning names the baselines by."""
    if result.scenario is None:
        return result.speeds, result.warnings
    speeds = speeds_table(result.scenario, plan_pairs(result.speeds), baselines)
    kept = [w for w in result.warnings if BASELINE_ESTIMATES not in w]
    return speeds, kept + baseline_estimate_warnings(speeds, result.scenario, table)


def plan_pairs(speeds: pd.DataFrame) -> set[tuple[str, str]]:
    """The (workload, gpu) pairs of a speeds table the plan's fleet can serve (all of a table without `used_by`,
    made before it had one: the plan's alone; none of a Plan that never had one, as read_plan's)."""
    if "workload" not in speeds:
        return set()
    users = speeds["used_by"] if "used_by" in speeds else [PLAN_USER] * len(speeds)
    return {(w, g) for w, g, used in zip(speeds["workload"], speeds["gpu"], users) if PLAN_USER in used.split(", ")}


def baseline_estimate_warnings(speeds: pd.DataFrame, scenario: Scenario | None = None,
                               table: pd.DataFrame | None = None) -> list[str]:
    """A warning for each workload whose speed on some GPU is an estimate and that a unit of a baseline's fleet,
    but none of the plan's, can serve (speeds_table's used_by without "plan"): what the plan saves against them is
    only as good as those speeds. It says "may rest on" and "could run on": the pairs are those a unit of the fleet
    can serve (baselines.fleet_pairs), not those its dispatch gives work to, which the baselines' rows do not keep
    (an audit read "infer on MI300X (the best single type)" as infer's baseline resting on MI300X, which served
    train alone). Each baseline is named with its label from `table` where that adds to the name ("the best single
    type, only cloud on-demand"). With the `scenario`, a GPU measured itself whose relative speed is an estimate
    through the workload's estimated reference GPU is said so, and the extrapolation is the reference's (an audit's
    H200 reference made the measured A100 read as extrapolated), as the plan's own warning says it."""
    labels = dict(zip(table["baseline"], table["label"])) if table is not None and "label" in table else {}

    def named(baseline: str) -> str:   # "all cloud"; "the best single type, only cloud on-demand"
        name, label = BASELINE_NAMES.get(baseline, baseline), labels.get(baseline)
        return f"{name}, {label}" if isinstance(label, str) and label and not label.startswith(name) else name

    out: dict[str, dict[str, str]] = {}   # workload -> gpu -> the baselines whose fleet could serve it at its estimate
    for workload, gpu, source, used in zip(speeds["workload"], speeds["gpu"], speeds["source"], speeds["used_by"]):
        users = used.split(", ")
        if source == "estimated" and PLAN_USER not in users:
            out.setdefault(workload, {})[gpu] = "; ".join(named(u) for u in users)
    workloads = {w.name: w for w in scenario.workloads} if scenario is not None else {}
    said = []
    for workload, gpus in out.items():
        through = ""
        caveats = _estimate_caveats(speeds, workload, list(gpus))
        if workload in workloads:
            own, over, ref, details = _estimated_own(workloads[workload], list(gpus))
            caveats = _estimate_caveats(speeds, workload, list(details), details)
            if over:
                measured = "measured itself" if len(over) == 1 else "measured themselves"
                through = f" ({', '.join(over)} {measured}: relative to the reference GPU {ref}, whose speed is an estimate)"
        said.append(f"{workload}: {BASELINE_ESTIMATES} from datasheet figures, not measurements: {workload} could run "
                    f"on {', '.join(f'{gpu} ({users})' for gpu, users in gpus.items())}{through}{caveats}; whether "
                    "a baseline gives it work there is its own dispatch, which is not kept (used_by names the fleets "
                    "that can serve a pair), so what the plan saves against those baselines is only as firm as these "
                    "speeds; the plan's own total does not rest on them (see the plan's speeds table, column used_by, "
                    "and docs/speed-model.md); give them in the workload's throughput table if you have measured them")
    return said


def _estimated_own(w, gpus: list[str]) -> tuple[list[str], list[str], str, dict[str, str]]:
    """(own, over, ref, details) of workload `w`'s `gpus` whose speed for it is an estimate: those estimated
    themselves, those measured themselves but relative to an estimated reference GPU `ref`, and the speed details
    (speeds.gpu_speed) of the GPUs estimated themselves and of the reference where it is estimated — what the
    warnings' caveats (extrapolated, not NVIDIA) are read from."""
    ref = catalog.resolve_gpu(w.reference_gpu)
    speed_of = functools.partial(speeds_module.gpu_speed, w.throughput_metric)
    own = [g for g in gpus if speed_of(g).source == "estimated"]
    over = [g for g in gpus if g not in own]
    ref_estimated = speed_of(ref).source == "estimated"
    details = {g: speed_of(g).detail for g in [*own, *([ref] if ref_estimated else [])]}
    return own, over, ref, details


def _idle_custom_cards(scenario: Scenario, base: Inputs) -> list[str]:
    """A warning for each custom card (a quote the user gave) that can serve no workload, with why for the first:
    a plan without it said nothing of it (the reason was only in the JSON's excluded_offers)."""
    cards = scenario.onprem.custom_cards
    if not cards or not len(base.exclusions):
        return []
    out = []
    excluded = base.exclusions[base.exclusions["kind"] == "card"]
    for sku in cards:
        rows = excluded[excluded["sku"] == sku]
        if rows["workload"].nunique() == len(scenario.workloads):
            first = rows.iloc[0]
            # bought only for work, unless owned (buyable false) or required (min_units): then held idle
            held = not cards[sku].buyable or scenario.constraints.min_units.get(sku, 0) > 0
            use = "no card of it the plan holds does any work" if held else "the plan never buys it"
            out.append(f"custom card {sku} can serve no workload, so {use}; {first['workload']}: {first['reason']}")
    return out


def break_even_speed_notes(scenario: Scenario, inp: Inputs, table: pd.DataFrame) -> pd.DataFrame:
    """The break-even `table` (readback.break_even) with a note on each row whose cloud offer's speed for the workload
    is an estimate, not a measurement (speed_sources 'estimated'): its cloud rate per reference hour rests on it, and the
    plan's warnings alone said so (a new-user audit read every break-even against an extrapolated MI300X)."""
    if table.empty or "cloud_offer" not in table:
        return table
    gpu_of = dict(zip(inp.col("unit_id").tolist(), inp.col("gpu").tolist()))
    gpus = [gpu_of.get(offer) for offer in table["cloud_offer"].tolist()]
    pairs = {(w, g) for w, g in zip(table["workload"].tolist(), gpus) if g}
    if not pairs:
        return table
    speeds = speed_sources(scenario, sorted({g for _, g in pairs}), pairs)
    estimated = {(w, g) for w, g, source in zip(speeds["workload"], speeds["gpu"], speeds["source"])
                 if source == "estimated"}
    workloads = {w.name: w for w in scenario.workloads}

    def said(w: str, g: str) -> str:   # a measured GPU is an estimate here only through an estimated reference GPU
        own, _, ref, _ = _estimated_own(workloads[w], [g])
        return (f"{g}'s speed here is an estimate, not a measurement (speeds table)" if own else
                f"{g}'s speed here is relative to the reference GPU {ref}'s, an estimate (speeds table)")

    notes = [note if (w, g) not in estimated else "; ".join(filter(None, [note, said(w, g)]))
             for w, g, note in zip(table["workload"].tolist(), gpus, table["note"].fillna("").tolist())]
    return table.assign(note=notes)


def _estimated_gpus(speeds) -> dict[str, list[str]]:
    """workload -> the GPUs the plan uses whose speed for it is estimated, in table order (workloads in order of
    first appearance, as groupby(sort=False)); read from the columns: masking and grouping the small speeds
    table costs more than a plan's other notes together."""
    out: dict[str, list[str]] = {}
    for workload, gpu, source, used in zip(speeds["workload"], speeds["gpu"], speeds["source"], speeds["used_by"]):
        if source == "estimated" and PLAN_USER in used.split(", "):
            out.setdefault(workload, []).append(gpu)
    return out


def _plan_estimate_warnings(scenario: Scenario, speeds) -> list[str]:
    """A warning for each workload the plan's speeds of which (speeds_table rows used by the plan) are estimates:
    the GPUs whose own speed is estimated, and, where the workload's reference GPU's speed is estimated, that one,
    which every relative speed divides by (speed_and_source): a measured GPU's speed relative to it is then an
    estimate through the reference alone, and the warning says so rather than calling that GPU's speed an estimate
    (an audit's serving workload on an L40S reference named three Lambda-measured GPUs as datasheet estimates)."""
    workloads = {w.name: w for w in scenario.workloads}
    out = []
    for workload, gpus in _estimated_gpus(speeds).items():
        # over: measured themselves, estimates through the reference's speed
        own, over, ref, details = _estimated_own(workloads[workload], gpus)
        ref_estimated = ref in details   # details hold the reference exactly where its speed is estimated
        said = f"{workload}: "
        if own:
            said += f"the speeds of {', '.join(own)} are estimates from datasheet figures, not measurements"
        if ref_estimated:
            said += (f"; so is its reference GPU {ref}'s, and every relative speed is measured against it" if own else
                     f"its reference GPU {ref}'s speed is an estimate from datasheet figures (not measured), and every "
                     "relative speed is measured against it")
            if over:
                said += f": those of {', '.join(over)} (measured themselves) rest on its estimate"
        caveats = _estimate_caveats(speeds, workload, list(details), details)
        fix = (f"give them in the workload's throughput table (relative to {ref}) if you have measured them" if over
               else "give them in the workload's throughput table if you have measured them")
        out.append(f"{said}{caveats} (see the plan's speeds table and docs/speed-model.md); {fix}")
    return out


def _estimate_caveats(speeds, workload: str, gpus: list[str], details: Mapping[str, str] | None = None) -> str:
    """What the plan's warning on estimated speeds adds for `workload`'s `gpus` (in its speeds table, or their own
    speeds' `details`): those extrapolated outside the range of the measured GPUs the fit was made on, and those not
    NVIDIA's (the fit saw NVIDIA GPUs only; CUDA code runs on them only once ported: AMD's on ROCm), as "; …" clauses,
    or ""."""
    if details is None:
        rows = speeds["workload"] == workload
        details = dict(zip(speeds.loc[rows, "gpu"], speeds.loc[rows, "detail"]))
    outside = [g for g in gpus if f"; {EXTRAPOLATED}: " in str(details.get(g, ""))]
    vendors = {g: str(catalog.gpu_table().loc[g, "vendor"]) for g in gpus if NVIDIA_ONLY in str(details.get(g, ""))}
    said = ""
    if outside:
        said += (f"; {', '.join(outside)} {'lies' if len(outside) == 1 else 'lie'} outside the range of the measured "
                 "GPUs the fit was made on: extrapolated, so less sure")
    for vendor in dict.fromkeys(vendors.values()):
        named = [g for g, v in vendors.items() if v == vendor]
        stack = f"{vendor}, ROCm" if vendor == "AMD" else vendor
        said += (f"; {', '.join(named)} {'is not an NVIDIA GPU' if len(named) == 1 else 'are not NVIDIA GPUs'} ({stack}): "
                 "the fit saw NVIDIA GPUs only, and CUDA code runs on "
                 f"{'it' if len(named) == 1 else 'them'} only once ported (give the workload a framework to keep it "
                 "to CUDA GPUs)")
    return said


# How the problems of a Scenario given as an object, validated again (checked_scenario), name it, as "<dict>" and
# "<text>" name a scenario given so
GIVEN_SCENARIO = "<Scenario>"


def checked_scenario(scenario: Scenario | str | Path | dict) -> Scenario:
    """`load_scenario(scenario)`, and a Scenario object this loader did not validate — one changed by pydantic's
    model_copy(update=…), which checks nothing, built by Scenario(...), or unpickled — validated again as a dict of
    its fields is (its dump parsed, the keys no field is added, so that every problem is a ScenarioError naming its
    field, with "did you mean"), keeping the folder its file names its files against: plan(s.model_copy(update=
    {"horizon_months": -5})) raised an IndexError deep in the cost schedule. One the loader made (loading.validated_here)
    is taken as it is: validating it again took 0.5-0.8 ms (the shipped scenarios; a profile CSV is read again), about
    1 % of the worked example's 50 ms plan, paid by every sweep point and dashboard re-plan (2026-12-06)."""
    if not isinstance(scenario, Scenario) or validated_here(scenario):
        return load_scenario(scenario)
    checked = parse_scenario(_as_data(scenario), origin=GIVEN_SCENARIO)
    checked._folder, checked._files_as_written = file_folder(scenario), files_as_written(scenario)
    checked._file = loaded_from(scenario)
    return checked


def _as_data(model: Scenario) -> dict:
    """`model`'s fields as a file's data (a dump as JSON would hold it), with the keys that are no field of it or of a
    model in it (model_copy(update={"horizon_mnths": 3}) keeps them, unchecked, and a dump drops them)."""
    try:
        data = model.model_dump(mode="json", warnings=False)
    except PydanticSerializationError:   # a value no JSON holds (model_copy(update={"fx": object()})): the loader names it
        data = model.model_dump(warnings=False)
    _add_unknown_keys(model, data)
    return defaults_left_out(model, data)


def _add_unknown_keys(value: Any, data: Any) -> None:
    """Put into `data`, the dump of `value`, the keys of `value` and of the models in it that are no field."""
    if isinstance(value, BaseModel) and isinstance(data, dict):
        fields = type(value).model_fields
        for key, item in vars(value).items():
            if key not in fields:
                data[key] = item
            elif key in data:
                _add_unknown_keys(item, data[key])
    elif isinstance(value, (list, tuple)) and isinstance(data, (list, tuple)):
        for item, dumped in zip(value, data):
            _add_unknown_keys(item, dumped)
    elif isinstance(value, Mapping) and isinstance(data, dict):
        for key, item in value.items():
            if str(key) in data:
                _add_unknown_keys(item, data[str(key)])


class UnknownKeyword(PlannerError, TypeError):
    """A keyword argument a library call does not take: a PlannerError saying what was meant, and a TypeError, as
    Python's own refusal of it was."""


def keyword_names(function: Any) -> list[str]:
    """The names of the parameters of `function` a caller can give by keyword, in order (not **kwargs)."""
    import inspect

    return [name for name, p in inspect.signature(function).parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def did_you_mean_keyword(call: str, key: str, names: list[str], others: list[str] = ()) -> UnknownKeyword | None:
    """The error for keyword argument `key` of `call` (e.g. "sweep") spelt like one of its parameters `names`
    (`baseline=True`, `time_limt=3`), or None where it is closer to one of `others` (or to none of them)."""
    import difflib

    close = difflib.get_close_matches(key.lower(), [*names, *others], n=1)
    if close and close[0] in names:
        return UnknownKeyword(f"{call}(): unknown keyword argument {key!r}; did you mean {close[0]}=…?")
    return None


def check_keywords(call: str, function: Any, kwargs: Mapping[str, Any]) -> None:
    """UnknownKeyword for the first of `kwargs`, the keyword arguments `function` (named `call`) does not take,
    with "did you mean" where one of its parameters is spelt alike, else the list of them: sweep(), compare() and
    add_decisions() take **kwargs for this alone, as plan() (its scenario overrides: _check_plan_keywords)."""
    names = [name for name in keyword_names(function) if name not in ("scenario", "result", "a", "b")]
    for key in kwargs:
        raise did_you_mean_keyword(call, key, names) or UnknownKeyword(
            f"{call}(): unknown keyword argument {key!r} (it takes {', '.join(f'{n}=' for n in names)})")


def _check_plan_keywords(kwargs: Mapping[str, Any]) -> None:
    """PlannerError for a keyword argument of plan() that names no scenario field and is spelt like one of plan()'s
    own parameters (`baseline=False`, `time_limt=10`): taken for a scenario override, it was refused as an unknown
    key of the scenario, offered the scenario's keys. A name closer to a scenario field is left to the overrides'
    own "did you mean"."""
    params = [name for name in keyword_names(plan) if name != "scenario"]
    fields = list(Scenario.model_fields)
    for key in kwargs:
        if key.split("__")[0] in fields:
            continue
        error = did_you_mean_keyword("plan", key, params, fields)
        if error is not None:
            raise UnknownKeyword(f"{error} (other keyword arguments are scenario overrides, e.g. "
                                 "onprem__electricity_per_kwh=0.2)")


def plan(scenario: Scenario | str | Path | dict, solver: str = DEFAULT_SOLVER, baselines: bool = True,
         reduced: bool = True, time_limit: float | None = None, overrides: Mapping[str, Any] | None = None,
         store: str | Path | None = None, extra_constraints: ExtraConstraints | None = None,
         prefetch_baselines: bool = False, max_dispatch_variables: int | None = None, inputs: Inputs | None = None,
         max_purchase_variables: int | None = None, **kwargs: Any) -> Plan:
    """The cheapest fleet for `scenario` (a Scenario, a file path, YAML text or a dict).

    - `overrides` / keyword arguments: dotted-path changes, validated like a file (a mapping given for a section is
      merged into it: `onprem={"pue": 1.5}` changes the PUE alone) —
      `plan(s, onprem__electricity_per_kwh=0.2)` is `plan(s, overrides={"onprem.electricity_per_kwh": 0.2})`;
      the plan keeps what they changed (`overrides_changed`), which its summary (summary.md) says under its header:
      its title and description are the file's;
    - `store`: the price store file for `prices.source: store` (default `$FLEETPLAN_STORE` or the
      platform's data directory); given for another source, it is not read, and a warning says so, as it says
      where the prices came from when that is not what the scenario asked (price_source_warnings);
    - `extra_constraints(model)`: called with the built model of the recommended plan before it is
      solved, to add constraints of your own (`model.prob += …`; `model.card(sku)` is a card's count), or to
      return them (a pulp constraint or a list of them: `lambda m: m.card("rtx-4090") <= 2`), which are added;
      anything else returned but None is a PlannerError (engine.model.add_extra_constraints); baselines do not
      get them;
    - `reduced=False` solves without the exact reductions (slow; for checks);
    - `time_limit`: seconds for all the solves of the recommended plan together (TimeBudget, counted from its
      first solve): its solve, the bound of a grouped profile and its refinements on more blocks, the merged-hours
      check and the explanation of a plan with no fleet, each given what is left; a plan found is kept when they
      run out (status feasible, with its gap), and what they leave undone is said so. Each baseline's solve
      gets `time_limit` of its own, as add_decisions' re-solves do (bounded together by its total_time_limit);
    - `max_dispatch_variables`: ModelTooLarge, before the model is built, when it would hold more dispatch
      variables (units × workloads each can serve × periods) — a bound on its memory and build time for
      a server planning what others upload;
    - `max_purchase_variables`: TooManyPurchaseVariables (a ModelTooLarge), before the model is built, when it
      would hold more integer purchase variables (cards × purchase months, owned batches' choices, reservation
      offers: engine.model.PurchaseVariables) — a bound on its branch and bound, which `time_limit` bounds too;
    - `inputs`: the unreduced inputs of `scenario` as `inputs_for(scenario, store, merge_periods=reduced)` built
      them (compare builds both sides' before it solves either): its prices are not read, nor its inputs
      built, again; no overrides with them;
    - `baselines=False`: the plan alone; `add_baselines(result)` adds them later (show the plan first);
    - `prefetch_baselines=True` (with `baselines=False`): a forked child process solves the baselines
      table while this one solves the plan, and `add_baselines(result, plans=False)` collects it —
      the same table, sooner on two free cores. Where forking is unsafe or useless (no fork, one core,
      other Python threads, HiGHS already run in this process) nothing is started and add_baselines
      solves them as usual, as it does when the child fails;
    Raises InfeasibleError with the reason and the numbers, ScenarioError for bad input.
    """
    _check_plan_keywords(kwargs)
    check_not_a_plan(scenario, "plan")
    check_limits(time_limit, max_dispatch_variables, max_purchase_variables)
    check_switches("plan", baselines=baselines, reduced=reduced, prefetch_baselines=prefetch_baselines)
    if extra_constraints is not None and not callable(extra_constraints):   # was a TypeError inside build_model
        raise PlannerError(f"plan: extra_constraints: expected a function of the built model (or None), got "
                           f"{shortened(repr(extra_constraints))}")
    if inputs is not None and (not isinstance(inputs, Inputs) or inputs.reduced != reduced or overrides or kwargs):
        raise PlannerError("plan: inputs: expected the inputs of the scenario as given, from inputs_for(scenario, store, "
                           "merge_periods=reduced), and no overrides")
    loaded = checked_scenario(scenario)
    s = overridden = apply_overrides(loaded, overrides, **kwargs)
    if inputs is not None and (inputs.name, inputs.currency, inputs.horizon_months) != (s.name, s.currency,
                                                                                        s.horizon_months):
        raise PlannerError(f"plan: inputs: these are the inputs of {shortened(repr(inputs.name))} "
                           f"({inputs.horizon_months} months, {inputs.currency}), not of the scenario given "
                           f"({shortened(repr(s.name))}, {s.horizon_months} months, {s.currency})")
    check_min_units_within_caps(s)
    t0 = time.perf_counter()
    base = inputs_for(s, store, merge_periods=reduced) if inputs is None else inputs
    t1 = time.perf_counter()
    inp = reduce(base) if reduced else base
    check_size(inp, max_dispatch_variables, max_purchase_variables)   # before a child builds the baselines' models
    # forked before this process first runs HiGHS (baselines.can_fork); the plan's run without cards may
    # settle the all-cloud baseline (baselines.settle_all_cloud): then the child leaves it out
    child = (start_baseline_child(base, solver, time_limit,
                                  all_cloud_is_plan_run(base, extra_constraints) and plan_splits(base, solver))
             if prefetch_baselines and not baselines else None)
    budget = TimeBudget(time_limit)   # every solve of the recommended plan draws on it; the baselines' do not
    try:
        t2 = time.perf_counter()
        # a grouped profile (engine.periods, profile_slots): one more solve bounds the cost error of the
        # grouping, and a default grouping whose bound is too loose is planned again on more blocks; these
        # solves and the merged-hours check share the time limit
        solved = _solve_within_bound(s, store, reduced, base, inp, solver, budget, extra_constraints,
                                     (max_dispatch_variables, max_purchase_variables))
        if solved.base is not base and child is not None:   # its baselines are of the grouping left behind
            child.stop()
            child = None
        s, base, inp, model, solution = solved.scenario, solved.base, solved.inp, solved.model, solved.solution
        all_cloud = all_cloud_run(base, model, extra_constraints)
        result = read_plan(inp, model, solution, s)
        # (the plan gives out copies of its lists and dicts, engine.result.CONTAINERS: a changed one is set whole; the
        # values made here for the plan alone are set as they are, result._set_fresh, not copied again)
        speeds, notes = plan_notes(s, base, result.fleet, result.prices, file_folder(loaded))
        _set_fresh(result, break_even=break_even_speed_notes(s, inp, result.break_even))
        unproven = unproven_warning(solution, result.total, result.currency, time_limit)
        source = named_as_written(s, s.prices.source, file_folder(loaded))   # a word ('snapshot') as it is
        warnings = (price_source_warnings(source, result.prices, store)
                    + ([unproven] if unproven is not None else []) + notes)
        if model.settled is False:
            warnings = [*warnings, UNSETTLED_WARNING]
        grouping = solved.grouping(result.total)
        _set_fresh(result, speeds=speeds, profile_grouping=grouping,
                   warnings=[*warnings, *solved.warnings(grouping)])
        t3 = time.perf_counter()
        # several instance offers serving under the cloud-share cap: one more solve proves merged hours exact
        merged = merged_hours_warning(inp, result.total, solver, budget, extra_constraints)
        if merged is not None:
            _set_fresh(result, warnings=[*result.warnings, merged])
        t4 = time.perf_counter()
    except BaseException as exc:
        if child is not None:
            child.stop()
        if isinstance(exc, InfeasibleError):
            # where the prices came from, said as a plan says it first among its warnings: a store row skipped as bad
            # (a price of -1) can be why no offer serves, and the error alone read as if none existed (an audit)
            exc.warnings = price_source_warnings(named_as_written(s, s.prices.source, file_folder(loaded)),
                                                 base.prices, store)
        raise
    _set_fresh(result, solver={**result.solver,
                               "timings_seconds": {"prepare": round(t1 - t0, 4), "reduce": round(t2 - t1, 4),
                                                   "build_solve_read": round(t3 - t2 - solved.bound_seconds, 4),
                                                   "profile_bound": round(solved.bound_seconds, 4),
                                                   "merged_hours_check": round(t4 - t3, 4), "baselines": 0.0}})
    if baselines:
        _solve_baselines_of(result, base, solver, time_limit, plans=True, extra_constraints=extra_constraints)
    _remember_inputs(result, _Kept(base, time_limit, child, all_cloud, extra_constraints))   # for add_baselines and add_decisions
    store_read = base.prices.get("store")
    result.store_file = Path(store_read) if store_read else None
    # the file it was read from, however it was given (plan(path), plan(load_scenario(path)), its overrides' copy)
    result.scenario_file = loaded_from(loaded)
    # its reports name the scenario's files as its file wrote them, however it was loaded (plan(path) or
    # plan(load_scenario(path))); the overrides' copy no longer knows that folder
    result.scenario_folder = file_folder(loaded)
    if overrides or kwargs:   # what they changed, for the summary's note: its title and description are the file's
        _set_fresh(result, overrides_changed=tuple(diff_inputs(loaded, overridden).itertuples(index=False, name=None)))
    return result


@dataclass(frozen=True)
class _Solved:
    """A plan's model solved on the weekly hours it keeps (_solve_within_bound): `scenario` (profile_slots set
    to the blocks planned on where the planner chose them), `base` and `inp` its unreduced and reduced
    inputs, `lower` the lower bound of its grouping (T_low; the exact solve's proven least once a grouping
    was refined away; None: exact from the start, or unknown), `refined_from` the default groupings left for
    a bound above the tolerance, `ungrouped` the warning of a grouped model with no fleet (planned exactly),
    `chosen` whether the scenario left profile_slots to the planner, `bound_seconds` the bound solves' time,
    `not_refined` why a chosen grouping whose bound is above the tolerance was kept ("": none was),
    `bound_failed` why its bound is unknown where the bound's solver failed (solver_failed; "": it did not)."""

    scenario: Scenario
    base: Inputs
    inp: Inputs
    model: Any
    solution: Solution
    lower: float | None = None
    refined_from: list = field(default_factory=list)
    ungrouped: str | None = None
    chosen: bool = True
    bound_seconds: float = 0.0
    not_refined: str = ""
    bound_failed: str = ""

    def grouping(self, total: float) -> dict | None:
        """The plan's profile_grouping at its total `total` (bounded_grouping): None when no weekly hours of
        different weights share a block and none did before (the plan is exact and was planned so)."""
        if self.inp.grouping is not None:
            return bounded_grouping(self.inp.grouping, total, self.lower, self.refined_from)
        if not self.refined_from:
            return None
        every = {"slots": HOURS_PER_WEEK, "weight_classes": self.refined_from[0]["weight_classes"]}
        return bounded_grouping(every, total, self.lower, self.refined_from)

    def warnings(self, grouping: dict | None) -> list[str]:
        """The grouping's warnings: a grouped model with no fleet, a bound above the tolerance that the
        scenario's own profile_slots kept, or that the planner's grouping kept (not_refined), a bound unknown
        because its solver failed (bound_failed)."""
        currency, proven = self.inp.currency, self.solution.status == "optimal"
        loose = None if self.chosen else loose_bound_warning(grouping, currency, proven)
        kept = not_refined_warning(grouping, currency, self.not_refined) if self.not_refined else None
        failed = failed_bound_warning(grouping, self.bound_failed) if self.bound_failed else None
        return [w for w in (self.ungrouped, loose, kept, failed) if w]


def _solve_within_bound(s: Scenario, store, reduced: bool, base: Inputs, inp: Inputs, solver: str,
                        budget: TimeBudget, extra_constraints: ExtraConstraints | None,
                        limits: tuple[int | None, int | None] = (None, None)) -> _Solved:
    """`inp` solved (_solve_exact_if_grouping_fails) with the lower bound of its grouping (one more solve,
    engine.profile_slots). Where the scenario leaves profile_slots out and that bound is above
    BOUND_TOLERANCE_PCT of the objective, planned again on more blocks (_refined: 24 → 48 → every weekly
    weight), until it is within: at most two more plans and one more bound, the last exact. A profile_slots
    the user set is kept (_Solved.warnings says a loose bound). A default of 24 blocks had planned an audit's
    two workloads of unrelated shapes 11.6 % above the exact optimum, its bound 39.8 % printed beside it and
    nothing in the warnings.
    Only a grouping whose solve the solver proved optimal is refined: stopped before (at the time limit), its
    bound holds the solver's gap too, which more blocks, a larger model given the same time, need not shrink.
    A plan found is never lost to a finer grouping: one that finds no fleet in time, none cheaper, is too
    large, or whose solver failed, leaves the plan on the grouping before it, with a warning (_Solved.not_refined);
    nor to a bound whose solver failed: unknown, with a warning (_Solved.bound_failed).
    All these solves share `budget` (the plan's time limit): each is given what is left, a bound the time left
    does not reach is unknown, and a finer grouping not started once it is spent leaves the plan as it is,
    with a warning saying so. Each had the whole limit: up to five of them, 100 s of the dashboard's 60."""
    chosen = s.profile_slots is None   # before the exact fallback sets it
    s, base, inp, model, solution, ungrouped = _solve_exact_if_grouping_fails(
        s, store, reduced, base, inp, solver, budget, extra_constraints, limits)
    solved = _Solved(s, base, inp, model, solution, ungrouped=ungrouped, chosen=chosen)
    while True:
        if solved.inp.grouping is None:   # exact: its own proven least bounds what a refined grouping left
            return replace(solved, lower=lower_bound(solved.solution) if solved.refined_from else None)
        start = time.perf_counter()
        lower, failed = _grouping_bound(solved.inp, solver, budget, extra_constraints)
        solved = replace(solved, lower=lower, bound_failed=failed,
                         bound_seconds=solved.bound_seconds + time.perf_counter() - start)
        grouping = bounded_grouping(solved.inp.grouping, solved.solution.objective, lower)
        if not solved.chosen or not above_tolerance(grouping):
            return solved
        if solved.solution.status != "optimal":
            return replace(solved, not_refined=_stopped_unproven(budget.seconds))
        finer = _refined(solved, grouping, store, reduced, solver, budget, extra_constraints, limits)
        if isinstance(finer, str):
            return replace(solved, not_refined=finer)
        solved = finer


def _grouping_bound(inp: Inputs, solver: str, budget: TimeBudget,
                    extra_constraints: ExtraConstraints | None) -> tuple[float | None, str]:
    """(grouping_lower_bound of `inp`, ""), or (None, what failed: solver_failed) where its solver failed: the plan
    stands, its bound unknown, and its warnings say why (not a time limit)."""
    try:
        return grouping_lower_bound(inp, solver, budget, extra_constraints), ""
    except SolverFailed as failed:
        return None, solver_failed(failed)


def _refined(solved: _Solved, grouping: dict, store, reduced: bool, solver: str, budget: TimeBudget,
             extra_constraints: ExtraConstraints | None, limits: tuple[int | None, int | None]) -> _Solved | str:
    """The plan of `solved` (its bound `grouping` above the tolerance, proven optimal on its blocks) planned on
    more blocks (next_slots), priced from the same offers and held to `limits`; or why it is not kept: the finer
    model is too large (ModelTooLarge), its solver failed (SolverFailed: a CBC crash, said as one), finds no fleet
    in time (SolverError), has no fleet (InfeasibleError:
    a grouped plan is a real plan of the exact hours, so only extra_constraints on more than unit counts can
    rule out the exact model, after a finer grouping's own corners fell to max_cloud_share,
    _solve_exact_if_grouping_fails), or stops before it proves its optimum with a fleet no cheaper. A finer plan
    not proven optimal but cheaper is kept: a real plan of the exact hours (engine.periods) below the other.
    Nor is one `budget` (the plan's time limit) leaves no time for: not built, its solve not run."""
    slots = next_slots(grouping["slots"], grouping["weight_classes"])
    on = "every weekly weight (exactly)" if slots >= HOURS_PER_WEEK else f"{slots} blocks"
    time_limit = budget.seconds
    if budget.spent():
        return (f"the time limit of {time_limit:g} s was used up before the plan on {on} could be solved"
                f"{_more_time(time_limit)}")
    s = solved.scenario.model_copy(update={"profile_slots": slots})
    try:
        base = inputs_priced_as(s, solved.base, merge_periods=reduced)
        inp = reduce(base) if reduced else base
        check_size(inp, *limits)
        s, base, inp, model, solution, ungrouped = _solve_exact_if_grouping_fails(
            s, store, reduced, base, inp, solver, budget, extra_constraints, limits)
    except ModelTooLarge as error:
        return _too_large_to_refine(error, on)
    except SolverFailed as failed:   # a crash, not the time limit: more time would not help, the other solver may
        return f"on {on} the {solver_failed(failed)}"
    except SolverError:
        within = f" within what was left of the time limit of {time_limit:g} s" if time_limit else ""
        return f"on {on} the solver found no fleet{within}{_more_time(time_limit)}"
    except InfeasibleError:
        return (f"on {on} the model has no fleet (only constraints of your own on more than unit counts can rule "
                "out every plan of the exact hours where a grouped plan exists)")
    if solution.status != "optimal" and solution.objective >= solved.solution.objective:
        at = f" at the time limit of {time_limit:g} s" if time_limit else ""
        return (f"on {on} the solver stopped{at} with a fleet of {solution.objective:,.0f} {inp.currency}, no cheaper, "
                f"before it proved its optimum{_more_time(time_limit)}")
    tried = {k: grouping[k] for k in ("slots", "weight_classes", "error_bound", "error_bound_pct")}
    return replace(solved, scenario=s, base=base, inp=inp, model=model, solution=solution, lower=None,
                   refined_from=[*solved.refined_from, tried], ungrouped=ungrouped)


def _stopped_unproven(time_limit: float | None) -> str:
    """Why a grouping whose solve the solver did not prove optimal is not refined (_Solved.not_refined)."""
    at = f" at the time limit of {time_limit:g} s" if time_limit else ""
    return (f"the solver stopped{at} before it proved the optimum on these blocks, so the bound holds the solver's "
            f"gap as well as the grouping's error{_more_time(time_limit)}")


def solver_failed(failed: SolverFailed) -> str:
    """What a solve whose solver failed (a CBC run that crashed or was killed) leaves to say, and the way out: the
    other solver. Not a time limit: more time would not help."""
    return (f"solver {failed.solver} failed ({failed.detail}); the other solver may solve it: "
            f"plan(solver={failed.other!r}), fleetplan plan --solver {failed.other}")


def _more_time(time_limit: float | None) -> str:
    """The remedy of a refinement the time limit cut short: "" without a time limit."""
    return f"; {REFINE_REMEDY}" if time_limit else ""


def _too_large_to_refine(error: ModelTooLarge, on: str) -> str:
    """Why a finer grouping held to the caller's limits is not planned (_Solved.not_refined)."""
    if error.dispatch_variables is None:   # TooManyPurchaseVariables: the blocks do not change them
        return f"on {on} {error}"
    return (f"its model on {on} would hold {error.dispatch_variables:,} dispatch variables, more than the "
            f"{error.limit:,} allowed (max_dispatch_variables, fleetplan plan --max-variables)")


def _solve_exact_if_grouping_fails(s: Scenario, store, reduced: bool, base: Inputs, inp: Inputs, solver: str,
                                   budget: TimeBudget, extra_constraints: ExtraConstraints | None,
                                   limits: tuple[int | None, int | None] = (None, None)):
    """(scenario, base, inp, model, solution, warning) of `inp` solved; when its profile is grouped
    (engine.periods) and the grouped model has no fleet, of the exact inputs (every weekly weight kept, the
    scenario with profile_slots 168: the scenario solved, which a read-back plan's re-solves plan from; held to
    `limits`, check_size's maxima of dispatch and purchase variables) with
    a warning saying so: a block plans its hours at two corner levels, whose mix over-serves the hours between
    them, so max_cloud_share (with cards limited, e.g. by the power cap) can rule out every grouped plan
    while an exact one exists. InfeasibleError when the exact model has no fleet either. (Baselines drop
    the cloud-share cap, and a block needs its own peak's capacity as the exact model does.) Both solves draw
    on `budget`, the plan's time limit."""
    try:
        model, solution = solve_inputs(inp, solver, budget, extra_constraints=extra_constraints)
        return s, base, inp, model, solution, None
    except InfeasibleError:
        if inp.grouping is None:
            raise
    grouping = inp.grouping
    s = s.model_copy(update={"profile_slots": HOURS_PER_WEEK})
    base = inputs_for(s, store, merge_periods=reduced)
    inp = reduce(base) if reduced else base
    check_size(inp, *limits)   # every weekly weight its own period: up to 7× the grouped model's
    model, solution = solve_inputs(inp, solver, budget, extra_constraints=extra_constraints)
    warning = (f"profile_slots: grouped into {counted(grouping['slots'], 'block')}, the {grouping['weight_classes']} weekly "
               "weights left no fleet within the scenario's caps (a block plans its hours at two corner levels, "
               "which can count more cloud work against max_cloud_share than a real plan needs); planned on all "
               f"{grouping['weight_classes']} instead, exactly")
    return s, base, inp, model, solution, warning


def all_cloud_run(base: Inputs, model, extra_constraints: ExtraConstraints | None = None) -> tuple | None:
    """The plan's proven (status, total, pairs) without cards, where that is the all-cloud baseline
    (baselines.all_cloud_is_plan_run); else None. `pairs`: the (workload, gpu) pairs a unit of that run's fleet
    can serve (readback.fleet_unit_ids of its values: what a read of it would hold), for the speeds table."""
    run = model.fixed_cost_runs.get(0.0) if all_cloud_is_plan_run(base, extra_constraints) else None
    if run is None or run[0] != "optimal" or model.no_card_values is None:
        return None
    inp = model.inputs
    # base: the offers the reductions dropped, of which one may tie with the offer that run holds
    return (*run, fleet_pairs(inp, fleet_unit_ids(inp, model, model.no_card_values), base))


@dataclass(frozen=True)
class PlanSummary:
    """What a sweep keeps of a plan: the status, total, fleet, baselines table and warnings `plan()` gives."""

    status: str
    total: float
    fleet: pd.DataFrame
    baselines: pd.DataFrame | None   # None when not asked for
    prices: dict                     # where the prices came from, as Plan.prices (catalog.price_table)
    # as Plan.warnings, but for those on where the prices came from (price_source_warnings): a sweep says its
    # prices' sources once for all its points (its attrs["prices"], from `prices`), not again for each point
    warnings: list = field(default_factory=list)


# Its tables, dicts and lists kept to itself as a Plan's are (engine.result.keep_to_itself): each read a copy, so a
# caller's edit of `summary.warnings` or `summary.fleet` changes nothing of it; frozen, a changed one is set whole
# by `dataclasses.replace(summary, warnings=…)`, which copies it too
SUMMARY_KEPT = annotated(PlanSummary, *KEPT_KINDS)
keep_to_itself(PlanSummary, SUMMARY_KEPT, "summary")


def plan_summary(scenario: Scenario, solver: str = DEFAULT_SOLVER, baselines: bool = False,
                 time_limit: float | None = None, store: str | Path | None = None,
                 max_dispatch_variables: int | None = None, max_purchase_variables: int | None = None,
                 baseline_bounds: bool = True) -> PlanSummary:
    """The status, total, fleet, baselines and warnings of `plan(scenario, solver, baselines)`, the same
    numbers, without reading back the Plan's other tables (sweeps). A grouped profile costs the solve of its
    bound, as in plan(): a default grouping whose bound is too loose is planned again on more blocks.
    `max_dispatch_variables`, `max_purchase_variables`: ModelTooLarge before a model is built, as `plan()`.
    `baseline_bounds=False`, for a caller that reads the baselines' totals alone (a sweep: the savings against
    all cloud): on a grouped profile, no baseline's bound on its cost error is solved (baselines.baseline_rows),
    so its table's error_bound is unknown (NaN) and no warning names a loose one."""
    check_limits(time_limit, max_dispatch_variables, max_purchase_variables)
    s = checked_scenario(scenario)
    check_min_units_within_caps(s)   # a sweep point's "no fleet", said without solving
    folder = file_folder(s)
    base = inputs_for(s, store)
    inp = reduce(base)
    limits = (max_dispatch_variables, max_purchase_variables)
    check_size(inp, *limits)
    budget = TimeBudget(time_limit)   # as plan(): the plan's solves share it, each baseline has its own
    solved = _solve_within_bound(s, store, True, base, inp, solver, budget, None, limits)
    s, base, inp, model, solution = solved.scenario, solved.base, solved.inp, solved.model, solved.solution
    total, fleet = read_fleet(inp, model)
    table = rows = None
    if baselines:
        rows, _ = baseline_rows(base, solver, time_limit, s, plans=False, all_cloud=all_cloud_run(base, model),
                                bounds=baseline_bounds)
        table = baseline_table(rows, total, base, solution.status)
    speeds, notes = plan_notes(s, base, fleet, prices_used(inp, fleet["unit_id"]), folder)
    merged = merged_hours_warning(inp, total, solver, budget)
    # in plan()'s order (but the prices' sources: see PlanSummary.warnings)
    unproven = unproven_warning(solution, total, base.currency, time_limit)
    warnings = ([unproven] if unproven is not None else []) + notes
    warnings += [UNSETTLED_WARNING] if model.settled is False else []
    warnings += solved.warnings(solved.grouping(total))
    warnings += [merged] if merged else []
    if rows is not None:   # last, as plan() adds them (baseline_speeds, then the baselines' loose bounds)
        warnings += baseline_estimate_warnings(speeds_table(s, plan_pairs(speeds), baseline_pairs(rows)), s, table)
        warnings += loose_bound_warnings(table, base.grouping, base.currency)
    return PlanSummary(solution.status, total, fleet, table, base.prices, warnings)


@dataclass(frozen=True)
class _Kept:
    """What plan() keeps of a plan for add_baselines and add_decisions (_INPUTS_OF_PLAN)."""

    base: Inputs
    time_limit: float | None
    child: BaselineChild | None = None          # solving the baselines table, until it is collected
    all_cloud: tuple | None = None              # the plan's run that settles the all-cloud baseline (all_cloud_run)
    extra_constraints: ExtraConstraints | None = None   # the caller's, which add_decisions applies to its re-solves


# The unreduced inputs of plans made by plan(), so add_baselines and add_decisions need not resolve them
# again (nor read prices a refresh may have changed since), with the child solving their baselines
# (prefetch_baselines) if any; an entry lives as long
# as its Plan (weakref.finalize drops it and stops the child), and the Plan itself stays free of them
# (the dashboard's cache pickles Plans).
_INPUTS_OF_PLAN: dict[int, _Kept] = {}


def _remember_inputs(result: Plan, kept: _Kept) -> None:
    _INPUTS_OF_PLAN[id(result)] = kept
    weakref.finalize(result, _forget_inputs, id(result))


def _forget_inputs(key: int) -> None:
    kept = _INPUTS_OF_PLAN.pop(key, None)
    if kept is not None and kept.child is not None:
        kept.child.stop()


def add_baselines(result: Plan, solver: str | None = None, time_limit: float | None = None,
                  store: str | Path | None = None, plans: bool = True) -> Plan:
    """Solve the baselines of a plan made with `plan(..., baselines=False)` and set its `baselines`
    table (and, with `plans`, `baseline_plans`: the all-cloud, all-on-prem and best single Plans, which
    only the charts need). Same result as `plan(...)` with baselines; returns `result`, changed in place.

    `solver` and `time_limit` default to the plan's own; `store` is the price store the plan used (only
    needed for a Plan that `plan()` did not make in this process)."""
    if not isinstance(result, Plan):
        raise PlannerError(f"add_baselines: expected a Plan from planner.plan(), got {type(result).__name__}")
    check_limits(time_limit)
    base = inputs_of_plan(result, store)
    kept = _INPUTS_OF_PLAN.get(id(result), _Kept(base, None))
    child = kept.child
    if child is not None:
        _INPUTS_OF_PLAN[id(result)] = replace(kept, child=None)   # a child's table is collected once
    solver = solver or result.solver["name"]
    time_limit = kept.time_limit if time_limit is None else time_limit
    if child is not None and (plans or (child.solver, child.time_limit) != (solver, time_limit)):
        child.stop()   # it solves the table alone, with the plan's solver and time limit
        child = None
    return _solve_baselines_of(result, base, solver, time_limit, plans, child, kept.all_cloud, kept.extra_constraints)


def _solve_baselines_of(result: Plan, base: Inputs, solver: str, time_limit: float | None, plans: bool,
                        child: BaselineChild | None = None, all_cloud: tuple | None = None,
                        extra_constraints: ExtraConstraints | None = None) -> Plan:
    """Set the baselines of `result`: the child's table when it has one, else solved here; the all-cloud
    row from the plan's own run (`all_cloud`, all_cloud_run) where no Plans are asked for. The note of a
    baseline cheaper than the plan names the caps it drops, and the caller's `extra_constraints` (which
    baselines never get). The speeds table and its warnings then cover the pairs of the baselines' fleets
    too (baseline_speeds), from the rows, which the child's table carries as well."""
    start = time.perf_counter()
    rows = child.rows() if child is not None else None
    if rows is None:
        rows, plans_of = baseline_rows(base, solver, time_limit, result.scenario, plans=plans,
                                       all_cloud=None if plans else all_cloud)
    else:   # the child leaves the all-cloud row to the plan's run where it settles it
        rows, plans_of = settle_all_cloud(rows, all_cloud, base, solver, time_limit), {}
    # each value made here for the plan alone (speeds and warnings from copies of the plan's): set as it is
    # (result._set_fresh); its dicts and lists a copy at each read (engine.result.CONTAINERS): set whole
    table = baseline_table(rows, result.total, base, result.status, extra_constraints is not None)
    speeds, warnings = baseline_speeds(result, baseline_pairs(rows), table)
    facts = result.solver
    _set_fresh(result, baseline_plans=plans_of, baselines=table, speeds=speeds,
               warnings=with_loose_bound_warnings(warnings, table, base.grouping, base.currency),
               solver={**facts, "timings_seconds": {**facts.get("timings_seconds", {}),
                                                    "baselines": round(time.perf_counter() - start, 4)}})
    return result
