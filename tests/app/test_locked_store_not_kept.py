"""The dashboard keeps a plan's failure for the same inputs (the same inputs fail the same way, and each page run
would plan again), but not a price store another process keeps locked (a refresh saving; the planner raises
PriceStoreLocked): that passes, and a page kept showing "locked" after the refresh had ended, until its inputs
changed."""

from __future__ import annotations

from pathlib import Path

import pytest

import planner.engine
from fleetplan_dashboard import state
from planner import load_scenario
from planner.errors import PlannerError, PriceStoreLocked

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"


@pytest.fixture()
def entry():
    state.clear_plan_cache()
    yield load_scenario(ENTRY)
    state.clear_plan_cache()


def _failing_once(monkeypatch, error: Exception) -> list:
    """engine.plan raising `error` at its first call, planning at the others; the list of its calls."""
    real, calls = planner.engine.plan, []

    def plan(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(planner.engine, "plan", plan)
    return calls


def test_a_locked_store_is_not_kept_and_the_next_page_run_plans_again(entry, monkeypatch):
    calls = _failing_once(monkeypatch, PriceStoreLocked("the price store p.sqlite is locked by another process (a refresh?)"))
    first = state.recommended(entry)
    assert (first.kind, first.message) == ("error", "the price store p.sqlite is locked by another process (a refresh?)")
    again = state.recommended(entry)
    assert again.kind == "ok" and len(calls) == 2
    assert state.recommended(entry).kind == "ok" and len(calls) == 2   # a plan made is kept


def test_another_failure_is_kept_for_the_same_inputs(entry, monkeypatch):
    calls = _failing_once(monkeypatch, PlannerError("a failure the same inputs meet again"))
    assert state.recommended(entry).message == "a failure the same inputs meet again"
    assert state.recommended(entry).message == "a failure the same inputs meet again" and len(calls) == 1
