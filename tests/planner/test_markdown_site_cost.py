"""The one-page summary says why its fleet rows fall short of the total when the site has a fixed cost:
`fixed_onprem_per_month` belongs to no one row (a review, 2026-12-04: 13,536 against 14,813, unexplained)."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import plan
from planner.reports.markdown import plan_to_markdown

STARTUP = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"


def test_the_fleet_rows_and_the_site_cost_add_up_to_the_total_and_the_summary_says_so():
    p = plan(STARTUP, baselines=False, overrides={"onprem.fixed_onprem_per_month": 150})
    site = float(p.costs.set_index("category").loc["fixed_onprem", "cost"])
    assert site > 0   # the plan holds cards, so the site is paid for
    assert float(p.fleet["cost"].sum()) + site == pytest.approx(p.total, abs=0.01)
    md = plan_to_markdown(p)
    assert (f"The rows add up to the total less the site's fixed cost, {site:,.0f} {p.currency} "
            "(`fixed_onprem_per_month`, shared by every on-prem unit).") in md


def test_without_a_site_cost_the_summary_says_nothing_of_it():
    p = plan(STARTUP, baselines=False)
    assert float(p.costs.set_index("category").loc["fixed_onprem", "cost"]) == 0
    assert "site's fixed cost" not in plan_to_markdown(p)
