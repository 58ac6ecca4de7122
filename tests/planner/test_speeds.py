"""Measured speeds, estimates and multi-GPU scaling, checked against Lambda's raw benchmark tables.

The raw tables in tests/fixtures/reference/benchmarks are Lambda's deeplearning-benchmark
pytorch/pytorch-train-throughput-{fp16,fp32}.csv at commit 0551cb70 (2024-05-02), copied unchanged.
Everything expected here is recomputed from them by this file's own small code, or worked by hand.
"""

import csv
import math
import statistics
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from planner import load_scenario
from planner.catalog import load_gpus, speeds
from planner.engine.workloads import check_reference_metrics, relative_speed, speed_and_source, speed_sources, work_matrix
from planner.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / "tests" / "fixtures" / "reference" / "benchmarks"
DATA = ROOT / "planner" / "data"

# Lambda's name without vendor and count -> (catalog id, interconnect); Quadro RTX 8000 has no id
GPU_OF = {"V100 16GB": ("V100-16GB-SXM2", "nvlink"), "RTX 3090": ("RTX-3090", "pcie"), "A10": ("A10", "pcie"),
          "A100 40GB PCIe": ("A100-40GB-PCIE", "pcie"), "A100 80GB PCIe": ("A100-80GB-PCIE", "pcie"),
          "A100 80GB SXM4": ("A100-80GB-SXM", "nvlink"), "RTX 6000 Ada": ("RTX-6000-ADA", "pcie"),
          "RTX A6000": ("RTX-A6000", "pcie"), "RTX 4090": ("RTX-4090", "pcie"), "H100 80GB PCIe Gen5": ("H100-PCIE", "pcie"),
          "H100 80GB SXM5": ("H100-SXM", "nvlink")}
VENDORS = ("LambdaCloud", "Dell", "SMC", "1CC")
MODELS = ["ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2", "transformerxlbase",
          "transformerxllarge", "waveglow"]   # every model column but ncf


def parse(name):
    """(vendor, Lambda GPU name) of a row name such as 'Dell 2x H100 80GB SXM5' or 'LambdaCloud 4xV100 16GB'."""
    vendor, rest = "", name
    if rest.split(" ")[0] in VENDORS:
        vendor, rest = rest.split(" ", 1)
    head = rest.split("x", 1)
    if head[0].isdigit():
        rest = head[1].strip()
    return vendor, rest


def raw_rows(precision):
    with (RAW / f"lambda_pytorch_train_throughput_{precision}.csv").open(encoding="utf-8") as fh:
        rows = []
        for r in csv.DictReader(fh):
            vendor, base = parse(r["name_gpu"])
            if base in GPU_OF:
                rows.append({"name": r["name_gpu"], "vendor": vendor, "gpu": GPU_OF[base][0], "link": GPU_OF[base][1],
                             "k": int(float(r["num_gpu"])), **{m: float(r[m]) for m in MODELS}})
        return rows


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def expected_speeds(precision):
    """{metric: {gpu: speed vs A100-80GB-PCIE}} from the single-GPU rows."""
    single = [r for r in raw_rows(precision) if r["k"] == 1]
    per_model = {(g, m): gmean([r[m] for r in single if r["gpu"] == g and r[m] > 0])
                 for g in {r["gpu"] for r in single} for m in MODELS}
    prefix = "measured" if precision == "fp16" else "measured_fp32"
    out = {f"{prefix}:{m}": {g: per_model[g, m] / per_model["A100-80GB-PCIE", m] for g, _ in per_model} for m in MODELS}
    out[prefix] = {g: gmean([out[f"{prefix}:{m}"][g] for m in MODELS]) for g, _ in per_model}
    return out


def expected_scaling(precision):
    """{(metric, link, k): applied efficiency}: median over models per machine, median over machines,
    capped at 1 and never rising with k."""
    rows = raw_rows(precision)
    prefix = "measured" if precision == "fp16" else "measured_fp32"
    by_class = {}
    for r in (r for r in rows if r["k"] > 1):
        ones = [s for s in rows if s["k"] == 1 and s["gpu"] == r["gpu"] and s["vendor"] == r["vendor"]]
        one = (ones or [s for s in rows if s["k"] == 1 and s["gpu"] == r["gpu"] and s["vendor"] == ""])[0]
        eff = {m: r[m] / (r["k"] * one[m]) for m in MODELS if r[m] > 0 and one[m] > 0}
        by_class.setdefault((prefix, r["link"], r["k"]), []).append(statistics.median(eff.values()))
        for m, e in eff.items():
            by_class.setdefault((f"{prefix}:{m}", r["link"], r["k"]), []).append(e)
    out = {}
    for metric, link, k in sorted(by_class):
        below = [out[metric, link, j] for j in (2, 4) if j < k and (metric, link, j) in out]
        out[metric, link, k] = min([1.0, statistics.median(by_class[metric, link, k])] + below)
    return out


