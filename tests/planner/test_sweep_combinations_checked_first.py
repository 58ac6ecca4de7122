"""A sweep refuses up front a value that is valid alone but that the scenario refuses with every value varied beside
it (an audit, 2026-12-06): `--vary constraints.min_units.X=0,3 --vary constraints.max_units.X=1,2` solved the points of
min 0 and made both points of min 3 error rows, though min 3 can plan at none of them: as useless as a typo, it is
now refused before anything is solved, with the reason. A grid where only some combinations fail still runs, and
those points are error rows. The points the check builds are handed to the sweep, which does not build them again.
The expected messages and counts are worked out by hand from entry.yaml (no min_units or max_units of its own)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from planner import ScenarioError, load_scenario, sweep
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"   # cards rtx-3060-12gb, rtx-4060-ti-16gb; pue 1.0; 0.15 USD/kWh; 24 months
MIN = "constraints.min_units.rtx-3060-12gb"
MAX = "constraints.max_units.rtx-3060-12gb"
GROWTH = "workloads.coursework-and-kaggle.growth_per_month"   # 120 GPU-hours a month, growth 0 in entry.yaml


def said(result) -> str:
    return " ".join(result.stderr.split())


def test_a_value_refused_with_every_value_beside_it_is_refused_before_anything_is_solved(nothing_solved):
    # min 3 is valid alone (entry.yaml has no max), but above max 1 and max 2 alike; min 0 plans with both
    result = run("sweep", ENTRY, "--vary", f"{MIN}=0,3", "--vary", f"{MAX}=1,2", "--format", "csv", "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert said(result) == (f"error: --vary: 1 problem {MIN}=3: no point of the sweep can plan it (valid alone, refused "
                            f"with each value of {MAX}); e.g. with {MAX}=1: {MIN}: 3 > max_units 1")


def test_the_problem_every_point_of_the_value_shares_is_its_reason(nothing_solved):
    # min 3 with max 1 fails alike at pue 1.0 and 1.2: that one problem is the reason, no example point
    with pytest.raises(ScenarioError) as info:
        sweep(ENTRY, {MIN: [0, 3], MAX: [1], "onprem.pue": [1.0, 1.2]}, processes=1)
    assert info.value.problems == [f"{MIN}=3: no point of the sweep can plan it (valid alone, refused with each value of "
                                   f"{MAX} and onprem.pue): {MIN}: 3 > max_units 1"]


def test_a_value_with_one_point_is_refused_naming_that_point(nothing_solved):
    with pytest.raises(ScenarioError) as info:
        sweep(ENTRY, {MIN: [1, 3], MAX: [2]}, processes=1)
    assert info.value.problems == [f"{MIN}=3: no point of the sweep can plan it (valid alone, refused with {MAX}=2): "
                                   f"{MIN}: 3 > max_units 2"]


def test_every_value_of_a_sweep_no_point_of_which_plans_is_named(nothing_solved):
    # min 3 above both maxes: no point plans, so each of the three values is named with its first point's reason
    with pytest.raises(ScenarioError) as info:
        sweep(ENTRY, {MIN: [3], MAX: [1, 2]}, processes=1)
    assert info.value.problems == [
        f"{MIN}=3: no point of the sweep can plan it (valid alone, refused with each value of {MAX}); e.g. with "
        f"{MAX}=1: {MIN}: 3 > max_units 1",
        f"{MAX}=1: no point of the sweep can plan it (valid alone, refused with {MIN}=3): {MIN}: 3 > max_units 1",
        f"{MAX}=2: no point of the sweep can plan it (valid alone, refused with {MIN}=3): {MIN}: 3 > max_units 2"]


def test_a_value_whose_points_all_hold_a_bad_value_is_not_blamed_for_it(nothing_solved):
    # every point of min 3 that holds no bad value fails (3 > max 1 at 24 months); its points at horizon abc go with abc
    with pytest.raises(ScenarioError) as info:
        sweep(ENTRY, {MIN: [0, 3], MAX: [1], "horizon_months": ["abc", 24]}, processes=1)
    assert info.value.problems == ["horizon_months=abc: expected a whole number, got 'abc'",
                                   f"{MIN}=3: no point of the sweep can plan it (valid alone, refused with {MAX}=1, "
                                   f"horizon_months=24): {MIN}: 3 > max_units 1"]


def test_a_grid_where_only_some_combinations_fail_runs_with_those_points_as_error_rows():
    # growth 0.2 plans over 24 months; over 120 the demand 120 × 1.2^(m-1) passes 10^9 GPU-hours in month 89
    # (120 × 1.2^88 = 1.11e9; month 88: 9.3e8): that one point is an error row, each value plans at another
    table = sweep(ENTRY, {"horizon_months": [24, 120], GROWTH: [0, 0.2]}, processes=1)
    assert list(table["status"]) == ["optimal", "optimal", "optimal", "error"]
    assert table["note"].iloc[3] == (f"{GROWTH}: demand of workload 'coursework-and-kaggle' grows above 1,000,000,000 "
                                     "GPU-hours in month 89 of 120 (120 × (1 + 0.2)^88); lower growth_per_month or "
                                     "horizon_months")


def _counting_builds(monkeypatch) -> list[str]:
    """The overrides of each scenario the sweep module builds from here on, as JSON."""
    module = sys.modules["planner.reports.sweep"]   # planner.reports.sweep is also the name of the function
    built: list[str] = []
    real = module.apply_overrides
    monkeypatch.setattr(module, "apply_overrides",
                        lambda s, o: built.append(json.dumps(o, sort_keys=True)) or real(s, o))
    return built


def test_the_check_builds_one_point_per_value_of_the_longest_list_and_the_sweep_the_others(monkeypatch):
    # 2 × 2 values, all valid: the check builds the diagonal (pue 1.0 at 0.1 USD/kWh, pue 1.2 at 0.2), which holds every
    # value, and checks no value alone; the sweep builds the two other points only
    from planner.reports.sweep import check_values

    built = _counting_builds(monkeypatch)
    scenario = load_scenario(ENTRY)
    checked = check_values(scenario, {"onprem.pue": [1.0, 1.2], "onprem.electricity_per_kwh": [0.1, 0.2]})
    assert built == ['{"onprem.electricity_per_kwh": 0.1, "onprem.pue": 1.0}',
                     '{"onprem.electricity_per_kwh": 0.2, "onprem.pue": 1.2}']
    built.clear()
    assert list(sweep(scenario, checked, processes=1)["status"]) == ["optimal"] * 4
    assert built == ['{"onprem.electricity_per_kwh": 0.2, "onprem.pue": 1.0}',
                     '{"onprem.electricity_per_kwh": 0.1, "onprem.pue": 1.2}']


def test_the_check_builds_no_point_twice(monkeypatch, nothing_solved):
    # min 0 / max 1 plans on the diagonal; min 3 / max 2 does not, so min 3 and max 2 are checked alone (valid), then at
    # their other points: min 3 with max 1 fails, max 2 with min 0 plans. Four points, each built once, and two values
    built = _counting_builds(monkeypatch)
    with pytest.raises(ScenarioError):
        sweep(ENTRY, {MIN: [0, 3], MAX: [1, 2]}, processes=1)
    points = [json.dumps({MIN: lo, MAX: hi}, sort_keys=True) for lo in (0, 3) for hi in (1, 2)]
    assert sorted(built) == sorted(points + [json.dumps({MIN: 3}), json.dumps({MAX: 2})])
