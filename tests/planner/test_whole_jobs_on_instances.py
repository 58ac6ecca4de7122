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
