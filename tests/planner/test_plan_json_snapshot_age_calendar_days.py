"""A plan's JSON `prices.snapshots[].age_days` is the snapshot's age in whole calendar days (UTC), as `prices list
--format json` gives it and every message says it ("339 days old"): it was the elapsed days with their fraction
(338.96), so the two outputs gave one snapshot two ages.

The store is test_cli_prices_sides_and_ages.py's: snapshot #1 fetched 339 calendar days before its fixed today
(2026-12-07, UTC) at 23:00 (338 and a fraction elapsed before 23:00), snapshot #2 10 calendar days before at 01:00."""

from __future__ import annotations

import json

import pytest

from pricing_adapters.store import PriceStore
from tests.planner.cli_run import run
from tests.planner.test_cli_prices_sides_and_ages import FIRST, SECOND, freeze_today, g5_at
from tests.planner.test_prices_pinned import SCENARIO


@pytest.fixture(autouse=True)
def frozen_today(monkeypatch):
    freeze_today(monkeypatch)


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "prices.sqlite"
    PriceStore(path).save("aws", ["us-east-1"], "AWS Price List test one", g5_at(1.00, "2026-01-01"), fetched_at=FIRST)
    PriceStore(path).save("aws", ["us-east-1"], "AWS Price List test two", g5_at(2.00, "2026-05-30"), fetched_at=SECOND)
    return path


@pytest.mark.parametrize(("pin", "snapshot", "days"), [("  snapshot: 1\n", 1, 339), ("", 2, 10)])
def test_a_plans_json_gives_a_snapshots_age_in_the_calendar_days_prices_list_gives(store, tmp_path, pin, snapshot,
                                                                                  days):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.format(pin=pin), encoding="utf-8")
    planned = run("plan", scenario, "--store", store, "--no-baselines", "--no-decisions", "--format", "json")
    assert planned.exit_code == 0, planned.output
    used = {s["id"]: s["age_days"] for s in json.loads(planned.stdout)["prices"]["snapshots"]}
    assert used[snapshot] == days and isinstance(used[snapshot], int)
    listed = run("prices", "list", "--store", store, "--format", "json")
    assert {r["id"]: r["age_days"] for r in json.loads(listed.stdout)}[snapshot] == days
