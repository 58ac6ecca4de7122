"""The price-store review of 2026-12-07: `prices diff` heads its table with each side (snapshot id, when it was
fetched, the prices' own dates, source), and a snapshot's age is said one way everywhere: calendar days, "N days old".

Stores are built through the store's own API in tmp_path (no network). Snapshot #1 holds the packaged g5.xlarge
on-demand offer of us-east-1 at 1.00 USD/h, dated 2026-01-01, fetched 339 calendar days before a fixed today
(2026-12-07, UTC) at 23:00; snapshot #2 the same offer at 2.00 USD/h, dated 2026-05-30, fetched 10 days before today at 01:00.
"""

import csv
import json
import sys
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path

import pandas as pd
import pytest

import pricing_adapters.refresh as refresh_module
from pricing_adapters import shown
from pricing_adapters.errors import ThrottledError
from pricing_adapters.shown import calendar_days, days_old
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore
from tests.planner.cli_run import run
from tests.planner.test_prices_pinned import SCENARIO

ROOT = Path(__file__).resolve().parents[2]
G5 = "aws:us-east-1:g5.xlarge:on_demand"


def g5_at(price: float, as_of: str) -> pd.DataFrame:
    offers = load_snapshot(["aws"])
    return offers[offers["offer_id"] == G5].assign(hourly_price=price, as_of=as_of).reset_index(drop=True)


# The ages below are counted on a fixed UTC date, frozen in the one clock they read (`shown.utc_today`): a run of the
# suite crossing midnight UTC counted them a day older than the snapshots' times, taken at import, were made for.
TODAY = date(2026, 12, 7)


def days_before_today(days: int, hour: int) -> datetime:
    return datetime.combine(TODAY - timedelta(days=days), time(hour), tzinfo=timezone.utc)


FIRST = days_before_today(339, 23)   # 338.x days elapsed before 23:00 UTC today: 339 calendar days
SECOND = days_before_today(10, 1)


def freeze_today(monkeypatch) -> None:
    monkeypatch.setattr(shown, "utc_today", lambda: TODAY)


@pytest.fixture(autouse=True)
def frozen_today(monkeypatch):
    freeze_today(monkeypatch)


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "prices.sqlite"
    PriceStore(path).save("aws", ["us-east-1"], "AWS Price List test one", g5_at(1.00, "2026-01-01"), fetched_at=FIRST)
    PriceStore(path).save("aws", ["us-east-1"], "AWS Price List test two", g5_at(2.00, "2026-05-30"), fetched_at=SECOND)
    return path


def flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ one way to say an age

def test_an_age_is_counted_in_calendar_days_utc():
    # 2026-01-02 to 2026-12-07: 29 days left of January, then 28+31+30+31+30+31+31+30+31+30 for February to
    # November, and 7 of December = 339
    assert calendar_days("2026-01-02T18:00:00+00:00", date(2026, 12, 7)) == 339
    assert days_old("2026-01-02T18:00:00+00:00", date(2026, 12, 7)) == "339 days old"
    assert days_old("2026-12-06T23:59:00+00:00", date(2026, 12, 7)) == "1 day old"   # yesterday, a minute ago
    # 23:30 at UTC-5 on the 6th is 04:30 UTC on the 7th: today
    assert days_old("2026-12-06T23:30:00-05:00", date(2026, 12, 7)) == "0 days old"
    assert days_old("2026-12-08T00:30:00+00:00", date(2026, 12, 7)) == "0 days old"   # a clock a little ahead


def test_list_show_and_plan_say_a_snapshots_age_in_the_same_calendar_days(store, tmp_path):
    # `prices list` said 338.96 and the plan's line "338.9 days old", where its stale warning counts days between
    # dates (339)
    listed = run("prices", "list", "--store", store, "--format", "json")
    assert listed.exit_code == 0, listed.output
    assert [(r["id"], r["age_days"]) for r in json.loads(listed.stdout)] == [(1, 339), (2, 10)]
    shown = run("prices", "show", "--snapshot", "1", "--store", store, "--format", "json")
    assert shown.exit_code == 0, shown.output
    assert f"aws: store snapshot #1 fetched {FIRST.isoformat()} (339 days old), 1 offer" in flat(shown.stderr)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(pin="  snapshot: 1\n"), encoding="utf-8")
    planned = run("plan", scenario, "--store", store, "--no-baselines", "--format", "json")
    assert planned.exit_code == 0, planned.output
    assert f"prices: aws store snapshot #1 fetched {FIRST.isoformat()} (339 days old)" in flat(planned.stderr)
    assert json.loads(planned.stdout)["total"] == pytest.approx(730 * 1.00)


