"""Resolve once: a scenario and a price table become the model's inputs — units, work matrix, demand
periods, caps and the cost schedule. Every later step (reductions, model, solve, read-back, baselines)
takes `Inputs` and never the scenario.

Units are the ways of getting capacity, one row each: on-prem cards (`kind` card), cloud reservations
(reserved) and on-demand / spot instances. Money is in the scenario currency.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from planner import catalog
from planner.catalog.offers import card_costs, cloud_rows, site_card_rows, unpriced_card_findings
from planner.catalog.prices import scenario_provenance
from planner.catalog.servable import workload_needs
from planner.engine.columns import cached_column, take_rows
from planner.engine.constraints import read_caps
from planner.engine.periods import DEFAULT_PROFILE_SLOTS, demand_periods, week_blocks
from planner.engine.schedule import CostSchedule, ResaleTerms, SiteCosts, build_schedule, card_rates
from planner.engine.vintages import build_vintages, check_owned_ages, epoch_of_month
from planner.engine.workloads import check_reference_metrics, demand_scale, work_matrix
from planner.errors import ScenarioError
from planner.months import discount_factors
from planner.scenario.cost_basis import whole_board_gaps
from planner.scenario.size import RESERVATION_OPTIONS

KIND_OF_OPTION = {"on_demand": "on_demand", "spot": "spot", **dict.fromkeys(sorted(RESERVATION_OPTIONS), "reserved")}

UNIT_COLUMNS = ["unit_id", "kind", "provider", "region", "sku", "purchase_option", "gpu", "gpu_known",
                "accelerator_name", "gpu_count", "gpu_memory_gb", "cards_per_server", "hourly", "upfront", "list_hourly",
                "term_months", "capex", "life_years", "maintenance_rate_per_year", "busy_watts", "idle_watts",
                "existing", "age_months", "min_units", "max_units", "buyable", "as_of", "source"]


@dataclass(frozen=True)
class Inputs:
    """Everything the model needs, resolved from one scenario and one price table."""

    name: str                    # the scenario's name
    currency: str
    horizon_months: int
    discount_rate: float         # annual
    availability: float          # share of each hour a card can work
    units: pd.DataFrame          # UNIT_COLUMNS, one row per unit
    vintages: pd.DataFrame       # engine.vintages.VINTAGE_COLUMNS, one row per card batch bought or owned
    epoch_of_month: np.ndarray   # [H] the fleet epoch of each month (card counts are constant inside one)
    owned_choices: tuple         # what may happen to owned cards besides keeping them: "sell", "off"
    work: np.ndarray             # [U × W] reference-GPU-hours per unit-hour
    periods: pd.DataFrame        # months (tuple), epoch, slot_hours, n_months, discount_sum
    demand: np.ndarray           # [P × W] reference-GPU-hours per hour
    workloads: pd.DataFrame      # name, needs (for explanations), serving, single_type, demand_unit, per_reference
    exclusions: pd.DataFrame     # workload, unit_id, kind, provider, sku, gpu, reason
    caps: dict[str, Any]         # cap name -> limit (None = off); see engine.constraints
    schedule: CostSchedule       # the cost schedule of `units`
    reduced: bool
    # Identical weekly hours and months merged into one period each (engine.periods): exact, with the cloud-
    # share cap checked after the plan where it could tie them (engine.merged_hours).
    hours_merged: bool = False
    pruned: dict = field(default_factory=dict)   # reduction -> units removed
    label: str = "recommended"
    prices: dict = field(default_factory=dict)   # provenance of the prices (catalog.price_table)
    # each scenario field naming a file (prices.source, workloads.NAME.profile) → the hash of the content read from
    # it for these inputs (catalog.prices.short_sha256): a plan's JSON gives it (input_files), never a later read's
    input_sha256: dict = field(default_factory=dict)
    warnings: tuple = ()         # what the plan rests on that the user should know (no price, estimates …)
    # Profile grouping (engine.periods): {"slots", "weight_classes"} when weekly hours of different weights
    # share a block (periods and demand are then the blocks' corners), with the periods and demand of the
    # blocks at their mean weights (the lower-bound relaxation, engine.profile_slots).
    grouping: dict | None = None
    periods_low: pd.DataFrame | None = None
    demand_low: np.ndarray | None = None
    # The offers table the inputs were priced from: re-solves of the plan with changed inputs (decisions'
    # flip points) are priced from it too, not from the source read again after a refresh.
    price_table: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    # Card id → cards each purchase month may buy at least, beyond the peak's need (engine.model
    # unit_bound), for cards of onprem.cards: a decision holding more cards than the peak needs (one
    # card more) may be cheapest with a spare bought late, which the need's bound would cut off.
    # Reservation offer id → reserved units the model may hold at least, for the same reason: the
    # runner-up of a plan at the peak's need may hold one reservation more.
    purchase_floor: dict = field(default_factory=dict)
    # Card ids with no sourced price (catalog or onprem.card_overrides): their resale value is unknown, so a
    # sale would credit 0 — giving a working card away. Owned ones are never sold: kept or switched off.
    resale_unknown: frozenset = frozenset()
    # Card id → GPUs of the whole board it is sold as only (the catalog's sold_in_units_of > 1: the HGX rows,
    # priced per GPU): the model buys such a card in whole boards (engine.model.define_card_counts).
    board_gpus: dict = field(default_factory=dict)

    def col(self, name: str) -> np.ndarray:
        """A column of `units` as an array (row lookups in hot loops without pandas overhead)."""
        return cached_column(self, self.units, name)

    def may_sell(self, i: int) -> bool:
        """Whether owned cards of card unit `i` may be sold: onprem.sell_owned, and a known resale value (a card
        with no sourced price would be sold for 0 — given away —, so it is kept or switched off instead)."""
        return "sell" in self.owned_choices and self.col("sku")[i] not in self.resale_unknown

    @property
    def workload_names(self) -> list[str]:
        return list(self.workloads["name"])

    @cached_property
    def serving_groups(self) -> np.ndarray:
        """[W] each serving workload's serving group as a number 0, 1, … (one per group, in the order of first use),
        -1 for batch work. A workload without a serving_group is a group of its own: its name, which shows it, is
        not its key, so it never joins the group of another workload whose serving_group is spelled the same."""
        numbers: dict = {}
        table = self.workloads
        return np.array([numbers.setdefault((own, name), len(numbers)) if serving else -1
                         for serving, name, own in zip(table["serving"], table["serving_group"], table["own_group"])],
                        dtype=int)

    @cached_property
    def discount(self) -> np.ndarray:
        """d(m) for every month of the cost schedule (index 0 = month 1)."""
        return discount_factors(self.discount_rate, self.schedule.months)

    def total_demand(self) -> float:
        """Reference-GPU-hours demanded over the horizon (with grouped profiles, the blocks' means: the
        profiles' own total, so a cloud-share cap on it holds for the exact hours the plan serves)."""
        periods, demand = (self.periods, self.demand) if self.demand_low is None else (self.periods_low, self.demand_low)
        hours = (periods["slot_hours"] * periods["n_months"]).to_numpy()
        return float((demand * hours[:, None]).sum())

    def keep(self, mask: np.ndarray, reduction: str | None = None, **changes: Any) -> Inputs:
        """These inputs with only the units in `mask` (and their work rows and schedule rows)."""
        pruned = dict(self.pruned)
        removed = int((~mask).sum())
        assert mask[self.col("kind") == "card"].all(), "card units are never dropped (their vintages point at them)"
        if reduction and removed:
            pruned[reduction] = pruned.get(reduction, 0) + removed
        kept = np.flatnonzero(mask)   # DataFrame.take: a boolean mask costs more
        return replace(self, units=take_rows(self.units, kept), work=self.work[mask],
                       schedule=self.schedule.take(mask), pruned=pruned, **changes)


# ---------------------------------------------------------------------------------------------------
# Units


def _card_units(scenario) -> tuple[pd.DataFrame, list[str], frozenset]:
    """The scenario's cards as units (facts and prices; the schedule prices them), the warnings of
    `_unpriced_cards` and the ids of the cards it found unpriced. Built from the site cards' rows: one DataFrame,
    not a card table and then a units table."""
    rows = site_card_rows(scenario)
    unpriced = frozenset(card["card_id"] for card in rows if math.isnan(card["capex"]))
    cards, warnings = _unpriced_cards(rows, scenario.name)
    gpus = catalog.gpu_table()   # with the scenario's custom GPUs, which site_card_rows registers
    memory_gb = dict(zip(gpus.index.tolist(), gpus["memory_gb"].tolist()))
    rows = [{
        "unit_id": f"onprem:onprem:{card['card_id']}:purchase", "kind": "card", "provider": "onprem",
        "region": "onprem", "sku": card["card_id"], "purchase_option": "purchase", "gpu": card["gpu"],
        "gpu_known": True, "accelerator_name": card["gpu"], "gpu_count": 1.0,
        "gpu_memory_gb": float(memory_gb[card["gpu"]]), "cards_per_server": card["cards_per_server"],
        "hourly": 0.0, "upfront": 0.0, "list_hourly": np.nan, "term_months": 0, "capex": card["capex"],
        "life_years": card["life_years"],
        "maintenance_rate_per_year": card["maintenance_rate_per_year"], "busy_watts": card["busy_watts"],
        "idle_watts": card["idle_watts"], "existing": card["existing"], "age_months": card["age_months"],
        "min_units": card["min_units"], "max_units": card["max_units"],
        "buyable": card["buyable"], "as_of": card["as_of"], "source": card["source"],
    } for card in cards]
    return pd.DataFrame(rows, columns=UNIT_COLUMNS), warnings, unpriced


def _unpriced_cards(cards: list[dict], scenario_name: str) -> tuple[list[dict], list[str]]:
    """Cards whose price has no source in the catalog (and no override) cannot be bought; owned ones
    still work, with no maintenance, and are not sold: their resale value is unknown, not 0 (Inputs.resale_unknown).
    One warning per card; requiring units of such a card (min_units) is an error, since nothing says what they
    cost. `cards`: rows of catalog.site_cards (`site_card_rows`); returned with capex 0 and buyable False where the
    price is missing."""
    unpriced = [card for card in cards if math.isnan(card["capex"])]
    if not unpriced:
        return cards, []
    required, warnings = unpriced_card_findings(unpriced)   # in validate's words too (catalog.unpriced_card_rows)
    if required:
        raise ScenarioError(required, scenario_name)
    priced = [card if not math.isnan(card["capex"]) else {**card, "capex": 0.0, "buyable": False} for card in cards]
    return priced, warnings


def _cloud_units(scenario, prices: pd.DataFrame, source: str | None) -> pd.DataFrame:
    """The scenario's allowed cloud offers as units (money in the scenario currency), read straight from the
    columns of `prices` it needs at `catalog.cloud_rows` (a copy of the whole offers table costs more).
    `source`: what its messages call the prices (their provenance's source)."""
    offers, rate = cloud_rows(scenario, prices, source)
    option = prices["purchase_option"].to_numpy(dtype=object)[offers]
    mine = np.array([o in KIND_OF_OPTION for o in option.tolist()], dtype=bool)
    rows, rate, option = offers[mine], rate[mine], option[mine].tolist()

    def column(name: str, dtype=object) -> np.ndarray:   # the offers' column as an array, rows selected
        return prices[name].to_numpy(dtype=dtype)[rows]

    kind = np.array([KIND_OF_OPTION[o] for o in option], dtype=object)
    reserved = kind == "reserved"
    default_term = np.where(np.array([o.endswith("1y") for o in option], dtype=bool), 12, 36)
    given = column("term_months", None)
    term = np.where(reserved, np.where(given > 0, given, default_term), 0).astype(int)
    n = len(rows)
    return pd.DataFrame({
        "unit_id": column("offer_id"), "kind": kind,
        **{c: column(c) for c in ("provider", "region", "sku", "purchase_option", "gpu")},
        "gpu_known": column("gpu_known", bool), "accelerator_name": column("accelerator_name"),
        "gpu_count": column("gpu_count", float), "gpu_memory_gb": column("gpu_memory_gb", float),
        "cards_per_server": np.nan, "hourly": column("hourly_price", None) * rate,
        "upfront": column("upfront_price", None) * rate, "list_hourly": _on_demand_hourly(scenario, prices, rows),
        "term_months": term, "capex": np.zeros(n), "life_years": np.nan, "maintenance_rate_per_year": 0.0,
        "busy_watts": np.zeros(n), "idle_watts": np.zeros(n), "existing": 0, "age_months": 0, "min_units": 0, "max_units": np.nan,
        "buyable": False, "as_of": column("as_of"), "source": column("source"),
    })   # in UNIT_COLUMNS order (no `columns=`: with it, pandas types the NaN scalar columns object)


def _on_demand_hourly(scenario, prices: pd.DataFrame, rows: np.ndarray) -> np.ndarray:
    """[rows] the on-demand hourly price of the same provider, region and instance type (scenario currency),
    from the whole price table — on_demand need not be an allowed option; NaN where there is none or fx
    has no rate for it. FOCUS's ListCost shows it for spot and committed hours, so their saving shows."""
    keys = list(zip(*(prices[c].to_numpy(dtype=object).tolist() for c in ("provider", "region", "sku"))))
    hourly = prices["hourly_price"].to_numpy(dtype=float).tolist()
    currency = prices["currency"].to_numpy(dtype=object).tolist()
    rates = {cur: scenario.fx_rate(cur) for cur in set(currency)}
    price: dict = {}
    for i in np.flatnonzero(prices["purchase_option"].to_numpy(dtype=object) == "on_demand").tolist():
        if rates[currency[i]] is not None:
            price.setdefault(keys[i], hourly[i] * rates[currency[i]])   # the first row of a type, as listed
    return np.array([price.get(keys[i], np.nan) for i in rows.tolist()], dtype=float)


_CLOUD_CACHE: dict = {}
_CARD_CACHE: dict = {}
_CACHE_SIZE = 16   # entries per cache
_CACHE_LOCK = threading.Lock()   # threads resolve inputs side by side (engine.decisions' flip points)


def _remember(cache: dict, key, value) -> None:
    """Store `value` under `key`, dropping the oldest entry when the cache is full (under a lock: two
    threads must not both drop the same oldest entry)."""
    with _CACHE_LOCK:
        if key not in cache and len(cache) >= _CACHE_SIZE:
            del cache[next(iter(cache))]
        cache[key] = value


def _capability(scenario) -> tuple[str, ...]:
    """The workloads' fields that decide what a unit can serve and the work it delivers (`work_matrix`):
    all but their demand, growth, profile, serving, placement and serving group."""
    return tuple(w.model_dump_json(exclude={"gpu_hours_per_month", "requests_per_second", "reference_gpus",
                                            "growth_per_month", "profile", "serving", "placement",
                                            "serving_group"})
                 for w in scenario.workloads)


def _card_part(scenario) -> tuple[pd.DataFrame, tuple[str, ...], np.ndarray, pd.DataFrame, frozenset]:
    """(card units, the warnings of the unpriced ones, their work matrix, exclusions, the unpriced cards' ids).

    Cached like `_cloud_part`, on everything it depends on — the scenario's cards, custom cards, owned
    cards, card overrides, unit limits, currency and fx, and the workloads' capability fields — so a
    sweep over demand or site costs reuses it. (A custom card's GPU, registered when its row is first
    made, stays registered for the process, as this cache does.)
    """
    o, c = scenario.onprem, scenario.constraints
    # warnings=False: an owned count set by model_copy is a bare int, which pydantic would warn about
    key = (o.model_dump_json(include={"cards", "custom_cards", "existing", "card_overrides"}, warnings=False),
           c.model_dump_json(include={"min_units", "max_units"}, warnings=False), scenario.currency,
           tuple(sorted(scenario.fx.items())), _capability(scenario))
    hit = _CARD_CACHE.get(key)
    if hit is not None:
        return hit
    cards, warnings, unpriced = _card_units(scenario)
    work, exclusions = work_matrix(scenario, cards)
    value = (cards, tuple(warnings), work, exclusions, unpriced)
    _remember(_CARD_CACHE, key, value)
    return value


def _cloud_part(scenario, prices: pd.DataFrame, source: str | None) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame, int]:
    """(cloud units that serve some workload, their work matrix, exclusions, offers dropped).

    Cached on everything it depends on — the price table, allowed offers, currency and the workloads'
    capability fields — so a sweep over demand or site costs reuses it. (`source` only names the prices in
    the errors it raises, which are not cached.)
    """
    key = (id(prices), scenario.prices.model_dump_json(), scenario.currency, tuple(sorted(scenario.fx.items())),
           _capability(scenario))
    hit = _CLOUD_CACHE.get(key)
    if hit is not None and hit[0] is prices:  # the table object itself: its id cannot have been reused
        return hit[1]
    units = _cloud_units(scenario, prices, source)
    work, exclusions = work_matrix(scenario, units)
    useful = (work > 0).any(axis=1)
    value = (take_rows(units, np.flatnonzero(useful)), work[useful], exclusions, int((~useful).sum()))
    _remember(_CLOUD_CACHE, key, (prices, value))
    return value


