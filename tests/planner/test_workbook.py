"""The XLSX finance workbook: number formats, dates from the plan start, the yearly roll-up with capex,
credits and opex, formulas whose cached values are what the formulas compute and what the plan says,
Excel tables with filters, an assumptions sheet in reading order, and no formula made of user text.

Formulas are recomputed here by a small evaluator of the only shapes the workbook writes (SUM of ranges,
SUMIFS and SUMPRODUCT keyed on a cell, + - * of cells), from the input cells up, and compared with the values the
workbook carries; the yearly figures are checked against the plan's cash flows grouped by year here
and against the README's worked example by hand."""

from __future__ import annotations

import io
import re
from datetime import date, datetime

import pytest
from openpyxl import load_workbook
from openpyxl.utils import range_boundaries
from test_export import HYBRID, WORKED
from test_export_attacks import ATTACKS, attack_scenario, starts_a_formula, typed

from planner import add_decisions, load_scenario, plan
from planner.reports import plan_to_excel

# shares: one decimal, up to four under 0.05 % (docs/workbook.md; rendered in test_workbook_shares.py)
# the money of the plans the hybrid fixture compares: present values at its discount rate (docs/workbook.md)
PV = "(USD, present value at 8%/year)"
SHARE = "[>=0.0005]0.0%;[>-0.0005]0.0###%;0.0%"
REF = r"(?:[A-Za-z]+!)?\$?[A-Z]{1,3}\$?[0-9]+"
RANGE = rf"{REF}:\$?[A-Z]{{1,3}}\$?[0-9]+"
# every formula the workbook may hold: no text, no other function, nothing a user typed; a yearly figure sums
# the monthly rows whose plan_year is its row's year (SUMIFS, or SUMPRODUCT with that mask and the factors)
FORMULA = re.compile(rf"=(SUM\({RANGE}\)|SUMIFS\({RANGE},{RANGE},{REF}\)|SUMPRODUCT\((?:\({RANGE}={REF}\)\*1,)?{RANGE},{RANGE}\)"
                     rf"|{REF}(?:[-+*]{REF})+)")


class Book:
    """A workbook read twice: as written (formulas as text) and as a reader that does not recalculate
    sees it (the cached values)."""

    def __init__(self, data: bytes):
        self.formulas = load_workbook(io.BytesIO(data))
        self.cached = load_workbook(io.BytesIO(data), data_only=True)

    def rows(self, sheet: str) -> list[dict]:
        """The data rows of a sheet as header → cached value (the total row included, last)."""
        rows = list(self.cached[sheet].iter_rows(values_only=True))
        return [dict(zip(rows[0], r)) for r in rows[1:]]

    def value(self, sheet: str, coordinate: str) -> float:
        """The cell's value, a formula evaluated here from its inputs (never from a cached value)."""
        cell = self.formulas[sheet][coordinate.replace("$", "")]
        if cell.data_type == "f":
            return self.evaluate(sheet, cell.value)
        assert isinstance(cell.value, (int, float)) and not isinstance(cell.value, bool), (sheet, coordinate, cell.value)
        return float(cell.value)

    def key(self, sheet: str, coordinate: str) -> int | float | str:
        """A criterion's value as the cell holds it: a plan year is a number or the text "after horizon"."""
        cell = self.formulas[sheet][coordinate.replace("$", "")]
        assert cell.data_type != "f" and isinstance(cell.value, (int, float, str)), (sheet, coordinate, cell.value)
        return cell.value

    def cells(self, sheet: str, text: str) -> tuple[str, list]:
        """A one-column range `text` (sheet!A1:A9 or A1:A9) as its sheet and its cells' coordinates, top down."""
        if "!" in text:
            sheet, text = text.split("!")
        first, last = text.replace("$", "").split(":")
        rows = self.formulas[sheet][first:last]
        assert all(len(row) == 1 for row in rows), text
        return sheet, [row[0].coordinate for row in rows]

    def span(self, sheet: str, text: str) -> tuple[str, list[list[float]]]:
        """A range `text` (sheet!A1:B2 or A1:B2) as its sheet and the values of its rows."""
        if "!" in text:
            sheet, text = text.split("!")
        first, last = text.replace("$", "").split(":")
        return sheet, [[self.value(sheet, c.coordinate) for c in row] for row in self.formulas[sheet][first:last]]

    def column(self, sheet: str, text: str) -> list[float]:
        sheet, coordinates = self.cells(sheet, text)
        return [self.value(sheet, c) for c in coordinates]

    def mask(self, sheet: str, text: str, criterion: str) -> list[bool]:
        """range = cell, as Excel compares: numbers by value, text by text ignoring case, a number never equal
        to a text."""
        want = self.key(sheet, criterion)
        area, coordinates = self.cells(sheet, text)
        return [_same(self.key(area, c), want) for c in coordinates]

    def evaluate(self, sheet: str, formula: str) -> float:
        assert FORMULA.fullmatch(formula), formula
        body = formula[1:]
        if body.startswith("SUMIFS("):
            total, where, criterion = body[len("SUMIFS("):-1].split(",")
            return sum(v for v, hit in zip(self.column(sheet, total), self.mask(sheet, where, criterion), strict=True) if hit)
        if body.startswith("SUMPRODUCT("):
            args = body[len("SUMPRODUCT("):-1].split(",")
            hits = [True] * len(self.column(sheet, args[-1]))
            if args[0].endswith(")*1"):
                where, criterion = args.pop(0)[1:-len(")*1")].split("=")
                hits = self.mask(sheet, where, criterion)
            a, b = (self.column(sheet, r) for r in args)
            return sum(x * y for x, y, hit in zip(a, b, hits, strict=True) if hit)
        if body.startswith("SUM("):
            return sum(sum(row) for row in self.span(sheet, body[len("SUM("):-1])[1])
        expression = re.sub(REF, lambda m: f"({self.value(sheet, m.group(0))!r})", body)
        assert re.fullmatch(r"[-+*() .0-9e]+", expression), expression
        return eval(expression)   # numbers and + - * only, checked above


