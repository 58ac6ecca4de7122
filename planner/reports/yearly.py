"""The plan's money by plan year: what is paid in each (nominal) and its present value, summed from the plan's
monthly table. The workbook's yearly sheet writes these figures as formulas over its monthly sheet (reports.excel), the
CLI and the Markdown summary show them as a table of one row a year (`yearly_view`): one computation for all three.
"""

from __future__ import annotations

from datetime import date

import pandas as pd

from planner.engine import Plan
from planner.engine.readback import FLEET_MONTHLY_COLUMNS
from planner.engine.result import held
from planner.reports.flows import last_payment_month
from planner.reports.tables import AFTER_HORIZON, add_months, plan_start, plan_year, present_value_basis, start_month

# monthly columns that are not cost categories (the fleet's cards and kW: counts and power, never money)
NOT_CATEGORIES = ("month", "total", "discount_factor", "total_discounted", *FLEET_MONTHLY_COLUMNS)
CREDITS = ("residual_value",)      # the sale value of cards at the end of the horizon (and resale credits)
GROUPS = ("capex", "residual_value", "opex")
YEARLY_COLUMNS = ["year", "first_month", "last_month", *GROUPS, "total_nominal",
                  *(f"{g}_present_value" for g in GROUPS), "total_present_value"]


def cost_categories(monthly: pd.DataFrame) -> tuple[list[str], list[str], list[str]]:
    """The cost categories of the monthly table as capex, credits (residual value) and opex (the rest),
    in that order, so each group is one contiguous range of columns on the workbook's monthly sheet."""
    categories = [c for c in monthly.columns if c not in NOT_CATEGORIES]
    capex = [c for c in categories if c == "capex"]
    credits = [c for c in categories if c in CREDITS]
    return capex, credits, [c for c in categories if c not in capex and c not in credits]


def yearly_amounts(plan: Plan) -> pd.DataFrame:
    """One row per plan year (months 1–12, 13–24 …, the last one possibly short) and one for the months after the
    horizon (`AFTER_HORIZON`: the monthly table's row H+1, the cards' end value, a credit, and a reservation's fees for
    the rest of its term, to its last month): `year`, `first_month`, `last_month`, then capex, residual_value (credits,
    negative), opex (energy, maintenance, colocation, fixed on-prem, cloud: the total less the other two) and
    total_nominal, each the sum of the money paid in those months (nominal, in the plan currency), and each's present
    value (`…_present_value`: capex and credits × their month's discount factor; the total the months'
    total_discounted, which discounts each payment after the horizon in its own month)."""
    monthly = held(plan, "monthly")
    capex, credits, opex = cost_categories(monthly)
    horizon = int(plan.horizon_months)
    months = monthly["month"].astype(int)
    years = [plan_year(m, horizon) for m in months]
    factor = monthly["discount_factor"].astype(float)
    nominal = monthly[capex + credits + opex].astype(float).sum(axis=1)   # as the workbook's monthly total: SUM of them
    spans = [(y, 12 * (y - 1) + 1, min(12 * y, horizon)) for y in range(1, (horizon + 11) // 12 + 1)]
    spans += [(AFTER_HORIZON, m, last_payment_month(plan)) for m in months if m > horizon]
    rows = []
    for year, first, last in spans:
        of_year = pd.Series([y == year for y in years], index=monthly.index)
        cap = float(monthly.loc[of_year, capex].to_numpy(float).sum())
        credit = float(monthly.loc[of_year, credits].to_numpy(float).sum())
        total = float(nominal[of_year].sum())
        cap_pv = float((monthly.loc[of_year, capex].astype(float).mul(factor[of_year], axis=0)).to_numpy().sum())
        credit_pv = float((monthly.loc[of_year, credits].astype(float).mul(factor[of_year], axis=0)).to_numpy().sum())
        total_pv = float(monthly.loc[of_year, "total_discounted"].astype(float).sum())
        rows.append((year, first, last, cap, credit, total - cap - credit, total,
                     cap_pv, credit_pv, total_pv - cap_pv - credit_pv, total_pv))
    return pd.DataFrame(rows, columns=YEARLY_COLUMNS)


def _months(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def yearly_view(plan: Plan, start: str | date | None = None) -> pd.DataFrame:
    """`yearly_amounts` for a reader, one row a plan year, then the months after the horizon as "end credit" (where
    they hold only the cards' end value) or "after horizon", then "total": `year`, `months` (1–12 …), with `start`
    (month 1, YYYY-MM) `calendar` (the months' calendar months, "2027-04 to 2028-03"), `capex`, `credits` (where some
    row has one), `opex`, `paid` (the year's total, nominal: as paid) and `present_value`."""
    years = yearly_amounts(plan)
    after = years["year"] == AFTER_HORIZON
    only_credit = after & (years["capex"].abs() < 0.005) & (years["opex"].abs() < 0.005)
    labels = ["end credit" if credit else AFTER_HORIZON if late else str(y)
              for y, late, credit in zip(years["year"], after, only_credit)]
    view = pd.DataFrame({"year": labels,
                         "months": [_months(a, b) for a, b in zip(years["first_month"], years["last_month"])],
                         "capex": years["capex"], "credits": years["residual_value"], "opex": years["opex"],
                         "paid": years["total_nominal"], "present_value": years["total_present_value"]})
    # an after-horizon row with nothing in it says nothing
    view = view[~(after & (years["total_nominal"].abs() < 0.005) & (years["total_present_value"].abs() < 0.005))]
    total = {"year": "total", "months": _months(1, int(years.loc[view.index, "last_month"].max())),
             **{c: float(view[c].sum()) for c in ("capex", "credits", "opex", "paid", "present_value")}}
    view = pd.concat([view, pd.DataFrame([total])], ignore_index=True)
    first = start_month(start, plan.scenario)
    if first is not None:
        spans = [str(m).split("–") for m in view["months"]]   # "1–12", or one month "13"
        view.insert(2, "calendar", [calendar_span(first, int(s[0]), int(s[-1])) for s in spans])
    if not (view["credits"].abs() >= 0.005).any():
        view = view.drop(columns=["credits"])
    return view


def calendar_span(start: str | date, first: int, last: int) -> str:
    """Plan months `first` to `last` as calendar months counted from `start` (month 1, YYYY-MM): "2027-04 to 2028-03",
    one month "2027-04"."""
    day = plan_start(start)
    a, b = (add_months(day, m - 1).strftime("%Y-%m") for m in (first, last))
    return a if a == b else f"{a} to {b}"


def yearly_note(plan: Plan) -> str:
    """What the yearly table's two totals are, in one sentence (and its credits, where it shows them)."""
    credits = "credits" in yearly_view(plan).columns
    return (f"paid: the money paid in those months, nominal (not discounted); present_value: the same discounted to the "
            f"plan start ({present_value_basis(plan)}), whose total, {plan.total:,.0f} {plan.currency}, is what the "
            "plan minimises" + ("; credits are negative (cards sold, and the end value of those held at the end)"
                                if credits else "") + ".")
