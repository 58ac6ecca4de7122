"""A key holding a no-break space (U+00A0, which a web page or a word processor pastes for a space) is named with the
character and the field it stands for, as a key holding an invisible character is (model.Frozen._no_invisible_keys):
`gpu_hours\u00a0per_month` was "unknown key; did you mean 'gpu_hours_per_month'?" printed as if it held a plain space,
with "required: one of gpu_hours_per_month, …" besides, and Scenario(**d) said only "Extra inputs are not permitted"
and "Field required" of a `workloads\u00a0` given for `workloads`."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from planner import load_scenario
from planner.errors import ScenarioError
from planner.scenario.model import Scenario

NBSP = "\u00a0"
SCENARIO = """name: x
horizon_months: 12
workloads:
  - name: a
    gpu_hours_per_month: 10
    reference_gpu: RTX-4090
"""
SAID = ("non-breaking space U+00A0 inside the key: it shows as a space but is none, and no field's name holds one (it "
        "often comes with text pasted from a web page or a chat); did you mean '{meant}'?")


def _data() -> dict:
    return {"name": "x", "horizon_months": 12,
            "workloads": [{"name": "a", "gpu_hours_per_month": 10, "reference_gpu": "RTX-4090"}]}


def _file_problems(tmp_path, text: str) -> tuple:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return path, info.value.problems


def test_the_scenario_loads_without_it(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    assert load_scenario(path).horizon_months == 12
    assert Scenario(**_data()).horizon_months == 12


def test_a_top_level_key_in_a_file(tmp_path):
    path, problems = _file_problems(tmp_path, SCENARIO.replace("horizon_months", f"horizon{NBSP}months"))
    # line 2, column 1: the key; shown as it reads, the character named
    assert problems == [f"{path}:2:1: horizon{NBSP}months: {SAID.format(meant='horizon_months')}"]


def test_a_workload_field_in_a_file(tmp_path):
    path, problems = _file_problems(tmp_path, SCENARIO.replace("gpu_hours_per_month", f"gpu_hours{NBSP}per_month"))
    # no "required: one of gpu_hours_per_month …" after it: the key is read as the field it stands for
    assert problems == [f"{path}:5:5: workloads[0].gpu_hours{NBSP}per_month: {SAID.format(meant='gpu_hours_per_month')}"]


def test_a_trailing_one_in_a_file_is_named_at_its_place(tmp_path):
    path, problems = _file_problems(tmp_path, SCENARIO.replace("workloads:", f"workloads{NBSP}:"))
    assert problems == [f"{path}:3:10: non-breaking space U+00A0: YAML does not read it as a space; use a normal space"]


def _errors(data: dict) -> list[tuple[tuple, str, str]]:
    with pytest.raises(ValidationError) as info:
        Scenario(**data)
    return [(e["loc"], e["type"], e["msg"]) for e in info.value.errors()]


def test_a_trailing_one_in_a_top_level_key_of_a_dict():
    data = _data()
    data[f"workloads{NBSP}"] = data.pop("workloads")
    # one error, no "Field required" of workloads: the key is read as the field it stands for
    assert _errors(data) == [((f"workloads{NBSP}",), "lookalike_space", SAID.format(meant="workloads"))]


def test_a_workload_field_of_a_dict():
    data = _data()
    workload = data["workloads"][0]
    workload[f"gpu_hours{NBSP}per_month"] = workload.pop("gpu_hours_per_month")
    errors = _errors(data)
    assert (("workloads", 0, f"gpu_hours{NBSP}per_month"), "lookalike_space", SAID.format(meant="gpu_hours_per_month")) in errors
    # pydantic's "too short" of the list whose item failed besides (as of any workload's error), no "extra" nor "missing"
    assert [kind for _, kind, _ in errors] == ["lookalike_space", "too_short"]


def test_a_key_given_both_ways_is_named_and_the_right_one_read():
    data = _data()
    data[f"horizon{NBSP}months"] = 24
    assert _errors(data) == [((f"horizon{NBSP}months",), "lookalike_space", SAID.format(meant="horizon_months"))]


def test_a_dict_through_the_library_says_it_as_a_file_does():
    data = _data()
    data[f"horizon{NBSP}months"] = data.pop("horizon_months")
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert [p.split(": ", 1)[1] for p in info.value.problems] == [f"horizon{NBSP}months: {SAID.format(meant='horizon_months')}"]
