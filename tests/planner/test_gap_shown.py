"""A solve's gap is shown as a percentage where people read it (the CLI's solver line, summary.md): both printed the
JSON's fraction as it is, "gap 0.05870101452765761", which reads as 0.06 % to anyone who expects a percentage."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.reports.tables import gap_text
from tests.planner.stopped_solve import stop_solves_at

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("gap, shown", [
    (0.05870101452765761, "5.87 %"),   # 0.0587… of the objective is 5.87 %
    (0.5, "50 %"),
    (9.99, "999 %"),
    (12.5, "1,250 %"),                 # a bound far below zero: never "1.25e+03 %"
    (0.00123, "0.123 %"),
    (2e-6, "under 0.01 %"),            # never "0.0002 %" nor "2e-04 %"
    (0.0, "0"),                        # a proven optimum
    (None, "unknown (stopped before it proved any bound)"),
])
def test_gap_text(gap, shown):
    assert gap_text(gap) == shown


def test_the_cli_and_the_summary_show_a_time_limited_plans_gap_in_percent(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from planner.cli import app

    stop_solves_at(monkeypatch, 0.05870101452765761)
    entry = str(ROOT / "scenarios" / "entry.yaml")
    table = CliRunner().invoke(app, ["plan", entry, "--no-baselines", "--no-decisions"])
    assert table.exit_code == 0, table.output
    assert "solver highs: feasible, gap 5.87 %," in table.stderr
    md = CliRunner().invoke(app, ["plan", entry, "--no-baselines", "--no-decisions", "--format", "md"])
    assert md.exit_code == 0, md.output
    assert "Solver highs: feasible, gap 5.87 %," in md.stdout and "0.0587" not in md.stdout


def test_a_plan_stopped_unproven_says_how_much_cheaper_a_plan_may_be(monkeypatch):
    from planner import plan
    from planner.engine.run import plan_summary
    from planner.scenario import load_scenario_file

    entry = load_scenario_file(ROOT / "scenarios" / "entry.yaml")
    proven = plan(entry, baselines=False)
    assert not [w for w in proven.warnings if w.startswith("not proven optimal")]
    stop_solves_at(monkeypatch, 0.05)
    p = plan(entry, baselines=False, time_limit=30)
    assert p.status == "feasible" and p.total == pytest.approx(proven.total)
    # 5 % of the total: the least cost the solver proved possible lies that far below it
    cheaper = f"{0.05 * p.total:,.0f} {p.currency}"
    (said,) = [w for w in p.warnings if w.startswith("not proven optimal")]
    assert said == ("not proven optimal: the solver stopped at the time limit of 30 s before it proved this plan the "
                    f"cheapest; a plan up to {cheaper} cheaper may exist (gap 5 % of the total); a longer time limit "
                    "(fleetplan plan --time-limit SECONDS, plan(time_limit=…)) lets it finish")
    assert said in plan_summary(entry, time_limit=30).warnings   # a sweep's point says it too


def test_a_plan_stopped_before_any_bound_says_how_far_is_not_known(monkeypatch):
    from typer.testing import CliRunner

    from planner.cli import app

    stop_solves_at(monkeypatch, None)
    run = CliRunner().invoke(app, ["plan", str(ROOT / "scenarios" / "entry.yaml"), "--no-baselines", "--no-decisions",
                                   "--format", "json"])
    assert run.exit_code == 0, run.output
    (said,) = [w for w in __import__("json").loads(run.stdout)["warnings"] if w.startswith("not proven optimal")]
    assert said.startswith("not proven optimal: the solver stopped before it proved this plan the cheapest; how much "
                           "cheaper the best plan is, is not known: the solver proved no bound before it stopped;")
