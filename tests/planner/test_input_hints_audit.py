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
