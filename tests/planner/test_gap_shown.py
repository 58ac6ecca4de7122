"""A solve's gap is shown as a percentage where people read it (the CLI's solver line, summary.md): both printed the
JSON's fraction as it is, "gap 0.05870101452765761", which reads as 0.06 % to anyone who expects a percentage."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from planner.reports.tables import gap_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("gap, shown", [
    (0.05870101452765761, "5.87 %"),   # 0.0587… of the objective is 5.87 %
    (0.5, "50 %"),
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

    solve = importlib.import_module("planner.engine.solve")   # planner.engine.solve is also a function's name
    real = solve._solve_highs

    def stopped(*args, **kwargs):
        real(*args, **kwargs)   # the values the plan is read from
        return "feasible", 0.05870101452765761

    monkeypatch.setattr(solve, "_solve_highs", stopped)
    entry = str(ROOT / "scenarios" / "entry.yaml")
    table = CliRunner().invoke(app, ["plan", entry, "--no-baselines", "--no-decisions"])
    assert table.exit_code == 0, table.output
    assert "solver highs: feasible, gap 5.87 %," in table.stderr
    md = CliRunner().invoke(app, ["plan", entry, "--no-baselines", "--no-decisions", "--format", "md"])
    assert md.exit_code == 0, md.output
    assert "Solver highs: feasible, gap 5.87 %," in md.stdout and "0.0587" not in md.stdout
