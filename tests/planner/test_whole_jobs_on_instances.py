"""An instance runs whole jobs: of a 4-GPU instance, a 3-GPU job keeps 3 GPUs busy and the fourth idles (a
review found a 4 × A10G instance counted as 4 GPUs of 3-GPU work, so one instance "served" 7 requests/s
that needs two)."""

from __future__ import annotations

import pytest

from planner import load_scenario, plan

HEADER = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n")
# the g5.12xlarge (4 × A10G) at 4.0 USD an hour, a round price of this test's own
G5_12X = ("aws:us-east-1:g5.12xlarge:on_demand,aws,us-east-1,g5.12xlarge,on_demand,A10G,True,A10G,4.0,24.0,48.0,"
          "192.0,4.0,0.0,USD,0,,2026-07-20,test,\n")

SCENARIO = """\
name: whole jobs
horizon_months: 1
prices: {{source: {csv}, providers: [aws], purchase_options: [on_demand]}}
onprem: {{cards: []}}
workloads:
  - {{name: train, gpu_hours_per_month: 730, reference_gpu: A10G, gpus_per_job: {k}, throughput: {{A10G: 1.0}}}}
"""


@pytest.mark.parametrize("k, busy", [(1, 4), (2, 4), (3, 3), (4, 4)])
def test_instance_hours_follow_the_gpus_whole_jobs_use(tmp_path, k, busy):
    (tmp_path / "offers.csv").write_text(HEADER + G5_12X)
    (tmp_path / "s.yaml").write_text(SCENARIO.format(csv=tmp_path / "offers.csv", k=k))
    p = plan(load_scenario(tmp_path / "s.yaml"), baselines=False)
    [eff] = p.speeds.loc[p.speeds["gpu"] == "A10G", "scaling_efficiency"].tolist()
    assert (eff == 1.0) == (k == 1)
    # 730 A10G-hours of work; an instance-hour does `busy` GPUs × the efficiency of k-GPU jobs
    hours = 730 / (busy * eff)
    assert p.fleet["instance_hours"].sum() == pytest.approx(hours, rel=1e-9)
    assert p.total == pytest.approx(4.0 * hours, rel=1e-9)


def test_a_requests_per_second_table_is_not_scaled_again_by_the_training_efficiency(tmp_path):
    # 2 requests/s per A10G as measured in 2-GPU replicas (a replica does 4): a 4-GPU instance runs two
    # replicas, 8 requests/s, so 8 requests/s all month take exactly 730 instance-hours, 2,920 USD. The
    # training benchmarks' 2-GPU efficiency (below 1) used to shrink each replica again: more hours.
    (tmp_path / "offers.csv").write_text(HEADER + G5_12X)
    (tmp_path / "s.yaml").write_text(SCENARIO.format(csv=tmp_path / "offers.csv", k=2).replace(
        "gpu_hours_per_month: 730", "requests_per_second: 8, throughput_unit: requests_per_second").replace(
        "throughput: {A10G: 1.0}", "throughput: {A10G: 2}"))
    p = plan(load_scenario(tmp_path / "s.yaml"), baselines=False)
    assert p.speeds.loc[p.speeds["gpu"] == "A10G", "scaling_efficiency"].tolist() == [1.0]
    assert p.fleet["instance_hours"].sum() == pytest.approx(730, rel=1e-9)
    assert p.total == pytest.approx(4.0 * 730, rel=1e-9)


# --- cards: jobs of k GPUs take whole groups of k cards ----------------------------------------------------

NC48 = ("azure:eastus:Standard_NC48ads_A100_v4:on_demand,azure,eastus,Standard_NC48ads_A100_v4,on_demand,"
        "A100-80GB-PCIE,True,StandardNCADSA100v4Family,2.0,80.0,48.0,440.0,7.00,0.0,USD,0,,2026-07-20,test,\n")

