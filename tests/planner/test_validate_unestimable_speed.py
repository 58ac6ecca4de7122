"""`fleetplan validate` fails a workload whose relative speed the speed model cannot give on any unit it allows (plan's
"no <metric> speed for <GPU>" exclusion, engine.workloads._reason's last check), at the workload's field and in plan's
words, read without pandas (catalog.servable, catalog.speeds.no_speed_detail). Before, validate said `ok` for such a
scenario and plan found no fleet.

Oracles, read by hand from the packaged data:
- planner/data/gpus.csv: RTX-5090 has fp32_tflops 104.8 and memory_bandwidth_gbps 1792 but empty fp16_tensor_tflops and
  bf16_tensor_tflops; A10G has memory_bandwidth_gbps 600 and an empty fp32_tflops; B300 (288 GB) has none of the four
  speed figures; A100-80GB-PCIE has all four. measured_speed.csv has no row for RTX-5090, A10G or B300.
- planner/data/onprem_cards.csv: rtx-5090 is the RTX-5090 card, priced 1999 USD (NVIDIA's CES 2025 MSRP).
- pricing_adapters/snapshots/aws.csv, ap-northeast-2, on_demand: 37 offers, of which 8 g5.* (A10G, 24 GB) are the only
  ones with ≥ 20 GB per GPU (the others: T4 and V100-16GB 16 GB, K80 12 GB, M60 8 GB, K520 4 GB, 4 INFERENTIA).
- aws.csv, us-east-1, on_demand: the only offer with ≥ 200 GB per GPU is p6-b300.48xlarge (B300, 288 GB).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.catalog import servable, speeds
from planner.catalog.offers import unpriced_card_rows
from planner.catalog.prices import offer_facts
from planner.errors import InfeasibleError
from tests.planner.cli_run import run
from tests.planner.test_startup import run_cli

# on-prem only: the one card, an RTX 5090, has no BF16 tensor figure, so no bf16_tensor_tflops speed
RTX5090 = """\
name: RTX 5090 by BF16
horizon_months: 12
prices:
  source: snapshot
  providers: []
onprem:
  cards: [rtx-5090]
workloads:
  - name: small
    gpu_hours_per_month: 100
    reference_gpu: A100-80GB-PCIE
    throughput_metric: bf16_tensor_tflops
"""

# cloud only: the A10G offers are the only ones with the memory, and gpus.csv has no FP32 figure for the A10G
A10G = """\
name: A10G by FP32
horizon_months: 12
prices:
  source: snapshot
  providers: [aws]
  regions: [ap-northeast-2]
  purchase_options: [on_demand]
workloads:
  - name: small
    gpu_hours_per_month: 100
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 20
    throughput_metric: fp32_tflops
"""

# the measured (default) speed model: the B300 is not measured and has no figure to estimate it from
B300 = """\
name: B300 only
horizon_months: 12
prices:
  source: snapshot
  providers: [aws]
  regions: [us-east-1]
  purchase_options: [on_demand]
