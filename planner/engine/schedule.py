"""The one cost schedule: every cash flow a plan can make, per unit of each decision, by cost category
and month, before discounting (docs/cost-model.md).

Each row of the schedule says: for unit `unit` (a row of the inputs' units table; -1 for the site),
in every month from `first_month` to `last_month`, pay `amount` (scenario currency, nominal) per unit of
its driver, and count `quantity` of `pricing_unit` (kWh, hours, units …) per unit of its driver:

- `held`: per unit in the fleet (cards owned or bought: n; reserved instances: r);
- `new`:  per unit bought (n − units already owned);
- `busy`: per unit-hour worked in that month (dispatch);
- `site`: once per month when any on-prem unit exists.

Everything that costs money reads this table: the objective (the schedule discounted, times the
decision variables), and after the solve the cash flows (`flows`) from which the monthly table, the
costs by category, the per-unit fleet costs, break-even, energy and the FOCUS rows are group-bys.
No cost formula exists anywhere else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from planner.months import HOURS_PER_MONTH, MONTHS_PER_YEAR

COST_CATEGORIES = ("capex", "residual_value", "maintenance", "energy", "colocation", "fixed_onprem",
                   "cloud_reserved", "cloud_on_demand", "cloud_spot")
SCHEDULE_COLUMNS = ["unit", "driver", "category", "first_month", "last_month", "amount", "quantity",
                    "pricing_unit", "charge"]
SITE = -1   # the `unit` of rows that belong to the site, not to one unit
SITE_LABELS = {"unit_id": "site", "kind": "site", "provider": "onprem", "region": "onprem", "sku": "site"}


@dataclass(frozen=True)
class SiteCosts:
    """The scenario's site assumptions that price on-prem units (scenario currency)."""

    electricity_per_kwh: float
    pue: float
    colocation_per_kw_month: float
    fixed_onprem_per_month: float


def residual_share(horizon_months: int, life_years) -> np.ndarray:
    """Share of a new card's capex it is still worth at the end of the horizon: straight-line over its
    life, never below zero."""
    return np.maximum(0.0, 1.0 - horizon_months / (MONTHS_PER_YEAR * np.asarray(life_years, dtype=float)))


def card_rates(capex, maintenance_rate_per_year, idle_watts, busy_watts, site: SiteCosts) -> dict[str, np.ndarray]:
    """Running costs and energy of one card (arrays over cards): maintenance and idle energy per month,
    extra energy per busy hour, installed kW, and the kWh behind each energy amount."""
    capex, idle, busy = (np.asarray(x, dtype=float) for x in (capex, idle_watts, busy_watts))
    idle_kwh_per_month = idle / 1000.0 * HOURS_PER_MONTH * site.pue
    busy_kwh_per_hour = (busy - idle) / 1000.0 * site.pue
    installed_kw = busy / 1000.0
    return {
        "maintenance_per_month": capex * np.asarray(maintenance_rate_per_year, dtype=float) / MONTHS_PER_YEAR,
        "idle_kwh_per_month": idle_kwh_per_month,
        "idle_energy_per_month": idle_kwh_per_month * site.electricity_per_kwh,
        "busy_kwh_per_hour": busy_kwh_per_hour,
        "busy_energy_per_hour": busy_kwh_per_hour * site.electricity_per_kwh,
        "installed_kw": installed_kw,
        "colocation_per_month": installed_kw * site.colocation_per_kw_month,
    }


def owned_cost_per_hour(capex, life_years, maintenance_rate_per_year, idle_watts, busy_watts,
                        site: SiteCosts) -> np.ndarray:
    """Cost of one owned card per hour when it works every hour of its life: capex spread over the
    life (nothing left at its end), maintenance, and energy at busy power (the offers view's figure)."""
    r = card_rates(capex, maintenance_rate_per_year, idle_watts, busy_watts, site)
    life_hours = np.asarray(life_years, dtype=float) * MONTHS_PER_YEAR * HOURS_PER_MONTH
    return (np.asarray(capex, dtype=float) / life_hours + r["maintenance_per_month"] / HOURS_PER_MONTH
            + r["idle_energy_per_month"] / HOURS_PER_MONTH + r["busy_energy_per_hour"])


