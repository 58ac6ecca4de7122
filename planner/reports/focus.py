"""FinOps FOCUS-shaped cost rows of a plan, one per offer (or the site), cash-flow kind and month.

Each row is a group of the plan's cash flows (`Plan.flows`: the cost schedule times the solved
decisions), so every amount is exact per offer and month. Months 1..H, and H+1 for what falls after
the horizon (the residual credit, and reservation terms that run past the horizon — their H+1 row
holds all of those months' payments).

- `BilledCost`: nominal money of that month (what is paid then); `ListCost` equals it (the plan models
  no list-price discounts). `EffectiveCost`: the present value (`BilledCost × discount factor of the
  month`; month H+1: the present value of the after-horizon payments), so Σ EffectiveCost = the plan
  total. This departs from FOCUS, where EffectiveCost is amortised cost; with `discount_rate: 0` the
  two columns agree.
- `PricingQuantity` / `PricingUnit`: new units (capex, residual: Units), unit-months (maintenance,
  a reservation's monthly fee), units (a reservation's upfront payment), kWh (energy: idle and busy
  together), kW-months (colocation), hours (on-demand, spot), months (fixed on-prem costs).
- `ChargePeriodStart`/`End`: month m runs from `start + (m − 1)` months to `start + m` months, where
  `start` is the plan start (first day of a month; default the first day of next month).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd

from planner.engine import Plan
from planner.fileio import write_atomic
from planner.reports.tables import add_months, csv_text, plan_start
from pricing_adapters import registry

FOCUS_COLUMNS = ["BilledCost", "EffectiveCost", "ListCost", "BillingCurrency", "ChargePeriodStart",
                 "ChargePeriodEnd", "ChargeCategory", "ChargeFrequency", "ChargeDescription", "PricingCategory",
                 "ServiceProviderName", "ServiceCategory", "RegionId", "SkuId", "PricingUnit",
                 "PricingQuantity", "x_Scenario", "x_PriceAsOf", "x_CostCategory", "x_PlanMonth",
                 "x_DiscountFactor", "x_PurchaseOption", "x_Gpu"]
CHARGE_CATEGORY = {"capex": "Purchase", "cloud_reserved": "Purchase", "residual_value": "Credit"}
CHARGE_FREQUENCY = {"one_time": "One-Time", "recurring": "Recurring", "usage": "Usage-Based"}
PRICING_CATEGORY = {"cloud_spot": "Dynamic", "cloud_reserved": "Committed"}
KEY = ["unit_id", "provider", "region", "sku", "gpu", "purchase_option", "category", "pricing_unit", "charge",
       "month"]


def _stamp(d: date) -> str:
    return f"{d.isoformat()}T00:00:00Z"


def plan_to_focus(plan: Plan, path: str | Path | None = None, start: str | date | None = None) -> pd.DataFrame:
    """FOCUS-shaped cost rows (see the module docstring). Σ EffectiveCost equals `plan.total`.
    Written as CSV (atomically; `csv_text`: no field starts a formula) when `path` is given."""
    t0 = plan_start(start, plan.scenario)
    flows = plan.flows
    rows = (flows.groupby(KEY, as_index=False, sort=False)
            .agg(cost=("cost", "sum"), present_value=("present_value", "sum"),
                 pricing_quantity=("pricing_quantity", "sum"), discount_factor=("discount_factor", "first")))
    rows = rows[(rows["cost"] != 0) | (rows["present_value"] != 0)]
    as_of = dict(zip(plan.offers["unit_id"], plan.offers["as_of"]))
    names = {p.name: p.focus_name for p in registry.providers()}
    H = plan.horizon_months
    starts = {m: _stamp(add_months(t0, m - 1)) for m in range(1, H + 3)}
    site = rows["unit_id"] == "site"
    desc = (rows["sku"] + " " + rows["category"].str.replace("_", " ")).where(~site, "fixed on-prem costs (staff, space)")
    out = pd.DataFrame({
        "BilledCost": rows["cost"], "EffectiveCost": rows["present_value"], "ListCost": rows["cost"],
        "BillingCurrency": plan.currency,
        "ChargePeriodStart": rows["month"].map(starts), "ChargePeriodEnd": (rows["month"] + 1).map(starts),
        "ChargeCategory": rows["category"].map(CHARGE_CATEGORY).fillna("Usage"),
        "ChargeFrequency": rows["charge"].map(CHARGE_FREQUENCY),
        "ChargeDescription": desc.where(rows["month"] <= H, desc + " (after the horizon)"),
        "PricingCategory": rows["category"].map(PRICING_CATEGORY).fillna("Standard"),
        "ServiceProviderName": rows["provider"].map(lambda p: names.get(p, p)),
        "ServiceCategory": "Compute", "RegionId": rows["region"], "SkuId": rows["sku"],
        "PricingUnit": rows["pricing_unit"], "PricingQuantity": rows["pricing_quantity"],
        "x_Scenario": plan.scenario_name,
        "x_PriceAsOf": rows["unit_id"].map(lambda u: as_of.get(u) or plan.prices.get("as_of")),
        "x_CostCategory": rows["category"], "x_PlanMonth": rows["month"],
        "x_DiscountFactor": rows["discount_factor"], "x_PurchaseOption": rows["purchase_option"],
        "x_Gpu": rows["gpu"],
    }, columns=FOCUS_COLUMNS)
    out = out.sort_values("x_PlanMonth", kind="stable").reset_index(drop=True)
    if path is not None:
        write_atomic(path, csv_text(out))
    return out
