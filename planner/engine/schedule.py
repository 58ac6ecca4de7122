"""The one cost schedule: every cash flow a plan can make, per unit of each decision, by cost category
and month, before discounting (docs/cost-model.md).

Each row of the schedule says: in every month from `first_month` to `last_month`, pay `amount`
(scenario currency, nominal) per unit of its driver's decision `key`, and count `quantity` of
`pricing_unit` (kWh, hours, units …) per unit of that decision. `unit` (a row of the inputs' units
table; -1 for the site) names what the flow belongs to. The drivers and their keys:

- `held`: per reserved instance held (key: unit);
- `buy`:  per card bought in a purchase vintage (key: vintage): capex when bought, running costs while
  in service, the resale credit when it leaves service or the horizon ends;
- `keep`, `off`, `sell`: per owned card kept working, switched off, or sold in month 1 (key: vintage);
- `busy`: per unit-hour worked in that month (dispatch; key: unit) — for an on-demand or spot unit
  that serves a serving workload, per instance-hour rented: its whole serving instances and the
  extra instance-hours for batch work (engine.model.define_serving_instances);
- `site`: once per month of each fleet epoch (engine.vintages) in which any on-prem card is held, working or
  switched off (key: the epoch's index among the epochs some card can serve in).

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

from planner.engine.columns import cached_column, take_rows
from planner.engine.vintages import epoch_of_month, in_service
from planner.months import HOURS_PER_MONTH, MONTHS_PER_YEAR

COST_CATEGORIES = ("capex", "residual_value", "maintenance", "energy", "colocation", "fixed_onprem",
                   "cloud_reserved", "cloud_on_demand", "cloud_spot")
SCHEDULE_COLUMNS = ["unit", "driver", "key", "category", "first_month", "last_month", "amount", "quantity",
                    "pricing_unit", "charge"]
UNIT_DRIVERS = ("held", "busy")                    # keyed by unit
VINTAGE_DRIVERS = ("buy", "keep", "off", "sell")   # keyed by vintage
SITE = -1   # the `unit` of rows that belong to the site, not to one unit
SITE_LABELS = {"unit_id": "site", "kind": "site", "provider": "onprem", "region": "onprem", "sku": "site"}


@dataclass(frozen=True)
class SiteCosts:
    """The scenario's site assumptions that price on-prem units (scenario currency)."""

    electricity_per_kwh: float
    pue: float
    colocation_per_kw_month: float
    fixed_onprem_per_month: float


@dataclass(frozen=True)
class ResaleTerms:
    """How hardware is valued when it is sold (onprem.resale), and what a switched-off card still pays."""

    method: str = "straight_line"     # straight_line | declining_balance | none
    share_of_book: float = 0.5        # share of book value a buyer pays
    maintenance_when_off: bool = True


def book_share(age_months, life_years, method: str) -> np.ndarray:
    """Book value of a card of age `age_months` as a share of its capex: straight-line to zero over its
    life; declining balance at 2/life a year (double-declining, never below zero); none: zero."""
    age_years = np.asarray(age_months, dtype=float) / MONTHS_PER_YEAR
    life = np.asarray(life_years, dtype=float)
    if method == "straight_line":
        return np.maximum(0.0, 1.0 - age_years / life)
    if method == "declining_balance":
        return np.maximum(0.0, 1.0 - 2.0 / life) ** age_years
    return np.zeros(np.broadcast(age_years, life).shape)


def resale_share(age_months, life_years, terms: ResaleTerms) -> np.ndarray:
    """Share of a card's capex a buyer pays for it at `age_months`: its book share × share_of_book."""
    return terms.share_of_book * book_share(age_months, life_years, terms.method)


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


STRING_COLUMNS = ("driver", "category", "pricing_unit", "charge")   # one label per block


def _values(x, dtype, n: int) -> np.ndarray:
    """`x` (a scalar, or an array of one or `n` values) as `n` values of `dtype` (np.broadcast_to costs
    more than the arithmetic of a block)."""
    x = np.asarray(x, dtype=dtype)
    return x if x.shape == (n,) else np.full(n, x, dtype=dtype)