def _block(unit, driver, category, first, last, amount, quantity, pricing_unit, charge) -> pd.DataFrame:
    unit = np.atleast_1d(np.asarray(unit, dtype=np.int64))
    n = len(unit)
    return pd.DataFrame({
        "unit": unit, "driver": driver, "category": category,
        "first_month": np.broadcast_to(np.asarray(first, dtype=np.int64), n),
        "last_month": np.broadcast_to(np.asarray(last, dtype=np.int64), n),
        "amount": np.broadcast_to(np.asarray(amount, dtype=float), n),
        "quantity": np.broadcast_to(np.asarray(quantity, dtype=float), n),
        "pricing_unit": pricing_unit, "charge": charge}, columns=SCHEDULE_COLUMNS)


def _card_rows(units: pd.DataFrame, horizon: int, site: SiteCosts) -> list[pd.DataFrame]:
    idx = np.flatnonzero(units["kind"].to_numpy() == "card")
    if not len(idx):
        return []
    c = units.iloc[idx]
    capex = c["capex"].to_numpy(dtype=float)
    r = card_rates(capex, c["maintenance_rate_per_year"], c["idle_watts"], c["busy_watts"], site)
    H = horizon
    return [
        _block(idx, "new", "capex", 1, 1, capex, 1.0, "Units", "one_time"),
        _block(idx, "new", "residual_value", H + 1, H + 1, -capex * residual_share(H, c["life_years"]), 1.0,
               "Units", "one_time"),
        _block(idx, "held", "maintenance", 1, H, r["maintenance_per_month"], 1.0, "Unit-months", "recurring"),
        _block(idx, "held", "energy", 1, H, r["idle_energy_per_month"], r["idle_kwh_per_month"], "kWh", "usage"),
        _block(idx, "held", "colocation", 1, H, r["colocation_per_month"], r["installed_kw"], "kW-months",
               "recurring"),
        _block(idx, "busy", "energy", 1, H, r["busy_energy_per_hour"], r["busy_kwh_per_hour"], "kWh", "usage"),
    ]


