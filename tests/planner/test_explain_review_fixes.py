"""A review's findings on the explanations of a scenario without a fleet (engine.explain): a least fleet that
sells owned cards and buys new ones of the same card called them all "owned", custom cards were named only
by their GPU, and a card's min_units that no purchase month can reach was reported as unmet demand."""

from __future__ import annotations

import pytest

from planner import load_scenario, plan
from planner.errors import InfeasibleError

OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,"
          "1.5,0.0,USD,0,,2026-07-20,test,\n")

SCENARIO = """\
name: explanations
currency: USD
horizon_months: {horizon}
prices: {{source: {offers}, providers: [aws], purchase_options: [on_demand]}}
onprem:
  purchase_every_months: {every}
  custom_cards:
    c0: {{gpu: A10G, price: 2000, host_cost_per_card: 200, busy_watts: 400, idle_watts: 50, life_years: {life}}}
  {extra}
constraints:
  {limits}
workloads:
  - {{name: w, gpu_hours_per_month: 300, reference_gpu: A10G, throughput: {{A10G: 1.0}}}}
"""


def _scenario(tmp_path, **fields) -> str:
    (tmp_path / "offers.csv").write_text(OFFERS)
    return SCENARIO.format(offers=tmp_path / "offers.csv", **fields)


def test_a_least_fleet_that_sells_an_owned_card_and_buys_one_prices_the_bought_one(tmp_path):
    # two c0 owned, 5 months old with a life of 9 months: they serve months 1-4. At most one c0 in service
    # (max_units), at least one (min_units): one owned card is kept, the other sold (switching off is not
    # allowed), and one is bought in month 5, the next purchase month, at 2,000 + 200 = 2,200 USD — over the
    # 2,000 a year allowed. The least fleet holds 2 cards: 1 owned, 1 bought (it had said "2 × A10G (owned)")
    text = _scenario(tmp_path, horizon=12, every=4, life=0.75,
                     extra="existing: {c0: {count: 2, age_months: 5}}\n  switch_off_owned: false\n"
                           "  capex_budget_per_year: 2000",
                     limits="min_units: {c0: 1}\n  max_units: {c0: 1}")
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(text), baselines=False)
    assert str(info.value) == ("recommended: capex budget per year 2,000 USD < 2,200 USD needed in some year at the "
                               "least: 2 × c0 (A10G, 1 owned, 2,200 USD for the others) "
                               "(constraints.min_units.c0 = 1)")


def test_a_min_units_no_purchase_month_can_reach_is_named(tmp_path):
    # a life of 3 months (0.25 years) and one purchase month (every 7 months over 7): no c0 serves months 4-7,
    # so min_units 1 cannot hold there, whatever the demand — not "no fleet meets the demand"
    text = _scenario(tmp_path, horizon=7, every=7, life=0.25, extra="", limits="min_units: {c0: 1}")
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(text), baselines=False)
    assert str(info.value) == ("recommended: min_units.c0 = 1 cannot be met in months 4-7: no c0 can serve then (a "
                               "life of 3 months, bought in month 1); buy more often (onprem.purchase_every_months) "
                               "or lower min_units.c0")
    # bought every 3 months (months 1, 4, 7) it can: a plan
    assert plan(load_scenario(text.replace("purchase_every_months: 7", "purchase_every_months: 3")),
                baselines=False).status == "optimal"
