"""`time_limit` (`fleetplan plan --time-limit`, the dashboard's 60 s) is a budget for the solves of the recommended
plan together (engine.solve.TimeBudget): its solve, a grouped profile's bounds and refinements, the LPs that settle
which held reservations work, the merged-hours check and the explanation of a plan with no fleet, each given what
the solves before it left. Each had the whole limit: a refined grouping (three plans, two bounds) took up to five
times it (an audit: 100 s of the dashboard's 60), an infeasible plan twice (its solve, then the explanation's).

Time passes on a clock of the test's own, and only in the recorded solves, by the seconds each is scripted to
take: the limit each solve is given is then known by hand. A solve scripted to take longer than its limit stops
at it without a fleet (`not_solved`), as HiGHS does before its first fleet."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from planner import load_scenario, plan
from planner.engine import baselines, explain, plan_summary
from planner.engine.merged_hours import may_be_dearer
from planner.engine.model import build_model
from planner.engine.solve import TimeBudget, solve
from planner.errors import InfeasibleError
from tests.planner.test_explain_least_fleet import (
    OFFERS,
    explained_after_a_solve,  # noqa: F401 (a fixture)
)
from tests.planner.test_explain_least_fleet import SCENARIO as INFEASIBLE
from tests.planner.test_profile_slots import two_workloads
from tests.planner.test_reservation_dispatch import _scenario as reservations
from tests.planner.test_serving_instances_under_cap import _two_types

ON_24, BOUND_24, ON_48, BOUND_48, EXACT = "plan 24", "bound 24", "plan 48", "bound 48", "plan exact"


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def _solves(monkeypatch, seconds: list[float]) -> list[tuple[str, float | None]]:
    """Each solve of the plan (engine.baselines' solve: the plan's own, its bounds, the merged-hours check) and of
    its explanation (engine.explain's), recorded as (what, its time limit) as it starts: "plan 24", "bound 24",
    "plan exact", "merged-hours check", "explanation". The k-th takes seconds[k] on the budget's clock (those
    beyond the list none), or its whole limit when that is less, and then stops without a fleet."""
    clock, calls = _Clock(), []
    monkeypatch.setattr(TimeBudget, "clock", staticmethod(clock.monotonic))

    def recorder(module):
        def recorded(m, solver="highs", time_limit=None, start=None):
            calls.append((_what(m, module), time_limit))
            solution = solve(m, solver, time_limit)
            took = seconds[len(calls) - 1] if len(calls) <= len(seconds) else 0.0
            if time_limit is not None and took > time_limit:
                clock.now += time_limit
                return replace(solution, status="not_solved", objective=math.nan, gap=None)
            clock.now += took
            return solution
        monkeypatch.setattr(module, "solve", recorded)

    recorder(baselines)
    recorder(explain)
    return calls


def _what(m, module) -> str:
    if module is explain:
        return "explanation"
    inp = m.inputs
    if inp.label.endswith("(without max_cloud_share)"):
        return "merged-hours check"
    on = f"{inp.grouping['slots']}" if inp.grouping else "exact"
    return f"{'bound' if inp.label.endswith('(profile blocks at mean weights)') else 'plan'} {on}"


def _stays_on(p, blocks: int) -> str:
    (said,) = [w for w in p.warnings if w.startswith(f"profile_slots: the plan stays on {blocks} blocks")]
    return said


# --- a grouped profile refined: its five solves share the limit ---------------------------------------------------

@pytest.mark.parametrize("planned_by", ["plan", "plan_summary"])
def test_the_solves_of_a_refined_grouping_share_the_time_limit(tmp_path, monkeypatch, planned_by):
    # 24 blocks bound the cost error at 3.67 %, 48 at 1.71 % (tests/planner/test_profile_bound_tolerance.py): with
    # time, two plans, two bounds and the exact plan. Each takes 10 s of the 100: given 100, 90, 80, 70 and 60 s
    # (each had 100: 500 s in all)
    path = two_workloads(tmp_path, "random")
    calls = _solves(monkeypatch, [10] * 5)
    planned = (plan(path, baselines=False, time_limit=100) if planned_by == "plan"
               else plan_summary(load_scenario(path), time_limit=100))
    assert calls == [(ON_24, 100), (BOUND_24, 90), (ON_48, 80), (BOUND_48, 70), (EXACT, 60)]
    assert planned.status == "optimal"


def test_a_bound_the_time_left_does_not_reach_is_unknown_and_the_plan_found_is_kept(tmp_path, monkeypatch):
    # 30 s each: the 24 blocks' plan and bound take 60 of the 100, the 48 blocks' plan 30 of the 40 left, and its
    # bound stops at the 10 s left without an answer: 100 s in all. The 48 blocks' plan stands, its bound unknown
    path = two_workloads(tmp_path, "random")
    on_48 = plan(path, baselines=False, profile_slots=48)
    calls = _solves(monkeypatch, [30] * 4)
    p = plan(path, baselines=False, time_limit=100)
    assert calls == [(ON_24, 100), (BOUND_24, 70), (ON_48, 40), (BOUND_48, 10)]
    g = p.profile_grouping
    assert (p.status, g["slots"], [t["slots"] for t in g["refined_from"]]) == ("optimal", 48, [24])
    assert p.total == pytest.approx(on_48.total, rel=1e-9)
    assert g["lower_bound"] is None and g["error_bound"] is None


def test_a_finer_plan_the_time_limit_leaves_no_time_for_is_not_run_and_said_so(tmp_path, monkeypatch):
    # the 24 blocks' plan takes 40 s of the 100, its bound the 60 left (it finishes: 3.67 % above the tolerance);
    # nothing is left for 48 blocks, whose model is not built: the 24 blocks' plan and bound stand, with why
    path = two_workloads(tmp_path, "random")
    on_24 = plan(path, baselines=False, profile_slots=24)
    calls = _solves(monkeypatch, [40, 60])
    p = plan(path, baselines=False, time_limit=100)
    assert calls == [(ON_24, 100), (BOUND_24, 60)]
    g = p.profile_grouping
    assert (p.status, g["slots"], g["refined_from"]) == ("optimal", 24, [])
    assert p.total == pytest.approx(on_24.total, rel=1e-9)
    assert g["lower_bound"] == pytest.approx(on_24.profile_grouping["lower_bound"], rel=1e-9)
    assert _stays_on(p, 24).endswith(
        "not planned on more blocks: the time limit of 100 s was used up before the plan on 48 blocks could be "
        "solved; a longer time limit for the plan's solves (plan(time_limit=…), fleetplan plan --time-limit) lets the "
        "planner add blocks")


def test_a_finer_plan_stopped_by_what_is_left_leaves_the_plan_found(tmp_path, monkeypatch):
    # 40 + 59.5 s of the 100: the 48 blocks' plan has 0.5 s, and stops there without a fleet
    path = two_workloads(tmp_path, "random")
    on_24 = plan(path, baselines=False, profile_slots=24)
    calls = _solves(monkeypatch, [40, 59.5, 1])
    p = plan(path, baselines=False, time_limit=100)
    assert calls == [(ON_24, 100), (BOUND_24, 60), (ON_48, 0.5)]
    assert p.total == pytest.approx(on_24.total, rel=1e-9) and p.profile_grouping["slots"] == 24
    assert "not planned on more blocks: on 48 blocks the solver found no fleet within what was left of the time " \
           "limit of 100 s" in _stays_on(p, 24)


# --- the explanation of a plan with no fleet: what the plan's solve left ------------------------------------------

def _infeasible(tmp_path, time_limit: float, **kwargs) -> str:
    # engine.explain's case (tests/planner/test_explain_least_fleet.py): the c0 that min_units holds costs 2,200
    # USD, over the capex budget of 2,000; three c1 owned
    (tmp_path / "offers.csv").write_text(OFFERS)
    text = INFEASIBLE.format(offers=tmp_path / "offers.csv", share=0.7, c1_price=500,
                             onprem="existing: {c1: 3}\n  capex_budget: 2000")
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(text), baselines=False, time_limit=time_limit, **kwargs)
    return str(info.value)


@pytest.mark.usefixtures("explained_after_a_solve")   # its c0 (min_units) alone passes the budget
def test_the_explanation_of_a_plan_with_no_fleet_gets_only_what_its_solve_left(tmp_path, monkeypatch):
    # the plan's solve takes 10 of the 25 s; the capex budget's least 10 of the 15 left, its tie-break stops at the
    # 5 after them; the cloud share's least is not started. It had 25 s of its own after the plan's solve
    calls = _solves(monkeypatch, [10, 10, 10])
    text = _infeasible(tmp_path, 25)
    assert calls == [(EXACT, 25), ("explanation", 15), ("explanation", 5)]
    assert text == ("recommended: capex budget 2,000 USD < 2,200 USD needed at the least: 1 × c0 (A10G, "
                    "2,200 USD) + 3 × c1 (A10G, owned) (constraints.min_units.c0 = 1); constraints.max_cloud_share "
                    "not examined: the time limit of 25 s (the plan's solves and the explanation's in all) ran out first")


@pytest.mark.usefixtures("explained_after_a_solve")   # its c0 (min_units) alone passes the budget
@pytest.mark.parametrize("extra, unexamined", [
    (None, "onprem.capex_budget and constraints.max_cloud_share"),
    (lambda m: None, "extra_constraints, onprem.capex_budget and constraints.max_cloud_share")])
def test_a_plan_whose_solve_spent_the_time_limit_says_its_explanation_is_not_computed(tmp_path, monkeypatch, extra,
                                                                                       unexamined):
    # the plan's solve proves there is no fleet in the whole 25 s: no solve of the explanation starts (not even
    # the one without the caller's extra constraints), and none is said to have found anything
    calls = _solves(monkeypatch, [25])
    text = _infeasible(tmp_path, 25, extra_constraints=extra)
    assert calls == [(EXACT, 25)]
    assert text == ("recommended: which cap leaves no fleet is not computed: the time limit of 25 s (the plan's "
                    f"solves and the explanation's in all) ran out before the explanation examined {unexamined}")


# --- the merged-hours check ----------------------------------------------------------------------------------------

def test_the_merged_hours_check_gets_what_the_plan_left(tmp_path, monkeypatch):
    # two instance types under a cloud-share cap that does not bind (tests/planner/test_serving_instances_under_cap.py):
    # the check proves the merged plan exact, in the 8 s the plan's 12 left of 20
    calls = _solves(monkeypatch, [12, 1])
    p = plan(_two_types(tmp_path, 30.0, 60.0), baselines=False, time_limit=20)
    assert calls == [(EXACT, 20), ("merged-hours check", 8)]
    assert not [w for w in p.warnings if w.startswith("max_cloud_share")]


def test_a_merged_hours_check_the_time_limit_leaves_no_time_for_is_said_not_known(tmp_path, monkeypatch):
    # the plan's solve takes the whole 20 s: the check is not run, and the plan is not said exact (nor that the cap
    # binds, which no solve showed)
    calls = _solves(monkeypatch, [20])
    p = plan(_two_types(tmp_path, 30.0, 60.0), baselines=False, time_limit=20)
    assert calls == [(EXACT, 20)]
    (said,) = [w for w in p.warnings if w.startswith("max_cloud_share")]
    assert said.startswith("max_cloud_share with 2 instance offers serving a serving workload (azure:eastus:a100x1:"
                           "on_demand, azure:eastus:a100x3:on_demand): identical hours share one instance mix in this "
                           "plan, and whether the best plan would mix them differently hour by hour, for slightly "
                           "less, is not known: the check's solve ended without a proven optimum, within what the "
                           "plan's solves left of the time limit of 20 s")
    assert may_be_dearer(p.warnings)


# --- the budget itself, and a solve given no time ------------------------------------------------------------------

def test_a_budget_counts_from_its_first_solve_and_leaves_nothing_below_zero(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(TimeBudget, "clock", staticmethod(clock.monotonic))
    budget = TimeBudget(10)
    clock.now += 5                                  # building the first model: not counted
    assert not budget.spent() and budget.left() == 10
    clock.now += 4
    assert budget.left() == 6 and TimeBudget.of(budget) is budget
    clock.now += 7
    assert budget.left() == 0 and budget.spent()
    assert TimeBudget(None).left() is None and not TimeBudget(None).spent()


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_a_solve_given_no_time_is_not_run(tmp_path, monkeypatch, solver):
    import subprocess

    from planner.engine import inputs_for, reduce

    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: pytest.fail("CBC started"))
    m = build_model(reduce(inputs_for(load_scenario(two_workloads(tmp_path, "business_hours")))))
    solution = solve(m, solver, 0.0)
    assert (solution.status, solution.seconds, solution.gap) == ("not_solved", 0.0, None)


def test_the_cli_help_says_the_time_limit_is_for_the_plans_solves_together():
    import typer

    from planner.cli import app

    (option,) = [o for o in typer.main.get_command(app).commands["plan"].params if o.name == "time_limit"]
    assert option.help.startswith("SECONDS (0.1 to 86400) for all the solves of the recommended plan together")
    assert "Each baseline's solve and each decision value's re-solve gets SECONDS of its own" in option.help


# --- the LPs that settle which held units do the work (engine.dispatch) ---------------------------------------------

def _settling_lps(monkeypatch) -> list[float | None]:
    """The time limit each LP that settles a plan's dispatch is given, recorded as it starts (it takes no time)."""
    from planner.engine import dispatch

    limits, run = [], dispatch._run

    def recorded(h, time_limit, mip):
        limits.append(time_limit)
        return run(h, time_limit, mip)
    monkeypatch.setattr(dispatch, "_run", recorded)
    return limits


