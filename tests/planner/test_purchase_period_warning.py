"""The warning that purchase_every_months does not divide horizon_months is given only where a card may be bought: an
audit's scenario with `onprem.cards: []` and owned cards alone (nothing can be bought, so there are no purchase periods)
was told "the last purchase period is 2 months long" (2026-12-07)."""

from __future__ import annotations

from planner import plan

OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g6.xlarge:on_demand,aws,us-east-1,g6.xlarge,on_demand,L4,True,L4,1.0,24.0,4.0,16.0,0.8,0.0,"
          "USD,0,,2026-11-01,hand,\n")

SCENARIO = """\
name: owned only
currency: USD
horizon_months: 20
prices: {{source: o.csv, providers: [aws], purchase_options: [on_demand]}}
onprem:
  electricity_per_kwh: 0.25
  pue: 1.2
  purchase_every_months: 3
  {cards}
  card_overrides: {{rtx-4090: {{price: 1800, currency: USD, as_of: 2026-11-01, source: quote}}}}
  existing: {{rtx-4090: {{count: 2, age_months: 12}}}}
workloads:
  - {{name: train, gpu_hours_per_month: 2000, reference_gpu: RTX-4090, throughput: {{RTX-4090: 1.0, L4: 0.5}}}}
"""

SAID = "purchase_every_months 3 does not divide horizon_months 20"


def _plan(tmp_path, cards: str):
    (tmp_path / "o.csv").write_text(OFFERS)
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(cards=cards))
    return plan(path, baselines=False)


def test_no_purchase_period_warning_where_no_card_may_be_bought(tmp_path):
    p = _plan(tmp_path, "cards: []")
    assert not any(SAID in w for w in p.warnings), p.warnings


def test_the_purchase_period_warning_stays_where_cards_may_be_bought(tmp_path):
    p = _plan(tmp_path, "cards: [rtx-4090]")
    assert any(SAID in w and "the last purchase period is 2 months long" in w for w in p.warnings), p.warnings
