"""Reading a solved model back into a Plan. Every money figure is a group-by of the cash flows — the
cost schedule times the solved decisions (`schedule.cash_flows`) — so each is the objective's own
arithmetic: costs by category, the monthly table, per-unit fleet costs, energy and break-even.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from planner.engine.inputs import Inputs
from planner.engine.model import Model
from planner.engine.reductions import cost_per_work
from planner.engine.result import Plan
from planner.engine.schedule import COST_CATEGORIES, cash_flows, flows_table, period_months
from planner.engine.solve import Solution
from planner.months import HOURS_PER_MONTH

FLEET_COLUMNS = ["provider", "region", "sku", "gpu", "purchase_option", "kind", "units", "existing_units",
                 "new_units", "instance_hours", "cost", "unit_id"]
OFFER_COLUMNS = ["unit_id", "kind", "provider", "region", "sku", "gpu", "purchase_option", "hourly_price",
                 "upfront_price", "term_months", "capex_per_unit", "busy_watts", "idle_watts", "life_years",
                 "maintenance_rate_per_year", "currency", "as_of", "source"]


def solved_quantities(inp: Inputs, m: Model) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(held [U], new [U], busy hours [U × months], site on 0/1) of a solved model: integer counts
    rounded, dispatch clipped at zero."""
    U = len(inp.units)
    held, new = np.zeros(U), np.zeros(U)
    existing = inp.col("existing").astype(float)
    for i, v in list(m.n.items()) + list(m.r.items()):
        held[i] = float(round(v.varValue or 0.0))
    for i in m.n:
        new[i] = held[i] - existing[i]
    per_period = np.zeros((U, len(inp.periods)))
    for (i, _j, p), v in m.y.items():
        per_period[i, p] += max(0.0, v.varValue or 0.0)
    slot_hours = inp.periods["slot_hours"].to_numpy()
    busy_hours = (per_period * slot_hours) @ period_months(inp.periods, inp.schedule.months).T
    site_on = float(round(m.z.varValue or 0.0)) if m.z is not None else 0.0
    return held, new, busy_hours, site_on


def monthly_table(flows: pd.DataFrame, horizon: int, discount: np.ndarray) -> pd.DataFrame:
    """Nominal money by month 1..H+1 and category, its total, the discount factor and the present value
    (row H+1: the residual credit and every payment after the horizon, their present value summed)."""
    months = flows["month"].to_numpy() - 1
    category = pd.Categorical(flows["category"], categories=COST_CATEGORIES).codes
    nominal = np.zeros((horizon + 1, len(COST_CATEGORIES)))
    np.add.at(nominal, (months, category), flows["cost"].to_numpy())
    pv = np.zeros(horizon + 1)
    np.add.at(pv, months, flows["present_value"].to_numpy())
    monthly = pd.DataFrame(nominal, columns=list(COST_CATEGORIES))
    monthly.insert(0, "month", np.arange(1, horizon + 2))
    monthly["total"] = nominal.sum(axis=1)
    monthly["discount_factor"] = discount[:horizon + 1]
    monthly["total_discounted"] = pv
    return monthly


def read_plan(inp: Inputs, m: Model, sol: Solution, scenario=None) -> Plan:
    """The Plan of a solved model (status optimal or feasible); `scenario` is carried along as given."""
    H = inp.horizon_months
    held, new, busy_hours, site_on = solved_quantities(inp, m)
    money, quantity = cash_flows(inp.schedule, held, new, busy_hours, site_on)
    flows = flows_table(inp.schedule, inp.units, money, quantity, inp.discount)
    pv = flows.groupby("category")["present_value"].sum()
    costs = pd.DataFrame({"category": list(COST_CATEGORIES),
                          "cost": [float(pv.get(c, 0.0)) for c in COST_CATEGORIES]})
    fleet = _fleet(inp, held, busy_hours.sum(axis=1), flows)
    return Plan(
        scenario_name=inp.name, currency=inp.currency, horizon_months=H, status=sol.status,
        total=float(costs["cost"].sum()), costs=costs, fleet=fleet,
        monthly=monthly_table(flows, H, inp.discount),
        utilisation=_utilisation(inp, held, busy_hours.sum(axis=1), flows), break_even=break_even(inp),
        exclusions=exclusion_summary(inp),
        solver={"name": sol.solver, "status": sol.status, "seconds": round(sol.seconds, 4), "gap": sol.gap,
                **m.size(), "build_seconds": round(m.build_seconds, 4), "reduced": inp.reduced,
                "periods": len(inp.periods), "units": len(inp.units), "pruned": dict(inp.pruned)},
        prices=prices_used(inp), flows=flows.drop(columns=["unit"]), offers=_offers(inp, fleet),
        scenario=scenario,
    )


