"""The finance workbook recalculated by a spreadsheet engine that is not ours: the `formulas` package (a Python
implementation of Excel's formula language that reads an .xlsx and computes every cell from its inputs).

test_workbook.py checks the formulas with a small evaluator of the shapes the workbook writes; this file asks an
independent engine, as a spreadsheet program would when the file is opened with recalculation on:
- every formula computes the value the workbook carries (what a reader that does not recalculate shows);
- the formulas are live: a monthly cost changed by hand moves its month's total, its plan year's nominal and present
  values, and the grand totals by the change (times the month's discount factor for present values), and nothing else.
"""

from __future__ import annotations

import io
import math

import pytest
from openpyxl import load_workbook
from test_export import HYBRID, WORKED

from planner import load_scenario, plan
from planner.reports import plan_to_excel

formulas = pytest.importorskip("formulas")   # declared in the test extra (pyproject.toml); skipped only outside it


def recalculated(data: bytes, folder, name: str = "plan.xlsx") -> dict[tuple[str, str], float]:
    """(sheet, cell) → the value the `formulas` engine computes for every formula cell of the workbook `data`."""
    path = folder / name
    path.write_bytes(data)
    solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    book = load_workbook(io.BytesIO(data))
    values = {}
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    # the engine names a cell '[file]SHEET'!A1, the sheet in capitals
                    result = solution[f"'[{name}]{ws.title.upper()}'!{cell.coordinate}"].value
                    values[ws.title, cell.coordinate] = float(result[0, 0])
    return values


def cached(data: bytes) -> dict[tuple[str, str], object]:
    """(sheet, cell) → the value the workbook carries, as a reader that does not recalculate sees it."""
    book = load_workbook(io.BytesIO(data), data_only=True)
    return {(ws.title, c.coordinate): c.value for ws in book.worksheets for row in ws.iter_rows() for c in row}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)


@pytest.fixture(scope="module")
def hybrid_book() -> bytes:
    """The start-up hybrid plan discounted at 8 % (present values differ from nominal, and resale comes after the
    horizon), its workbook starting in November 2027 (plan years straddle calendar years)."""
    return plan_to_excel(plan(load_scenario(HYBRID), overrides={"discount_rate": 0.08}), start="2027-11")


@pytest.mark.parametrize("which", ["hybrid", "worked"])
def test_every_formula_recalculates_to_the_value_the_workbook_carries(which, hybrid_book, tmp_path):
    data = hybrid_book if which == "hybrid" else plan_to_excel(plan(WORKED, baselines=False), start="2027-01")
    carried = cached(data)
    computed = recalculated(data, tmp_path)
    # the monthly sheet's totals and present values, the yearly sheet's sums and rests, and the total rows
    assert {sheet for sheet, _ in computed} >= {"monthly", "yearly"}
    assert len(computed) > 40
    wrong = {key: (value, carried[key]) for key, value in computed.items() if not close(value, float(carried[key]))}
    assert not wrong


def _columns(ws) -> dict[str, str]:
    """Header → column letter of a sheet."""
    return {cell.value: cell.column_letter for cell in ws[1]}


def test_a_monthly_cost_changed_by_hand_moves_its_year_and_the_totals_only(hybrid_book, tmp_path):
    book = load_workbook(io.BytesIO(hybrid_book))
    monthly, yearly = book["monthly"], book["yearly"]
    m, y = _columns(monthly), _columns(yearly)
    capex = next(h for h in m if h.startswith("capex"))
    # month 14 lies in plan year 2; its discount factor is the one the workbook lists for it
    row = next(r for r in range(2, monthly.max_row + 1) if monthly[f"A{r}"].value == 14)
    assert monthly[f"C{row}"].value == 2
    factor = float(monthly[f"{m['discount_factor']}{row}"].value)
    assert 0 < factor < 1
    before = cached(hybrid_book)
    delta = 1000.0
    old = monthly[f"{m[capex]}{row}"].value or 0
    monthly[f"{m[capex]}{row}"].value = float(old) + delta
    out = io.BytesIO()
    book.save(out)
    after = recalculated(out.getvalue(), tmp_path, "edited.xlsx")

    def moved(sheet: str, cell: str) -> float:
        return after[sheet, cell] - float(before[sheet, cell])

    total_col = next(h for h in m if h.startswith("total_nominal"))
    assert close(moved("monthly", f"{m[total_col]}{row}"), delta)
    year_row = next(r for r in range(2, yearly.max_row + 1) if yearly[f"A{r}"].value == 2)
    total_row = yearly.max_row
    nominal_capex = next(h for h in y if h.startswith("capex") and "present" not in h)
    present_capex = next(h for h in y if h.startswith("capex") and "present" in h)
    nominal_total = next(h for h in y if h.startswith("total_nominal"))
    present_total = next(h for h in y if h.startswith("total_present"))
    for header, expected in [(nominal_capex, delta), (present_capex, delta * factor), (nominal_total, delta),
                             (present_total, delta * factor)]:
        assert close(moved("yearly", f"{y[header]}{year_row}"), expected), header
        assert close(moved("yearly", f"{y[header]}{total_row}"), expected), header
    # opex is the year's total less capex and credits: unchanged; so is every other year
    for header in y:
        if header.startswith("opex"):
            assert close(moved("yearly", f"{y[header]}{year_row}"), 0.0), header
    changed_rows = {"monthly": (row, monthly.max_row), "yearly": (year_row, total_row)}
    for (sheet, cell), value in after.items():
        if int(cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) not in changed_rows[sheet]:
            assert close(value, float(before[sheet, cell])), (sheet, cell)
