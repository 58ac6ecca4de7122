"""The A100 40GB PCIe: a catalog GPU with Lambda's measured speed, an on-prem card for owned ones (no
sourced price), and the card `fleetplan inventory` counts from nvidia-smi's name for it.

Facts used: NVIDIA's product brief PB-10137-001_v03 (September 2020) gives 40 GB HBM2, 1,555 GB/s and a
250 W maximum power; Lambda's benchmark machine `LambdaCloud A100 40GB PCIe` reports 250 W too (its `watt`
column, in the fixture copy); NVIDIA's driver README lists the card as `NVIDIA A100-PCIE-40GB`.
"""

import csv
import math
from pathlib import Path

import pytest
import yaml

from planner import catalog
from planner.catalog import speeds
from planner.catalog.inventory import parse_inventory
from planner.engine import plan
from planner.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
LAMBDA_FP16 = ROOT / "tests" / "fixtures" / "reference" / "benchmarks" / "lambda_pytorch_train_throughput_fp16.csv"
MODELS = ["ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2", "transformerxlbase",
          "transformerxllarge", "waveglow"]   # every model column but ncf, as docs/speed-model.md says


def lambda_row(name: str) -> dict:
    with LAMBDA_FP16.open(encoding="utf-8") as fh:
        (row,) = [r for r in csv.DictReader(fh) if r["name_gpu"] == name]
    return row


def lambda_ratio() -> float:
    """The geometric mean over the nine models of its samples/s over the A100 80GB PCIe's, one GPU each."""
    ours, base = lambda_row("LambdaCloud A100 40GB PCIe"), lambda_row("A100 80GB PCIe")
    return math.exp(sum(math.log(float(ours[m]) / float(base[m])) for m in MODELS) / len(MODELS))


def test_the_catalog_row_has_the_product_briefs_figures_and_lambdas_measured_watts():
    row = catalog.load_gpus().loc["A100-40GB-PCIE"]
    assert (row["memory_gb"], row["memory_bandwidth_gbps"], row["tdp_watts"]) == (40, 1555, 250)
    assert float(lambda_row("LambdaCloud A100 40GB PCIe")["watt"]) == row["tdp_watts"]
    assert "PB-10137-001" in row["source"]


def test_its_speed_is_lambdas_measurement_not_an_estimate():
    speed = speeds.gpu_speed("measured", "A100-40GB-PCIE")
    assert speed.source == "measured"
    assert speed.relative_speed == pytest.approx(lambda_ratio(), abs=5e-5)   # the table keeps four decimals


def test_nvidia_smis_name_for_it_is_counted_as_the_40gb_card_not_suggested_as_an_h100():
    # it read "did you mean H100-PCIE?" and counted nothing
    inv = parse_inventory("NVIDIA A100-PCIE-40GB, 40960 MiB, 250.00 W\nNVIDIA A100-PCIE-40GB, 40960 MiB, 250.00 W\n")
    assert dict(inv.existing) == {"a100-40gb-pcie": 2} and inv.unknown == []


def test_owned_cards_do_the_work_at_their_measured_speed_and_the_missing_price_is_said():
    # two owned cards, 500 A100-80GB-PCIE hours a month for 12 months, cheap power, no cloud cheaper: the
    # work runs on them at Lambda's ratio, so they are busy 12 × 500 / ratio hours
    s = load_scenario({
        "name": "owned A100 40GB PCIe", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
        "prices": {"source": "snapshot", "providers": ["aws"], "regions": ["us-east-1"],
                   "purchase_options": ["on_demand"]},
        "onprem": {"electricity_per_kwh": 0.10, "pue": 1.0, "availability": 1.0, "cards": [],
                   "existing": {"a100-40gb-pcie": {"count": 2, "age_months": 12}}},
        "workloads": [{"name": "training", "gpu_hours_per_month": 500, "reference_gpu": "A100-80GB-PCIE",
                       "min_gpu_memory_gb": 40}]})
    p = plan(s, baselines=False)
    ratio = lambda_ratio()
    busy = p.utilisation.set_index("card").loc["a100-40gb-pcie", "busy_hours"]
    assert busy == pytest.approx(12 * 500 / ratio, rel=1e-4)
    # 593 hours a month fit one card's 730: one is kept, and it draws round(1.8 × 250) = 450 W busy and
    # round(0.15 × 250) = 38 W idle (the card row's rule) at 0.10 USD/kWh; no cloud hour is bought
    costs = p.costs.set_index("category")["cost"]
    assert costs["energy"] == pytest.approx(0.10 * (busy * 0.450 + (12 * 730 - busy) * 0.038), rel=1e-6)
    assert costs["cloud_on_demand"] == costs["capex"] == 0
    assert any("a100-40gb-pcie has no sourced price" in w for w in p.warnings)


def test_the_inventory_block_says_which_counted_cards_have_no_price_and_where_to_give_one():
    inv = parse_inventory("NVIDIA A100-PCIE-40GB, 40960 MiB, 250.00 W\nNVIDIA A100 80GB PCIe, 81920 MiB, 300.00 W\n")
    block = inv.yaml_block(age_months=24)
    lines = block.splitlines()
    said = lines.index("    a100-40gb-pcie: {count: 1, age_months: 24}")
    comment = " ".join(line.strip(" #") for line in lines[said - 3:said])
    assert comment.startswith("a100-40gb-pcie: no sourced price") and "the plan never sells it" in comment
    assert "onprem.card_overrides.a100-40gb-pcie.price" in comment
    # the 80 GB card has a dated price (11,500 USD): no such comment
    assert "a100-80gb-pcie:" not in "".join(line for line in lines if line.lstrip().startswith("#"))
    assert yaml.safe_load(block) == {"onprem": {"existing": {"a100-40gb-pcie": {"count": 1, "age_months": 24},
                                                              "a100-80gb-pcie": {"count": 1, "age_months": 24}}}}
