"""`fleetplan sweep` exits 0 when at least one point has a plan. When none has, it still writes every row
(each with its status and note) and exits 2 where every point was an error (a value the scenario rejects),
else 1; before, it exited 0, so a script could not tell a sweep without any plan from one that worked."""

import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ENTRY = str(Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml")
runner = CliRunner()


def _sweep(*vary: str):
    args = ["sweep", ENTRY, "--format", "json", "--processes", "1"]
    for v in vary:
        args += ["--vary", v]
    result = runner.invoke(app, args)
    return result, json.loads(result.stdout)


def test_every_point_rejected_exits_2_with_its_rows():
    result, rows = _sweep("onprem.electricity_per_kwh=abc,xyz")
    assert result.exit_code == 2, result.output
    assert [r["status"] for r in rows] == ["error", "error"]
    assert "2 of 2 points have no plan" in result.stderr


def test_no_fleet_at_any_point_exits_1():
    # no cloud offer allowed, and a capex budget of 1 or 2 USD buys no card (an RTX 3060 is 1,106 USD)
    result, rows = _sweep("onprem.capex_budget=1,2", "prices.providers=[]")
    assert result.exit_code == 1, result.output
    assert [r["status"] for r in rows] == ["infeasible", "infeasible"]


def test_one_point_with_a_plan_exits_0():
    result, rows = _sweep("onprem.electricity_per_kwh=abc,0.2")
    assert result.exit_code == 0, result.output
    assert [r["status"] for r in rows] == ["error", "optimal"]