def _workload_table(scenario) -> pd.DataFrame:
    """name, needs (for explanations), serving, single_type (placement), demand_unit (requests_per_second or
    reference_gpus: the unit the serving table reports demand in), per_reference (that unit per
    reference GPU), gpus_per_job, serving_group (a serving workload's group as shown: its serving_group, else its
    name; None for batch work) and own_group (True where it has no serving_group: a group of its own)."""
    custom_gpus = catalog.custom_gpu_ids(scenario.onprem.custom_cards)
    scales = [demand_scale(w, custom_gpus) for w in scenario.workloads]
    return pd.DataFrame({"name": [w.name for w in scenario.workloads],
                         "needs": [workload_needs(w) for w in scenario.workloads],
                         "serving": np.array([w.serving for w in scenario.workloads], dtype=bool),
                         "single_type": np.array([w.placement == "single_type" for w in scenario.workloads], dtype=bool),
                         "demand_unit": [unit for unit, _ in scales],
                         "per_reference": np.array([per for _, per in scales], dtype=float),
                         "gpus_per_job": np.array([w.gpus_per_job for w in scenario.workloads], dtype=int),
                         "serving_group": [(w.serving_group or w.name) if w.serving else None for w in scenario.workloads],
                         "own_group": np.array([w.serving_group is None for w in scenario.workloads], dtype=bool)})


