"""The caps an infeasibility explanation names beside the on-prem capacity it says limits a cloud share, and the rule
on owned cards beside a power cap they alone pass (engine.explain). An audit read "on-prem capacity is limited to 2 ×
RTX-A5000 (1 owned, 2,500 USD for the others)" with no word of the power cap or the budget that held it there, and
"power cap 0.3 kW < 0.40 kW needed at the least: 1 × RTX-A5000 (400 W, owned)" with no word of onprem.sell_owned
and onprem.switch_off_owned, which the scenario had set false.

Hand figures: an RTX-A5000 costs 2,000 + 500 host = 2,500 USD and draws 400 W busy; one is owned. The capex budget
of 2,500 USD a year buys one card a year over the 24 months (2 plan years)."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import InfeasibleError

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = """\
name: hand1
currency: USD
horizon_months: 24
discount_rate: 0.0
prices: {{source: {offers}, providers: [aws], purchase_options: [on_demand]}}
onprem:
  electricity_per_kwh: 0.20
  pue: 1.5
  availability: 0.9
  cards: [rtx-a5000]
  card_overrides:
    rtx-a5000: {{price: 2000, currency: USD, host_cost_per_card: 500, busy_watts: 400, idle_watts: 100, life_years: 4,
                maintenance_rate_per_year: 0.05}}
  existing: {{rtx-a5000: {{count: 1, age_months: 12}}}}
  capex_budget_per_year: {budget}
  power_cap_kw: {power}
  {owned}
workloads:
  - {{name: training, gpu_hours_per_month: 1600, reference_gpu: RTX-A5000, min_gpu_memory_gb: 16, profile: flat,
     growth_per_month: {growth}, throughput: {{RTX-A5000: 1.0, A10G: 0.8}}}}
{constraints}
"""


def _explanation(power: float, growth: float = 0.05, budget: float = 2500, owned: str = "",
                 constraints: str = "constraints: {max_cloud_share: 0.1}") -> str:
    text = SCENARIO.format(offers=ROOT / "examples" / "offers-g5-us-east-1.csv", power=power, growth=growth,
                           budget=budget, owned=owned, constraints=constraints)
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(text), baselines=False)
    return str(info.value)


def test_a_1_kw_power_cap_holds_two_cards_and_a_third_needs_1_2_kw():
    # 2 × 400 W = 0.8 kW ≤ 1 kW < 3 × 400 W = 1.2 kW; the second card is bought in year 1 with its 2,500 USD, and
    # year 2's 2,500 USD buy none only because no third card fits the power cap: the budget is not what holds it
    text = _explanation(1.0)
    assert ("on-prem capacity is limited to 2 × RTX-A5000 (1 owned, 2,500 USD for the others), held there by the "
            "power cap of 1 kW (2 × 400 W = 0.8 kW in service; 1 × RTX-A5000 (400 W) more makes 1.2 kW: raise "
            "onprem.power_cap_kw to 1.2 for it)") in text, text
    assert "capex budget" not in text


def test_a_1_2_kw_power_cap_and_the_yearly_budget_both_hold_three_cards():
    # 3 × 400 W = 1.2 kW ≤ 1.2 kW < 4 × 400 W = 1.6 kW; the budget buys one card in year 1 (2,500 of 2,500 USD)
    # while the power cap has room for 1 + 1 + 1 = 3 cards then: a second card that year needs 2 × 2,500 = 5,000 USD
    text = _explanation(1.2)
    assert ("on-prem capacity is limited to 3 × RTX-A5000 (1 owned, 2,500 USD each for the others), held there by "
            "the power cap of 1.2 kW (3 × 400 W = 1.2 kW in service; 1 × RTX-A5000 (400 W) more makes 1.6 kW: raise "
            "onprem.power_cap_kw to 1.6 for it) and by the capex budget per year of 2,500 USD (2,500 USD spent in "
            "year 1; 1 × RTX-A5000 (2,500 USD) more makes 5,000 USD: raise onprem.capex_budget_per_year to 5,000 "
            "for it)") in text, text


def test_a_budget_alone_holds_the_cards_where_the_power_cap_has_room():
    # 100 kW holds any fleet here: the budget's one card a year is all, full in both years
    text = _explanation(100)
    assert ("on-prem capacity is limited to 3 × RTX-A5000 (1 owned, 2,500 USD each for the others), held there by "
            "the capex budget per year of 2,500 USD (2,500 USD spent in year 1, also full in year 2; 1 × RTX-A5000 "
            "(2,500 USD) more makes 5,000 USD: raise onprem.capex_budget_per_year to 5,000 for it)") in text, text
    assert "the power cap of" not in text


def test_b_an_owned_card_above_the_power_cap_that_may_be_neither_sold_nor_switched_off_says_so():
    # the owned card alone draws 400 W = 0.40 kW > 0.3 kW, and the scenario keeps it working
    text = _explanation(0.3, growth=0, owned="sell_owned: false\n  switch_off_owned: false", constraints="")
    assert ("power cap 0.3 kW < 0.40 kW needed at the least: 1 × RTX-A5000 (400 W, owned); the owned cards alone, "
            "1 × RTX-A5000 (400 W), draw 0.40 kW, and onprem.sell_owned and onprem.switch_off_owned are false: "
            "allow either to take them out of service") in text, text


def test_b_owned_cards_within_the_power_cap_get_no_such_hint():
    # 1,600 h a month, a card works 0.9 × 730 = 657 h: a cloud share of 10 % leaves 1,440 h on-prem, 3 cards
    # (2 give 1,314 h), 3 × 400 W = 1.20 kW; the owned card's 0.40 kW fit the 0.5 kW cap
    text = _explanation(0.5, growth=0, budget=100000, owned="sell_owned: false\n  switch_off_owned: false")
    assert "power cap 0.5 kW < 1.20 kW needed at the least" in text, text
    assert "owned cards alone" not in text and "onprem.sell_owned" not in text


def test_a_card_at_its_max_units_names_that_maximum():
    # 100 kW and 100,000 USD a year hold any fleet here; max_units 2 holds the owned card and one more
    text = _explanation(100, budget=100000, constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 2}}")
    assert ("on-prem capacity is limited to 2 × RTX-A5000 (1 owned, 2,500 USD for the others), held there by "
            "constraints.max_units.rtx-a5000 = 2") in text, text
