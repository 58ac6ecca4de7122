"""The serving table's capacity on cards counts the cards that can serve the workload: its k-card job groups for
replicas of k GPUs, and the cards no job group holds for one-GPU serving beside k-GPU training. It counted every card
in service (an audit, 2026-12-07): 3-GPU replicas on 7 cards of 4-card servers showed 14 requests/s for 12, and a
one-GPU API beside two 8-card training groups on 18 cards showed 36 for 4.

Worked by hand: 2 requests/s per RTX 4090.
- 12 requests/s in replicas of 3 GPUs (6 requests/s a replica): 2 replicas, 6 cards in job groups of 3; a 3-card job
  runs in one server of 4 cards, so two need 2 servers: 4 + 3 = 7 cards bought, 6 of them serving: 12 requests/s.
- 4 requests/s of a one-GPU API beside 5,840 GPU-hours a month of 8-GPU training (8 cards busy all 730 hours; the
  8-GPU efficiency of the measured table below 1 asks for a second group): 2 groups of 8 hold 16 cards, the API needs
  2 cards of its own: 18 cards, 2 serving: 4 requests/s."""

from __future__ import annotations

from planner import plan

OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1,24,4,16,1.0,0.0,USD,0,,"
          "2026-12-01,test,\n")

HEAD = """\
name: cards serving
horizon_months: 1
prices: {{source: o.csv, providers: [aws], purchase_options: [on_demand]}}
onprem:
  electricity_per_kwh: 0
  pue: 1.0
  availability: 1
  resale: {{method: none}}
  cards: [rtx-4090]
  card_overrides:
    rtx-4090: {{price: 1000, currency: USD, host_cost_per_card: 0, maintenance_rate_per_year: 0, cards_per_server: {c}}}
workloads:
"""

REPLICAS = """\
  - {name: chat, serving: true, throughput_unit: requests_per_second, requests_per_second: 12, gpus_per_job: 3,
     reference_gpu: RTX-4090, throughput: {RTX-4090: 2}}
"""

BESIDE_TRAINING = """\
  - {name: api, serving: true, throughput_unit: requests_per_second, requests_per_second: 4, reference_gpu: RTX-4090,
     throughput: {RTX-4090: 2}}
  - {name: train, gpu_hours_per_month: 5840, gpus_per_job: 8, reference_gpu: RTX-4090, throughput: {RTX-4090: 1}}
"""


def _plan(tmp_path, cards_per_server: int, workloads: str):
    (tmp_path / "o.csv").write_text(OFFERS)
    path = tmp_path / "s.yaml"
    path.write_text(HEAD.format(c=cards_per_server) + workloads)
    return plan(path, baselines=False)


def test_replicas_of_three_gpus_count_the_cards_their_job_groups_hold(tmp_path):
    p = _plan(tmp_path, 4, REPLICAS)
    assert p.total == 7 * 1000
    (row,) = p.serving.to_dict("records")
    assert (row["instances"], row["capacity"], row["demand"]) == (6, 12.0, 12.0)


def test_one_gpu_serving_beside_training_counts_the_cards_no_job_group_holds(tmp_path):
    p = _plan(tmp_path, 8, BESIDE_TRAINING)
    assert p.total == 18 * 1000
    (row,) = p.serving.to_dict("records")
    assert (row["workload"], row["instances"], row["capacity"], row["demand"]) == ("api", 2, 4.0, 4.0)
