"""`validate` refuses what `plan` would: a datasheet throughput_metric whose reference GPU has no such
figure in the GPU catalog (a review found `validate` said ok and every plan failed)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

GPUS = Path(__file__).resolve().parents[2] / "planner" / "data" / "gpus.csv"

SCENARIO = """\
name: a10g reference
horizon_months: 12
prices: {{providers: [aws], regions: [us-east-1]}}
onprem: {{cards: [rtx-4090]}}
workloads:
  - {{name: train, gpu_hours_per_month: 500, reference_gpu: A10G, throughput_metric: {metric}{table}}}
"""


def _a10g_row() -> dict:
    return next(row for row in csv.DictReader(GPUS.open(encoding="utf-8")) if row["gpu"] == "A10G")


@pytest.mark.parametrize("command", ["validate", "plan"])
def test_a_reference_gpu_without_the_metrics_figure_is_refused_by_validate_and_plan(tmp_path, command):
    row = _a10g_row()
    assert row["fp32_tflops"] == "" and row["memory_bandwidth_gbps"] != ""   # the catalog's own gap
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(metric="fp32_tflops", table=""))
    result = CliRunner().invoke(app, [command, str(path), *(["--no-decisions"] if command == "plan" else [])])
    assert result.exit_code == 2, result.output
    assert "workloads[0].throughput_metric: fp32_tflops: the reference GPU A10G has no fp32_tflops figure" in result.stderr
    assert "(it has memory_bandwidth_gbps)" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("metric, table", [
    ("memory_bandwidth_gbps", ""),                                   # a figure it has
    ("fp32_tflops", ", throughput: {A10G: 1.0, RTX-4090: 2.0}"),     # the user's own speeds name it
])
def test_a_figure_it_has_or_a_throughput_table_naming_it_validates(tmp_path, metric, table):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(metric=metric, table=table))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