def _same(cell, criterion) -> bool:
    if isinstance(cell, str) or isinstance(criterion, str):
        return isinstance(cell, str) and isinstance(criterion, str) and cell.lower() == criterion.lower()
    return cell == criterion


@pytest.fixture(scope="module")
def hybrid():
    """The start-up hybrid plan discounted at 8 % (present values differ from nominal) with baselines and
    decision values, and its workbook starting in November 2027 (so plan years straddle calendar years)."""
    p = add_decisions(plan(load_scenario(HYBRID), overrides={"discount_rate": 0.08}))
    return p, Book(plan_to_excel(p, start="2027-11"))


@pytest.fixture(scope="module")
def worked():
    p = plan(WORKED, baselines=False)
    return p, Book(plan_to_excel(p, start="2027-01"))


def formula_cells(book: Book):
    for ws in book.formulas.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    yield ws.title, cell


def test_every_formula_carries_the_value_it_computes(hybrid):
    _, book = hybrid
    checked = 0
    for sheet, cell in formula_cells(book):
        cached = book.cached[sheet][cell.coordinate].value
        assert isinstance(cached, float), (sheet, cell.coordinate, cell.value, cached)
        assert cached == pytest.approx(book.evaluate(sheet, cell.value), rel=1e-12, abs=1e-9), (sheet, cell.coordinate)
        checked += 1
    # monthly: 37 totals and present values + totals of 9 categories, total and present value;
    # yearly: 4 rows × 8 (capex, credits, opex, total; nominal and present value) + 8 totals
    assert checked == 37 * 2 + 11 + 4 * 8 + 8


def test_the_evaluator_catches_a_formula_pointing_at_the_wrong_rows(hybrid):
    _, book = hybrid
    right = book.formulas["yearly"]["F2"].value
    assert right == "=SUMIFS(monthly!$D$2:$D$38,monthly!$C$2:$C$38,$A2)"
    assert book.evaluate("yearly", right) != book.evaluate("yearly", right.replace("$A2", "$A3"))
    assert book.evaluate("yearly", right) != book.evaluate("yearly", "=SUM(monthly!D3:D14)")


