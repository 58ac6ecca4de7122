"""The CLI's JSON as DESIGN §8 promises it: `validate --format json` gives its problems as data, the JSON of a plan
or a comparison with no fleet says what is known without one, and the flip points table names its share as the
JSON does."""

import json
from pathlib import Path

import pytest

from planner.cli.commands import _small_shares
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "tests" / "fixtures" / "scenarios" / "bad.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"

# no GPU of planner/data/gpus.csv has compute capability 15 (the most: 12.0): no fleet, found before any solve (a
# memory no GPU has is refused as the file loads)
NO_FLEET = """name: no fleet
horizon_months: 18
workloads:
  - {name: w, gpu_hours_per_month: 1, reference_gpu: T4, min_compute_capability: 15}
"""


def error(line, column, field, message) -> dict:
    return {"severity": "error", "line": line, "column": column, "field": field, "message": message}


# --- validate --format json ------------------------------------------------------------------------

def test_validate_json_places_each_problem_of_the_bad_fixture_by_line_column_and_field():
    result = run("validate", BAD, "--format", "json")
    assert result.exit_code == 2
    assert result.stderr == ""   # the problems are in the JSON, not said twice
    doc = json.loads(result.stdout)
    # the fixture by hand: `horizon_month:` opens line 2; line 5's `   pue: 1.4` is indented one too far (its key
    # at column 4, the line's first character); `rtx-409` starts at column 21 of `  cards: [rtx-4090, rtx-409]`; the values of
    # `    gpu_hours_per_month: lots` and `    reference_gpu: A100-80GB-PCI` at columns 4 + 21 + 1 and 4 + 15 + 1
    assert doc == {"ok": False, "files": [{
        "file": str(BAD), "ok": False, "scenario": None, "workloads": None, "horizon_months": None,
        "problems": [   # the YAML syntax error first, then the rest by line
            error(5, 4, None, "YAML syntax: a `key: value` cannot start here: this line is indented more than the key "
                  "'electricity_per_kwh' above it (line 4), so YAML reads it as part of that value; line it up with its "
                  "keys (or quote a value holding ': ')"),
            error(2, 1, "horizon_month", "unknown key; did you mean 'horizon_months'?"),
            error(6, 21, "onprem.cards[1]", "unknown card 'rtx-409'; did you mean 'rtx-4090'?"),
            error(9, 26, "workloads[0].gpu_hours_per_month", "expected a number, got 'lots'"),
            error(10, 20, "workloads[0].reference_gpu", "unknown GPU 'A100-80GB-PCI'; did you mean 'A100-80GB-PCIE'?"),
        ]}]}


def test_validate_json_gives_errors_and_warnings_of_each_file_with_their_severity(tmp_path):
    # a region no offer has (an error of the prices) and electricity in cents (a warning) on a file that loads
    regions = tmp_path / "regions.yaml"
    regions.write_text("name: r\nhorizon_months: 12\nprices:\n  regions: [us-east-9]\nonprem:\n  electricity_per_kwh: 12\n"
                       "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n", encoding="utf-8")
    # warnings alone: electricity in cents, and reserved_1y allowed where the packaged prices have none
    warned = tmp_path / "warned.yaml"
    warned.write_text("name: only warnings\nhorizon_months: 12\nprices:\n  purchase_options: [on_demand, reserved_1y]\n"
                      "onprem:\n  electricity_per_kwh: 12\n"
                      "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n", encoding="utf-8")
    result = run("validate", regions, warned, tmp_path / "missing.yaml", "--format", "json")
    assert result.exit_code == 2 and result.stderr == ""
    doc = json.loads(result.stdout)
    assert doc["ok"] is False
    first, second, third = doc["files"]

    assert (first["file"], first["ok"], first["scenario"], first["workloads"], first["horizon_months"]) == \
        (str(regions), False, "r", 1, 12)
    region, cents = first["problems"]
    # `  regions: [us-east-9]`: the item at column 13 of line 4; `  electricity_per_kwh: 12`: the value at 24 of line 6
    assert (region["severity"], region["line"], region["column"], region["field"]) == ("error", 4, 13, "prices.regions")
    assert region["message"].startswith("no offers in 'us-east-9'")
    assert (cents["severity"], cents["line"], cents["column"], cents["field"]) == \
        ("warning", 6, 24, "onprem.electricity_per_kwh")
    assert cents["message"].startswith("12 USD a kWh is more than grid electricity costs anywhere")

    assert (second["ok"], second["scenario"]) == (True, "only warnings")
    cents, gap = second["problems"]
    assert (cents["severity"], cents["line"], cents["column"], cents["field"]) == \
        ("warning", 6, 24, "onprem.electricity_per_kwh")
    # a purchase option with no price, at its item of prices.purchase_options: `  purchase_options: [on_demand,
    # reserved_1y]`, line 4, column 33 (2 spaces, 18 of the key and its colon and space, 12 of "[on_demand, ")
    assert (gap["severity"], gap["line"], gap["column"], gap["field"]) == \
        ("warning", 4, 33, "prices.purchase_options[1]")
    assert gap["message"].startswith("reserved_1y: no reserved_1y prices")

    assert third == {"file": str(tmp_path / "missing.yaml"), "ok": False, "scenario": None, "workloads": None,
                     "horizon_months": None, "problems": [error(None, None, None, "file not found")]}


