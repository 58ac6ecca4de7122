"""The best single type's label says what its plan uses, and the speeds table covers the baselines' GPUs.

1. Where the cards owned serve all demand, every single type's plan keeps them and buys and rents nothing, so
   all tie at their cost: the label was the first in text order, "only cloud on-demand", a type that plan does
   not use. Of tied types, one whose plan uses its type is named; where none does, the label says so.
2. A baseline's total is shown beside the plan's, but the speeds table (and its warning on estimates) covered
   the plan's GPUs only: the all-cloud baseline's A10G, whose speed is an estimate, was nowhere.

The worked example (examples/worked-example.yaml), by hand. One RTX A5000 owned, 6 months old, 600 A5000-hours
a month (one card works 0.9 × 730 = 657), 24 months, undiscounted: maintenance 2,500 × 0.05 / 12 × 24 = 250,
idle energy 100 W × 730 h × 1.5 × 0.20 USD/kWh × 24 = 525.60, busy energy 0.3 kW × 1.5 × 0.20 × 600 × 24 = 1,296,
resale at month 25, 30 months old, 2,500 × 0.5 × (1 − 30/48) = −468.75: 1,602.85 USD. Selling it instead
(−1,093.75) and renting 600 / 0.8 = 750 g5.xlarge hours a month (× 1.006 × 24 = 18,108) costs far more, so
every fleet keeps it and needs nothing else. With min_units 2 the plan buys a second A5000 too: capex 2,500,
maintenance 250, idle 525.60, resale at 24 months −625 (its busy hours are the same 600 a month, shared):
+2,650.60 = 4,253.45 USD.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from planner import load_scenario, plan
from planner.engine import add_baselines, add_decisions, build_model, inputs_for, reduce, solve
from planner.engine import baselines as baselines_module
from planner.engine.run import plan_summary
from planner.engine.solve import Solution
from planner.reports.markdown import plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
OWNED_ONLY = "owned cards alone (nothing bought or rented)"
OWNED_TOTAL, WITH_SECOND_CARD = 1602.85, 4253.45
TWO_CARDS = 7029.20   # test_baselines_cheaper_note.py works it out: two A5000s bought, no budget
SITE = 100 * 24       # fixed_onprem_per_month 100, paid in the 24 months any card is held


def worked_doc() -> dict:
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    return doc


def owned_serves_all(**constraints):
    doc = worked_doc()
    doc["onprem"]["existing"] = {"rtx-a5000": {"count": 1, "age_months": 6}}
    doc["workloads"][0]["gpu_hours_per_month"] = 600
    if constraints:
        doc["constraints"] = constraints
    return load_scenario(doc)


def by_baseline(p) -> pd.DataFrame:
    return p.baselines.set_index("baseline")


# --- 1. the best single type's label ---


def test_owned_cards_that_serve_all_are_named_not_a_type_their_plan_does_not_use():
    p = plan(owned_serves_all())
    assert p.total == pytest.approx(OWNED_TOTAL, abs=0.01)
    b = by_baseline(p)
    assert b["total"].tolist() == pytest.approx([OWNED_TOTAL] * 3, abs=0.01)
    assert b.loc["best_single", "label"] == OWNED_ONLY
    # its plan: the owned card, nothing bought, nothing rented
    fleet = p.baseline_plans["best_single"].fleet
    assert fleet[["sku", "kind", "existing_units", "new_units"]].values.tolist() == [["rtx-a5000", "card", 1, 0]]
    # the Markdown summary shows the same label
    assert f"| best_single | {OWNED_ONLY} |" in plan_to_markdown(p)


def test_the_table_only_path_labels_it_the_same():
    # the CLI's path: the table without Plans (add_baselines(plans=False)), the fleets read from the rows
    p = plan(owned_serves_all(), baselines=False)
    add_baselines(p, plans=False)
    assert by_baseline(p).loc["best_single", "label"] == OWNED_ONLY


def test_an_owned_only_best_single_cheaper_than_the_plan_is_explained_as_buying_no_card():
    # min_units 2 makes the plan buy a second A5000; the baselines drop it. Nothing bought: the capex budget
    # cannot explain the lower total, only the minimum can (as for all cloud)
    p = plan(owned_serves_all(min_units={"rtx-a5000": 2}))
    assert p.total == pytest.approx(WITH_SECOND_CARD, abs=0.01)
    b = by_baseline(p)
    assert b.loc["best_single", "label"] == OWNED_ONLY
    assert b.loc["best_single", "total"] == pytest.approx(OWNED_TOTAL, abs=0.01)
    assert b.loc["best_single", "note"] == "costs less than the plan: it drops min_units.rtx-a5000 = 2, which the plan keeps"
    # once the cap costs are known, the minimum alone costs the plan 4,253.45 − 1,602.85 = 2,650.60
    add_decisions(p)
    assert by_baseline(p).loc["best_single", "note"] == ("costs less than the plan: it drops constraints.min_units."
                                                         "rtx-a5000 = 2, which alone costs the plan 2,651 USD")


def _fake_rows(monkeypatch, totals: dict, fleets: dict):
    """baseline_rows of the owned-card scenario's inputs with each model's solve replaced: `totals` and `fleets`
    (readback's columns) by single type. It has one card and one cloud kind, so all on-prem is the model of
    only rtx-a5000 and all cloud that of only cloud on-demand (solved once, under the first one's name)."""
    def fake_solve(base, variant, solver, time_limit):
        label = "only cloud on-demand" if variant.keep_kinds else "only rtx-a5000"
        return (label, label, Solution("optimal", totals[label], solver, 0.0, 0.0))

    def fake_fleet(inp, model):
        rows = fleets.get(model, [])
        return 0.0, pd.DataFrame(rows, columns=["kind", "sku", "gpu", "new_units"])

    monkeypatch.setattr(baselines_module, "_solve_variant", fake_solve)
    monkeypatch.setattr(baselines_module, "read_fleet", fake_fleet, raising=False)   # (code that reads no fleet: none)
    rows, _ = baselines_module.baseline_rows(inputs_for(owned_serves_all()), "highs", None, plans=False)
    return {r["baseline"]: r for r in rows}


OWNED_CARD = [("card", "rtx-a5000", "RTX-A5000", 0)]
RENTS = OWNED_CARD + [("on_demand", "g5.xlarge", "A10G", math.nan)]


def test_of_tied_types_the_one_whose_plan_uses_its_type_is_named(monkeypatch):
    # only rtx-a5000 buys nothing at 100.000; only cloud on-demand rents at 100.004, within half a cent: a tie,
    # and the type used wins, though the other costs a little less
    rows = _fake_rows(monkeypatch, {"only rtx-a5000": 100.0, "only cloud on-demand": 100.004},
                      {"only rtx-a5000": OWNED_CARD, "only cloud on-demand": RENTS})
    assert (rows["best_single"]["label"], rows["best_single"]["total"]) == ("only cloud on-demand", 100.004)


def test_a_cheaper_type_beyond_round_off_wins_and_is_named_for_what_it_uses(monkeypatch):
    # 100.01 is no tie with 100.00: the cheapest plan, which buys and rents nothing, is the best single type
    rows = _fake_rows(monkeypatch, {"only rtx-a5000": 100.0, "only cloud on-demand": 100.01},
                      {"only rtx-a5000": OWNED_CARD, "only cloud on-demand": RENTS})
    assert (rows["best_single"]["label"], rows["best_single"]["total"]) == (OWNED_ONLY, 100.0)
    # a card bought is its type used: the label stays the card's
    bought = [("card", "rtx-a5000", "RTX-A5000", 1)]
    rows = _fake_rows(monkeypatch, {"only rtx-a5000": 100.0, "only cloud on-demand": 100.0},
                      {"only rtx-a5000": bought, "only cloud on-demand": OWNED_CARD})
    assert rows["best_single"]["label"] == "only rtx-a5000"


# --- 2. the speeds of the baselines' GPUs ---


def a10g_estimated(site: bool = False):
    """The worked example without its budget, the A5000's speed given (1.0, the user's), the A10G's left to the
    speed model (an estimate): the plan is two A5000s, all cloud rents g5.xlarge (A10G)."""
    doc = worked_doc()
    del doc["onprem"]["capex_budget"]
    doc["workloads"][0]["throughput"] = {"RTX-A5000": 1.0}
    if site:   # the plan's run without cards is the all-cloud baseline (engine.baselines.all_cloud_is_plan_run)
        doc["onprem"]["fixed_onprem_per_month"] = 100
    return load_scenario(doc)


def speeds_by_gpu(speeds) -> dict:
    used_by = speeds["used_by"] if "used_by" in speeds else [None] * len(speeds)   # (a table without it: None)
    return {gpu: (source, users) for gpu, source, users in zip(speeds["gpu"], speeds["source"], used_by)}


def baseline_warnings(warnings) -> list[str]:
    return [w for w in warnings if "A10G" in w]


def check_a10g(p, site: bool = False) -> None:
    """The speeds table and warnings of a10g_estimated's plan with its baselines, worked out by hand."""
    assert p.total == pytest.approx(TWO_CARDS + (SITE if site else 0), abs=0.01)
    assert p.fleet["gpu"].tolist() == ["RTX-A5000"]
    assert speeds_by_gpu(p.speeds) == {"RTX-A5000": ("user", "plan, all_onprem, best_single"),
                                       "A10G": ("estimated", "all_cloud")}
    # the all-cloud total rests on that speed: 800 A5000-hours a month / s A10G-hours × 1.006 USD × 24 months
    speed = float(p.speeds.loc[p.speeds["gpu"] == "A10G", "relative_speed"].iloc[0])
    assert by_baseline(p).loc["all_cloud", "total"] == pytest.approx(800 / speed * 1.006 * 24, rel=1e-6)
    [warning] = baseline_warnings(p.warnings)
    assert warning.startswith("training: the baselines' totals rest on speeds that are estimates")
    assert "A10G (all_cloud)" in warning
    assert not any("the speeds of A10G" in w for w in p.warnings)   # the plan's own warning names its GPUs only


def test_a_baseline_s_gpu_with_an_estimated_speed_is_in_the_speeds_table_and_warned_of():
    check_a10g(plan(a10g_estimated()))


def test_without_baselines_the_speeds_are_the_plan_s_alone():
    p = plan(a10g_estimated(), baselines=False)
    assert speeds_by_gpu(p.speeds) == {"RTX-A5000": ("user", "plan")}
    assert baseline_warnings(p.warnings) == []


@pytest.mark.parametrize("site", [False, True])
@pytest.mark.parametrize("plans", [True, False])
def test_add_baselines_sets_them_alike_on_every_path(site, plans):
    # with the site cost and no Plans, the all-cloud row (and only cloud on-demand, the same model) comes from
    # the plan's run without cards: its GPUs are that run's
    p = plan(a10g_estimated(site), baselines=False)
    add_baselines(p, plans=plans)
    check_a10g(p, site)
    add_baselines(p, plans=plans)   # again: the same table, the warning once
    check_a10g(p, site)


def test_a_sweep_point_warns_of_them_too():
    summary = plan_summary(a10g_estimated(site=True), baselines=True)
    [warning] = baseline_warnings(summary.warnings)
    assert "A10G (all_cloud)" in warning


def test_the_forked_child_s_rows_carry_the_fleets_the_plan_s_run_fills_the_pending_one():
    # industrial.yaml rents two cloud kinds: the child leaves all cloud pending, the plan's run settles it
    # (test_all_cloud_from_plan.py); the GPUs each baseline uses are those of the baselines solved on their own
    from planner.engine.run import all_cloud_run

    s = load_scenario(ROOT / "scenarios" / "industrial.yaml")
    base = inputs_for(s)
    _, pending = baselines_module._child_payload(base, "highs", None, defer_all_cloud=True)
    m = build_model(reduce(base))
    solve(m, "highs")
    settled = baselines_module.settle_all_cloud([dict(r) for r in pending], all_cloud_run(base, m), base, "highs", None)
    own, _ = baselines_module.baseline_rows(base, "highs", None, plans=False)
    assert baselines_module.baseline_gpus(settled) == baselines_module.baseline_gpus(own)
    assert baselines_module.baseline_gpus(settled)["all_cloud"]   # a fleet that rents something


def test_the_command_s_json_lists_them(tmp_path):
    # a fresh process: its forked child (two free cores) or the process itself solves the table without Plans
    scenario = tmp_path / "a10g.yaml"
    doc = worked_doc()
    del doc["onprem"]["capex_budget"]
    doc["workloads"][0]["throughput"] = {"RTX-A5000": 1.0}
    scenario.write_text(yaml.safe_dump(doc), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "planner.cli", "plan", str(scenario), "--format", "json",
                           "--no-decisions"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    speeds = pd.DataFrame(json.loads(done.stdout)["speeds"])
    assert speeds_by_gpu(speeds) == {"RTX-A5000": ("user", "plan, all_onprem, best_single"),
                                     "A10G": ("estimated", "all_cloud")}
    assert "A10G (all_cloud)" in done.stderr
    assert np.isfinite(json.loads(done.stdout)["baselines"][0]["total"])


def test_the_dashboard_sets_them_as_add_baselines_does():
    # the dashboard solves the baselines with their Plans in a job of its own and puts them on a copy of the plan
    from fleetplan_dashboard import state
    from fleetplan_dashboard.jobs import Outcome, baselines_job

    s = a10g_estimated()
    recommended = plan(s, baselines=False)
    told = state.with_baselines(Outcome("ok", plan=recommended), baselines_job(s, recommended.total, "highs"))
    check_a10g(told.plan)
    assert speeds_by_gpu(recommended.speeds) == {"RTX-A5000": ("user", "plan")}   # the cached plan stays as it was
