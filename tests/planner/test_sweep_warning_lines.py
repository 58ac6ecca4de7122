"""`fleetplan sweep` says one warning worded differently at different points in one line (an audit, 2026-12-06: a
4-point sweep printed 10 warning lines, among them `stale prices: 3 of 4 … (3 of 4 points)` and `stale prices: 4 of
5 … (1 of 4 points)` one after the other). The shares are counted by hand from the inputs."""

from __future__ import annotations

from planner.cli.commands import sweep_warning_lines

STALE_3 = "stale prices: 3 of 4 prices used are older than 180 days on 2026-12-06 (oldest 2026-03-20, 261 days)"
STALE_4 = "stale prices: 4 of 5 prices used are older than 180 days on 2026-12-06 (oldest 2026-03-20, 261 days)"
UNDATED = "undated prices: 1 of 4 prices used have no date: aws g5.xlarge spot (eu-west-1)"


def test_two_wordings_of_one_warning_are_one_line_with_each_share():
    lines = sweep_warning_lines([{"warning": STALE_3, "points": 3}, {"warning": UNDATED, "points": 4},
                                 {"warning": STALE_4, "points": 1}], planned=4, points=4)
    assert lines == [
        "stale prices: 3 of 4 prices used are older than 180 days on 2026-12-06 (oldest 2026-03-20, 261 days) (3 of 4 "
        "points); 4 of 5 prices used are older than 180 days on 2026-12-06 (oldest 2026-03-20, 261 days) (1 of 4 points)",
        f"{UNDATED} (every point)"]


def test_shares_count_the_planned_points_when_some_have_no_plan():
    lines = sweep_warning_lines([{"warning": STALE_3, "points": 2}, {"warning": STALE_4, "points": 1}],
                                planned=3, points=4)
    assert lines == [f"stale prices: {STALE_3.split(': ', 1)[1]} (2 of the 3 planned points); "
                     f"{STALE_4.split(': ', 1)[1]} (1 of the 3 planned points)"]


def test_a_warning_without_a_subject_stays_as_it_is():
    lines = sweep_warning_lines([{"warning": "no subject here", "points": 2}], planned=2, points=2)
    assert lines == ["no subject here (every point)"]
