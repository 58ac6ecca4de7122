"""A Comparison's repr in a line, as a Plan's (an audit, 2026-12-07): it was the dataclass's dump with every table
inlined, 4,700 characters for entry.yaml against mid-research.yaml. Oracles: each plan's own total and fleet; entry.yaml
and mid-research.yaml share no fleet row (they rent T4 spot in different regions, test_library_messages), so the
comparison's fleet has a row for each row of either; entry.yaml sums 24 months undiscounted, mid-research.yaml 36 months
at 5%/year: not like for like."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import compare, plan
from planner.engine.result import Plan

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def entry() -> Plan:
    return plan(ROOT / "scenarios" / "entry.yaml", baselines=False)


@pytest.fixture(scope="module")
def mid() -> Plan:
    return plan(ROOT / "scenarios" / "mid-research.yaml", baselines=False)


def test_a_comparisons_repr_is_a_line_of_both_totals_the_delta_and_the_tables(entry, mid):
    shown = repr(compare(entry, mid))
    assert len(shown) < 400 and "\n" not in shown, shown
    delta = mid.total - entry.total
    assert shown.startswith(f"Comparison(a={entry.scenario_name!r} {entry.total:,.2f} USD, "
                            f"b={mid.scenario_name!r} {mid.total:,.2f} USD, "
                            f"delta {delta:+,.2f} USD ({delta / abs(entry.total) * 100:+.1f}%), "
                            "present values, not like for like; tables (rows): "), shown
    assert f"fleet {len(entry.fleet) + len(mid.fleet)}," in shown
    assert shown.endswith("; 1 note)"), shown   # the note that the bases differ


def test_two_plans_on_one_basis_say_no_more_than_present_values(entry):
    shown = repr(compare(entry, entry))
    assert f"{entry.total:,.2f} USD, delta +0.00 USD (+0.0%), present values; tables (rows): " in shown
    assert "not like for like" not in shown and shown.endswith("; 0 notes)")
