"""`fleetplan offers`: `--min-memory` leaves out offers whose GPU memory is not known (no figure to compare), and
now says so, as --max-price names the offers it leaves out: `--gpu INFERENTIA --min-memory 0` printed an empty
table and exit 0 though the packaged snapshot holds Inferentia offers (inf1, whose memory has no source)."""

from __future__ import annotations

import csv
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

SNAPSHOTS = Path(__file__).resolve().parents[2] / "pricing_adapters" / "snapshots"


def _unknown_memory(gpu: str) -> int:
    """Packaged snapshot rows of `gpu` with an empty gpu_memory_gb, counted from the CSV files themselves."""
    count = 0
    for path in SNAPSHOTS.glob("*.csv"):
        with path.open(encoding="utf-8") as f:
            count += sum(1 for row in csv.DictReader(f) if row["gpu"] == gpu and row["gpu_memory_gb"] == "")
    return count


def test_offers_of_unknown_memory_left_out_by_min_memory_are_named():
    expected = _unknown_memory("INFERENTIA")
    assert expected > 0
    result = CliRunner().invoke(app, ["offers", "--gpu", "INFERENTIA", "--min-memory", "0", "--format", "csv"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert f"{expected} offers with an unknown gpu_memory_gb left out (inf1." in said
    assert "--min-memory needs the GPU's memory" in said


def test_without_min_memory_nothing_is_said_of_memory():
    result = CliRunner().invoke(app, ["offers", "--gpu", "INFERENTIA", "--format", "csv"])
    assert result.exit_code == 0 and "gpu_memory_gb left out" not in result.output
    assert result.output.count("inf1.") >= _unknown_memory("INFERENTIA")


def test_a_limited_table_says_how_many_matched():
    # `--limit 3` was titled "3 offers (USD)" though every packaged offer matched: the cheapest 3 of how many
    rows = 0
    for path in SNAPSHOTS.glob("*.csv"):
        with path.open(encoding="utf-8") as f:
            rows += sum(1 for _ in csv.DictReader(f))
    full = CliRunner().invoke(app, ["offers", "--format", "csv"])
    matched = len(full.stdout.strip().splitlines()) - 1
    assert matched >= rows   # every cloud row, and the on-prem cards with a price
    result = CliRunner().invoke(app, ["offers", "--limit", "3"])
    assert result.exit_code == 0 and f"the cheapest 3 of {matched:,} offers (USD)" in result.stdout
    assert f"{matched:,} offers (USD)" in CliRunner().invoke(app, ["offers"]).stdout
