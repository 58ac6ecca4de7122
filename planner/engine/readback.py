"""Reading a solved model back into a Plan. Every money figure is a group-by of the cash flows — the
cost schedule times the solved decisions (`schedule.cash_flows`) — so each is the objective's own
arithmetic: costs by category, the monthly table, per-unit fleet costs, energy and break-even.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from planner import catalog
from planner.catalog.gpus import QUOTED_SOURCES
from planner.catalog.prices import undated_and_stale, utc_today
from planner.engine.columns import column_rows
from planner.engine.dispatch import settle_dispatch
from planner.engine.inputs import Inputs
from planner.engine.model import Model
from planner.engine.reductions import cost_per_work
from planner.engine.result import Plan, _fresh_plan, copied
from planner.engine.schedule import COST_CATEGORIES, cash_flows, flows_table, period_months
from planner.engine.solve import Solution
from planner.engine.vintages import in_service
from planner.engine.week_hours import period_hours, week_hours_text
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK
from planner.text import counted

FLEET_COLUMNS = ["provider", "region", "sku", "gpu", "purchase_option", "kind", "units", "existing_units",
                 "new_units", "sold_units", "switched_off_units", "instance_hours", "cost", "unit_id"]
OFFER_COLUMNS = ["unit_id", "kind", "provider", "region", "sku", "gpu", "purchase_option", "hourly_price",
                 "upfront_price", "term_months", "capex_per_unit", "busy_watts", "idle_watts", "life_years",
                 "maintenance_rate_per_year", "currency", "as_of", "source"]
SCHEDULE_COLUMNS = ["month", "card", "gpu", "action", "units", "amount", "note"]
# Plan.serving; demand, capacity and served in demand_unit (requests_per_second or reference_gpus); hours_of_week the
# slot's weekly hours in words (engine.week_hours), appended last so every earlier column keeps its name and place
SERVING_COLUMNS = ["workload", "slot", "months", "hours_per_week", "demand_unit", "demand", "unit_id", "kind", "sku",
                   "gpu", "instances", "capacity", "busy_units", "served", "hours_of_week"]
DATED_COLUMNS = ("provider", "region", "sku", "purchase_option", "as_of", "source")   # what catalog.date_report reads
# owned: fixed_costs_avoided and end_value are present values, as the owned table's money_basis says
OWNED_COLUMNS = ["card", "gpu", "age_months", "owned_units", "kept", "switched_off", "sold", "fixed_costs_avoided",
                 "end_value", "note"]
UTILISATION_COLUMNS = ["card", "gpu", "units", "busy_hours", "owned_hours", "utilisation", "energy_kwh"]
# The number columns of each table and their dtype, the same in every plan, with rows or without: a count is int64
# (mid-research's fleet had float sold_units where entry's were int); a count left blank where it does not apply
# (fleet units and new_units of an offer rented by the hour: NaN) is float64.
FLEET_DTYPES = {"units": "float64", "existing_units": "int64", "new_units": "float64", "sold_units": "int64",
                "switched_off_units": "int64", "instance_hours": "float64", "cost": "float64"}
SCHEDULE_DTYPES = {"month": "int64", "units": "int64", "amount": "float64"}
OWNED_DTYPES = {"age_months": "int64", "owned_units": "int64", "kept": "int64", "switched_off": "int64", "sold": "int64",
                "fixed_costs_avoided": "float64", "end_value": "float64"}
UTILISATION_DTYPES = {"units": "int64", "busy_hours": "float64", "owned_hours": "float64", "utilisation": "float64",
                      "energy_kwh": "float64"}
# Plan.offers: the offers contract's whole number of months (pricing_adapters.schema.OFFER_COLUMNS: int64), nullable
# as cards have no term (blank as their hourly and upfront prices); float64, 12.0, was read as a price, not a count
OFFER_DTYPES = {"term_months": "Int64"}
SERVING_DTYPES = {"slot": "int64", "hours_per_week": "float64", "demand": "float64", "instances": "int64",
                  "capacity": "float64", "busy_units": "float64", "served": "float64"}


def _table(rows: list[tuple], columns: list[str], dtypes: dict[str, str]) -> pd.DataFrame:
    """A table of `rows` whose number columns have `dtypes` (also without rows, where pandas would make them
    object). The counts are whole already (solved integers are rounded, `_integers`): the cast changes no value."""
    return pd.DataFrame(rows, columns=columns).astype(dtypes)


def _values(variables) -> np.ndarray:
    """Solved values of pulp variables, in one array (None, unsolved, as 0)."""
    return np.fromiter((v.varValue or 0.0 for v in variables), dtype=float, count=len(variables))


def _integers(decisions: dict, n: int) -> np.ndarray:
    """[n] the rounded solved values of integer decisions keyed by index (0 where there is none)."""
    out = np.zeros(n)
    if decisions:
        out[np.fromiter(decisions, dtype=np.int64, count=len(decisions))] = np.round(_values(list(decisions.values())))
    return out


def solved_decisions(inp: Inputs, m: Model) -> dict[str, np.ndarray]:
    """The solved decisions by cost-schedule driver: held [units] (reserved instances), buy, keep, off,
    sell [vintages], busy [units × months] (hours worked), site [site epochs] (0/1). Integers rounded, dispatch
    clipped at zero, and a unit's hours dropped where they total no more than BUSY_HOURS_NOISE."""
    U, V = len(inp.units), len(inp.vintages)
    held = _integers(m.r, U)
    buy, keep, off = (_integers(decisions, V) for decisions in (m.buy, m.keep, m.off))
    owned = inp.vintages["owned"].to_numpy()
    sell = np.where(owned, inp.vintages["count"].to_numpy() - keep - off, 0.0)
    per_period = np.zeros((U, len(inp.periods)))
    if m.y:
        unit_workload_period, rate = _dispatch(m)
        np.add.at(per_period, (unit_workload_period[:, 0], unit_workload_period[:, 2]), rate)
    # units with whole serving instances are paid on them and the extra instances rented for batch work
    for (i, p), q in m.instances.items():
        extra = m.extra.get((i, p))
        per_period[i, p] = round(q.varValue or 0.0) + (max(0.0, extra.varValue or 0.0) if extra is not None else 0.0)
    slot_hours = inp.periods["slot_hours"].to_numpy()
    busy = (per_period * slot_hours) @ period_months(inp.periods, inp.schedule.months).T
    # a unit's hours over the whole horizon at or below BUSY_HOURS_NOISE are the solver's round-off (2.6e-8 USD of
    # on-demand hours next to reservations that do all the work), no work: dropped here, before any money is read, so
    # the fleet (which holds no such unit), the costs, the monthly table and the flows all leave them out alike
    busy[busy.sum(axis=1) <= BUSY_HOURS_NOISE] = 0.0
    site = _integers(m.site, inp.schedule.n_site_epochs)
    return {"held": held, "buy": buy, "keep": keep, "off": off, "sell": sell, "busy": busy, "site": site,
            "peak_instances": _peak_instances(m, U)}


