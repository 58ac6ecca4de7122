"""An override path into a list (`--vary onprem.cards.0=a100-80gb-pcie`) said "onprem.cards is a value, not a
section", of a list. An override gives a list whole, as YAML flow text on the command line (parse_value reads
`[a, b]` as a list; split_values keeps it one value of --vary): the message says so, with the list the scenario
holds now as the example to edit."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.errors import ScenarioError
from planner.scenario import apply_overrides, load_scenario_text, parse_value, split_values

SCENARIO = """\
name: t
horizon_months: 12
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [rtx-4090, l40s]}
workloads:
  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}
"""


def problems(overrides: dict, text: str = SCENARIO) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(load_scenario_text(text), overrides)
    return caught.value.problems


@pytest.mark.parametrize("path", ["onprem.cards.0", "onprem.cards[0]"])
def test_a_path_into_a_list_says_to_give_the_whole_list(path):
    assert problems({path: "a100-80gb-pcie"}) == [
        f"{path}: onprem.cards is a list; give the whole list, e.g. onprem.cards=[rtx-4090, l40s] (its value now)"]


def test_a_list_the_scenario_leaves_unset_gets_a_placeholder():
    text = SCENARIO.replace(", regions: [us-east-1]", "")   # every region: no list to show
    assert problems({"prices.regions.0": "eastus"}, text) == [
        "prices.regions.0: prices.regions is a list; give the whole list, e.g. prices.regions=[A, B]"]


def test_the_example_is_an_override_that_applies():
    [value] = split_values("[a100-80gb-pcie, l40s]")   # as --vary reads it
    changed = apply_overrides(load_scenario_text(SCENARIO), {"onprem.cards": parse_value(value)})
    assert changed.onprem.cards == ("a100-80gb-pcie", "l40s")


def test_a_value_is_still_a_value():
    assert problems({"onprem.pue.value": 1}) == ["onprem.pue.value: onprem.pue is a value, not a section; "
                                                 "cannot go into 'value'"]


def test_sweep_says_it_and_exits_2(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = CliRunner().invoke(app, ["sweep", str(path), "--vary", "onprem.cards.0=a100-80gb-pcie", "--format", "csv"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "onprem.cards is a list; give the whole list, e.g. onprem.cards=[rtx-4090, l40s]" in said, said


# A file's messages name a workload's field `workloads[1].profile`, so users copy that form into an override; an
# override addresses a workload by 0-based index or by name with dots (`workloads.1.profile`, `workloads.b.profile`).
TWO_WORKLOADS = SCENARIO + "  - {name: b, gpu_hours_per_month: 50, reference_gpu: T4}\n"


@pytest.mark.parametrize("path, said", [
    ("workloads[0].profile", "did you mean workloads.0.profile (or workloads.a.profile)?"),
    ("workloads[1].profile", "did you mean workloads.1.profile (or workloads.b.profile)?"),
    ("workloads[1]", "did you mean workloads.1.FIELD (or workloads.b.FIELD), e.g. workloads.1.gpu_hours_per_month?"),
    ("workloads[2].profile", "no workload at index 2 (0-based; known: a, b); "
                             "a workload's field is workloads.INDEX.profile or workloads.NAME.profile"),
])
def test_a_workload_named_by_brackets_gets_the_dotted_path(path, said):
    assert problems({path: "flat"}, TWO_WORKLOADS) == [f"{path}: {said}"]


def test_the_dotted_path_said_applies():
    changed = apply_overrides(load_scenario_text(TWO_WORKLOADS), {"workloads.1.profile": "flat"})
    assert changed.workloads[1].profile == "flat"


def test_sweep_says_the_dotted_workload_path_and_exits_2(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(TWO_WORKLOADS)
    result = CliRunner().invoke(app, ["sweep", str(path), "--vary", "workloads[0].profile=flat", "--format", "csv"])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "did you mean workloads.0.profile (or workloads.a.profile)?" in said, said
    assert "give the whole list" not in said, said


# Chained item numbers, `workloads[0][1]` and `workloads[0].profile[2]`, were "unknown key 'workloads[0][1]' under
# (top level); did you mean 'workloads'?" or a "did you mean workloads.0.profile[2]" that named nothing either. Each
# item number that names nothing is said, with the path meant: a workload's fields, and every field but a list, have
# names, not numbers; a list is given whole.
CHAINED = [
    ("workloads[0][1]", "[1] names nothing in workloads[0], a workload (its fields have names, not numbers); "
                        "did you mean workloads.0.FIELD (or workloads.a.FIELD), e.g. workloads.0.gpu_hours_per_month?"),
    ("workloads[1][0].profile", "[0] names nothing in workloads[1], a workload (its fields have names, not numbers); "
                                "did you mean workloads.1.profile (or workloads.b.profile)?"),
    ("workloads[0].profile[2]", "[2] names nothing in workloads.0.profile, a value (not a list); "
                                "did you mean workloads.0.profile (or workloads.a.profile)?"),
    ("workloads.0.profile[2]", "[2] names nothing in workloads.0.profile, a value (not a list); "
                               "did you mean workloads.0.profile?"),
    ("workloads[1].throughput[0]", "[0] names nothing in workloads.1.throughput, a mapping (its entries have keys, "
                                   "not numbers); did you mean workloads.1.throughput.KEY (or workloads.b.throughput.KEY)?"),
    ("workloads[2][0]", "no workload at index 2 (0-based; known: a, b); "
                        "a workload's field is workloads.INDEX.FIELD or workloads.NAME.FIELD"),
    ("onprem.cards[0][1]", "onprem.cards is a list; give the whole list, e.g. onprem.cards=[rtx-4090, l40s] (its value now)"),
    ("fx[0]", "[0] names nothing in fx, a mapping (its entries have keys, not numbers); did you mean fx.KEY?"),
]


@pytest.mark.parametrize("path, said", CHAINED)
def test_chained_item_numbers_get_the_path_meant(path, said):
    assert problems({path: "flat"}, TWO_WORKLOADS) == [f"{path}: {said}"]


@pytest.mark.parametrize("path, said", CHAINED[:3])
def test_plan_with_chained_item_numbers_says_so(path, said):
    from planner import plan

    with pytest.raises(ScenarioError) as caught:
        plan(load_scenario_text(TWO_WORKLOADS), overrides={path: "flat"}, baselines=False)
    assert caught.value.problems == [f"{path}: {said}"]


@pytest.mark.parametrize("path, said", CHAINED[:3])
def test_sweep_with_chained_item_numbers_says_so_and_exits_2(tmp_path, path, said):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(TWO_WORKLOADS)
    result = CliRunner().invoke(app, ["sweep", str(scenario), "--vary", f"{path}=flat", "--format", "csv"])
    assert result.exit_code == 2, result.output
    said_there = " ".join(result.output.split())
    assert f"{path}: {said}" in said_there, said_there
    assert "unknown key" not in said_there and "Traceback" not in said_there, said_there
