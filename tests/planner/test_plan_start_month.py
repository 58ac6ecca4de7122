"""`plan --start 2027-13` said "expected YYYY-MM, e.g. 2026-01", as if the form were wrong: it says that 13 is no month."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.planner.cli_run import run

WORKED = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"


@pytest.mark.parametrize(("start", "said"), [
    ("2027-13", "plan start '2027-13': 13 is no month (01-12); expected YYYY-MM, e.g. 2027-12"),
    ("2027-00", "plan start '2027-00': 00 is no month (01-12); expected YYYY-MM, e.g. 2027-01"),
])
def test_a_month_out_of_01_to_12_is_named(start, said, monkeypatch):
    monkeypatch.setattr("planner.engine.run.inputs_for", lambda *a, **k: pytest.fail("solved"))
    result = run("plan", WORKED, "--start", start, "--no-decisions")
    assert result.exit_code == 2 and f"error: {said}" in result.stderr, result.output
