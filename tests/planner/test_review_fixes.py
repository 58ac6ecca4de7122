"""Review findings: bad input ends in exit 2 and one line naming what is wrong (no traceback), and text
from a scenario reaches a terminal without its control characters."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def no_traceback(result) -> bool:
    return "Traceback" not in result.output and (result.exception is None or isinstance(result.exception, SystemExit))


# ---------------------------------------------------------------------------------------------------
# compare: a saved plan whose fleet key fields are not text


@pytest.fixture(scope="module")
def saved_plan(tmp_path_factory) -> Path:
    result = run("plan", EXAMPLES / "melange-toy.yaml", "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("plans") / "plan.json"
    path.write_text(result.stdout, encoding="utf-8")
    return path


@pytest.mark.parametrize(("field", "value"), [("provider", ["aws"]), ("sku", {"a": 1}), ("purchase_option", 3)])
def test_compare_saved_plan_with_a_fleet_key_that_is_not_text_exits_2_naming_file_row_and_field(
        saved_plan, tmp_path, field, value):
    doc = json.loads(saved_plan.read_text(encoding="utf-8"))
    doc["fleet"][0][field] = value
    bad = tmp_path / "bad_fleet.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", bad, saved_plan)
    assert result.exit_code == 2, result.output
    assert no_traceback(result)
    assert f"bad_fleet.json: fleet row 1: {field} is {json.dumps(value)}; expected text" in result.stderr


def test_compare_saved_plan_whose_fleet_is_not_a_list_exits_2(saved_plan, tmp_path):
    doc = json.loads(saved_plan.read_text(encoding="utf-8"))
    doc["fleet"] = {"provider": "aws"}
    bad = tmp_path / "bad_fleet.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", saved_plan, bad)
    assert result.exit_code == 2, result.output
    assert no_traceback(result)
    assert "bad_fleet.json: fleet: expected a list of objects" in result.stderr


def test_compare_two_good_saved_plans_still_works(saved_plan):
    result = run("compare", saved_plan, saved_plan, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"]["delta"] == 0
