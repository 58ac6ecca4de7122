"""`fleetplan compare` and `fleetplan sweep` name the currency and basis of their sums as `fleetplan plan` does
(an audit, 2026-12-06): compare's "Fleets side by side" named neither, its "Cost by category (USD, present value)"
and the sweep's "(2 points, USD, present value)" left out the discount rate that plan's titles give ("present value
at 0%/year, undiscounted", engine.result.present_value_words).

The worked example has a discount rate of 0; its copy here one of 8 %/year."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
UNDISCOUNTED = "present value at 0%/year, undiscounted"


def run(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def worked_at_8(tmp_path_factory) -> Path:
    """The worked example at a discount rate of 8 %/year (its offers CSV named by its full path)."""
    text = WORKED.read_text()
    assert "discount_rate: 0.0\n" in text and "source: offers-g5-us-east-1.csv" in text
    text = text.replace("discount_rate: 0.0\n", "discount_rate: 0.08\n")
    text = text.replace("source: offers-g5-us-east-1.csv", f"source: {ROOT / 'examples' / 'offers-g5-us-east-1.csv'}")
    path = tmp_path_factory.mktemp("at8") / "worked-at-8.yaml"
    path.write_text(text)
    return path


def line_of(stdout: str, start: str) -> str:
    (line,) = [line.strip() for line in stdout.splitlines() if line.strip().startswith(start)]
    return line


def test_compare_titles_name_the_currency_and_the_rate_as_plan_does():
    out = run("compare", WORKED, WORKED).stdout
    assert line_of(out, "Fleets side by side") == f"Fleets side by side (cost in USD, {UNDISCOUNTED})"
    # a narrow table of four columns: the title on one line, as plan's
    assert line_of(out, "Cost by category") == f"Cost by category (USD, {UNDISCOUNTED})"
    plan_out = run("plan", WORKED, "--no-decisions", "--no-baselines").stdout
    assert line_of(plan_out, "Cost by category") == f"Cost by category (USD, {UNDISCOUNTED})"


def test_compare_at_8_percent_says_8_percent(worked_at_8):
    out = run("compare", worked_at_8, worked_at_8).stdout
    assert line_of(out, "Fleets side by side") == "Fleets side by side (cost in USD, present value at 8%/year)"
    assert line_of(out, "Cost by category") == "Cost by category (USD, present value at 8%/year)"


def test_compare_of_two_rates_names_each_sides_rate(worked_at_8):
    out = run("compare", WORKED, worked_at_8).stdout
    both = f"USD; a: {UNDISCOUNTED}; b: present value at 8%/year"
    assert line_of(out, "Fleets side by side") == f"Fleets side by side (cost in {both})"
    assert line_of(out, "Cost by category") == f"Cost by category ({both})"


def test_sweep_title_names_the_scenarios_rate(worked_at_8):
    args = ("--vary", "onprem.pue=1.4,1.5", "--processes", "1")
    assert f"Sweep of worked-example.yaml (2 points, USD, {UNDISCOUNTED})" in \
        " ".join(run("sweep", WORKED, *args).stdout.split())
    assert "Sweep of worked-at-8.yaml (2 points, USD, present value at 8%/year)" in \
        " ".join(run("sweep", worked_at_8, *args).stdout.split())


def test_a_sweep_over_the_rate_says_each_point_has_its_own():
    out = " ".join(run("sweep", WORKED, "--vary", "discount_rate=0,0.08", "--processes", "1").stdout.split())
    assert "Sweep of worked-example.yaml (2 points, USD, present value at each point's discount_rate)" in out


def test_a_sweeps_csv_and_json_name_the_basis_of_each_row_as_the_plans_fleet_csv(worked_at_8, tmp_path):
    # the CSV had a currency column and no money_basis, which the plan's fleet.csv and monthly.csv carry
    import csv
    import io
    import json

    args = ("--vary", "onprem.pue=1.4,1.5", "--processes", "1")
    rows = list(csv.DictReader(io.StringIO(run("sweep", worked_at_8, *args, "--format", "csv").stdout)))
    assert [(r["currency"], r["money_basis"]) for r in rows] == [("USD", "present value at 8%/year")] * 2
    points = json.loads(run("sweep", WORKED, *args, "--format", "json").stdout)
    assert [p["money_basis"] for p in points] == [UNDISCOUNTED] * 2
    run("plan", WORKED, "--no-decisions", "--no-baselines", "--out", tmp_path / "plan")
    with open(tmp_path / "plan" / "fleet.csv", newline="") as f:
        assert {r["money_basis"] for r in csv.DictReader(f)} == {UNDISCOUNTED}
    # a single rate given by --vary: that rate's words
    (one,) = csv.DictReader(io.StringIO(run("sweep", WORKED, "--vary", "discount_rate=0.1", "--format", "csv").stdout))
    assert one["money_basis"] == "present value at 10%/year"