def _block(unit, driver, category, first, last, amount, quantity, pricing_unit, charge, key=None) -> dict:
    """One block of schedule rows as plain column arrays (labels as scalars): pandas frames are made
    once, in build_schedule, since a small DataFrame per block costs more than its arithmetic."""
    unit = np.atleast_1d(np.asarray(unit, dtype=np.int64))
    n = len(unit)
    key = unit if key is None else _values(key, np.int64, n)
    return {
        "unit": unit, "driver": driver, "key": key, "category": category,
        "first_month": _values(first, np.int64, n), "last_month": _values(last, np.int64, n),
        "amount": _values(amount, float, n), "quantity": _values(quantity, float, n),
        "pricing_unit": pricing_unit, "charge": charge}


def _rows_frame(blocks: list[dict]) -> pd.DataFrame:
    """The blocks' rows, in block order, as one frame of SCHEDULE_COLUMNS."""
    counts = [len(b["unit"]) for b in blocks]
    if not sum(counts):   # no rows: scalar labels give the string columns the same dtype as when filled
        columns = {c: (blocks[0][c] if c in STRING_COLUMNS else np.zeros(0, dtype=blocks[0][c].dtype))
                   for c in SCHEDULE_COLUMNS}
        return pd.DataFrame(columns, index=pd.RangeIndex(0), columns=SCHEDULE_COLUMNS)
    columns = {}
    for c in SCHEDULE_COLUMNS:
        if c in STRING_COLUMNS:
            columns[c] = np.repeat(np.array([b[c] for b in blocks], dtype=object), counts)
        else:
            columns[c] = np.concatenate([b[c] for b in blocks])
    return pd.DataFrame(columns, columns=SCHEDULE_COLUMNS, copy=False)   # the arrays are new: no copy


def _running_rows(driver: str, unit: np.ndarray, key: np.ndarray, first: np.ndarray, last: np.ndarray, r: dict,
                  maintenance: bool = True, energy: bool = True) -> list[dict]:
    """Maintenance, idle energy and colocation of vintages (`key`, of card `unit`) in every month from
    `first` to `last` (their service)."""
    out = []
    if maintenance:
        out.append(_block(unit, driver, "maintenance", first, last, r["maintenance_per_month"], 1.0, "Unit-months",
                          "recurring", key))
    if energy:
        out += [_block(unit, driver, "energy", first, last, r["idle_energy_per_month"], r["idle_kwh_per_month"], "kWh",
                       "usage", key),
                _block(unit, driver, "colocation", first, last, r["colocation_per_month"], r["installed_kw"],
                       "kW-months", "recurring", key)]
    return out


def _card_rows(units: pd.DataFrame, kind: np.ndarray, vintages: pd.DataFrame, horizon: int, site: SiteCosts,
               terms: ResaleTerms) -> list[dict]:
    """Per vintage: capex when bought (`buy`), running costs while in service, and the resale credit in
    the month it leaves (end of life, or H+1 for the cards still working at the end of the horizon);
    owned cards: kept, switched off (maintenance only) or sold in month 1. Busy energy per card-hour."""
    if not len(vintages):
        return []
    # plain arrays: per-row pandas selections cost more than the arithmetic on ~10² vintages
    unit = vintages["unit"].to_numpy(dtype=np.int64)
    key = np.asarray(vintages.index, dtype=np.int64)
    owned = vintages["owned"].to_numpy(dtype=bool)
    first, last, leave, age = (vintages[c].to_numpy() for c in ("first_service", "last_service", "leave_month",
                                                                "age_at_start"))
    capex_of_unit, life_of_unit, maintenance_of_unit, idle_of_unit, busy_of_unit = (
        units[c].to_numpy() for c in ("capex", "life_years", "maintenance_rate_per_year", "idle_watts", "busy_watts"))
    capex = np.asarray(capex_of_unit[unit], dtype=float)
    r = card_rates(capex, maintenance_of_unit[unit], idle_of_unit[unit], busy_of_unit[unit], site)
    life = np.asarray(life_of_unit[unit], dtype=float)
    in_service = last >= first
    credit = -capex * resale_share(age + leave - first, life, terms)
    blocks = []
    for driver, sel in (("buy", ~owned), ("keep", owned), ("off", owned)):
        sel = sel & in_service
        if not sel.any():
            continue
        rs = {k: x[sel] for k, x in r.items()}
        if driver == "buy":
            blocks.append(_block(unit[sel], "buy", "capex", first[sel], first[sel], capex[sel], 1.0, "Units",
                                 "one_time", key[sel]))
        blocks += _running_rows(driver, unit[sel], key[sel], first[sel], last[sel], rs,
                                maintenance=driver != "off" or terms.maintenance_when_off, energy=driver != "off")
        blocks.append(_block(unit[sel], driver, "residual_value", leave[sel], leave[sel], credit[sel], 1.0, "Units",
                             "one_time", key[sel]))
    if owned.any():
        sale = -capex[owned] * resale_share(age[owned], life[owned], terms)
        blocks.append(_block(unit[owned], "sell", "residual_value", 1, 1, sale, 1.0, "Units", "one_time", key[owned]))
    idx = np.flatnonzero(kind == "card")
    busy = card_rates(capex_of_unit[idx], maintenance_of_unit[idx], idle_of_unit[idx], busy_of_unit[idx], site)
    blocks.append(_block(idx, "busy", "energy", 1, horizon, busy["busy_energy_per_hour"], busy["busy_kwh_per_hour"],
                         "kWh", "usage"))
    return blocks


