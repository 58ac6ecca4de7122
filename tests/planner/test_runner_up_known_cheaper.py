"""The runner-up is never dearer than another fleet add_decisions already found (engine.decisions.known_cheaper).

Under a time limit the runner-up's own re-solve can stop with a fleet it has not proved best (status
`feasible`), or with none (`not_solved`), while a count alternative (one card more or fewer) of the same
call found a cheaper fleet that differs from the plan's: the runner-up was reported dearer than it, and the
close call judged on that. The time limit is simulated here by making the runner-up's own solves (its
no-good cut, and the best plan with other card types) stop on a dearer fleet — the best one holding two
A100s, a fleet those cuts allow — or on none, as a time-limited HiGHS run can. Expected totals come from
plans with the fleet fixed through `plan(..., extra_constraints=…)`, or by hand (the worked example).
"""

from __future__ import annotations

import math
from dataclasses import replace as replaced
from pathlib import Path
from types import SimpleNamespace

import pytest

from planner import add_decisions, plan
from planner.engine import decisions

ROOT = Path(__file__).resolve().parents[2]
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"
CARDS = ("a100-80gb-pcie", "rtx-4090", "rtx-3060-12gb")
REL = 1e-6
LIMIT_S = 30   # the time limit the notes name; the real solves end well within it


def fixing(counts: dict[str, int]):
    """extra_constraints that fix the cards held of each card (Model.card)."""
    def change(m):
        for name, units in counts.items():
            m.prob += (m.card(name) == units, f"test_fix_{name}")
    return change


@pytest.fixture(scope="module")
def priced() -> dict[tuple[int, int, int], float]:
    """startup-hybrid's total with (A100s, RTX 4090s, RTX 3060s) held fixed: the plan (1, 1, 0), its runner-up
    keeping one owned RTX 3060 (1, 1, 1, docs/decisions.md: 37,105 USD) and two A100s (2, 1, 0: 38,149 USD)."""
    return {counts: plan(HYBRID, baselines=False, extra_constraints=fixing(dict(zip(CARDS, counts)))).total
            for counts in ((1, 1, 0), (1, 1, 1), (2, 1, 0))}


def stopped(monkeypatch, how: str) -> list:
    """Make the runner-up's own solves (the no-good cut and the other-types cut) end as a time-limited run
    can: `dearer`, on the best fleet of the cut holding two A100s, not proved best; `none`, without a fleet;
    `unproved`, on the cut's own optimum, not proved. Returns the (cut, status, total) of each such solve."""
    solve, seen = decisions._Resolver.solve, []

    def patched(self, inp, part, change=None, start=None):
        cut = getattr(change, "__qualname__", "").split(".")[0]
        if cut not in ("no_good_cut", "type_cut"):
            return solve(self, inp, part, change, start=start)
        if how == "dearer":
            def two_a100s(m):
                change(m)
                m.prob += (m.card("a100-80gb-pcie") >= 2, "test_two_a100s")
            outcome = replaced(solve(self, inp, part, two_a100s, start=start), status="feasible")
        elif how == "none":
            outcome = replaced(solve(self, inp, part, change, start=start), status="not_solved", total=math.nan)
        else:
            outcome = replaced(solve(self, inp, part, change, start=start), status="feasible")
        seen.append((cut, outcome.status, outcome.total))
        return outcome

    monkeypatch.setattr(decisions._Resolver, "solve", patched)
    return seen


def alternative(runner: dict, card: str, units: int) -> dict:
    (found,) = [a for a in runner["count_alternatives"] if (a["card"], a["alternative_units"]) == (card, units)]
    return found


