"""A serving workload rents whole instances in each slot, so the break-even table's cloud rate per reference hour is
the least its cloud work can cost, and the card breaks even at the utilisation shown or less; its rows say so, and a
batch workload's rows against the same offer do not (a review of the break-even table, 2026-12-06).

By hand: one A100 instance at 3.67 USD an hour doing 1 reference hour an hour: c = 3.67 for both workloads. The card
(10,000 USD, no host, 5-year life, resale 0.5 × straight-line book, no maintenance) bought in month 1 and held 12
months: cash 10,000 − 0.5 × 10,000 × (1 − 12/60) = 6,000 over 12 months, F = 500 USD a month; its busy hour costs
0.5 kW × 1.4 × 0.10 = 0.07 USD (idle draw 0 W); u* = 500 / (730 × (3.67 − 0.07)) = 0.190259.
"""

from __future__ import annotations

import pytest

from planner import plan
from planner.engine.readback import SERVING_NOTE
from tests.planner.test_serving_instances_under_cap import OFFER  # one A100 instance at 3.67 USD an hour

SCENARIO = """\
name: serving break-even
currency: USD
horizon_months: 12
prices: {{source: {offers}, providers: [azure], regions: [eastus], purchase_options: [on_demand]}}
onprem:
  electricity_per_kwh: 0.10
  pue: 1.4
  availability: 0.97
  cards: []
  custom_cards:
    a100c: {{gpu: A100-80GB-PCIE, price: 10000, host_cost_per_card: 0, busy_watts: 500, idle_watts: 0,
             life_years: 5, maintenance_rate_per_year: 0.0}}
  resale: {{method: straight_line, share_of_book: 0.5}}
workloads:
  - name: chat
    gpu_hours_per_month: 1000
    reference_gpu: A100-80GB-PCIE
    throughput: {{A100-80GB-PCIE: 1.0}}
    serving: true
  - name: batch
    gpu_hours_per_month: 1000
    reference_gpu: A100-80GB-PCIE
    throughput: {{A100-80GB-PCIE: 1.0}}
"""


def test_a_serving_row_says_its_cloud_rate_is_a_floor_and_a_batch_row_does_not(tmp_path):
    offers = tmp_path / "offers.csv"
    offers.write_text(OFFER, encoding="utf-8")
    p = plan(SCENARIO.format(offers=offers), baselines=False)
    rows = {r["workload"]: r for r in p.break_even.to_dict("records")}
    u_star = 500 / (730 * (3.67 - 0.5 * 1.4 * 0.10))
    for name in ("chat", "batch"):
        assert rows[name]["cloud_cost_per_reference_hour"] == pytest.approx(3.67)
        assert rows[name]["card_fixed_cost_per_month"] == pytest.approx(500)
        assert rows[name]["break_even_utilisation"] == pytest.approx(u_star, rel=1e-6)
    assert rows["chat"]["note"] == SERVING_NOTE
    assert "whole instances" in SERVING_NOTE and "or less" in SERVING_NOTE
    assert rows["batch"]["note"] == ""


def test_a_serving_row_above_availability_says_cloud_is_cheaper_only_at_full_instances(tmp_path):
    offers = tmp_path / "offers.csv"
    offers.write_text(OFFER.replace(",3.67,", ",0.40,"), encoding="utf-8")   # u* = 500 / (730 × 0.33) = 2.08 > 0.97
    p = plan(SCENARIO.format(offers=offers), baselines=False)
    rows = {r["workload"]: r for r in p.break_even.to_dict("records")}
    assert rows["chat"]["break_even_utilisation"] == pytest.approx(500 / (730 * (0.40 - 0.07)), rel=1e-6)
    assert rows["chat"]["note"] == f"above availability: cloud is cheaper when its instances are fully used; {SERVING_NOTE}"
    assert rows["batch"]["note"] == "above availability: cloud is cheaper"
