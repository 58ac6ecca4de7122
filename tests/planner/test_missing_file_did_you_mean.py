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


# A misspelt folder (`profils/week.csv` beside profiles/week.csv) got no "did you mean": only a file missing from a
# folder that is there did. Each name of the path that is not there is now matched against its folder's entries (at
# most MAX_FOLDER_ENTRIES of them; only the folders along the path are read), and the path meant is said as the
# scenario wrote it. Loaded as `s.yaml` from its folder, the path said is the one written (base folder ".").
def problems_here(folder: Path, monkeypatch, profile: str = "flat", prices: str = "snapshot") -> list[str]:
    (folder / "s.yaml").write_text(SCENARIO.replace("PROFILE", profile).replace("PRICES", prices))
    monkeypatch.chdir(folder)
    with pytest.raises(ScenarioError) as caught:
        load_scenario_file("s.yaml")
    return caught.value.problems


def weekly_profile(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "week.csv").write_text("weight\n" + "1\n" * 168)


@pytest.mark.parametrize("written, said, meant", [
    ("profils/week.csv", "profils/week.csv", "profiles/week.csv"),          # the folder misspelt
    ("profils/wek.csv", "profils/wek.csv", "profiles/week.csv"),            # the folder and the file
    ("./Profiles/week.csv", "Profiles/week.csv", "./profiles/week.csv"),    # as written: its ./ kept
    ("plans/q4/profils/week.csv", "plans/q4/profils/week.csv", "plans/q4/profiles/week.csv"),  # inside folders there
    ("plns/q4/profils/week.csv", "plns/q4/profils/week.csv", "plans/q4/profiles/week.csv"),    # two folders misspelt
])
def test_a_profile_in_a_misspelt_folder_gets_the_path_meant(tmp_path, monkeypatch, written, said, meant):
    weekly_profile(tmp_path / "profiles")
    weekly_profile(tmp_path / "plans" / "q4" / "profiles")
    assert problems_here(tmp_path, monkeypatch, profile=written) == [
        f"s.yaml:{PROFILE_AT}: workloads[0].profile: profile file not found: {said}; did you mean '{meant}'?"]


def test_an_offers_csv_in_a_misspelt_folder_gets_the_path_meant(tmp_path, monkeypatch):
    (tmp_path / "offers").mkdir()
    (tmp_path / "offers" / "q3.csv").write_text("")
    assert problems_here(tmp_path, monkeypatch, prices="offer/q3.csv") == [
        f"s.yaml:{SOURCE_AT}: prices.source: expected snapshot, store or the path of an offers CSV; "
        "file not found: offer/q3.csv; did you mean 'offers/q3.csv'?"]


@pytest.mark.parametrize("written", ["zzz/week.csv", "profils/zones.csv", "profils/q9/week.csv"])
def test_a_path_with_a_name_like_nothing_there_gets_no_guess(tmp_path, monkeypatch, written):
    weekly_profile(tmp_path / "profiles")
    (tmp_path / "profiles" / "q4").mkdir()   # q9 is not spelt like q4 (one character of two differs)
    [problem] = problems_here(tmp_path, monkeypatch, profile=written)
    assert problem == f"s.yaml:{PROFILE_AT}: workloads[0].profile: profile file not found: {written}"


def test_only_the_folders_holding_a_misspelt_name_are_read_each_to_the_limit(tmp_path, monkeypatch):
    weekly_profile(tmp_path / "plans" / "q4" / "profiles")
    for k in range(5):
        (tmp_path / "plans" / f"other{k}").mkdir()   # folders beside the path: never read
    read = []
    scandir = loading.os.scandir
    monkeypatch.setattr(loading.os, "scandir", lambda folder: read.append(str(folder)) or scandir(folder))
    [problem] = problems_here(tmp_path, monkeypatch, profile="plans/q4/profils/week.csv")
    assert problem.endswith("; did you mean 'plans/q4/profiles/week.csv'?"), problem
    assert read == ["plans/q4"]
    read.clear()
    monkeypatch.setattr(loading, "MAX_FOLDER_ENTRIES", 0)
    [problem] = problems_here(tmp_path, monkeypatch, profile="plns/q4/profils/week.csv")
    assert "did you mean" not in problem and read == ["."], (problem, read)


def test_an_override_in_a_misspelt_folder_gets_the_path_meant(tmp_path, monkeypatch):
    weekly_profile(tmp_path / "profiles")
    monkeypatch.chdir(tmp_path)   # an override's relative path is the working folder's
    scenario = load_scenario(SCENARIO.replace("PROFILE", "flat").replace("PRICES", "snapshot"))
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(scenario, {"workloads.w.profile": "profils/week.csv"})
    [problem] = caught.value.problems
    assert problem.startswith(f"workloads.w.profile: profile file not found: {tmp_path}/profils/week.csv (a relative")
    assert problem.endswith("; did you mean 'profiles/week.csv'?"), problem


def test_validate_says_the_path_meant_and_exits_2(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from planner.cli import app

    weekly_profile(tmp_path / "profiles")
    (tmp_path / "s.yaml").write_text(SCENARIO.replace("PROFILE", "profils/week.csv").replace("PRICES", "snapshot"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "s.yaml"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert (f"s.yaml:{PROFILE_AT}: workloads[0].profile: profile file not found: profils/week.csv; "
            "did you mean 'profiles/week.csv'?") in said, said
    assert "Traceback" not in said