def workload(**fields):
    base = {"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "A100-80GB-PCIE"}
    return load_scenario({"name": "t", "currency": "USD", "horizon_months": 1, "prices": {"providers": ["aws"]},
                          "workloads": [{**base, **fields}]})


# --- the packaged tables are the raw benchmark, recomputed -------------------------------------------

@pytest.mark.parametrize("precision", ["fp16", "fp32"])
def test_packaged_speed_table_is_the_raw_benchmark_recomputed(precision):
    packaged = pd.read_csv(DATA / "measured_speed.csv")
    expected = expected_speeds(precision)
    for metric, by_gpu in expected.items():
        got = packaged[packaged["metric"] == metric].set_index("gpu")["relative_speed"]
        assert sorted(got.index) == sorted(by_gpu)
        for gpu, value in by_gpu.items():
            assert got[gpu] == pytest.approx(value, abs=1e-4), (metric, gpu)
    assert set(packaged["as_of"]) == {"2024-05-02"} and packaged["source"].str.contains("0551cb70").all()


@pytest.mark.parametrize("precision", ["fp16", "fp32"])
def test_packaged_scaling_table_is_the_raw_benchmark_recomputed(precision):
    packaged = pd.read_csv(DATA / "measured_scaling.csv")
    expected = expected_scaling(precision)
    prefix = "measured" if precision == "fp16" else "measured_fp32"
    mine = packaged[packaged["metric"].str.split(":").str[0] == prefix]
    got = {(r.metric, r.interconnect, r.gpus): r.efficiency for r in mine.itertuples()}
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-4), key


def test_metric_names_keep_the_datasheet_ones_and_default_to_measured():
    assert speeds.DEFAULT_METRIC == "measured"
    assert {"fp16_tensor_tflops", "bf16_tensor_tflops", "fp32_tflops", "memory_bandwidth_gbps"} <= set(speeds.METRIC_NAMES)
    assert set(pd.read_csv(DATA / "measured_speed.csv")["metric"]) == set(speeds.MEASURED_METRICS)


# --- measured speeds lie in the ranges the benchmark shows ------------------------------------------

@pytest.mark.parametrize(("gpu", "low", "high"), [("RTX-4090", 0.66, 0.85), ("H100-SXM", 1.7, 2.15),
                                                   ("V100-16GB-SXM2", 0.35, 0.55)])
def test_measured_speed_vs_a100_80gb_pcie_lies_in_the_benchmark_range(gpu, low, high):
    w = workload().workloads[0]                        # default metric, reference A100-80GB-PCIE
    speed = speed_and_source(w, gpu)
    assert low <= speed.relative_speed <= high and speed.source == "measured"


def test_per_model_choice_is_that_models_ratio():
    # RTX 4090 / A100 80GB PCIe in Lambda's fp16 table: bert_large 93 / 140, resnet50 1301 / 1527
    w = workload(throughput_metric="measured:bert_large_squad").workloads[0]
    assert relative_speed(w, "RTX-4090") == pytest.approx(93 / 140, abs=1e-4)
    w = workload(throughput_metric="measured:resnet50").workloads[0]
    assert relative_speed(w, "RTX-4090") == pytest.approx(1301 / 1527, abs=1e-4)


def test_duplicate_h100_rows_are_combined_by_geometric_mean_per_model():
    # resnet50 fp16 single H100 SXM5 rows: Lambda 2616, Dell 2776, SMC 2787, 1CC 2791; A100 80GB PCIe 1527
    w = workload(throughput_metric="measured:resnet50").workloads[0]
    assert relative_speed(w, "H100-SXM") == pytest.approx((2616 * 2776 * 2787 * 2791) ** 0.25 / 1527, abs=1e-4)