class Throttled:
    provider, source, skipped = "aws", "fake AWS", {}

    def fetch(self, regions, progress):
        raise ThrottledError("AWS Price List kept throttling after 4 attempts")


def test_a_failed_refresh_names_the_snapshot_kept_with_its_age_in_calendar_days(tmp_path, monkeypatch):
    path = tmp_path / "prices.sqlite"
    PriceStore(path).save("aws", ["us-east-1"], "AWS Price List test one", g5_at(1.00, "2026-01-01"), fetched_at=FIRST)
    monkeypatch.setattr(refresh_module, "get_source", lambda provider, **kw: Throttled())
    result = run("prices", "refresh", "--provider", "aws", "--region", "us-east-1", "--store", path)
    assert result.exit_code == 1, result.output
    assert (f"plans keep using snapshot #1 (aws, us-east-1, 1 offer, fetched {FIRST.isoformat()}, 339 days old) for "
            "us-east-1") in flat(result.stderr)


# ------------------------------------------------------------------ prices diff names its sides

def test_diff_heads_its_table_with_each_snapshots_id_fetch_time_price_dates_and_source(store):
    result = run("prices", "diff", "1", "2", "--store", store, "--format", "json")
    assert result.exit_code == 0, result.output
    said = flat(result.stderr)
    assert (f"old: store snapshot #1 (aws, us-east-1), fetched {FIRST.isoformat()} (339 days old); prices as of "
            "2026-01-01; source: AWS Price List test one") in said
    assert (f"new: store snapshot #2 (aws, us-east-1), fetched {SECOND.isoformat()} (10 days old); prices as of "
            "2026-05-30; source: AWS Price List test two") in said
    # 1.00 → 2.00 USD/h: +100 %; stdout is the JSON alone
    (row,) = json.loads(result.stdout)
    assert (row["offer_id"], row["change_pct"]) == (G5, pytest.approx(100.0))


def test_diff_against_the_packaged_snapshot_names_its_build_date_price_dates_and_sources(store):
    # what the packaged snapshot holds in the region both cover, read here from its CSV and manifest
    with open(ROOT / "pricing_adapters" / "snapshots" / "aws.csv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["region"] == "us-east-1"]
    dates = sorted(r["as_of"] for r in rows if r["as_of"])
    undated = sum(1 for r in rows if not r["as_of"])
    sources = {r["source"] for r in rows}
    built = json.loads((ROOT / "pricing_adapters" / "snapshots" / "manifest.json").read_text())["built_at"]
    assert dates and undated and 1 < len(sources) <= 3   # the facts the heading below is written for
    result = run("prices", "diff", "packaged", "2", "--store", store, "--format", "csv")
    assert result.exit_code == 0, result.output
    (old,) = [line for line in result.stderr.splitlines() if line.startswith("old: ")]
    span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
    assert old.startswith(f"old: the packaged snapshot, built {built}; prices as of {span}, {undated} undated; "
                          f"{len(sources)} sources: ")
    assert set(old.split(" sources: ", 1)[1].split(" | ")) == sources
    assert f"new: store snapshot #2 (aws, us-east-1), fetched {SECOND.isoformat()} (10 days old)" in flat(result.stderr)


# ------------------------------------------------------------------ a sweep of prices.snapshot names each point's

@pytest.fixture
def finish_in_reverse(monkeypatch):
    """The sweep's points finish last first, as worker processes may finish them."""
    import planner.reports.sweep  # noqa: F401   (the name is the function the package exports: the module by its name)

    sweep_module = sys.modules["planner.reports.sweep"]
    solve = sweep_module._solve_points

    def reversed_finish(todo, record, *args, **kwargs):
        finished = []
        solve(todo, lambda i, row: finished.append((i, row)), *args, **kwargs)
        for i, row in reversed(finished):
            record(i, row)

    monkeypatch.setattr(sweep_module, "_solve_points", reversed_finish)


def test_a_sweep_of_the_pinned_snapshot_says_each_points_prices_in_its_order(store, tmp_path, finish_in_reverse):
    # they came in the order the points finished (2 before 1), without the point each belongs to
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(pin=""), encoding="utf-8")
    result = run("sweep", scenario, "--vary", "prices.snapshot=1,2", "--store", store, "--processes", "1",
                 "--format", "csv")
    assert result.exit_code == 0, result.output
    # 730 GPU-hours on the one g5.xlarge offer: 730 × 1.00 on snapshot #1, 730 × 2.00 on #2
    assert [float(line.split(",")[1]) for line in result.stdout.splitlines()[1:]] == pytest.approx([730.0, 1460.0])
    lines = [line for line in result.stderr.splitlines() if line.startswith("prices")]
    assert lines == [f"prices (prices.snapshot=1): aws store snapshot #1 fetched {FIRST.isoformat()} (339 days old)",
                     f"prices (prices.snapshot=2): aws store snapshot #2 fetched {SECOND.isoformat()} (10 days old)"]


