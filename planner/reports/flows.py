"""A plan's cash flows as the exports read them, month by month: summed per offer, category and charge (KEY), and
the months after the horizon, which the flows fold into month H+1, spread again one row a month (a reservation's fees
for the rest of its term). Read by the FOCUS export (reports.focus) and the yearly view (reports.yearly), which the
Markdown summary shows: a module of its own, so that writing summary.md does not load the FOCUS writer."""

from __future__ import annotations

import numpy as np
import pandas as pd

from planner.engine import Plan
from planner.engine.result import held
from planner.months import discount_factors

KEY = ["unit_id", "kind", "provider", "region", "sku", "gpu", "purchase_option", "category", "pricing_unit",
       "charge", "month"]
MONEY_NOISE = 1e-6   # currency units: a flow this small is round-off of the solve


def last_payment_month(plan: Plan) -> int:
    """The last month with money in it, H+1 at least: the flows fold every month after the horizon into
    month H+1, where a reservation's fees for the rest of its term can run several months on."""
    months = one_row_per_month(grouped_flows(plan), plan)["month"]
    return max(plan.horizon_months + 1, int(months.max()) if len(months) else 0)


def grouped_flows(plan: Plan) -> pd.DataFrame:
    """The plan's cash flows summed per KEY (vintages of one card, idle and busy energy together)."""
    rows = (held(plan, "flows").groupby(KEY, as_index=False, sort=False)
            .agg(cost=("cost", "sum"), present_value=("present_value", "sum"),
                 quantity=("pricing_quantity", "sum"), discount_factor=("discount_factor", "first")))
    # a millionth of the currency is solver noise (1.7e-8 hours of an offer the fleet leaves out, 8.5e-9 EUR),
    # not a resource the plan uses: the fleet table drops such a unit too (engine.readback, hours ≤ 1e-6)
    return rows[(rows["cost"].abs() > MONEY_NOISE) | (rows["present_value"].abs() > MONEY_NOISE)].reset_index(drop=True)


def one_row_per_month(rows: pd.DataFrame, plan: Plan) -> pd.DataFrame:
    """The flows fold every month after the horizon into month H+1; a recurring charge there (a
    reservation's monthly fee for the rest of its term) becomes one row per month again: as many months
    as its H+1 quantity holds of its month-H quantity, each an equal share, discounted in its own month."""
    H = plan.horizon_months
    per_month = rows[rows["month"] == H].set_index([c for c in KEY if c != "month"])["quantity"]
    late = (rows["month"] == H + 1) & (rows["charge"] == "recurring")
    parts = [rows[~late]]
    for _, row in rows[late].iterrows():
        monthly_quantity = per_month.get(tuple(row[c] for c in KEY if c != "month"), 0.0)
        n = max(1, round(row["quantity"] / monthly_quantity)) if monthly_quantity > 0 else 1
        months = np.arange(H + 1, H + 1 + n)
        d = discount_factors(discount_rate_of(plan), H + n)[months - 1]
        parts.append(pd.DataFrame({**{c: row[c] for c in KEY}, "month": months, "cost": row["cost"] / n,
                                   "present_value": row["cost"] / n * d, "quantity": row["quantity"] / n,
                                   "discount_factor": d}))
    return pd.concat(parts, ignore_index=True)


def discount_rate_of(plan: Plan) -> float:
    return float(getattr(plan.scenario, "discount_rate", 0.0) or 0.0)