def _dispatch(m: Model) -> tuple[np.ndarray, np.ndarray]:
    """The solved dispatch: (unit, workload, period) of each variable of `m.y` [variables × 3], and its
    units busy per hour, clipped at zero [variables]."""
    # from one flat iterator (an array of tuples is much slower to build)
    keys = np.fromiter(itertools.chain.from_iterable(m.y), dtype=np.int64, count=3 * len(m.y)).reshape(-1, 3)
    return keys, np.maximum(0.0, _values(list(m.y.values())))


def _peak_instances(m: Model, n: int) -> np.ndarray:
    """[n] the most whole serving instances of each unit in any period (0 where it has none)."""
    out = np.zeros(n)
    for (i, _p), q in m.instances.items():
        out[i] = max(out[i], round(q.varValue or 0.0))
    return out


def installed_units(inp: Inputs, decisions: dict) -> np.ndarray:
    """[units × H] cards in service per card unit and month (0 for cloud units)."""
    serving = in_service(inp.vintages, inp.horizon_months)                      # [V × H]
    working = decisions["buy"] + decisions["keep"]
    out = np.zeros((len(inp.units), inp.horizon_months))
    np.add.at(out, inp.vintages["unit"].to_numpy(), serving * working[:, None])
    return out


# Plan.monthly's columns that are not money, after total_discounted: the on-prem cards in service each month (bought
# and owned kept, not switched off: Plan.installed summed) and their busy watts in kW, the sum onprem.power_cap_kw
# bounds in every month (engine.constraints.installed_kw: no PUE, no idle watts). Row H+1 holds none (0). A procurement
# audit (2026-12-07) could not check the power cap month by month from monthly.csv. Never summed into a total.
FLEET_MONTHLY_COLUMNS = ("cards_in_service", "power_kw")


def fleet_by_month(inp: Inputs, installed: np.ndarray) -> dict[str, np.ndarray]:
    """{cards_in_service [H+1] int64, power_kw [H+1]} of `installed` [units × H] (`installed_units`), row H+1 0."""
    cards = inp.col("kind") == "card"   # what the power cap sums: cards only
    watts = inp.col("busy_watts")[cards].astype(float)
    count, kw = np.zeros(inp.horizon_months + 1, dtype=np.int64), np.zeros(inp.horizon_months + 1)
    count[:-1] = np.round(installed[cards].sum(axis=0)).astype(np.int64)
    kw[:-1] = watts @ installed[cards] / 1000.0
    return {"cards_in_service": count, "power_kw": kw}


