"""`fleetplan sweep` exits 0 when at least one point has a plan. When none has, it still writes every row
(each with its status and note) and exits 2 where every point was an error (a model too large, a combination of
values the scenario rejects), else 1; before, it exited 0, so a script could not tell a sweep without any plan
from one that worked. A value no point can plan is refused before anything is solved (exit 2, no rows)."""

import json
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ENTRY = str(Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml")
runner = CliRunner()


def _sweep(*vary: str, options: tuple[str, ...] = ()):
    args = ["sweep", ENTRY, "--format", "json", "--processes", "1", *options]
    for v in vary:
        args += ["--vary", v]
    result = runner.invoke(app, args)
    return result, json.loads(result.stdout)


def test_every_point_an_error_exits_2_with_its_rows():
    # entry.yaml's model holds more than one dispatch variable at either rate: each point is refused as too large
    result, rows = _sweep("onprem.electricity_per_kwh=0.1,0.2", options=("--max-variables", "1"))
    assert result.exit_code == 2, result.output
    assert [r["status"] for r in rows] == ["error", "error"]
    assert "2 of 2 points have no plan" in result.stderr


def test_values_no_point_can_plan_exit_2_without_rows():
    result = runner.invoke(app, ["sweep", ENTRY, "--format", "json", "--processes", "1",
                                 "--vary", "onprem.electricity_per_kwh=abc,xyz"])
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == ("error: --vary: 2 problems "
                                               "onprem.electricity_per_kwh=abc: expected a number, got 'abc' "
                                               "onprem.electricity_per_kwh=xyz: expected a number, got 'xyz'")


def test_no_fleet_at_any_point_exits_1():
    # no cloud offer allowed, and a capex budget of 1 or 2 USD buys no card (an RTX 3060 is 1,086 USD)
    result, rows = _sweep("onprem.capex_budget=1,2", "prices.providers=[]")
    assert result.exit_code == 1, result.output
    assert [r["status"] for r in rows] == ["infeasible", "infeasible"]


def test_one_point_with_a_plan_exits_0():
    # min_units 2 with max_units 1 is refused as a whole; each value is valid at another point (min 2 with max 3,
    # max 1 with min 0), so the point is a row. Min 2 with max 3 is infeasible: two RTX 3060 at (2,500 + 5,400 host)
    # CNY × 0.13749 (entry.yaml's fx.CNY) = 1,086.17 USD each are 2,172.34 USD, above its capex budget of 1,500
    result, rows = _sweep("constraints.min_units.rtx-3060-12gb=2,0", "constraints.max_units.rtx-3060-12gb=1,3")
    assert result.exit_code == 0, result.output
    assert [r["status"] for r in rows] == ["error", "infeasible", "optimal", "optimal"]
    assert rows[0]["note"] == "constraints.min_units.rtx-3060-12gb: 2 > max_units 1"
