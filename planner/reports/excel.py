"""The plan as an XLSX finance workbook, built in memory first so a failure never leaves a half-written file.

Every sheet is an Excel table (filters on its header). Money is formatted `#,##0.00` with the currency code
and its basis in the column header (`total (USD, present value at 8%/year)`, `amount (USD, nominal: as paid)`;
the monthly and yearly sheets name it in the column: `total_nominal`, `total_discounted`), shares are fractions
formatted as percentages (savings, utilisation, rates), and every monthly row carries the first day of its month
from the plan start. The totals of the monthly and yearly sheets are formulas (SUM over cell ranges, cell
arithmetic, and the yearly figures as SUMIFS / SUMPRODUCT over the monthly sheet's whole columns keyed on its
plan_year, so that sorting or filtering either sheet keeps them; built from cell references only, never from user
text) written together with their computed values, so a reader that does not recalculate (pandas, openpyxl's
data_only, a preview) sees the same numbers Excel computes.
Text cells are string cells (never formulas) holding the text as typed, control characters shown as \\xNN
(`workbook_text`); those that start like a formula carry the quote_prefix format, so editing one in Excel
keeps it text. See docs/workbook.md.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from planner.engine import Plan
from planner.engine.decisions import (
    CAP_COST_COLUMNS,
    CAPS_LIFTED_ALONE,
    DECISION_COLUMNS,
    FLIP_COLUMNS,
    fleet_differences,
    plan_owned_cards,
    runner_up_verdict,
)
from planner.engine.readback import FLEET_MONTHLY_COLUMNS, SERVING_COLUMNS
from planner.engine.result import held
from planner.reports.tables import (
    BOUND_UNKNOWN,
    BREAK_EVEN_NEVER,
    add_months,
    assumptions,
    baselines_grouped,
    check_export_path,
    clean,
    excluded_offers,
    generated_at,
    maybe_write,
    never_breaks_even,
    plan_start,
    plan_year,
    present_money,
    present_value_basis,
    prices_used,
    require_plan,
    share_text,
    site_cost_note,
    starts_a_formula,
    summary_table,
    workbook_text,
)
from planner.reports.yearly import GROUPS, cost_categories, yearly_amounts

SHEETS = ("summary", "yearly", "monthly", "fleet", "serving", "purchase schedule", "owned cards", "baselines",
          "decisions", "runner-up", "count alternatives", "flip points", "cap costs", "break-even", "speeds", "excluded offers",
          "assumptions", "prices used")

MONEY = "#,##0.00"
RATE = "#,##0.0000"                # hourly prices: cents are too coarse for a GPU-hour
HOURS = "#,##0.0"
# Shares as percentages, one decimal; one under 0.05 % (a fraction of 0.0005) but not 0 with up to four
# (industrial's +183 USD decision, 0.0091 % of its total, read 0.0 %; the CLI shows it as 0.0091 too). Excel's
# conditional sections: the first that holds, else the third. No section holds only negative numbers, where
# Excel and LibreOffice disagree on showing the minus sign: a negative share shows its own sign in either.
SHARE = "[>=0.0005]0.0%;[>-0.0005]0.0###%;0.0%"
# The unit column's word for such a share (summary, runner-up): the cell holds the fraction, which a reader that drops
# number formats (pandas.read_excel) shows as it is, where a unit `%` made 0.5 read as 0.5 % (a notebook audit, 2026-12-07)
FRACTION = "fraction (0.5 = 50 %)"
MONTH = "yyyy-mm"
DAY = "yyyy-mm-dd"
FACTOR = "0.000000"
KW = "#,##0.000"                   # the monthly sheet's power_kw: a watt shows (a 400 W card is 0.400)


@dataclass(frozen=True)
class Formula:
    """A formula cell: `text` made from cell references and numbers only, and `value`, what it computes."""

    text: str
    value: float


@dataclass
class Sheet:
    """One sheet: a table (`frame`; its column names are the headers), the number format of some
    columns, the columns whose total row is a SUM (none: no total row), and notes on some headers ((column,
    text) pairs: a cell comment each, so the sheet stays one table and a reader of it gets no stray row)."""

    frame: pd.DataFrame
    formats: dict
    totals: tuple = ()
    notes: tuple = ()


def plan_to_excel(plan: Plan, path: str | Path | None = None, start: str | date | None = None) -> bytes:
    """The plan as an XLSX workbook (bytes) with the sheets of `SHEETS`; written atomically when
    `path` is given. `start` (YYYY-MM) dates the months (default: `plan_start`)."""
    import xlsxwriter

    require_plan(plan, "plan_to_excel (to_excel)")
    target = check_export_path(plan, path, "plan.xlsx", "plan_to_excel (to_excel)")   # before the workbook is built
    first = plan_start(start, plan.scenario)
    money = f" ({plan.currency})"   # the monthly and yearly sheets: their headers say nominal or present value
    present = present_header(plan)
    # money as paid in its month, never discounted: the schedule's capex and credits, break-even's rates of a card
    # bought in month 1 (engine.readback.break_even), the unit prices
    paid, undiscounted = f" ({plan.currency}, nominal: as paid)", f" ({plan.currency}, nominal: undiscounted)"
    prices = f" ({plan.currency}, nominal)"
    monthly = monthly_sheet(plan, first, money)
    sheets = {
        "summary": summary_sheet(plan, first),
        "yearly": yearly_sheet(plan, first, money, monthly.frame),
        "monthly": monthly,
        "fleet": fleet_sheet(plan),
        "serving": serving_sheet(plan),
        "purchase schedule": _formatted(_dated(held(plan, "schedule"), first), ["amount"], paid, dates=("month_start",)),
        # present values (engine.readback.owned_decisions), as the totals of the plans below
        "owned cards": _formatted(held(plan, "owned"), ["fixed_costs_avoided", "end_value"], present),
        "baselines": _formatted(_baselines(plan), ["total", "savings", "error_bound"], present),
        "decisions": _formatted(_shares(_or_empty(held(plan, "decisions"), DECISION_COLUMNS), {"increase_pct": 100}),
                                ["total_if_forbidden", "increase"], present),
        "runner-up": runner_up_sheet(plan),
        "count alternatives": _formatted(_shares(count_alternatives(plan), {"increase_pct": 100}), ["total", "increase"],
                                         present),
        "flip points": _formatted(_shares(_or_empty(held(plan, "flip_points"), FLIP_COLUMNS),
                                          {"flip_share_of_today": 1, "precision_pct": 100}), [], money),
        "cap costs": cap_costs_sheet(plan, present),
        "break-even": break_even_sheet(plan, undiscounted),
        "speeds": _formatted(_shares(held(plan, "speeds"), {"scaling_efficiency": 1}), [], money),
        # every row the JSON's excluded_offers holds, its reason as written and the rule it fails
        "excluded offers": _formatted(excluded_offers(plan), [], money),
        "assumptions": assumptions_sheet(plan, first),
        "prices used": _formatted(_shares(prices_used(plan), {"maintenance_rate_per_year": 1}),
                              ["hourly_price", "upfront_price", "capex_per_unit"], prices),
    }
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True})
    wb.set_properties({"title": workbook_text(str(plan.scenario_name)), "created": _created(plan)})
    formats = _Formats(wb)
    for name in SHEETS:
        _write_table(wb.add_worksheet(name), name, sheets[name], formats)
    wb.close()
    return maybe_write(target, buf.getvalue(), "plan.xlsx")   # the file checked, not `path` read again


# ---------------------------------------------------------------------------------------------------
# The sheets as tables


def _formatted(df: pd.DataFrame, columns: list[str], money: str, dates: tuple[str, ...] = ()) -> Sheet:
    """`df` with `money` (the currency and its basis: " (USD, nominal: as paid)") appended to the headers of its
    money `columns`, share columns
    (headers ending in "(%)") formatted as percentages and `dates` as months."""
    df = df.rename(columns={c: c + money for c in columns if c in df.columns})
    formats = {c: RATE if "hour" in c else MONEY for c in df.columns if c.endswith(money)}
    formats |= {c: SHARE for c in df.columns if c.endswith("(%)")}
    formats |= {c: HOURS for c in df.columns if c.endswith("_hours")}
    formats |= {c: MONTH for c in dates if c in df.columns}
    return Sheet(df, formats)


def cap_costs_sheet(plan: Plan, present: str) -> Sheet:
    """What each limit costs (engine.decisions' cap costs), the `binds` header noting that each limit is lifted alone
    (engine.decisions.CAPS_LIFTED_ALONE, as the CLI and the dashboard say under their tables)."""
    sheet = _formatted(_shares(_joined(_or_empty(held(plan, "cap_costs", None), CAP_COST_COLUMNS), "dropped_in"),
                               {"saving_pct": 100}), ["total_without", "saving"], present)
    return Sheet(sheet.frame, sheet.formats, notes=(("binds", CAPS_LIFTED_ALONE),))


def present_header(plan: Plan) -> str:
    """The header suffix of a column of present values, as the summary's total: " (USD, present value at 8%/year)"."""
    return f" ({present_money(plan)})"


def fleet_sheet(plan: Plan) -> Sheet:
    """The fleet, its cost said to be a present value (the purchase schedule's amounts are nominal), the header
    noting why its rows fall short of the total where the site has a fixed cost (`site_cost_note`)."""
    basis = present_header(plan)
    sheet = _formatted(held(plan, "fleet"), ["cost"], basis)
    note = site_cost_note(plan)
    return Sheet(sheet.frame, sheet.formats, notes=(("cost" + basis, note),) if note else ())


def serving_sheet(plan: Plan) -> Sheet:
    """The serving table (engine.readback.serving_table), each slot's hours of the week in words beside its hours per
    week; the header alone without a serving workload."""
    table = held(plan, "serving")
    if not len(table.columns):   # a Plan made without one (its default table has no columns)
        table = pd.DataFrame(columns=SERVING_COLUMNS)
    columns = list(table.columns)
    if "hours_of_week" in columns and "hours_per_week" in columns:
        columns.remove("hours_of_week")
        columns.insert(columns.index("hours_per_week") + 1, "hours_of_week")
    return Sheet(table[columns], {})   # whole hours as 45, not 45.0


def break_even_sheet(plan: Plan, undiscounted: str) -> Sheet:
    """The break-even table, its rates nominal (`undiscounted`), its share a percentage; where no utilisation pays the
    card off (`never_breaks_even`: a share above 1, more hours than there are, or inf) the text BREAK_EVEN_NEVER,
    right-aligned as the numbers are (with the column's share format, which a text cell ignores), as the terminal
    and summary.md say it (209.9 % read as "needs 210 % utilisation"), the share kept at the front of its note
    ("break-even at 209.9 % of the card's hours; …"). The JSON and CSV keep the number."""
    table = _shares(held(plan, "break_even"), {"break_even_utilisation": 1})
    column = "break_even_utilisation (%)"
    if column in table.columns and len(table):
        shares = table[column].tolist()
        never = [isinstance(v, (int, float)) and never_breaks_even(float(v)) for v in shares]
        if any(never):
            table[column] = [Styled(BREAK_EVEN_NEVER, SHARE, align="right") if n else v for v, n in zip(shares, never)]
            if "note" in table.columns:
                table["note"] = [_never_note(v, note) if n else note
                                 for v, n, note in zip(shares, never, table["note"])]
    return _formatted(table, ["cloud_cost_per_reference_hour", "card_fixed_cost_per_month"], undiscounted)


def _never_note(share: float, note) -> str:
    """A never-break-even row's note with its exact share first: "break-even at 209.9 % of the card's hours (more
    than there are)", or "no utilisation (cloud work costs less than the card's energy)" for inf."""
    said = ("no utilisation pays it off (cloud work costs less than the card's energy)" if math.isinf(share) else
            f"break-even at {share * 100:,.1f} % of the card's hours (more than there are)")
    note = "" if note is None or (isinstance(note, float) and math.isnan(note)) else str(note)
    return f"{said}; {note}" if note else said


def _shares(df: pd.DataFrame, scale: dict[str, float]) -> pd.DataFrame:
    """`df` with each column of `scale` divided by its scale (100 for a column in percent points) and
    renamed to end in "(%)": every share a fraction, shown as a percentage (one scale in the workbook)."""
    df = df.copy()
    for column, points in scale.items():
        if column in df.columns:
            df[column] = df[column] / points
            df = df.rename(columns={column: column.removesuffix("_pct") + " (%)"})
    return df


def _baselines(plan: Plan) -> pd.DataFrame:
    """The baselines table, its shares as fractions (`_shares`); on a grouped profile (`baselines_grouped`, even where
    no bound is known) each one's bound on its cost error (engine.baselines.grouping_lower_bounds), "unknown" where
    its bound solve gave none (blank for a baseline without a total); without those columns where the profile is
    exact."""
    table = _shares(held(plan, "baselines"), {"savings_pct": 100, "error_bound_pct": 100})
    bounds = ["error_bound", "error_bound (%)"]
    if not baselines_grouped(plan):
        return table.drop(columns=bounds, errors="ignore")
    unknown = (table["total"].notna() & table["error_bound"].isna()).to_numpy()
    return table.assign(**{c: table[c].astype(object).where(~unknown, BOUND_UNKNOWN) for c in bounds})


def _dated(df: pd.DataFrame, first: date) -> pd.DataFrame:
    """`df` with `month_start` (the first day of its `month`) right after `month`."""
    if "month" not in df.columns:
        return df
    df = df.copy()
    df.insert(list(df.columns).index("month") + 1, "month_start", [add_months(first, int(m) - 1) for m in df["month"]])
    return df


def _created(plan: Plan) -> datetime:
    """When the plan was made (its `generated_at`), so every export of one plan carries one date."""
    try:
        return datetime.strptime(generated_at(plan), "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return datetime(2000, 1, 1)


# ---------------------------------------------------------------------------------------------------
# Monthly and yearly: the cash flows by month, and rolled up by plan year with formulas


def _cell(row: int, col: int, sheet: str | None = None, absolute: bool = False, col_abs: bool = False) -> str:
    """A1 (or $A$1 `absolute`; $A1 `col_abs`), on `sheet` when given."""
    from xlsxwriter.utility import quote_sheetname, xl_rowcol_to_cell

    return (quote_sheetname(sheet) + "!" if sheet else "") + xl_rowcol_to_cell(row, col, absolute, absolute or col_abs)


def _range(first_row: int, first_col: int, last_row: int, last_col: int, sheet: str | None = None,
           absolute: bool = False) -> str:
    return f"{_cell(first_row, first_col, sheet, absolute)}:{_cell(last_row, last_col, absolute=absolute)}"


def monthly_sheet(plan: Plan, first: date, money: str) -> Sheet:
    """One row per month 1..H+1 (H+1: after the horizon, the residual credit and payments falling
    after it), dated from `first`, its plan year, its costs by category (capex, credits, opex), its
    nominal total (=SUM of the categories), discount factor and present value (=total × factor). Row H+1 with
    reservation payments after the horizon carries the plan's present value as a number: each of those
    payments is discounted in its own month (docs/cost-model.md), so total × d(H+1) would be wrong."""
    capex, credits, opex = cost_categories(held(plan, "monthly"))
    categories = capex + credits + opex
    # cards and kW, after the money (a Plan read back before they were added has neither)
    fleet = list(FLEET_MONTHLY_COLUMNS) if set(FLEET_MONTHLY_COLUMNS) <= set(held(plan, "monthly").columns) else []
    lead = ["month", "month_start", "plan_year"]
    total_col = len(lead) + len(categories)
    rows = []
    for i, r in enumerate(held(plan, "monthly").itertuples(index=False), start=1):   # sheet row i (row 0: header)
        costs = [float(getattr(r, c)) for c in categories]
        total = Formula(f"=SUM({_range(i, len(lead), i, total_col - 1)})", sum(costs))
        factor, discounted = float(r.discount_factor), float(r.total_discounted)
        present = Formula(f"={_cell(i, total_col)}*{_cell(i, total_col + 1)}", total.value * factor)
        if not math.isclose(present.value, discounted, rel_tol=1e-9, abs_tol=1e-6):
            present = discounted   # row H+1 with payments after the horizon, each discounted in its month
        rows.append([int(r.month), add_months(first, int(r.month) - 1), plan_year(int(r.month), plan.horizon_months),
                     *costs, total, factor, present,
                     *([int(r.cards_in_service), float(r.power_kw)] if fleet else [])])
    # "total_nominal": the summary's total is a present value, and this sum of the month's money is not
    columns = [*lead, *(c + money for c in categories), "total_nominal" + money, "discount_factor",
               "total_discounted" + money, *fleet]
    frame = pd.DataFrame(rows, columns=columns)
    # the cards and kW: not money, so neither in the totals row (its columns end with `money`) nor in the yearly sheet
    formats = ({c: MONEY for c in columns if c.endswith(money)} | {"month_start": MONTH, "discount_factor": FACTOR}
               | ({"power_kw": KW} if fleet else {}))
    return Sheet(frame, formats, totals=tuple(c for c in columns if c.endswith(money)))


def yearly_sheet(plan: Plan, first: date, money: str, monthly: pd.DataFrame) -> Sheet:
    """Plan years (months 1–12, 13–24 …, the last one possibly short) and the months after the horizon
    (the monthly sheet's row H+1: the residual credit and a reservation's fees for the rest of its term, to
    its last month), each with capex, credits (residual value), opex (energy, maintenance, colocation, fixed
    on-prem, cloud) and total, nominal (total_nominal) and present value, as formulas over the monthly
    sheet's rows whose plan_year is the row's year (`_year_total`, `_year_present_value`), their values those of
    `yearly_amounts` (reports.yearly: the CLI's and the Markdown summary's yearly tables)."""
    capex, credits = (f"{c}{money}" for c in ("capex", "residual_value"))
    columns = ["year", "first_month", "last_month", "from", "to", *(f"{g}{money}" for g in GROUPS), "total_nominal" + money,
               *(f"{g}_present_value{money}" for g in GROUPS), "total_present_value" + money]
    at = columns.index
    rows = []
    for i, y in enumerate(yearly_amounts(plan).itertuples(index=False), start=1):
        year_cell = _cell(i, at("year"), col_abs=True)    # $A2: the row's own year, wherever a sort moves the row
        nominal = [_year_total(monthly, c, year_cell, v) for c, v in ((capex, y.capex), (credits, y.residual_value))]
        total = _year_total(monthly, "total_nominal" + money, year_cell, y.total_nominal)
        present = [_year_present_value(monthly, c, year_cell, v)
                   for c, v in ((capex, y.capex_present_value), (credits, y.residual_value_present_value))]
        total_present = _year_total(monthly, "total_discounted" + money, year_cell, y.total_present_value)
        # opex spans several columns: it is the year's total less capex and credits, nominal and present value
        here = {c.removesuffix(money): _cell(i, j) for j, c in enumerate(columns)}   # this row's cells by name
        nominal.append(Formula(_rest(here["total_nominal"], [here["capex"], here["residual_value"]]), y.opex))
        present.append(Formula(_rest(here["total_present_value"], [here["capex_present_value"],
                                                                   here["residual_value_present_value"]]),
                               y.opex_present_value))
        last_day = add_months(first, y.last_month) - timedelta(days=1)
        rows.append([y.year, y.first_month, y.last_month, add_months(first, y.first_month - 1), last_day, *nominal,
                     total, *present, total_present])
    frame = pd.DataFrame(rows, columns=columns)
    formats = {c: MONEY for c in columns if c.endswith(money)} | {"from": DAY, "to": DAY}
    return Sheet(frame, formats, totals=tuple(c for c in columns if c.endswith(money)))


# The yearly figures are keyed on the monthly sheet's plan_year column, never on its row positions: sorting that
# sheet moves its values but not another sheet's references to them, and a SUM over rows 2–13 would then add up
# whichever months landed there. The ranges are absolute: sorting the yearly sheet moves its formulas as copies,
# which shifts relative references. Filtering hides rows from view, not from SUMIFS or SUMPRODUCT.


def _year_total(monthly: pd.DataFrame, header: str, year_cell: str, value: float) -> Formula:
    """=SUMIFS of the monthly column `header` over its rows whose plan_year is `year_cell`; `value`, what it computes
    (reports.yearly.yearly_amounts)."""
    return Formula(f"=SUMIFS({_whole(monthly, header)},{_whole(monthly, 'plan_year')},{year_cell})", value)


def _year_present_value(monthly: pd.DataFrame, header: str, year_cell: str, value: float) -> Formula:
    """=SUMPRODUCT of the monthly column `header` and the discount factors over its rows whose plan_year is
    `year_cell`, `value` what it computes (reports.yearly.yearly_amounts); `*1` makes the TRUE/FALSE mask numbers, as
    Excel's SUMPRODUCT needs. Not the `--(…)` idiom: Excel and LibreOffice take both, but the `formulas` engine that
    recalculates the workbook in the tests (tests/planner/test_workbook_recalculated.py) reads `--` of an array as 0,
    and another program may too."""
    mask = f"({_whole(monthly, 'plan_year')}={year_cell})*1"
    return Formula(f"=SUMPRODUCT({mask},{_whole(monthly, header)},{_whole(monthly, 'discount_factor')})", value)


def _rest(whole_cell: str, part_cells: list[str]) -> str:
    """=whole - each part, cells of one row (a year's opex: its total less capex and credits)."""
    return f"={whole_cell}-" + "-".join(part_cells)


def _whole(monthly: pd.DataFrame, header: str) -> str:
    """The monthly sheet's data cells of column `header`, every month, absolute: monthly!$D$2:$D$38."""
    j = list(monthly.columns).index(header)
    return _range(1, j, len(monthly), j, "monthly", absolute=True)


# ---------------------------------------------------------------------------------------------------
# Summary, runner-up and assumptions


def summary_sheet(plan: Plan, first: date) -> Sheet:
    """The headline figures (`summary_table`) with a unit column: money in the plan currency, said to be a
    present value or nominal, shares as fractions formatted as percentages (unit FRACTION), energy in kWh."""
    table = summary_table(plan, first)
    units, values = [], []
    for field, value in zip(table["field"], table["value"]):
        unit, fmt = _summary_unit(field, plan.currency, present_value_basis(plan))
        units.append(unit)
        values.append(Styled(value, fmt) if fmt and isinstance(value, (int, float)) and not isinstance(value, bool)
                      else value)
    return Sheet(pd.DataFrame({"field": table["field"], "value": values, "unit": units}), {})


def _summary_unit(field: str, currency: str, present_value: str) -> tuple[str | None, str | None]:
    """The unit and number format of a summary field; money says what it is (`present_value`: how the
    plan's totals are discounted): the total, costs and baselines are present values, the budgets caps on
    nominal capex."""
    if field == "total" or field.startswith(("cost.", "baseline.")):
        return f"{currency}, {present_value}", MONEY
    if field.startswith("assumption.capex_budget"):
        return f"{currency}, nominal", MONEY
    if field in ("assumption.resale_share_of_book", "solver.gap"):   # fractions, as the JSON has them
        return FRACTION, SHARE
    return {"horizon_months": ("months", None), "energy_kwh": ("kWh", "#,##0"), "solver.seconds": ("s", None),
            "plan_start": ("first day of month 1", None)}.get(field, (None, None))


def _or_empty(df: pd.DataFrame | None, columns: list[str]) -> pd.DataFrame:
    """`df`, or an empty table with its columns when it was not computed (plan --no-decisions)."""
    return pd.DataFrame(columns=columns) if df is None else df


def _joined(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """`df` with the lists in `column` (baseline labels) as one text cell each, "; "-separated."""
    if column not in df:
        return df
    return df.assign(**{column: ["; ".join(map(str, v)) if isinstance(v, list | tuple) else v for v in df[column]]})


def runner_up_sheet(plan: Plan) -> Sheet:
    """The runner-up (engine.decisions) as field, value, unit: the verdict (`close call`, `firm`, `not the best
    plan` — a runner-up that costs less than a plan whose own solve stopped unproven — or `no runner-up`) and
    what qualifies it, the close-call flag and threshold, both totals, the runner-up's increase in money and as a
    share (below 0: it costs less), what differs, the best plan with other card types (`other_types`, the same
    figures, and whether it is the runner-up's fleet) and the fleets (units per card or offer: the plan's, the
    runner-up's, other types'; and of each, the owned cards it holds switched off and sells); the header alone when
    decision values were not computed."""
    runner, cur = plan.runner_up, present_money(plan)   # as the summary's total
    rows: list[tuple] = []
    if runner is not None:
        verdict, why = _verdict(plan, runner)
        share = runner.get("close_call_share")
        rows += [("verdict", verdict, None), *([("verdict.note", why, None)] if why else []),
                 ("close_call", plan.close_call, None),
                 ("close_call_share", Styled(share, SHARE) if share is not None else None, FRACTION),
                 ("recommended.total", Styled(plan.total, MONEY), cur),
                 *_other_fleet_rows("runner_up", runner, cur)]
        if runner.get("note"):
            rows.append(("runner_up.note", runner["note"], None))
        types = runner.get("other_types")
        fleets = [("recommended", runner.get("plan_fleet")), ("runner_up", runner.get("fleet"))]
        if types is not None:
            same = types.get("fleet") is not None and types.get("fleet") == runner.get("fleet")
            rows += [*_other_fleet_rows("other_types", types, cur), ("other_types.same_as_runner_up", same, None)]
            fleets.append(("other_types", types.get("fleet")))
        # the owned cards each side holds switched off (held, no work) and sells, where it has a fleet
        cards = plan.fleet[plan.fleet["kind"] == "card"] if "sold_units" in plan.fleet else plan.fleet.iloc[:0]
        plan_sold = {str(sku): int(round(units)) for sku, units in zip(cards.get("sku", []), cards.get("sold_units", []))
                     if round(units)}
        owned = {"recommended": (runner.get("plan_switched_off"), plan_sold),
                 "runner_up": (runner.get("switched_off"), runner.get("sold")),
                 "other_types": ((types or {}).get("switched_off"), (types or {}).get("sold"))}
        for side, fleet in fleets:
            if fleet == {}:   # no card, no reservation (None: no fleet found, no rows)
                rows.append((f"{side}.fleet", NO_FLEET, None))
            rows += [(f"{side}.fleet.{name}", units, "units") for name, units in (fleet or {}).items()]
            if fleet is not None:
                for what, counts in zip(("switched_off", "sold"), owned[side]):
                    rows += [(f"{side}.{what}.{name}", units, "units") for name, units in (counts or {}).items()]
    return Sheet(pd.DataFrame(rows, columns=["field", "value", "unit"]), {})


# a fleet of no card and no reservation: cloud hours on demand or spot only
NO_FLEET = "none: no cards held, no reservations"


def _other_fleet_rows(prefix: str, other: dict, cur: str) -> list[tuple]:
    """The rows of another fleet's plan (the runner-up, other_types): status, total, increase (money and share of
    the plan's total; below 0 where it costs less) and what differs from the plan's fleet."""
    total, increase, pct = other.get("total"), other.get("increase"), other.get("increase_pct")
    return [(f"{prefix}.status", other.get("status"), None),
            (f"{prefix}.total", Styled(total, MONEY) if total is not None else None, cur),
            (f"{prefix}.increase", Styled(increase, MONEY) if increase is not None else None, cur),
            (f"{prefix}.increase_share", Styled(pct / 100, SHARE) if pct is not None else None, FRACTION),
            (f"{prefix}.differences", "; ".join(other.get("differences") or []), None)]


def _verdict(plan: Plan, runner: dict) -> tuple[str, str | None]:
    """The runner-up's verdict, as the Markdown summary and the dashboard give it, and what qualifies it: `not
    the best plan` when the runner-up costs less (the plan's own solve stopped unproven: its warning begins "not
    the cheapest plan: "), never `firm`; `not proven best` where a solve stopped at its time limit."""
    verdict, unproven = runner_up_verdict(runner, plan)
    if verdict == "none":
        return "no runner-up", None   # why: runner_up.note
    if verdict == "not_best":
        pct = runner.get("increase_pct")
        share = "" if pct is None else f" ({share_text(-pct)} %)"   # 0.0045 %, not 0.00 % (as the summary)
        return "not the best plan", (
            f"the runner-up costs {-runner['increase']:,.2f} {plan.currency}{share} less than this plan, whose own "
            "solve stopped before it proved the least cost (status " + str(plan.status) + "); plan it with more "
            "time (a longer --time-limit, or none)")
    return verdict.replace("_", " "), {
        "plan": "not proven best: the plan's own solve stopped before it proved the least cost",
        "runner_up": "not proven best: the runner-up's solve stopped at the time limit, so a cheaper runner-up may exist",
        None: None}[unproven]


COUNT_COLUMNS = ["card", "units", "alternative_units", "held_units", "status", "total", "increase", "increase_pct",
                 "differences", "fleet", "note"]


def count_alternatives(plan: Plan) -> pd.DataFrame:
    """One card more or fewer (runner_up.count_alternatives): per card type the plan holds, the best plan holding
    at least one more and at most one fewer — the card, the plan's units, the count asked (alternative_units), the
    count its fleet holds (held_units: at most one fewer may hold none; blank without a fleet), the re-solve's
    status, its total, the increase (money and percent of the plan's total; below 0 where it costs less), what
    differs from the plan's fleet and the fleet it found (`name: units; …`); blank money where no fleet holds
    that many, and the note why (as the CLI's line under its table says it). No rows when decision values were not
    computed."""
    runner = plan.runner_up or {}
    mine = runner.get("plan_fleet") or {}
    owned, mine_sold = plan_owned_cards(plan)   # sales said as the runner-up's differences say them
    rows = []
    for a in runner.get("count_alternatives") or []:
        fleet = a.get("fleet")
        rows.append([a["card"], int(a["units"]), int(a["alternative_units"]),
                     None if fleet is None else int(fleet.get(a["card"], 0)), a.get("status"),
                     *(math.nan if a.get(k) is None else float(a[k]) for k in ("total", "increase", "increase_pct")),
                     None if fleet is None else "; ".join(fleet_differences(mine, fleet, runner.get("plan_switched_off"),
                                                                             a.get("switched_off"), mine_sold, a.get("sold"),
                                                                             owned=owned)),
                     None if fleet is None else _fleet_text(fleet), a.get("note")])
    return pd.DataFrame(rows, columns=COUNT_COLUMNS).astype(dict.fromkeys(("total", "increase", "increase_pct"), float))


def _fleet_text(fleet: dict) -> str:
    """A fleet (card or offer → units) in one cell: "a100-80gb-pcie: 2; rtx-4090: 1", or NO_FLEET."""
    return "; ".join(f"{name}: {units}" for name, units in fleet.items()) or NO_FLEET


@dataclass(frozen=True)
class Styled:
    """A value with a number format of its own (the summary's value column mixes units); `align` ("right") a text
    cell's alignment (break-even's "never" in a column of numbers)."""

    value: object
    format: str | None
    align: str | None = None


def assumptions_sheet(plan: Plan, first: date) -> Sheet:
    """Every assumption, in the scenario file's order (plan, prices, on-prem, workloads, constraints), as
    path, value, what it means (the scenario schema's description) and its section, for a reviewer to
    read top to bottom; the plan start first."""
    table = assumptions(plan)
    describe = _describer(plan.scenario)
    rows = [("plan_start", first, "first month of the plan (--start YYYY-MM; default: next month)", "plan")]
    rows += [(path, value, describe(path), path.split(".")[0]) for path, value in zip(table["path"], table["value"])]
    return Sheet(pd.DataFrame(rows, columns=["path", "value", "meaning", "section"]), {"value": None})


def _describer(scenario):
    """path → the scenario JSON Schema's description of the field at that override path ("" if none)."""
    schema = type(scenario).model_json_schema() if hasattr(scenario, "model_json_schema") else {}
    defs = schema.get("$defs", {})

    def resolve(node: dict) -> dict:
        while True:
            if "$ref" in node:
                node = {**defs[node["$ref"].rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
            elif "anyOf" in node:
                node = next((o for o in node["anyOf"] if o.get("type") != "null"), {})
            else:
                return node

    def describe(path: str) -> str:
        node, text = schema, ""
        for part in path.split("."):
            node = resolve(node)
            if part in node.get("properties", {}):
                node = node["properties"][part]
                text = node.get("description", "")
            elif isinstance(node.get("additionalProperties"), dict):    # a name: fx.CNY, card_overrides.<card>
                node = node["additionalProperties"]
            elif isinstance(node.get("items"), dict):                   # workloads by name
                node = node["items"]
        return text

    return describe


# ---------------------------------------------------------------------------------------------------
# Writing


class _Formats:
    """xlsxwriter formats by number format and quote prefix, made once per workbook."""

    def __init__(self, wb):
        self.wb, self.cache = wb, {}
        self.bold = wb.add_format({"bold": True})

    def __call__(self, number_format: str | None, quote_prefix: bool = False, align: str | None = None):
        if number_format is None and not quote_prefix and align is None:
            return None
        key = (number_format, quote_prefix, align)
        if key not in self.cache:
            spec = {"num_format": number_format} if number_format else {}
            spec |= {"align": align} if align else {}
            self.cache[key] = self.wb.add_format({**spec, "quote_prefix": quote_prefix})
        return self.cache[key]


def _table_name(sheet: str) -> str:
    """An Excel table name for a sheet: "purchase schedule" → "PurchaseSchedule"."""
    return "".join(w.capitalize() for w in sheet.replace("-", " ").split())


def _write_table(ws, name: str, sheet: Sheet, formats: _Formats) -> None:
    """`sheet` as an Excel table from A1 (header, filters, banded rows), with a total row of SUMs when
    `sheet.totals` names columns; each cell written with its own type (text never as a formula)."""
    df = sheet.frame
    headers = [workbook_text(str(c)) for c in df.columns]
    n = len(df)
    if n == 0:   # Excel tables need a data row: the header alone, with filters
        for j, h in enumerate(headers):
            ws.write_string(0, j, h, formats.bold)
        ws.autofilter(0, 0, 0, max(0, len(headers) - 1))
    else:
        columns = []
        for j, c in enumerate(df.columns):
            spec = {"header": headers[j], "format": formats(sheet.formats.get(c))}
            if c in sheet.totals:
                spec["total_function"] = f"SUM({_range(1, j, n, j)})"
                spec["total_value"] = float(sum(_number(v) for v in df[c]))
            elif j == 0 and sheet.totals:
                spec["total_string"] = "total"
            columns.append(spec)
        ws.add_table(0, 0, n + bool(sheet.totals), len(headers) - 1,
                     {"name": _table_name(name), "columns": columns, "total_row": bool(sheet.totals),
                      "style": "Table Style Light 9"})
    for i, row in enumerate(df.itertuples(index=False), start=1):
        for j, value in enumerate(row):
            _write(ws, i, j, value, formats, sheet.formats.get(df.columns[j]))
    for column, note in sheet.notes:
        ws.write_comment(0, list(df.columns).index(column), workbook_text(note))
    for j, c in enumerate(df.columns):
        width = max([len(str(c))] + [_width(v) for v in df[c].head(200)])
        ws.set_column(j, j, min(60, max(8, width + 2)))
    ws.freeze_panes(1, 0)
    ws.set_landscape()          # printed: one page wide, the header on every page
    ws.fit_to_pages(1, 0)
    ws.repeat_rows(0)


def _number(value) -> float:
    """The number a total row adds up for `value` (a formula's computed value; blanks as 0)."""
    value = value.value if isinstance(value, (Formula, Styled)) else value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 0.0
    return 0.0 if math.isnan(number) or math.isinf(number) else number


def _width(value) -> int:
    if isinstance(value, (Formula, date)):
        return 12
    return len(str(value.value if isinstance(value, Styled) else value))


def _write(ws, row: int, col: int, value, formats: _Formats, number_format: str | None) -> None:
    """One cell, by the type of `value`: a Formula as a formula with its value, numbers as numbers (NaN
    and inf blank), dates as dates, and any other value as a string cell (containers as JSON) holding
    its `workbook_text`, with the quote_prefix format when it `starts_a_formula`."""
    align = None
    if isinstance(value, Styled):
        value, number_format, align = value.value, value.format, value.align
    fmt = formats(number_format, align=align)
    if isinstance(value, Formula):
        ws.write_formula(row, col, value.text, fmt, value.value)
    elif value is None or value is pd.NA or value is pd.NaT:
        ws.write_blank(row, col, None, fmt)
    elif isinstance(value, (bool, np.bool_)):
        ws.write_boolean(row, col, bool(value), fmt)
    elif isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
        if math.isnan(number) or math.isinf(number):
            ws.write_blank(row, col, None, fmt)
        else:
            ws.write_number(row, col, number, fmt)
    elif isinstance(value, (date, datetime)):
        ws.write_datetime(row, col, value, fmt or formats(DAY))
    else:
        text = _fitted(workbook_text(json.dumps(clean(value)) if isinstance(value, (dict, list, tuple)) else str(value)))
        ws.write_string(row, col, text, formats(number_format, quote_prefix=starts_a_formula(text), align=align))


# A cell holds at most 32,767 UTF-16 units (Excel's limit); xlsxwriter cuts a longer string without a word
# (write_string returns -2). A price file's `source` or `note` cell can be longer: the cell says it was cut.
CELL_UNITS = 32_767


def _fitted(text: str) -> str:
    """`text` as it fits a cell: unchanged within CELL_UNITS, else its start and a note of its length."""
    if len(text) <= CELL_UNITS // 2:   # at most two units a character: no longer than the limit
        return text
    units = text.encode("utf-16-le")
    if len(units) // 2 <= CELL_UNITS:
        return text
    note = f" … [cut: {len(text):,} characters, more than a cell holds]"
    kept = units[:2 * (CELL_UNITS - len(note.encode("utf-16-le")) // 2)]
    return kept.decode("utf-16-le", errors="ignore") + note   # "ignore": half a surrogate pair at the cut