# --- estimates for GPUs the benchmark lacks ----------------------------------------------------------

def test_uncovered_gpu_is_estimated_by_a_log_log_fit_on_tensor_tflops_and_bandwidth():
    gpus = load_gpus()
    # the catalog's L40S has both figures the fit needs (its datasheet: 362 FP16 tensor TFLOPS, 864 GB/s)
    assert gpus.loc["L40S", ["fp16_tensor_tflops", "memory_bandwidth_gbps"]].gt(0).all()
    measured = expected_speeds("fp16")["measured"]
    names = sorted(measured)
    x = np.log(gpus.loc[names, ["fp16_tensor_tflops", "memory_bandwidth_gbps"]].to_numpy(dtype=float))
    a, b, c = np.linalg.lstsq(np.column_stack([np.ones(len(names)), x]), np.log([measured[g] for g in names]),
                              rcond=None)[0]
    l40s = gpus.loc["L40S"]
    expected = math.exp(a + b * math.log(l40s["fp16_tensor_tflops"]) + c * math.log(l40s["memory_bandwidth_gbps"]))
    speed = speed_and_source(workload().workloads[0], "L40S")
    # the packaged measured speeds are rounded to 4 decimals, hence rel=2e-4
    assert speed.source == "estimated" and speed.relative_speed == pytest.approx(expected, rel=2e-4)
    assert "fit" in speed.detail


def test_a_speed_relative_to_an_estimated_reference_is_marked_estimated():
    w = workload(reference_gpu="L40S").workloads[0]
    assert speed_and_source(w, "H100-SXM").source == "estimated"
    assert speed_and_source(w, "L40S").relative_speed == pytest.approx(1.0)


def test_datasheet_metric_is_marked_datasheet():
    w = workload(throughput_metric="fp32_tflops").workloads[0]
    gpus = load_gpus()
    speed = speed_and_source(w, "RTX-4090")
    assert speed.source == "datasheet"
    assert speed.relative_speed == pytest.approx(gpus.loc["RTX-4090", "fp32_tflops"] / gpus.loc["A100-80GB-PCIE", "fp32_tflops"])


# --- the workload's own table wins, on the same scale ------------------------------------------------

def test_user_table_overrides_and_other_gpus_use_the_measured_model():
    w = workload(throughput={"A100-80GB-PCIE": 1.0, "H100-SXM": 2.4}).workloads[0]
    table = speed_sources(workload(throughput={"A100-80GB-PCIE": 1.0, "H100-SXM": 2.4}), ["H100-SXM", "RTX-4090"])
    rows = table.set_index("gpu")
    assert rows.loc["H100-SXM", "source"] == "user" and rows.loc["H100-SXM", "relative_speed"] == pytest.approx(2.4)
    assert rows.loc["RTX-4090", "source"] == "measured"
    assert rows.loc["RTX-4090", "relative_speed"] == pytest.approx(expected_speeds("fp16")["measured"]["RTX-4090"], abs=1e-4)
    assert relative_speed(w, "H100-SXM") == pytest.approx(2.4)


def test_user_table_with_a_non_unit_reference_keeps_one_scale():
    # the table says H100 = 2 × reference; the model's GPUs are divided by the model's reference speed, not the table's
    w = workload(throughput={"A100-80GB-PCIE": 2.0, "H100-SXM": 4.0}).workloads[0]
    assert relative_speed(w, "H100-SXM") == pytest.approx(2.0)
    assert relative_speed(w, "RTX-4090") == pytest.approx(expected_speeds("fp16")["measured"]["RTX-4090"], abs=1e-4)


# --- multi-GPU scaling -------------------------------------------------------------------------------

def units(*rows):
    cols = ["unit_id", "kind", "provider", "sku", "gpu", "gpu_known", "accelerator_name", "gpu_count", "gpu_memory_gb",
            "cards_per_server"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows], columns=cols)


