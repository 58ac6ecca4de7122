"""A card the plan holds more of than its min_units is searched for its flip point with the minimum kept: relaxed, an
audit's plan holding 5 RTX A5000 against a minimum of 1 at 700 GPU-hours a month was searched as if today's demand
did not buy them, and its flip point came out above today (1,607.6), while the plan holds 5 at 700 and 4 at 500
(2026-12-07). The audit's brute force (its own cost arithmetic over every purchase schedule, 12-monthly purchases,
36 months): 4 cards are best at 500 and 5 at 510 GPU-hours a month, so the flip lies between them.

Where the minimum holds every card the plan has even at zero demand (a one-year card bought again in month 13 to keep
one in service), the search relaxes it, as it always did for a card the minimum forces."""

from __future__ import annotations

from planner import plan
from planner.engine import add_decisions

OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,1.006,"
          "0.0,USD,0,,2026-07-20,audit,\n"
          "azure:eastus:nvL4:on_demand,azure,eastus,nvL4,on_demand,L4,True,L4,1.0,24.0,8.0,32.0,0.90,0.0,USD,0,,"
          "2026-07-20,audit,\n")

AUDIT = """\
name: S5 sell owned, min units, yearly budget
currency: USD
horizon_months: 36
discount_rate: 0.10
prices: {source: offers.csv, providers: [aws], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.30
  pue: 1.6
  availability: 0.9
  purchase_every_months: 12
  cards: [rtx-a5000]
  existing: {rtx-4090: {count: 3, age_months: 6}}
  card_overrides:
    rtx-a5000: {price: 2000, currency: USD, host_cost_per_card: 500, busy_watts: 400, idle_watts: 100,
                life_years: 2, maintenance_rate_per_year: 0.05}
    rtx-4090: {price: 1700, currency: USD, host_cost_per_card: 500, busy_watts: 650, idle_watts: 200,
                life_years: 3, maintenance_rate_per_year: 0.15}
  capex_budget_per_year: 5000
constraints:
  min_units: {rtx-a5000: 1}
workloads:
  - {name: training, gpu_hours_per_month: 700, growth_per_month: 0.05, reference_gpu: RTX-A5000, min_gpu_memory_gb: 16,
     throughput: {RTX-A5000: 1.0, RTX-4090: 1.25, A10G: 0.8}}
"""

FORCED = """\
name: forced replacements
currency: USD
horizon_months: 24
prices: {source: offers.csv, providers: [aws], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.30
  pue: 1.6
  purchase_every_months: 12
  cards: [rtx-a5000]
  card_overrides:
    rtx-a5000: {price: 2000, currency: USD, host_cost_per_card: 500, busy_watts: 400, idle_watts: 100,
                life_years: 1, maintenance_rate_per_year: 0.05}
constraints:
  min_units: {rtx-a5000: 1}
workloads:
  - {name: training, gpu_hours_per_month: 100, reference_gpu: RTX-A5000, throughput: {RTX-A5000: 1.0, A10G: 0.8}}
"""


def _flip(tmp_path, text: str):
    (tmp_path / "offers.csv").write_text(OFFERS)
    path = tmp_path / "s.yaml"
    path.write_text(text)
    p = plan(path)
    add_decisions(p)
    (row,) = p.flip_points.to_dict("records")
    return row


def test_a_card_held_above_its_minimum_flips_where_the_plan_as_written_holds_fewer(tmp_path):
    row = _flip(tmp_path, AUDIT)
    assert (row["card"], row["units"], row["demand_today"]) == ("rtx-a5000", 5, 700)
    assert 500 < row["flip_demand"] < 510, row
    assert "relaxed" not in row["note"] and row["note"].startswith("fewer held just below it (4 held at"), row["note"]


def test_a_card_the_minimum_holds_at_zero_demand_is_searched_with_it_relaxed(tmp_path):
    # one card of a one-year life kept in service over 24 months: 2 bought (months 1 and 13), both forced
    row = _flip(tmp_path, FORCED)
    assert (row["units"], row["demand_today"]) == (2, 100)
    assert row["note"].startswith("min_units 1 relaxed for this search"), row["note"]
    # without the minimum today's 100 GPU-hours a month buy no card (the cloud is cheaper): the level that pays for them
    # is looked for above today, as for any card the minimum forces
    assert row["flip_demand"] > 100, row
