"""The dashboard's baselines of a grouped profile warn of a loose bound on their cost error as plan() does
(engine.baselines.with_loose_bound_warnings): state.with_baselines added the baselines' table with its
error_bound columns but not the warning, so a budget holder read savings against all cloud as exact while its
exact optimum could lie 10 % below its total. The case is tests/planner/test_baseline_grouping_bound.py's (4 blocks:
all cloud and the best single type above the 1 % tolerance, all on-prem below it)."""

from __future__ import annotations

from fleetplan_dashboard import jobs, state
from planner import load_scenario, plan
from planner.engine.baselines import LOOSE_BASELINES
from planner.engine.profile_slots import BOUND_TOLERANCE_PCT
from tests.planner.test_baseline_grouping_bound import scenario


def test_the_dashboards_baselines_of_a_grouped_profile_warn_of_a_loose_bound_once(tmp_path):
    s = load_scenario(scenario(tmp_path)).model_copy(update={"profile_slots": 4})
    planned = plan(s, baselines=False)
    outcome = state.Outcome("ok", plan=planned)
    made = jobs.baselines_job(s, planned.total, "highs", planned.status)
    shown = state.with_baselines(state.with_baselines(outcome, made), made).plan   # twice: said once
    table = shown.baselines.set_index("baseline")
    loose = sorted(table.index[table["error_bound_pct"] > BOUND_TOLERANCE_PCT])
    assert loose == ["all_cloud", "best_single"]
    (said,) = [w for w in shown.warnings if w.startswith(LOOSE_BASELINES)]
    row = table.loc["all_cloud"]
    assert f"all cloud (no new hardware): {row['error_bound']:,.0f} USD ({row['error_bound_pct']:.2f} % of its total)" in said
    assert "168 distinct weekly weights in 4 blocks" in said
    assert plan(s).warnings.count(said) == 1   # the same words as plan()'s
