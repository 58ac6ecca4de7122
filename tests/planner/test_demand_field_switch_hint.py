"""Two demand fields on a workload say how to keep one: in a file, remove one; in overrides, where the file's own
field is still set, set it to None as well (`workloads.prototyping.reference_gpus: 2` alone was refused with no
word of how to switch). startup-hybrid.yaml's prototyping workload gives gpu_hours_per_month: 1500."""

from pathlib import Path

import pytest

from planner import ScenarioError, apply_overrides, load_scenario

HYBRID = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"
SWITCH = "to switch fields in overrides, also set the one the scenario gives to None"


def refused(load):
    with pytest.raises(ScenarioError) as info:
        load()
    [problem] = info.value.problems
    return problem


def test_an_override_of_another_demand_field_says_to_set_the_files_one_to_none():
    s = load_scenario(HYBRID)
    assert [w.gpu_hours_per_month for w in s.workloads if w.name == "prototyping"] == [1500]
    problem = refused(lambda: apply_overrides(s, {"workloads.prototyping.reference_gpus": 2}))
    assert problem.startswith("workloads.prototyping.reference_gpus: give one demand field, not gpu_hours_per_month "
                              "and reference_gpus") and SWITCH in problem
    # and doing so switches the workload's demand to 2 reference GPUs busy on average
    switched = apply_overrides(s, {"workloads.prototyping.reference_gpus": 2,
                                   "workloads.prototyping.gpu_hours_per_month": None})
    [w] = [w for w in switched.workloads if w.name == "prototyping"]
    assert (w.reference_gpus, w.gpu_hours_per_month) == (2, None)


HEAD = "name: t\nworkloads:\n  - name: w\n    reference_gpu: RTX-A5000\n"


def test_a_file_with_two_demand_fields_says_to_remove_one(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "    gpu_hours_per_month: 100\n    reference_gpus: 2\n", encoding="utf-8")
    problem = refused(lambda: load_scenario(path))
    assert problem == (f"{path}:6:21: workloads[0].reference_gpus: give one demand field, not gpu_hours_per_month and "
                       f"reference_gpus: remove one of them ({SWITCH})")


def test_three_demand_fields_say_to_remove_all_but_one(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "    gpu_hours_per_month: 100\n    reference_gpus: 2\n    requests_per_second: 3\n"
                    "    throughput_unit: requests_per_second\n    throughput: {RTX-A5000: 5}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    problems = [p for p in info.value.problems if "give one demand field" in p]
    assert len(problems) == 1 and ": remove all but one (" in problems[0], info.value.problems
