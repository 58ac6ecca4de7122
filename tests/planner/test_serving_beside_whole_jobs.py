"""A serving workload answers requests all the time, so it cannot take turns with whole multi-GPU jobs on the same
cards within an hour (a new-user audit, 2026-12-06: an inference service was planned on the idle share of the HGX board
its 8-GPU training jobs held, so the fleet bought was too small). One-GPU serving uses cards that no job group holds;
one-GPU batch work may still fill a group's idle hours.

By hand, all cases: a card of our own at 3,000 USD, no power, no resale, 10-year life, 8 cards a server, availability
1, one purchase month, 12 months; renting the test's only offer, a 2 × A100 instance at 7.00 USD an hour, all year
costs 7.00 × 730 × 12 = 61,320 USD, so cards are cheaper in every case.
- training: 2,920 GPU-hours a month = 4 cards busy on average, as 8-GPU jobs: one group of 8 cards (half its hours busy);
- an API of 20 requests/s at 10 a card: 2 cards busy all the time, which the group's cards cannot be;
- a batch job of 1,460 GPU-hours a month: 2 cards on average, which the group's idle half can take.
"""

from __future__ import annotations

import pytest

from planner import load_scenario, plan
from tests.planner.test_whole_jobs_on_instances import HEADER, NC48  # the offers CSV's header and a 2 × A100 row

HEAD = """\
name: serving beside whole jobs
horizon_months: 12
prices: {{source: {csv}, providers: [azure], purchase_options: [on_demand]}}
onprem:
  availability: 1.0
  purchase_every_months: 12
  resale: {{method: none}}
  custom_cards:
    mycard: {{gpu: A100-80GB-PCIE, price: 3000, busy_watts: 0, idle_watts: 0, life_years: 10, cards_per_server: 8}}
workloads:
"""
TRAIN = "  - {name: train, gpu_hours_per_month: 2920, reference_gpu: A100-80GB-PCIE, gpus_per_job: 8, profile: flat}\n"
API = ("  - {name: api, serving: true, throughput_unit: requests_per_second, requests_per_second: 20, "
       "throughput: {A100-80GB-PCIE: 10}, reference_gpu: A100-80GB-PCIE, profile: flat}\n")
BATCH = "  - {name: batch, gpu_hours_per_month: 1460, reference_gpu: A100-80GB-PCIE, profile: flat}\n"


def cards_and_total(tmp_path, *workloads: str) -> tuple[int, float]:
    (tmp_path / "offers.csv").write_text(HEADER + NC48)
    (tmp_path / "s.yaml").write_text(HEAD.format(csv=tmp_path / "offers.csv") + "".join(workloads))
    p = plan(load_scenario(tmp_path / "s.yaml"), baselines=False)
    return int(p.fleet[p.fleet["kind"] == "card"]["new_units"].sum()), p.total


@pytest.mark.parametrize("workloads, cards", [
    ((TRAIN,), 8),              # one group of 8
    ((API,), 2),                # 2 cards
    ((TRAIN, API), 10),         # the group's 8 and 2 beside it: the API cannot use the group's idle half
    ((TRAIN, BATCH), 8),        # batch work fills the group's idle half
    ((TRAIN, API, BATCH), 10),  # batch fits the group's idle half; the API needs its own 2
])
def test_one_gpu_serving_takes_cards_no_job_group_holds(tmp_path, workloads, cards):
    assert cards_and_total(tmp_path, *workloads) == (cards, pytest.approx(3000 * cards, rel=1e-9))
