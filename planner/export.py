"""Plan exports: JSON (the object of `fleetplan plan --format json`, DESIGN section 8), CSV, XLSX,
FinOps FOCUS-shaped cost rows and a one-page Markdown summary.

Every `path=` argument writes atomically (`planner.fileio.write_atomic`: a temporary file in the same
folder, then a rename); XLSX is built in memory first, so a failure never leaves a half-written file.
Functions taking `scenario=None` use `plan.scenario` (set by `planner.plan`) when it is not given; the
assumptions sheet and the per-offer prices need it, everything else works from the Plan alone.

FOCUS rows (`plan_to_focus`)
----------------------------
One row per offer (fleet row), month and cost category with a non-zero amount, plus one `site` row per
month for `fixed_onprem`. Months 1..H, and H+1 for what falls after the horizon (the residual credit,
reservation terms that run past the horizon — their H+1 row spans all of those months' payments).

- `BilledCost`: nominal money of that month (what is paid then); `ListCost` equals it (the plan models
  no list-price discounts). `EffectiveCost`: the present value, `BilledCost × discount factor of the
  month` (month H+1: the present value of the after-horizon payments as the plan computed it), so
  that Σ EffectiveCost = the plan total. This departs from FOCUS, where EffectiveCost is amortised cost;
  with `discount_rate: 0` the two columns agree.
- Splitting a month's category amount among offers: the Plan's monthly table is per category, not per
  offer, so each month's amount of a category is split among the offers of that category in fixed
  proportions (the last offer gets the remainder, so the split sums exactly):
  capex ∝ new units × capex per unit; residual_value ∝ new units × capex × residual share;
  maintenance ∝ units × capex × maintenance rate; energy ∝ the card's energy (kWh) over the horizon;
  colocation ∝ units × busy watts; cloud_on_demand, cloud_spot, cloud_reserved ∝ the offer's cost in
  the fleet table. With one offer per category the split is exact; with several, each offer's total
  over the months is exact for every category except energy (exact only undiscounted) and the timing
  within the horizon follows the category's monthly shape.
- `PricingQuantity` is split the same way: new units (capex, residual), units (maintenance,
  reservations: unit-months), kWh (energy, from the card's kWh in proportion to its monthly energy
  money), kW (colocation: kW-months), instance-hours (on-demand, spot), 1 month (fixed_onprem).
- `ChargePeriodStart`/`End`: month m runs from `start + (m − 1)` months to `start + m` months, where
  `start` is the plan start (first day of a month; default the first day of next month).
"""

from __future__ import annotations

import io
import json
import math
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from planner.errors import PlannerError
from planner.fileio import write_atomic
from planner.result import COST_CATEGORIES, Plan


def _clean(value):
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if hasattr(value, "item"):
        return _clean(value.item())
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def records(df: pd.DataFrame) -> list[dict]:
    """DataFrame rows as JSON-ready dicts (NaN and inf → null)."""
    return [_clean(row) for row in df.to_dict(orient="records")]


def plan_to_dict(plan: Plan) -> dict:
    """One JSON-ready object: status, currency, horizon, total, costs by category (credits negative,
    summing to total), fleet, monthly, baselines, break_even, utilisation, energy, solver, prices."""
    return _clean({
        "scenario": plan.scenario_name,
        "status": plan.status,
        "currency": plan.currency,
        "horizon_months": plan.horizon_months,
        "total": plan.total,
        "costs": dict(zip(plan.costs["category"], plan.costs["cost"])),
        "fleet": records(plan.fleet),
        "monthly": records(plan.monthly),
        "baselines": records(plan.baselines),
        "break_even": records(plan.break_even),
        "utilisation": records(plan.utilisation),
        "energy_kwh": plan.energy_kwh,
        "excluded_offers": records(plan.exclusions),
        "solver": plan.solver,
        "prices": plan.prices,
    })


def _scenario(plan: Plan, scenario=None):
    return scenario if scenario is not None else getattr(plan, "scenario", None)


def _maybe_write(path, data):
    if path is not None:
        write_atomic(path, data)
    return data


# ---------------------------------------------------------------------------------------------------
# JSON and CSV


def plan_to_json(plan: Plan, path: str | Path | None = None) -> str:
    """The plan as JSON text (the `--format json` object); written atomically when `path` is given."""
    return _maybe_write(path, json.dumps(plan_to_dict(plan), indent=2) + "\n")


