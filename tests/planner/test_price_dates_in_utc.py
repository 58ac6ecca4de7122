"""The dates a plan judges by are UTC dates, as its `generated_at` is: the same run says the same in any time
zone. An audit saw one run say "on 2026-12-05 … 1108 days" under TZ=America/Los_Angeles and "on 2026-12-06 …
1109 days" under UTC.

The clock is fixed at 2026-12-06 03:00 UTC, which is 19:00 on 5 December in Los Angeles (UTC-8 in December).
From 2023-11-23 to 2026-12-06: three years with one 29 February (365 + 366 + 365 = 1,096 days) to 2026-11-23,
then 13 days: 1,109 days."""

import time
from datetime import date, datetime, timezone

import pytest

from planner.catalog import prices
from planner.reports import tables
from pricing_adapters import shown

NOW = datetime(2026, 12, 6, 3, 0, tzinfo=timezone.utc)


def fixed_clock(now: datetime) -> tuple[type, type]:
    """(date, datetime) classes whose today() and now() read the fixed instant `now` as the system clock would:
    today() and now() without a zone in the local time zone (TZ), now(tz) in that zone."""

    class FixedDate(date):
        @classmethod
        def today(cls):
            local = now.astimezone()
            return cls(local.year, local.month, local.day)

    class FixedDatetime(datetime):
        @classmethod
        def now(cls, tz=None):
            return now.astimezone(tz) if tz is not None else now.astimezone().replace(tzinfo=None)

    return FixedDate, FixedDatetime


@pytest.fixture
def los_angeles(monkeypatch):
    with monkeypatch.context() as m:
        m.setenv("TZ", "America/Los_Angeles")
        time.tzset()
        yield m
    time.tzset()   # the zone of the tests that follow


def on_clock(m, module, now: datetime) -> None:
    fixed_date, fixed_datetime = fixed_clock(now)
    m.setattr(module, "date", fixed_date)
    m.setattr(module, "datetime", fixed_datetime, raising=False)


def test_the_clock_of_this_test_is_local_for_today_and_utc_for_now_utc(los_angeles):
    fixed_date, fixed_datetime = fixed_clock(NOW)
    assert fixed_date.today() == date(2026, 12, 5) and fixed_datetime.now(timezone.utc).date() == date(2026, 12, 6)


def test_the_stale_price_warning_counts_days_to_the_utc_date(los_angeles):
    on_clock(los_angeles, shown, NOW)   # the clock prices.utc_today reads
    report = prices.date_report({"sku": ["g5.xlarge"], "provider": ["aws"], "purchase_option": ["on_demand"],
                                 "region": ["us-east-1"], "source": ["test"], "as_of": ["2023-11-23"]})
    assert report["warnings"] == ["stale prices: 1 of 1 prices used are older than 180 days on 2026-12-06 (oldest "
                                  "2023-11-23, 1109 days): aws g5.xlarge on_demand (us-east-1)"]


def test_the_default_plan_start_is_the_month_after_the_utc_date(los_angeles):
    # 2026-12-01 07:30 UTC is 23:30 on 30 November in Los Angeles: December in UTC, so the plan starts in January
    on_clock(los_angeles, tables, datetime(2026, 12, 1, 7, 30, tzinfo=timezone.utc))
    assert tables.plan_start() == date(2027, 1, 1)
