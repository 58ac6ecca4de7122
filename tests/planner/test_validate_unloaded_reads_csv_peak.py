"""`fleetplan validate` of a scenario that does not load still checks its values as written
(plausibility_warnings_as_written); it now reads a relative CSV profile against the scenario's own folder, as a
scenario that loads does, so the power cap warning takes the CSV's busiest hour. Before, validate passed no folder:
the profile went unread and the warning took every CSV at 168 times its mean ("asks at most 1,680").

The profile: one hour a day at weight 3, the rest 0 (tests/planner/test_power_cap_csv_peak.py): its mean is
7 × 3 / 168 = 1/8, its busiest hour 3 / (1/8) = 24 times the mean, so 10 reference GPUs ask 240 at the peak."""

from __future__ import annotations

from tests.planner.cli_run import run
from tests.planner.test_power_cap_csv_peak import NIGHTLY, said, scenario_text


def test_validate_of_a_scenario_that_does_not_load_takes_its_relative_csvs_peak_of_240(tmp_path, monkeypatch):
    (tmp_path / "plans" / "weights").mkdir(parents=True)
    (tmp_path / "plans" / "weights" / "nightly.csv").write_text(NIGHTLY, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")   # the working folder holds no weights/: only the scenario's does
    path = tmp_path / "plans" / "s.yaml"
    # an unknown key at the end: the scenario does not load, and the cap (line 5) is checked as written
    path.write_text(scenario_text(6000, "weights/nightly.csv") + "colour: red\n", encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code != 0
    assert "colour: unknown key" in result.stderr
    assert f"warning: {path}:5:17: {said('6,000', '240', '6')}" in result.stderr.splitlines()
