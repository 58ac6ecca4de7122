"""A count in a report agrees with its unit: a one-month plan is "over 1 month" in summary.md, not "over 1
months", and so are the assumption line's purchase interval and a profile grouped into one block (the CLI's
lines, summary.md's total paragraph) — planner.text.counted, as the scenario assumptions table words them.

The plan: the README's worked example over one month, buying every month, its training on business_hours
(two weekly weights) grouped into profile_slots 1. All of it is rented: 800 reference-GPU-hours at an A10G's
0.8 are 1,000 g5.xlarge hours at 1.006 USD, 1,006 USD."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from planner import plan
from planner.reports import plan_to_markdown
from planner.reports.tables import assumption_line, baseline_bounds_line, grouping_line

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def one_month(tmp_path_factory):
    folder = tmp_path_factory.mktemp("one-month")
    text = (ROOT / "examples" / "worked-example.yaml").read_text()
    text = (text.replace("source: offers-g5-us-east-1.csv", f"source: {ROOT / 'examples' / 'offers-g5-us-east-1.csv'}")
            .replace("horizon_months: 24", "horizon_months: 1\nprofile_slots: 1")
            .replace("  capex_budget: 2500", "  capex_budget: 2500\n  purchase_every_months: 1")
            .replace("profile: flat", "profile: business_hours"))
    (folder / "s.yaml").write_text(text)
    return plan(folder / "s.yaml")


def test_a_one_month_plan_is_over_1_month_in_summary_md(one_month):
    assert one_month.total == pytest.approx(1006.0)
    assert "**Total: 1,006 USD** (present value at 0%/year, undiscounted over 1 month; status optimal)." \
        in plan_to_markdown(one_month)


def test_cards_bought_every_month_are_bought_every_1_month(one_month):
    assert assumption_line(one_month).startswith("assumptions: cards bought every 1 month, retired at end of life")


def test_a_profile_in_one_block_is_one_load_duration_block(one_month):
    assert grouping_line(one_month).startswith(
        "profile grouped: 2 distinct hourly weights in 1 load-duration block (profile_slots; 168 = exact)")
    assert "in 1 load-duration block (profile_slots" in plan_to_markdown(one_month)
    assert baseline_bounds_line(one_month).startswith("baselines on the same 1 block: each exact optimum")


def test_a_grouping_refined_from_one_block_and_exact_on_one_weight_says_each_in_the_singular():
    # hand-written groupings (a default grouping starts at 24 blocks, so the engine never refines from one)
    refined = {"refined_from": [{"slots": 1, "error_bound_pct": 8.256}, {"slots": 2, "error_bound_pct": 2.734}],
               "tolerance_pct": 1.0}
    exact = SimpleNamespace(profile_grouping={"slots": 1, "weight_classes": 1, **refined}, status="optimal", currency="USD")
    assert grouping_line(exact) == ("profile planned exactly on its 1 distinct hourly weight: 1 block bounded the cost "
                                    "error at 8.26 % and 2 at 2.73 %, above the 1 % tolerance")
