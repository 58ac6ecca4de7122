"""HiGHS's solves as a time limit leaves them, for tests of what a plan not proven optimal says (the CLI, the
Markdown summary, the dashboard's pages): the values of the optimum are read back, the status is feasible and the
gap the one given."""

from __future__ import annotations

import importlib

GAP = 0.05870101452765761   # a gap that shows as "5.87 %"


def stop_solves_at(monkeypatch, gap: float | None = GAP) -> None:
    """Every HiGHS solve of the test ends `feasible` at `gap` (None: no bound proved), its values the optimum's."""
    solve = importlib.import_module("planner.engine.solve")   # planner.engine.solve is also a function's name
    real = solve._solve_highs

    def stopped(*args, **kwargs):
        real(*args, **kwargs)   # the values the plan is read from
        return "feasible", gap

    monkeypatch.setattr(solve, "_solve_highs", stopped)
