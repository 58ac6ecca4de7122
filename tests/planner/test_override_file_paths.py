"""A relative file path given as an override (`--vary`, `plan(overrides=...)`) is the working folder's, as
README says of any path on the command line; it is made absolute as the override is applied, and a file not
found there is named with the folder searched. Paths written in the scenario file stay its folder's."""

import shutil
from pathlib import Path

import pytest
import yaml

from planner import ScenarioError, apply_overrides, load_scenario, plan, sweep
from planner.text import shortened  # a path over 100 characters is cut to its first 60 (and its length)

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"
# The README's worked example (tests/planner/test_api.py redoes it by hand): 2500 − 625 + 250 fixed,
# (0.1 × 730 + 0.3 × 657) × 1.5 kWh a month at 0.20 USD × 24 months, (800 − 657) / 0.8 h × 1.006 USD × 24 months
WORKED_TOTAL = 2125 + (0.1 * 730 + 0.3 * 657) * 1.5 * 0.20 * 24 + (800 - 657) / 0.8 * 1.006 * 24   # 7,760.46
NOTE = " (a relative path given as an override is resolved against the working folder, {}; only paths written in " \
       "the scenario file are relative to its folder)"


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """(the scenario's folder, holding the worked example and its offers CSV; the working folder, empty)."""
    team, work = tmp_path / "team", tmp_path / "work"
    team.mkdir()
    work.mkdir()
    shutil.copy(WORKED, team / "s.yaml")
    shutil.copy(OFFERS, team / OFFERS.name)
    monkeypatch.chdir(work)
    return team, work


def flat_csv(path: Path) -> Path:
    """168 equal weights: the same week as `profile: flat`."""
    path.write_text("\n".join(["weight", *["1"] * 168]) + "\n")
    return path


def test_a_relative_profile_override_is_the_working_folders_made_absolute(folders, monkeypatch):
    team, work = folders
    flat_csv(work / "weekly.csv")
    (team / "weekly.csv").write_text("-1\n" * 168)   # beside the scenario: refused if it were read
    s = apply_overrides(load_scenario(team / "s.yaml"), {"workloads.training.profile": "weekly.csv"})
    assert s.workloads[0].profile == str(work / "weekly.csv")
    monkeypatch.chdir(team.parent)   # planned from elsewhere (a notebook's os.chdir, a Dask worker): the same file
    assert plan(s, baselines=False).total == pytest.approx(WORKED_TOTAL, rel=1e-6)


def test_a_profile_override_not_in_the_working_folder_names_the_folder_searched(folders):
    team, work = folders
    flat_csv(team / "weekly.csv")
    with pytest.raises(ScenarioError) as info:
        plan(team / "s.yaml", overrides={"workloads.training.profile": "weekly.csv"})
    assert info.value.problems == [f"workloads.training.profile: profile file not found: {shortened(str(work / 'weekly.csv'))}"
                                   + NOTE.format(work)]


def test_a_sweep_over_a_relative_profile_reads_it_from_the_working_folder(folders):
    team, work = folders
    flat_csv(work / "weekly.csv")
    table = sweep(team / "s.yaml", {"workloads.training.profile": ["weekly.csv"]}, processes=1)
    assert table["workloads.training.profile"].tolist() == ["weekly.csv"]   # as given
    assert table["status"].tolist() == ["optimal"]
    assert table["total"][0] == pytest.approx(WORKED_TOTAL, rel=1e-6)
    # a file not found there is refused before anything is solved, named by the path searched and that folder
    with pytest.raises(ScenarioError) as info:
        sweep(team / "s.yaml", {"workloads.training.profile": ["weekly.csv", "missing.csv"]}, processes=1)
    assert info.value.problems == [f"workloads.training.profile=missing.csv: profile file not found: "
                                   f"{shortened(str(work / 'missing.csv'))}" + NOTE.format(work)]


def test_a_relative_offers_csv_override_is_the_working_folders(folders):
    team, work = folders
    with pytest.raises(ScenarioError) as info:   # the scenario's own offers CSV is beside it, not here
        apply_overrides(load_scenario(team / "s.yaml"), {"prices.source": OFFERS.name})
    assert info.value.problems == [f"prices.source: expected snapshot, store or the path of an offers CSV; file not "
                                   f"found: {shortened(str(work / OFFERS.name))}" + NOTE.format(work)]
    shutil.copy(OFFERS, work / "offers.csv")
    s = apply_overrides(load_scenario(team / "s.yaml"), {"prices": {"source": "offers.csv", "providers": ["aws"],
                                                                    "purchase_options": ["on_demand"]}})
    assert s.prices.source == str(work / "offers.csv")
    assert plan(s, baselines=False).total == pytest.approx(WORKED_TOTAL, rel=1e-6)


def test_a_misspelt_store_keeps_its_did_you_mean_after_the_folder(folders):
    team, work = folders
    with pytest.raises(ScenarioError) as info:
        apply_overrides(load_scenario(team / "s.yaml"), {"prices.source": "stor"})
    assert info.value.problems == [f"prices.source: expected snapshot, store or the path of an offers CSV; file not "
                                   f"found: {shortened(str(work / 'stor'))}" + NOTE.format(work) + "; did you mean 'store'?"]


def test_the_scenarios_own_paths_stay_its_folders(folders):
    team, _ = folders
    s = apply_overrides(load_scenario(team / "s.yaml"), {"horizon_months": 12, "workloads.training.profile": "flat"})
    assert s.prices.source == str(team / OFFERS.name)
    assert s.workloads[0].profile == "flat"


# A scenario given as YAML text or a dict has no folder of its own: its relative paths are the working folder's,
# and a file missing there was named bare ("file not found: offers-g5-us-east-1.csv"), not where it was looked for.
TEXT_NOTE = (" (looked for in the working folder, {}: a scenario given as YAML text or a dict names its files relative "
             "to the working folder; only a scenario loaded from its file names them relative to its folder)")


@pytest.mark.parametrize("origin", ["<text>", "<dict>"])
def test_a_text_or_dict_scenario_s_missing_offers_csv_names_the_working_folder(folders, origin):
    team, work = folders
    text = (team / "s.yaml").read_text()
    given = text if origin == "<text>" else yaml.safe_load(text)
    with pytest.raises(ScenarioError) as info:
        plan(given, baselines=False)
    # `  source: ` is 10 characters on line 11; a dict has no lines, so its problem names the field only
    where = "<text>:11:11" if origin == "<text>" else "<dict>"
    assert info.value.problems == [f"{where}: prices.source: expected snapshot, store or the path of an offers "
                                   "CSV; file not found: offers-g5-us-east-1.csv" + TEXT_NOTE.format(work)]


def test_a_text_scenario_s_missing_profile_names_the_working_folder(folders):
    team, work = folders
    shutil.copy(OFFERS, work / OFFERS.name)
    text = (team / "s.yaml").read_text().replace("profile: flat", "profile: weekly.csv")
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    assert info.value.problems == ["<text>:28:14: workloads[0].profile: profile file not found: weekly.csv"
                                   + TEXT_NOTE.format(work)]
    flat_csv(work / "weekly.csv")   # found in the working folder, as the note says
    assert plan(text, baselines=False).total == pytest.approx(WORKED_TOTAL, rel=1e-6)
