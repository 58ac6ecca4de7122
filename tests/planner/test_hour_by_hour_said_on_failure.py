"""A solve that stops without a fleet on a model planned hour by hour says why the model is that large (an audit,
2026-12-06: electricity typed in cents made instance-hours cheaper than a card's busy energy, so with a cloud-share
cap and a serving workload every weekly hour of every month was planned on its own — a model about 80 times larger —
and the plan ended "found no fleet within the time limit" with the warning that said why lost with the plan).

By hand: 2 months × 168 weekly hours = 336 periods; merged, 2: business_hours has two weights (busy and off hours) and
the two months, of equal demand (no growth, no discounting), are one period: 336 / 2 = 168 times as many. The tie
(engine.inputs._instances_tie_hours): an a100-80gb-pcie card draws 540 W busy and 45 W idle
(planner/data/onprem_cards.csv), so its busy hour costs (0.540 - 0.045) kW × PUE 1.5 × 10 USD/kWh = 7.425 USD above
idle (engine.schedule.card_rates), and an L4 serves 6/14 of its requests, so an instance of n L4s whose hour costs
under 7.425 × 6n/14 = 3.18n USD ties hours: AWS's g6.xlarge (one L4) costs 0.8048 USD an hour on demand in us-east-1,
g6.12xlarge (four) 4.6016 (pricing_adapters/snapshots/aws.csv)."""

from __future__ import annotations

import importlib
import json

import pytest

from planner import plan
from planner.errors import SolverError

solve = importlib.import_module("planner.engine.solve")

SCENARIO = """\
name: tied hours
horizon_months: 2
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [a100-80gb-pcie], electricity_per_kwh: 10, pue: 1.5}
workloads:
  - name: api
    requests_per_second: 20
    reference_gpu: L4
    throughput_unit: requests_per_second
    throughput: {L4: 6, A100-80GB-PCIE: 14}
    profile: business_hours
    serving: true
constraints: {max_cloud_share: 0.5}
"""


def test_a_solve_stopped_without_a_fleet_says_every_hour_is_planned_on_its_own(monkeypatch):
    monkeypatch.setattr(solve, "_solve_highs", lambda *args, **kwargs: ("not_solved", None))
    with pytest.raises(SolverError) as caught:
        plan(SCENARIO, baselines=False, time_limit=5)
    said = str(caught.value)
    assert "found no fleet within the time limit of 5 s" in said
    assert "; the model has 336 periods because max_cloud_share with a serving workload: an hour of " in said
    assert "every weekly hour of every month is planned on its own, which takes longer: 336 periods against 2" in said


def test_without_the_tie_the_message_is_as_before(monkeypatch):
    # at 0.10 USD/kWh the card's busy energy is 0.045 USD a card-hour: no instance-hour is cheaper, hours merge
    monkeypatch.setattr(solve, "_solve_highs", lambda *args, **kwargs: ("not_solved", None))
    with pytest.raises(SolverError) as caught:
        plan(SCENARIO.replace("electricity_per_kwh: 10", "electricity_per_kwh: 0.1"), baselines=False, time_limit=5)
    # the solver other than the highs that stopped, as a library caller's argument, then as the CLI's flag
    assert str(caught.value).endswith("try the other solver: solver='cbc' (--solver cbc)")


def _written(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


WHY = ("every weekly hour of every month is planned on its own, which takes longer: 336 periods against 2 with identical "
       "hours merged, 168 times as many; to plan merged hours, drop constraints.max_cloud_share, set serving: false on "
       "workload api, or check onprem.electricity_per_kwh and pue")


def test_on_a_terminal_the_hour_by_hour_model_is_said_before_the_solve_with_what_to_change(tmp_path, monkeypatch):
    from tests.planner.cli_run import run

    said_when_solving = []
    engine = importlib.import_module("planner.engine")
    real = engine.plan

    def plan_after_reading_stderr(*args, **kwargs):
        import sys

        sys.stderr.flush()
        said_when_solving.append(sys.stderr.buffer.getvalue().decode())
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "plan", plan_after_reading_stderr)
    monkeypatch.setattr(solve, "_solve_highs", lambda *args, **kwargs: ("not_solved", None))
    monkeypatch.setenv("TTY_COMPATIBLE", "1")   # stderr read as a terminal's (console._plain_stderr)
    monkeypatch.setenv("NO_COLOR", "1")
    result = run("plan", _written(tmp_path, SCENARIO), "--no-baselines", "--no-decisions", "--time-limit", "5")
    assert result.exit_code == 3, result.output
    assert "warning: max_cloud_share with a serving workload: an hour of " in said_when_solving[0]
    assert WHY in said_when_solving[0].replace("\n", " ")
    assert result.stderr.count("warning: max_cloud_share with a serving workload") == 1   # not again after the solve


def test_the_plans_json_warnings_carry_it(tmp_path):
    from tests.planner.cli_run import run

    result = run("plan", _written(tmp_path, SCENARIO), "--no-baselines", "--no-decisions", "--format", "json")
    assert result.exit_code == 0, result.output
    [said] = [w for w in json.loads(result.stdout)["warnings"] if w.startswith("max_cloud_share with a serving")]
    assert WHY in said


def test_a_scenario_planned_on_merged_hours_is_not_warned_of_before_its_solve(tmp_path, monkeypatch):
    from tests.planner.cli_run import run

    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    cheap = SCENARIO.replace("electricity_per_kwh: 10", "electricity_per_kwh: 0.1")
    result = run("plan", _written(tmp_path, cheap), "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    assert "planned on its own" not in result.output and "periods against" not in result.output
