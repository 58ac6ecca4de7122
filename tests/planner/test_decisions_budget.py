"""A time limit for all of what-each-decision-is-worth's re-solves together (add_decisions' `total_time_limit`),
which the dashboard sets and the CLI sets by default: a review (2026-12-05) found that their number grows with the
cards (282 re-solves for 25 custom cards), with no bound on them together; an audit (2026-12-05) that 60 custom cards
ran `fleetplan plan` past 7 minutes and 1.7 GB. Past the limit the re-solves left are reported as not computed,
and those done keep their answers."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from planner.engine import add_decisions, plan
from planner.errors import PlannerError

decisions_module = sys.modules["planner.engine.decisions"]
ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
NOT_COMPUTED = "not computed: the re-solves stopped at their time limit of {} s in all"


@pytest.fixture(scope="module")
def planned():
    return plan(STARTUP, baselines=False)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_limit_spent_before_the_first_re_solve_leaves_every_answer_not_computed(planned, threads):
    p = plan(STARTUP, baselines=False)
    add_decisions(p, total_time_limit=1e-9, threads=threads)
    why = NOT_COMPUTED.format("1e-09")
    # startup-hybrid's plan buys an A100 and an RTX 4090 and sells its two RTX 3060s: 3 decisions; one card more
    # or fewer of each card it holds or owns: 3060 (1; none fewer of 0 held), 4090 (2, 0), A100 (2, 0): 5;
    # flip points of the 2 cards bought; cap costs of its power cap, capex budget, cloud share cap, the 4090's
    # maximum and the A100's minimum: 5; and the runner-up: 16 answers, none computed
    assert list(p.decisions["status"]) == ["not_solved"] * 3
    assert list(p.decisions["note"]) == [f"no value: {why}"] * 3
    assert p.decisions["total_if_forbidden"].isna().all() and p.decisions["increase"].isna().all()
    assert list(p.cap_costs["note"]) == [f"no value: {why}"] * 5
    assert p.cap_costs["binds"].isna().all()
    assert list(p.flip_points["note"]) == ["min_units 1 relaxed for this search; no flip point: " + why,
                                           "no flip point: " + why]
    assert list(p.flip_points["solves"]) == [0, 0]   # none made (each counted one it never made)
    assert p.flip_points["flip_demand"].isna().all()
    assert (p.runner_up["status"], p.runner_up["total"], p.runner_up["note"]) == ("not_solved", None, why)
    assert [(a["units"], a["alternative_units"], a["status"], a["total"], a["note"])
            for a in p.runner_up["count_alternatives"]] \
        == [(0, 1, "not_solved", None, why), (1, 2, "not_solved", None, why), (1, 0, "not_solved", None, why),
            (1, 2, "not_solved", None, why), (1, 0, "not_solved", None, why)]
    assert p.close_call is False
    assert p.solver["decisions"]["not_computed"] == 16 and p.solver["decisions"]["total_time_limit"] == 1e-9
    assert sum(p.solver["decisions"]["solves"].values()) == 0
    assert [w for w in p.warnings if w.startswith("what each decision is worth: ")] == [
        "what each decision is worth: 16 of 16 answers are not computed, or not to the end: the re-solves stopped at "
        "their time limit of 1e-09 s in all; the notes of those decision values, runner-up, count alternatives, flip "
        "points and cap costs say so (a larger `total_time_limit` of add_decisions allows more time)"]
    assert p.total == planned.total and p.fleet.equals(planned.fleet)   # the plan itself stands


class _Clock:
    """time.monotonic for the decisions module: 10 s pass at each reading."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 10.0
        return self.now


@pytest.mark.parametrize("cut_short", [False, True])
def test_the_limit_stops_them_midway_keeps_the_answers_made_and_shortens_each_solve_to_what_is_left(planned,
                                                                                                   monkeypatch,
                                                                                                   cut_short):
    # A clock that moves 10 s a reading, 45 s in all, the start at 10. The runner-up comes first (its fleet already
    # holds other card types: one solve): its check before reads 20 (10 s spent), its time limit 30 (45 - 20 = 25 s
    # left, less than the plan's 60 s); it proves its optimum, so the clock is not read after it. The A100's flip
    # search next: before, 40 (30 s spent); its limit at 50, 5 s left. Its next step reads 60 (50 s spent): not
    # computed, nor is anything after. With that second solve stopped unproven (cut_short), the clock is read after
    # it, 60: spent, so it is no answer either.
    limits, real = [], decisions_module.solve

    def solve(m, solver, limit, start=None):
        limits.append(limit)
        solution = real(m, solver, limit, start=start)
        return replace(solution, status="feasible") if cut_short and len(limits) == 2 else solution

    monkeypatch.setattr(decisions_module, "solve", solve)
    monkeypatch.setattr(decisions_module.time, "monotonic", _Clock())
    p = add_decisions(plan(STARTUP, baselines=False), time_limit=60, total_time_limit=45, threads=1)
    assert limits == [25.0, 5.0]
    # the runner-up made keeps its answer (startup-hybrid's: both owned RTX 3060s sold, one bought in plan year 3)
    unlimited = add_decisions(plan(STARTUP, baselines=False))
    assert p.runner_up["status"] == "optimal" and p.runner_up["total"] == unlimited.runner_up["total"]
    assert p.runner_up["differences"] == ["rtx-3060-12gb 0 (2 owned sold) → 1 (1 bought in year 3, 2 owned sold)"]
    # the A100's flip search made its first solve (none when it was cut short: no answer), the RTX 4090's none
    assert list(p.flip_points["solves"]) == [0 if cut_short else 1, 0]
    assert p.solver["decisions"]["solves"] == {"decision_values": 0, "runner_up": 1,
                                               "flip_points": 0 if cut_short else 1, "cap_costs": 0}
    assert p.solver["decisions"]["not_computed"] == 15   # of 16: the runner-up's is the one made
    why = NOT_COMPUTED.format(45)
    assert p.flip_points["note"].iloc[0] == "min_units 1 relaxed for this search; no flip point: " + why
    assert (p.decisions["note"] == f"no value: {why}").all()


