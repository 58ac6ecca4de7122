"""The dashboard's "All tables (CSV, zip)" download holds every table the library writes as CSV (plan_to_csv's
twelve), each file as plan_to_csv writes it; a plan solved without baselines has no baselines file instead of
failing the download. (It held six: schedule, installed, owned, speeds and serving were left out; then eleven,
without excluded_offers.)"""

from __future__ import annotations

import io
import zipfile

import pytest

from fleetplan_dashboard import exports
from planner.engine import plan
from planner.reports import plan_to_csv
from planner.scenario import load_scenario_file

# the tables plan_to_csv's docstring names, typed out here rather than read from the code under test
TWELVE = ["fleet", "monthly", "costs", "baselines", "break_even", "utilisation", "schedule", "installed", "owned",
          "speeds", "serving", "excluded_offers"]


@pytest.fixture(scope="module")
def scenario():
    return load_scenario_file("scenarios/startup-hybrid.yaml")


def _files(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name).decode("utf-8") for name in zf.namelist()}


def test_the_zip_holds_every_table_as_plan_to_csv_writes_it(scenario):
    p = plan(scenario)
    files = _files(exports.plan_csv_zip(p))
    assert sorted(files) == sorted(f"{t}.csv" for t in TWELVE)
    for table in TWELVE:
        assert files[f"{table}.csv"] == plan_to_csv(p, table=table)
    # the tables it used to leave out hold the plan's rows: the purchases, and a speed row per GPU used
    assert files["schedule.csv"].count("\n") == len(p.schedule) + 1 > 1
    assert files["speeds.csv"].count("\n") == len(p.speeds) + 1 > 1
    assert files["excluded_offers.csv"].count("\n") == len(p.exclusions) + 1 == 70   # startup-hybrid's 69 rows


def test_a_plan_without_baselines_gives_the_other_eleven(scenario):
    p = plan(scenario, baselines=False)
    files = _files(exports.plan_csv_zip(p))
    assert sorted(files) == sorted(f"{t}.csv" for t in TWELVE if t != "baselines")
