"""Off a terminal (no progress bar), a plan whose own solve was slow says before its decision values that re-solves
follow, how long they may take and how to skip them (a new-user audit, 2026-12-06: `fleetplan plan … --format json`
solved in 7.4 s, then spent 215 s on 26 re-solves without a word)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from planner.cli import commands


@pytest.mark.parametrize("seconds, said", [(7.4, True), (2.0, True), (1.9, False), (None, False)])
def test_a_slow_plan_says_what_comes_next(capsys, seconds, said):
    commands.said_before_decisions(SimpleNamespace(solver={"seconds": seconds}), 600.0)
    err = capsys.readouterr().err
    if said:
        assert err.startswith(f"plan solved in {seconds:.1f} s; now what each decision is worth")
        assert "at most 600 s in all" in err and "--no-decisions" in err and "--decisions-time-limit" in err
    else:
        assert err == ""
