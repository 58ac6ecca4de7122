"""A plan whose own solve stopped before it proved the least cost (status feasible: the time limit) can cost more
than fleets its decision re-solves find. `fleetplan plan industrial.yaml --time-limit 0.1` said "runner-up
2,086,023 USD, -49,478 USD (-2.3 %) more" and flagged a close call (any negative percentage was "within 2 %").
Now: a warning says the plan is not the cheapest and what was found; the close call needs the runner-up within
the share either way; the CLI and the dashboard say "less"."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from fleetplan_dashboard.tables import verdict
from planner import add_decisions, plan
from planner.cli.commands import _more_or_less
from planner.engine.decisions import NOT_CHEAPEST, beats_the_plan, is_close_call

OVER = 10_000.0   # the unproven plan's total is the proven optimum's plus this


@pytest.fixture(scope="module")
def unproven():
    """startup-hybrid's proven plan, told as a time-limited solve would leave it: status feasible, a total OVER
    above the optimum (its fleet unchanged)."""
    proven = plan("scenarios/startup-hybrid.yaml", baselines=False)
    assert proven.status == "optimal"
    fake = dataclasses.replace(proven, status="feasible", total=proven.total + OVER, warnings=list(proven.warnings))
    return proven.total, add_decisions(fake)


def test_a_cheaper_fleet_found_by_the_re_solves_is_a_warning(unproven):
    optimum, p = unproven
    (warning,) = [w for w in p.warnings if w.startswith(NOT_CHEAPEST)]
    # the re-solves each add a restriction to the plan's model, so none is below the proven optimum
    found = [t for t in p.decisions["total_if_forbidden"] if t == t] + [p.runner_up["total"]]
    assert min(found) >= optimum - 0.01
    least = min(found)
    assert f"found a fleet costing {least:,.0f} USD, {optimum + OVER - least:,.0f} USD" in warning
    assert "(status feasible)" in warning and "--time-limit" in warning
    # a runner-up far below the plan (more than the 2 % share) is no close call
    pct = (p.runner_up["total"] - (optimum + OVER)) / (optimum + OVER) * 100
    assert p.runner_up["increase_pct"] == pytest.approx(pct) and pct < -2
    assert p.close_call is False


def test_add_decisions_again_keeps_one_such_warning(unproven):
    _, p = unproven
    again = add_decisions(p)
    assert sum(w.startswith(NOT_CHEAPEST) for w in again.warnings) == 1


def test_a_proven_plan_gets_no_such_warning():
    p = add_decisions(plan("examples/worked-example.yaml", baselines=False))
    assert p.status == "optimal" and not any(w.startswith(NOT_CHEAPEST) for w in p.warnings)


def test_a_runner_up_below_an_unproven_plan_is_no_close_call():
    unproven, proven = SimpleNamespace(status="feasible", total=1000.0), SimpleNamespace(status="optimal", total=1000.0)
    assert is_close_call({"increase_pct": 1.5, "increase": 15.0, "total": 1015.0}, 0.02, unproven)
    assert is_close_call({"increase_pct": 0.0, "increase": 0.0, "total": 1000.0}, 0.02, unproven)
    # below the unproven plan: not the best plan, whether by 1.5 % or 2.3 %
    assert not is_close_call({"increase_pct": -1.5, "increase": -15.0, "total": 985.0}, 0.02, unproven)
    assert not is_close_call({"increase_pct": -2.3, "increase": -23.0, "total": 977.0}, 0.02, unproven)
    assert beats_the_plan({"increase": -15.0}, unproven) and not beats_the_plan({"increase": -15.0}, proven)
    assert not is_close_call({"increase_pct": 2.5, "increase": 25.0, "total": 1025.0}, 0.02, unproven)


def test_a_runner_up_a_round_off_below_the_plan_is_a_tie():
    """The re-solves may come out below the plan by the solvers' round-off (half a cent, or a millionth of the
    total: _Resolver.not_below_plan): 0.02 USD under startup-hybrid's 36,401 USD is a tie — the strongest close
    call — on a proven plan, and not "a cheaper fleet" on an unproven one either."""
    runner = {"total": 36_401.31, "increase": -0.02, "increase_pct": -0.02 / 36_401.33 * 100, "close_call_share": 0.02,
              "differences": ["rtx-3060-12gb 0 → 1"], "fleet": {"rtx-3060-12gb": 1}, "status": "optimal"}
    for status in ("optimal", "feasible"):
        plan_like = SimpleNamespace(status=status, total=36_401.33)
        assert not beats_the_plan(runner, plan_like)
        assert is_close_call(runner, 0.02, plan_like)
        kind, _ = verdict(36_401.33, "USD", SimpleNamespace(runner_up=runner, close_call=True), status)
        assert kind == "close_call"


RUNNER_BELOW = {"total": 2_086_023.0, "increase": -49_478.0, "increase_pct": -2.3169, "close_call_share": 0.02,
                "differences": ["a100-80gb-pcie 87 → 88"], "fleet": {"a100-80gb-pcie": 88}, "status": "feasible"}


def test_the_cli_and_the_dashboard_say_less_below_the_plan():
    assert _more_or_less(-49_478.0, -2.3169, "USD") == "49,478 USD (2.3 %) less"
    # under 1 %, two significant digits (markdown.percent_text, the one rule of the CLI and the summary)
    assert _more_or_less(2_511.0, 0.1236, "USD") == "2,511 USD (0.12 %) more"
    kind, text = verdict(2_135_501.0, "USD", SimpleNamespace(runner_up=RUNNER_BELOW, close_call=False), "feasible")
    assert kind == "not_best" and "Not the best plan" in text and "Firm" not in text
    assert "costs 2,086,023 USD, 49,478 USD (2.32 %) less than this plan's 2,135,501 USD" in text
    assert "USD more" not in text and "(-" not in text


def test_the_dashboard_carries_the_warning_add_decisions_sets():
    from fleetplan_dashboard import jobs, state

    p = plan("examples/worked-example.yaml", baselines=False)
    found = f"{NOT_CHEAPEST}its solve stopped before it proved the least cost (status feasible), …"
    made = jobs.Decisions(runner_up=RUNNER_BELOW, close_call=False, warnings=[*p.warnings, found])
    told = state.with_decisions(jobs.Outcome("ok", plan=p), made)
    assert told.plan.warnings == [*p.warnings, found]
    # decisions made on a plan whose warnings the page already shows: none twice
    assert state.with_decisions(told, made).plan.warnings == [*p.warnings, found]


def test_the_cli_table_prints_what_add_decisions_warns_of(monkeypatch):
    from typer.testing import CliRunner

    from planner.cli import app
    from planner.engine import decisions

    said = f"{NOT_CHEAPEST}(a stand-in for what the re-solves of an unproven plan found)"
    monkeypatch.setattr(decisions, "cheaper_found", lambda result: said)
    result = CliRunner().invoke(app, ["plan", "examples/worked-example.yaml", "--no-baselines"])
    assert result.exit_code == 0, result.output
    assert said.split(": ", 1)[1][:40] in " ".join(result.output.split())


def test_the_dashboard_says_an_unproven_plan_is_unproven_as_the_summary_does():
    # a runner-up dearer than a plan whose own solve stopped unproven: firm, but not proven (the dashboard said
    # only what it says of a runner-up stopped by the time limit, and nothing of the plan)
    dearer = {**RUNNER_BELOW, "total": 2_185_501.0, "increase": 50_000.0, "increase_pct": 2.34, "status": "optimal"}
    kind, text = verdict(2_135_501.0, "USD", SimpleNamespace(runner_up=dearer, close_call=False), "feasible")
    assert kind == "firm" and "this plan's own solve stopped before it proved the least cost" in text
    kind, text = verdict(2_135_501.0, "USD", SimpleNamespace(runner_up=dearer, close_call=False), "optimal")
    assert kind == "firm" and "Not proven" not in text
