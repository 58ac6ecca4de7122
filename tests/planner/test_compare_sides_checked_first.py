"""compare refuses what needs no solve before it solves either side (an audit, 2026-12-07): two scenarios in
different currencies were both solved (2.5 s) before "cannot compare plans in USD and EUR"; and of two files that
do not load, only the first one's problems were said. The expected messages are written out by hand."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from planner import PlannerError, compare
from tests.planner.cli_run import run

compare_module = importlib.import_module("planner.reports.compare")   # the package's name is the function

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"   # currency: USD
DIFFERENT = ("cannot compare plans in different currencies: a ({a}) is in USD, b ({b}) in EUR; plan both in the same "
             "currency (a scenario's `currency`, with `fx` rates for the prices in others)")


@pytest.fixture
def in_euros(tmp_path) -> Path:
    """entry.yaml in EUR, with the rates of its cards' and the cloud's currencies (it validates)."""
    path = tmp_path / "eur.yaml"
    text = ENTRY.read_text(encoding="utf-8").replace("currency: USD", "currency: EUR")
    path.write_text(text.replace("fx: {CNY: 0.13749}", "fx: {CNY: 0.13, USD: 0.92}"), encoding="utf-8")
    assert run("validate", path).exit_code == 0
    return path


def test_the_cli_refuses_sides_in_two_currencies_before_solving_naming_each_file(in_euros, nothing_compared):
    result = run("compare", ENTRY, in_euros)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == "error: " + DIFFERENT.format(a=ENTRY, b=in_euros)


def test_the_library_refuses_them_before_solving_too(in_euros, nothing_compared):
    with pytest.raises(PlannerError) as info:
        compare(ENTRY, in_euros)
    assert str(info.value) == DIFFERENT.format(a=ENTRY, b=in_euros)


def test_the_problems_of_both_files_are_said(tmp_path, nothing_compared):
    typo, dup = tmp_path / "typo.yaml", tmp_path / "dup.yaml"
    typo.write_text("name: x\nhorizn_months: 12\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    dup.write_text("name: x\nname: y\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    result = run("compare", typo, dup)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == (
        f"error: {typo}: 1 problem {typo}:2:1: horizn_months: unknown key; did you mean 'horizon_months'? "
        f"error: {dup}: 1 problem {dup}:2:1: duplicate key 'name' (first on line 1); YAML keeps only the last — "
        "remove one")


def test_one_file_that_does_not_load_is_said_alone(tmp_path, nothing_compared):
    missing = tmp_path / "missing.yaml"
    result = run("compare", ENTRY, missing)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.count("error:") == 1 and str(missing) in result.stderr


def bad_files(tmp_path) -> tuple[Path, Path, str, str]:
    """Two scenario files that do not load, and what each one's problems say (written out by hand)."""
    typo, dup = tmp_path / "typo.yaml", tmp_path / "dup.yaml"
    typo.write_text("name: x\nhorizn_months: 12\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    dup.write_text("name: x\nname: y\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    return (typo, dup, f"{typo}: 1 problem\n  {typo}:2:1: horizn_months: unknown key; did you mean 'horizon_months'?",
            f"{dup}: 1 problem\n  {dup}:2:1: duplicate key 'name' (first on line 1); YAML keeps only the last — remove one")


@pytest.mark.parametrize("as_given", [Path, str])
def test_the_library_says_the_problems_of_both_files_as_the_cli_does(tmp_path, nothing_compared, as_given):
    # the library raised a's problems alone; the CLI said both (a review, 2026-12-08)
    typo, dup, typo_said, dup_said = bad_files(tmp_path)
    with pytest.raises(compare_module.SidesUnreadable) as info:
        compare(as_given(typo), as_given(dup))
    assert info.value.messages == [typo_said, dup_said]
    assert str(info.value) == f"{typo_said}\n{dup_said}"
    assert isinstance(info.value, PlannerError) and info.value.exit_code == 2
    assert set(info.value.errors) == {"a", "b"}


def test_sides_given_as_no_file_are_named_by_their_side(nothing_compared):
    with pytest.raises(compare_module.SidesUnreadable) as info:
        compare("name: x\nhorizn_months: 12\n", {"name": "y", "horizon_months": 12})
    assert info.value.messages == [
        "a (scenario text): <text>: 2 problems\n  <text>:1:1: workloads: required field is missing\n"
        "  <text>:2:1: horizn_months: unknown key; did you mean 'horizon_months'?",
        "b (y): <dict>: 1 problem\n  <dict>: workloads: required field is missing"]


def test_one_side_that_does_not_load_raises_its_own_error(tmp_path, nothing_compared):
    from planner.errors import ScenarioError

    typo, _, typo_said, _ = bad_files(tmp_path)
    with pytest.raises(ScenarioError) as info:
        compare(ENTRY, typo)
    assert str(info.value) == typo_said


def test_one_file_given_as_both_sides_says_its_problems_once(tmp_path, nothing_compared):
    from planner.errors import ScenarioError

    typo, _, typo_said, _ = bad_files(tmp_path)
    with pytest.raises(ScenarioError) as info:
        compare(typo, typo)
    assert str(info.value) == typo_said
    result = run("compare", typo, typo)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.count("error:") == 1 and result.stderr.count("horizn_months") == 1


def test_except_scenario_error_catches_both_sides_failing_as_it_catches_one(tmp_path, nothing_compared):
    # SidesUnreadable was a PlannerError only: code catching the ScenarioError each side alone raises missed it
    from planner.errors import ScenarioError

    typo, dup, typo_said, dup_said = bad_files(tmp_path)
    try:
        compare(typo, dup)
    except ScenarioError as exc:
        caught = exc
    assert isinstance(caught, compare_module.SidesUnreadable) and caught.exit_code == 2
    assert str(caught) == f"{typo_said}\n{dup_said}"
    # its problems, one line each as a ScenarioError's, are both files' (each line names its file)
    assert caught.problems == [f"{typo}:2:1: horizn_months: unknown key; did you mean 'horizon_months'?",
                               f"{dup}:2:1: duplicate key 'name' (first on line 1); YAML keeps only the last — remove one"]


def test_the_problems_of_sides_given_as_no_file_are_led_by_their_side(nothing_compared):
    from planner.errors import ScenarioError

    with pytest.raises(ScenarioError) as info:
        compare("name: x\nhorizn_months: 12\n", {"name": "y", "horizon_months": 12})
    assert info.value.problems == ["a (scenario text): <text>:1:1: workloads: required field is missing",
                                   "a (scenario text): <text>:2:1: horizn_months: unknown key; did you mean "
                                   "'horizon_months'?",
                                   "b (y): <dict>: workloads: required field is missing"]


def test_two_saved_plans_that_are_no_plans_are_caught_as_a_scenario_error_too(tmp_path, nothing_compared):
    # each alone is a PlannerError (a saved plan's problem); both, a ScenarioError whose problems are their messages
    from planner.errors import ScenarioError

    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text("[1]\n")
    second.write_text('{"status": "infeasible", "reason": "no GPU"}\n')
    with pytest.raises(ScenarioError) as info:
        compare(first, second)
    said = [f"{first}: not a plan (expected the JSON object of `fleetplan plan --format json`)",
            f"{second}: holds no plan: infeasible (no GPU)"]
    assert info.value.problems == said and str(info.value) == "\n".join(said)
