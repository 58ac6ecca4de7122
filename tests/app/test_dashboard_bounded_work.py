"""What one plan of the dashboard may cost its server (a review: a 900-byte upload solved for 135 s and a
10 KB one took 2 GB, with no limit): each solve stops after jobs.TIME_LIMIT_S, and a model of more than
jobs.MAX_DISPATCH_VARIABLES dispatch variables is refused before it is built, with a message that says how
to plan it (the CLI)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from fleetplan_dashboard import jobs
from planner import PlannerError, load_scenario
from planner.engine import plan
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


def test_the_size_is_units_times_workloads_times_periods_and_is_checked_before_building():
    s = load_scenario(WORKED)
    # By hand: 2 units can serve the one workload (the RTX A5000 card, the g5.xlarge offer); 24 months with
    # purchases every 3 (the default) are 8 fleet epochs, and a flat profile without growth or discounting
    # is one level in each: 8 periods, 16 dispatch variables
    assert plan(s, baselines=False, max_dispatch_variables=16).total > 0
    with pytest.raises(PlannerError) as info:
        plan(s, baselines=False, max_dispatch_variables=15)
    assert "16 dispatch variables (2 unit–workload pairs × 8 periods; at most 15)" in str(info.value)
    # what shrinks it; the dashboard adds the CLI as the way out (below)
    assert str(info.value).endswith("allow fewer regions or providers (prices.regions, prices.providers), merge "
                                    "workloads or shorten horizon_months")


def test_an_upload_too_large_for_the_dashboard_is_refused_at_once():
    # 50 batch workloads of three profiles, every region of both clouds, six cards bought month by month
    # over 120 months (the review's 10 KB file: 685 unit–workload pairs × 480 periods)
    profiles = ["flat", "business_hours", "deadline_peaks"]
    lines = ["name: big", "fx: {CNY: 0.14}", "horizon_months: 120", "discount_rate: 0.07",
             "prices: {providers: [aws, azure], purchase_options: [on_demand, spot]}",
             "onprem: {purchase_every_months: 1, cards: [rtx-3060-12gb, rtx-4060-ti-16gb, rtx-3090, rtx-4090, "
             "rtx-5090, a100-80gb-pcie]}", "workloads:"]
    lines += [f"  - {{name: w{i}, gpu_hours_per_month: {500 + 37 * i}, reference_gpu: A100-80GB-PCIE, "
              f"min_gpu_memory_gb: {8 + (i % 5) * 8}, growth_per_month: {0.01 + 0.001 * i}, "
              f"profile: {profiles[i % 3]}, interruptible: {'true' if i % 2 else 'false'}}}" for i in range(50)]
    s = load_scenario_text("\n".join(lines) + "\n")
    start = time.perf_counter()
    outcome = jobs.recommended_job(s, "highs")
    assert outcome.kind == "error" and "too large to plan here" in outcome.message, outcome.message
    assert f"at most {jobs.MAX_DISPATCH_VARIABLES:,}" in outcome.message
    assert outcome.message.endswith("plan it with the CLI, `fleetplan plan FILE` (which allows more with --max-variables)")
    assert time.perf_counter() - start < 60   # not a timing claim: a model of this size took minutes and 2 GB


def test_a_solve_stopped_by_the_dashboards_time_limit_says_how_to_plan_it(monkeypatch):
    # a limit of 1 µs is spent before HiGHS starts: the solve stops without a fleet
    monkeypatch.setattr(jobs, "TIME_LIMIT_S", 1e-6)
    outcome = jobs.recommended_job(load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml"), "highs")
    assert outcome.kind == "error"
    assert "the dashboard stops the plan's solves after 1e-06 s in all — plan it with the CLI" in outcome.message, outcome.message


def test_the_packaged_scenarios_fit_the_dashboards_bounds():
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        outcome = jobs.recommended_job(load_scenario(path), "highs")
        assert outcome.kind == "ok", (path.name, outcome.message)