def test_a_runner_up_stopped_on_a_dearer_fleet_is_the_cheaper_count_alternative(monkeypatch, priced):
    plan_total, kept_3060, two_a100s = priced[1, 1, 0], priced[1, 1, 1], priced[2, 1, 0]
    assert plan_total < kept_3060 < two_a100s
    assert (kept_3060 - plan_total) / plan_total <= 0.02 < (two_a100s - plan_total) / plan_total
    seen = stopped(monkeypatch, "dearer")
    p = add_decisions(plan(HYBRID, baselines=False), time_limit=LIMIT_S, threads=1)
    assert p.total == pytest.approx(plan_total, rel=REL)
    # the runner-up's own solve stopped on two A100s, 4.5 % dearer than the plan: no close call by itself
    assert seen[0][:2] == ("no_good_cut", "feasible") and seen[0][2] == pytest.approx(two_a100s, rel=REL)
    assert [cut for cut, *_ in seen] == ["no_good_cut", "type_cut"] and seen[1][2] > kept_3060 * (1 + REL)
    # "one more RTX 3060" found keeping one owned RTX 3060, 1.7 % dearer: the runner-up is that fleet, unproven
    runner = p.runner_up
    assert alternative(runner, "rtx-3060-12gb", 1)["total"] == pytest.approx(kept_3060, rel=REL)
    assert runner["total"] == pytest.approx(kept_3060, rel=REL)
    assert p.close_call is True
    assert runner["status"] == "feasible" and runner["fleet"] == dict(zip(CARDS, (1, 1, 1)))
    assert alternative(runner, "rtx-3060-12gb", 1)["fleet"] == runner["fleet"]
    assert runner["increase"] == pytest.approx(kept_3060 - plan_total, rel=REL)
    assert runner["increase_pct"] == pytest.approx(100 * (kept_3060 - plan_total) / plan_total, rel=REL)
    # taken from a count alternative, whose purchases are not kept: the card bought is said without its year
    assert runner["differences"] == ["rtx-3060-12gb 0 (2 owned sold) → 1 (1 bought, 2 owned sold)"]
    assert runner["note"] == ("found by the best plan holding at least one more rtx-3060-12gb (0 → 1); the runner-up's "
                              f"own re-solve found only a dearer fleet: the solver stopped at the time limit ({LIMIT_S} "
                              "s) with a fleet it had not proved best")
    # the other-types solve stopped dearer too: the same count alternative adds a card type, so it is its answer
    types = runner["other_types"]
    assert types["status"] == "feasible" and types["fleet"] == runner["fleet"]
    assert types["total"] == pytest.approx(kept_3060, rel=REL)


def test_a_runner_up_stopped_without_a_fleet_is_the_cheapest_count_alternative(monkeypatch, priced):
    plan_total, kept_3060 = priced[1, 1, 0], priced[1, 1, 1]
    seen = stopped(monkeypatch, "none")
    p = add_decisions(plan(HYBRID, baselines=False), time_limit=LIMIT_S, threads=1)
    assert seen == [("no_good_cut", "not_solved", pytest.approx(math.nan, nan_ok=True))]   # no other-types solve
    runner = p.runner_up
    assert runner["total"] is not None and runner["total"] == pytest.approx(kept_3060, rel=REL)
    assert runner["increase"] == pytest.approx(kept_3060 - plan_total, rel=REL)
    assert p.close_call is True
    # the count alternatives: 3060 0 → 1, 4090 1 → 2 and 1 → 0, A100 1 → 2 (A100 1 → 0: min_units); the
    # cheapest is the 3060's, within 2 % of the plan
    solved = [a for a in runner["count_alternatives"] if a["total"] is not None]
    assert len(solved) == 4 and min(a["total"] for a in solved) == pytest.approx(kept_3060, rel=REL)
    assert runner["status"] == "feasible" and runner["fleet"] == dict(zip(CARDS, (1, 1, 1)))
    assert runner["note"] == ("found by the best plan holding at least one more rtx-3060-12gb (0 → 1); the runner-up's "
                              f"own re-solve found none: the solver stopped at the time limit ({LIMIT_S} s) without an "
                              "answer")
    # no other-types solve was made; the best known fleet of other card types is that same alternative
    assert runner["other_types"]["status"] == "feasible" and runner["other_types"]["fleet"] == runner["fleet"]


