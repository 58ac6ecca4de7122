"""A scenario given as data — a dict, or a Scenario object validated again (plan of a model_copy) — has no lines:
its problems name the origin and the field only (`<dict>: horizon_month: …`), where they were placed at a line and
column 1:1 that does not exist. YAML text and files keep their real line and column; an override's problem (a
sweep point's, apply_overrides') names its field alone, as before."""

from __future__ import annotations

import pytest

from planner.engine.run import plan
from planner.errors import ScenarioError
from planner.reports.sweep import sweep
from planner.scenario.loading import load_scenario, load_scenario_text
from planner.scenario.overrides import apply_overrides


def _data() -> dict:
    return {"name": "t", "horizon_months": 12,
            "prices": {"providers": ["aws"], "regions": ["us-east-1"], "purchase_options": ["on_demand"]},
            "workloads": [{"name": "a", "reference_gpus": 10, "reference_gpu": "RTX-4090"}]}


def _problems(source) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(source)
    return info.value.problems


def test_a_dicts_misspelt_key_is_named_with_no_line():
    data = _data() | {"horizon_month": 24}
    assert _problems(data) == ["<dict>: horizon_month: unknown key; did you mean 'horizon_months'?"]


def test_a_dicts_nested_field_is_named_with_no_line():
    data = _data()
    data["workloads"][0]["reference_gpus"] = float("inf")
    assert _problems(data) == ["<dict>: workloads[0].reference_gpus: expected a finite number, got .inf"]


def test_a_changed_scenario_objects_problem_is_named_with_no_line():
    changed = load_scenario(_data()).model_copy(update={"horizon_months": -5})
    with pytest.raises(ScenarioError) as info:
        plan(changed)
    assert info.value.problems == ["<Scenario>: horizon_months: expected a number ≥ 1, got -5"]


def test_yaml_text_keeps_its_line_and_column():
    # line 2, the key at column 1
    text = "name: t\nhorizon_month: 24\nhorizon_months: 12\nworkloads: [{name: a, reference_gpus: 1, reference_gpu: RTX-4090}]\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text)
    assert info.value.problems == ["<text>:2:1: horizon_month: unknown key; did you mean 'horizon_months'?"]


def test_a_file_keeps_its_line_and_column(tmp_path):
    path = tmp_path / "s.yaml"
    # line 4, `    gpu_hours_per_month: .inf`: the value after 25 characters
    path.write_text("name: t\nworkloads:\n  - name: a\n    gpu_hours_per_month: .inf\n", encoding="utf-8")
    assert f"{path}:4:26: workloads[0].gpu_hours_per_month: expected a finite number, got .inf" in _problems(path)


def test_an_override_and_a_sweep_points_value_name_their_field_alone():
    scenario = load_scenario(_data())
    with pytest.raises(ScenarioError) as info:
        apply_overrides(scenario, {"workloads.0.reference_gpus": float("inf")})
    assert info.value.problems == ["workloads.a.reference_gpus: expected a finite number, got .inf"]
    with pytest.raises(ScenarioError) as info:
        sweep(scenario, {"horizon_months": [12, -5]})
    assert info.value.problems == ["horizon_months=-5: expected a number ≥ 1, got -5"]
