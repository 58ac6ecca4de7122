"""Scenario-input messages from an audit of a new EUR scenario (2026-12-07): a misspelt file offered the wrong file,
numbers inside a mapping (fx, throughput) and values with their unit or currency written out got no "did you mean",
a rate written the wrong way round under the scenario's own currency was not recognised, and plausibility hints that
convert with an implausible rate blamed another field. The numbers meant are worked out by hand in each test."""

from __future__ import annotations

import pytest

from planner import load_scenario
from planner.errors import ScenarioError
from planner.scenario.loading import load_scenario_text

# the audit's scenario (/tmp/auditcopy/my/team.yaml), trimmed to what the messages need
TEAM = """\
name: Vision platform team 2027
currency: EUR
fx: {USD: 0.92}
horizon_months: 48
discount_rate: 0.06
onprem:
  electricity_per_kwh: 0.25
  cards: [rtx-4090, l40s, a100-80gb-pcie]
  existing:
    rtx-3090: {count: 4, age_months: 12}
  purchase_every_months: 3
  capex_budget: 60000
  power_cap_kw: 10
workloads:
  - name: cnn-training
    gpu_hours_per_month: 1200
    reference_gpu: RTX-4090
  - name: inference
    reference_gpus: 2
    reference_gpu: L40S
    serving: true
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "s.yaml")
    return caught.value.problems


def edited(old: str, new: str) -> str:
    assert old in TEAM
    return TEAM.replace(old, new)


# 1. a misspelt file name


def test_a_yml_name_is_offered_the_yaml_file_of_the_same_name(tmp_path):
    # "team.yml" with team.yaml and teamB.yaml beside it offered teamB.yaml: ".yaml" names were compared whole with
    # "team", and "teamB.yaml" is spelt closer to it than "team.yaml"
    folder = tmp_path / "my"
    folder.mkdir()
    (folder / "team.yaml").write_text(TEAM, encoding="utf-8")
    (folder / "teamB.yaml").write_text(TEAM, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(folder / "team.yml")
    assert caught.value.problems == [f"{folder}/team.yml: file not found; did you mean '{folder}/team.yaml'?"]
    with pytest.raises(ScenarioError) as caught:
        load_scenario(folder / "teamb.yml")
    assert caught.value.problems == [f"{folder}/teamb.yml: file not found; did you mean '{folder}/teamB.yaml'?"]


# 2. numbers inside a mapping: the hints the scalar fields get


@pytest.mark.parametrize("old, new, field, got, hint", [
    # 0,92 with a decimal point is 0.92; 92 % is 92 / 100 = 0.92; 0,8 is 0.8
    ("fx: {USD: 0.92}", "fx:\n  USD: 0,92", "fx.USD", "0,92", "did you mean 0.92? (a decimal point, not a comma)"),
    ("fx: {USD: 0.92}", "fx: {USD: 92%}", "fx.USD", "92%", "did you mean 0.92 (92 %)?"),
    ("    reference_gpu: L40S\n", "    reference_gpu: L40S\n    throughput:\n      L40S: 0,8\n",
     "workloads[1].throughput.L40S", "0,8", "did you mean 0.8? (a decimal point, not a comma)"),
    ("    reference_gpu: L40S\n", "    reference_gpu: L40S\n    throughput: {L40S: 1, rtx-4090: 80%}\n",
     "workloads[1].throughput.rtx-4090", "80%", "did you mean 0.8 (80 %)?"),
])
def test_a_number_in_a_mapping_gets_the_hint_a_field_gets(old, new, field, got, hint):
    (problem,) = problems(edited(old, new))
    assert f": {field}: expected a number, got '{got}'; {hint}" in problem
    assert problem.endswith(hint)


def test_a_whole_number_in_a_mapping_gets_the_thousands_hint():
    # min_units: {l40s: 1,000} is 1000 units written with a separator
    text = TEAM + "constraints:\n  min_units: {l40s: '1,000'}\n"
    (problem,) = problems(text)
    assert problem.endswith("constraints.min_units.l40s: expected a whole number, got '1,000'; did you mean 1000? "
                            "(a number without thousands separators)")