def test_scaling_efficiency_is_applied_when_a_job_spans_gpus():
    # 8-GPU jobs over NVLink: medians over machines 0.970 (2 GPUs), 0.9646 (4), 0.9787 (8); never rising with k
    # gives 0.9646. 2-GPU jobs over PCIe: 0.958. So an 8×H100 node at user speed 2 does 2 × 8 × 0.9646 = 15.4336
    # reference-GPU-hours per hour; an A100 PCIe card (speed 1) does 1 × 0.958.
    assert expected_scaling("fp16")["measured", "nvlink", 8] == pytest.approx(0.9646, abs=1e-4)
    assert expected_scaling("fp16")["measured", "pcie", 2] == pytest.approx(0.958, abs=1e-4)
    table = {"A100-80GB-PCIE": 1.0, "H100-SXM": 2.0}
    node = ("aws:x:p5:on_demand", "on_demand", "aws", "p5", "H100-SXM", True, "H100", 8.0, 80.0, None)
    card = ("onprem:a100", "card", "onprem", "a100-80gb-pcie", "A100-80GB-PCIE", True, "A100", 1.0, 80.0, 4.0)
    work8, _ = work_matrix(workload(throughput=table, gpus_per_job=8), units(node))
    assert work8[0, 0] == pytest.approx(15.4336, abs=1e-3)
    work2, _ = work_matrix(workload(throughput=table, gpus_per_job=2), units(node, card))
    assert work2[1, 0] == pytest.approx(0.958, abs=1e-4)
    work1, _ = work_matrix(workload(throughput=table), units(node, card))
    assert work1[:, 0] == pytest.approx([16.0, 1.0])


def test_gpu_counts_between_measured_ones_use_the_next_measured_count():
    three, _ = speeds.scaling_efficiency("measured", "H100-SXM", 3)
    assert three == pytest.approx(expected_scaling("fp16")["measured", "nvlink", 4], abs=1e-4)


# --- a reference GPU with no speed -------------------------------------------------------------------

def test_reference_gpu_without_any_figure_gets_a_clear_error():
    s = workload(reference_gpu="K520")
    with pytest.raises(ScenarioError) as err:
        check_reference_metrics(s)
    text = str(err.value)
    assert "reference GPU K520 has no measured speed" in text and "give a throughput table naming K520" in text


def test_reference_gpu_missing_the_metric_gets_metrics_that_work():
    gpus = load_gpus()
    candidates = gpus[gpus["fp16_tensor_tflops"].isna() & gpus["fp32_tflops"].gt(0) & gpus["kind"].ne("asic")].index
    assert len(candidates)   # the catalog has such GPUs (those whose datasheets give no tensor figure)
    ref = candidates[0]
    # refused when the scenario is loaded (so `validate` refuses it too), naming a figure the GPU has
    with pytest.raises(ScenarioError, match=rf"reference GPU {ref} has no fp16_tensor_tflops figure.*fp32_tflops"):
        workload(reference_gpu=ref, throughput_metric="fp16_tensor_tflops")
    check_reference_metrics(workload(reference_gpu=ref, throughput={ref: 1.0}, throughput_metric="fp16_tensor_tflops"))


def test_an_uncovered_gpu_of_a_measured_family_is_scaled_from_its_measured_sibling():
    # V100 PCIe and the measured V100 SXM2 share gpus.csv family V100: the estimate is the SXM2's measured speed
    # times the fit's ratio between the two, (tensor_pcie / tensor_sxm2)^b × (bandwidth ratio)^c
    gpus = load_gpus()
    measured = expected_speeds("fp16")["measured"]
    names = sorted(measured)
    x = np.log(gpus.loc[names, ["fp16_tensor_tflops", "memory_bandwidth_gbps"]].to_numpy(dtype=float))
    _, b, c = np.linalg.lstsq(np.column_stack([np.ones(len(names)), x]), np.log([measured[g] for g in names]), rcond=None)[0]
    pcie, sxm2 = gpus.loc["V100-16GB-PCIE"], gpus.loc["V100-16GB-SXM2"]
    expected = (measured["V100-16GB-SXM2"] * (pcie["fp16_tensor_tflops"] / sxm2["fp16_tensor_tflops"]) ** b
                * (pcie["memory_bandwidth_gbps"] / sxm2["memory_bandwidth_gbps"]) ** c)
    speed = speed_and_source(workload().workloads[0], "V100-16GB-PCIE")
    assert speed.source == "estimated" and "V100-16GB-SXM2" in speed.detail
    assert speed.relative_speed == pytest.approx(expected, rel=2e-4)
    assert speed.relative_speed < measured["V100-16GB-SXM2"]      # the PCIe board is the slower V100