def serving_instances(kind: np.ndarray, work: np.ndarray, serving: np.ndarray) -> np.ndarray:
    """Mask of the units that are on-demand or spot offers serving a serving workload (`serving`: a mask
    over workloads) — each its own whole-instance count per period (engine.model)."""
    return np.isin(kind, ("on_demand", "spot")) & (work[:, serving] > 0).any(axis=1)


# the words of the warning of a model planned hour by hour (_instances_tie_hours): a solve that stops without a fleet
# names it as the likely cause (engine.baselines.solve_inputs)
HOURS_ONE_BY_ONE = "every weekly hour of every month is planned on its own"


def _instances_tie_hours(scenario, units: pd.DataFrame, work: np.ndarray, site: SiteCosts) -> str | None:
    """Why weekly hours and months of equal demand must be planned one by one (a warning), or None when
    merging them is exact. Identical hours have one best dispatch each unless something ties them: the
    cloud-share cap does (a share of the whole horizon's work), and with a serving workload's whole
    instances the hours' best plans can differ — some hours one instance more, doing work a card would
    otherwise do. That pays only where an instance-hour costs less than the card's busy energy for the
    same work (at 10 USD/kWh, an A100 card's 5.95 USD against a 3.67 USD instance: 416 USD a month, 2 %,
    found by a review's per-hour oracle); otherwise, with one instance offer, the fewest instances are best in
    every hour and one shared count is exact. With two or more offers (two instance types, or one offered on
    demand and as spot) the best mix can still differ between identical hours: engine.merged_hours checks
    such plans after the solve and warns where the cap binds."""
    serving = np.array([w.serving for w in scenario.workloads], dtype=bool)
    if scenario.constraints.max_cloud_share is None or not serving.any():
        return None
    kind = units["kind"].to_numpy()
    instances = np.flatnonzero(serving_instances(kind, work, serving))
    cards = np.flatnonzero(kind == "card")
    energy = card_rates(units["capex"].to_numpy()[cards], 0.0, units["idle_watts"].to_numpy()[cards],
                        units["busy_watts"].to_numpy()[cards], site)["busy_energy_per_hour"]
    hourly, sku = units["hourly"].to_numpy(), units["sku"].to_numpy()
    for i in instances:
        for c, busy_cost in zip(cards, energy):
            both = (work[i] > 0) & (work[c] > 0)
            # an instance-hour's price against the busy energy of the card-hours its work replaces
            if both.any() and (hourly[i] < busy_cost * work[i, both] / work[c, both]).any():
                return (f"max_cloud_share with a serving workload: an hour of {sku[i]} costs less than the busy energy "
                        f"of {sku[c]} for the same work ({hourly[i]:.4g} against {busy_cost:.4g} {scenario.currency} per "
                        f"card-hour), so identical hours may each need their own instance count: {HOURS_ONE_BY_ONE}, "
                        "which takes longer")
    return None