def test_a_library_sweep_lists_its_price_sources_in_its_order_with_their_points(store, tmp_path, finish_in_reverse):
    from planner import sweep

    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(pin=""), encoding="utf-8")
    table = sweep(scenario, {"prices.snapshot": [2, None, 1]}, processes=1, store=store)
    assert table["total"].tolist() == pytest.approx([1460.0, 1460.0, 730.0])   # no pin: the newest, #2
    assert [([s["id"] for s in p["snapshots"]], p["points"]) for p in table.attrs["prices"]] == [([2], [0, 1]),
                                                                                                 ([1], [2])]


def test_a_sweep_whose_points_share_their_prices_says_them_once_without_points(store, tmp_path, finish_in_reverse):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(pin=""), encoding="utf-8")
    result = run("sweep", scenario, "--vary", "workloads.ft.gpu_hours_per_month=730,365", "--store", store,
                 "--processes", "1", "--format", "csv")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("prices")]
    assert lines == [f"prices: aws store snapshot #2 fetched {SECOND.isoformat()} (10 days old)"]


# ------------------------------------------------------------------ compare says what an unpinned side was priced with

def pinned_row(result) -> dict:
    assert result.exit_code == 0, result.output
    (row,) = [r for r in json.loads(result.stdout)["provenance"] if r["path"] == "prices used.pinned_snapshot"]
    return row


def test_compare_says_an_unpinned_store_plan_used_the_stores_latest_snapshot(store, tmp_path):
    # it said "(not recorded)", as if the plan had lost what it was priced with
    latest, pinned = tmp_path / "latest.yaml", tmp_path / "pinned.yaml"
    latest.write_text(SCENARIO.format(pin=""), encoding="utf-8")
    pinned.write_text(SCENARIO.format(pin="  snapshot: 1\n"), encoding="utf-8")
    result = run("compare", latest, pinned, "--store", store, "--format", "json")
    assert pinned_row(result) == {"path": "prices used.pinned_snapshot",
                                  "a": "not pinned: the store's latest at run time, #2", "b": 1}
    # 730 GPU-hours at 2.00 (snapshot #2) and at 1.00 (#1)
    totals = json.loads(result.stdout)["totals"]
    assert (totals["a"], totals["b"]) == (pytest.approx(1460.0), pytest.approx(730.0))
    table = run("compare", pinned, latest, "--store", store)
    assert "(not recorded)" not in table.stdout
    assert "not pinned: the store's latest at run time, #2" in flat(table.stdout)


def test_compare_says_an_unpinned_packaged_plan_used_the_packaged_snapshot_and_its_date(store, tmp_path):
    packaged, pinned = tmp_path / "packaged.yaml", tmp_path / "pinned.yaml"
    packaged.write_text(SCENARIO.format(pin="").replace("source: store", "source: snapshot"), encoding="utf-8")
    pinned.write_text(SCENARIO.format(pin="  snapshot: 1\n"), encoding="utf-8")
    result = run("compare", pinned, packaged, "--store", store, "--format", "json")
    # the date of the packaged offer the plan rents, and the snapshot's build date, read from the packaged files
    (used,) = [f"{r['provider']}:{r['region']}:{r['sku']}:{r['purchase_option']}"
               for r in json.loads(result.stdout)["fleet"] if r.get("cost_b")]
    with open(ROOT / "pricing_adapters" / "snapshots" / "aws.csv", newline="", encoding="utf-8") as f:
        (offer,) = [r for r in csv.DictReader(f) if r["offer_id"] == used]
    built = json.loads((ROOT / "pricing_adapters" / "snapshots" / "manifest.json").read_text())["built_at"]
    assert offer["as_of"]
    assert pinned_row(result)["b"] == (f"not pinned: the packaged snapshot built {built}, its cloud prices as of "
                                       f"{offer['as_of']}")
