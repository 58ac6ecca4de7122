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


# ---------------------------------------------------------------------------------------------------
# an offers CSV with a cell its column cannot hold: exit 2, one line naming file, offer, column


G5 = "aws:us-east-1:g5.xlarge:on_demand"   # the first row of examples/offers-melange-toy.csv


def scenario_with_cell(tmp_path: Path, column: str, value: str) -> tuple[Path, Path]:
    """examples/melange-toy.yaml over a copy of its offers CSV whose first row has `value` in `column`."""
    import csv

    with open(EXAMPLES / "offers-melange-toy.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["offer_id"] == G5
    rows[0][column] = value
    offers = tmp_path / "offers.csv"
    with open(offers, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    text = (EXAMPLES / "melange-toy.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(text.replace("source: offers-melange-toy.csv", "source: offers.csv"), encoding="utf-8")
    return scenario, offers


@pytest.mark.parametrize(("column", "value", "said"), [
    ("term_months", "99999999999999999999", "term_months '99999999999999999999': expected a whole number of months"),
    ("term_months", "-12", "term_months '-12': expected a whole number of months"),
    ("term_months", "12.5", "term_months '12.5': expected a whole number of months"),
    ("term_months", "", "term_months '': expected a whole number of months"),
    ("hourly_price", "abc", "hourly_price 'abc' is not a number"),
    ("gpu_count", "1e400", "gpu_count above 128 per unit"),
    ("gpu_memory_gb", "24 GB", "gpu_memory_gb '24 GB' is not a number"),
    ("gpu_known", "maybe", "gpu_known 'maybe': expected True or False"),
])
@pytest.mark.parametrize("command", ["plan", "validate"])
def test_offers_csv_with_a_bad_cell_exits_2_naming_file_offer_and_column(tmp_path, command, column, value, said):
    scenario, offers = scenario_with_cell(tmp_path, column, value)
    args = ["--no-baselines", "--no-decisions"] if command == "plan" else []
    result = run(command, scenario, *args)
    assert result.exit_code == 2, result.output
    assert no_traceback(result)
    message = " ".join(result.stderr.split())
    # the file as the scenario names it (offers.csv), not the path it was resolved to
    assert f" {offers.name}: line 2 (offer {G5}): {said}" in message, message


def test_offers_csv_with_a_12_month_term_still_plans(tmp_path):
    scenario, _ = scenario_with_cell(tmp_path, "term_months", "12")
    result = run("plan", scenario, "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------------------------------------
# control characters in scenario text: shown as \xNN on the terminal, kept as given in JSON


HOSTILE_NAME = "Entry \x1b]0;pwned\x07 \x9b2J"
HOSTILE_WORKLOAD = "w\x0c\x1b[31mred\x00"


@pytest.fixture()
def hostile_scenario(tmp_path, monkeypatch) -> Path:
    for var in ("FORCE_COLOR", "TTY_COMPATIBLE"):   # no colour: any ESC on stdout then came from the scenario
        monkeypatch.delenv(var, raising=False)
    text = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
    text = text.replace("name: Entry — small datasets", f"name: {json.dumps(HOSTILE_NAME)}", 1)
    text = text.replace("  - name: coursework-and-kaggle", f"  - name: {json.dumps(HOSTILE_WORKLOAD)}", 1)
    path = tmp_path / "ctl.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_plan_table_shows_control_characters_of_scenario_text_as_escapes(hostile_scenario):
    result = run("plan", hostile_scenario, "--no-decisions")
    assert result.exit_code == 0, result.output
    for stream in (result.stdout, result.stderr):
        assert not any(ord(c) < 0x20 and c not in "\t\n" or 0x7f <= ord(c) < 0xa0 for c in stream), repr(stream)
    assert r"Entry \x1b]0;pwned\x07 \x9b2J" in result.stdout       # the headline
    assert r"w\x0c\x1b[31mred\x00" in result.stdout                 # the break-even table's workload cell


def test_plan_json_keeps_scenario_text_as_given(hostile_scenario):
    result = run("plan", hostile_scenario, "--no-decisions", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["scenario"] == HOSTILE_NAME
    assert {row["workload"] for row in doc["break_even"]} == {HOSTILE_WORKLOAD}
    assert doc["scenario_inputs"]["workloads"][0]["name"] == HOSTILE_WORKLOAD


def test_error_message_shows_control_characters_as_escapes(tmp_path, monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    missing = tmp_path / "no\x1b[2Jthere.yaml"
    result = run("plan", missing)
    assert result.exit_code == 2 and no_traceback(result)
    assert "\x1b" not in result.stderr and r"no\x1b[2Jthere.yaml" in result.stderr
