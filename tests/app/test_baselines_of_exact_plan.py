"""The dashboard solves a plan's baselines on the scenario the plan solved: where a grouped profile left no
fleet and the plan was made on every weekly weight (profile_slots 168, engine.run), so are its baselines,
as `planner.plan` makes them — not on the 24 blocks the user's scenario asks for."""

from __future__ import annotations

from pathlib import Path

from fleetplan_dashboard import state
from planner import load_scenario

OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,1.0,0.0,"
          "USD,0,,2026-07-20,test,\n")   # one test offer, not a shipped price
WEIGHTS = [((h * 37) % 168) ** 2 for h in range(168)]   # 168 distinct weekly weights (tests/planner/test_profile_slots_caps.py)


def test_the_baselines_of_a_plan_made_exactly_are_solved_on_its_scenario(tmp_path: Path):
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    (tmp_path / "q.csv").write_text("weight\n" + "\n".join(map(str, WEIGHTS)) + "\n", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text("""name: grouping under a cap
horizon_months: 3
prices: {source: offers.csv, providers: [aws], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.2
  availability: 0.9
  power_cap_kw: 4.0
  custom_cards:
    a5k: {gpu: RTX-A5000, price: 1500, busy_watts: 400, idle_watts: 100, life_years: 4}
constraints: {max_cloud_share: 0.0585}
workloads:
  - name: train
    gpu_hours_per_month: 3000
    reference_gpu: A10G
    throughput: {A10G: 1.0, a5k: 1.0}
    profile: q.csv
""", encoding="utf-8")
    s = load_scenario(path)
    assert s.profile_slots is None or s.profile_slots < 168
    outcome = state.recommended(s)
    assert outcome.plan.scenario.profile_slots == 168        # the grouped model had no fleet: planned exactly
    assert state._solved_scenario(s, outcome) is outcome.plan.scenario
