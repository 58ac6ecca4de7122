"""A GPU family name where a scenario names one GPU (reference_gpu, a throughput key, a custom card's gpu) is
refused naming every member of the family: it was "unknown GPU 'A100-80GB'; did you mean 'A100-80GB-SXM'?",
one member picked because the family name is also its alias, and a PCIe user who took it planned on SXM
speeds. Families and members as gpus.csv's `family` column gives them."""

from __future__ import annotations

import pytest

from planner.errors import ScenarioError
from planner.scenario import load_scenario_text
from tests.planner.cli_run import run

SCENARIO = """\
name: t
horizon_months: 12
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem:
  custom_cards:
    my-card: {gpu: A100, price: 9000, busy_watts: 400, idle_watts: 60, life_years: 4}
workloads:
  - name: a
    gpu_hours_per_month: 100
    reference_gpu: A100-80GB
    throughput: {H100: 2.0, RTX 4090: 0.7}
"""
# positions counted by hand: `A100` after "    my-card: {gpu: " (19 characters), `A100-80GB` after
# "    reference_gpu: " (19), the key `H100` after "    throughput: {" (17)
FAMILY_PROBLEMS = [
    "s.yaml:6:20: onprem.custom_cards.my-card.gpu: 'A100' names a family: A100-40GB-PCIE, A100-40GB-SXM, "
    "A100-80GB-PCIE and A100-80GB-SXM; give one of them",
    "s.yaml:10:20: workloads[0].reference_gpu: 'A100-80GB' names a family: A100-80GB-PCIE and A100-80GB-SXM; "
    "give one of them",
    "s.yaml:11:18: workloads[0].throughput.H100: 'H100' names a family: H100-NVL, H100-PCIE and H100-SXM; "
    "give one of them",
]


def problems_of(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, origin="s.yaml")
    return caught.value.problems


def test_a100_a100_80gb_and_h100_are_refused_naming_every_member_of_their_family():
    assert problems_of(SCENARIO) == FAMILY_PROBLEMS


@pytest.mark.parametrize(("name", "members"), [
    ("V100", "V100-16GB-PCIE, V100-16GB-SXM2 and V100-32GB-SXM2"),
    ("V100-16GB", "V100-16GB-PCIE and V100-16GB-SXM2"),
    ("a100-40gb", "A100-40GB-PCIE and A100-40GB-SXM"),   # case and dashes ignored, as for any GPU name
    ("H200", "H200-NVL and H200-SXM"),
    ("RTX-PRO-6000", "RTX-PRO-6000-SE and RTX-PRO-6000-WS"),
])
def test_every_family_of_several_gpus_is_refused_with_its_members(name, members):
    text = SCENARIO.replace("A100-80GB\n", f"{name}\n").replace("gpu: A100,", "gpu: T4,").replace("H100: 2.0, ", "")
    assert problems_of(text) == [f"s.yaml:10:20: workloads[0].reference_gpu: '{name}' names a family: {members}; "
                                 "give one of them"]


@pytest.mark.parametrize("name", ["A100-80GB-PCIE", "a100 80gb pcie", "V100-32GB", "RTX 4090", "T4"])
def test_a_name_of_one_gpu_is_accepted(name):
    # V100-32GB is an alias of V100-32GB-SXM2 and a family of that one GPU alone: no choice to make
    text = SCENARIO.replace("A100-80GB\n", f"{name}\n").replace("gpu: A100,", "gpu: T4,").replace("H100: 2.0, ", "")
    assert load_scenario_text(text).workloads[0].reference_gpu == name


def test_a_misspelt_gpu_still_gets_did_you_mean():
    text = SCENARIO.replace("A100-80GB\n", "A100-80GB-PCI\n").replace("gpu: A100,", "gpu: T4,").replace("H100: 2.0, ", "")
    assert problems_of(text) == ["s.yaml:10:20: workloads[0].reference_gpu: unknown GPU 'A100-80GB-PCI'; "
                                 "did you mean 'A100-80GB-PCIE'?"]


def test_validate_prints_the_family_problems_and_exits_2(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = run("validate", path)
    assert result.exit_code == 2
    said = " ".join(result.stderr.split())
    for problem in FAMILY_PROBLEMS:
        assert f"{tmp_path}/{problem}" in said, result.stderr
    assert "did you mean" not in said