def hours_one_by_one_warning(scenario, tied: str, periods: int, merged: int) -> str:
    """The warning of a model planned hour by hour (`_instances_tie_hours`' `tied`, which ends HOURS_ONE_BY_ONE):
    how many periods it has against the `merged` of the model with identical hours merged, and what the scenario can
    change to have that model (the `fleetplan plan` command says it before its solve: it can take minutes)."""
    serving = [w.name for w in scenario.workloads if w.serving]
    named = f"workloads {', '.join(serving)}" if len(serving) > 1 else f"workload {serving[0]}"
    larger = f", {periods / merged:,.0f} times as many" if merged and periods >= 2 * merged else ""
    return (f"{tied}: {periods:,} periods against {merged:,} with identical hours merged{larger}; to plan merged hours, "
            f"drop constraints.max_cloud_share, set serving: false on {named}, or check onprem.electricity_per_kwh "
            "and pue (a price typed in cents makes a card's busy energy dearer than an instance-hour); `fleetplan "
            "plan --time-limit SECONDS` bounds the wait")


def _input_sha256(profile_sha256: dict, provenance: dict | None) -> dict:
    """Inputs.input_sha256 of the profile CSVs read (periods.WeekBlocks.profile_sha256) and the offers CSV the prices
    came from (its provenance's sha256, catalog.price_table)."""
    read = {f"workloads.{name}.profile": sha for name, sha in profile_sha256.items()}
    if (provenance or {}).get("sha256"):
        read["prices.source"] = provenance["sha256"]
    return read


