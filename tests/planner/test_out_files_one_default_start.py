"""`fleetplan plan --out DIR` without --start dates the workbook's and FOCUS's months from one month 1, the month after
today (UTC): each file read the clock for it, so a set written across the turn of a month (23:59:59 on 31 December,
then 00:00:00 on 1 January) dated the workbook from January 2027 and FOCUS from February 2027. Month 1 is the month
after the plan's `generated_at`, the time every file of the set is stamped with.

The clock here is planner.reports.tables' (plan_start's default and the plan's generated_at), made to tick one second
at each read from 2026-12-31 23:59:58 UTC: the first reads see 31 December (month 1: January 2027), a third one
1 January (month 1: February 2027)."""

from __future__ import annotations

import csv
from datetime import datetime, timedelta, timezone
from pathlib import Path

from openpyxl import load_workbook

from planner import load_scenario, plan
from planner.reports import tables, write_plan_files

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


def ticking_clock(start: datetime) -> type:
    """A datetime class whose now() is `start`, then one second later at each further read."""
    reads = []

    class Ticking(datetime):
        @classmethod
        def now(cls, tz=None):
            reads.append(1)
            return (start + timedelta(seconds=len(reads) - 1)).astimezone(tz)

    return Ticking


def test_the_workbook_and_focus_of_one_out_set_start_in_the_same_month(tmp_path, monkeypatch):
    p = plan(load_scenario(WORKED), baselines=False)
    monkeypatch.setattr(tables, "datetime", ticking_clock(datetime(2026, 12, 31, 23, 59, 58, tzinfo=timezone.utc)))
    write_plan_files(p, tmp_path / "out")
    monthly = load_workbook(tmp_path / "out" / "plan.xlsx")["monthly"]
    assert monthly["A1"].value == "month" and monthly["B1"].value == "month_start"
    assert (monthly["A2"].value, monthly["B2"].value) == (1, datetime(2027, 1, 1))
    with (tmp_path / "out" / "focus.csv").open(newline="") as fh:
        starts = {row["ChargePeriodStart"] for row in csv.DictReader(fh)}
    assert min(starts) == "2027-01-01T00:00:00Z"
    summary = {row[0]: row[1] for row in load_workbook(tmp_path / "out" / "plan.xlsx")["summary"].iter_rows(values_only=True)}
    assert (summary["generated_at"], summary["plan_start"]) == ("2026-12-31T23:59:58Z", "2027-01-01")
