"""The all-cloud baseline taken from the plan's own solve: HiGHS solves a plan with a fixed site cost once
without any card and once with (engine.solve), and where the run without cards is the all-cloud
baseline's model its proven optimum fills the all-cloud row instead of another solve (engine.baselines).
Checked on the README's worked example with a site cost, whose figures are worked out by hand, and
against the all-cloud baseline solved on its own model (a table with Plans never takes it from the plan)."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from planner import load_scenario
from planner.engine import add_baselines, build_model, inputs_for, plan, reduce, solve
from planner.engine import baselines as baselines_module
from planner.engine.run import plan_summary
from planner.scenario import apply_overrides

ROOT = Path(__file__).resolve().parents[2]
# test_plan.py works these out: the plan (one RTX A5000 + g5.xlarge on-demand) 8,385.46; all cloud
# 1,000 h × 1.006 × 24 = 24,144; all on-prem and the best single type: two A5000s, 7,029.2. A site cost of
# 100 a month is paid in the 24 months any card is held: + 2,400 to every fleet with a card.
WITH_CARD, ALL_CLOUD, TWO_CARDS, SITE = 8385.46, 24144.0, 7029.2, 100 * 24


def worked(**overrides):
    return apply_overrides(load_scenario(ROOT / "examples" / "worked-example.yaml"),
                           {"onprem.fixed_onprem_per_month": 100, **overrides})


@pytest.fixture
def solved(monkeypatch):
    """The labels of the models solved (the plan's is "recommended", a baseline's its name)."""
    labels, real = [], baselines_module.solve
    monkeypatch.setattr(baselines_module, "solve", lambda m, *a, **k: labels.append(m.inputs.label) or real(m, *a, **k))
    return labels


def rows(table):
    return table.set_index("baseline")[["label", "status", "total"]].to_dict("index")


def assert_same_rows(got: dict, expected: dict) -> None:
    """The same baselines, labels and statuses, and totals within 1e-9 (an infeasible one is NaN in both)."""
    assert got.keys() == expected.keys()
    for baseline, row in expected.items():
        assert (got[baseline]["label"], got[baseline]["status"]) == (row["label"], row["status"])
        assert got[baseline]["total"] == pytest.approx(row["total"], rel=1e-9, nan_ok=True)


def test_the_split_solve_keeps_both_runs_by_hand():
    m = build_model(reduce(inputs_for(worked())))
    solve(m, "highs")
    (no_cards, none_total), (cards, cards_total) = m.fixed_cost_runs[0.0], m.fixed_cost_runs[1.0]
    assert no_cards == cards == "optimal"
    assert none_total == pytest.approx(ALL_CLOUD, rel=1e-9)
    assert cards_total == pytest.approx(WITH_CARD + SITE, rel=1e-9)


def test_the_all_cloud_row_comes_from_the_plan_s_run_by_hand(solved):
    p = plan(worked(), baselines=False)
    add_baselines(p, plans=False)
    # the worked example rents one cloud kind: "only cloud on-demand" is the all-cloud model too, and
    # "only rtx-a5000" the all-on-prem one; of the baselines only all on-prem is solved
    assert solved == ["recommended", "all on-prem"]
    b = rows(p.baselines)
    assert b["all_cloud"] == {"label": "all cloud (no new hardware)", "status": "optimal",
                              "total": pytest.approx(ALL_CLOUD)}
    assert b["all_onprem"]["total"] == pytest.approx(TWO_CARDS + SITE)
    assert b["best_single"] == {"label": "only rtx-a5000", "status": "optimal", "total": pytest.approx(TWO_CARDS + SITE)}
    # the table with Plans solves every model: the same rows
    solved.clear()
    full = plan(worked())
    assert "all cloud" in solved
    assert_same_rows(rows(full.baselines), b)
    assert full.baseline_plans["all_cloud"].total == pytest.approx(ALL_CLOUD)


def test_a_sweep_s_baselines_take_the_all_cloud_row_from_the_plan_s_run(solved):
    summary = plan_summary(worked(), baselines=True)
    assert solved == ["recommended", "all on-prem"]
    assert rows(summary.baselines)["all_cloud"]["total"] == pytest.approx(ALL_CLOUD)
    assert rows(summary.baselines)["best_single"]["total"] == pytest.approx(TWO_CARDS + SITE)


@pytest.mark.parametrize("overrides, all_cloud", [
    # the cloud's share capped at 60 %: the plan's run without cards cannot meet it, the baseline drops it
    ({"constraints.max_cloud_share": 0.6}, ALL_CLOUD),
    # one A5000 to be kept at the least: the run without cards has none, the baseline drops the minimum
    ({"constraints.min_units": {"rtx-a5000": 1}}, ALL_CLOUD),
    # an owned A5000: the baseline keeps it (no new hardware), the run without cards sells it
    ({"onprem.existing": {"rtx-a5000": 1}}, None),
])
def test_where_the_run_without_cards_is_another_model_the_all_cloud_baseline_is_solved(solved, overrides, all_cloud):
    s = worked(**overrides)
    assert not baselines_module.all_cloud_is_plan_run(inputs_for(s))
    p = plan(s, baselines=False)
    add_baselines(p, plans=False)
    assert "all cloud" in solved
    solved.clear()
    assert_same_rows(rows(p.baselines), rows(plan(s).baselines))   # the table with Plans: every model on its own
    if all_cloud is not None:
        assert rows(p.baselines)["all_cloud"]["total"] == pytest.approx(all_cloud)


def test_caps_a_fleet_without_cards_meets_leave_the_run_as_the_baseline():
    # the worked example's capex budget of 2,500 (dropped by baselines) holds for any fleet without cards,
    # as a power cap (kept) and a card maximum do; a caller's own constraints may bind anything
    s = worked(**{"onprem.power_cap_kw": 1.0, "onprem.capex_budget_per_year": 2500,
                  "constraints.max_units": {"rtx-a5000": 3}})
    base = inputs_for(s)
    assert baselines_module.all_cloud_is_plan_run(base)
    assert not baselines_module.all_cloud_is_plan_run(base, extra_constraints=lambda m: None)
    p = plan(s, baselines=False)
    add_baselines(p, plans=False)
    assert_same_rows(rows(p.baselines), rows(plan(s).baselines))


@pytest.mark.parametrize("horizon", [12, 36])
def test_the_forked_child_leaves_the_all_cloud_row_to_the_plan_and_the_table_is_the_same(horizon, solved):
    # industrial.yaml rents two cloud kinds (on-demand and spot), so all cloud is a model of its own: the
    # child (its work run here, without the fork) leaves its row pending, and the plan's run fills it
    s = apply_overrides(load_scenario(ROOT / "scenarios" / "industrial.yaml"), {"horizon_months": horizon})
    base = inputs_for(s)
    assert baselines_module.all_cloud_is_plan_run(base) and baselines_module.plan_splits(base, "highs")
    kind, child_rows = baselines_module._child_payload(base, "highs", None, defer_all_cloud=True)
    assert kind == "rows"
    assert [r["status"] for r in child_rows if r["baseline"] == "all_cloud"] == [baselines_module.PENDING]
    assert "all cloud" not in solved
    own = rows(plan(s).baselines)   # every baseline solved on its own model
    p = plan(s, baselines=False)
    # no run from the plan (the child's guess was wrong): the row is solved here
    by_itself = baselines_module.settle_all_cloud([dict(r) for r in child_rows], None, base, "highs", None)
    assert_same_rows(rows(baselines_module.baseline_table(by_itself, p.total)), own)
    m = build_model(reduce(base))
    solve(m, "highs")
    settled = baselines_module.settle_all_cloud([dict(r) for r in child_rows], m.fixed_cost_runs[0.0], base, "highs", None)
    assert_same_rows(rows(baselines_module.baseline_table(settled, p.total)), own)


def test_a_run_that_stopped_early_does_not_settle_the_all_cloud_row():
    # a time limit can end the run without cards with a fleet but no proof: the baseline is solved instead
    s = apply_overrides(load_scenario(ROOT / "scenarios" / "industrial.yaml"), {"horizon_months": 12})
    base = inputs_for(s)
    _, pending = baselines_module._child_payload(base, "highs", None, defer_all_cloud=True)
    settled = baselines_module.settle_all_cloud([dict(r) for r in pending], ("feasible", 1.0), base, "highs", None)
    row = next(r for r in settled if r["baseline"] == "all_cloud")
    assert row["status"] == "optimal" and row["total"] != 1.0 and not math.isnan(row["total"])
    assert row["total"] == pytest.approx(rows(plan(s).baselines)["all_cloud"]["total"], rel=1e-9)


def test_a_table_with_plans_never_takes_the_all_cloud_row_from_the_plan():
    base = inputs_for(worked())
    with pytest.raises(ValueError, match="plans=False"):
        baselines_module.baseline_rows(base, "highs", None, plans=True, all_cloud=("optimal", ALL_CLOUD))


@pytest.mark.skipif(baselines_module.usable_cores() < 2, reason="one usable core: no child is started")
def test_the_installed_command_s_baselines_with_the_child_are_each_model_s_own():
    # a fresh `fleetplan` process: its forked child solves the baselines but all cloud, which the plan's
    # run settles (industrial.yaml: two cloud kinds, a fixed site cost, no owned cards)
    done = subprocess.run([sys.executable, "-m", "planner.cli", "plan", "scenarios/industrial.yaml", "--format", "json",
                           "--no-decisions"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    got = {r["baseline"]: {"label": r["label"], "status": r["status"],
                           "total": math.nan if r["total"] is None else r["total"]}
           for r in json.loads(done.stdout)["baselines"]}
    assert_same_rows(got, rows(plan(ROOT / "scenarios" / "industrial.yaml").baselines))