def resolve_inputs(scenario, prices: pd.DataFrame, provenance: dict | None = None,
                   merge_periods: bool = True) -> Inputs:
    """The inputs of `scenario` priced from the offers table `prices`, before any offer is pruned.

    With `merge_periods`, weekly hours and months of equal demand are merged (the exact load-duration
    view), and weekly hours of more distinct weights than `profile_slots` (default DEFAULT_PROFILE_SLOTS)
    are grouped into that many load-duration blocks (engine.periods); without, every month × weekly
    hour is its own period (the unreduced model, for checks)."""
    check_reference_metrics(scenario)
    # The cached parts are shared between calls: only read here (concat and vstack copy them).
    cards, card_warnings, card_work, card_exclusions, unpriced = _card_part(scenario)
    warnings = list(card_warnings)
    # Cloud units that serve no workload add nothing to any model: the cached part has dropped them.
    # the prices named as read: the packaged snapshot's where `prices.source: store` found no store
    cloud, cloud_work, cloud_exclusions, dropped = _cloud_part(scenario, prices, (provenance or {}).get("source"))
    units = pd.concat([cards, cloud], ignore_index=True) if len(cards) else cloud
    work = np.vstack([card_work, cloud_work])
    exclusions = pd.concat([card_exclusions, cloud_exclusions], ignore_index=True)
    o = scenario.onprem
    check_owned_ages(cards, scenario.name, frozenset(scenario.onprem.custom_cards))
    vintages = build_vintages(units, scenario.horizon_months, o.purchase_every_months)
    epochs = epoch_of_month(vintages, scenario.horizon_months)
    serving = any(w.serving for w in scenario.workloads)
    # serving: whole instances per slot class, so every distinct weekly weight is kept (engine.periods)
    slots = None if serving else scenario.profile_slots or DEFAULT_PROFILE_SLOTS
    # merged hours and months are exact unless whole instances, mixed over identical hours, can pay
    site = SiteCosts(o.electricity_per_kwh, o.pue, o.colocation_per_kw_month, o.fixed_onprem_per_month)
    tied = _instances_tie_hours(scenario, units, work, site) if merge_periods else None
    merge = merge_periods and tied is None
    week = week_blocks(scenario, slots, merge=merge)
    if serving and merge and scenario.profile_slots is not None and week.classes > scenario.profile_slots:
        warnings.append(f"profile_slots {scenario.profile_slots} is not applied: a serving workload keeps all "
                        f"{week.classes} distinct weekly weights (whole instances are sized per slot class)")
    periods, demand = demand_periods(scenario, epochs, merge, week.plan)
    if tied is not None:
        merged = len(demand_periods(scenario, epochs, True, week_blocks(scenario, slots, merge=True).plan)[0])
        warnings.append(hours_one_by_one_warning(scenario, tied, len(periods), merged))
    periods_low, demand_low = demand_periods(scenario, epochs, merge, week.means) if week.means else (None, None)
    schedule = build_schedule(units, vintages, scenario.horizon_months, site,
                              ResaleTerms(o.resale.method, o.resale.share_of_book, o.maintenance_when_off))
    owned_choices = tuple(c for c, on in (("sell", o.sell_owned), ("off", o.switch_off_owned)) if on)
    workloads = _workload_table(scenario)
    return Inputs(name=scenario.name, currency=scenario.currency, horizon_months=scenario.horizon_months,
                  discount_rate=scenario.discount_rate, availability=o.availability, units=units,
                  vintages=vintages, epoch_of_month=epochs, owned_choices=owned_choices, work=work,
                  periods=periods, demand=demand, workloads=workloads, exclusions=exclusions,
                  caps=read_caps(scenario), schedule=schedule, reduced=merge_periods, hours_merged=merge,
                  pruned={"cloud offers that serve no workload": dropped} if dropped else {},
                  # a store's snapshots narrowed to those the scenario's providers and regions use
                  prices={**scenario_provenance(provenance or {}, scenario.prices.providers, scenario.prices.regions),
                          "requested_source": scenario.prices.source},
                  input_sha256=_input_sha256(week.profile_sha256, provenance),
                  warnings=tuple(warnings),
                  grouping={"slots": slots, "weight_classes": week.classes} if week.means else None,
                  periods_low=periods_low, demand_low=demand_low, price_table=prices, resale_unknown=unpriced,
                  board_gpus=whole_boards(scenario))


def whole_boards(scenario) -> dict[str, int]:
    """Card id → GPUs a board, for the scenario's cards sold only as whole boards (catalog.offers.card_costs); a
    ScenarioError where a card's min_units and max_units hold no whole board (no plan meets them)."""
    gaps = whole_board_gaps(scenario)
    if gaps:
        raise ScenarioError([text for _, text in gaps], scenario.name)
    return {card: cost["sold_in_units_of"] for card, cost in card_costs(scenario).items() if cost["sold_in_units_of"] > 1}