def test_monthly_rows_are_dated_from_the_plan_start_and_carry_the_plans_costs(hybrid):
    p, book = hybrid
    rows = book.rows("monthly")
    months, total = rows[:-1], rows[-1]
    assert [r["month"] for r in months] == list(range(1, 38))
    # November 2027 + 2 months is January 2028; month 37 (after the 36-month horizon) is November 2030
    assert [r["month_start"] for r in months[:3]] == [datetime(2027, 11, 1), datetime(2027, 12, 1), datetime(2028, 1, 1)]
    assert months[36]["month_start"] == datetime(2030, 11, 1)
    assert [r["plan_year"] for r in months] == [1] * 12 + [2] * 12 + [3] * 12 + ["after horizon"]
    assert book.formulas["monthly"]["B2"].number_format == "yyyy-mm"
    for r, expected in zip(months, p.monthly.itertuples()):
        assert r["total_nominal (USD)"] == pytest.approx(expected.total, rel=1e-12, abs=1e-9)
        assert r["total_discounted (USD)"] == pytest.approx(expected.total_discounted, rel=1e-12, abs=1e-9)
    assert total["month"] == "total"
    assert total["total_discounted (USD)"] == pytest.approx(p.total, rel=1e-12)
    assert total["capex (USD)"] == pytest.approx(p.flows.loc[p.flows["category"] == "capex", "cost"].sum())


def by_year(p, horizon: int) -> dict:
    """The plan's cash flows grouped here by plan year (months 1–12 …; after the horizon apart) into
    capex, residual value and opex (everything else), nominal and present value."""
    out: dict = {}
    for f in p.flows.itertuples():
        year = (f.month - 1) // 12 + 1 if f.month <= horizon else "after horizon"
        group = f.category if f.category in ("capex", "residual_value") else "opex"
        row = out.setdefault(year, {})
        row[f"{group} (USD)"] = row.get(f"{group} (USD)", 0.0) + f.cost
        row[f"{group}_present_value (USD)"] = row.get(f"{group}_present_value (USD)", 0.0) + f.present_value
    return out


def test_yearly_roll_up_is_the_plans_flows_by_year(hybrid):
    p, book = hybrid
    rows = book.rows("yearly")
    expected = by_year(p, 36)
    assert [r["year"] for r in rows] == [1, 2, 3, "after horizon", "total"]
    for r in rows[:-1]:
        for column, value in expected[r["year"]].items():
            assert r[column] == pytest.approx(value, rel=1e-9, abs=1e-6), (r["year"], column)
        assert r["total_nominal (USD)"] == pytest.approx(r["capex (USD)"] + r["residual_value (USD)"] + r["opex (USD)"])
    # plan year 1 runs November 2027 to October 2028; the after-horizon row is month 37, November 2030
    assert (rows[0]["from"], rows[0]["to"]) == (datetime(2027, 11, 1), datetime(2028, 10, 31))
    assert (rows[3]["first_month"], rows[3]["last_month"], rows[3]["from"]) == (37, 37, datetime(2030, 11, 1))
    assert rows[-1]["total_present_value (USD)"] == pytest.approx(p.total, rel=1e-12)
    assert rows[-1]["total_nominal (USD)"] == pytest.approx(p.flows["cost"].sum(), rel=1e-12)
    assert p.flows["present_value"].sum() != pytest.approx(p.flows["cost"].sum())   # discounting shows


def test_yearly_sums_take_the_monthly_rows_of_their_own_year(hybrid):
    """Each yearly sum runs over every month (rows 2–38, absolute) and picks its months by the monthly plan_year
    column, compared with the row's own year cell: not by where those months stand on the sheet."""
    _, book = hybrid
    header = [c.value for c in book.formulas["monthly"][1]]
    key = "monthly!$C$2:$C$38"
    assert header[2] == "plan_year"
    months_of_year = {}
    for row in book.formulas["monthly"].iter_rows(min_row=2, max_row=38):
        months_of_year.setdefault(row[2].value, []).append(row[0].value)
    for row in book.formulas["yearly"].iter_rows(min_row=2, max_row=5):
        year, first, last = (c.value for c in row[:3])
        assert months_of_year[year][0] == first and months_of_year[year][-1] <= last   # after horizon: month 37 alone
        sums = [c.value for c in row[5:] if "monthly!" in c.value]
        assert len(sums) == 6, sums   # capex, credits, total; nominal and present value (opex: the rest)
        for formula in sums:
            ranges = re.findall(r"monthly!(\$[A-Z]+\$[0-9]+:\$[A-Z]+\$[0-9]+)", formula)
            assert ranges and all(range_boundaries(r.replace("$", ""))[1::2] == (2, 38) for r in ranges), formula
            assert f"{key},$A{row[0].row})" in formula or f"({key}=$A{row[0].row})*1" in formula, formula


