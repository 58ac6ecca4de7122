"""The Compare page shows every note of the comparison once, as `fleetplan compare` prints them (`comparison.notes`):
a side whose solve stopped before it was proven optimal (`not_proven_notes`) as a warning, what could not be compared
(a file compared by its path alone) as a note, and the "not like for like" note once (test_compare_basis_note.py). It
showed the basis note only: two sides stopped at the dashboard's time limit were compared without a word.

Facts by hand: a solve stopped at a relative gap of 0.05870101452765761 is status `feasible`, gap 5.87 % (two
decimals); both sides are entry.yaml (the file, and the Plan page's unedited scenario), so both stopped so."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import planner.reports
from tests.app.test_dashboard_solver_gap import in_page_solves  # noqa: F401 — a fixture
from tests.planner.stopped_solve import stop_solves_at

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
STOPPED = ("{side} is feasible: the solver stopped at its limit before proving this fleet the cheapest (gap 5.87 %); "
           "its total may be above the optimum")
# a note of what could not be compared, as reports.compare words one (_unjudged_note), naming a workload's profile
UNREAD = ("b: the file of workloads.llm*finetune.profile could not be read: compared by its path alone; whether its "
          "content changed cannot be told")


def _compare_page() -> AppTest:
    """The Compare page of entry.yaml: A the file, B the Plan page's scenario as it is (unedited)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "entry.yaml"
    at.run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _as_read(markdown: str) -> str:
    """Markdown escaped with tables.plain as a viewer reads it: without its backslashes."""
    return markdown.replace("\\", "")


@pytest.mark.usefixtures("in_page_solves")
def test_sides_stopped_at_the_time_limit_are_each_said_not_proven_optimal_once(monkeypatch):
    stop_solves_at(monkeypatch)
    at = _compare_page()
    warnings = [w.value for w in at.warning]
    for side in ("A", "B"):
        assert warnings.count(f"Not proven optimal: {STOPPED.format(side=side)}.") == 1, warnings
    assert not [i.value for i in at.info if i.value.startswith("Note:")]


@pytest.mark.usefixtures("in_page_solves")
def test_a_file_compared_by_its_path_alone_is_a_note_once(monkeypatch):
    real = planner.reports.compare

    def with_unread_file(*args, **kwargs):
        comparison = real(*args, **kwargs)
        comparison.notes = [*comparison.notes, UNREAD]   # set whole: each read of notes is a copy
        return comparison

    monkeypatch.setattr(planner.reports, "compare", with_unread_file)
    at = _compare_page()
    notes = [_as_read(i.value) for i in at.info if "could not be read" in i.value]
    assert notes == ["Note: B: the file of workloads.llm*finetune.profile could not be read: compared by its path "
                     "alone; whether its content changed cannot be told."]
    assert not [w.value for w in at.warning if "not proven" in w.value.lower()]   # both sides proven optimal
