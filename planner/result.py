"""Reading a solved model back into a Plan: fleet, costs by category and month, utilisation, energy,
break-even — DataFrames with units in their column names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from planner.costs import HOURS_PER_MONTH
from planner.optimize import Inputs, Model, Solution, _continuous_cost_per_work
from planner.workloads import discount_factors

COST_CATEGORIES = ("capex", "residual_value", "maintenance", "energy", "colocation", "fixed_onprem",
                   "cloud_reserved", "cloud_on_demand", "cloud_spot")


@dataclass
class Plan:
    """The recommended fleet and what it costs. Money in `currency`; totals are present values."""

    scenario_name: str
    currency: str
    horizon_months: int
    status: str
    total: float
    costs: pd.DataFrame          # category, cost
    fleet: pd.DataFrame          # one row per unit bought, reserved or rented
    monthly: pd.DataFrame        # one row per month (+ H+1: residual credit, payments after the horizon)
    utilisation: pd.DataFrame    # owned cards: units, busy_hours, utilisation, energy_kwh
    break_even: pd.DataFrame     # card × workload: utilisation at which owning beats the cheapest cloud
    exclusions: pd.DataFrame     # workload, provider, gpu, reason, offers (count)
    solver: dict
    prices: dict
    baselines: pd.DataFrame = field(default_factory=pd.DataFrame)
    baseline_plans: dict = field(default_factory=dict)
    scenario: object = None      # the Scenario solved (set by engine.plan; exports state its assumptions)

    @property
    def energy_kwh(self) -> float:
        return float(self.utilisation["energy_kwh"].sum()) if len(self.utilisation) else 0.0

    def cost(self, category: str) -> float:
        return float(self.costs.set_index("category").loc[category, "cost"])


def _values(m: Model) -> tuple[dict, dict, dict, float]:
    n = {i: float(round(v.varValue or 0.0)) for i, v in m.n.items()}
    r = {i: float(round(v.varValue or 0.0)) for i, v in m.r.items()}
    y = {k: max(0.0, v.varValue or 0.0) for k, v in m.y.items()}
    z = float(round(m.z.varValue or 0.0)) if m.z is not None else 0.0
    return n, r, y, z


def _reserved_payments(inp: Inputs, i: int, last_month: int) -> np.ndarray:
    """Nominal payments of one reserved unit in months 1..last_month: its terms renewed while the
    horizon runs, each paid in full, and nothing after its own last term ends."""
    u = inp.units.loc[i]
    term = int(u.term_months)
    own_end = math.ceil(inp.scenario.horizon_months / term) * term
    pay = np.full(last_month, u.hourly * HOURS_PER_MONTH)
    pay[::term] += u.upfront
    pay[own_end:] = 0.0
    return pay


def read_plan(inp: Inputs, m: Model, sol: Solution) -> Plan:
    """The Plan of a solved model (status optimal or feasible)."""
    s, units, periods = inp.scenario, inp.units, inp.periods
    H = s.horizon_months
    n, r, y, z = _values(m)
    hours_total = (periods["slot_hours"] * periods["n_months"]).to_numpy()
    per_hour_pv = (periods["slot_hours"] * periods["discount_sum"]).to_numpy()

    # Monthly nominal cash flows by category.
    terms_end = max([H] + [math.ceil(H / inp.col("term_months")[i]) * int(inp.col("term_months")[i]) for i in r])
    flows = {c: np.zeros(terms_end + 1) for c in COST_CATEGORIES}   # index m-1 for month m; [H] is H+1
    for i, cnt in n.items():
        u = units.loc[i]
        new = cnt - u.existing
        flows["capex"][0] += u.capex * new
        flows["residual_value"][H] -= u.capex * u.residual_share * new
        flows["maintenance"][:H] += cnt * u.maintenance_per_month
        flows["energy"][:H] += cnt * u.idle_energy_per_month
        flows["colocation"][:H] += cnt * u.colocation_per_month
    flows["fixed_onprem"][:H] += z * s.onprem.fixed_onprem_per_month
    for i, cnt in r.items():
        flows["cloud_reserved"][:terms_end] += cnt * _reserved_payments(inp, i, terms_end)
    busy_hours: dict = {}
    month_index = [np.array(ms) - 1 for ms in periods["months"]]
    slot_hours = periods["slot_hours"].to_numpy()
    for (i, j, p), val in y.items():
        kind = inp.col("kind")[i]
        months = month_index[p]
        if kind == "card":
            flows["energy"][months] += val * inp.col("busy_energy_per_hour")[i] * slot_hours[p]
        elif kind in ("on_demand", "spot"):
            flows[f"cloud_{kind}"][months] += val * inp.col("hourly")[i] * slot_hours[p]
        busy_hours[i] = busy_hours.get(i, 0.0) + val * hours_total[p]

    d = discount_factors(s, terms_end + 1)
    monthly = pd.DataFrame({c: flows[c][:H + 1] for c in COST_CATEGORIES})
    after = {c: float((flows[c][H:] * d[H:terms_end + 1]).sum()) for c in COST_CATEGORIES}
    monthly[list(COST_CATEGORIES)] = monthly[list(COST_CATEGORIES)].astype(float)
    for c in COST_CATEGORIES:  # payments after the horizon are shown in row H+1 (nominal sum)
        monthly.loc[H, c] = float(flows[c][H:].sum())
    monthly.insert(0, "month", np.arange(1, H + 2))
    monthly["total"] = monthly[list(COST_CATEGORIES)].sum(axis=1)
    monthly["discount_factor"] = d[:H + 1]
    monthly["total_discounted"] = monthly["total"] * monthly["discount_factor"]
    monthly.loc[H, "total_discounted"] = sum(after.values())

    costs = pd.DataFrame({"category": list(COST_CATEGORIES),
                          "cost": [float(pyvalue(m.costs[c])) for c in COST_CATEGORIES]})
    total = float(costs["cost"].sum())

    fleet = _fleet(inp, n, r, y, hours_total, per_hour_pv)
    utilisation = _utilisation(inp, n, busy_hours)
    return Plan(
        scenario_name=s.name, currency=s.currency, horizon_months=H, status=sol.status, total=total,
        costs=costs, fleet=fleet, monthly=monthly, utilisation=utilisation,
        break_even=break_even(inp), exclusions=exclusion_summary(inp),
        solver={"name": sol.solver, "status": sol.status, "seconds": round(sol.seconds, 4), "gap": sol.gap,
                **m.size(), "build_seconds": round(m.build_seconds, 4), "reduced": inp.reduced,
                "periods": len(periods), "units": len(units), "pruned": dict(inp.pruned)},
        prices=prices_used(inp),
    )


def pyvalue(expr) -> float:
    import pulp

    return pulp.value(expr) or 0.0


def _fleet(inp: Inputs, n: dict, r: dict, y: dict, hours_total, per_hour_pv) -> pd.DataFrame:
    units = inp.units
    s = inp.scenario
    d = discount_factors(s)
    months_pv, residual_pv = float(d[:s.horizon_months].sum()), float(d[s.horizon_months])
    used_hours: dict = {}
    run_cost: dict = {}
    for (i, j, p), val in y.items():
        used_hours[i] = used_hours.get(i, 0.0) + val * hours_total[p]
        rate = inp.col("busy_energy_per_hour")[i] if inp.col("kind")[i] == "card" else inp.col("hourly")[i]
        if inp.col("kind")[i] != "reserved":
            run_cost[i] = run_cost.get(i, 0.0) + val * rate * per_hour_pv[p]
    rows = []
    for i, u in units.iterrows():
        hours = used_hours.get(i, 0.0)
        if u.kind == "card":
            cnt = n.get(i, 0.0)
            if cnt <= 0:
                continue
            new = cnt - u.existing
            cost = (u.capex * new * (1 - u.residual_share * residual_pv)
                    + cnt * (u.maintenance_per_month + u.idle_energy_per_month + u.colocation_per_month) * months_pv
                    + run_cost.get(i, 0.0))
            rows.append((u.provider, u.region, u.sku, u.gpu, u.purchase_option, cnt, int(u.existing), new, hours, cost))
        elif u.kind == "reserved":
            cnt = r.get(i, 0.0)
            if cnt > 0:
                rows.append((u.provider, u.region, u.sku, u.gpu, u.purchase_option, cnt, 0, cnt, hours,
                             cnt * u.commit_pv))
        elif hours > 1e-6:
            rows.append((u.provider, u.region, u.sku, u.gpu, u.purchase_option, math.nan, 0, math.nan, hours,
                         run_cost.get(i, 0.0)))
    return pd.DataFrame(rows, columns=["provider", "region", "sku", "gpu", "purchase_option", "units",
                                       "existing_units", "new_units", "instance_hours", "cost"])


def _utilisation(inp: Inputs, n: dict, busy_hours: dict) -> pd.DataFrame:
    s = inp.scenario
    H = s.horizon_months
    rows = []
    for i, cnt in n.items():
        if cnt <= 0:
            continue
        u = inp.units.loc[i]
        busy = busy_hours.get(i, 0.0)
        hours = cnt * HOURS_PER_MONTH * H
        kwh = (cnt * u.idle_watts * HOURS_PER_MONTH * H + (u.busy_watts - u.idle_watts) * busy) / 1000 * s.onprem.pue
        rows.append((u.sku, u.gpu, cnt, busy, hours, busy / hours, kwh))
    return pd.DataFrame(rows, columns=["card", "gpu", "units", "busy_hours", "owned_hours", "utilisation",
                                       "energy_kwh"])


def break_even(inp: Inputs) -> pd.DataFrame:
    """Per card and compatible workload: the share of hours a card must work for owning it to cost
    no more than renting the same work from the cheapest compatible cloud offer.

    u* = F / (730 × (c × work − V)), F = monthly fixed cost of one unit (capex less residual spread over
    the horizon + maintenance + idle energy + colocation), V = extra energy per busy hour, c = cloud
    cost per reference-GPU-hour, work = reference-GPU-hours per card-hour. Undiscounted.
    """
    s, units = inp.scenario, inp.units
    H = s.horizon_months
    cost = _continuous_cost_per_work(inp)
    rows = []
    for i, u in units.iterrows():
        if u.kind != "card":
            continue
        fixed = (u.capex * (1 - u.residual_share) / H + u.maintenance_per_month + u.idle_energy_per_month
                 + u.colocation_per_month)
        for j, name in enumerate(inp.workload_names):
            work = inp.work[i, j]
            if work <= 0:
                continue
            best = int(np.argmin(cost[:, j])) if np.isfinite(cost[:, j]).any() else None
            if best is None:
                rows.append((u.sku, name, "", math.nan, fixed, math.nan, "no compatible on-demand or spot offer"))
                continue
            c = float(cost[best, j])
            margin = c * work - u.busy_energy_per_hour
            if margin <= 0:
                u_star, note = math.inf, "never: cloud work costs less than the card's energy"
            else:
                u_star = fixed / (HOURS_PER_MONTH * margin)
                note = "" if u_star <= s.onprem.availability else "above availability: cloud is cheaper"
            rows.append((u.sku, name, inp.col("unit_id")[best], c, fixed, u_star, note))
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
    source = provenance.get("source", inp.scenario.prices.source)
    out = {"source": source, "as_of": dates[-1] if dates else None, "as_of_oldest": dates[0] if dates else None}
    if source != inp.scenario.prices.source:
        out["requested_source"] = inp.scenario.prices.source
    if provenance.get("snapshots"):
        out["snapshots"] = provenance["snapshots"]
    if provenance.get("warning"):
        out["warning"] = provenance["warning"]
    return out
