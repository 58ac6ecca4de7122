"""Counts in the CLI's lines agree with their noun: "optimal, 1 month" (it said "1 months" for the Mélange toy, a
one-month scenario), "1 solve", "1 constraint", "1 offer", a sweep of "1 point" whose point "has" no plan."""

from pathlib import Path

import planner.engine
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "examples" / "melange-toy.yaml"   # horizon_months: 1


def test_plan_headline_of_a_one_month_scenario():
    result = run("plan", TOY, "--no-baselines")
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert head.startswith("Mélange toy example — optimal, 1 month, total "), head
    assert "1 months" not in result.output


def test_decision_values_of_one_solve(monkeypatch):
    real = planner.engine.add_decisions

    def one_solve(result, *args, **kwargs):   # the decisions as computed, counted as one solve of one part
        real(result, *args, **kwargs)
        solver = result.solver   # a copy (a Plan keeps its dicts to itself): set back whole
        done = solver["decisions"]
        done["solves"] = dict.fromkeys(done["solves"], 0) | {"runner_up": 1}
        done["threads"] = 1
        result.solver = solver

    monkeypatch.setattr(planner.engine, "add_decisions", one_solve)
    result = run("plan", TOY, "--no-baselines")
    assert result.exit_code == 0, result.output
    line = next(text for text in result.stderr.splitlines() if text.startswith("decision values"))
    assert line.startswith("decision values, runner-up, flip points and cap costs: 1 solve, "), line
    assert line.endswith(" s"), line   # one thread: no "on 1 threads"


def test_sweep_of_one_point_says_point():
    result = run("sweep", TOY, "--vary", "onprem.electricity_per_kwh=0.2")
    assert result.exit_code == 0, result.output
    assert "Sweep of melange-toy.yaml (1 point, USD" in " ".join(result.stdout.split()), result.stdout
    assert "1 points" not in result.output


def test_decision_values_with_no_re_solve_say_so_without_threads():
    # melange-toy rents two cloud offers and buys no card: nothing to re-solve ("0 solves, 0.38 s on 2 threads")
    result = run("plan", TOY, "--no-baselines")
    assert result.exit_code == 0, result.output
    line = next(text for text in result.stderr.splitlines() if text.startswith("decision values"))
    assert line.startswith("decision values, runner-up, flip points and cap costs: no re-solve needed, "), line
    assert "thread" not in line
