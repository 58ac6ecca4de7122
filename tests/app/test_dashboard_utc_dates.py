"""The dashboard dates what it says by the UTC date, as a plan's generated_at and its stale-price warning do
(planner.catalog.prices.utc_today): the price banner's "N days ago", the exported YAML's comment, and the files of
the CSV zip (the server's local clock dated them, so the same plan gave another zip on each download).

The clock is fixed at 2026-12-06 03:00 UTC, 19:00 on 5 December in Los Angeles (tests/planner/test_price_dates_in_
utc.py); from 2026-07-20 to 2026-12-06 are 11 + 31 + 30 + 31 + 30 + 6 = 139 days (one fewer to 5 December)."""

from __future__ import annotations

import io
import zipfile

from fleetplan_dashboard import exports, tables
from planner import load_scenario, plan
from pricing_adapters import shown
from tests.planner.test_price_dates_in_utc import NOW, los_angeles, on_clock  # noqa: F401 — a fixture

ENTRY = "scenarios/entry.yaml"


def test_the_price_banner_counts_days_to_the_utc_date(los_angeles):  # noqa: F811
    on_clock(los_angeles, shown, NOW)   # the clock prices.utc_today reads
    dated = {"source": "snapshot", "as_of": "2026-07-20", "as_of_oldest": "2026-07-20",
             "cloud_dates": {"as_of": "2026-07-20", "as_of_oldest": "2026-07-20", "prices": 1, "undated_prices": 0}}
    _, text = tables.price_banner(dated)
    assert "2026-07-20 (139 days ago" in text, text


def test_the_exported_yaml_is_dated_by_the_utc_date(los_angeles):  # noqa: F811
    on_clock(los_angeles, shown, NOW)   # the clock prices.utc_today reads
    text = exports.scenario_yaml(load_scenario(ENTRY), origin="entry.yaml")
    assert "# Exported from entry.yaml on 2026-12-06 (UTC)." in text


def test_the_csv_zips_files_are_dated_when_the_plan_was_made():
    p = plan(ENTRY, baselines=False)
    p.generated_at = "2026-12-06T03:04:05Z"
    first = exports.plan_csv_zip(p)
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        assert {info.date_time for info in zf.infolist()} == {(2026, 12, 6, 3, 4, 4)}   # zip keeps even seconds
    assert exports.plan_csv_zip(p) == first
