"""A plan's own output given where a scenario is read (an audit preparing outputs for finance, 2026-12-07): `fleetplan
plan review/plan.json` (or `validate`, or a `plan -o x.json --format json`) gave 44 schema errors ("name: missing",
"version: unknown key", …), and `plan review/summary.md` 20 YAML errors with a nonsense "did you mean". Each is now
one message saying what the file is, as a workbook given for a scenario is named by its format
(test_scenario_file_not_yaml.py), in the library (load_scenario) and in the CLI's plan and validate alike: they all
read the file through loading._read_scenario_text. A saved plan is known by its top-level keys (`status` with
`fleet`, `total`, `scenario_inputs` or `reason`: no scenario field), a summary by its first lines as
plan_to_markdown writes them ("# <scenario>", then "Planned with fleetplan <version> at <time> (UTC), …"). The
texts expected are written out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.reports import plan_to_json, plan_to_markdown
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"   # named "Worked example"

NO_FLEET = """\
name: no fleet
currency: USD
horizon_months: 3
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [rtx-4090], power_cap_kw: 0.5}
constraints: {max_cloud_share: 0.1}
workloads:
  - {name: training, gpu_hours_per_month: 2000, reference_gpu: RTX-4090}
"""


@pytest.fixture(scope="module")
def worked_plan():
    return plan(WORKED, baselines=False)


def _saved_plan_message(path, inputs: bool = True) -> str:
    """The message for a saved plan at `path`; `inputs`: whether the part of it read holds its `scenario_inputs`."""
    return (f"{path}: is a plan saved by `fleetplan plan` (JSON), not a scenario YAML file; `plan` and `validate` take "
            f"a scenario YAML file; `compare` reads saved plans (fleetplan compare SCENARIO.yaml {path})"
            + ("; the scenario it was planned from is in its `scenario_inputs`" if inputs else ""))


def _summary_message(path, name: str = "Worked example") -> str:
    return (f"{path}: is a Markdown file (a plan's summary, written by `fleetplan plan`), not a scenario YAML file; "
            f"`plan` and `validate` take a scenario YAML file: give the one the plan of {name!r} was made from")


def _problems(path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return info.value.problems


def _said_once(result, message: str) -> None:
    """`message` is all `result` says of the file: exit 2, no schema or YAML errors, no traceback."""
    assert result.exit_code == 2, result.output
    text = result.stderr.replace("\n", " ")
    assert message in " ".join(text.split())
    assert "Traceback" not in result.output
    for schema_words in ("unknown key", "missing", "did you mean", "problems"):
        assert schema_words not in text


def test_a_saved_plan_json_is_named_as_one_by_the_library(tmp_path, worked_plan):
    saved = tmp_path / "plan.json"
    saved.write_text(plan_to_json(worked_plan), encoding="utf-8")
    assert _problems(saved) == [_saved_plan_message(saved)]
    assert _problems(str(saved)) == [_saved_plan_message(saved)]


@pytest.mark.parametrize("command", ["plan", "validate"])
def test_plan_and_validate_name_a_saved_plan_in_one_message(tmp_path, worked_plan, command):
    saved = tmp_path / "p.json"
    saved.write_text(plan_to_json(worked_plan), encoding="utf-8")
    _said_once(run(command, saved), _saved_plan_message(saved))


@pytest.mark.parametrize("command", ["plan", "validate"])
def test_the_plan_json_of_an_out_folder_is_named_as_a_saved_plan(tmp_path, command):
    review = tmp_path / "review"
    assert run("plan", WORKED, "--out", review, "--no-baselines", "--no-decisions").exit_code == 0
    _said_once(run(command, review / "plan.json"), _saved_plan_message(review / "plan.json"))
    _said_once(run(command, review / "summary.md"), _summary_message(review / "summary.md"))


def test_a_saved_plan_cut_short_is_known_by_its_first_keys(tmp_path, worked_plan):
    # the reader takes at most MAX_SCENARIO_CHARS: a larger plan's JSON is judged by the keys before the cut (its
    # status and total come first, its scenario_inputs last: not said where not read)
    whole = plan_to_json(worked_plan)
    assert whole.index('"total"') < 400 < whole.index('"scenario_inputs"')
    cut = tmp_path / "big-plan.json"
    cut.write_text(whole[:400], encoding="utf-8")
    assert _problems(cut) == [_saved_plan_message(cut, inputs=False)]


def test_a_summary_is_named_as_one_by_the_library(tmp_path, worked_plan):
    summary = tmp_path / "summary.md"
    summary.write_text(plan_to_markdown(worked_plan), encoding="utf-8")
    assert _problems(summary) == [_summary_message(summary)]


def test_the_json_of_a_plan_without_a_fleet_names_the_scenario_it_was_planned_from(tmp_path):
    scenario = tmp_path / "inf.yaml"
    scenario.write_text(NO_FLEET, encoding="utf-8")
    result = run("plan", scenario, "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 1
    saved = tmp_path / "result.json"
    saved.write_text(result.stdout, encoding="utf-8")
    message = (f"{saved}: is the result of `fleetplan plan` that found no fleet (JSON), not a scenario YAML file; "
               f"`plan` and `validate` take a scenario YAML file: it was planned from {scenario}")
    assert _problems(saved) == [message]
    _said_once(run("validate", saved), message)


# --- what is still read as a scenario ---------------------------------------------------------------------

def test_a_scenario_written_as_json_still_loads(tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"name": "as json", "workloads": [
        {"name": "a", "gpu_hours_per_month": 10, "reference_gpu": "RTX-4090"}]}), encoding="utf-8")
    assert load_scenario(scenario).name == "as json"


def test_a_scenario_that_opens_with_a_heading_comment_still_loads(tmp_path):
    # "# Title" is a YAML comment; a summary's "Planned with fleetplan … at …" line, in a scenario, is text inside it
    scenario = tmp_path / "s.yaml"
    scenario.write_text("# Worked example\n\ndescription: |\n  Planned with fleetplan 0.1.0 at 2026-12-07T08:00:00Z "
                        "(UTC), by hand\nname: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 10, "
                        "reference_gpu: RTX-4090}\n", encoding="utf-8")
    assert load_scenario(scenario).name == "x"


def test_a_scenario_with_a_status_key_is_told_of_that_key_as_before(tmp_path):
    # `status` alone is no plan (compare's rule too): the unknown field is said, as of any scenario
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: x\nstatus: draft\nworkloads:\n  - {name: a, gpu_hours_per_month: 10, "
                        "reference_gpu: RTX-4090}\n", encoding="utf-8")
    problems = _problems(scenario)
    assert len(problems) == 1 and "status" in problems[0] and "not a scenario YAML file" not in problems[0]


def test_a_summary_with_a_description_under_its_title_is_named_too(tmp_path):
    # the description is a paragraph between the title and the "Planned with fleetplan" line; the title's Markdown
    # signs, escaped in the file, are named as typed
    described = plan(WORKED, baselines=False, name="Team *A* #1", description="Q3 review: *one* card\nand the cloud")
    summary = tmp_path / "summary.md"
    text = plan_to_markdown(described)
    assert text.splitlines()[2].startswith("Q3 review") and text.splitlines()[4].startswith("Planned with fleetplan")
    summary.write_text(text, encoding="utf-8")
    assert text.startswith("# Team \\*A\\* #1\n")
    assert _problems(summary) == [_summary_message(summary, "Team *A* #1")]