def test_monthly_totals_add_up_every_cost_category_and_nothing_else(hybrid):
    p, book = hybrid
    ws = book.formulas["monthly"]
    header = [c.value for c in ws[1]]
    categories = {f"{c} (USD)" for c in p.costs["category"]}
    for row in ws.iter_rows(min_row=2, max_row=38):
        formula = row[header.index("total_nominal (USD)")].value
        left, top, right, bottom = range_boundaries(formula.removeprefix("=SUM(").removesuffix(")"))
        assert top == bottom == row[0].row
        assert set(header[left - 1:right]) == categories, formula


def test_worked_example_by_year_by_hand(worked):
    """README, "Cost model": 2,500 capex in month 1; per year maintenance 2,500 × 0.05 = 125, idle energy
    0.1 kW × 730 h × 1.5 × 0.20 × 12 = 262.80, busy energy 0.3 × 657 × 1.5 × 0.20 × 12 = 709.56, cloud
    178.75 h × 1.006 × 12 = 2,157.87; after the 24 months half the straight-line book value back:
    −0.5 × 2,500 × (1 − 24/48) = −625; undiscounted, total 8,385.46."""
    _, book = worked
    rows = {r["year"]: r for r in book.rows("yearly")}
    opex_per_year = 125 + 262.80 + 709.56 + 178.75 * 1.006 * 12
    assert rows[1]["capex (USD)"] == 2500 and rows[2]["capex (USD)"] == 0
    assert rows[1]["opex (USD)"] == pytest.approx(opex_per_year, abs=0.01)
    assert rows[2]["opex (USD)"] == pytest.approx(opex_per_year, abs=0.01)
    assert rows["after horizon"]["residual_value (USD)"] == -625 and rows["after horizon"]["opex (USD)"] == 0
    assert rows["total"]["total_nominal (USD)"] == pytest.approx(8385.46, abs=0.01)
    assert rows["total"]["total_present_value (USD)"] == pytest.approx(8385.46, abs=0.01)


def test_a_horizon_that_is_not_whole_years_ends_with_a_short_year():
    p = plan(WORKED, overrides={"horizon_months": 18}, baselines=False)
    book = Book(plan_to_excel(p, start="2027-01"))
    rows = book.rows("yearly")
    assert [(r["year"], r["first_month"], r["last_month"]) for r in rows[:-1]] == [
        (1, 1, 12), (2, 13, 18), ("after horizon", 19, 19)]
    assert rows[1]["to"] == datetime(2028, 6, 30)
    assert rows[-1]["total_present_value (USD)"] == pytest.approx(p.total, rel=1e-12)


def test_money_has_its_currency_in_the_header_and_shares_are_percentages(hybrid):
    p, book = hybrid
    for ws in book.formulas.worksheets:
        header = [c.value for c in ws[1]]
        for j, name in enumerate(header):
            cells = [row[j] for row in ws.iter_rows(min_row=2) if isinstance(row[j].value, (int, float, str))]
            if name.endswith(("(USD)", "(USD, present value at 8%/year)", "(USD, nominal: as paid)",   # with its basis
                              "(USD, nominal: undiscounted)", "(USD, nominal)")):
                assert {c.number_format for c in cells} <= {"#,##0.00", "#,##0.0000"} and cells, (ws.title, name)
            if name.endswith("(%)"):
                assert {c.number_format for c in cells} == {SHARE}, (ws.title, name)
    assert not any(name.endswith(("_pct", "pct)")) for ws in book.formulas.worksheets for name in
                   (c.value for c in ws[1]))
    baselines = book.rows("baselines")
    for r in baselines:    # a share of the baseline's total, not percent points
        assert r["savings (%)"] == pytest.approx(r[f"savings {PV}"] / r[f"total {PV}"], rel=1e-9)
        assert 0 < r["savings (%)"] < 1
    summary = {r[0].value: r for r in book.formulas["summary"].iter_rows(min_row=2)}
    assert summary["total"][1].number_format == "#,##0.00"
    assert summary["total"][2].value == "USD, present value at 8%/year"   # the fixture's discount_rate
    assert summary["assumption.resale_share_of_book"][1].number_format == SHARE
    assert summary["plan_start"][1].value == "2027-11-01"


