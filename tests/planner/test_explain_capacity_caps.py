"""The limits an infeasibility explanation names beside the on-prem capacity it says holds a cloud share, and the rule
on owned cards beside a power cap they alone pass (engine.explain). An audit read "on-prem capacity is limited to 2 ×
RTX-A5000 (1 owned, 2,500 USD for the others)" with no word of the power cap or the budget that held it there, and
"power cap 0.3 kW < 0.40 kW needed at the least: 1 × RTX-A5000 (400 W, owned)" with no word of onprem.sell_owned
and onprem.switch_off_owned, which the scenario had set false. A review then found arithmetic on the fleet named (one
card more, at the epoch of most power) wrong for whole boards, several card types, owned cards retiring, max_units
and the total budget: each limit is now dropped in turn and the least cloud share solved again.

Hand figures: an RTX-A5000 costs 2,000 + 500 host = 2,500 USD, draws 400 W busy and works 0.9 × 730 = 657 h a
month; one is owned. The demand, 1,600 h in month 1 growing 5 % a month, totals 1,600 × (1.05^24 − 1) / 0.05 =
71,203 h over the 24 months (2 plan years)."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import InfeasibleError

ROOT = Path(__file__).resolve().parents[2]
OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"
TOTAL = 1600 * (1.05 ** 24 - 1) / 0.05   # 71,203 h
CARD = 0.9 * 730                          # 657 h a month

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
  existing: {{rtx-a5000: {{count: {owned_count}, age_months: {age}}}}}
  power_cap_kw: {power}
  {onprem}
workloads:
  - {{name: training, gpu_hours_per_month: 1600, reference_gpu: RTX-A5000, min_gpu_memory_gb: 16, profile: flat,
     growth_per_month: {growth}, throughput: {{RTX-A5000: 1.0, A10G: 0.8}}}}
{constraints}
"""


def _infeasible(text: str) -> str:
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(text), baselines=False)
    return str(info.value)


def _explanation(power: float, onprem: str = "capex_budget_per_year: 2500", growth: float = 0.05, owned_count: int = 1,
                 age: int = 12, constraints: str = "constraints: {max_cloud_share: 0.1}") -> str:
    return _infeasible(SCENARIO.format(offers=OFFERS, power=power, onprem=onprem, growth=growth,
                                       owned_count=owned_count, age=age, constraints=constraints))


def _pct(share: float) -> str:
    return f"{100 * share:.1f} %"


def _share(monthly_cards) -> float:
    """The cloud share where the cards in service in each month (1-24) work up to that month's demand."""
    work = sum(min(1600 * 1.05 ** m, n * CARD) for m, n in enumerate(monthly_cards))
    return 1 - work / TOTAL


def test_a_1_kw_power_cap_holds_two_cards_and_without_it_the_budget_buys_a_third_in_year_2():
    # 2 × 400 W = 0.8 kW ≤ 1 kW < 3 × 400 W: the owned card and one bought (year 1's 2,500 USD); without the power
    # cap year 2's 2,500 USD buy a third from month 13. Without the budget the power cap still holds 2: no lower
    assert round(_share([2] * 24), 3) == round(1 - 2 * CARD * 24 / TOTAL, 3) == 0.557   # the review's figures
    assert round(_share([2] * 12 + [3] * 12), 3) == 0.446
    text = _explanation(1.0)
    assert (f"max_cloud_share 0.1 < {_share([2] * 24):.3f} needed at the least: on-prem capacity is limited to "
            "2 × RTX-A5000 (1 owned, 2,500 USD for the others), held there by the power cap of 1 kW (without it "
            f"the least cloud share is {_pct(_share([2] * 12 + [3] * 12))})") in text, text
    assert "capex budget" not in text and "raise" not in text


def test_a_1_2_kw_power_cap_has_room_for_a_third_card_the_yearly_budget_buys_in_year_2_only():
    # 3 × 400 W = 1.2 kW: the power cap has room for 3 cards from month 1, but 2,500 USD a year buy one a year; without
    # the budget 3 serve all 24 months (up to the demand in months 1-5). Without the power cap the budget holds it
    text = _explanation(1.2)
    assert (f"needed at the least: on-prem capacity is limited to 3 × RTX-A5000 (1 owned, 2,500 USD each for the "
            "others), held there by the capex budget per year of 2,500 USD (without it the least cloud share is "
            f"{_pct(_share([3] * 24))})") in text, text
    assert _pct(_share([3] * 24)) == "35.0 %"
    assert "power cap of" not in text


