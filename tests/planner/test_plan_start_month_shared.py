"""A month out of 01-12 is named as such by the library's check of a plan's start (reports.tables.plan_start and
start_month), not only by the command line's: the dashboard's Export page, which checks its box with start_month,
answered "2027-13" with only "expected YYYY-MM, e.g. 2026-01", as if its form were wrong (an audit, 2026-12-07)."""

from __future__ import annotations

from datetime import date

import pytest

from planner.errors import PlannerError
from planner.reports.tables import plan_start, start_month


@pytest.mark.parametrize(("start", "said"), [
    ("2027-13", "plan start '2027-13': 13 is no month (01-12); expected YYYY-MM, e.g. 2027-12"),
    (" 2027-00 ", "plan start '2027-00': 00 is no month (01-12); expected YYYY-MM, e.g. 2027-01"),
    ("2026-99", "plan start '2026-99': 99 is no month (01-12); expected YYYY-MM, e.g. 2026-12"),
    ("27-01", "plan start '27-01': expected YYYY-MM, e.g. 2026-01"),             # the form wrong: said as before
])
def test_plan_start_and_start_month_name_a_month_out_of_range(start, said):
    for check in (plan_start, start_month):
        with pytest.raises(PlannerError) as raised:
            check(start)
        assert str(raised.value) == said


def test_a_month_in_range_still_reads():
    assert plan_start("2027-4") == date(2027, 4, 1) and start_month(" 2027-12 ") == "2027-12"


def test_the_export_page_says_it_alike():
    from fleetplan_dashboard.exports import start_given

    assert start_given("2027-13") == (None, "plan start '2027-13': 13 is no month (01-12); expected YYYY-MM, e.g. 2027-12")
    # year 0 is no date: the page's box raised datetime.date's ValueError
    assert start_given("0000-01") == (None, "plan start '0000-01': expected a year from 1900 to 2999")