def test_every_sheet_is_one_excel_table_with_filters(hybrid):
    _, book = hybrid
    for ws in book.formulas.worksheets:
        tables = list(ws.tables.values())
        if ws.title == "serving":   # the hybrid has no serving workload: the header alone, with filters
            assert not tables and ws.max_row == 1 and ws.auto_filter.ref, ws.title
            continue
        assert len(tables) == 1, ws.title
        assert tables[0].ref == ws.dimensions, ws.title
        if tables[0].totalsRowCount:
            assert tables[0].autoFilter.ref == ws.dimensions.rsplit(str(ws.max_row), 1)[0] + str(ws.max_row - 1)
        else:
            assert tables[0].autoFilter.ref == ws.dimensions
    assert book.formulas["yearly"].tables["Yearly"].totalsRowCount == 1


def test_an_empty_table_still_has_its_header_and_filters(worked):
    p, book = worked
    assert len(p.owned) == 0          # the worked example owns no cards
    ws = book.formulas["owned cards"]
    pv = "(USD, present value at 0%/year, undiscounted)"   # the worked example's discount_rate is 0
    assert [c.value for c in ws[1]] == [f"{c} {pv}" if c in ("fixed_costs_avoided", "end_value") else c for c in p.owned.columns]
    assert ws.max_row == 1 and ws.auto_filter.ref == f"A1:{ws.cell(1, ws.max_column).column_letter}1"


def test_assumptions_read_top_to_bottom_with_their_meaning(hybrid):
    p, book = hybrid
    rows = book.rows("assumptions")
    assert rows[0]["path"] == "plan_start" and rows[0]["value"] == datetime(2027, 11, 1)
    paths = [r["path"] for r in rows]
    # the scenario file's order: plan-wide settings, prices, on-prem, workloads, constraints
    first = {section: next(i for i, q in enumerate(paths) if q.split(".")[0] == section)
             for section in ("currency", "discount_rate", "prices", "onprem", "workloads", "constraints")}
    assert list(first.values()) == sorted(first.values())
    by_path = {r["path"]: r for r in rows}
    assert by_path["discount_rate"]["value"] == 0.08 and "annual" in by_path["discount_rate"]["meaning"]
    assert by_path["currency"]["meaning"] == "ISO 4217 code all costs are reported in"
    assert by_path["onprem.resale.method"]["section"] == "onprem"


def test_the_same_plan_makes_the_same_workbook(worked):
    p, _ = worked
    assert plan_to_excel(p, start="2027-01") == plan_to_excel(p, start="2027-01")
    assert date(2027, 1, 1) == load_workbook(io.BytesIO(plan_to_excel(p, start="2027-01")))["assumptions"]["B2"].value.date()


def test_no_formula_is_made_of_user_text(tmp_path):
    p = plan(load_scenario(attack_scenario(tmp_path)))
    data = plan_to_excel(p)
    book = Book(data)
    formulas = 0
    for ws in book.formulas.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    assert FORMULA.fullmatch(cell.value), (ws.title, cell.coordinate, cell.value)
                    formulas += 1
                elif isinstance(cell.value, str):   # a string cell; the quote prefix keeps it text when edited
                    assert cell.quotePrefix or not starts_a_formula(cell.value), (ws.title, cell.coordinate, cell.value)
    assert formulas > 0
    texts = {c.value for ws in book.formulas.worksheets for row in ws.iter_rows() for c in row if isinstance(c.value, str)}
    for name in ATTACKS:
        assert typed(name) in texts, repr(name)


