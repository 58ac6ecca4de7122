"""A file a scenario names that is not there, with one spelt like it beside it, gets "did you mean" as a misspelt
card or key does: `profile: prf.csv` said "profile file not found: …/prf.csv" with prof.csv in the same folder, and
so did an offers CSV in `prices.source`. The names offered are the folder's files (at most MAX_FOLDER_ENTRIES of
them, never those of its folders), written as the scenario wrote the path."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.errors import ScenarioError
from planner.scenario import apply_overrides, load_scenario, load_scenario_file, loading

SCENARIO = """\
name: t
horizon_months: 12
prices: {source: PRICES, providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4, profile: PROFILE}
"""
# `prices: {source: ` is 17 characters; `  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4, profile: ` 68
SOURCE_AT, PROFILE_AT = "3:18", "5:69"


def problems(folder: Path, profile: str = "flat", prices: str = "snapshot") -> list[str]:
    path = folder / "s.yaml"
    path.write_text(SCENARIO.replace("PROFILE", profile).replace("PRICES", prices))
    with pytest.raises(ScenarioError) as caught:
        load_scenario_file(path)
    return caught.value.problems


def test_a_misspelt_profile_csv_gets_the_file_beside_it(tmp_path):
    (tmp_path / "prof.csv").write_text("weight\n" + "1\n" * 168)
    assert problems(tmp_path, profile="prf.csv") == [
        f"{tmp_path}/s.yaml:{PROFILE_AT}: workloads[0].profile: profile file not found: {tmp_path}/prf.csv; "
        "did you mean 'prof.csv'?"]


def test_the_file_meant_is_named_with_the_folder_the_scenario_wrote(tmp_path):
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "weekly.csv").write_text("weight\n" + "1\n" * 168)
    [problem] = problems(tmp_path, profile="weights/weekyl.csv")
    assert problem.endswith("; did you mean 'weights/weekly.csv'?"), problem   # the path said is cut: a long one


def test_a_misspelt_offers_csv_gets_the_file_beside_it(tmp_path):
    (tmp_path / "offers-q3.csv").write_text("")
    assert problems(tmp_path, prices="offers-q4.csv") == [
        f"{tmp_path}/s.yaml:{SOURCE_AT}: prices.source: expected snapshot, store or the path of an offers CSV; "
        f"file not found: {tmp_path}/offers-q4.csv; did you mean 'offers-q3.csv'?"]


def test_a_profile_is_offered_only_a_csv_and_nothing_unlike_it(tmp_path):
    (tmp_path / "prof.txt").write_text("")         # a profile must be a .csv: not offered
    (tmp_path / "zones.csv").write_text("")        # unlike "prf.csv"
    (tmp_path / "prf.csv.d").mkdir()               # a folder: no file to read
    [problem] = problems(tmp_path, profile="prf.csv")
    assert problem.endswith(f"profile file not found: {tmp_path}/prf.csv"), problem


def test_a_folder_is_read_no_further_than_the_limit(tmp_path, monkeypatch):
    (tmp_path / "prof.csv").write_text("")
    monkeypatch.setattr(loading, "MAX_FOLDER_ENTRIES", 0)
    [problem] = problems(tmp_path, profile="prf.csv")
    assert "did you mean" not in problem


def test_an_override_naming_a_missing_file_gets_it_too(tmp_path, monkeypatch):
    (tmp_path / "prof.csv").write_text("weight\n" + "1\n" * 168)
    monkeypatch.chdir(tmp_path)   # an override's relative path is the working folder's
    scenario = load_scenario(SCENARIO.replace("PROFILE", "flat").replace("PRICES", "snapshot"))
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(scenario, {"workloads.w.profile": "prf.csv"})
    [problem] = caught.value.problems
    assert problem.startswith(f"workloads.w.profile: profile file not found: {tmp_path}/prf.csv (a relative path")
    assert problem.endswith("; did you mean 'prof.csv'?"), problem