def test_a_budget_alone_holds_the_cards_where_the_power_cap_has_room():
    # 100 kW holds any fleet here: without the budget, cards enough for all the work
    text = _explanation(100)
    assert ("on-prem capacity is limited to 3 × RTX-A5000 (1 owned, 2,500 USD each for the others), held there by "
            "the capex budget per year of 2,500 USD (without it the least cloud share is 0.0 %)") in text, text
    assert "the power cap of" not in text


def test_a_card_at_its_max_units_names_that_maximum():
    # 100 kW and 100,000 USD a year hold any fleet here; max_units 2 holds the owned card and one more
    text = _explanation(100, onprem="capex_budget_per_year: 100000",
                        constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 2}}")
    assert ("on-prem capacity is limited to 2 × RTX-A5000 (1 owned, 2,500 USD for the others), held there by "
            "constraints.max_units.rtx-a5000 = 2 (without it the least cloud share is 0.0 %)") in text, text


def test_a_max_units_the_power_cap_keeps_below_is_not_named_though_more_cards_are_held_over_the_plan():
    # 3 owned cards retire after month 12 (48-month lives, 36 months old); 3 bought from month 13 replace them: 6
    # held over the plan, never more than 3 (1.2 kW) in service, below max_units 5. Without the power cap, 5 in service
    # (the maximum then binds), and the share falls to 10.0 %; without max_units, the power cap still holds 3
    text = _explanation(1.2, onprem="capex_budget_per_year: 100000", owned_count=3, age=36,
                        constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 5}}")
    assert (f"max_cloud_share 0.1 < {_share([3] * 24):.3f} needed at the least: on-prem capacity is limited to "
            "3 × RTX-A5000 (2,500 USD each), held there by the power cap of 1.2 kW (without it the least cloud share "
            f"is {_pct(_share([5] * 24))})") in text, text
    assert "max_units" not in text


def test_the_total_budget_is_named_where_the_yearly_one_holds_nothing_it_does_not():
    # 2,500 USD in all buy one card; 2,500 USD a year would buy one a year (a third from month 13)
    text = _explanation(100, onprem="capex_budget_per_year: 2500\n  capex_budget: 2500")
    assert ("on-prem capacity is limited to 2 × RTX-A5000 (1 owned, 2,500 USD for the others), held there by the "
            f"capex budget of 2,500 USD (without it the least cloud share is {_pct(_share([2] * 12 + [3] * 12))})"
            ) in text, text
    assert "per year" not in text


def test_limits_that_hold_the_cards_only_together_are_said_to():
    # the owned card's 400 W fill the 0.4 kW cap and 0 USD a year buy nothing: dropping either alone buys nothing;
    # without both, cards enough for all the work
    text = _explanation(0.4, onprem="capex_budget_per_year: 0")
    assert (f"max_cloud_share 0.1 < {_share([1] * 24):.3f} needed at the least: on-prem capacity is limited to "
            "1 × RTX-A5000 (owned), held there by the power cap of 0.4 kW and the capex budget per year of 0 USD "
            "together (without them all the least cloud share is 0.0 %; with any one of them kept it is no less)"
            ) in text, text


def test_whole_boards_under_a_power_cap_name_the_cap_and_no_one_gpu_more():
    # hgx-h100-8gpu is sold as whole boards of 8 GPUs, 1,275 W each: 10.2 kW a board, 20.4 kW for two, over the
    # 11 kW cap. One board works 8 × 657 = 5,256 of 12,000 h a month; without the cap 3 boards do all of it
    text = _infeasible(f"""\
name: hgx
currency: USD
horizon_months: 12
prices: {{source: {OFFERS}, providers: [aws], purchase_options: [on_demand]}}
onprem:
  availability: 0.9
  cards: [hgx-h100-8gpu]
  power_cap_kw: 11
workloads:
  - {{name: training, gpu_hours_per_month: 12000, reference_gpu: H100-SXM, profile: flat,
     throughput: {{H100-SXM: 1.0, A10G: 0.3}}}}
constraints: {{max_cloud_share: 0.1}}
""")
    share = 1 - 8 * CARD / 12000
    assert (f"max_cloud_share 0.1 < {share:.3f} needed at the least: on-prem capacity is limited to 8 × "
            "hgx-h100-8gpu (H100-SXM, 39,625 USD each), held there by the power cap of 11 kW (without it the least "
            "cloud share is 0.0 %)") in text, text
    assert "more" not in text and "raise" not in text


