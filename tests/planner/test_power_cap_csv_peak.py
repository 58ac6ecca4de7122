"""The power cap's plausibility check (scenario.loading.plausibility_warnings) takes a CSV profile's own busiest
hour: its largest weight over its mean, the weights read as the engine reads them. It took every CSV profile at 168
times its mean, the most one hour of a week can carry, and so said nothing of caps that no fleet serving the demand
comes near; a CSV it cannot read is still taken so, and the warning says "at most" and why.

The profile of these tests: one hour a day (02:00) at weight 3, the other 161 hours at 0. Its mean is 7 × 3 / 168 =
1/8, so its busiest hour is 3 / (1/8) = 24 times the mean (not 3: the weights are scaled to mean 1). A workload of
10 reference GPUs busy on average, not growing, then asks 10 × 24 = 240 at its busiest hour, and the check's bound
is 20 kW × 240 = 4,800 kW; taken at 168 times, it was 20 × 10 × 168 = 33,600 kW."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from planner.scenario import load_scenario_file
from planner.scenario.loading import check_scenario_file, plausibility_warnings, plausibility_warnings_as_written
from tests.planner.cli_run import run

NIGHTLY = "".join("3\n" if hour % 24 == 2 else "0\n" for hour in range(168))
HEAD = ("name: t\nhorizon_months: 12\n"
        "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n")


def scenario_text(cap: int, profile: str) -> str:
    return (HEAD + f"onprem:\n  power_cap_kw: {cap}\n  cards: [rtx-4090]\n"
            f"workloads:\n  - {{name: a, reference_gpus: 10, reference_gpu: RTX-4090, profile: {profile}}}\n")


def said(cap: str, gpus: str, watts_as_kw: str, asks: str = "asks", unread: str = "") -> str:
    return (f"onprem.power_cap_kw: {cap} kW is more than 20 kW for each of the {gpus} reference GPUs the demand {asks} "
            f"at its busiest hour (and owned cards{unread}): no fleet serving it comes near such a cap; expected "
            f"kilowatts: for {cap} W, write {watts_as_kw}")


def cap_warnings(found) -> list[str]:
    return [text for field, text in found if field == ("onprem", "power_cap_kw")]


@pytest.fixture
def scenario_at(tmp_path, monkeypatch):
    """A scenario file naming its profile relative to its folder (plans/weights/nightly.csv), read from another."""
    (tmp_path / "plans" / "weights").mkdir(parents=True)
    (tmp_path / "plans" / "weights" / "nightly.csv").write_text(NIGHTLY, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")

    def write(cap: int) -> Path:
        path = tmp_path / "plans" / "s.yaml"
        path.write_text(scenario_text(cap, "weights/nightly.csv"), encoding="utf-8")
        return path
    return write


def test_a_cap_of_6000_kw_on_10_gpus_peaking_at_24_times_is_warned_of_with_their_240(scenario_at):
    # 6,000 kW > 4,800 kW: the 168 times (33,600 kW) hid it
    found = plausibility_warnings(load_scenario_file(scenario_at(6000)))
    assert cap_warnings(found) == [said("6,000", "240", "6")]


def test_a_cap_at_the_24_times_peaks_bound_is_not_warned_of_and_one_kw_more_is(scenario_at):
    assert cap_warnings(plausibility_warnings(load_scenario_file(scenario_at(4800)))) == []
    found = plausibility_warnings(load_scenario_file(scenario_at(4801)))
    assert cap_warnings(found) == [said("4,801", "240", "4.801")]


def test_validate_reads_the_profile_beside_the_scenario_and_warns_at_the_cap(scenario_at):
    path = scenario_at(6000)
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    # line 5 `  power_cap_kw: 6000`: the value after 16 characters
    assert f"warning: {path}:5:17: {said('6,000', '240', '6')}" in result.stderr.splitlines()


UNREAD = "; workloads[0].profile not read: all of a week's demand taken in one hour"


def test_a_missing_profile_is_taken_at_168_times_and_the_warning_says_at_most(tmp_path, monkeypatch):
    # the scenario does not load (its profile is missing: an error of its own); its values as written are checked,
    # the profile at 10 × 168 = 1,680 reference GPUs, 33,600 kW: 40,000 kW is above even that
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "s.yaml"
    path.write_text(scenario_text(40000, "missing.csv"), encoding="utf-8")
    checked = check_scenario_file(path)
    assert checked.scenario is None
    expected = said("40,000", "1,680", "40", asks="asks at most", unread=UNREAD)
    assert cap_warnings(plausibility_warnings_as_written(checked.data, checked.base_dir)) == [expected]
    result = run("validate", path)
    assert result.exit_code != 0
    assert f"warning: {path}:5:17: {expected}" in result.stderr.splitlines()


def test_a_relative_profile_with_no_folder_to_read_it_in_is_not_read(tmp_path, monkeypatch):
    # a mapping as written with no base_dir: the working folder is not the scenario's, so its nightly.csv is not read
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nightly.csv").write_text(NIGHTLY, encoding="utf-8")
    checked = check_scenario_file(_written(tmp_path / "s.yaml", scenario_text(40000, "nightly.csv")))
    expected = said("40,000", "1,680", "40", asks="asks at most", unread=UNREAD)
    assert cap_warnings(plausibility_warnings_as_written(checked.data)) == [expected]
    # read against its folder: 240 reference GPUs
    assert cap_warnings(plausibility_warnings_as_written(checked.data, tmp_path)) == [said("40,000", "240", "40")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_fifo_or_an_endless_file_named_as_the_profile_is_not_read(tmp_path):
    # a FIFO no one writes to had blocked the check for ever; a file past the profile's size bound is refused unread
    os.mkfifo(tmp_path / "pipe.csv")
    (tmp_path / "huge.csv").write_bytes(b"1\n" * (3 * 1024 * 1024))
    for name in ("pipe.csv", "huge.csv"):
        checked = check_scenario_file(_written(tmp_path / "s.yaml", scenario_text(40000, name)))
        assert checked.scenario is None
        expected = said("40,000", "1,680", "40", asks="asks at most", unread=UNREAD)
        assert cap_warnings(plausibility_warnings_as_written(checked.data, checked.base_dir)) == [expected]


def _written(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