@pytest.mark.parametrize("planned_by", ["plan", "plan_summary"])
def test_the_lp_that_settles_a_reservations_work_gets_what_the_plan_left(tmp_path, monkeypatch, planned_by):
    # two reservations beside on-demand hours (tests/planner/test_reservation_dispatch.py): the plan's solve takes
    # 12 of the 20 s, and the one LP that settles which units work gets the 8 left (it had the solve's 20 again)
    calls, limits = _solves(monkeypatch, [12]), _settling_lps(monkeypatch)
    scenario = reservations(tmp_path, serving=False)
    planned = (plan(scenario, baselines=False, time_limit=20) if planned_by == "plan"
               else plan_summary(load_scenario(scenario), time_limit=20))
    assert calls == [(EXACT, 20)] and limits == [8]
    assert not [w for w in planned.warnings if w.startswith("reservations:")]   # settled


@pytest.mark.parametrize("planned_by", ["plan", "plan_summary"])
def test_a_plan_whose_solve_spent_the_time_limit_keeps_its_own_dispatch_and_says_so(tmp_path, monkeypatch,
                                                                                    planned_by):
    # the plan's solve takes the whole 20 s: no settling LP runs, and the plan found stands as its solve left it —
    # 2 reservations all year (0.50 USD an hour) and on-demand hours for the business-hours demand above them
    # (1.00 USD), 12 × 2 × 0.5 × 730 + (5.545 − 2) × 45 × 730 / 168 × 12 = 17,077.04 USD — with the warning that
    # which held units work is the solver's
    calls, limits = _solves(monkeypatch, [20]), _settling_lps(monkeypatch)
    scenario = reservations(tmp_path, serving=False)
    planned = (plan(scenario, baselines=False, time_limit=20) if planned_by == "plan"
               else plan_summary(load_scenario(scenario), time_limit=20))
    assert calls == [(EXACT, 20)] and limits == []
    assert planned.status == "optimal"
    assert planned.total == pytest.approx(12 * 2 * 0.5 * 730 + (2.5 * 4 * 168 / 303 - 2) * 45 * 730 / 168 * 12, rel=1e-9)
    assert planned.fleet.set_index("kind").loc["reserved", "units"] == 2
    assert [w for w in planned.warnings if w.startswith("reservations:")] == [
        "reservations: which held units do the work was left as the solver placed it (settling it stopped without an "
        "answer, or the plan's time limit was used up before it): the total stands, but a reservation's "
        "instance_hours and its FOCUS Used share may differ from another solver's"]
