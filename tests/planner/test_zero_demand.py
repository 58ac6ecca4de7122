"""A scenario whose only workload has no demand: nothing is worth buying or renting, so the plan and every
baseline cost 0. The all-on-prem baseline's model then has no variable at all (no cloud, and no card does
any work), which HiGHS reports as an empty model without a solution; it was read as "found no fleet … allow
more time" and failed `plan` (exit 3), every sweep point and the dashboard's page."""

import json
from pathlib import Path

import pulp
import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.engine.model import Model
from planner.engine.solve import solve

ROOT = Path(__file__).resolve().parents[2]
NO_DEMAND = {"workloads.coursework-and-kaggle.gpu_hours_per_month": 0}


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_no_demand_costs_nothing_in_the_plan_and_every_baseline(solver):
    p = plan(ROOT / "scenarios" / "entry.yaml", solver=solver, overrides=NO_DEMAND)
    assert p.status == "optimal"
    assert p.total == 0.0
    rows = {row.baseline: row for row in p.baselines.itertuples()}
    # entry.yaml allows cloud offers and two cards: the three baselines it has, each with nothing to serve
    assert set(rows) == {"all_cloud", "all_onprem", "best_single"}
    for row in rows.values():
        assert row.status == "optimal" and row.total == 0.0


def test_cli_plans_no_demand_with_exit_0(tmp_path):
    text = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "zero.yaml"
    scenario.write_text(text.replace("gpu_hours_per_month: 120 ", "gpu_hours_per_month: 0 "), encoding="utf-8")
    result = CliRunner().invoke(app, ["plan", str(scenario), "--format", "json", "--no-decisions"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["total"] == 0.0
    assert [(b["baseline"], b["status"], b["total"]) for b in doc["baselines"]] == [
        ("all_cloud", "optimal", 0.0), ("all_onprem", "optimal", 0.0), ("best_single", "optimal", 0.0)]


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_a_model_without_variables_is_its_constant_where_its_rows_hold_zero(solver):
    # every row of a model without variables is the constant 0: HiGHS reports such a model "empty" whether its
    # rows hold 0 or not, so the bounds decide — 7 where 0 ≥ -1, no fleet where 0 ≥ 5 is asked
    for needs, status, objective in ((-1, "optimal", 7.0), (5, "infeasible", None)):
        prob = pulp.LpProblem("no_variables", pulp.LpMinimize)
        prob += pulp.LpAffineExpression(constant=7.0)
        prob += (pulp.LpAffineExpression(constant=0.0) >= needs, "a_row_of_constants")
        solution = solve(Model(inputs=None, prob=prob), solver)
        assert solution.status == status, (solver, needs)
        if objective is not None:
            assert solution.objective == objective
