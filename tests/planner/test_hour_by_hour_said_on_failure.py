"""A solve that stops without a fleet on a model planned hour by hour says why the model is that large (an audit,
2026-12-06: electricity typed in cents made instance-hours cheaper than a card's busy energy, so with a cloud-share
cap and a serving workload every weekly hour of every month was planned on its own — a model about 80 times larger —
and the plan ended "found no fleet within the time limit" with the warning that said why lost with the plan).

By hand: 2 months × 168 weekly hours = 336 periods. The tie (engine.inputs._instances_tie_hours): an A100 80 GB
PCIe draws 300 W busy (planner/data/gpus.csv), 0.3 kW × PUE 1.5 × 10 USD/kWh = 4.5 USD a card-hour, and an L4
instance serves 6/14 of its requests, so an instance-hour under 4.5 × 6/14 = 1.93 USD ties hours: AWS's g6.xlarge
(one L4) costs well under 1 USD an hour on demand in us-east-1."""

from __future__ import annotations

import importlib

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
    assert said.endswith("every weekly hour of every month is planned on its own, which takes longer")


def test_without_the_tie_the_message_is_as_before(monkeypatch):
    # at 0.10 USD/kWh the card's busy energy is 0.045 USD a card-hour: no instance-hour is cheaper, hours merge
    monkeypatch.setattr(solve, "_solve_highs", lambda *args, **kwargs: ("not_solved", None))
    with pytest.raises(SolverError) as caught:
        plan(SCENARIO.replace("electricity_per_kwh: 10", "electricity_per_kwh: 0.1"), baselines=False, time_limit=5)
    assert str(caught.value).endswith("try the other solver (--solver cbc or highs)")
