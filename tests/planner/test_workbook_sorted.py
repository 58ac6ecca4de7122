"""The workbook sorted as Excel sorts a table: the yearly figures stay those of their year.

docs/workbook.md promises that the monthly and yearly tables can be sorted and filtered without breaking the
totals. Excel's sort moves each row's values (and its own formulas, as copies: relative references shift by
the rows moved) and leaves every other formula as it is, so a yearly cell summing monthly rows 2–13 by
position would add up whichever months a sort put there: sorting the monthly sheet of the start-up hybrid
plan at 8 %/year by total_nominal, largest first, turned year 1's total_present_value from 22,193.29 into
25,883.68. Here the sort is done on the openpyxl workbook, the formulas are evaluated afresh from the moved
cells (test_workbook.Book) and compared with the plan's monthly table summed by plan year here. A filter
hides rows without moving any, and the workbook's sums (SUMIFS, SUMPRODUCT, SUM) count hidden rows, so the
formulas read the same cells and it needs no simulation (test_workbook.FORMULA admits no other function).

LibreOffice is not installed where these tests were written, so no sorted file is recalculated by it here."""

from __future__ import annotations

import pytest
from openpyxl.formula.translate import Translator
from openpyxl.utils import get_column_letter
from test_export import HYBRID
from test_workbook import Book

from planner import load_scenario, plan
from planner.reports import plan_to_excel

MONEY = ("capex", "residual_value", "opex", "total_nominal", "capex_present_value", "residual_value_present_value",
         "opex_present_value", "total_present_value")


@pytest.fixture(scope="module")
def hybrid():
    """The start-up hybrid plan discounted at 8 % (present values differ from nominal) and its workbook."""
    p = plan(load_scenario(HYBRID), overrides={"discount_rate": 0.08}, baselines=False)
    return p, plan_to_excel(p, start="2027-11")


def by_year(p) -> dict:
    """The plan's monthly table summed here by plan year (months 1–12 …, month H+1 as "after horizon"):
    capex, residual value, opex (the rest of the month's total) and total, nominal and as present values (each
    month's cost × its discount factor; the month's total_discounted for the total)."""
    out: dict = {}
    for m in p.monthly.itertuples():
        year = (m.month - 1) // 12 + 1 if m.month <= p.horizon_months else "after horizon"
        row = out.setdefault(year, dict.fromkeys(MONEY, 0.0))
        row["capex"] += m.capex
        row["residual_value"] += m.residual_value
        row["total_nominal"] += m.total
        row["capex_present_value"] += m.capex * m.discount_factor
        row["residual_value_present_value"] += m.residual_value * m.discount_factor
        row["total_present_value"] += m.total_discounted
    for row in out.values():
        row["opex"] = row["total_nominal"] - row["capex"] - row["residual_value"]
        row["opex_present_value"] = row["total_present_value"] - row["capex_present_value"] - row["residual_value_present_value"]
    return out


def sort_table(book: Book, sheet: str, header: str, descending: bool = True) -> list[int]:
    """Sort the data rows of `sheet` (not its total row) by the cached values of column `header`, as Excel's
    sort does: every cell of a row moves with it, a formula in a moved row as a copy (Translator shifts its
    relative references, other sheets' included, as Excel does); formulas elsewhere stay as written. Returns
    the old row numbers in their new order."""
    ws, cached = book.formulas[sheet], book.cached[sheet]
    headers = [c.value for c in ws[1]]
    rows = list(range(2, ws.max_row))        # the last row is the table's total row
    j = headers.index(header) + 1
    order = sorted(rows, key=lambda r: cached.cell(r, j).value, reverse=descending)
    assert order != rows, "the sort must move rows"
    before = {r: [(c.value, cached.cell(r, c.column).value) for c in ws[r]] for r in rows}
    for new, old in zip(rows, order):
        for k, (written, value) in enumerate(before[old], start=1):
            if isinstance(written, str) and written.startswith("="):
                column = get_column_letter(k)
                written = Translator(written, origin=f"{column}{old}").translate_formula(f"{column}{new}")
            ws.cell(new, k).value = written
            cached.cell(new, k).value = value
    return order


def yearly_figures(book: Book) -> dict:
    """Each yearly row's money, its formulas evaluated from the cells as they now stand, by the row's year."""
    ws = book.formulas["yearly"]
    headers = [c.value for c in ws[1]]
    out = {}
    for row in ws.iter_rows(min_row=2, max_row=ws.max_row - 1):
        out[row[0].value] = {name: book.value("yearly", row[headers.index(f"{name} (USD)")].coordinate) for name in MONEY}
    return out