def _reservation_rows(units: pd.DataFrame, kind: np.ndarray, horizon: int) -> list[dict]:
    """Each term paid in full and renewed while the horizon runs: the upfront price at the start of
    every term, the hourly fee × 730 in every month of every term (months past the horizon included)."""
    idx = np.flatnonzero(kind == "reserved")
    if not len(idx):
        return []
    term = np.asarray(units["term_months"].to_numpy()[idx], dtype=np.int64)
    terms = -(-horizon // term)          # ceil: a term that starts inside the horizon is paid in full
    hourly = np.asarray(units["hourly"].to_numpy()[idx], dtype=float)
    blocks = [_block(idx, "held", "cloud_reserved", 1, terms * term, hourly * HOURS_PER_MONTH, 1.0, "Unit-months",
                     "recurring")]
    upfront = np.asarray(units["upfront"].to_numpy()[idx], dtype=float)
    for k in range(int(terms.max())):
        sel = terms > k
        start = k * term[sel] + 1
        blocks.append(_block(idx[sel], "held", "cloud_reserved", start, start, upfront[sel], 1.0, "Units",
                             "one_time"))
    return blocks


def _continuous_rows(units: pd.DataFrame, kind: np.ndarray, horizon: int) -> list[dict]:
    hourly = units["hourly"].to_numpy(dtype=float)
    out = []
    for k in ("on_demand", "spot"):
        idx = np.flatnonzero(kind == k)
        if len(idx):
            out.append(_block(idx, "busy", f"cloud_{k}", 1, horizon, hourly[idx], 1.0, "Hours", "usage"))
    return out


def site_epochs(vintages: pd.DataFrame, horizon_months: int) -> tuple[np.ndarray, np.ndarray]:
    """(first month, last month) of each fleet epoch in which some card vintage can be in service: the site's
    fixed cost is owed month by month in those epochs in which any card is held (a key of the `site` driver
    each); months no vintage can serve in owe none."""
    epoch = epoch_of_month(vintages, horizon_months)
    serves = in_service(vintages, horizon_months).any(axis=0) if len(vintages) else np.zeros(horizon_months, bool)
    first, last = [], []
    for e in np.unique(epoch):
        months = np.flatnonzero(epoch == e) + 1
        if serves[months[0] - 1]:   # the vintages in service are the same throughout an epoch
            first.append(int(months[0]))
            last.append(int(months[-1]))
    return np.array(first, dtype=np.int64), np.array(last, dtype=np.int64)


def build_schedule(units: pd.DataFrame, vintages: pd.DataFrame, horizon_months: int, site: SiteCosts,
                   terms: ResaleTerms = ResaleTerms()) -> CostSchedule:
    """The cost schedule of `units` (the inputs' units table) and the card `vintages` (engine.vintages)
    over a horizon of `horizon_months`."""
    kind = units["kind"].to_numpy()   # read once: each read of a string column copies it
    blocks = (_card_rows(units, kind, vintages, horizon_months, site, terms)
              + _reservation_rows(units, kind, horizon_months) + _continuous_rows(units, kind, horizon_months))
    if site.fixed_onprem_per_month > 0 and (kind == "card").any():
        first, last = site_epochs(vintages, horizon_months)
        blocks.append(_block(np.full(len(first), SITE), "site", "fixed_onprem", first, last,
                             site.fixed_onprem_per_month, 1.0, "Months", "recurring", np.arange(len(first))))
    if not blocks:   # no units: an empty schedule with its columns typed
        blocks = [_block(np.zeros(0, dtype=np.int64), "held", "capex", 1, 1, 0.0, 0.0, "", "")]
    rows = _rows_frame(blocks)
    months = int(max(horizon_months + 1, rows["last_month"].max() if len(rows) else 0))
    return CostSchedule(rows, len(units), len(vintages), horizon_months, months)


@dataclass(frozen=True)
class CostSchedule:
    """The schedule's rows (see the module docstring) for `n_units` units and `n_vintages` card vintages
    over `months` months (month 1 … the last month any row pays in; at least the horizon + 1, when the
    resale credit of cards still in service is counted)."""

    rows: pd.DataFrame
    n_units: int
    n_vintages: int
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

    def col(self, name: str) -> np.ndarray:
        """A column of `rows` as an array, read once (the model and the reductions ask for the same few)."""
        return cached_column(self, self.rows, name)

    def _mask(self, driver: str, category: str | None = None) -> np.ndarray:
        """[rows] True for the rows of `driver` (and `category`); cached per pair, so callers only read it."""
        masks = self.__dict__.setdefault("_masks", {})
        if (driver, category) not in masks:
            mask = self.col("driver") == driver
            if category is not None:
                mask &= self.col("category") == category
            masks[driver, category] = mask
        return masks[driver, category]

    def _keys(self, driver: str) -> int:
        if driver == "site":   # one key per site epoch (site_epochs)
            return self.n_site_epochs
        return self.n_vintages if driver in VINTAGE_DRIVERS else self.n_units

    @cached_property
    def site_months(self) -> tuple[np.ndarray, np.ndarray]:
        """(first month, last month) of each site epoch, in key order (both empty without a site cost)."""
        mask = self._mask("site")
        order = np.argsort(self.col("key")[mask], kind="stable")
        return self.col("first_month")[mask][order], self.col("last_month")[mask][order]

    @property
    def n_site_epochs(self) -> int:
        """The keys of the `site` driver: the fleet epochs some card can serve in (0 without a site cost)."""
        return len(self.site_months[0])

    def per_key(self, values: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
        """Row `values` (1-D, or rows × k) of the rows in `mask` summed per decision key: [n] or [n × k]."""
        out = np.zeros((n,) + values.shape[1:])
        np.add.at(out, self.col("key")[mask], values[mask])
        return out

    def totals(self, driver: str, category: str | None = None) -> np.ndarray:
        """Nominal money per unit of each `driver` decision over all months (e.g. capex per card bought
        in each vintage): [units] or [vintages]."""
        return self.per_key(self.amounts.sum(axis=1), self._mask(driver, category), self._keys(driver))

    def present_values(self, driver: str, discount: np.ndarray, category: str | None = None) -> np.ndarray:
        """Present value per unit of each `driver` decision, its months discounted: [units] or [vintages]."""
        return self.per_key(self.amounts @ discount[:self.months], self._mask(driver, category), self._keys(driver))

    def busy_rate(self) -> np.ndarray:
        """[units] money per unit-hour worked in month 1 (busy rates are flat over the horizon)."""
        return self.per_key(self.amounts[:, 0], self._mask("busy"), self.n_units)

    def busy_present_values(self, periods: pd.DataFrame, discount: np.ndarray) -> dict[str, np.ndarray]:
        """category -> [units × periods] present value of one unit working through period p's hours
        (its `slot_hours` in each of its months), for the categories busy hours are priced in."""
        mask = self._mask("busy")
        in_period = period_months(periods, self.months)                       # [months × periods]
        per_row = np.zeros((len(self.rows), len(periods)))
        per_row[mask] = (self.amounts[mask] * discount[:self.months]) @ in_period * periods["slot_hours"].to_numpy()
        category = self.col("category")
        return {c: self.per_key(per_row, mask & (category == c), self.n_units) for c in dict.fromkeys(category[mask])}

    def take(self, keep: np.ndarray) -> CostSchedule:
        """The schedule of the units in `keep` (a boolean mask over units), renumbered as they are.
        Card units are never dropped (their vintages keep their keys)."""
        unit = self.col("unit").astype(np.int64, copy=False)
        site = unit == SITE
        own = np.where(site, 0, unit)
        kept = site | (keep[own] if len(keep) else False)
        new_index = np.cumsum(keep) - 1
        rows = take_rows(self.rows, np.flatnonzero(kept))   # take: a boolean mask costs more
        rows["unit"] = np.where(site, SITE, new_index[own] if len(keep) else SITE)[kept]
        by_unit = np.isin(self.col("driver")[kept], UNIT_DRIVERS)
        rows["key"] = np.where(by_unit, rows["unit"].to_numpy(), self.col("key")[kept])
        return CostSchedule(rows, int(keep.sum()), self.n_vintages, self.horizon_months, self.months)


def period_months(periods: pd.DataFrame, months: int) -> np.ndarray:
    """[months × periods] 1 where month m (row m−1) belongs to period p."""
    out = np.zeros((months, len(periods)))
    for p, ms in enumerate(periods["months"]):
        out[np.asarray(ms) - 1, p] = 1.0
    return out


def cash_flows(schedule: CostSchedule, decisions: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(money, quantity) [rows × months]: each schedule row times its driver's solved decision —
    `decisions` maps held [units], buy/keep/off/sell [vintages], busy [units × months] (hours) and site
    [site epochs] (0 or 1) to values."""
    rows = schedule.rows
    key = rows["key"].to_numpy()
    driver = rows["driver"].to_numpy()
    qty = np.zeros((len(rows), schedule.months))
    for name, values in decisions.items():
        sel = driver == name
        if not sel.any():
            continue
        values = np.asarray(values, dtype=float)
        if name == "busy":
            qty[sel] = values[key[sel]]
        else:
            qty[sel] = values[key[sel], None]
    return schedule.amounts * qty, schedule.active * rows["quantity"].to_numpy(dtype=float)[:, None] * qty


def flows_table(schedule: CostSchedule, units: pd.DataFrame, money: np.ndarray, quantity: np.ndarray,
                discount: np.ndarray) -> pd.DataFrame:
    """The plan's cash flows, one row per schedule row and month with money or quantity in it.

    Months past the horizon (a reservation's fees for the rest of its term) keep a row each, discounted
    in their own month, so `present_value` is `cost` × `discount_factor` on every row; the monthly table
    sums them into its row H+1 (readback.monthly_table). Columns: unit (index into `units`; -1 = site),
    unit_id, kind, provider, region, sku, gpu, purchase_option, category, pricing_unit, charge, month,
    cost (nominal), present_value, discount_factor, pricing_quantity.
    """
    pv = money * discount[:schedule.months]
    r, m = np.nonzero((money != 0) | (quantity != 0))
    rows = schedule.rows
    unit = rows["unit"].to_numpy()[r]
    own = np.where(unit == SITE, 0, unit)
    out = {"unit": unit}   # the frame is built once from arrays: adding columns one by one copies it each time
    for col in ("unit_id", "kind", "provider", "region", "sku", "gpu", "purchase_option"):
        values = units[col].to_numpy(dtype=object)[own] if len(units) else np.full(len(unit), "", dtype=object)
        out[col] = np.where(unit == SITE, SITE_LABELS.get(col, ""), values)
    for col in ("category", "pricing_unit", "charge"):
        out[col] = rows[col].to_numpy()[r]
    out.update(month=m + 1, cost=money[r, m], present_value=pv[r, m], discount_factor=discount[m],
               pricing_quantity=quantity[r, m])
    return pd.DataFrame(out)


def continuous_cost_per_work(schedule: CostSchedule, kind: np.ndarray, work: np.ndarray) -> np.ndarray:
    """[units × workloads] money per reference-GPU-hour of work from each on-demand or spot unit
    (inf where it cannot serve the workload)."""
    cont = np.isin(kind, ("on_demand", "spot"))[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = schedule.busy_rate()[:, None] / work
    return np.where(cont & (work > 0), cost, math.inf)