def test_two_card_types_each_held_by_a_different_cap():
    # an owned c0 (400 W) that may not leave service; c0 costs 2,200 USD, c1 (100 W) 5,000. Under 0.5 kW only a c1
    # more fits, which the 4,500 USD budget cannot buy; the budget buys two c0, which the power cap has no room for.
    # 730 h a card of 2,000 a month: 1 card leaves 63.5 % to the cloud; without the power cap 3 c0 do all of it;
    # without the budget one c1 more: 2 cards, 27.0 %
    text = _infeasible(f"""\
name: two
currency: USD
horizon_months: 24
prices: {{source: {OFFERS}, providers: [aws], purchase_options: [on_demand]}}
onprem:
  availability: 1.0
  custom_cards:
    c0: {{gpu: A10G, price: 2000, host_cost_per_card: 200, busy_watts: 400, idle_watts: 50, life_years: 5}}
    c1: {{gpu: A10G, price: 5000, host_cost_per_card: 0, busy_watts: 100, idle_watts: 20, life_years: 5}}
  existing: {{c0: 1}}
  sell_owned: false
  switch_off_owned: false
  power_cap_kw: 0.5
  capex_budget: 4500
constraints: {{max_cloud_share: 0.1}}
workloads:
  - {{name: w, gpu_hours_per_month: 2000, reference_gpu: A10G, throughput: {{A10G: 1.0}}}}
""")
    assert (f"max_cloud_share 0.1 < {1 - 730 / 2000:.3f} needed at the least: on-prem capacity is limited to 1 × c0 "
            "(A10G, owned), held there by the power cap of 0.5 kW (without it the least cloud share is 0.0 %) and the "
            f"capex budget of 4,500 USD (without it {_pct(1 - 2 * 730 / 2000)})") in text, text


def test_b_an_owned_card_above_the_power_cap_that_may_be_neither_sold_nor_switched_off_says_so():
    # the owned card alone draws 400 W = 0.40 kW > 0.3 kW, and the scenario keeps it working
    text = _explanation(0.3, growth=0, onprem="sell_owned: false\n  switch_off_owned: false", constraints="")
    assert ("power cap 0.3 kW < 0.40 kW needed at the least: 1 × RTX-A5000 (400 W, owned); the owned cards alone, "
            "1 × RTX-A5000 (400 W), draw 0.40 kW, and onprem.sell_owned and onprem.switch_off_owned are false: "
            "allow either to take them out of service") in text, text


def test_b_owned_cards_within_the_power_cap_get_no_such_hint():
    # 1,600 h a month: a cloud share of 10 % leaves 1,440 h on-prem, 3 cards (2 give 1,314 h), 3 × 400 W = 1.20 kW;
    # the owned card's 0.40 kW fit the 0.5 kW cap
    text = _explanation(0.5, growth=0, onprem="capex_budget_per_year: 100000\n  sell_owned: false\n"
                        "  switch_off_owned: false")
    assert "power cap 0.5 kW < 1.20 kW needed at the least" in text, text
    assert "owned cards alone" not in text and "onprem.sell_owned" not in text
    # the cloud share: the owned card alone, 1,600 − 657 h in the cloud; without the power cap 3 cards do all of it
    assert (f"max_cloud_share 0.1 < {1 - CARD / 1600:.3f} needed at the least: on-prem capacity is limited to 1 × "
            "RTX-A5000 (owned), held there by the power cap of 0.5 kW (without it the least cloud share is 0.0 %)"
            ) in text, text


UNPRICED = """\
name: unpriced
currency: USD
horizon_months: 24
prices: {{source: {offers}, providers: [aws], purchase_options: [on_demand]}}
onprem:
  availability: 0.9
  cards: []
  custom_cards:
    p0: {{gpu: A10G, price: 1000, host_cost_per_card: 0, busy_watts: 100, idle_watts: 10, life_years: 5}}
  existing: {{rtx-a5000: {{count: 1, age_months: 12}}{p0}}}
  sell_owned: {sell}
  switch_off_owned: false
  power_cap_kw: {power}
workloads:
  - {{name: training, gpu_hours_per_month: 1600, reference_gpu: RTX-A5000, min_gpu_memory_gb: 16, profile: flat,
     throughput: {{RTX-A5000: 1.0, A10G: 0.8}}}}
"""