CARDS = """\
name: whole jobs on cards
horizon_months: 12
prices: {{source: {csv}, providers: [azure], purchase_options: [on_demand]}}
onprem:
  availability: 1.0
  purchase_every_months: 12
  resale: {{method: none}}
  custom_cards:
    mycard: {{gpu: A100-80GB-PCIE, price: 3000, busy_watts: 0, idle_watts: 0, life_years: 10, cards_per_server: 8}}
workloads:
  - {{name: s0, {demand}, reference_gpu: A100-80GB-PCIE, gpus_per_job: {k}, profile: flat}}
"""


@pytest.mark.parametrize("demand, k, cards", [
    # a review's case: 5 requests/s, one A100 does 10, so half a card's time; a 2-GPU replica needs 2 cards
    ("serving: true, throughput_unit: requests_per_second, requests_per_second: 5, throughput: {A100-80GB-PCIE: 10}",
     2, 2),
    ("serving: true, throughput_unit: requests_per_second, requests_per_second: 5, throughput: {A100-80GB-PCIE: 10}",
     1, 1),
    # batch: 3 cards' worth of 2-GPU jobs run on 2 groups of 2 (4 cards); of 8-GPU jobs, one group of 8
    ("gpu_hours_per_month: 2190", 2, 4),
    ("gpu_hours_per_month: 2190", 8, 8),
])
def test_cards_run_jobs_of_k_gpus_in_whole_groups_of_k(tmp_path, demand, k, cards):
    (tmp_path / "offers.csv").write_text(HEADER + NC48)
    (tmp_path / "s.yaml").write_text(CARDS.format(csv=tmp_path / "offers.csv", demand=demand, k=k))
    p = plan(load_scenario(tmp_path / "s.yaml"), baselines=False)
    # the cheapest: `cards` cards at 3,000 for the year (no power, no resale); renting the 2-GPU NC48 all
    # year would cost 7.00 × 730 × 12 = 61,320, and an 8-GPU job cannot run on it at all
    assert p.fleet[p.fleet["kind"] == "card"]["new_units"].sum() == cards
    assert p.total == pytest.approx(3000 * cards, rel=1e-9)


def _most_jobs(cards: int, per_server: int, k: int) -> int:
    """Jobs of k GPUs that `cards` cards hold, servers of `per_server` filled in turn, each job in one."""
    full, rest = divmod(cards, per_server)
    return full * (per_server // k) + rest // k


@pytest.mark.parametrize("k, per_server, jobs", [(3, 8, 4), (3, 8, 3), (3, 4, 3), (5, 8, 2), (2, 8, 5)])
def test_a_job_runs_inside_one_server_so_cards_pack_per_server(tmp_path, k, per_server, jobs):
    # `jobs` k-GPU jobs busy all year on cards of `per_server` per server; a job cannot span two servers:
    # 8-card servers hold two 3-GPU jobs each (two cards idle), so 4 jobs need 14 cards (8 + 6), not 12
    cards = next(n for n in range(1, 100) if _most_jobs(n, per_server, k) >= jobs)   # brute force
    # in requests/s (1 per GPU, measured in k-GPU replicas): no multi-GPU efficiency to allow for
    demand = (f"throughput_unit: requests_per_second, requests_per_second: {jobs * k}, "
              "throughput: {A100-80GB-PCIE: 1.0}")
    text = CARDS.format(csv=tmp_path / "offers.csv", demand=demand, k=k)
    (tmp_path / "offers.csv").write_text(HEADER + NC48)   # 2-GPU instances: no k ≥ 3 job fits; k = 2 costs more
    (tmp_path / "s.yaml").write_text(text.replace("cards_per_server: 8", f"cards_per_server: {per_server}"))
    p = plan(load_scenario(tmp_path / "s.yaml"), baselines=False)
    assert p.fleet[p.fleet["kind"] == "card"]["new_units"].sum() == cards
    assert p.total == pytest.approx(3000 * cards, rel=1e-9)
