"""A plan's own output given as a scenario's text or dict — `load_scenario_text(open("plan.json").read())`,
`plan(text)`, `plan(json.load(f))`, a dashboard upload of a summary.md — gets the one message its file gets
(test_plan_output_given_as_scenario.py), where it gave 45 schema errors ("name: required field is missing", "version:
unknown key", …) or 20 YAML syntax errors: the check ran only where a file is read (loading._read_scenario_text).
Text and a dict are no file, so the `compare` command the message shows names plan.json; an upload's name is kept.
The texts expected are written out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.reports import plan_to_json, plan_to_markdown
from planner.scenario import load_scenario_text

WORKED = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"   # named "Worked example"


@pytest.fixture(scope="module")
def worked_plan():
    return plan(WORKED, baselines=False)


def _saved_plan_message(origin: str, named: str, expected: str = "a scenario YAML file") -> str:
    return (f"{origin}: is a plan saved by `fleetplan plan` (JSON), not {expected}; `plan` and `validate` take a "
            f"scenario YAML file; `compare` reads saved plans (fleetplan compare SCENARIO.yaml {named}); the scenario "
            "it was planned from is in its `scenario_inputs`")


SUMMARY_MESSAGE = ("<text>: is a Markdown file (a plan's summary, written by `fleetplan plan`), not a scenario YAML "
                   "file; `plan` and `validate` take a scenario YAML file: give the one the plan of 'Worked example' "
                   "was made from")


def _problems(call, *args, **kwargs) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        call(*args, **kwargs)
    return info.value.problems


@pytest.mark.parametrize("call", [load_scenario_text, load_scenario, lambda text: plan(text, baselines=False)])
def test_a_saved_plans_text_is_named_as_one(worked_plan, call):
    assert _problems(call, plan_to_json(worked_plan)) == [_saved_plan_message("<text>", "plan.json")]


def test_an_uploads_name_is_kept_in_the_message(worked_plan):
    problems = _problems(load_scenario_text, plan_to_json(worked_plan), origin="review/plan.json")
    assert problems == [_saved_plan_message("review/plan.json", "review/plan.json")]


@pytest.mark.parametrize("call", [load_scenario, lambda data: plan(data, baselines=False)])
def test_a_saved_plan_read_into_a_dict_is_named_as_one(worked_plan, call):
    data = json.loads(plan_to_json(worked_plan))
    assert _problems(call, data) == [_saved_plan_message("<dict>", "plan.json", "a scenario")]


@pytest.mark.parametrize("call", [load_scenario_text, load_scenario, lambda text: plan(text, baselines=False)])
def test_a_summarys_text_is_named_as_one(worked_plan, call):
    assert _problems(call, plan_to_markdown(worked_plan)) == [SUMMARY_MESSAGE]


def test_a_scenario_as_text_or_a_dict_with_a_status_key_is_still_a_scenario():
    # `status` alone is no plan (compare's rule too): the unknown field is said, as of any scenario
    text = "name: x\nstatus: draft\nworkloads:\n  - {name: a, gpu_hours_per_month: 10, reference_gpu: RTX-4090}\n"
    problems = _problems(load_scenario_text, text)
    assert len(problems) == 1 and "status" in problems[0] and "not a scenario" not in problems[0]
    data = {"name": "x", "workloads": [{"name": "a", "gpu_hours_per_month": 10, "reference_gpu": "RTX-4090"}]}
    assert load_scenario(json.dumps(data)).name == "x" and load_scenario(data).name == "x"