def plan_to_csv(plan: Plan, path: str | Path | None = None, table: str = "fleet") -> str:
    """One table of the plan as CSV text: fleet (default), monthly, costs, baselines, break_even,
    utilisation."""
    tables = {"fleet": plan.fleet, "monthly": plan.monthly, "costs": plan.costs, "baselines": plan.baselines,
              "break_even": plan.break_even, "utilisation": plan.utilisation}
    if table not in tables:
        raise PlannerError(f"unknown table {table!r}; one of {', '.join(tables)}")
    return _maybe_write(path, tables[table].to_csv(index=False, lineterminator="\n"))


# ---------------------------------------------------------------------------------------------------
# Plan start and months


def plan_start(start: str | date | None = None, scenario=None, today: date | None = None) -> date:
    """The first day of the plan's month 1: `start` (YYYY-MM or a date), else the scenario's `start`
    if it has one, else the first day of the month after `today`."""
    start = start if start is not None else getattr(scenario, "start", None) if scenario is not None else None
    if start is None:
        today = today or date.today()
        return date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    if isinstance(start, date):
        return start.replace(day=1)
    text = str(start).strip()
    try:
        year, month = (int(x) for x in text.split("-")[:2])
        return date(year, month, 1)
    except ValueError:
        raise PlannerError(f"plan start {text!r}: expected YYYY-MM, e.g. 2026-01") from None


