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


# --- jobs of several sizes on one card -------------------------------------------------------------------

def _packs(jobs: list[int], rooms: list[int]) -> bool:
    """Whether jobs of these sizes fit servers with these free cards, each job inside one: every placement."""
    if not jobs:
        return True
    tried = set()
    for n, room in enumerate(rooms):
        if room >= jobs[0] and room not in tried:
            tried.add(room)
            if _packs(jobs[1:], [*rooms[:n], room - jobs[0], *rooms[n + 1:]]):
                return True
    return False


def _fewest_cards(jobs: list[int], per_server: int) -> int:
    """The fewest cards, servers of `per_server` filled in turn, that hold all `jobs` at once (brute force)."""
    return next(n for n in range(1, 200) if _packs(sorted(jobs, reverse=True), [per_server] * (n // per_server)
                                                    + [n % per_server]))


def _several_sizes(tmp_path, workloads: list[str], per_server: int) -> str:
    (tmp_path / "offers.csv").write_text(HEADER + NC48)
    head = CARDS.split("workloads:")[0].format(csv=tmp_path / "offers.csv")
    return head.replace("cards_per_server: 8", f"cards_per_server: {per_server}") + "workloads:\n" + "".join(workloads)


def _jobs_workload(k: int, requests: float, profile: str = "flat") -> str:
    # 1 request/s per GPU, measured in k-GPU replicas: a k-GPU job serves k requests/s, no efficiency to allow for
    return (f"  - {{name: jobs{k}, throughput_unit: requests_per_second, requests_per_second: {requests}, "
            f"throughput: {{A100-80GB-PCIE: 1.0}}, reference_gpu: A100-80GB-PCIE, gpus_per_job: {k}, "
            f"profile: {profile}}}\n")


@pytest.mark.parametrize("jobs, per_server", [
    ({5: 2, 6: 1}, 8),        # a review's case: 21 cards (8 + 8 + 5); packed per size it counted 16
    ({5: 1, 6: 1}, 8),        # 13, not 11
    ({3: 2, 5: 1}, 8),
    ({2: 1, 3: 1, 4: 1}, 8),  # 10: 3 + 4 in one server, the 2 in the next
    ({3: 3, 4: 1}, 8),
    ({3: 1, 5: 1, 6: 1}, 16),
    ({3: 4, 5: 2}, 8),
    ({2: 3, 3: 3}, 4),
    ({3: 1, 2: 2}, 6),        # both divide 6 but 2 does not divide 3: 8 cards (3 + 2 | 2), not 7
    ({6: 1, 4: 2}, 12),       # 16 (6 + 4 | 4), not 14
    ({4: 1, 2: 3}, 8),        # a chain (2 | 4 | 8): the cards alone decide, 10
])
def test_jobs_of_several_sizes_share_servers_only_as_they_fit(tmp_path, jobs, per_server):
    cards = _fewest_cards([k for k, n in jobs.items() for _ in range(n)], per_server)
    text = _several_sizes(tmp_path, [_jobs_workload(k, n * k) for k, n in jobs.items()], per_server)
    p = plan(load_scenario(text), baselines=False)
    # cards at 3,000 for the year (no power, no resale); the 2-GPU NC48 runs 2-GPU jobs only, at 61,320 a year
    assert p.fleet[p.fleet["kind"] == "card"]["new_units"].sum() == cards
    assert p.total == pytest.approx(3000 * cards, rel=1e-9)
    assert not any("too many ways" in w for w in p.warnings)


def test_jobs_of_sizes_that_peak_apart_hold_their_groups_through_the_epoch(tmp_path):
    # two 4-GPU jobs in the first half of the week, one 8-GPU job in the second (weights 2 and 0, mean 1): the
    # groups of a fleet epoch are held through it (cost-model.md §11), so 2 × 4 + 8 = 16 cards. The bound on
    # cards bought had taken the busiest hour of the two workloads summed, 8 cards, and left no fleet at all
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("weight\n" + "2\n" * 84 + "0\n" * 84)
    second.write_text("weight\n" + "0\n" * 84 + "2\n" * 84)
    text = _several_sizes(tmp_path, [_jobs_workload(4, 4, str(first)), _jobs_workload(8, 4, str(second))], 8)
    p = plan(load_scenario(text), baselines=False)
    assert p.fleet[p.fleet["kind"] == "card"]["new_units"].sum() == 16
    assert p.total == pytest.approx(3000 * 16, rel=1e-9)


def test_sizes_with_too_many_ways_to_fill_a_server_are_packed_apart_with_a_warning(tmp_path):
    # 2-, 3-, 5- and 7-GPU jobs on 64-card servers fill one in 590 most-filled ways, above the 256 the model
    # takes (model.MOST_SERVER_PATTERNS): each size is packed on its own, and the plan says so
    text = _several_sizes(tmp_path, [_jobs_workload(k, k) for k in (2, 3, 5, 7)], 64)
    p = plan(load_scenario(text), baselines=False)
    assert p.fleet[p.fleet["kind"] == "card"]["new_units"].sum() == 17   # 2 + 3 + 5 + 7 in one server
    [warned] = [w for w in p.warnings if "too many ways" in w]
    assert warned.startswith("card mycard: jobs of 2, 3, 5, 7 GPUs share its servers of 64 cards")


def test_cbc_and_the_unreduced_model_pack_several_sizes_alike(tmp_path):
    # the review's case again (21 cards), solved by CBC and without the exact reductions
    text = _several_sizes(tmp_path, [_jobs_workload(5, 10), _jobs_workload(6, 6)], 8)
    for p in (plan(load_scenario(text), baselines=False, solver="cbc"),
              plan(load_scenario(text), baselines=False, reduced=False)):
        assert p.fleet[p.fleet["kind"] == "card"]["new_units"].sum() == 21
        assert p.total == pytest.approx(3000 * 21, rel=1e-9)


def test_cbc_proves_a_plan_of_servers_packed_by_pattern(tmp_path):
    # 3-, 5-, 6- and 7-GPU jobs on 16-card servers, growing 3 % a month over 24 months of monthly purchases:
    # CBC without its cuts (the planner's setting for other models) found the optimum but had not proved it
    # after 120 s (a review's case); with them it proves what HiGHS does
    workloads = [_jobs_workload(k, n * k).replace("profile: flat", "profile: business_hours, growth_per_month: 0.03")
                 for k, n in {3: 3, 5: 4, 6: 2, 7: 3}.items()]
    text = (_several_sizes(tmp_path, workloads, 16).replace("horizon_months: 12", "horizon_months: 24")
            .replace("purchase_every_months: 12", "purchase_every_months: 1"))
    highs = plan(load_scenario(text), baselines=False)
    cbc = plan(load_scenario(text), baselines=False, solver="cbc", time_limit=60)
    assert highs.status == cbc.status == "optimal"
    assert cbc.total == pytest.approx(highs.total, rel=1e-9)
