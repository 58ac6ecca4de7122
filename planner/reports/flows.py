"""A plan's cash flows as the exports read them, month by month (the months after the horizon too: a reservation's
fees for the rest of its term, one row a month, each discounted in its own month), summed per offer, category and
charge (KEY). Read by the FOCUS export (reports.focus) and the yearly view (reports.yearly), which the
Markdown summary shows: a module of its own, so that writing summary.md does not load the FOCUS writer."""

from __future__ import annotations

import pandas as pd

from planner.engine import Plan
from planner.engine.result import held

KEY = ["unit_id", "kind", "provider", "region", "sku", "gpu", "purchase_option", "category", "pricing_unit",
       "charge", "month"]
MONEY_NOISE = 1e-6   # currency units: a flow this small is round-off of the solve


def last_payment_month(plan: Plan) -> int:
    """The last month with money in it, H+1 at least: a reservation's fees for the rest of its term can run
    several months past the horizon (the monthly table sums them into its row H+1)."""
    months = grouped_flows(plan)["month"]
    return max(plan.horizon_months + 1, int(months.max()) if len(months) else 0)


def grouped_flows(plan: Plan) -> pd.DataFrame:
    """The plan's cash flows summed per KEY (vintages of one card, idle and busy energy together)."""
    rows = (held(plan, "flows").groupby(KEY, as_index=False, sort=False)
            .agg(cost=("cost", "sum"), present_value=("present_value", "sum"),
                 quantity=("pricing_quantity", "sum"), discount_factor=("discount_factor", "first")))
    # a millionth of the currency is solver noise (1.7e-8 hours of an offer the fleet leaves out, 8.5e-9 EUR),
    # not a resource the plan uses: the fleet table drops such a unit too (engine.readback, hours ≤ 1e-6)
    return rows[(rows["cost"].abs() > MONEY_NOISE) | (rows["present_value"].abs() > MONEY_NOISE)].reset_index(drop=True)


def discount_rate_of(plan: Plan) -> float:
    return float(getattr(plan.scenario, "discount_rate", 0.0) or 0.0)