def test_validate_json_of_files_with_warnings_alone_is_ok_and_exits_0(tmp_path):
    warned = tmp_path / "warned.yaml"
    warned.write_text("name: w\nhorizon_months: 12\nprices:\n  purchase_options: [on_demand]\nonprem:\n"
                      "  electricity_per_kwh: 12\nworkloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n",
                      encoding="utf-8")
    result = run("validate", warned, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["ok"] is True and [p["severity"] for p in doc["files"][0]["problems"]] == ["warning"]


def test_validate_takes_table_or_json_and_refuses_csv():
    result = run("validate", WORKED, "--format", "csv")
    assert result.exit_code == 2 and "expected one of table, json, got 'csv'" in result.stderr
    assert "--format <table|json>" in run("validate", "--help").stdout


# --- a plan and a comparison with no fleet ---------------------------------------------------------

def test_plan_json_without_a_fleet_says_the_scenario_currency_horizon_and_solver(tmp_path):
    scenario = tmp_path / "no-fleet.yaml"
    scenario.write_text(NO_FLEET, encoding="utf-8")
    result = run("plan", scenario, "--format", "json", "--solver", "cbc")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc.pop("reason").startswith("workload w (≥ 0 GB, 1 GPU per job, compute capability ≥ 15) has no "
                                         "compatible offer")
    assert isinstance(doc.pop("version"), str)
    # the scenario's own values (currency USD by default), the solver asked for, the file as given
    assert doc == {"status": "infeasible", "scenario": "no fleet", "scenario_file": str(scenario), "currency": "USD",
                   "horizon_months": 18, "solver": {"name": "cbc"}}


def test_the_json_of_a_plan_without_a_fleet_is_still_read_by_compare_as_holding_no_plan(tmp_path):
    scenario = tmp_path / "no-fleet.yaml"
    scenario.write_text(NO_FLEET, encoding="utf-8")
    saved = tmp_path / "plan.out"
    saved.write_text(run("plan", scenario, "--format", "json").stdout, encoding="utf-8")
    result = run("compare", WORKED, saved)
    assert result.exit_code == 2 and f"{saved}: holds no plan: infeasible (workload w" in result.stderr


@pytest.mark.parametrize("side", ["a", "b"])
def test_compare_json_with_a_side_without_a_fleet_names_that_side_and_both_sides_basis(tmp_path, side):
    scenario = tmp_path / "no-fleet.yaml"
    scenario.write_text(NO_FLEET, encoding="utf-8")
    files = {"a": scenario, "b": WORKED} if side == "a" else {"a": WORKED, "b": scenario}
    result = run("compare", files["a"], files["b"], "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["status"] == "infeasible" and doc["reason"].startswith(f"{side} (no fleet): workload w")
    assert doc["infeasible_side"] == side and doc["currency"] == "USD"
    # the worked example: 24 months undiscounted; the scenario without a fleet 18 months, discount_rate's default 0
    horizons = {"a": 18, "b": 24} if side == "a" else {"a": 24, "b": 18}
    assert doc["basis"] == {s: {"horizon_months": horizons[s], "discount_rate": 0.0} for s in "ab"}
    assert {s: (doc["sides"][s]["file"], doc["sides"][s]["saved_plan"]) for s in "ab"} == \
        {s: (str(files[s]), False) for s in "ab"}


# --- the flip points table -------------------------------------------------------------------------

def test_plan_table_shows_the_flip_share_of_today_as_a_share_under_the_json_name():
    result = run("plan", WORKED, "--no-baselines")
    assert result.exit_code == 0, result.output
    out = result.stdout[result.stdout.index("Flip points"):]
    assert "flip_share_of_today" in out and "flip_pct_of_today" not in result.stdout
    header = next(line for line in out.splitlines() if "flip_share_of_today" in line)
    row = next(line for line in out.splitlines() if "rtx-a5000" in line)
    cells = dict(zip([c.strip() for c in header.strip("┃ ").split("┃")], [c.strip() for c in row.strip("│ ").split("│")]))
    # tests/planner/test_decisions.py by hand: the A5000 pays above 2,650.60 / (24 × 1.1675) = 94.5967 GPU-hours a
    # month, of today's 800: 0.118246, shown to 3 decimals as utilisation is a share
    assert cells["flip_share_of_today"] == "0.118"


def test_a_share_three_decimals_would_show_as_0_keeps_two_significant_digits():
    nan = float("nan")
    shown = _small_shares([0.2706, 0.00012, 0.0005, 0.0, nan], 3)
    assert shown[:4] == [0.2706, "0.00012", 0.0005, 0.0] and shown[4] != shown[4]
