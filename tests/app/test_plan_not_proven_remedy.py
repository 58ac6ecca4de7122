"""The Plan page tells a plan not proven optimal (its solve stopped at the dashboard's time limit) how to let it finish
in the page's words: the engine's warning ends "a longer time limit (fleetplan plan --time-limit SECONDS,
plan(time_limit=…)) lets it finish", a command-line option and a library argument no one on the page can use; nothing
on the page gives the solves more time, so it says to plan the scenario's file on the command line, which has no time
limit unless asked.

Facts by hand: a solve stopped at a relative gap of 0.05870101452765761 is 5.87 % (two decimals) of the total;
entry.yaml's total, 334 USD on the page, times that gap is 19.6, "up to 20 USD cheaper"."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import jobs, state
from tests.planner.stopped_solve import stop_solves_at

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def stopped_at_a_gap(monkeypatch):
    """Plans solved in the page's run (no worker processes), each solve stopped at the time limit with a gap."""
    state.clear_plan_cache()
    monkeypatch.setattr(state, "WORKERS", False)
    stop_solves_at(monkeypatch)
    yield
    state.clear_plan_cache()


def test_a_plan_stopped_at_the_time_limit_is_told_the_pages_way_to_let_it_finish(stopped_at_a_gap):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "entry.yaml"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.metric[0].value == "334 USD"
    [box] = [e.value for e in at.code]
    first = box.splitlines()[0]
    assert first == (f"not proven optimal: the solver stopped at the time limit of {jobs.TIME_LIMIT_S:g} s before it "
                     "proved this plan the cheapest; a plan up to 20 USD cheaper may exist (gap 5.87 % of the total); "
                     "the dashboard allows its solves no more time: planning the scenario's file on the command line, "
                     "`fleetplan plan FILE` (no time limit unless --time-limit), lets it finish"), first
    shown = [str(e.value) for kind in ("warning", "info", "error", "markdown", "caption", "code") for e in at.get(kind)]
    assert not [text for text in shown if "--time-limit SECONDS" in text or "plan(time_limit=" in text]
