"""Shares in the workbook (docs/workbook.md): a share under 0.05 % but not 0 does not read as 0.0 %. There is no
Excel here, so `shown` renders the number format by Excel's rules for its conditional sections, for the two
section bodies the workbook uses: the first section whose condition holds, else the third; a section whose
condition holds only for negative numbers would hide the minus sign (its text carries one), any other shows it
unless the value rounds to 0. When written, it agreed with snoopyjc/ssf (a Python port of SheetJS's formatter checked against
Excel) on every value below and on the formats of test_the_renderer_reads_excel_sections_as_documented."""

from __future__ import annotations

import io
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from planner import add_decisions, plan
from planner.reports import plan_to_excel

ROOT = Path(__file__).resolve().parents[2]
SHARE = "[>=0.0005]0.0%;[>-0.0005]0.0###%;0.0%"
CONDITION = re.compile(r"^\[(>=|<=|<>|>|<|=)(-?[0-9.]+)\](.*)$")
HOLDS = {">=": lambda v, t: v >= t, "<=": lambda v, t: v <= t, ">": lambda v, t: v > t, "<": lambda v, t: v < t,
         "=": lambda v, t: v == t, "<>": lambda v, t: v != t}


def _body(body: str, v: float) -> str:
    """`0.0%` or `0.0###%`: v × 100 rounded half away from zero to as many decimals as 0s and #s, trailing
    zeros dropped down to the 0s."""
    m = re.fullmatch(r"0\.(0+)(#*)%", body)
    assert m, f"the test renders 0.0% and 0.0###% only, not {body}"
    least, most = len(m[1]), len(m[1]) + len(m[2])
    text = f"{Decimal(repr(abs(v) * 100)).quantize(Decimal(1).scaleb(-most), rounding=ROUND_HALF_UP):f}"
    whole, decimals = text.split(".")
    return f"{whole}.{decimals.rstrip('0').ljust(least, '0')}%"


def shown(fmt: str, v: float) -> str:
    sections = fmt.split(";")
    body, signed = sections[0], True
    if len(sections) > 1:
        assert len(sections) == 3, fmt
        parsed = [CONDITION.match(s) for s in sections[:2]]
        assert all(parsed), fmt
        body = sections[2]
        for m in parsed:
            op, limit = m[1], float(m[2])
            if HOLDS[op](v, limit):
                body, signed = m[3], not (op in ("<", "<=", "=") and (limit < 0 or (limit == 0 and op == "<")))
                break
    text = _body(body, v)
    # no minus sign on a value that rounds to 0
    return ("-" if v < 0 and signed and text.strip("0.%") else "") + text


@pytest.mark.parametrize("value, text", [
    (182.7368 / 2_017_777, "0.0091%"),   # industrial's month-7 decision: 0.009056 %
    (488.4561 / 2_017_777, "0.0242%"), (0.0004, "0.04%"), (-0.0001, "-0.01%"), (-0.000003, "-0.0003%"),
    (0.0, "0.0%"), (0.0005, "0.1%"), (-0.0005, "-0.1%"), (0.0163799, "1.6%"), (0.25, "25.0%"), (-0.25, "-25.0%"),
    (1.675, "167.5%"), (3e-7, "0.0%")])   # under half a millionth: 0.00003 % rounds to 0 at four decimals
def test_the_share_format_shows_a_small_share_and_keeps_one_decimal_otherwise(value, text):
    assert shown(SHARE, value) == text


def test_the_renderer_reads_excel_sections_as_documented():
    # the known behaviours it models: one section keeps the sign; a negative-only section hides it
    assert shown("0.0%", -0.25) == "-25.0%" and shown("0.0%", 9e-5) == "0.0%"
    assert shown("[<=-0.0005]0.0%;[>=0.0005]0.0%;0.0###%", -0.25) == "25.0%"


@pytest.fixture(scope="module")
def industrial():
    p = add_decisions(plan(ROOT / "scenarios" / "industrial.yaml", baselines=False))
    return p, load_workbook(io.BytesIO(plan_to_excel(p, start="2027-01")))


def test_industrials_small_decision_reads_as_its_share_not_as_0(industrial):
    p, wb = industrial
    rows = list(wb["decisions"].iter_rows())
    header = [c.value for c in rows[0]]
    month7 = next(dict(zip(header, r)) for r in rows[1:] if r[header.index("month")].value == 7)
    share = month7["increase (%)"]
    assert month7["increase (USD, present value at 8%/year)"].value == pytest.approx(182.74, abs=0.01)
    assert share.value == pytest.approx(month7["increase (USD, present value at 8%/year)"].value / p.total, rel=1e-9)
    assert share.number_format == SHARE and shown(share.number_format, share.value) == "0.0091%"


def test_every_share_of_the_workbook_has_the_format(industrial):
    _, wb = industrial
    found = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if "%" in cell.number_format:
                    assert cell.number_format == SHARE, (ws.title, cell.coordinate)
                    found += 1
    assert found > 20   # decisions, baselines, runner-up, break-even, speeds, prices used, the summary …


def test_the_runner_up_note_gives_a_small_share_as_the_summary_does():
    # a runner-up 90 USD below an unproven plan of 2,000,000 USD: 90 / 2,000,000 = 0.0045 %, which read 0.00 %
    from types import SimpleNamespace

    from planner.reports.excel import _verdict

    told = SimpleNamespace(status="feasible", total=2_000_000.0, close_call=False, currency="USD")
    runner = {"total": 1_999_910.0, "increase": -90.0, "increase_pct": -0.0045, "status": "optimal"}
    verdict, note = _verdict(told, runner)
    assert verdict == "not the best plan" and note.startswith("the runner-up costs 90.00 USD (0.0045 %) less than this plan")
