"""A CBC crash (SolverFailed) while a grouped profile is bounded or planned again on more blocks is said to be a
crash — which solver failed, and that the other one may solve it — not a time limit: `_refined` caught every
SolverError and said "on 48 blocks the solver found no fleet within what was left of the time limit of 600 s; a
longer time limit … lets the planner add blocks", and a crashed bound solve left the bound unknown with nothing in
the warnings but the plan's grouping line, which names the time limit among the causes. The plan stands either
way, as it does where the merged-hours check crashes (tests/planner/test_serving_instances_under_cap.py, whose
trick this borrows: CBC is replaced by a process that exits 3 at once, as a killed or broken CBC does).

The cases: tests/planner/test_profile_slots.py's two workloads on 168 random weights (24 blocks bound the cost
error at 3.67 %, above the 1 % tolerance, so the planner plans again on 48) and
tests/planner/test_baseline_grouping_bound.py's worked example on 168 weights, planned on 4 blocks. The reference
of each plan is the same blocks solved by the same CBC without a crash: the plan a crash leaves must be it."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from planner import load_scenario
from planner.engine import baselines, plan, plan_summary, profile_slots, run
from planner.reports.tables import grouping_line
from planner.scenario import apply_overrides
from tests.planner.test_baseline_grouping_bound import scenario as four_blocks_case
from tests.planner.test_profile_slots import two_workloads

CBC_FAILED = "solver cbc failed (Pulp: Error while trying to execute"
OTHER_SOLVER = "; the other solver may solve it: plan(solver='highs'), fleetplan plan --solver highs"


@pytest.fixture
def crashing(monkeypatch) -> list:
    """While the list it gives is not empty, every CBC run exits 3 at once (CBC's subprocess.Popen replaced)."""
    real_popen, on = subprocess.Popen, []

    def cbc(args, **kwargs):
        return real_popen([sys.executable, "-c", "raise SystemExit(3)"] if on else args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", cbc)
    return on


def test_a_finer_grouping_whose_cbc_crashed_leaves_the_plan_on_its_blocks_said_as_a_crash(tmp_path, monkeypatch,
                                                                                        crashing):
    path = two_workloads(tmp_path, "random")
    on_24 = plan(path, profile_slots=24, solver="cbc", baselines=False, time_limit=600)
    real_solve, tried = run.solve_inputs, []

    def solve_inputs(inp, *args, **kwargs):   # CBC crashes from the solve on 48 blocks on
        tried.append(inp.grouping["slots"] if inp.grouping else 168)
        if tried[-1] == 48:
            crashing.append(True)
        return real_solve(inp, *args, **kwargs)

    monkeypatch.setattr(run, "solve_inputs", solve_inputs)
    p = plan(path, solver="cbc", baselines=False, time_limit=600)
    assert tried == [24, 48] and crashing
    assert (p.status, p.solver["name"]) == ("optimal", "cbc")
    assert p.total == pytest.approx(on_24.total, rel=1e-9)
    g = p.profile_grouping
    assert (g["slots"], g["refined_from"]) == (24, []) and g["error_bound_pct"] > 1.0
    (said,) = [w for w in p.warnings if w.startswith("profile_slots: the plan stays on 24 blocks")]
    assert f"not planned on more blocks: on 48 blocks the {CBC_FAILED}" in said
    assert said.endswith(OTHER_SOLVER)
    assert "time limit" not in said


def test_a_grouping_bound_whose_cbc_crashed_is_unknown_and_said_to_have_failed(tmp_path, monkeypatch, crashing):
    path = four_blocks_case(tmp_path)
    whole = plan(path, profile_slots=4, solver="cbc", baselines=False)
    assert whole.profile_grouping["lower_bound"] is not None   # known where CBC does not crash

    real_mean = profile_slots.mean_weight_inputs

    def mean_weight_inputs(inp):   # the bound's solve: CBC crashes from it on
        crashing.append(True)
        return real_mean(inp)

    monkeypatch.setattr(profile_slots, "mean_weight_inputs", mean_weight_inputs)
    p = plan(path, profile_slots=4, solver="cbc", baselines=False)
    assert crashing and p.status == "optimal"
    assert p.total == pytest.approx(whole.total, rel=1e-9)
    g = p.profile_grouping
    assert (g["slots"], g["weight_classes"], g["lower_bound"], g["error_bound"]) == (4, 168, None, None)
    (said,) = [w for w in p.warnings if w.startswith("profile_slots")]
    assert said.startswith("profile_slots: the bound on the cost error of the 168 distinct weekly weights grouped "
                           f"into 4 blocks is unknown, and not for a time limit: its {CBC_FAILED}")
    assert said.endswith(OTHER_SOLVER)
    # the CLI's line: the time limit is not the only cause it names
    assert grouping_line(p).endswith("(its solve gave none: the time limit, constraints of your own that the blocks at "
                                     "their mean weights cannot meet, or a solver that failed, which a warning then names)")
    crashing.clear()
    # a sweep's point says the same (plan_summary)
    summary = plan_summary(apply_overrides(load_scenario(path), {"profile_slots": 4}), solver="cbc")
    assert summary.warnings == p.warnings


def test_a_baselines_bound_whose_cbc_crashed_is_unknown_and_blames_no_time_limit(tmp_path, monkeypatch, crashing):
    # a guard: only "unknown" is said of such a bound (planner/reports/tables.py's baseline line), and the
    # baselines' totals stand
    path = four_blocks_case(tmp_path)
    whole = plan(path, profile_slots=4, solver="cbc")
    real_bound = baselines._mean_weight_bound

    def mean_weight_bound(*args, **kwargs):   # CBC crashes in the baselines' bound solves alone
        crashing.append(True)
        try:
            return real_bound(*args, **kwargs)
        finally:
            crashing.clear()

    monkeypatch.setattr(baselines, "_mean_weight_bound", mean_weight_bound)
    p = plan(path, profile_slots=4, solver="cbc")
    rows = {r["baseline"]: r for r in p.baselines.to_dict("records")}
    assert set(rows) == {"all_cloud", "all_onprem", "best_single"}
    for name, row in rows.items():
        assert row["total"] == pytest.approx(whole.baselines.set_index("baseline").loc[name, "total"], rel=1e-9)
        assert math.isnan(row["error_bound"]) and row["note"] == ""
    assert p.profile_grouping["lower_bound"] == pytest.approx(whole.profile_grouping["lower_bound"], rel=1e-9)
    assert not [w for w in p.warnings if "time limit" in w]
