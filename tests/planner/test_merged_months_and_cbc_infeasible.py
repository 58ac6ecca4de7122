"""Two findings of a review against an independent oracle (docs/cost-model.md's formulas, every fleet
enumerated, dispatch solved as an LP):

- months of equal demand merged into one period are not interchangeable when the cloud-share cap (one row
  over the whole horizon) meets discounting: the work the cap keeps on-prem is cheapest in the latest months;
- CBC proves some scenarios infeasible in its preprocessing and returns no solution: that is "infeasible"
  (exit 1, with the reason), not "the solver stopped without an answer" (exit 3).
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.errors import InfeasibleError

OFFER = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
         "gpu_memory_mib,vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
         "aws:us-east-1:od1:on_demand,aws,us-east-1,od1,on_demand,A10G,True,A10G,1.0,24.0,,8,32,{hourly},0.0,USD,0,,"
         "2026-01-01,test,\n")

# One owned card that must keep working (1,000 W busy, 0 W idle, 0.5 USD/kWh at PUE 1: 0.5 USD a busy
# hour), cloud at 0.05 USD an hour of the same work, 365 GPU-hours every month, at most half of the work
# in the cloud: 2,190 of the year's 4,380 hours on the card. Months 1-12 are one fleet epoch.
SCENARIO = """\
name: merged months and the cloud share
currency: USD
horizon_months: 12
discount_rate: {rate}
prices: {{source: {offers}, providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}}
onprem:
  electricity_per_kwh: 0.5
  pue: 1.0
  availability: 1.0
  cards: []
  custom_cards:
    c0: {{gpu: RTX-A6000, price: 1000, busy_watts: 1000, idle_watts: 0, life_years: 5}}
  existing: {{c0: 1}}
  purchase_every_months: 12
  sell_owned: false
  switch_off_owned: false
workloads:
  - name: w
    gpu_hours_per_month: 365
    reference_gpu: RTX-A6000
    throughput: {{RTX-A6000: 1.0, A10G: 1.0}}
constraints:
  max_cloud_share: 0.5
"""


def _scenario(tmp_path, rate: float) -> str:
    offers = tmp_path / "offers.csv"
    offers.write_text(OFFER.format(hourly=0.05))
    return SCENARIO.format(rate=rate, offers=offers)


def _by_hand(rate: float) -> float:
    """The cheapest year: the card's 2,190 hours in the latest months (6 × 365), where discounting makes
    them cheapest, the cloud's in months 1-6; the owned card (1,000 USD, 5-year life) sold after the
    horizon at 0.5 × its straight-line book value, 1,000 × (1 − 12/60), credited in month 13."""
    d = [(1 + rate) ** (-(m - 1) / 12) for m in range(1, 14)]
    cloud = sum(d[m - 1] * 365 * 0.05 for m in range(1, 7))
    card = sum(d[m - 1] * 365 * 0.5 for m in range(7, 13))
    return cloud + card - 0.5 * 1000 * (1 - 12 / 60) * d[12]


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_with_discounting_the_cap_puts_on_prem_work_in_the_latest_months(tmp_path, solver):
    expected = _by_hand(0.5)
    spread_evenly = (sum((1.5 ** (-(m - 1) / 12)) * 182.5 * 0.55 for m in range(1, 13))
                     - 400 * 1.5 ** (-1))
    assert spread_evenly > expected * 1.1   # what merging all twelve months into one period gave
    text = _scenario(tmp_path, 0.5)
    reduced = plan(text, solver=solver, baselines=False)
    assert reduced.total == pytest.approx(expected, rel=1e-7)
    assert plan(text, solver=solver, baselines=False, reduced=False).total == pytest.approx(expected, rel=1e-7)
    energy = reduced.monthly.set_index("month")["energy"]
    assert energy.loc[1:6].abs().max() < 1e-6 and energy.loc[7:12].min() > 0


def test_without_discounting_equal_months_still_merge_and_cost_the_same(tmp_path):
    text = _scenario(tmp_path, 0.0)
    reduced, unreduced = plan(text, baselines=False), plan(text, baselines=False, reduced=False)
    assert reduced.total == pytest.approx(_by_hand(0.0), rel=1e-7)
    assert unreduced.total == pytest.approx(reduced.total, rel=1e-7)
    assert reduced.solver["periods"] < unreduced.solver["periods"]


INFEASIBLE = """\
name: cbc proves it infeasible
currency: USD
horizon_months: 6
prices: {{source: {offers}, providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}}
onprem:
  cards: []
  custom_cards:
    c0: {{gpu: RTX-4090, price: 1500, host_cost_per_card: 500, busy_watts: 450, idle_watts: 60, life_years: 3}}
  capex_budget: 1000
workloads:
  - name: w
    gpu_hours_per_month: 400
    reference_gpu: RTX-4090
    throughput: {{RTX-4090: 1.0, A10G: 0.5}}
constraints:
  max_cloud_share: 0.5
"""


def test_cbc_reports_a_scenario_it_proves_infeasible_as_infeasible(tmp_path):
    # half the work must be on a card, and one card costs 1,500 + 500 = 2,000 USD against a budget of 1,000
    (tmp_path / "offers.csv").write_text(OFFER.format(hourly=0.5))
    path = tmp_path / "s.yaml"
    path.write_text(INFEASIBLE.format(offers=tmp_path / "offers.csv"))
    for solver in ("highs", "cbc"):
        with pytest.raises(InfeasibleError, match="capex budget 1,000 USD < 2,000 USD"):
            plan(path, solver=solver, baselines=False)
        result = CliRunner().invoke(app, ["plan", str(path), "--solver", solver, "--no-decisions", "--no-baselines"])
        assert result.exit_code == 1, (solver, result.output)
