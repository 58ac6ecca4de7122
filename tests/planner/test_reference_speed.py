"""A workload's speed on its own reference GPU is 1 by definition, not an estimate.

An audit's plan of a workload whose reference_gpu is A100-40GB-SXM (the benchmark does not cover it: its speed is
estimated) warned "the speeds of A100-40GB-SXM, L40S are estimates from datasheet figures" and its speeds table
said `1.0, estimated` for the A100-40GB-SXM: speed(ref) / speed(ref) is exactly 1 whatever speed(ref) is. Now the
reference's own row says `reference` and no warning names it; every other GPU's ratio divides by the estimate, so
it stays `estimated` (a measured GPU's too) and its detail says the reference's speed is estimated.

Expected values: speed(g) / speed(reference) from planner.catalog.speeds.gpu_speed (vs the A100-80GB-PCIE, whose
measured speed is 1 by the table's definition: docs/speed-model.md).
"""

from __future__ import annotations

import math

import pytest

from planner import load_scenario, plan
from planner.catalog import speeds
from planner.engine.workloads import relative_speed, speed_and_source, speed_sources

REF = "A100-40GB-SXM"
HEADER = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n")
# p4d at 1 USD a GPU-hour (cheaper for `train` than the L40S's 1.861 per 0.74 A100-hours), the L40S at AWS's price
OFFERS = ("aws:us-east-1:p4d.24xlarge:on_demand,aws,us-east-1,p4d.24xlarge,on_demand,A100-40GB-SXM,True,A100,8.0,40.0,"
          "96.0,1152.0,8.0,0.0,USD,0,,2026-07-20,test,\n"
          "aws:us-east-1:g6e.xlarge:on_demand,aws,us-east-1,g6e.xlarge,on_demand,L40S,True,L40S,1.0,48.0,4.0,32.0,1.861,"
          "0.0,USD,0,,2026-07-20,test,\n")


def scenario(**fields):
    base = {"name": "train", "gpu_hours_per_month": 100, "reference_gpu": REF}
    return load_scenario({"name": "t", "currency": "USD", "horizon_months": 1, "prices": {"providers": ["aws"]},
                          "workloads": [{k: v for k, v in {**base, **fields}.items() if v is not None}]})


def estimate(gpu: str) -> float:
    speed = speeds.gpu_speed("measured", gpu)
    assert speed.source == "estimated", gpu   # the premise: the benchmark does not cover it
    return speed.relative_speed


def test_the_reference_s_own_speed_is_exactly_1_and_says_reference_though_its_speed_is_estimated():
    estimate(REF)
    speed = speed_and_source(scenario().workloads[0], REF)
    assert speed.relative_speed == 1.0 and speed.source == "reference"
    assert "1 by definition" in speed.detail and "estimated" in speed.detail   # what the other ratios rest on


@pytest.mark.parametrize("fields", [
    {"reference_gpu": "A100-80GB-PCIE"},                                      # measured
    {"throughput_metric": "fp32_tflops"},                                     # datasheet
    {"throughput": {REF: 2.0, "H100-SXM": 5.0}},                              # the user's table, not 1 for the reference
    {"throughput_unit": "requests_per_second", "requests_per_second": 3, "gpu_hours_per_month": None,
     "throughput": {REF: 12.0, "L40S": 6.0}},
])
def test_the_reference_s_own_row_is_1_reference_whatever_gives_the_other_speeds(fields):
    w = scenario(**fields).workloads[0]
    ref = w.reference_gpu
    speed = speed_and_source(w, ref)
    assert (speed.relative_speed, speed.source) == (1.0, "reference")


def test_a_requests_per_second_reference_row_keeps_its_figure_in_the_detail():
    w = scenario(throughput_unit="requests_per_second", requests_per_second=3, gpu_hours_per_month=None,
                 throughput={REF: 12.0, "L40S": 6.0}).workloads[0]
    assert "12 requests/s" in speed_and_source(w, REF).detail
    assert relative_speed(w, "L40S") == pytest.approx(0.5)   # 6 / 12


def test_an_estimated_gpu_over_an_estimated_reference_is_the_ratio_of_the_estimates_and_says_both():
    speed = speed_and_source(scenario().workloads[0], "L40S")
    assert speed.relative_speed == pytest.approx(estimate("L40S") / estimate(REF), rel=1e-12)
    assert speed.source == "estimated" and f"reference {REF} estimated" in speed.detail


def test_a_measured_gpu_over_an_estimated_reference_is_an_estimate():
    # the A100-80GB-PCIE is the measured table's base: speed 1, so its ratio is 1 / the reference's estimate
    speed = speed_and_source(scenario().workloads[0], "A100-80GB-PCIE")
    assert speed.relative_speed == pytest.approx(1 / estimate(REF), rel=1e-12)
    assert speed.source == "estimated" and f"reference {REF} estimated" in speed.detail


def test_the_speeds_table_lists_the_reference_as_reference():
    table = speed_sources(scenario(), [REF, "L40S"]).set_index("gpu")
    assert table.loc[REF, ["relative_speed", "source"]].tolist() == [1.0, "reference"]
    assert table.loc["L40S", "source"] == "estimated"


@pytest.fixture(scope="module")
def two_workloads(tmp_path_factory):
    """`train` (reference A100-40GB-SXM) on the p4d, `render` (reference L40S, 44 GB: only the L40S has it) on the
    g6e: both GPUs are in the fleet, the L40S can serve both workloads, the A100 only `train`."""
    offers = tmp_path_factory.mktemp("offers") / "offers.csv"
    offers.write_text(HEADER + OFFERS, encoding="utf-8")
    doc = {"name": "reference speeds", "currency": "USD", "horizon_months": 1,
           "prices": {"source": str(offers), "providers": ["aws"], "purchase_options": ["on_demand"]},
           "workloads": [{"name": "train", "gpu_hours_per_month": 8 * 730, "reference_gpu": REF},
                         {"name": "render", "gpu_hours_per_month": 100, "reference_gpu": "L40S",
                          "min_gpu_memory_gb": 44}]}
    return plan(load_scenario(doc), baselines=False)


def test_the_plan_warns_only_of_the_estimate_against_the_reference(two_workloads):
    assert set(two_workloads.fleet["gpu"]) == {REF, "L40S"}
    estimates = [w for w in two_workloads.warnings if "are estimates" in w]
    assert [w.split(" are estimates")[0] for w in estimates] == ["train: the speeds of L40S"]


def test_the_plan_s_speeds_table_gives_the_references_1_and_the_l40s_its_ratio(two_workloads):
    rows = {(w, g): (s, src) for w, g, s, src in zip(two_workloads.speeds["workload"], two_workloads.speeds["gpu"],
                                                      two_workloads.speeds["relative_speed"], two_workloads.speeds["source"])}
    assert set(rows) == {("train", REF), ("train", "L40S"), ("render", "L40S")}
    assert rows["train", REF] == (1.0, "reference") and rows["render", "L40S"] == (1.0, "reference")
    speed, source = rows["train", "L40S"]
    assert source == "estimated" and math.isclose(speed, estimate("L40S") / estimate(REF), rel_tol=1e-12)