def _fleet(inp: Inputs, held: np.ndarray, hours: np.ndarray, flows: pd.DataFrame) -> pd.DataFrame:
    """One row per card owned or bought, reservation held, or offer rented (hours > 0)."""
    kind, existing = inp.col("kind"), inp.col("existing")
    cost = flows[flows["unit"] >= 0].groupby("unit")["present_value"].sum()
    rows = []
    for i in range(len(inp.units)):
        if kind[i] in ("card", "reserved"):
            if held[i] <= 0:
                continue
            owned = int(existing[i])
            units, new = held[i], held[i] - owned
        elif hours[i] > 1e-6:
            owned, units, new = 0, math.nan, math.nan
        else:
            continue
        u = inp.units.iloc[i]
        rows.append((u.provider, u.region, u.sku, u.gpu, u.purchase_option, kind[i], units, owned, new, hours[i],
                     float(cost.get(i, 0.0)), u.unit_id))
    return pd.DataFrame(rows, columns=FLEET_COLUMNS)


def _offers(inp: Inputs, fleet: pd.DataFrame) -> pd.DataFrame:
    """The units of the fleet with the prices the plan used (scenario currency)."""
    u = inp.units[inp.units["unit_id"].isin(fleet["unit_id"])]
    out = u.rename(columns={"hourly": "hourly_price", "upfront": "upfront_price", "capex": "capex_per_unit"})
    out = out.assign(currency=inp.currency)
    cloud = out["kind"] != "card"
    for col in ("capex_per_unit", "busy_watts", "idle_watts", "life_years", "maintenance_rate_per_year"):
        out[col] = out[col].where(~cloud)          # cloud rows have no card facts
    for col in ("hourly_price", "upfront_price", "term_months"):
        out[col] = out[col].where(cloud)           # cards have no hourly or upfront price
    return out[OFFER_COLUMNS].reset_index(drop=True)


def _utilisation(inp: Inputs, held: np.ndarray, hours: np.ndarray, flows: pd.DataFrame) -> pd.DataFrame:
    kwh = flows[(flows["category"] == "energy") & (flows["unit"] >= 0)].groupby("unit")["pricing_quantity"].sum()
    rows = []
    for i in np.flatnonzero((inp.col("kind") == "card") & (held > 0)):
        owned_hours = held[i] * HOURS_PER_MONTH * inp.horizon_months
        rows.append((inp.col("sku")[i], inp.col("gpu")[i], held[i], hours[i], owned_hours, hours[i] / owned_hours,
                     float(kwh.get(i, 0.0))))
    return pd.DataFrame(rows, columns=["card", "gpu", "units", "busy_hours", "owned_hours", "utilisation",
                                       "energy_kwh"])


def break_even(inp: Inputs) -> pd.DataFrame:
    """Per card and compatible workload: the share of hours a card must work for owning it to cost
    no more than renting the same work from the cheapest compatible cloud offer.

    u* = F / (730 × (c × work − V)), F = monthly fixed cost of one new unit (its held and bought cash
    flows over the horizon, residual credit included, ÷ H), V = its cost per busy hour, c = cloud cost
    per reference-GPU-hour, work = reference-GPU-hours per card-hour. Undiscounted.
    """
    sched, H = inp.schedule, inp.horizon_months
    fixed_per_month = (sched.unit_totals("new") + sched.unit_totals("held")) / H
    per_busy_hour = sched.busy_rate()
    cost = cost_per_work(inp)
    rows = []
    for i in np.flatnonzero(inp.col("kind") == "card"):
        sku, fixed = inp.col("sku")[i], float(fixed_per_month[i])
        for j, name in enumerate(inp.workload_names):
            work = inp.work[i, j]
            if work <= 0:
                continue
            if not np.isfinite(cost[:, j]).any():
                rows.append((sku, name, "", math.nan, fixed, math.nan, "no compatible on-demand or spot offer"))
                continue
            best = int(np.argmin(cost[:, j]))
            c = float(cost[best, j])
            margin = c * work - per_busy_hour[i]
            if margin <= 0:
                u_star, note = math.inf, "never: cloud work costs less than the card's energy"
            else:
                u_star = fixed / (HOURS_PER_MONTH * margin)
                note = "" if u_star <= inp.availability else "above availability: cloud is cheaper"
            rows.append((sku, name, inp.col("unit_id")[best], c, fixed, u_star, note))
    return pd.DataFrame(rows, columns=["card", "workload", "cloud_offer", "cloud_cost_per_reference_hour",
                                       "card_fixed_cost_per_month", "break_even_utilisation", "note"])


def exclusion_summary(inp: Inputs) -> pd.DataFrame:
    """Why offers were left out, per workload, provider, GPU and reason (with counts)."""
    ex = inp.exclusions
    if ex.empty:
        return pd.DataFrame(columns=["workload", "provider", "gpu", "reason", "offers"])
    return (ex.groupby(["workload", "provider", "gpu", "reason"], as_index=False)["unit_id"].count()
              .rename(columns={"unit_id": "offers"}))


def prices_used(inp: Inputs) -> dict:
    """Which prices the plan used: source, newest and oldest `as_of`, store snapshots and their age."""
    dates = sorted(d for d in inp.units.loc[inp.units["kind"] != "card", "as_of"] if d)
    provenance = inp.prices
    requested = provenance.get("requested_source")
    source = provenance.get("source", requested)
    out = {"source": source, "as_of": dates[-1] if dates else None, "as_of_oldest": dates[0] if dates else None}
    if requested is not None and source != requested:
        out["requested_source"] = requested
    if provenance.get("snapshots"):
        out["snapshots"] = provenance["snapshots"]
    if provenance.get("warning"):
        out["warning"] = provenance["warning"]
    return out