def _add_months(d: date, months: int) -> date:
    k = d.year * 12 + d.month - 1 + months
    return date(k // 12, k % 12 + 1, 1)


def _stamp(d: date) -> str:
    return f"{d.isoformat()}T00:00:00Z"


# ---------------------------------------------------------------------------------------------------
# Prices used and assumptions


def prices_used(plan: Plan, scenario=None) -> pd.DataFrame:
    """The unit prices behind each fleet row (scenario currency): cloud hourly and upfront prices and
    terms from the price source; for cards the capex per new unit and the watts, life and maintenance
    rate used. Without the scenario: the plan's price source and as-of date only."""
    s = _scenario(plan, scenario)
    cols = ["provider", "region", "sku", "gpu", "purchase_option", "hourly_price", "upfront_price",
            "term_months", "capex_per_unit", "busy_watts", "idle_watts", "life_years",
            "maintenance_rate_per_year", "currency", "as_of", "source"]
    if s is None:
        return pd.DataFrame([{"provider": "(all cloud)", "source": plan.prices.get("source"),
                              "as_of": plan.prices.get("as_of"), "currency": plan.currency}], columns=cols)
    from planner import catalog

    rows = []
    fleet = plan.fleet
    cloud_keys = fleet.loc[fleet["provider"] != "onprem", ["provider", "region", "sku", "purchase_option"]]
    if len(cloud_keys):
        offers = catalog.cloud_offers(s)
        hit = offers.merge(cloud_keys.drop_duplicates(), on=["provider", "region", "sku", "purchase_option"])
        for o in hit.itertuples(index=False):
            rows.append({"provider": o.provider, "region": o.region, "sku": o.sku, "gpu": o.gpu,
                         "purchase_option": o.purchase_option, "hourly_price": o.hourly_price,
                         "upfront_price": o.upfront_price, "term_months": o.term_months,
                         "currency": s.currency, "as_of": o.as_of, "source": o.source})
    if (fleet["provider"] == "onprem").any():
        cards = catalog.site_cards(s).set_index("card_id")
        for sku in fleet.loc[fleet["provider"] == "onprem", "sku"]:
            c = cards.loc[sku]
            rows.append({"provider": "onprem", "region": "onprem", "sku": sku, "gpu": c.gpu,
                         "purchase_option": "purchase", "capex_per_unit": c.capex, "busy_watts": c.busy_watts,
                         "idle_watts": c.idle_watts, "life_years": c.life_years,
                         "maintenance_rate_per_year": c.maintenance_rate_per_year, "currency": s.currency,
                         "as_of": c.as_of, "source": c.source})
    return pd.DataFrame(rows, columns=cols)


def assumptions(plan: Plan, scenario=None) -> pd.DataFrame:
    """The scenario flattened to path/value rows (workloads by name), as override paths."""
    s = _scenario(plan, scenario)
    if s is None:
        return pd.DataFrame({"path": ["(scenario not attached to this plan)"], "value": [plan.scenario_name]})
    from planner.api import flatten_scenario

    return flatten_scenario(s)


def summary_table(plan: Plan, start: date | None = None) -> pd.DataFrame:
    """field/value rows: the plan's headline figures. `total` is the plan total (present value)."""
    rows: list[tuple[str, Any]] = [
        ("scenario", plan.scenario_name), ("status", plan.status), ("currency", plan.currency),
        ("horizon_months", plan.horizon_months), ("total", float(plan.total))]
    if start is not None:
        rows.append(("plan_start", start.isoformat()))
    rows += [(f"cost.{c}", float(v)) for c, v in zip(plan.costs["category"], plan.costs["cost"])]
    for b in plan.baselines.itertuples(index=False) if len(plan.baselines) else ():
        rows.append((f"baseline.{b.baseline}.total", None if b.total != b.total else float(b.total)))
        rows.append((f"baseline.{b.baseline}.savings", None if b.savings != b.savings else float(b.savings)))
    rows += [("energy_kwh", plan.energy_kwh), ("prices.source", plan.prices.get("source")),
             ("prices.as_of", plan.prices.get("as_of")), ("solver", plan.solver.get("name")),
             ("solver.status", plan.solver.get("status")), ("solver.gap", plan.solver.get("gap")),
             ("solver.seconds", plan.solver.get("seconds"))]
    return pd.DataFrame(rows, columns=["field", "value"])


# ---------------------------------------------------------------------------------------------------
# XLSX

SHEETS = ("summary", "fleet", "monthly", "baselines", "break-even", "assumptions", "prices used")


def plan_to_excel(plan: Plan, path: str | Path | None = None, scenario=None,
                  start: str | date | None = None) -> bytes:
    """The plan as an XLSX workbook (bytes) with the sheets of `SHEETS`; written atomically when
    `path` is given (built in memory first: a failure leaves any old file as it was)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    s = _scenario(plan, scenario)
    tables = {
        "summary": summary_table(plan, plan_start(start, s)),
        "fleet": plan.fleet, "monthly": plan.monthly, "baselines": plan.baselines,
        "break-even": plan.break_even, "assumptions": assumptions(plan, s),
        "prices used": prices_used(plan, s),
    }
    wb = Workbook()
    wb.remove(wb.active)
    for name in SHEETS:
        _sheet(wb.create_sheet(name), tables[name], Font(bold=True))
    buf = io.BytesIO()
    wb.save(buf)
    return _maybe_write(path, buf.getvalue())


def _cell(v):
    if v is None:
        return None
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) or math.isinf(v) else float(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (dict, list, tuple)):
        return json.dumps(_clean(v))
    return v


def _sheet(ws, df: pd.DataFrame, bold) -> None:
    ws.append([str(c) for c in df.columns])
    for cell in ws[1]:
        cell.font = bold
    for row in df.itertuples(index=False):
        ws.append([_cell(v) for v in row])
    for i, col in enumerate(df.columns, start=1):
        width = max([len(str(col))] + [len(str(v)) for v in df[col].head(200)]) if len(df) else len(str(col))
        ws.column_dimensions[ws.cell(1, i).column_letter].width = min(60, max(8, width + 2))
    ws.freeze_panes = "A2"


# ---------------------------------------------------------------------------------------------------
# FOCUS

FOCUS_COLUMNS = ["BilledCost", "EffectiveCost", "ListCost", "BillingCurrency", "ChargePeriodStart",
                 "ChargePeriodEnd", "ChargeCategory", "ChargeFrequency", "ChargeDescription", "PricingCategory",
                 "ServiceProviderName", "ServiceCategory", "RegionId", "SkuId", "PricingUnit",
                 "PricingQuantity", "x_Scenario", "x_PriceAsOf", "x_CostCategory", "x_PlanMonth",
                 "x_DiscountFactor", "x_PurchaseOption", "x_Gpu"]
PROVIDER_NAMES = {"aws": "AWS", "azure": "Microsoft", "onprem": "On-premises"}
CHARGE_CATEGORY = {"capex": "Purchase", "cloud_reserved": "Purchase", "residual_value": "Credit"}
CHARGE_FREQUENCY = {"capex": "One-Time", "residual_value": "One-Time", "maintenance": "Recurring",
                    "colocation": "Recurring", "fixed_onprem": "Recurring", "cloud_reserved": "Recurring"}
PRICING_UNIT = {"capex": "Units", "residual_value": "Units", "maintenance": "Unit-months", "energy": "kWh",
                "colocation": "kW-months", "fixed_onprem": "Months", "cloud_reserved": "Unit-months",
                "cloud_on_demand": "Hours", "cloud_spot": "Hours"}
CARD_CATEGORIES = ("capex", "residual_value", "maintenance", "energy", "colocation")


def _category_amounts(plan: Plan) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray]:
    """(nominal, present value) per month 1..H+1 and category, and the discount factors.

    Months ≤ H: PV = nominal × discount factor. Month H+1: the residual credit at its factor; the
    reservation payments after the horizon take the rest of the row's present value (they span several
    months, each discounted on its own)."""
    m = plan.monthly.reset_index(drop=True)
    cats = [c for c in COST_CATEGORIES if c in m.columns]
    nominal = m[cats].astype(float).copy()
    df = m["discount_factor"].to_numpy(dtype=float)
    pv = nominal.mul(df, axis=0)
    last = len(m) - 1
    if "cloud_reserved" in cats and nominal.at[last, "cloud_reserved"] != 0:
        others = float(pv.loc[last, [c for c in cats if c != "cloud_reserved"]].sum())
        pv.at[last, "cloud_reserved"] = float(m.at[last, "total_discounted"]) - others
    return nominal, pv, df


def _weights(plan: Plan, scenario) -> dict[str, list[tuple[int, float, float]]]:
    """category → [(fleet row, weight, quantity over the horizon or per month)]."""
    fleet = plan.fleet.reset_index(drop=True)
    H = plan.horizon_months
    cards_info = None
    if scenario is not None and (fleet["provider"] == "onprem").any():
        from planner import catalog

        cards_info = catalog.site_cards(scenario).set_index("card_id")
    kwh = dict(zip(plan.utilisation["card"], plan.utilisation["energy_kwh"])) if len(plan.utilisation) else {}
    out: dict[str, list] = {c: [] for c in COST_CATEGORIES}
    for i, r in fleet.iterrows():
        if r.provider == "onprem":
            units, new = float(r.units), float(r.new_units)
            if cards_info is not None and r.sku in cards_info.index:
                c = cards_info.loc[r.sku]
                capex, rate, watts = float(c.capex), float(c.maintenance_rate_per_year), float(c.busy_watts)
                share = max(0.0, 1.0 - H / (12.0 * float(c.life_years)))
            else:
                capex, rate, watts, share = 1.0, 1.0, 1.0, 1.0
            out["capex"].append((i, new * capex, new))
            out["residual_value"].append((i, new * capex * share, new))
            out["maintenance"].append((i, units * capex * rate, units))
            out["energy"].append((i, float(kwh.get(r.sku, units)), float(kwh.get(r.sku, 0.0))))
            out["colocation"].append((i, units * watts, units * watts / 1000.0))
        elif r.purchase_option == "spot":
            out["cloud_spot"].append((i, float(r.cost), float(r.instance_hours)))
        elif r.units == r.units:        # a reservation: integer units
            out["cloud_reserved"].append((i, float(r.cost), float(r.units)))
        else:
            out["cloud_on_demand"].append((i, float(r.cost), float(r.instance_hours)))
    return out


def plan_to_focus(plan: Plan, path: str | Path | None = None, start: str | date | None = None,
                  scenario=None) -> pd.DataFrame:
    """FinOps FOCUS-shaped cost rows (see the module docstring for exactly how they are built).
    Σ EffectiveCost equals `plan.total`. Written as CSV (atomically) when `path` is given."""
    s = _scenario(plan, scenario)
    t0 = plan_start(start, s)
    nominal, pv, dfac = _category_amounts(plan)
    fleet = plan.fleet.reset_index(drop=True)
    weights = _weights(plan, s)
    as_of = {}
    if s is not None:
        try:
            used = prices_used(plan, s)
            as_of = {(r.provider, r.region, r.sku, r.purchase_option): r.as_of for r in used.itertuples(index=False)}
        except PlannerError:
            as_of = {}
    H1 = len(nominal)
    rows = []
    for c in nominal.columns:
        col_nom, col_pv = nominal[c].to_numpy(), pv[c].to_numpy()
        total_nominal = float(np.abs(col_nom).sum())
        if c == "fixed_onprem" or not weights.get(c):
            shares = [(None, 1.0, 1.0 if c == "fixed_onprem" else 0.0)]
        else:
            wsum = sum(w for _, w, _ in weights[c])
            if wsum <= 0:
                shares = [(i, 1.0 / len(weights[c]), q) for i, _, q in weights[c]]
            else:
                shares = [(i, w / wsum, q) for i, w, q in weights[c] if w > 0]
        for k in range(H1):
            bill, eff = float(col_nom[k]), float(col_pv[k])
            if bill == 0 and eff == 0:
                continue
            left_bill, left_eff = bill, eff
            for n, (i, share, qty) in enumerate(shares):
                lastone = n == len(shares) - 1
                b = left_bill if lastone else bill * share
                e = left_eff if lastone else eff * share
                left_bill -= b
                left_eff -= e
                month_share = abs(col_nom[k]) / total_nominal if total_nominal else 0.0
                if c in ("energy", "cloud_on_demand", "cloud_spot"):
                    quantity = qty * month_share        # horizon quantity in proportion to the month's money
                else:
                    quantity = qty                      # units, unit-months, kW-months, months
                rows.append(_focus_row(plan, s, fleet, i, c, k, b, e, quantity, t0, dfac, as_of))
    out = pd.DataFrame(rows, columns=FOCUS_COLUMNS).sort_values("x_PlanMonth", kind="stable")
    out = out.reset_index(drop=True)
    if path is not None:
        write_atomic(path, out.to_csv(index=False, lineterminator="\n"))
    return out


def _focus_row(plan, s, fleet, i, category, k, billed, effective, quantity, t0, dfac, as_of) -> dict:
    month = k + 1
    if i is None:
        provider, region, sku, option, gpu = "onprem", "onprem", "site", "", ""
        desc = "fixed on-prem costs (staff, space)"
    else:
        r = fleet.loc[i]
        provider, region, sku, option, gpu = r.provider, r.region, r.sku, r.purchase_option, r.gpu
        desc = f"{sku} {category.replace('_', ' ')}"
    if month > plan.horizon_months:
        desc += " (after the horizon)"
    pricing = {"cloud_spot": "Dynamic", "cloud_reserved": "Committed"}.get(category, "Standard")
    return {
        "BilledCost": billed, "EffectiveCost": effective, "ListCost": billed, "BillingCurrency": plan.currency,
        "ChargePeriodStart": _stamp(_add_months(t0, k)), "ChargePeriodEnd": _stamp(_add_months(t0, k + 1)),
        "ChargeCategory": CHARGE_CATEGORY.get(category, "Usage"),
        "ChargeFrequency": CHARGE_FREQUENCY.get(category, "Usage-Based"), "ChargeDescription": desc,
        "PricingCategory": pricing, "ServiceProviderName": PROVIDER_NAMES.get(provider, provider),
        "ServiceCategory": "Compute", "RegionId": region, "SkuId": sku,
        "PricingUnit": PRICING_UNIT[category], "PricingQuantity": quantity,
        "x_Scenario": plan.scenario_name,
        "x_PriceAsOf": as_of.get((provider, region, sku, option)) or plan.prices.get("as_of"),
        "x_CostCategory": category, "x_PlanMonth": month, "x_DiscountFactor": float(dfac[k]),
        "x_PurchaseOption": option, "x_Gpu": gpu,
    }


# ---------------------------------------------------------------------------------------------------
# Markdown


def _md_table(df: pd.DataFrame, digits: int = 0) -> str:
    def fmt(v):
        if isinstance(v, (float, np.floating)):
            return "" if math.isnan(v) else f"{v:,.{digits}f}"
        return str(v).replace("|", "\\|")
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "| " + " | ".join("---:" if pd.api.types.is_numeric_dtype(df[c]) else "---" for c in df.columns) + " |"
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])


def plan_to_markdown(plan: Plan, path: str | Path | None = None, scenario=None) -> str:
    """A one-page summary for a planning review: headline, fleet, cost by category, baselines,
    break-even, key assumptions, solver and prices."""
    s = _scenario(plan, scenario)
    cur = plan.currency
    lines = [f"# {plan.scenario_name}", ""]
    if s is not None and s.description:
        lines += [s.description, ""]
    lines += [f"**Total: {plan.total:,.0f} {cur}** (present value over {plan.horizon_months} months; "
              f"status {plan.status}). Prices: {plan.prices.get('source')} as of {plan.prices.get('as_of')}.", ""]
    if len(plan.baselines):
        b = plan.baselines.set_index("baseline")
        bits = [f"{label}: {row.total:,.0f} {cur} (saves {row.savings:,.0f}, {row.savings_pct:.1f}%)"
                for label, row in b.iterrows() if row.total == row.total]
        if bits:
            lines += ["Against the baselines — " + "; ".join(bits) + ".", ""]
    fleet = plan.fleet[["provider", "region", "sku", "gpu", "purchase_option", "units", "new_units",
                        "instance_hours", "cost"]]
    lines += ["## Fleet", "", _md_table(fleet), "", f"## Cost by category ({cur})", "",
              _md_table(plan.costs[plan.costs["cost"] != 0]), ""]
    if len(plan.baselines):
        lines += [f"## Baselines ({cur})", "",
                  _md_table(plan.baselines[["baseline", "label", "status", "total", "savings"]]), ""]
    if len(plan.utilisation):
        lines += ["## Owned cards", "", _md_table(plan.utilisation[["card", "units", "utilisation", "energy_kwh"]]
                                                   .assign(utilisation=lambda d: d["utilisation"] * 100)
                                                   .rename(columns={"utilisation": "utilisation_pct"})), ""]
    if len(plan.break_even):
        be = plan.break_even[["card", "workload", "break_even_utilisation", "note"]].copy()
        be["break_even_utilisation"] = be["break_even_utilisation"] * 100
        lines += ["## Break-even utilisation (%, owning vs the cheapest cloud offer)", "",
                  _md_table(be.rename(columns={"break_even_utilisation": "break_even_pct"}), digits=1), ""]
    if s is not None:
        key = [("horizon_months", s.horizon_months), ("discount_rate", s.discount_rate),
               ("onprem.electricity_per_kwh", s.onprem.electricity_per_kwh), ("onprem.pue", s.onprem.pue),
               ("onprem.power_cap_kw", s.onprem.power_cap_kw), ("onprem.capex_budget", s.onprem.capex_budget),
               ("constraints.max_cloud_share", s.constraints.max_cloud_share)]
        key += [(f"workloads.{w.name}.gpu_hours_per_month", w.gpu_hours_per_month) for w in s.workloads]
        key += [(f"workloads.{w.name}.growth_per_month", w.growth_per_month) for w in s.workloads]
        lines += ["## Key assumptions", "", "| path | value |", "| --- | ---: |",
                  *[f"| {p} | {'' if v is None else v} |" for p, v in key], ""]
    sv = plan.solver
    lines += [f"Solver {sv.get('name')}: {sv.get('status')}, gap {sv.get('gap')}, {sv.get('seconds')} s.", ""]
    return _maybe_write(path, "\n".join(lines))


# ---------------------------------------------------------------------------------------------------
# All files of `fleetplan plan --out DIR`

OUT_FILES = ("plan.json", "fleet.csv", "monthly.csv", "plan.xlsx", "focus.csv", "summary.md")


def write_plan_files(plan: Plan, out_dir: str | Path, start: str | date | None = None,
                     scenario=None) -> list[Path]:
    """Write plan.json, fleet.csv, monthly.csv, plan.xlsx, focus.csv and summary.md into `out_dir`.
    Every file is built in memory first, then each is written atomically."""
    out_dir = Path(out_dir)
    s = _scenario(plan, scenario)
    contents = {
        "plan.json": plan_to_json(plan),
        "fleet.csv": plan_to_csv(plan, table="fleet"),
        "monthly.csv": plan_to_csv(plan, table="monthly"),
        "plan.xlsx": plan_to_excel(plan, scenario=s, start=start),
        "focus.csv": plan_to_focus(plan, start=start, scenario=s).to_csv(index=False, lineterminator="\n"),
        "summary.md": plan_to_markdown(plan, scenario=s),
    }
    return [write_atomic(out_dir / name, contents[name]) for name in OUT_FILES]
