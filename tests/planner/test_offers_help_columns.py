"""`fleetplan offers --help` says which columns csv and json carry, and that a price's source is not one of them
(data-provenance audit 2026-12-07: it said csv and json "carry every column", but an offer's `source`, which the
packaged snapshot and planner/data/onprem_cards.csv hold for every price, is in neither).

The columns expected are the help's own list: the terminal table's (provider … as_of), vcpus, memory_gb, zone and
note.
"""

import csv
import io
import json

from tests.planner.cli_run import run

COLUMNS = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb", "vcpus", "memory_gb",
           "usd_per_hour", "usd_per_gpu_hour", "zone", "as_of", "note"]
ASKED = ["offers", "--gpu", "A100-80GB", "--provider", "aws"]


def _help() -> str:
    result = run("offers", "--help")
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_the_help_no_longer_says_csv_and_json_carry_every_column():
    assert "carry every column" not in _help()


def test_the_help_says_a_price_s_source_is_not_in_csv_or_json_and_where_it_is():
    said = _help()
    assert "csv and json carry the table's columns and vcpus, memory_gb, zone and the note itself too" in said
    assert ("but not a price's source: a cloud price's is in the packaged snapshot (pricing_adapters/snapshots/), "
            "a card's in planner/data/onprem_cards.csv") in said


def test_the_csv_and_json_columns_are_the_ones_the_help_lists():
    result = run(*ASKED, "--format", "csv")
    assert result.exit_code == 0, result.output
    header = next(csv.reader(io.StringIO(result.stdout)))
    assert sorted(header) == sorted(COLUMNS) and "source" not in header
    result = run(*ASKED, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    rows = rows["offers"] if isinstance(rows, dict) else rows
    assert rows and all(sorted(row) == sorted(COLUMNS) for row in rows)
