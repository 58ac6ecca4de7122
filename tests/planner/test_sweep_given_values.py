"""`fleetplan sweep` shows each varied value as --vary gave it, in every format (1 next to 1.5 is 1, not 1.0;
a boolean is YAML's true/false; null is null), and names --vary, not the library's "overrides", for a bad
path given there."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.planner.cli_run import run

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"   # one workload: coursework-and-kaggle
INTERRUPTIBLE = "workloads.coursework-and-kaggle.interruptible"


def table_cells(stdout: str, column: int) -> list[str]:
    """The cells of one column of a rich table's rows, with the spaces that pad them."""
    return [line.split("│")[column + 1] for line in stdout.splitlines() if line.startswith("│")]


def csv_column(stdout: str, name: str) -> list[str]:
    return [row[name] for row in csv.DictReader(io.StringIO(stdout))]


# pue 1, 1.5 and 2 each plan; pandas made the column 1.0, 1.5, 2.0

def test_whole_numbers_next_to_a_fraction_stay_whole_and_right_aligned_in_the_table():
    result = run("sweep", ENTRY, "--vary", "onprem.pue=2,1.5,1", "--processes", "1")
    assert result.exit_code == 0, result.output
    cells = table_cells(result.stdout, 0)
    assert [c.strip() for c in cells] == ["2", "1.5", "1"]
    assert all(c.startswith("  ") and c.endswith(f"{c.strip()} ") for c in cells)   # right-aligned


def test_whole_numbers_next_to_a_fraction_stay_whole_in_csv_and_json():
    args = ("sweep", ENTRY, "--vary", "onprem.pue=2,1.5,1", "--processes", "1", "--format")
    assert csv_column(run(*args, "csv").stdout, "onprem.pue") == ["2", "1.5", "1"]
    given = [row["onprem.pue"] for row in json.loads(run(*args, "json").stdout)]
    assert given == [2, 1.5, 1] and [type(v) for v in given] == [int, float, int]


def test_a_varied_boolean_reads_true_and_false_as_yaml_writes_them():
    args = ("sweep", ENTRY, "--vary", f"{INTERRUPTIBLE}=true,false", "--processes", "1", "--format")
    table = run(*args, "table")
    assert table.exit_code == 0, table.output
    assert [c.strip() for c in table_cells(table.stdout, 0)] == ["true", "false"]
    assert csv_column(run(*args, "csv").stdout, INTERRUPTIBLE) == ["true", "false"]
    assert [row[INTERRUPTIBLE] for row in json.loads(run(*args, "json").stdout)] == [True, False]


def test_a_varied_null_reads_null_in_the_table_with_its_numbers_right_aligned_and_is_empty_in_csv():
    # no power cap, then 5 kW: both plan entry.yaml
    args = ("sweep", ENTRY, "--vary", "onprem.power_cap_kw=null,5", "--processes", "1", "--format")
    table = run(*args, "table")
    assert table.exit_code == 0, table.output
    cells = table_cells(table.stdout, 0)
    assert [c.strip() for c in cells] == ["null", "5"] and cells[1].startswith("  ")   # "None" was left-aligned
    assert csv_column(run(*args, "csv").stdout, "onprem.power_cap_kw") == ["", "5"]
    assert [row["onprem.power_cap_kw"] for row in json.loads(run(*args, "json").stdout)] == [None, 5]


# --- a bad path names --vary -------------------------------------------------------------------------------

def test_an_unknown_path_in_vary_names_vary_and_the_allowed_keys(nothing_solved):
    result = run("sweep", ENTRY, "--vary", "nosuch.path=1,2")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    said = " ".join(result.stderr.split())
    assert said.startswith("error: --vary: 1 problem nosuch.path: unknown key 'nosuch' under (top level) (allowed: "
                           "name, description, currency, horizon_months, discount_rate, fx, prices, onprem, workloads,")
    assert "overrides" not in said


def test_a_misspelt_path_in_vary_names_vary_and_the_key_meant(nothing_solved):
    result = run("sweep", ENTRY, "--vary", "onprem.electricty_per_kwh=0.1,0.2")
    assert result.exit_code == 2 and result.stdout == ""
    assert " ".join(result.stderr.split()) == ("error: --vary: 1 problem onprem.electricty_per_kwh: unknown key "
                                               "'electricty_per_kwh' under onprem; did you mean 'electricity_per_kwh'?")


def test_a_bad_scenario_file_still_names_itself(tmp_path):
    bad = tmp_path / "s.yaml"
    bad.write_text(ENTRY.read_text().replace("horizon_months: 24", "horizon_months: 0"))
    result = run("sweep", bad, "--vary", "onprem.pue=1.2")
    assert result.exit_code == 2 and f"error: {bad}: 1 problem" in " ".join(result.stderr.split())
