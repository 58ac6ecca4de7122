"""`fleetplan offers`: counts are written as integers (CSV and JSON wrote `gpu_count` 1.0 and `vcpus` 4.0), and the
table shows why a figure is empty: its `note` column numbers each row's note, listed under the table (the table left
the note out, so an empty gpu_memory_gb or gpu_count had no reason).

Facts used (AWS and Azure instance pages, as the packaged snapshot holds them): inf1.xlarge has 1 Inferentia chip
and 4 vCPUs, its chip's memory not stated ("gpu_memory_gb unknown"); dl1.24xlarge has 96 vCPUs and its Gaudi count
is not in the snapshot's source ("gpu_count unknown"); Standard_NV6ads_A10_v5 is 1/6 of an A10 with 6 vCPUs,
NV12ads 1/3 with 12, NV18ads 1/2 with 18; NV36ads_A10_v5 is one whole A10 (no note); on-prem cards state no vCPUs.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from planner.cli import app

A10_EASTUS = ["--gpu", "A10", "--provider", "azure", "--option", "on_demand", "--region", "eastus"]
FRACTIONAL_NOTES = [
    "fractional GPU: 1/3 of one per unit | fractional A10: vCPUs/36 = 12/36 (the reference's 0.333 is rounded)",
    "fractional GPU: 1/6 of one per unit | fractional A10: vCPUs/36 = 6/36 (the reference's 0.167 is rounded)",
    "fractional GPU: 1/2 of one per unit | fractional A10: vCPUs/36 = 18/36 (as the reference)",
]


def offers(*args: str):
    result = CliRunner().invoke(app, ["offers", *args])
    assert result.exit_code == 0, result.output
    return result


def csv_rows(*args: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(offers(*args, "--format", "csv").stdout)))


def test_csv_writes_a_whole_count_as_an_integer():
    rows = csv_rows("--gpu", "INFERENTIA", "--limit", "2")
    assert [(r["sku"], r["gpu_count"], r["vcpus"], r["gpu_memory_gb"]) for r in rows] == [("inf1.xlarge", "1", "4", "")] * 2


def test_csv_writes_an_unknown_count_empty_and_a_partial_gpu_as_its_fraction():
    rows = csv_rows()   # every offer: unknown counts and on-prem cards without vCPUs among whole counts
    dl1 = [r for r in rows if r["sku"] == "dl1.24xlarge"]
    assert dl1 and all((r["gpu_count"], r["vcpus"]) == ("", "96") for r in dl1)
    nv6 = [r for r in rows if r["sku"] == "Standard_NV6ads_A10_v5"]
    assert nv6 and all(float(r["gpu_count"]) == pytest.approx(1 / 6, rel=1e-15) and r["vcpus"] == "6" for r in nv6)
    onprem = [r for r in rows if r["provider"] == "onprem"]
    assert onprem and all((r["gpu_count"], r["vcpus"]) == ("1", "") for r in onprem)
    assert not [r for r in rows if r["gpu_count"].endswith(".0") or r["vcpus"].endswith(".0")]


def test_json_writes_a_whole_count_as_an_integer_and_an_unknown_one_as_null():
    rows = json.loads(offers("--format", "json").stdout)
    inf1 = next(r for r in rows if r["sku"] == "inf1.xlarge")
    assert type(inf1["gpu_count"]) is int and type(inf1["vcpus"]) is int and (inf1["gpu_count"], inf1["vcpus"]) == (1, 4)
    dl1 = next(r for r in rows if r["sku"] == "dl1.24xlarge")
    assert dl1["gpu_count"] is None and type(dl1["vcpus"]) is int and dl1["vcpus"] == 96
    nv6 = next(r for r in rows if r["sku"] == "Standard_NV6ads_A10_v5")
    assert nv6["gpu_count"] == pytest.approx(1 / 6, rel=1e-15) and nv6["vcpus"] == 6
