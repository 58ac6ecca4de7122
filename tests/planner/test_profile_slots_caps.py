"""A grouped profile (profile_slots) under a cap that only an exact plan meets: the grouped model had no
fleet and the plan said "infeasible" (exit 1) with wrong minimums; now it plans on every weekly weight
and says so. Found by a review's brute force; the feasibility is argued here by hand."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from planner import add_decisions, plan
from planner.engine.run import plan_summary
from planner.scenario import load_scenario

# one test offer, not a shipped price: a g5.xlarge (one A10G) on demand at 1.0 USD/h
OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,1.0,0.0,"
          "USD,0,,2026-07-20,test,\n")
WEIGHTS = [((h * 37) % 168) ** 2 for h in range(168)]   # 168 distinct weekly weights (37 is prime to 168)


def scenario(tmp_path: Path, max_cloud_share: float) -> Path:
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    (tmp_path / "q.csv").write_text("weight\n" + "\n".join(map(str, WEIGHTS)) + "\n", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: grouping under a cap
horizon_months: 3
prices: {{source: offers.csv, providers: [aws], purchase_options: [on_demand]}}
onprem:
  electricity_per_kwh: 0.2
  availability: 0.9
  power_cap_kw: 4.0
  custom_cards:
    a5k: {{gpu: RTX-A5000, price: 1500, busy_watts: 400, idle_watts: 100, life_years: 4}}
constraints: {{max_cloud_share: {max_cloud_share}}}
workloads:
  - name: train
    gpu_hours_per_month: 3000
    reference_gpu: A10G
    throughput: {{A10G: 1.0, a5k: 1.0}}
    profile: q.csv
""", encoding="utf-8")
    return path


def least_cloud_share() -> float:
    # 4 kW / 400 W = 10 cards, 10 × 0.9 available = 9 reference GPUs an hour; hour h asks
    # 3000 / 730 × w_h / mean(w); the cloud must do what is above 9 in every hour
    mean = sum(WEIGHTS) / len(WEIGHTS)
    demand = [3000 / 730 * w / mean for w in WEIGHTS]
    return sum(max(0.0, d - 9) for d in demand) / sum(demand)


def test_a_cap_only_an_exact_plan_meets_is_planned_exactly_with_a_warning(tmp_path):
    assert 0.058 < least_cloud_share() < 0.0585           # feasible, by a hair
    path = scenario(tmp_path, 0.0585)
    exact = plan(path, baselines=False, profile_slots=168)
    p = plan(path, baselines=False)                        # the default grouping: 24 blocks
    assert p.status == "optimal"
    assert p.total == pytest.approx(exact.total, rel=1e-9)
    assert p.profile_grouping is None                      # no grouping left to bound
    (said,) = [w for w in p.warnings if w.startswith("profile_slots:")]
    assert "grouped into 24 blocks, the 168 weekly weights left no fleet" in said
    summary = plan_summary(load_scenario(path))            # a sweep's point: the same numbers
    assert summary.total == pytest.approx(exact.total, rel=1e-9) and any(w.startswith("profile_slots:")
                                                                          for w in summary.warnings)


def test_a_cap_no_plan_meets_is_still_infeasible(tmp_path):
    from planner.errors import InfeasibleError

    assert least_cloud_share() > 0.05
    with pytest.raises(InfeasibleError):
        plan(scenario(tmp_path, 0.05), baselines=False)


def test_a_plan_read_back_is_re_solved_exactly_as_it_was_planned(tmp_path):
    # its scenario is the one solved (profile_slots 168): the decisions and cap costs of the plan read back
    # (not made in this process, so re-solved from its scenario) plan every weekly weight too. Before, they
    # planned the 24 blocks again, and the plan without its power cap came out dearer than the plan (refused)
    path = scenario(tmp_path, 0.0585)
    p = plan(path, baselines=False)
    assert p.scenario.profile_slots == 168
    read_back = add_decisions(pickle.loads(pickle.dumps(p)), threads=1)
    caps = read_back.cap_costs.set_index("cap")
    for field, override in (("onprem.power_cap_kw", {"onprem.power_cap_kw": None}),
                            ("constraints.max_cloud_share", {"constraints.max_cloud_share": None})):
        exact = plan(path, baselines=False, profile_slots=168, overrides=override).total
        assert caps.loc[field, "total_without"] == pytest.approx(exact, rel=1e-6)
    # a share of 0.0585 is barely above the least a fleet under the power cap can reach: it binds
    assert bool(caps.loc["constraints.max_cloud_share", "binds"]) and caps.loc["constraints.max_cloud_share", "saving"] > 0