def test_decision_sheets_carry_the_plans_decisions_runner_up_and_flip_points(hybrid):
    p, book = hybrid
    decisions = book.rows("decisions")
    assert len(decisions) == len(p.decisions) > 0
    for row, want in zip(decisions, p.decisions.to_dict("records")):
        assert (row["decision"], row["card_or_offer"], row["month"]) == (want["decision"], want["card_or_offer"], want["month"])
        if want["status"] == "infeasible":        # no fleet: blank money cells, the reason in the note
            assert row[f"total_if_forbidden {PV}"] is None and "min_units" in row["note"]
            continue
        assert row[f"total_if_forbidden {PV}"] == pytest.approx(want["total_if_forbidden"], rel=1e-12)
        # a share of the plan's total, one scale in the workbook: increase / total
        assert row["increase (%)"] == pytest.approx(row[f"increase {PV}"] / p.total, rel=1e-9)
    runner = {r["field"]: r for r in book.rows("runner-up")}
    assert runner["close_call"]["value"] is p.close_call
    assert runner["runner_up.total"]["value"] == pytest.approx(p.runner_up["total"])
    assert runner["runner_up.total"]["unit"] == "USD, present value at 8%/year"
    assert runner["runner_up.increase_share"]["value"] == pytest.approx(
        (p.runner_up["total"] - p.total) / p.total, rel=1e-9)
    for name, units in p.runner_up["fleet"].items():
        assert runner[f"runner_up.fleet.{name}"]["value"] == units
    formats = {r[0].value: r[1].number_format for r in book.formulas["runner-up"].iter_rows(min_row=2)}
    assert formats["runner_up.total"] == "#,##0.00" and formats["runner_up.increase_share"] == SHARE
    assert formats["close_call_share"] == SHARE
    flips = book.rows("flip points")
    assert [r["card"] for r in flips] == list(p.flip_points["card"])
    for row in flips:
        assert row["flip_share_of_today (%)"] == pytest.approx(row["flip_demand"] / row["demand_today"], rel=1e-9)
        assert 0 < row["precision (%)"] < 0.01


def test_decision_sheets_hold_their_headers_when_decisions_were_not_computed(worked):
    _, book = worked
    for sheet in ("decisions", "runner-up", "flip points"):
        ws = book.formulas[sheet]
        assert ws.max_row == 1 and ws.auto_filter.ref, sheet
    assert [c.value for c in book.formulas["runner-up"][1]] == ["field", "value", "unit"]


def test_payments_after_the_horizon_keep_their_own_discounting_in_the_after_horizon_row(tmp_path):
    # 18 months at 8 %: the second one-year term of the g5.xlarge reservation runs to month 24, so row
    # 19 holds six monthly fees of 0.55 × 730 = 401.5 per instance, each discounted in its own month,
    # and the cards' resale credit, discounted at d(19); total × d(19) would overstate its present value
    from test_focus import _offers_csv
    p = plan(load_scenario(WORKED), baselines=False, overrides={
        "prices.source": str(_offers_csv(tmp_path)), "prices.purchase_options": ["on_demand", "spot", "reserved_1y"],
        "horizon_months": 18, "discount_rate": 0.08, "workloads.training.gpu_hours_per_month": 3000})
    units = float(p.fleet.loc[p.fleet["purchase_option"] == "reserved_1y", "units"].sum())
    assert units >= 1
    d = {m: 1.08 ** (-(m - 1) / 12) for m in range(1, 25)}
    last = p.monthly.iloc[-1]
    by_hand = last["residual_value"] * d[19] + sum(units * 401.5 * d[m] for m in range(19, 25))
    assert last["total"] == pytest.approx(last["residual_value"] + 6 * units * 401.5, rel=1e-9)
    book = Book(plan_to_excel(p, start="2026-01"))
    rows = book.rows("monthly")
    assert rows[18]["month"] == 19 and rows[18]["total_discounted (USD)"] == pytest.approx(by_hand, rel=1e-9)
    assert rows[-1]["total_discounted (USD)"] == pytest.approx(p.total, rel=1e-9)
    yearly = book.rows("yearly")
    assert yearly[-2]["year"] == "after horizon"
    # its months are 19 to 24 (2027-07-01 to 2027-12-31 from a January 2026 start), not month 19 alone
    assert (yearly[-2]["first_month"], yearly[-2]["last_month"]) == (19, 24)
    assert (yearly[-2]["from"], yearly[-2]["to"]) == (datetime(2027, 7, 1), datetime(2027, 12, 31))
    assert yearly[-2]["total_present_value (USD)"] == pytest.approx(by_hand, rel=1e-9)
    assert yearly[-1]["total_present_value (USD)"] == pytest.approx(p.total, rel=1e-9)
    # and every formula still computes what it carries, the totals from the row's value up
    for sheet, cell in formula_cells(book):
        assert book.cached[sheet][cell.coordinate].value == pytest.approx(book.evaluate(sheet, cell.value),
                                                                          rel=1e-12, abs=1e-9), (sheet, cell.coordinate)
