"""An offers CSV (`prices.source: FILE`) is read to at most MAX_OFFERS_CSV_BYTES (64 MiB), as a scenario,
a profile, an inventory and a saved plan are each read to their own limit (audit H 6: a 147 MB CSV was read
whole, 595 MB of memory for a plan).

Facts from outside the code: the size of the files the tests write, and examples/offers-g5-us-east-1.csv,
436 bytes (`wc -c`) of one g5.xlarge offer at 1.006 USD/h."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters import snapshot
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

ROOT = Path(__file__).resolve().parents[2]
G5 = ROOT / "examples" / "offers-g5-us-east-1.csv"
TOO_LARGE = ("larger than 64 MiB; not an offers table (every GPU offer of AWS and Azure, in every region and "
             "purchase option, is at most about 45 MB)")


def one_line_error(*args: object) -> str:
    """The error `fleetplan *args` printed, exiting 2: one line on stderr, no traceback."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr.strip()


def sparse(path: Path, head: Path, size: int) -> Path:
    """`head`'s bytes, then NULs up to `size` bytes (a sparse file: no disk written for them)."""
    path.write_bytes(head.read_bytes())
    with path.open("r+b") as f:
        f.truncate(size)
    return path


def test_an_offers_csv_over_64_mib_is_refused_before_pandas_parses_it(tmp_path, monkeypatch):
    big = sparse(tmp_path / "offers.csv", G5, 64 * 2**20 + 1)

    def parsed(*args, **kwargs):
        raise AssertionError("pandas parsed a file over the limit")

    monkeypatch.setattr(pd, "read_csv", parsed)
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(str(big), origin=str(big))
    assert str(info.value) == f"{big}: {TOO_LARGE}"


def test_a_scenario_on_an_offers_csv_over_64_mib_exits_2_naming_the_file(tmp_path):
    scenario = tmp_path / "melange-toy.yaml"
    shutil.copy(ROOT / "examples" / "melange-toy.yaml", scenario)
    big = sparse(tmp_path / "offers-melange-toy.csv", ROOT / "examples" / "offers-melange-toy.csv", 64 * 2**20 + 1)
    # validate names the scenario's field, as for any offers CSV it cannot read; plan the file; both as the scenario
    # names it (offers-melange-toy.csv), not the path it was resolved to
    assert one_line_error("validate", scenario) == f"error: {scenario}: prices.source: {big.name}: {TOO_LARGE}"
    assert one_line_error("plan", scenario) == f"error: {big.name}: {TOO_LARGE}"


def test_an_offers_csv_of_exactly_the_limit_is_read_and_one_byte_more_is_not(monkeypatch):
    assert G5.stat().st_size == 436
    monkeypatch.setattr(snapshot, "MAX_OFFERS_CSV_BYTES", 436)
    offers = read_offers_csv(str(G5), origin="g5.csv")
    assert list(offers["sku"]) == ["g5.xlarge"] and list(offers["hourly_price"]) == [1.006]
    monkeypatch.setattr(snapshot, "MAX_OFFERS_CSV_BYTES", 435)
    with pytest.raises(OffersSchemaError, match=r"^g5\.csv: larger than "):
        read_offers_csv(str(G5), origin="g5.csv")