def _reservation_rows(units: pd.DataFrame, horizon: int) -> list[pd.DataFrame]:
    """Each term paid in full and renewed while the horizon runs: the upfront price at the start of
    every term, the hourly fee × 730 in every month of every term (months past the horizon included)."""
    idx = np.flatnonzero(units["kind"].to_numpy() == "reserved")
    if not len(idx):
        return []
    r = units.iloc[idx]
    term = r["term_months"].to_numpy(dtype=np.int64)
    terms = -(-horizon // term)          # ceil: a term that starts inside the horizon is paid in full
    blocks = [_block(idx, "held", "cloud_reserved", 1, terms * term, r["hourly"].to_numpy(dtype=float)
                     * HOURS_PER_MONTH, 1.0, "Unit-months", "recurring")]
    upfront = r["upfront"].to_numpy(dtype=float)
    for k in range(int(terms.max())):
        sel = terms > k
        start = k * term[sel] + 1
        blocks.append(_block(idx[sel], "held", "cloud_reserved", start, start, upfront[sel], 1.0, "Units",
                             "one_time"))
    return blocks


def _continuous_rows(units: pd.DataFrame, horizon: int) -> list[pd.DataFrame]:
    kind = units["kind"].to_numpy()
    out = []
    for k in ("on_demand", "spot"):
        idx = np.flatnonzero(kind == k)
        if len(idx):
            out.append(_block(idx, "busy", f"cloud_{k}", 1, horizon, units["hourly"].to_numpy(dtype=float)[idx],
                              1.0, "Hours", "usage"))
    return out


def build_schedule(units: pd.DataFrame, horizon_months: int, site: SiteCosts) -> CostSchedule:
    """The cost schedule of `units` (the inputs' units table) over a horizon of `horizon_months`."""
    blocks = (_card_rows(units, horizon_months, site) + _reservation_rows(units, horizon_months)
              + _continuous_rows(units, horizon_months))
    if site.fixed_onprem_per_month > 0 and (units["kind"] == "card").any():
        blocks.append(_block(SITE, "site", "fixed_onprem", 1, horizon_months, site.fixed_onprem_per_month, 1.0,
                             "Months", "recurring"))
    if not blocks:   # no units: an empty schedule with its columns typed
        blocks = [_block(np.zeros(0, dtype=np.int64), "held", "capex", 1, 1, 0.0, 0.0, "", "")]
    rows = pd.concat(blocks, ignore_index=True)
    months = int(max(horizon_months + 1, rows["last_month"].max() if len(rows) else 0))
    return CostSchedule(rows, len(units), horizon_months, months)


@dataclass(frozen=True)
class CostSchedule:
    """The schedule's rows (see the module docstring) for `n_units` units over `months` months
    (month 1 … the last month any row pays in; at least the horizon + 1, when residual value is credited)."""

    rows: pd.DataFrame
    n_units: int
    horizon_months: int
    months: int

    @cached_property
    def active(self) -> np.ndarray:
        """[rows × months] True in the months a row applies to."""
        m = np.arange(1, self.months + 1)
        return (m >= self.rows["first_month"].to_numpy()[:, None]) & (m <= self.rows["last_month"].to_numpy()[:, None])

    @cached_property
    def amounts(self) -> np.ndarray:
        """[rows × months] nominal amount per unit of each row's driver in each month."""
        return self.rows["amount"].to_numpy(dtype=float)[:, None] * self.active

    def _mask(self, driver: str, category: str | None = None) -> np.ndarray:
        mask = self.rows["driver"].to_numpy() == driver
        if category is not None:
            mask &= self.rows["category"].to_numpy() == category
        return mask

    def per_unit(self, values: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Row `values` (1-D, or rows × k) of the rows in `mask` summed per unit: [units] or [units × k]."""
        out = np.zeros((self.n_units,) + values.shape[1:])
        np.add.at(out, self.rows["unit"].to_numpy()[mask], values[mask])
        return out

    def unit_totals(self, driver: str, category: str | None = None) -> np.ndarray:
        """[units] nominal money per unit of `driver` over all months (e.g. new capex per card bought)."""
        return self.per_unit(self.amounts.sum(axis=1), self._mask(driver, category))

    def unit_present_values(self, driver: str, discount: np.ndarray, category: str | None = None) -> np.ndarray:
        """[units] present value per unit of `driver` (held, new), its months discounted."""
        return self.per_unit(self.amounts @ discount[:self.months], self._mask(driver, category))

    def busy_rate(self) -> np.ndarray:
        """[units] money per unit-hour worked in month 1 (busy rates are flat over the horizon)."""
        return self.per_unit(self.amounts[:, 0], self._mask("busy"))

    def site_present_value(self, discount: np.ndarray, category: str) -> float:
        mask = self._mask("site", category)
        return float((self.amounts[mask] @ discount[:self.months]).sum())

    def busy_present_values(self, periods: pd.DataFrame, discount: np.ndarray) -> dict[str, np.ndarray]:
        """category -> [units × periods] present value of one unit working through period p's hours
        (its `slot_hours` in each of its months), for the categories busy hours are priced in."""
        mask = self._mask("busy")
        in_period = period_months(periods, self.months)                       # [months × periods]
        per_row = np.zeros((len(self.rows), len(periods)))
        per_row[mask] = (self.amounts[mask] * discount[:self.months]) @ in_period * periods["slot_hours"].to_numpy()
        category = self.rows["category"].to_numpy()
        return {c: self.per_unit(per_row, mask & (category == c)) for c in dict.fromkeys(category[mask])}

    def take(self, keep: np.ndarray) -> CostSchedule:
        """The schedule of the units in `keep` (a boolean mask over units), renumbered as they are."""
        unit = self.rows["unit"].to_numpy(dtype=np.int64)
        site = unit == SITE
        own = np.where(site, 0, unit)
        kept = site | (keep[own] if len(keep) else False)
        new_index = np.cumsum(keep) - 1
        rows = self.rows[kept].copy()
        rows["unit"] = np.where(site, SITE, new_index[own] if len(keep) else SITE)[kept]
        return CostSchedule(rows.reset_index(drop=True), int(keep.sum()), self.horizon_months, self.months)


def period_months(periods: pd.DataFrame, months: int) -> np.ndarray:
    """[months × periods] 1 where month m (row m−1) belongs to period p."""
    out = np.zeros((months, len(periods)))
    for p, ms in enumerate(periods["months"]):
        out[np.asarray(ms) - 1, p] = 1.0
    return out


def cash_flows(schedule: CostSchedule, held: np.ndarray, new: np.ndarray, busy_hours: np.ndarray,
               site_on: float) -> tuple[np.ndarray, np.ndarray]:
    """(money, quantity) [rows × months]: each schedule row times its driver's solved quantity —
    `held` and `new` units [units], `busy_hours` [units × months], `site_on` (0 or 1)."""
    rows = schedule.rows
    unit = rows["unit"].to_numpy()
    driver = rows["driver"].to_numpy()
    u = np.where(unit == SITE, 0, unit)
    qty = np.zeros((len(rows), schedule.months))
    if schedule.n_units:
        qty[driver == "held"] = held[u[driver == "held"], None]
        qty[driver == "new"] = new[u[driver == "new"], None]
        qty[driver == "busy"] = busy_hours[u[driver == "busy"]]
    qty[driver == "site"] = site_on
    return schedule.amounts * qty, schedule.active * rows["quantity"].to_numpy(dtype=float)[:, None] * qty


def flows_table(schedule: CostSchedule, units: pd.DataFrame, money: np.ndarray, quantity: np.ndarray,
                discount: np.ndarray) -> pd.DataFrame:
    """The plan's cash flows, one row per schedule row and month with money or quantity in it.

    Months past the horizon are folded into month H+1 (the month the residual is credited): its
    `cost` is their nominal sum and its `present_value` their discounted sum. Columns: unit (index
    into `units`; -1 = site), unit_id, kind, provider, region, sku, gpu, purchase_option, category,
    pricing_unit, charge, month, cost (nominal), present_value, discount_factor, pricing_quantity.
    """
    H = schedule.horizon_months
    pv = money * discount[:schedule.months]
    fold = lambda a: np.concatenate([a[:, :H], a[:, H:].sum(axis=1, keepdims=True)], axis=1)  # noqa: E731
    money, pv, quantity = fold(money), fold(pv), fold(quantity)
    r, m = np.nonzero((money != 0) | (quantity != 0))
    rows = schedule.rows
    unit = rows["unit"].to_numpy()[r]
    own = np.where(unit == SITE, 0, unit)
    out = pd.DataFrame({"unit": unit})
    for col in ("unit_id", "kind", "provider", "region", "sku", "gpu", "purchase_option"):
        values = units[col].to_numpy(dtype=object)[own] if len(units) else np.full(len(unit), "", dtype=object)
        out[col] = np.where(unit == SITE, SITE_LABELS.get(col, ""), values)
    for col in ("category", "pricing_unit", "charge"):
        out[col] = rows[col].to_numpy()[r]
    out["month"] = m + 1
    out["cost"] = money[r, m]
    out["present_value"] = pv[r, m]
    out["discount_factor"] = discount[m]
    out["pricing_quantity"] = quantity[r, m]
    return out


def continuous_cost_per_work(schedule: CostSchedule, kind: np.ndarray, work: np.ndarray) -> np.ndarray:
    """[units × workloads] money per reference-GPU-hour of work from each on-demand or spot unit
    (inf where it cannot serve the workload)."""
    cont = np.isin(kind, ("on_demand", "spot"))[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = schedule.busy_rate()[:, None] / work
    return np.where(cont & (work > 0), cost, math.inf)
