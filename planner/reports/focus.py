"""FinOps FOCUS 1.0 cost rows of a plan: one row per offer (or the site), kind of charge and month.

The rows are groups of the plan's cash flows (`Plan.flows`: the cost schedule times the solved
decisions), so every amount is exact per offer and month. docs/focus.md says what each column holds,
how the export passes the FinOps Foundation's `focus-validator` 1.0.0, and what a FOCUS 1.2/1.3
consumer sees differently. In short:

- One row per charge period of one calendar month: month m runs from `start + (m − 1)` months to
  `start + m` months (`start`: the plan start, the first day of a month). Months 1..H are the
  horizon; the resale credit of the cards still working falls in month H+1, and a reservation term
  that runs past the horizon has one row for each of its months after it.
- `BilledCost`: the money paid in that month (nominal). `EffectiveCost`: amortised cost — equal to
  `BilledCost`, except that a reservation's payments (its upfront price and monthly fee, Purchase rows
  with `EffectiveCost` 0) are spread evenly over the months of their term on the reservation's
  committed-usage rows (`PricingCategory` Committed, `BilledCost` 0, the CommitmentDiscount columns).
  Σ EffectiveCost = Σ BilledCost. `x_PresentValue`: `BilledCost` × the month's discount factor, so
  Σ x_PresentValue = the plan total (what `EffectiveCost` held before).
- `ListCost` / `ListUnitPrice`: for spot and reserved instances, the on-demand price of the same
  instance type in the same region (the offers' `list_hourly_price`, from the whole price source), so
  the saving shows; else the price paid.
- `PricingUnit` in FOCUS's unit format: Units, Unit-Months, kWh, kW-Months, Hours, Months.
- Five columns carry the names `focus-validator` 1.0.0 checks for FOCUS 1.0 where they differ from the
  published 1.0 specification: `ChargeType`, `InvoiceIssuer`, `Provider`, `Publisher`, `ResourceID`.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from planner.engine import Plan
from planner.engine.result import held
from planner.fileio import write_atomic
from planner.months import HOURS_PER_MONTH, discount_factors
from planner.reports.flows import KEY, discount_rate_of, grouped_flows
from planner.reports.tables import add_months, check_export_path, csv_text, plan_start, require_plan
from pricing_adapters import registry

FOCUS_COLUMNS = [
    "AvailabilityZone", "BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency",
    "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription",
    "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory",
    "CommitmentDiscountId", "CommitmentDiscountName", "CommitmentDiscountStatus", "CommitmentDiscountType",
    "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "ContractedUnitPrice", "EffectiveCost",
    "InvoiceIssuerName", "ListCost", "ListUnitPrice", "PricingCategory", "PricingQuantity", "PricingUnit",
    "ProviderName", "PublisherName", "RegionId", "RegionName", "ResourceName", "ResourceType",
    "ServiceCategory", "ServiceName", "SkuId", "SkuPriceId", "SubAccountId", "SubAccountName", "Tags",
    # focus-validator 1.0.0 checks these names for FOCUS 1.0 (draft names; the published 1.0 has
    # ChargeCategory, InvoiceIssuerName, ProviderName, PublisherName and ResourceId): see docs/focus.md
    "ChargeType", "InvoiceIssuer", "Provider", "Publisher", "ResourceID",
    "x_Scenario", "x_PriceAsOf", "x_CostCategory", "x_PlanMonth", "x_DiscountFactor", "x_PresentValue",
    "x_PurchaseOption", "x_Gpu",
]
CHARGE_FREQUENCY = {"one_time": "One-Time", "recurring": "Recurring", "usage": "Usage-Based"}
# FOCUS unit format: plural units, or <singular unit>-<plural time units>; capitalised as FOCUS lists them
PRICING_UNIT = {"Unit-months": "Unit-Months", "kW-months": "kW-Months", "hours": "Hours", "months": "Months",
                "units": "Units"}
# FOCUS ServiceName of each provider's offers (the service the GPU instances are sold under)
SERVICE_NAME = {"aws": "Amazon Elastic Compute Cloud", "azure": "Virtual Machines",
                "onprem": "On-premises GPU servers"}
RESOURCE_TYPE = {"card": "GPU server", "site": "Site", "on_demand": "Virtual Machine", "spot": "Virtual Machine",
                 "reserved": "Virtual Machine"}
# the cost categories whose amount comes from the offer's own price (a card's price, an instance's hourly price,
# upfront or fee): they carry its date. Energy, colocation and the site's fixed costs are priced by the scenario's
# own inputs (electricity_per_kwh, colocation_per_kw_month, fixed_onprem_per_month), which have no date.
PRICED_BY_OFFER = ("capex", "residual_value", "maintenance", "cloud_reserved", "cloud_on_demand", "cloud_spot")


def _stamp(d: date) -> str:
    return f"{d.isoformat()}T00:00:00Z"


def plan_to_focus(plan: Plan, path: str | Path | None = None, start: str | date | None = None) -> pd.DataFrame:
    """FOCUS 1.0 cost rows (see the module docstring and docs/focus.md): Σ BilledCost = Σ EffectiveCost =
    the plan's nominal money, Σ x_PresentValue = `plan.total`. Written as CSV (atomically; `csv_text`: no
    field starts a formula) when `path` is given."""
    require_plan(plan, "plan_to_focus (to_focus)")
    target = check_export_path(plan, path, "focus.csv", "plan_to_focus (to_focus)")
    charges = grouped_flows(plan)
    charges["effective"] = np.where(charges["kind"] == "reserved", 0.0, charges["cost"])
    charges["usage_status"] = None
    usage = _committed_usage(charges, plan)
    rows = pd.concat([charges, usage], ignore_index=True) if len(usage) else charges
    rows = _commitment_terms(rows, plan)
    out = _focus_columns(rows, plan, plan_start(start, plan.scenario))
    out = out.sort_values("x_PlanMonth", kind="stable").reset_index(drop=True)
    if target is not None:
        write_atomic(target, csv_text(out))
    return out


def _term_months(plan: Plan) -> dict:
    offers = held(plan, "offers")
    return dict(zip(offers["unit_id"], offers["term_months"].fillna(0).astype(int)))


def _committed_usage(charges: pd.DataFrame, plan: Plan) -> pd.DataFrame:
    """Per reservation and month of its terms, the instance-hours it holds: `EffectiveCost` its term's
    payments ÷ the term's months, `BilledCost` 0. Used in the horizon's months in the share of its hours
    the plan works (the plan's hours are totals over the horizon, so one share for all months), Unused
    for the rest and after the horizon, where the plan has no work."""
    reserved = charges[charges["kind"] == "reserved"]
    if reserved.empty:
        return pd.DataFrame()
    terms, H = _term_months(plan), plan.horizon_months
    fleet = held(plan, "fleet").set_index("unit_id")
    parts = []
    for unit_id, paid in reserved.groupby("unit_id", sort=False):
        term, units = terms[unit_id], float(fleet.loc[unit_id, "units"])
        last = int(paid["month"].max() + term - 1) // term * term
        months = np.arange(1, last + 1)
        per_term = paid.groupby((paid["month"] - 1) // term)["cost"].sum()
        effective = per_term.reindex((months - 1) // term, fill_value=0.0).to_numpy() / term
        hours = units * HOURS_PER_MONTH
        used_share = min(1.0, float(fleet.loc[unit_id, "instance_hours"]) / (hours * H)) if H else 0.0
        share = np.where(months <= H, used_share, 0.0)
        first = paid.iloc[0]
        for status, s in (("Used", share), ("Unused", 1.0 - share)):
            keep = s > 1e-12
            parts.append(pd.DataFrame({
                **{c: first[c] for c in KEY}, "month": months[keep], "pricing_unit": "Hours", "charge": "usage",
                "cost": 0.0, "present_value": 0.0, "quantity": hours * s[keep], "effective": effective[keep] * s[keep],
                "discount_factor": discount_factors(discount_rate_of(plan), last)[months[keep] - 1],
                "usage_status": status}))
    return pd.concat(parts, ignore_index=True)


def _commitment_terms(rows: pd.DataFrame, plan: Plan) -> pd.DataFrame:
    """Each reservation term is one commitment: its id, name, type and category on its rows."""
    rows = rows.assign(commitment_id=None, commitment_name=None, commitment_type=None, commitment_category=None)
    res = rows["kind"] == "reserved"
    if not res.any():
        return rows
    r = rows[res]
    term = r["unit_id"].map(_term_months(plan)).astype(int)
    k = (r["month"].astype(int) - 1) // term
    first, last = k * term + 1, (k + 1) * term
    savings_plan = r["purchase_option"].str.startswith("savings_plan")
    rows.loc[res, "commitment_id"] = r["unit_id"] + ":term" + (k + 1).astype(str)
    rows.loc[res, "commitment_name"] = (r["sku"] + " " + r["purchase_option"] + ", months " + first.astype(str) + "–"
                                        + last.astype(str))
    rows.loc[res, "commitment_type"] = np.where(savings_plan, "Savings Plan", "Reservation")
    rows.loc[res, "commitment_category"] = np.where(savings_plan, "Spend", "Usage")
    return rows


def _list_hourly(plan: Plan) -> dict:
    """unit_id -> the on-demand hourly price of the same instance type and region, for the spot and
    reserved units: the offers' `list_hourly_price`, or for a plan saved before it existed, the on-demand
    offers the plan carries."""
    offers = held(plan, "offers")
    if "list_hourly_price" in offers:
        return dict(zip(offers["unit_id"], offers["list_hourly_price"]))
    on_demand = offers[offers["purchase_option"] == "on_demand"]
    price = dict(zip(zip(on_demand["provider"], on_demand["region"], on_demand["sku"]), on_demand["hourly_price"]))
    return {u: price.get((p, r, s)) for u, p, r, s in zip(offers["unit_id"], offers["provider"], offers["region"],
                                                          offers["sku"])}


def _category(rows: pd.DataFrame) -> pd.Series:
    credit = rows["category"] == "residual_value"
    purchase = (rows["category"] == "capex") | ((rows["kind"] == "reserved") & rows["usage_status"].isna())
    return pd.Series(np.where(credit, "Credit", np.where(purchase, "Purchase", "Usage")), index=rows.index)


def _pricing_category(rows: pd.DataFrame, charge_category: pd.Series) -> pd.Series:
    out = np.where(rows["usage_status"].notna(), "Committed",
                   np.where(rows["kind"] == "spot", "Dynamic", "Standard"))
    return pd.Series(out, index=rows.index).where(charge_category != "Credit")


def _list_cost(rows: pd.DataFrame, plan: Plan) -> tuple[pd.Series, pd.Series]:
    """(ListUnitPrice, ListCost): the on-demand price for spot and committed hours when known, else the
    price paid (the effective price of committed hours)."""
    paid = rows["cost"].where(rows["usage_status"].isna(), rows["effective"])
    with np.errstate(divide="ignore", invalid="ignore"):
        paid_unit = (paid / rows["quantity"]).where(rows["quantity"] > 0)
    hourly = rows["unit_id"].map(_list_hourly(plan)).astype(float)
    listed = hourly.notna() & rows["kind"].isin(["spot", "reserved"]) & (rows["pricing_unit"] == "Hours")
    unit_price = hourly.where(listed, paid_unit)
    return unit_price, (hourly * rows["quantity"]).where(listed, paid)


def _description(rows: pd.DataFrame, H: int) -> pd.Series:
    site = rows["unit_id"] == "site"
    text = rows["sku"] + " " + rows["category"].str.replace("_", " ")
    status = rows["usage_status"].map(lambda s: f" (committed hours, {s.lower()})" if isinstance(s, str) else "")
    text = text + status.astype(str)
    text = text.where(~site, "fixed on-prem costs (staff, space)")
    return text.where(rows["month"] <= H, text + " (after the horizon)")


def _price_as_of(rows: pd.DataFrame, plan: Plan) -> pd.Series:
    """x_PriceAsOf: the date of the offer price a row's amount comes from (PRICED_BY_OFFER); null (an empty CSV
    field, as FOCUS writes a missing value) when that price is undated or the row is priced by scenario inputs.
    Never another price's date: the newest date of the plan's prices would date a price nobody dated."""
    offers = held(plan, "offers")
    dated = {u: d for u, d in zip(offers["unit_id"], offers["as_of"]) if isinstance(d, str) and d.strip()}
    return rows["unit_id"].map(dated).where(rows["category"].isin(PRICED_BY_OFFER))


def _zone(rows: pd.DataFrame, plan: Plan) -> pd.Series:
    """AvailabilityZone: the zone the offer's price was quoted in (a spot price's, the plan's offers `zone`), null
    where the offers name none (cards, the site, on-demand and reserved rows, a plan read before offers had zones)."""
    offers = held(plan, "offers")
    if "zone" not in offers:
        return pd.Series(None, index=rows.index, dtype=object)
    zoned = {u: z for u, z in zip(offers["unit_id"], offers["zone"]) if isinstance(z, str) and z.strip()}
    return rows["unit_id"].map(zoned)


def _focus_columns(rows: pd.DataFrame, plan: Plan, t0: date) -> pd.DataFrame:
    H = plan.horizon_months
    names = {p.name: p.focus_name for p in registry.providers()}
    provider = rows["provider"].map(lambda p: names.get(p, p))
    months = range(1, int(rows["month"].max()) + 2) if len(rows) else range(0)
    starts = {m: _stamp(add_months(t0, m - 1)) for m in months}
    period_start, period_end = rows["month"].map(starts), (rows["month"] + 1).map(starts)
    charge_category = _category(rows)
    usage = charge_category == "Usage"
    unit = rows["pricing_unit"].map(lambda u: PRICING_UNIT.get(u, u))
    list_unit_price, list_cost = _list_cost(rows, plan)
    paid = rows["cost"].where(rows["usage_status"].isna(), rows["effective"])
    with np.errstate(divide="ignore", invalid="ignore"):
        paid_unit = (paid / rows["quantity"]).where(rows["quantity"] > 0)
    cloud = rows["provider"] != "onprem"
    effective = rows["effective"].where(charge_category != "Credit", rows["cost"])
    sku_price = rows["unit_id"] + ":" + rows["category"]
    out = pd.DataFrame({
        "AvailabilityZone": _zone(rows, plan), "BilledCost": rows["cost"], "BillingAccountId": rows["provider"],
        "BillingAccountName": plan.scenario_name, "BillingCurrency": plan.currency,
        "BillingPeriodEnd": period_end, "BillingPeriodStart": period_start,
        "ChargeCategory": charge_category, "ChargeClass": None, "ChargeDescription": _description(rows, H),
        "ChargeFrequency": rows["charge"].map(CHARGE_FREQUENCY),
        "ChargePeriodEnd": period_end, "ChargePeriodStart": period_start,
        "CommitmentDiscountCategory": rows["commitment_category"], "CommitmentDiscountId": rows["commitment_id"],
        "CommitmentDiscountName": rows["commitment_name"], "CommitmentDiscountStatus": rows["usage_status"],
        "CommitmentDiscountType": rows["commitment_type"],
        "ConsumedQuantity": rows["quantity"].where(usage), "ConsumedUnit": unit.where(usage),
        # no negotiated discounts: the contracted price is the list price, but for spot (its market price)
        "ContractedCost": list_cost.where(rows["kind"] != "spot", paid),
        "ContractedUnitPrice": list_unit_price.where(rows["kind"] != "spot", paid_unit),
        "EffectiveCost": effective, "InvoiceIssuerName": provider,
        "ListCost": list_cost, "ListUnitPrice": list_unit_price,
        "PricingCategory": _pricing_category(rows, charge_category),
        "PricingQuantity": rows["quantity"], "PricingUnit": unit,
        "ProviderName": provider, "PublisherName": provider,
        "RegionId": rows["region"].where(cloud), "RegionName": rows["region"].where(cloud),
        "ResourceName": rows["sku"], "ResourceType": rows["kind"].map(RESOURCE_TYPE),
        "ServiceCategory": "Compute",
        "ServiceName": rows["provider"].map(lambda p: SERVICE_NAME.get(p, f"{names.get(p, p)} compute")),
        "SkuId": rows["sku"], "SkuPriceId": sku_price, "SubAccountId": None, "SubAccountName": None, "Tags": None,
        "ChargeType": charge_category, "InvoiceIssuer": provider, "Provider": provider, "Publisher": provider,
        "ResourceID": rows["commitment_id"].where(charge_category == "Purchase").fillna(rows["unit_id"]),
        "x_Scenario": plan.scenario_name,
        "x_PriceAsOf": _price_as_of(rows, plan),
        "x_CostCategory": rows["category"], "x_PlanMonth": rows["month"],
        "x_DiscountFactor": rows["discount_factor"], "x_PresentValue": rows["present_value"],
        "x_PurchaseOption": rows["purchase_option"], "x_Gpu": rows["gpu"],
    }, columns=FOCUS_COLUMNS)
    return out