def test_a_limit_not_reached_changes_nothing():
    with_limit = add_decisions(plan(STARTUP, baselines=False), total_time_limit=3600)
    without = add_decisions(plan(STARTUP, baselines=False))
    pd.testing.assert_frame_equal(with_limit.decisions, without.decisions)
    pd.testing.assert_frame_equal(with_limit.flip_points, without.flip_points)
    pd.testing.assert_frame_equal(with_limit.cap_costs, without.cap_costs)
    assert with_limit.runner_up == without.runner_up
    assert with_limit.solver["decisions"]["not_computed"] == 0 and with_limit.warnings == without.warnings


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, True, "60"])
def test_a_limit_that_is_no_number_of_seconds_is_refused(planned, bad):
    with pytest.raises(PlannerError, match=r"^total_time_limit: expected seconds above 0 \(or None: no limit\), got "):
        add_decisions(planned, total_time_limit=bad)


@pytest.mark.parametrize(("plan_seconds", "limit"), [(0.09, 600.0), (30.0, 600.0), (48.0, 960.0), (None, 600.0)])
def test_the_default_limit_is_20_times_the_plan_s_own_solve_and_at_least_ten_minutes(planned, plan_seconds, limit):
    # (a Plan read back without its solve's seconds gets the ten minutes)
    solver = {k: v for k, v in planned.solver.items() if k != "seconds"}
    if plan_seconds is not None:
        solver["seconds"] = plan_seconds
    assert decisions_module.default_total_time_limit(replace(planned, solver=solver)) == limit


def _with_quotes(n: int):
    """startup-hybrid with `n` more custom A100 cards: its 3 card types bought (the RTX A5000 has no price) and
    `n` more, each in 12 purchase months (36 months, one every 3), and its owned RTX 3060s kept or switched off."""
    from planner.engine.reductions import reduce
    from planner.engine.run import inputs_for
    from planner.scenario import apply_overrides, load_scenario

    quotes = {f"quote-{i}": {"gpu": "A100-80GB-PCIE", "price": 13500 + i, "busy_watts": 300, "idle_watts": 50,
                             "life_years": 5, "host_cost_per_card": 2500} for i in range(n)}
    return reduce(inputs_for(apply_overrides(load_scenario(STARTUP), {"onprem.custom_cards": quotes})))


@pytest.mark.parametrize(("quotes", "purchase_variables", "threads"), [(0, 38, 8), (20, 278, 3), (39, 506, 1)])
def test_re_solves_of_a_large_model_run_on_fewer_threads(monkeypatch, quotes, purchase_variables, threads):
    # (3 + quotes) × 12 purchases + 2 for the owned batch; at most 1,000 of them in flight: 1,000 // 278 = 3
    from planner.engine.model import purchase_variables as counted

    monkeypatch.setattr(decisions_module, "usable_cores", lambda: 16)
    inp = _with_quotes(quotes)
    assert counted(inp).total == purchase_variables
    assert decisions_module.default_threads(inp) == threads   # 8 at most (MAX_THREADS)


def test_the_cli_bounds_the_re_solves_by_default_and_says_what_it_left(monkeypatch):
    import json

    import planner.engine
    from tests.planner.cli_run import run

    given, real_add = [], decisions_module.add_decisions

    def add_decisions_seen(result, **kw):
        given.append(kw["total_time_limit"])
        return real_add(result, **kw)

    monkeypatch.setattr(planner.engine, "add_decisions", add_decisions_seen)
    # the default: what default_total_time_limit gives the plan, here spent at once
    monkeypatch.setattr(decisions_module, "default_total_time_limit", lambda result: 1e-9)
    result = run("plan", STARTUP, "--no-baselines", "--format", "json")
    assert result.exit_code == 0, result.output
    assert given == [1e-9]
    made = json.loads(result.stdout)
    assert {row["note"] for row in made["decisions"]} == {"no value: " + NOT_COMPUTED.format("1e-09")}
    stderr = " ".join(result.stderr.split())
    assert "warning: what each decision is worth: 16 of 16 answers are not computed, or not to the end" in stderr
    assert stderr.count("(`fleetplan plan --decisions-time-limit SECONDS` allows more time, `--no-decisions` skips "
                        "them)") == 1
    # the table: no count alternative has a total, so none is shown; a line says how many and why
    shown = run("plan", STARTUP, "--no-baselines")
    assert shown.exit_code == 0, shown.output
    assert "One card more or fewer" not in shown.stdout
    assert "one card more or fewer: 5 of 5 not shown: at least 1 rtx-3060-12gb, at least 2 rtx-4090, at most 0 " \
           "rtx-4090, at least 2 a100-80gb-pcie, at most 0 a100-80gb-pcie: not computed: the re-solves stopped at " \
           "their time limit of 1e-09 s in all" in " ".join(shown.stdout.split())
    # --decisions-time-limit in its place
    assert run("plan", STARTUP, "--no-baselines", "--decisions-time-limit", 3600, "--format", "json").exit_code == 0
    assert given == [1e-9, 1e-9, 3600.0]
    assert "--decisions-time-limit" in run("plan", "--help").stdout
