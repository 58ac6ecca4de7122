"""The Plan page's solver line says a solve's gap in percent, as the CLI's solver line and summary.md do
(planner.reports.tables.gap_text): it showed the JSON's fraction, "gap 0.05870101452765761", which reads as 0.06 %,
and "gap 0.0" for a proven optimum.

Facts by hand: a relative gap of 0.0587… of the objective is 5.87 %; a proven optimum's gap is 0."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from tests.planner.stopped_solve import stop_solves_at

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def in_page_solves(monkeypatch):
    """No worker processes: the plan is solved in the page's run, where the test can replace the solver's answer."""
    state.clear_plan_cache()
    monkeypatch.setattr(state, "WORKERS", False)
    yield
    state.clear_plan_cache()


def _solver_line() -> str:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "entry.yaml"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    [line] = [c.value for c in at.caption if c.value.startswith("Solver ")]
    return line


def test_a_time_limited_solves_gap_reads_in_percent(in_page_solves, monkeypatch):
    stop_solves_at(monkeypatch)
    line = _solver_line()
    assert line.startswith("Solver highs · feasible · gap 5.87 % · "), line
    assert "0.0587" not in line


def test_a_proven_optimums_gap_reads_0(in_page_solves):
    line = _solver_line()
    assert line.startswith("Solver highs · optimal · gap 0 · "), line