@pytest.mark.parametrize("sell", ["true", "false"])
def test_b_an_owned_card_with_no_resale_price_is_taken_out_of_service_only_by_switching_it_off(sell):
    # the catalog's rtx-a5000 has no sourced price (its owned cards are never sold, Inputs.may_sell) and draws 414 W
    # busy, over 0.3 kW: allowing onprem.sell_owned (false) would not help, and with it true (it is) the hint still holds
    text = _infeasible(UNPRICED.format(offers=OFFERS, p0="", sell=sell, power=0.3))
    assert ("power cap 0.3 kW < 0.41 kW needed at the least: 1 × RTX-A5000 (414 W, owned); the owned cards with no "
            "resale price alone, 1 × RTX-A5000 (414 W), draw 0.41 kW, and are never sold: only switching it off "
            "(onprem.switch_off_owned, false) takes it out of service") in text, text
    assert "allow either" not in text


def test_b_priced_owned_cards_beside_an_unpriced_one_may_be_sold_to_meet_the_cap():
    # 2 × 100 W (p0, priced) + 414 W = 0.61 kW over 0.5 kW; selling both p0 would leave 0.41 kW: either rule helps,
    # selling only the p0
    text = _infeasible(UNPRICED.format(offers=OFFERS, p0=", p0: 2", sell="false", power=0.5))
    assert ("the owned cards alone, 2 × p0 (A10G, 100 W) + 1 × RTX-A5000 (414 W), draw 0.61 kW, and onprem.sell_owned and "
            "onprem.switch_off_owned are false: allow either to take them out of service (selling, those with a "
            "resale price only: not RTX-A5000)") in text, text


def test_a_max_units_above_the_cards_the_fleet_holds_is_not_solved_again(monkeypatch):
    # the least fleet at 1 kW holds 2 RTX-A5000s: a maximum of 50 bounds cards in service it never reaches, so only the
    # power cap and the yearly budget are dropped in turn. With a maximum of 2 it is a third limit, and as the power
    # cap holds 2 cards too, none lowers the least alone: one more solve drops them all (0 % without them), and two
    # more keep the power cap, then the budget (the third, kept with the other two dropped alone, was solved already)
    from planner.engine import explain

    dropped = []
    solve_without = explain._least_without
    monkeypatch.setattr(explain, "_least_without", lambda inp, *a: dropped.append(inp.caps) or solve_without(inp, *a))
    text = _explanation(1.0, constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 50}}")
    assert len(dropped) == 2 and "max_units" not in text
    dropped.clear()
    text = _explanation(1.0, constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 2}}")
    assert len(dropped) == 6 and "constraints.max_units.rtx-a5000 = 2 together" in text


def test_b_an_owned_custom_card_is_named_alike_in_the_fleet_and_in_the_owned_cards_over_the_cap():
    # two owned p0 (a custom card of an A10G) draw 2 × 200 W = 0.40 kW over 0.3 kW and may neither be sold nor
    # switched off: the least fleet is those two, and the owned cards alone are the same two, named the same way
    text = _infeasible(UNPRICED.format(offers=OFFERS, p0="", sell="false", power=0.3)
                       .replace("existing: {rtx-a5000: {count: 1, age_months: 12}}", "existing: {p0: 2}")
                       .replace("busy_watts: 100", "busy_watts: 200"))
    assert ("power cap 0.3 kW < 0.40 kW needed at the least: 2 × p0 (A10G, 200 W, owned); the owned cards alone, "
            "2 × p0 (A10G, 200 W), draw 0.40 kW, and onprem.sell_owned and onprem.switch_off_owned are false") in text, text


def test_of_limits_that_hold_the_cards_only_together_the_fewest_that_do_are_named():
    # at 1 kW the power cap holds 2 cards (0.8 kW), as max_units 2 does, and the yearly 2,500 USD buy the second in
    # year 1: dropping any one alone leaves 2 cards. Dropping the power cap and max_units leaves the budget, which buys
    # a third in year 2 (44.6 %): the budget is not needed. Keeping the power cap (max_units and the budget dropped) or
    # max_units (the power cap and the budget) holds 2 cards: both are
    text = _explanation(1.0, constraints="constraints: {max_cloud_share: 0.1, max_units: {rtx-a5000: 2}}")
    assert (f"max_cloud_share 0.1 < {_share([2] * 24):.3f} needed at the least: on-prem capacity is limited to "
            "2 × RTX-A5000 (1 owned, 2,500 USD for the others), held there by the power cap of 1 kW and "
            "constraints.max_units.rtx-a5000 = 2 together (without them all the least cloud share is "
            f"{_pct(_share([2] * 12 + [3] * 12))}; with any one of them kept it is no less)") in text, text
    assert "capex budget" not in text