def test_the_worked_example_without_a_runner_up_solve_is_all_cloud_by_hand(monkeypatch):
    # By hand (README, worked example): the plan buys one RTX A5000, 8,385.46 USD; two do not fit the 2,500 USD
    # budget, and with none all 800 A5000-hours a month go to g5.xlarge at 1.006 USD/h for 0.8 of the work:
    # 800 / 0.8 × 1.006 × 24 = 24,144 USD, 187.9 % more — the count alternative "one fewer", and the runner-up
    stopped(monkeypatch, "none")
    p = add_decisions(plan(WORKED, baselines=False), time_limit=LIMIT_S, threads=1)
    all_cloud = 800 / 0.8 * 1.006 * 24
    assert p.total == pytest.approx(8385.46, abs=0.01)
    runner = p.runner_up
    assert runner["total"] is not None and runner["total"] == pytest.approx(all_cloud, rel=1e-9)
    assert runner["status"] == "feasible" and runner["fleet"] == {} and runner["differences"] == ["rtx-a5000 1 → 0"]
    assert runner["increase_pct"] == pytest.approx(100 * (all_cloud - 8385.46) / 8385.46, rel=1e-6)
    assert p.close_call is False
    assert runner["other_types"]["fleet"] == {} and runner["other_types"]["total"] == pytest.approx(all_cloud, rel=1e-9)


def test_a_runner_up_no_dearer_than_what_is_known_keeps_its_own_answer(monkeypatch, priced):
    # its own solve, not proved, found keeping one RTX 3060 — as cheap as "one more RTX 3060": a tie is no
    # cheaper fleet, so its own answer and empty note stay
    stopped(monkeypatch, "unproved")
    p = add_decisions(plan(HYBRID, baselines=False), time_limit=LIMIT_S, threads=1)
    runner = p.runner_up
    assert runner["status"] == "feasible" and runner["note"] == ""
    assert runner["fleet"] == dict(zip(CARDS, (1, 1, 1))) and runner["total"] == pytest.approx(priced[1, 1, 1], rel=REL)


# known_cheaper on answers set by hand: plan total 100, one count alternative at 104 holding {"a": 2}

PLAN_FLEET = {"a": 1}
CHEAPER = {"card": "a", "units": 1, "alternative_units": 2, "status": "optimal", "total": 104.0, "increase": 4.0,
           "increase_pct": 4.0, "fleet": {"a": 2}}


def runner_at(status: str, total: float | None, fleet: dict | None, note: str = "") -> dict:
    return {"status": status, "fleet": fleet, "plan_fleet": PLAN_FLEET, "total": total,
            "increase": None if total is None else total - 100, "increase_pct": None if total is None else total - 100,
            "differences": [], "note": note, "other_types": None}


@pytest.mark.parametrize("status, total, fleet", [
    ("optimal", 110.0, {"a": 3}),      # proven best: a cheaper one cannot exist, and is not taken
    ("infeasible", None, None),        # proven: no other fleet
    ("none", None, None),              # nothing to change
    ("feasible", 104.004, {"a": 3}),   # within half a cent: no cheaper
])
def test_a_proven_runner_up_or_a_tie_is_kept(status, total, fleet):
    r, result = SimpleNamespace(time_limit=5.0), SimpleNamespace(total=100.0)
    runner = runner_at(status, total, fleet)
    assert decisions.known_cheaper(r, result, runner, [CHEAPER]) == runner


def test_a_count_alternative_holding_the_plans_fleet_is_no_other_fleet():
    # (a count the model could not constrain would come back as the plan's own fleet: not a runner-up)
    r, result = SimpleNamespace(time_limit=5.0), SimpleNamespace(total=100.0)
    runner = runner_at("not_solved", None, None, "the solver stopped at the time limit (5 s) without an answer")
    same = {**CHEAPER, "fleet": dict(PLAN_FLEET), "total": 100.0}
    assert decisions.known_cheaper(r, result, runner, [same]) == runner
    found = decisions.known_cheaper(r, result, runner, [same, CHEAPER])
    assert (found["status"], found["fleet"], found["total"], found["increase"]) == ("feasible", {"a": 2}, 104.0, 4.0)
    assert found["differences"] == ["a 1 → 2"] and found["other_types"] is None   # same card types: not another set