def monthly_table(flows: pd.DataFrame, horizon: int, discount: np.ndarray,
                  fleet: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """Nominal money by month 1..H+1 and category, its total, the discount factor and the present value
    (row H+1: the residual credit and every payment after the horizon — the flows' rows of months H+1, H+2 … —
    their nominal amounts and their present values summed), then `fleet` (`fleet_by_month`: FLEET_MONTHLY_COLUMNS)
    when given."""
    months = np.minimum(flows["month"].to_numpy(), horizon + 1) - 1
    category = pd.Index(COST_CATEGORIES).get_indexer(flows["category"].to_numpy())   # as Categorical codes
    nominal = np.zeros((horizon + 1, len(COST_CATEGORIES)))
    np.add.at(nominal, (months, category), flows["cost"].to_numpy())
    pv = np.zeros(horizon + 1)
    np.add.at(pv, months, flows["present_value"].to_numpy())
    return pd.DataFrame({"month": np.arange(1, horizon + 2), **dict(zip(COST_CATEGORIES, nominal.T)),
                         "total": nominal.sum(axis=1), "discount_factor": discount[:horizon + 1],
                         "total_discounted": pv, **(fleet or {})})


@dataclass(frozen=True)
class _Read:
    """What every reading of a solved model starts from: the decisions, cash flows, costs by category,
    cards in service [units × months], hours worked per unit, and the fleet."""
    decisions: dict
    flows: pd.DataFrame
    costs: pd.DataFrame
    installed: np.ndarray
    hours: np.ndarray
    fleet: pd.DataFrame

    @property
    def total(self) -> float:
        return float(self.costs["cost"].sum())


def _read_fleet(inp: Inputs, m: Model) -> _Read:
    settle_dispatch(m)   # which held units work, where the optimum leaves it open (engine.dispatch)
    decisions = solved_decisions(inp, m)
    money, quantity = cash_flows(inp.schedule, decisions)
    flows = flows_table(inp.schedule, inp.units, money, quantity, inp.discount)
    pv = _sum_by(flows, "present_value", "category")
    costs = pd.DataFrame({"category": list(COST_CATEGORIES),
                          "cost": [float(pv.get(c, 0.0)) for c in COST_CATEGORIES]})
    installed = installed_units(inp, decisions)
    hours = decisions["busy"].sum(axis=1)
    return _Read(decisions, flows, costs, installed, hours, _fleet(inp, decisions, installed, hours, flows))


def read_fleet(inp: Inputs, m: Model) -> tuple[float, pd.DataFrame]:
    """(total, fleet) of a solved model, as `read_plan` gives them, without the rest of the Plan: what a
    sweep keeps of each point (its other tables would cost more than a third of the point's time)."""
    read = _read_fleet(inp, m)
    return read.total, read.fleet


def read_plan(inp: Inputs, m: Model, sol: Solution, scenario=None) -> Plan:
    """The Plan of a solved model (status optimal or feasible); `scenario` is carried along as given."""
    H = inp.horizon_months
    read = _read_fleet(inp, m)
    decisions, flows, installed, hours, fleet = read.decisions, read.flows, read.installed, read.hours, read.fleet
    # each table and dict made here for the plan alone: kept, not copied (result._fresh_plan); but the prices, which
    # carry the Inputs' own snapshots and packaged_data
    return _fresh_plan(
        scenario_name=inp.name, currency=inp.currency, horizon_months=H, status=sol.status,
        total=read.total, costs=read.costs, fleet=fleet,
        monthly=monthly_table(flows, H, inp.discount, fleet_by_month(inp, installed)),
        utilisation=_utilisation(inp, installed, hours, flows), break_even=break_even(inp),
        exclusions=exclusion_summary(inp),
        solver={"name": sol.solver, "status": sol.status, "seconds": round(sol.seconds, 4), "gap": sol.gap,
                **m.size(), "build_seconds": round(m.build_seconds, 4), "reduced": inp.reduced,
                "periods": len(inp.periods), "units": len(inp.units), "pruned": dict(inp.pruned)},
        prices=copied(prices_used(inp, fleet["unit_id"], fleet["cost"], read.total)), flows=flows.drop(columns=["unit"]),
        offers=_offers(inp, unit_rows(inp, fleet["unit_id"])),
        schedule=purchase_schedule(inp, decisions), installed=_installed_table(inp, installed),
        owned=owned_decisions(inp, decisions), scenario=scenario, serving=serving_table(inp, m, decisions, installed, scenario),
        busy_by_workload=busy_by_workload(inp, m), input_sha256=dict(inp.input_sha256),
    )


BUSY_HOURS_NOISE = 1e-6   # hours over the horizon at or below which a unit's work (a card's for a workload) is round-off
SHARE_NOISE = 1e-6   # a serving group's shares busy beyond a whole number by at most this are round-off (serving_table)


def busy_by_workload(inp: Inputs, m: Model) -> pd.DataFrame:
    """Hours each card works for each workload over the horizon, in the solved dispatch: card, workload,
    busy_hours (rows with hours only). What a card mainly serves (engine.decisions' flip points) is read here,
    from the plan itself, rather than from the plan solved again."""
    cards = np.flatnonzero(inp.col("kind") == "card")
    hours = np.zeros((len(inp.units), len(inp.workload_names)))
    if m.y and len(cards):
        key, rate = _dispatch(m)
        per_period = (inp.periods["slot_hours"] * inp.periods["n_months"]).to_numpy()
        np.add.at(hours, (key[:, 0], key[:, 1]), rate * per_period[key[:, 2]])
    # a solver's round-off (5.9e-12 hours of a card it never bought) is no work
    unit, workload = np.nonzero(hours[cards] > BUSY_HOURS_NOISE)
    names = np.asarray(inp.workload_names, dtype=object)
    return pd.DataFrame({"card": inp.col("sku")[cards][unit], "workload": names[workload],
                         "busy_hours": hours[cards][unit, workload]}, columns=["card", "workload", "busy_hours"])


def _sum_by(flows: pd.DataFrame, column: str, key: str, rows: np.ndarray | None = None) -> pd.Series:
    """`flows[column]` summed by `flows[key]`, over the `rows` (a mask) only when given: the sums of
    `flows[rows].groupby(key)[column].sum()` to the last bit (pandas adds groups whose rows come sorted
    plainly and others compensated, so the rows grouped must stay the same), without copying the table."""
    values, keys = flows[column], flows[key].to_numpy()
    if rows is not None:
        values, keys = values[rows], keys[rows]
    return values.groupby(keys).sum()


def _fleet(inp: Inputs, decisions: dict, installed: np.ndarray, hours: np.ndarray, flows: pd.DataFrame) -> pd.DataFrame:
    """One row per unit the fleet holds (`_held`): card owned or bought, reservation held, or offer rented.
    For cards, `units` is the most in service in any month and `new_units` all bought over the plan."""
    kind, existing = inp.col("kind"), inp.col("existing")
    cost = _sum_by(flows, "present_value", "unit", flows["unit"].to_numpy() >= 0)
    held, per_unit, most_installed = _held(inp, decisions, installed, hours)
    provider, region, sku, gpu, option, unit_id = (inp.col(name) for name in ("provider", "region", "sku", "gpu",
                                                                               "purchase_option", "unit_id"))
    rows = []
    for i in np.flatnonzero(held).tolist():
        owned = sold = off = 0
        if kind[i] == "card":
            owned, new = int(existing[i]), per_unit["buy"][i]
            sold, off = per_unit["sell"][i], per_unit["off"][i]
            units = most_installed[i]
        elif kind[i] == "reserved":
            units, new = decisions["held"][i], decisions["held"][i]
        elif decisions["peak_instances"][i] > 0:   # whole serving instances: the most in any slot
            units, new = decisions["peak_instances"][i], math.nan
        else:
            units, new = math.nan, math.nan
        rows.append((provider[i], region[i], sku[i], gpu[i], option[i], kind[i], units, owned, new, sold, off,
                     hours[i], float(cost.get(i, 0.0)), unit_id[i]))
    return _table(rows, FLEET_COLUMNS, FLEET_DTYPES)


def _held(inp: Inputs, decisions: dict, installed: np.ndarray, hours: np.ndarray) -> tuple[np.ndarray, dict, np.ndarray]:
    """(which units the fleet holds [units], cards bought / sold / switched off per unit, most cards of each unit
    in service in any month): a card owned, bought or in service, a reservation held, an on-demand or spot offer
    with whole serving instances or hours worked. The one rule of what a fleet holds (`_fleet`, `fleet_unit_ids`)."""
    kind = inp.col("kind")
    v = inp.vintages
    per_unit = {name: np.bincount(v["unit"].to_numpy(dtype=np.int64), weights=decisions[name], minlength=len(inp.units))
                for name in ("buy", "sell", "off")}
    most_installed = installed.max(axis=1) if installed.shape[1] else np.zeros(len(inp.units))
    card = kind == "card"
    owned = np.where(card, inp.col("existing"), 0).astype(float).astype(np.int64)   # as int(existing) per card
    held = np.where(card, (most_installed > 0) | (owned > 0) | (per_unit["buy"] > 0),
                    np.where(kind == "reserved", decisions["held"] > 0,
                             (decisions["peak_instances"] > 0) | (hours > BUSY_HOURS_NOISE)))
    return held, per_unit, most_installed


def fleet_unit_ids(inp: Inputs, m: Model, values: np.ndarray | None = None) -> np.ndarray:
    """unit_id of each unit the fleet of solved model `m` holds, as `read_fleet`'s rows, without its money (the
    cash flows cost most of a read). `values`: the columns' values of another run of `m` (engine.solve's run
    without cards, `Model.no_card_values`), read in their stead; the variables keep their own."""
    if values is None:
        settle_dispatch(m)
        decisions = solved_decisions(inp, m)
        held, _, _ = _held(inp, decisions, installed_units(inp, decisions), decisions["busy"].sum(axis=1))
        return inp.col("unit_id")[held]
    columns, settled = m.columns, m.settled
    kept = [var.varValue for var in columns]
    try:
        for var, x in zip(columns, values.tolist()):
            var.varValue = x
        m.settled = None   # that run's work settled as a read of it would (engine.dispatch)
        return fleet_unit_ids(inp, m)
    finally:
        for var, x in zip(columns, kept):
            var.varValue = x
        m.settled = settled


def serving_table(inp: Inputs, m: Model, decisions: dict, installed: np.ndarray, scenario=None) -> pd.DataFrame:
    """Per serving workload, slot (period) and unit serving it: the slot's weekly hours and demand (in the
    workload's unit: requests/s, or reference GPUs), the unit's whole instances in the slot (cards: in
    service; reservations: held; on-demand and spot: q) — where two or more serving groups use the unit in the
    slot, those of the workload's group (engine.model: they share none): the fewest whole shares (GPUs, cards, job
    groups) that hold what the group serves there, at most the shares it holds, as the model leaves a group's share
    open wherever the unit's count holds more than the groups need —, the capacity those instances give the workload
    (instances × work per instance, × availability on cards), the units busy on it, the demand they
    serve, and which hours of the week the slot holds in words (`hours_of_week`, engine.week_hours: from
    `scenario`, the one `inp` was resolved from; None where not known). The rows in the order of the slots' first
    months, and within a month by unit, workload and slot."""
    serving = inp.workloads["serving"].to_numpy(dtype=bool)
    if not serving.any():
        return _table([], SERVING_COLUMNS, SERVING_DTYPES)
    kind, periods = inp.col("kind"), inp.periods
    epoch = periods["epoch"].to_numpy()
    first_month = {int(e): month for month, e in reversed(list(enumerate(inp.epoch_of_month, start=1)))}
    names, unit = inp.workload_names, inp.workloads["demand_unit"].to_numpy()
    per_reference = inp.workloads["per_reference"].to_numpy(dtype=float)
    months_text = [_months_text(months) for months in periods["months"]]
    weekly_hours = [round(float(h) * HOURS_PER_WEEK / HOURS_PER_MONTH, 9) for h in periods["slot_hours"]]
    hours_of = period_hours(scenario, inp)
    week_text = [None] * len(periods) if hours_of is None else [week_hours_text(h) for h in hours_of]
    unit_id, sku, gpu = inp.col("unit_id"), inp.col("sku"), inp.col("gpu")
    group, k_of = inp.serving_groups.tolist(), inp.workloads["gpus_per_job"].to_numpy().tolist()
    # the cards whole k-card job groups hold, per card and epoch: k-GPU serving runs on them, one-GPU serving beside them
    in_groups: dict = {}
    for (i, e, k), g in m.jobs.items():
        in_groups.setdefault((i, e), {})[k] = k * round(g.varValue or 0.0)
    # units busy per unit, serving group, period and (on cards, whose shares are per replica size) k
    group_busy: dict = {}
    for (i, j, p), var in m.y.items():
        if serving[j]:
            key = (i, group[j], p, k_of[j] if kind[i] == "card" else 0)
            group_busy[key] = group_busy.get(key, 0.0) + max(0.0, var.varValue or 0.0)

    def shown(held, i: int, j: int, p: int, per_share: float) -> int:
        """The whole shares (`per_share` units busy each) that hold what group[j] serves on unit i in slot p, at most
        those it holds (`held`)."""
        busy = group_busy[i, group[j], p, k_of[j] if kind[i] == "card" else 0]
        return min(round(held.varValue or 0.0), math.ceil(busy / per_share - SHARE_NOISE))

    rows = []
    for (i, j, p), var in m.y.items():
        busy = max(0.0, var.varValue or 0.0)
        if not serving[j] or busy <= 1e-9:
            continue
        k, grouped = k_of[j], in_groups.get((i, int(epoch[p])), {})
        # a card's shares are its one-GPU serving workloads' (k-GPU ones are served by its job groups)
        shares = m.shares if k == 1 or kind[i] != "card" else {}
        groups_own = m.group_instances.get((i, group[j], p), shares.get((i, group[j], p)))
        job_share = m.job_shares.get((i, group[j], p, k)) if kind[i] == "card" and k > 1 else None
        if groups_own is not None and m.group_gpus.get((i, p), 1) > 1:
            # the group's own GPUs of instances other groups use too (model.gpus_to_share): the instances they lie on
            per = m.group_gpus[i, p]
            gpus = shown(groups_own, i, j, p, 1 / per)
            count, share = math.ceil(gpus / per), gpus / per / max(math.ceil(gpus / per), 1)
        elif groups_own is not None:
            share = inp.availability if kind[i] == "card" else 1.0
            count = shown(groups_own, i, j, p, share)
        elif job_share is not None:   # the k-card job groups of the workload's serving group
            count, share = k * shown(job_share, i, j, p, inp.availability * k), inp.availability
        elif kind[i] == "card" and k > 1:   # whole replicas: the cards the k-card job groups hold
            count, share = grouped.get(k, 0), inp.availability
        elif kind[i] == "card":   # one-GPU serving: the cards no job group holds (model._define_serving_beside_jobs)
            count, share = installed[i, first_month[int(epoch[p])] - 1] - sum(grouped.values()), inp.availability
        elif kind[i] == "reserved":
            count, share = decisions["held"][i], 1.0
        else:
            count, share = round(m.instances[i, p].varValue or 0.0), 1.0
        scale = per_reference[j]
        rows.append((names[j], p, months_text[p], weekly_hours[p], unit[j],
                     float(inp.demand[p, j]) * scale, unit_id[i], kind[i], sku[i],
                     gpu[i], count, float(count) * share * inp.work[i, j] * scale, busy,
                     busy * inp.work[i, j] * scale, week_text[p]))
    first = [months[0] for months in periods["months"]]
    rows.sort(key=lambda row: first[row[1]])   # stable: within a month, as m.y holds them (unit, workload, slot)
    return _table(rows, SERVING_COLUMNS, SERVING_DTYPES)


def _months_text(months: tuple) -> str:
    """`1-12` for a run of months, `1, 3` otherwise."""
    if len(months) > 1 and months[-1] - months[0] == len(months) - 1:
        return f"{months[0]}-{months[-1]}"
    return ", ".join(map(str, months))


# the note of owned cards switched off, where the scenario has a fixed site cost (model.define_fixed_onprem_switch)
SWITCHED_OFF_SITE = "; held switched off (no power, no work): the site's fixed cost is owed only in months a card is in service"


def leaving_credits(inp: Inputs, decisions: dict) -> tuple[np.ndarray, np.ndarray]:
    """([vintages] the cards of each vintage that leave in its leave_month — bought, or owned and kept or switched
    off: retired at the end of their life within the horizon, or still held at the end and valued in month H+1 —,
    [vintages] their resale credit then, nominal, negative: units × −R_c(age when they leave), docs/cost-model.md
    §6). The one computation of what the cards held to the end are worth: the purchase schedule's `retire` and
    `end value` rows and the owned table's `end_value` read it."""
    v, sched = inp.vintages, inp.schedule
    owned = v["owned"].to_numpy(dtype=bool)
    leaving = np.where(owned, decisions["keep"] + decisions["off"], decisions["buy"])
    per_unit = np.where(owned, sched.totals("keep", "residual_value"), sched.totals("buy", "residual_value"))
    return leaving, per_unit * leaving


def purchase_schedule(inp: Inputs, decisions: dict) -> pd.DataFrame:
    """What is bought, sold, switched off and retired in which month, and what the cards still in service at the
    end are worth (amount, nominal: capex paid, or the resale credit received as a negative number). Every card
    bought or kept leaves in one row — sold in month 1, retired at the end of its life, or valued at the end of
    the plan in month H+1 (`end value`, the month the cost model credits it) — so the amounts add up to the
    plan's capex plus its residual value, per card and in total."""
    v, sched = inp.vintages, inp.schedule
    if not len(v):
        return _table([], SCHEDULE_COLUMNS, SCHEDULE_DTYPES)
    H = inp.horizon_months
    capex = sched.totals("buy", "capex")
    sale = sched.totals("sell", "residual_value")
    leaving, credit = leaving_credits(inp, decisions)
    sku, gpu = inp.col("sku"), inp.col("gpu")
    buy, off, sell = (decisions[name] for name in ("buy", "off", "sell"))
    site_cost = sched.n_site_epochs > 0   # onprem.fixed_onprem_per_month is set
    rows = []
    for k, (i, owned, first, last, leave, age_at_start, life) in enumerate(column_rows(
            v, "unit", "owned", "first_service", "last_service", "leave_month", "age_at_start", "life_months")):
        if owned:
            age = f"owned, {months_old(age_at_start)} at month 1"
            if sell[k] > 0:
                rows.append((1, sku[i], gpu[i], "sell", sell[k], sale[k] * sell[k], age))
            if off[k] > 0:
                rows.append((1, sku[i], gpu[i], "switch off", off[k], 0.0, age + SWITCHED_OFF_SITE if site_cost else age))
        else:
            if buy[k] <= 0:
                continue
            # a life that ends with the plan's last month is an end of life too (RTX 4090s of 36 months in a 36-month plan)
            life_ends = leave <= H or last - first + 1 >= life
            rows.append((first, sku[i], gpu[i], "buy", buy[k], capex[k] * buy[k],
                         _boards_said(buy[k], inp.board_gpus.get(sku[i], 1))
                         + f"in service to month {last}" + (" (end of life)" if life_ends else "")))
        if leaving[k] > 0:
            action, note = _leaving(leave, H, life, age_at_start + leave - first, credit[k] / leaving[k],
                                    sku[i] in inp.resale_unknown)
            rows.append((leave, sku[i], gpu[i], action, leaving[k], credit[k], note))
    rows.sort(key=lambda row: (row[0], row[1], row[3]))   # month, card, action; stable, as sort_values(kind="stable")
    return _table(rows, SCHEDULE_COLUMNS, SCHEDULE_DTYPES)


def _boards_said(units: float, board: int) -> str:
    """'1 whole 8-GPU board; ' before a purchase's note, for a card sold only as whole boards of `board` GPUs: units
    bought read as boards, not servers of their own."""
    if board <= 1:
        return ""
    boards = int(round(units)) // board
    return f"{boards:,} whole {board}-GPU board{'' if boards == 1 else 's'}; "


def months_old(months: int) -> str:
    """A card's age in a schedule note, "1 month old", "36 months old"."""
    return f"{counted(months, 'month')} old"


def _leaving(leave: int, horizon: int, life: int, age_months: int, credit_per_unit: float,
             resale_unknown: bool = False) -> tuple[str, str]:
    """(action, note) of cards leaving in month `leave`, `age_months` old then: `retire` at the end of their
    `life` within the horizon, or `end value` in month H+1 for those still in service at the end — the residual
    value the plan credits for them (docs/cost-model.md §6). `resale_unknown`: a card with no sourced price
    (Inputs.resale_unknown), credited 0 because its value is not known, not because it is worth nothing."""
    if resale_unknown:
        unknown = "resale value unknown (no sourced price): credited as 0"
        if leave <= horizon:
            return "retire", f"end of its {life}-month life; {unknown}"
        return "end value", f"residual value at the end of the plan ({months_old(age_months)}): {unknown}"
    worthless = abs(credit_per_unit) <= 1e-9
    if leave <= horizon:
        return "retire", f"end of its {life}-month life; " + (
            "worth nothing by then (no resale credit)" if worthless else "sold at its resale value")
    return "end value", (f"residual value at the end of the plan ({months_old(age_months)})"
                         + (": none" if worthless else ""))


def _installed_table(inp: Inputs, installed: np.ndarray) -> pd.DataFrame:
    """Cards in service per card and month (months 1..H), long form: month, card, gpu, units."""
    cards = np.flatnonzero(inp.col("kind") == "card")
    H = inp.horizon_months
    return pd.DataFrame({"month": np.tile(np.arange(1, H + 1), len(cards)),
                         "card": np.repeat(inp.col("sku")[cards], H), "gpu": np.repeat(inp.col("gpu")[cards], H),
                         "units": installed[cards].ravel().astype(np.int64)})


CHEAPER_TO_SELL = "cheaper to sell"   # the owned table's note of a batch all sold


def owned_decisions(inp: Inputs, decisions: dict) -> pd.DataFrame:
    """Per batch of owned cards: kept, switched off or sold, and `fixed_costs_avoided`: what switching off
    or selling avoids of keeping them working — their fixed costs, plus a sale's credit less the resale value kept
    cards would have at the end (keeping them: fixed costs less that end value; selling: the credit), present value.
    Not the net saving: the work they would have done is bought elsewhere, and what that costs is left
    out. The net against keeping them working is the total of the plan with `onprem.sell_owned` and
    `onprem.switch_off_owned` false, less this plan's (the sale's decision value, engine.decisions, is
    against switching them off instead). The site's `fixed_onprem_per_month` is not in it: it is shared by
    every on-prem unit and ends only when no card is left in service, so no one batch avoids it.

    `end_value`: what the batch's cards held to the end of the plan (kept or switched off, their life not over by
    month H) are worth then, present value, positive: their resale credit in month H+1 (the purchase schedule's
    `end value` row, nominal, negative: `leaving_credits`) × −d(H+1), the credit the plan's total holds for them.
    0 where the batch holds no card at the end — all sold in month 1, or retired at the end of their life within the
    horizon (credited in their `retire` row) — and where the cards are worth nothing then (book value 0)."""
    v, sched, d = inp.vintages, inp.schedule, inp.discount
    pv = {name: sched.present_values(name, d) for name in ("keep", "off", "sell")}
    sku, gpu = inp.col("sku"), inp.col("gpu")
    unit, age_at_start, count, leave = (v[c].to_numpy() for c in ("unit", "age_at_start", "count", "leave_month"))
    _, credit = leaving_credits(inp, decisions)
    H = inp.horizon_months
    rows = []
    for k in np.flatnonzero(v["owned"].to_numpy()):
        i = int(unit[k])
        kept, off, sold = (decisions[name][k] for name in ("keep", "off", "sell"))
        avoided = off * (pv["keep"][k] - pv["off"][k]) + sold * (pv["keep"][k] - pv["sell"][k])
        end_value = 0.0 - credit[k] * d[H] if leave[k] > H else 0.0   # 0.0 -: no "-0"
        if (sold or off) and kept:   # a batch split: the note says what the row holds, not "cheaper to sell" of all
            held = ", ".join(f"{w} {n:g}" for w, n in (("sold", sold), ("switched off", off), ("kept", kept)) if n)
            done = " and ".join(f"{w} {n:g}" for w, n in (("sell", sold), ("switch off", off)) if n)
            note = f"{held}: cheaper to {done} of the {count[k]:g}; the other {kept:g} do work worth more"
        elif sold or off:   # all sold: CHEAPER_TO_SELL (engine.decisions.owned_ties says a tie in its place)
            note = "cheaper to " + " and ".join(w for w, n in (("sell", sold), ("switch off", off)) if n)
        else:
            note = _kept_note(inp.owned_choices, inp.may_sell(i))
        if "sell" in inp.owned_choices and not inp.may_sell(i):   # a sale was allowed but not weighed: say why
            note += f"; resale value unknown: give onprem.card_overrides.{sku[i]}.price to weigh a sale"
        rows.append((sku[i], gpu[i], int(age_at_start[k]), int(count[k]), kept, off, sold,
                     float(avoided), float(end_value), note))
    return _table(rows, OWNED_COLUMNS, OWNED_DTYPES)


def _kept_note(choices: tuple, may_sell: bool) -> str:
    """Why owned cards were kept, by what the scenario let the plan do with them (Inputs.owned_choices; `may_sell`:
    Inputs.may_sell, false also where the card's resale value is unknown): "worth more than selling it" read as a
    verdict where onprem.sell_owned had ruled the sale out."""
    allowed = [words for choice, words in (("sell", "selling it"), ("off", "switching it off"))
               if choice in choices and (choice != "sell" or may_sell)]
    if not allowed:
        return ("kept: onprem.switch_off_owned is false" if "sell" in choices else
                "kept: onprem.sell_owned and onprem.switch_off_owned are false")
    return f"kept: its work is worth more than {' or '.join(allowed)}"


def unit_rows(inp: Inputs, unit_ids) -> np.ndarray:
    """Positions (ascending) of the units whose unit_id is in `unit_ids` (as `units["unit_id"].isin`)."""
    wanted = set(unit_ids)
    return np.array([i for i, unit_id in enumerate(inp.col("unit_id")) if unit_id in wanted], dtype=np.int64)


def servable_pairs(inp: Inputs, unit_ids) -> set[tuple[str, str]]:
    """(workload, gpu) of each unit among `unit_ids` and each workload it can serve (its work per hour above 0:
    engine.workloads.work_matrix leaves 0 where a unit cannot serve a workload, engine.explain says why): the
    speeds a fleet of those units rests on (engine.run.speeds_table)."""
    rows = unit_rows(inp, unit_ids)
    names, gpus = inp.workloads["name"].to_numpy(), inp.col("gpu")[rows]
    unit, workload = np.nonzero(inp.work[rows] > 0)
    return {(str(names[w]), str(gpus[u])) for u, w in zip(unit, workload)}


def _blanked(values: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """Numbers with NaN where `blank` is set, as `Series.where(~blank)` gives them: integers turn float
    only when a cell is blanked."""
    return np.where(blank, np.nan, values) if blank.any() else values


def _offers(inp: Inputs, rows: np.ndarray) -> pd.DataFrame:
    """The units at `rows` (the fleet's) with the prices the plan used (scenario currency)."""
    cloud = inp.col("kind")[rows] != "card"
    source = {"hourly_price": "hourly", "upfront_price": "upfront", "capex_per_unit": "capex"}
    card_only = ("capex_per_unit", "busy_watts", "idle_watts", "life_years", "maintenance_rate_per_year")
    cloud_only = ("hourly_price", "upfront_price", "term_months")
    columns = {}
    for col in OFFER_COLUMNS:   # one frame built once from the used rows of each column (no row selection of units)
        if col == "currency":
            columns[col] = np.full(len(rows), inp.currency, dtype=object)
        elif col in card_only:
            columns[col] = _blanked(inp.col(source.get(col, col))[rows], cloud)     # cloud rows have no card facts
        elif col in cloud_only:
            columns[col] = _blanked(inp.col(source.get(col, col))[rows], ~cloud)    # cards have no hourly or upfront price
        else:
            columns[col] = inp.units[col].array.take(rows)   # keeps the column's own (text) type
    # the on-demand price of the same instance type and region (reports.focus: ListCost of spot and committed hours)
    columns["list_hourly_price"] = _blanked(inp.col("list_hourly")[rows], ~cloud)
    # the availability zone a spot price was quoted in (the offers' `zone`; "" where none: reports.focus's
    # AvailabilityZone), after list_hourly_price so every earlier column keeps its place
    columns["zone"] = _zones(inp, columns["unit_id"])
    return pd.DataFrame(columns).astype(OFFER_DTYPES)


def _zones(inp: Inputs, unit_ids: np.ndarray) -> np.ndarray:
    """The offers' `zone` of each of `unit_ids` (its offer_id), "" for a card, an offer without one, or inputs that
    no longer hold their price table."""
    table = inp.price_table
    if table is None or "zone" not in table or not len(unit_ids):
        return np.full(len(unit_ids), "", dtype=object)
    rows = table[table["offer_id"].isin(set(unit_ids))]
    zone = {offer: z for offer, z in zip(rows["offer_id"], rows["zone"]) if isinstance(z, str)}
    return np.array([zone.get(u, "") for u in unit_ids], dtype=object)


def _utilisation(inp: Inputs, installed: np.ndarray, hours: np.ndarray, flows: pd.DataFrame) -> pd.DataFrame:
    energy = (flows["category"].to_numpy() == "energy") & (flows["unit"].to_numpy() >= 0)
    kwh = _sum_by(flows, "pricing_quantity", "unit", energy)
    sku, gpu = inp.col("sku"), inp.col("gpu")
    rows = []
    in_service_hours = installed.sum(axis=1) * HOURS_PER_MONTH
    for i in np.flatnonzero((inp.col("kind") == "card") & (in_service_hours > 0)):
        rows.append((sku[i], gpu[i], installed[i].max(), hours[i], in_service_hours[i],
                     hours[i] / in_service_hours[i], float(kwh.get(i, 0.0))))
    return _table(rows, UTILISATION_COLUMNS, UTILISATION_DTYPES)


# A serving workload's break-even row: whole instances make its cloud rate per reference hour a floor (a review of the
# break-even table, 2026-12-06: serving rows read as if the cloud's part-used instances cost only their work)
SERVING_NOTE = ("serving rents whole instances each slot: the cloud costs at least this a reference hour, so the card "
                "breaks even at this utilisation or less")


def break_even(inp: Inputs) -> pd.DataFrame:
    """Per card and compatible workload: the share of hours a card must work for owning it to cost
    no more than renting the same work from the cheapest compatible cloud offer.

    u* = F / (730 × (c × work − V)), F = monthly fixed cost of one unit bought in month 1 (its cash
    flows while in service, resale credit included, ÷ its months in service), V = its cost per busy
    hour, c = cloud cost per reference-GPU-hour, work = reference-GPU-hours per card-hour. Undiscounted.
    Cards that cannot be bought in month 1 (owned only) have no row. A serving workload rents whole instances in
    each slot (engine.model.define_serving_instances), so its cloud work costs at least c a reference hour and the
    card breaks even at u* or less: its row says so (SERVING_NOTE).
    """
    sched, v = inp.schedule, inp.vintages
    first_buy = {unit: k for k, (unit, owned, first) in enumerate(column_rows(v, "unit", "owned", "first_service"))
                 if not owned and first == 1}
    buy_totals = sched.totals("buy")
    per_busy_hour = sched.busy_rate()
    cost = cost_per_work(inp)
    last_service, workload_names = v["last_service"].to_numpy(), inp.workload_names
    serving = inp.workloads["serving"].to_numpy(dtype=bool)
    rows = []
    for i, k in sorted(first_buy.items()):
        months = int(last_service[k])
        sku, fixed = inp.col("sku")[i], float(buy_totals[k]) / months
        for j, name in enumerate(workload_names):
            work = inp.work[i, j]
            if work <= 0:
                continue
            if not np.isfinite(cost[:, j]).any():
                rows.append((sku, name, "", math.nan, fixed, math.nan, "no compatible on-demand or spot offer"))
                continue
            best = int(np.argmin(cost[:, j]))
            c = float(cost[best, j])
            margin = c * work - per_busy_hour[i]
            # a serving workload's cloud rate is a floor (SERVING_NOTE): cheaper cloud only at full instances
            full = " when its instances are fully used" if serving[j] else ""
            if margin <= 0:
                u_star, note = math.inf, f"never: cloud work costs less than the card's energy{full}"
            else:
                u_star = fixed / (HOURS_PER_MONTH * margin)
                note = "" if u_star <= inp.availability else f"above availability: cloud is cheaper{full}"
            if serving[j]:
                note = "; ".join(filter(None, [note, SERVING_NOTE]))
            rows.append((sku, name, inp.col("unit_id")[best], c, fixed, u_star, note))
    return pd.DataFrame(rows, columns=["card", "workload", "cloud_offer", "cloud_cost_per_reference_hour",
                                       "card_fixed_cost_per_month", "break_even_utilisation", "note"])


EXCLUSION_KEYS = ["workload", "provider", "gpu", "reason"]


def exclusion_summary(inp: Inputs) -> pd.DataFrame:
    """Why offers were left out, per workload, provider, GPU and reason (with counts)."""
    ex = inp.exclusions
    if ex.empty:
        return _table([], [*EXCLUSION_KEYS, "offers"], {"offers": "int64"})
    # pandas' group-by of four text columns costs several ms on thousands of exclusions; the same groups
    # from each column's sorted codes: one number per row whose order is that of (workload, provider, gpu, reason)
    codes, uniques = zip(*(pd.factorize(ex[c].to_numpy(), sort=True) for c in EXCLUSION_KEYS))
    if any((c < 0).any() for c in codes):   # a missing key: groupby drops the row; rare enough to leave to pandas
        return ex.groupby(EXCLUSION_KEYS, as_index=False)["unit_id"].count().rename(columns={"unit_id": "offers"})
    sizes = [len(u) for u in uniques]
    groups, group_of_row = np.unique(np.ravel_multi_index(codes, sizes), return_inverse=True)
    named = ex["unit_id"].notna().to_numpy()   # count() counts the rows with a unit_id
    out = {c: pd.array(u[level], dtype=ex[c].dtype)
           for c, u, level in zip(EXCLUSION_KEYS, uniques, np.unravel_index(groups, sizes))}
    out["offers"] = np.bincount(group_of_row[named], minlength=len(groups)).astype(np.int64)
    return pd.DataFrame(out)


def prices_used(inp: Inputs, used_unit_ids=None, costs=None, total: float | None = None) -> dict:
    """Which prices the plan used: source, the date range of the prices of the units it used (`as_of`
    newest, `as_of_oldest`, `as_of_text` — never "None": "undated" when no price has a date), counts of
    undated and stale ones, store snapshots and their age (and the snapshot `prices.snapshot` pinned), the packaged
    data's build date and content hashes (`packaged_data`), and warnings about stale or undated prices; the
    dates of the cloud prices, of the catalog's card prices and of the scenario's own quotes apart (`dates_by_kind`).
    With `costs` (the fleet's cost of each unit used, in the order of `used_unit_ids`) and the plan's `total`, how much
    of the total rests on undated and on stale prices (`undated_cost`, `stale_cost`: the fleet cost of their rows in
    the scenario currency, negative for a sale's credit; `undated_share_of_total`, `stale_share_of_total`: that cost
    over the total, None for a total at or below 0, where a share's sign would say the total's and not the part's): an
    audit's plan rested 23 % of its total on one undated spot price, which a count of "1 undated" did not tell."""
    rows = np.arange(len(inp.units)) if used_unit_ids is None else unit_rows(inp, used_unit_ids)
    # the columns date_report reads, at the used rows: selecting rows of the whole units table costs more
    columns = {c: inp.col(c)[rows] for c in DATED_COLUMNS}
    # one reading of the clock for the stale count and the stale prices' share of the total: each read it, so a plan
    # made across midnight could count a price stale in one and not in the other
    today = utc_today()
    report = catalog.date_report(columns, today)
    provenance = inp.prices
    requested = provenance.get("requested_source")
    source = provenance.get("source", requested)
    out = {"source": source, "as_of": report["as_of_max"], "as_of_oldest": report["as_of_min"],
           "as_of_text": report["text"], "undated_prices": report["undated_rows"],
           "stale_prices": report["stale_rows"], "date_warnings": report["warnings"]}
    if requested is not None and source != requested:
        out["requested_source"] = requested
    if provenance.get("snapshots"):
        out["snapshots"] = provenance["snapshots"]
    if provenance.get("pinned_snapshot") is not None:   # prices.snapshot: the store as it stood then
        out["pinned_snapshot"] = provenance["pinned_snapshot"]
    if provenance.get("warning"):
        out["warning"] = provenance["warning"]
    if provenance.get("packaged_data"):   # built_at and content hashes of the packaged prices and catalogs
        out["packaged_data"] = provenance["packaged_data"]
    out.update(dates_by_kind(columns))
    if costs is not None and total is not None:
        cost = np.asarray(costs, dtype=float)
        for kind, flags in zip(("undated", "stale"), undated_and_stale(columns, today)):
            part = float(cost[np.asarray(flags, dtype=bool)].sum())
            out[f"{kind}_cost"] = part
            # over a total below 0 (owned cards sold for more than the plan costs) a cost reads as a negative share
            out[f"{kind}_share_of_total"] = part / total if total > 0 else None
    return out


def _dates(columns: dict, rows: np.ndarray) -> dict:
    """{"as_of" (newest), "as_of_oldest", "prices", "undated_prices"} of the prices at `rows` (bools) of `columns`,
    as catalog.date_report counts them (an offer used twice counts once)."""
    report = catalog.date_report({c: values[rows] for c, values in columns.items()})
    return {"as_of": report["as_of_max"], "as_of_oldest": report["as_of_min"], "prices": report["rows"],
            "undated_prices": report["undated_rows"]}


def dates_by_kind(columns: dict) -> dict:
    """The dates of the prices used (`columns`: DATED_COLUMNS of the units used) by kind, for a reader that
    judges how old the cloud prices are on the cloud prices alone (a fresh quote for a card says nothing of
    them): "cloud_dates" and "card_dates" (the catalog's card prices), each as `_dates` gives them, and
    "quotes": [{"card", "as_of" (None when the scenario gives no date)}] of the cards the scenario prices
    itself — a custom card, or a catalog card whose source is not the catalog's (an override's price brings its
    own as_of and source: catalog.site_card_rows)."""
    cloud = np.array([p != "onprem" for p in columns["provider"]], dtype=bool)
    catalog_source = catalog.load_cards()["source"].to_dict()
    quoted = ~cloud & np.array([str(source).startswith(QUOTED_SOURCES) or catalog_source.get(card) != source
                                for card, source in zip(columns["sku"], columns["source"])], dtype=bool)
    quotes = {card: (str(as_of)[:10] if isinstance(as_of, str) and as_of.strip() else None)
              for card, as_of in zip(columns["sku"][quoted], columns["as_of"][quoted])}
    return {"cloud_dates": _dates(columns, cloud), "card_dates": _dates(columns, ~cloud & ~quoted),
            "quotes": [{"card": card, "as_of": as_of} for card, as_of in sorted(quotes.items())]}
