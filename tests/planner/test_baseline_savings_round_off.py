"""A baseline that costs what the plan costs, up to the two solves' round-off, saves exactly 0: `fleetplan plan
scenarios/entry.yaml --format json` gave the all-cloud baseline "savings": 1.1368683772161603e-13 and
"savings_pct": 3.4e-14, and a sweep's savings_vs_all_cloud the same (an audit, 2026-12-06)."""

from __future__ import annotations

import math
from pathlib import Path

from planner import load_scenario, plan
from planner.engine.baselines import baseline_table
from planner.reports.sweep import sweep

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"

PLAN_TOTAL = 334.13239633995875   # scenarios/entry.yaml's total with the packaged snapshot
ROWS = [{"baseline": "all_cloud", "label": "", "status": "optimal", "total": PLAN_TOTAL + 1.1368683772161603e-13,
         "note": ""},
        {"baseline": "near", "label": "", "status": "optimal", "total": PLAN_TOTAL - 0.004, "note": ""},
        {"baseline": "cent", "label": "", "status": "optimal", "total": PLAN_TOTAL + 0.01, "note": ""},
        {"baseline": "none", "label": "", "status": "infeasible", "total": math.nan, "note": "no fleet"}]


def test_savings_within_half_a_cent_are_exactly_0_and_a_cent_is_kept():
    table = baseline_table(ROWS, PLAN_TOTAL)
    savings, pct = table["savings"].tolist(), table["savings_pct"].tolist()
    assert savings[:2] == [0.0, 0.0] and pct[:2] == [0.0, 0.0]
    assert math.isclose(savings[2], 0.01, abs_tol=1e-12)   # a cent is a saving: kept as it is
    assert math.isnan(savings[3]) and math.isnan(pct[3])   # no total: no saving, not 0


def test_the_entry_plans_all_cloud_baseline_saves_exactly_0():
    # entry.yaml's plan rents cloud alone, so all cloud is the plan itself, solved twice
    baselines = plan(load_scenario(ENTRY)).baselines.set_index("baseline")
    assert baselines.loc["all_cloud", "savings"] == 0.0
    assert baselines.loc["all_cloud", "savings_pct"] == 0.0


def test_a_sweeps_savings_vs_all_cloud_is_exactly_0_for_the_entry_scenario():
    rows = sweep(load_scenario(ENTRY), {"onprem.electricity_per_kwh": [0.1]}, baselines=True, processes=1)
    assert rows["savings_vs_all_cloud"].tolist() == [0.0]
