"""Plan-output defects an audit of a EUR scenario found (2026-12-07), each stated as the fact the output now tells.

1. A serving workload on an L40S reference (the Lambda benchmark does not cover the L40S: docs/data-sources.md) was
   warned "the speeds of A100-80GB-PCIE, RTX-3090, RTX-4090 are estimates from datasheet figures", though those three
   are Lambda measurements: their speeds relative to the L40S are estimates through the reference's speed alone.
"""

from __future__ import annotations

import pytest
import yaml

from planner import load_scenario, plan
from planner.catalog import speeds

# one card the benchmark measured (RTX 4090), a reference it did not (L40S); no cloud, so the plan holds 4090s only
MEASURED_OVER_ESTIMATED = """
name: measured over an estimated reference
currency: USD
horizon_months: 3
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [rtx-4090]}
constraints: {max_cloud_share: 0}
workloads:
  - {name: inference, gpu_hours_per_month: 730, reference_gpu: L40S}
"""


@pytest.fixture(scope="module")
def measured_over_estimated():
    return plan(load_scenario(yaml.safe_load(MEASURED_OVER_ESTIMATED)), baselines=False)


def test_the_premise_the_rtx_4090_is_measured_and_the_l40s_estimated():
    assert speeds.gpu_speed("measured", "RTX-4090").source == "measured"
    assert speeds.gpu_speed("measured", "L40S").source == "estimated"


def test_a_measured_gpu_over_an_estimated_reference_is_warned_of_through_the_reference(measured_over_estimated):
    p = measured_over_estimated
    assert set(p.fleet["gpu"]) == {"RTX-4090"}
    [said] = [w for w in p.warnings if w.startswith("inference: ")]
    assert said.startswith("inference: its reference GPU L40S's speed is an estimate from datasheet figures (not "
                           "measured), and every relative speed is measured against it: those of RTX-4090 (measured "
                           "themselves) rest on its estimate")
    assert "the speeds of RTX-4090 are estimates" not in said