def grand_totals(book: Book) -> dict:
    """The yearly sheet's total row (a SUM of each money column), evaluated from the cells as they now stand."""
    ws = book.formulas["yearly"]
    headers = [c.value for c in ws[1]]
    return {name: book.value("yearly", ws.cell(ws.max_row, headers.index(f"{name} (USD)") + 1).coordinate) for name in MONEY}


def assert_figures(book: Book, p) -> None:
    expected = by_year(p)
    figures = yearly_figures(book)
    assert sorted(figures, key=str) == sorted(expected, key=str)
    for year, row in expected.items():
        for name, value in row.items():
            assert figures[year][name] == pytest.approx(value, rel=1e-9, abs=1e-6), (year, name)
    totals = grand_totals(book)
    for name in MONEY:
        assert totals[name] == pytest.approx(sum(r[name] for r in expected.values()), rel=1e-9, abs=1e-6), name
    assert totals["total_present_value"] == pytest.approx(p.total, rel=1e-9)


def test_unsorted_the_yearly_figures_are_the_monthly_table_by_plan_year(hybrid):
    p, data = hybrid
    assert_figures(Book(data), p)


@pytest.mark.parametrize(("header", "descending"), [("total_nominal (USD)", True), ("month", True),
                                                    ("total_discounted (USD)", False)])
def test_sorting_the_monthly_sheet_keeps_each_years_figures(hybrid, header, descending):
    p, data = hybrid
    book = Book(data)
    order = sort_table(book, "monthly", header, descending)
    assert order[:12] != list(range(2, 14))      # year 1's months are no longer rows 2–13
    # each month's own formulas moved with it: its total is still the sum of its own categories
    ws = book.formulas["monthly"]
    total_column = [c.value for c in ws[1]].index("total_nominal (USD)") + 1
    for new, old in zip(range(2, 39), order):
        month = ws.cell(new, 1).value
        assert month == old - 1
        assert book.value("monthly", ws.cell(new, total_column).coordinate) == pytest.approx(
            float(p.monthly.loc[p.monthly["month"] == month, "total"].iloc[0]), rel=1e-12, abs=1e-9)
    assert_figures(book, p)


def test_year_one_is_22_286_17_present_value_before_and_after_sorting_by_total_nominal(hybrid):
    """The audit's case: the figure summed here from the monthly table, and the workbook's year 1 after the sort.
    22,193.29 at 0.14 USD/CNY; at the scenario's sourced 0.13749 the two owned RTX 3060s sold in month 1 (undiscounted)
    fetch 2 × 0.5 × 7,900 CNY × (0.14 − 0.13749) = 19.829 USD less: 22,213.12. The RTX 4090 bought in month 1 at
    1,669.99 USD (not 1,599) adds 70.99 of capex in month 1 (d(1) = 1) and 3 % a year of it in maintenance, 70.99 ×
    0.03 / 12 a month × Σ_{m=1..12} 1.08^(−(m−1)/12) = 0.1774750 × 11.586932 = 2.056391: 22,286.17."""
    p, data = hybrid
    assert by_year(p)[1]["total_present_value"] == pytest.approx(22286.17, abs=0.005)
    book = Book(data)
    sort_table(book, "monthly", "total_nominal (USD)")
    assert yearly_figures(book)[1]["total_present_value"] == pytest.approx(22286.17, abs=0.005)


def test_sorting_the_yearly_sheet_keeps_each_row_on_its_own_year(hybrid):
    """Excel moves a sorted row's formulas as copies: a relative reference to the monthly sheet would shift by
    the rows the year moved; the monthly ranges are absolute and the year cell is the row's own."""
    p, data = hybrid
    book = Book(data)
    sort_table(book, "yearly", "total_present_value (USD)")
    assert [c.value for c in book.formulas["yearly"]["A"][1:-1]] != [1, 2, 3, "after horizon"]
    assert_figures(book, p)


def test_sorting_both_sheets_keeps_each_years_figures(hybrid):
    p, data = hybrid
    book = Book(data)
    sort_table(book, "monthly", "total_nominal (USD)")
    sort_table(book, "yearly", "total_nominal (USD)", descending=False)   # the after-horizon credit first
    assert_figures(book, p)
