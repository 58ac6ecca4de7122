"""What a sweep's check of its values does once, not once per value (an audit, 2026-12-06: a --vary of 10,000 values
was checked for 4-9 s before the first solve). Each value still has the whole scenario validated with it (a value
may be valid only with the rest, such as a min_units under the scenario's max_units), but what is the same for every
value is done once: a profile CSV is parsed once per content (it was parsed for each value: 4 of every 5 seconds
of the check with two profile CSVs), and a field's numeric shape is read from its annotation once per field (it
was read for each of a scenario's 87 fields at each validation). No timing is asserted: the calls are counted."""

from __future__ import annotations

from pathlib import Path

import pytest

import planner.scenario.loading as loading
import planner.scenario.model as model
from planner import ScenarioError, load_scenario
from planner.reports.sweep import check_values

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"   # one workload, coursework-and-kaggle, profile business_hours; pue 1.0
PROFILE = "workloads.coursework-and-kaggle.profile"
SHORT = ("expected 168 hourly weights (Monday 00:00 first), one per line (a header line is allowed), got 167")


def _week(path: Path, weights: int = 168) -> Path:
    """`path` written as a profile CSV: a header, then `weights` lines of weight 1."""
    path.write_text("weight\n" + "1\n" * weights, encoding="utf-8")
    return path


@pytest.fixture
def scenario_with_a_profile_csv(tmp_path):
    """entry.yaml with its workload's profile weekly.csv, a flat week beside it."""
    text = ENTRY.read_text(encoding="utf-8").replace("profile: business_hours", "profile: weekly.csv")
    assert "profile: weekly.csv" in text
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    _week(tmp_path / "weekly.csv")
    return tmp_path / "s.yaml"


def _counting(monkeypatch, module, name: str) -> list:
    """The arguments of each call of `module.name` from here on."""
    calls = []
    real = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs))
    return calls


def test_a_profile_csv_is_parsed_once_for_all_the_values_of_a_check(scenario_with_a_profile_csv, monkeypatch):
    scenario = load_scenario(scenario_with_a_profile_csv)
    parsed = _counting(monkeypatch, loading, "read_profile_csv")
    check_values(scenario, {"onprem.pue": [1.0 + k / 100 for k in range(20)]})   # 20 scenarios validated
    assert len(parsed) == 1


def test_a_profile_csv_a_value_names_is_still_checked(scenario_with_a_profile_csv, nothing_solved):
    short = _week(scenario_with_a_profile_csv.parent / "short.csv", weights=167)
    with pytest.raises(ScenarioError) as info:
        check_values(load_scenario(scenario_with_a_profile_csv), {PROFILE: [str(short.parent / "weekly.csv"), str(short)],
                                                                  "onprem.pue": [1.0, 1.1]})
    assert info.value.problems == [f"{PROFILE}={short}: {short}: {SHORT}"]


def test_a_profile_csv_changed_after_a_check_is_read_as_it_now_is(scenario_with_a_profile_csv):
    scenario = load_scenario(scenario_with_a_profile_csv)
    check_values(scenario, {"onprem.pue": [1.0, 1.1]})
    weekly = _week(scenario_with_a_profile_csv.parent / "weekly.csv", weights=167)
    with pytest.raises(ScenarioError) as info:
        check_values(scenario, {"onprem.pue": [1.0, 1.1]})
    assert info.value.problems == [f"onprem.pue=1.0 and onprem.pue=1.1: {PROFILE}: {weekly}: {SHORT}"]


def test_a_fields_numeric_shape_is_not_read_again_for_each_value(monkeypatch):
    scenario = load_scenario(ENTRY)
    check_values(scenario, {"onprem.pue": [1.3]})   # each field of a scenario validated once
    read = _counting(monkeypatch, model, "_numeric_shape")
    check_values(scenario, {"onprem.pue": [1.0 + k / 100 for k in range(30)]})
    assert read == []
