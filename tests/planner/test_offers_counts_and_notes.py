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


def table_rows(stdout: str) -> list[list[str]]:
    """The cells of each drawn row of a rich table (the lines between │ bars)."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in stdout.splitlines() if line.startswith("│")]


def test_the_table_numbers_each_rows_note_and_lists_the_notes_under_it():
    result = offers("--gpu", "INFERENTIA", "--limit", "2")
    header = next(line for line in result.stdout.splitlines() if line.startswith("┃"))
    assert [h.strip() for h in header.split("┃")[1:-1]][-1] == "note"
    assert [(row[2], row[5], row[6], row[-1]) for row in table_rows(result.stdout)] == [("inf1.xlarge", "1", "", "1")] * 2
    assert result.stdout.splitlines()[-1] == "note 1: gpu_memory_gb unknown"


def test_distinct_notes_are_numbered_in_the_order_of_the_rows_and_a_row_without_one_has_none():
    result = offers(*A10_EASTUS)
    # cheapest per GPU-hour first: NV12ads and NV6ads at 2.724 USD (0.908 × 3 = 0.454 × 6), then NV18ads at 3.2
    assert [(row[2], row[5], row[-1]) for row in table_rows(result.stdout)] == [
        ("Standard_NV12ads_A10_v5", "0.3333", "1"), ("Standard_NV6ads_A10_v5", "0.1667", "2"),
        ("Standard_NV18ads_A10_v5", "0.5", "3"), ("Standard_NV36ads_A10_v5", "1", ""),
        ("Standard_NV72ads_A10_v5", "2", ""), ("Standard_NV36adms_A10_v5", "1", "")]
    assert result.stdout.splitlines()[-3:] == [f"note {i}: {note}" for i, note in enumerate(FRACTIONAL_NOTES, 1)]


def test_a_long_note_is_listed_under_the_table_not_drawn_in_it():
    # the notes are 89-105 characters long; the table stays as wide as its other columns make it (155)
    result = offers(*A10_EASTUS)
    drawn = [line for line in result.stdout.splitlines() if line[:1] in "┏┃┡│└"]
    widths = {len(line) for line in drawn}
    assert len(widths) == 1 and widths.pop() <= 160
    assert not any(note[:30] in line for line in drawn for note in FRACTIONAL_NOTES)


def test_a_table_whose_rows_have_no_note_has_no_note_column():
    result = offers("--gpu", "A100-80GB", "--region", "us-east-1", "--option", "on_demand", "--provider", "aws")
    assert [row[2] for row in table_rows(result.stdout)] == ["p4de.24xlarge"]
    assert "note" not in result.stdout
    assert result.stdout.split("\n", 1)[0].strip() == "1 offer (USD)"   # the title said "1 offers"
