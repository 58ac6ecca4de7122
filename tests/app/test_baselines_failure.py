"""The Plan page when the baselines have no answer. A review (2026-12-05) moved entry.yaml's demand slider to 0:
the all-on-prem baseline's model then has no variable at all, HiGHS reported it empty, the planner read that
as "found no fleet … allow more time" (SolverError), and the page showed a traceback. The empty model is now
an optimum of 0 (tests/planner/test_zero_demand.py). A baseline whose solve the time limit stopped before it
found a fleet is a row "not solved" (tests/planner/test_baseline_time_limit.py), shown as such on its card;
baselines that still cannot be made (any other PlannerError) are said on the page, below the plan, without a
traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner.engine import baselines as baselines_module
from planner.engine.solve import Solution
from planner.errors import SolverError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def in_page_baselines(monkeypatch):
    """No worker processes: the baselines are solved in the page's run, where the test can replace them."""
    state.clear_plan_cache()
    monkeypatch.setattr(state, "WORKERS", False)
    yield
    state.clear_plan_cache()


def _entry_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "entry.yaml"
    return at.run()


def test_no_demand_plans_at_zero_with_its_baselines(in_page_baselines):
    at = _entry_page()
    assert not at.exception, [e.value for e in at.exception]
    at.slider(key="edit:demand:coursework-and-kaggle").set_value(0.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    # nothing to serve: the plan and the three baselines each cost 0
    [table] = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["baseline", "label"]]
    assert table["status"].tolist() == ["optimal"] * 3
    assert table["total"].tolist() == [0.0] * 3


def test_baselines_without_an_answer_are_said_without_a_traceback(in_page_baselines, monkeypatch):
    said = "all on-prem: solver highs found no fleet within the time limit of 60 s (60.0 s)"
    calls = []

    def stopped(*args):
        calls.append(args)
        raise SolverError(said)

    monkeypatch.setattr(state, "baselines_job", stopped)
    at = _entry_page()
    assert not at.exception, [e.value for e in at.exception]
    [error] = [e.value.replace("\\", "") for e in at.error]   # as read: without tables.plain's escapes
    assert error.startswith("**The baselines could not be made** (the plan above stands).")
    assert said in error
    assert any(m.label.startswith("Total") for m in at.metric), [m.label for m in at.metric]   # the plan is on the page
    # solved once: the failure is kept and said again, not solved again (each solve may take the time limit)
    at.run()
    assert len(calls) == 1 and [e.value.replace("\\", "") for e in at.error] == [error]
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(e.value.startswith("**No plan to export**: its baselines could not be made.")
               and said in e.value.replace("\\", "")
               for e in at.error), [e.value for e in at.error]
    assert len(calls) == 1


def test_a_baseline_stopped_by_the_time_limit_shows_not_solved_on_its_card(in_page_baselines, monkeypatch):
    real = baselines_module.solve

    def stops_all_onprem(model, solver, time_limit):   # as HiGHS reports a run stopped before its first fleet
        if model.inputs.label == "all on-prem":
            return Solution("not_solved", float("nan"), solver, time_limit, None)
        return real(model, solver, time_limit)

    monkeypatch.setattr(baselines_module, "solve", stops_all_onprem)
    at = _entry_page()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    [card] = [m for m in at.metric if m.label == "All on-prem"]
    assert card.value == "not solved"
    assert "found no fleet within the time limit of 60 s" in card.proto.help
    [table] = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["baseline", "label"]]
    assert table.set_index("baseline").loc["All on-prem", "status"] == "not_solved"   # in words (tables.baselines_table)