workloads:
  - name: giant
    gpu_hours_per_month: 100
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 200
"""


def _validate(tmp_path: Path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path, run("validate", path)


def test_a_workload_whose_only_card_has_no_speed_is_an_error_at_its_throughput_metric(tmp_path):
    path, result = _validate(tmp_path, RTX5090)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "\nok " not in f"\n{result.stderr}"
    # `    throughput_metric: bf16_tensor_tflops` is line 12; its value starts at column 4 + 18 + 2 = 24
    [error] = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert error == (f"error: {path}:12:24: workloads[0].throughput_metric: workload small (≥ 0 GB, 1 GPU per job) has "
                     "no compatible offer among the 1 allowed offers and cards: no bf16_tensor_tflops speed for RTX-5090: "
                     "no bf16_tensor_tflops figure in gpus.csv (add it to a throughput table) (1 offer); "
                     "`fleetplan plan` would find no fleet")


def test_validates_message_is_plans_explanation():
    s = load_scenario(RTX5090)
    [(j, field, said)] = servable.unservable(s, offer_facts("snapshot"), {c["card_id"] for c in unpriced_card_rows(s)})
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    assert (j, field) == (0, "throughput_metric") and said in str(info.value), (said, str(info.value))


def test_the_gpus_no_speed_is_counted_among_the_other_reasons(tmp_path):
    path, result = _validate(tmp_path, A10G)
    assert result.exit_code == 2, result.output
    said = result.stderr.replace("\n", " ")
    # memory reasons too: the error is at min_gpu_memory_gb (line 12, its value at column 4 + 18 + 2 = 24)
    assert f"{path}:12:24: workloads[0].min_gpu_memory_gb: workload small (≥ 20 GB, 1 GPU per job) has no compatible " \
           "offer among the 37 allowed offers and cards: " in said
    assert "no fp32_tflops speed for A10G: no fp32_tflops figure in gpus.csv (add it to a throughput table) (8 offers)" \
           in said


def test_a_gpu_the_measured_model_cannot_estimate_leaves_the_workload_unserved(tmp_path):
    _, result = _validate(tmp_path, B300)
    assert result.exit_code == 2, result.output
    assert "`fleetplan plan` would find no fleet" in result.stderr.replace("\n", " ")
    s = load_scenario(B300)
    [(_, _, said)] = servable.unservable(s, offer_facts("snapshot"), set())
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    assert said in str(info.value)


@pytest.mark.parametrize(("text", "change"), [
    (RTX5090, ("throughput_metric: bf16_tensor_tflops", "throughput_metric: fp32_tflops")),    # it has an FP32 figure
    (RTX5090, ("throughput_metric: bf16_tensor_tflops", "throughput_metric: bf16_tensor_tflops\n"
                                                        "    throughput: {RTX-5090: 1.1}")),  # named in its table
    (RTX5090, ("throughput_metric: bf16_tensor_tflops", "throughput_metric: measured")),      # estimated: bandwidth
    (A10G, ("throughput_metric: fp32_tflops", "throughput_metric: measured")),
], ids=["fp32-figure", "throughput-table", "rtx5090-estimated", "a10g-estimated"])
def test_a_speed_the_model_has_or_estimates_validates_ok(tmp_path, text, change):
    _, result = _validate(tmp_path, text.replace(*change))
    assert result.exit_code == 0, result.output
    assert "would find no fleet" not in result.output


@pytest.mark.parametrize(("metric", "gpu", "known"), [
    ("bf16_tensor_tflops", "RTX-5090", False), ("fp32_tflops", "RTX-5090", True), ("measured", "RTX-5090", True),
    ("fp32_tflops", "A10G", False), ("measured", "A10G", True), ("measured", "B300", False),
    ("measured", "A100-80GB-PCIE", True), ("measured_fp32", "B300", False),
])
def test_the_speed_read_without_pandas_is_the_speed_models(metric, gpu, known):
    from planner.catalog.gpus import gpu_rows

    detail = speeds.no_speed_detail(metric, gpu, gpu_rows()[gpu])
    assert (detail is None) is known
    model = speeds.gpu_speed(metric, gpu)
    assert (model.relative_speed == model.relative_speed) is known
    if not known:
        assert detail == model.detail


def test_the_check_imports_nothing_heavy(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(RTX5090, encoding="utf-8")
    [report], _, err = run_cli(["validate", str(path)])
    assert report["code"] == 2 and report["heavy"] == [], report
    assert re.search(r"no bf16_tensor_tflops speed for RTX-5090", err)


# a custom card whose gpu_specs give its memory only: the measured model has nothing to estimate its speed from
CUSTOM = RTX5090.replace("  cards: [rtx-5090]\n", """\
  custom_cards:
    my-card:
      gpu_specs: {memory_gb: 24}
      price: 2000
      currency: USD
      busy_watts: 400
      idle_watts: 100
      life_years: 4
      maintenance_rate_per_year: 0.05
      source: a test's figures, no real quote
""").replace("    throughput_metric: bf16_tensor_tflops\n", "")


def test_a_custom_gpu_with_no_figure_to_estimate_from_is_refused_in_plans_words(tmp_path):
    s = load_scenario(CUSTOM)
    [(j, field, said)] = servable.unservable(s, offer_facts("snapshot"), set())
    assert (j, field) == (0, "throughput_metric")
    assert re.search(r"no measured speed for CUSTOM-MY-CARD-[0-9a-f]{8}: no measured speed under measured and no "
                     r"fp16_tensor_tflops\+memory_bandwidth_gbps or memory_bandwidth_gbps figure in its gpu_specs to "
                     r"estimate from \(give its speed in the workload's throughput table under its onprem.custom_cards "
                     r"id, or set gpu_specs.memory_bandwidth_gbps\) \(1 offer\)", said), said
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    assert said in str(info.value)
    # throughput_metric is not written (the measured default): the error is at the workload's name, line 18 column 11
    path, result = _validate(tmp_path, CUSTOM)
    assert result.exit_code == 2 and f"error: {path}:18:11: workloads[0].name: workload small " in result.stderr
    _, result = _validate(tmp_path, CUSTOM.replace("gpu_specs: {memory_gb: 24}",
                                                   "gpu_specs: {memory_gb: 24, memory_bandwidth_gbps: 768}"))
    assert result.exit_code == 0, result.output
