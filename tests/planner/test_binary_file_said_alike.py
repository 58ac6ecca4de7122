"""The same wrong file is called the same thing wherever it is given (pricing_adapters.signatures, one table of file
signatures since 2026-12-06): a scenario, a workload's profile CSV, an offers CSV (`prices.source`), the price store
(--store). Before, the scenario's reader named a workbook, a PDF or a compressed copy by its format, while a profile
said "not UTF-8 text (byte 0x8b) … often a Latin-1 accent", an offers CSV the same, and the store "file is not a
database"; and the scenario's reader missed the kinds the offers reader knew (.lzma, an empty zip, an empty bzip2)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import zipfile
from pathlib import Path

import pytest

from planner import load_scenario
from planner.errors import ScenarioError
from planner.reports.compare import read_side
from planner.scenario.profile_csv import read_profile_csv
from pricing_adapters.errors import StoreForeign
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv
from pricing_adapters.store import PriceStore
from tests.planner.test_scenario_file_not_yaml import SCENARIO, _sqlite, _xlsx

LEFT = "it was left untouched: move it or give another --store / $FLEETPLAN_STORE"


def _empty_zip() -> bytes:
    out = io.BytesIO()
    zipfile.ZipFile(out, "w").close()   # only the end record: 50 4b 05 06 and 18 bytes
    return out.getvalue()


PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


def _scenario_problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return info.value.problems


# -- kinds the offers reader knew and the scenario's did not ------------------------------------------------------

@pytest.mark.parametrize(("make", "said"), [
    (lambda: lzma.compress(SCENARIO.encode(), format=lzma.FORMAT_ALONE),
     "is an lzma-compressed file, not a scenario YAML file; decompress it first"),
    (_empty_zip, "is a zip file, not a scenario YAML file"),
    (lambda: bz2.compress(b""), "is a bzip2-compressed file, not a scenario YAML file; decompress it first"),
])
def test_a_scenario_compressed_as_the_offers_reader_knows_is_named(tmp_path, make, said):
    path = tmp_path / "s.yaml"
    path.write_bytes(make())
    assert _scenario_problems(path) == [f"{path}: {said}"]


# -- a profile CSV ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "said"), [
    (lambda tmp: gzip.compress(b"1\n" * 168), "is a gzip-compressed file, not a profile CSV file; decompress it first"),
    (lambda tmp: _xlsx(), "is an Excel workbook (a zip file), not a profile CSV file"),
    (lambda tmp: PDF, "is a PDF document, not a profile CSV file"),
    (lambda tmp: _sqlite(tmp / "made.sqlite"),
     "is an SQLite database, not a profile CSV file; a price store is given with --store (plan(store=…) in Python)"),
])
def test_a_binary_profile_is_named_by_its_format(tmp_path, make, said):
    profile = tmp_path / "week.csv"
    profile.write_bytes(make(tmp_path))
    with pytest.raises(ScenarioError) as info:
        read_profile_csv(profile)
    assert info.value.problems == [f"{profile}: {said}"]
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.replace("reference_gpu: RTX-4090", "reference_gpu: RTX-4090, profile: week.csv"),
                        encoding="utf-8")
    assert any(problem.endswith(f"{said}") and "week.csv" in problem for problem in _scenario_problems(scenario)), \
        _scenario_problems(scenario)


# -- an offers CSV ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "said"), [
    (lambda tmp: _xlsx(), "is an Excel workbook (a zip file), not an offers CSV file"),
    (lambda tmp: PDF, "is a PDF document, not an offers CSV file"),
    (lambda tmp: PNG, "is a PNG image, not an offers CSV file"),
    (lambda tmp: _sqlite(tmp / "made.sqlite"),
     "is an SQLite database, not an offers CSV file; a price store is given with --store (plan(store=…) in Python)"),
])
def test_a_binary_offers_file_is_named_by_its_format(tmp_path, make, said):
    offers = tmp_path / "offers.csv"
    offers.write_bytes(make(tmp_path))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(offers, origin=str(offers))
    assert str(info.value) == f"{offers}: {said}"


def test_an_offers_csv_compressed_is_still_read(tmp_path):
    # the kinds the offers reader decompresses are no wrong file there: a gzip of a CSV with only a header is read
    offers = tmp_path / "offers.csv.gz"
    offers.write_bytes(gzip.compress(b"a,b\n"))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(offers, origin=str(offers))
    assert "missing columns" in str(info.value)


# -- the price store ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("make", "said"), [
    (lambda: gzip.compress(b"x" * 100), "is a gzip-compressed file, not a fleetplan price store; decompress it first"),
    (_xlsx, "is an Excel workbook (a zip file), not a fleetplan price store"),
    (lambda: PDF, "is a PDF document, not a fleetplan price store"),
])
def test_a_binary_store_path_is_named_by_its_format(tmp_path, make, said):
    store, data = tmp_path / "prices.db", make()
    store.write_bytes(data)
    with pytest.raises(StoreForeign) as info:
        PriceStore(store)
    assert str(info.value) == f"{store} {said}; {LEFT}"
    assert store.read_bytes() == data   # left as it is


# -- a side of compare read through a pipe ------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_binary_scenario_through_a_pipe_is_named_as_a_file_is(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    # the bytes wait in the pipe (held open by a reader of ours) before compare opens it, as `<(cat s.yaml.gz)`'s do
    held = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        writer = os.open(pipe, os.O_WRONLY)
        os.write(writer, gzip.compress(SCENARIO.encode()))
        os.close(writer)
        with pytest.raises(ScenarioError) as info:
            read_side(pipe)
    finally:
        os.close(held)
    assert info.value.problems == [f"{pipe}: is a gzip-compressed file, not a scenario YAML file; decompress it first"]
