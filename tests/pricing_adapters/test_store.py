"""The price store keeps every snapshot whole: all or nothing; damaged stores of ours set aside, any other
file left alone."""

import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import respx
from store_race import damaged_store
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters.errors import StoreCorrupt, StoreError, StoreForeign, StoreMissing
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore, open_store, set_aside

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def aws_offers():
    return load_snapshot(["aws"])


def test_round_trip_keeps_every_value(tmp_path, aws_offers):
    store = PriceStore(tmp_path / "s.sqlite")
    info = store.save("aws", ["us-east-1"], "test", aws_offers)
    assert info.row_count == len(aws_offers) == 732
    back = store.offers(info.id).sort_values("offer_id").reset_index(drop=True)
    pd.testing.assert_frame_equal(back, aws_offers.sort_values("offer_id").reset_index(drop=True))


def test_latest_is_per_provider_and_newest(tmp_path, aws_offers):
    store = PriceStore(tmp_path / "s.sqlite")
    first = store.save("aws", ["us-east-1"], "t", aws_offers)
    azure = store.save("azure", ["eastus"], "t", load_snapshot(["azure"]))
    second = store.save("aws", ["us-east-1"], "t", aws_offers.head(10))
    assert [i.id for i in store.latest()] == [second.id, azure.id]
    assert first.id in [s.id for s in store.snapshots()]  # every refresh is kept


def test_invalid_offers_are_never_written(tmp_path, aws_offers):
    store = PriceStore(tmp_path / "s.sqlite")
    store.save("aws", ["us-east-1"], "t", aws_offers)
    bad = aws_offers.copy()
    bad.loc[0, "hourly_price"] = -1.0
    with pytest.raises(OffersSchemaError, match="negative hourly_price -1.0"):
        store.save("aws", ["us-east-1"], "t", bad)
    with pytest.raises(StoreError, match="no offers"):
        store.save("aws", ["us-east-1"], "t", aws_offers.head(0))
    assert len(store.snapshots()) == 1


def test_a_damaged_store_is_set_aside_by_a_writer_and_a_new_store_made(tmp_path):
    path = tmp_path / "s.sqlite"
    damaged = damaged_store(path)
    store, warning = open_store(path)
    (aside,) = tmp_path.glob("s.sqlite.bad-*")
    # SQLite's words for pages overwritten after the header (store_race.damage)
    assert warning == f"{path} is a damaged price store (database disk image is malformed); moved aside to {aside}"
    assert aside.read_bytes() == damaged and store.snapshots() == [] and store.path == path


def test_a_reader_is_refused_a_damaged_store_and_leaves_it(tmp_path):
    # a plan read the packaged prices in its place (exit 0, a warning) after setting it aside; the next plan then
    # found no store and read them too: the scenario asks for the store's prices
    path = tmp_path / "s.sqlite"
    damaged = damaged_store(path)
    with pytest.raises(StoreCorrupt, match=f"^{re.escape(str(path))} is a damaged price store \\(database disk image"):
        open_store(path, create=False)
    assert [(p.name, p.read_bytes()) for p in tmp_path.iterdir()] == [("s.sqlite", damaged)]


def test_a_file_that_is_no_database_is_never_set_aside(tmp_path):
    # a scenario or any file given as the store path: SQLite says "file is not a database", as it would
    # for a store of ours whose header was destroyed; only a header saying "fleetplan" makes it ours
    path = tmp_path / "s.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    for create in (True, False):   # neither a writer nor a reader moves it, nor reads the packaged prices instead
        with pytest.raises(StoreForeign, match="not a fleetplan price store .* left untouched"):
            open_store(path, create=create)
    with pytest.raises(StoreForeign):
        set_aside(path)
    assert [(p.name, p.read_bytes()) for p in tmp_path.iterdir()] == [("s.sqlite", b"not a database at all" * 100)]


def test_a_reader_that_creates_nothing_is_told_there_is_no_store(tmp_path, aws_offers):
    with pytest.raises(StoreMissing, match="no price store at"):
        PriceStore(tmp_path / "new" / "s.sqlite", create=False)
    (tmp_path / "empty.sqlite").touch()
    with pytest.raises(StoreMissing, match=r"yet \(an empty file\)"):
        PriceStore(tmp_path / "empty.sqlite", create=False)
    assert [(p.name, p.stat().st_size) for p in tmp_path.iterdir()] == [("empty.sqlite", 0)]
    saved = PriceStore(tmp_path / "s.sqlite").save("aws", ["us-east-1"], "t", aws_offers.head(3))
    assert [i.id for i in PriceStore(tmp_path / "s.sqlite", create=False).snapshots()] == [saved.id]


def test_foreign_sqlite_file_is_detected(tmp_path):
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="not a fleetplan price store"):
        PriceStore(path)


KILL_SCRIPT = """
import sys, pandas as pd
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore
offers = load_snapshot(["aws"])
big = pd.concat([offers] * 400, ignore_index=True)
big["offer_id"] = big["offer_id"] + ":" + big.index.astype(str)
PriceStore(sys.argv[1]).save("aws", ["us-east-1"], "big", big)
print("committed")
"""


def test_refresh_killed_halfway_leaves_the_store_readable_and_unchanged(tmp_path, aws_offers):
    path = tmp_path / "s.sqlite"
    store = PriceStore(path)
    good = store.save("aws", ["us-east-1"], "good", aws_offers)
    journal = path.with_name(path.name + "-journal")
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(path)], cwd=ROOT, stdout=subprocess.PIPE)
    deadline = time.time() + 60
    while not journal.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    proc.kill()  # SIGKILL in the middle of the write transaction
    out, _ = proc.communicate()
    assert b"committed" not in out, "the write finished before it could be killed"
    reopened = PriceStore(path)  # readable: integrity check passes, the hot journal rolls back
    assert [s.id for s in reopened.snapshots()] == [good.id]
    assert len(reopened.offers(good.id)) == len(aws_offers)


def test_a_store_made_before_gpu_memory_mib_reads_and_gains_the_column(tmp_path, aws_offers):
    sample = aws_offers[aws_offers.gpu_memory_mib.notna()].head(3)
    path = tmp_path / "old.sqlite"
    old = PriceStore(path).save("aws", ["us-east-1"], "before", sample)
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE offers DROP COLUMN gpu_memory_mib")   # the table as an older fleetplan made it
    con.commit()
    con.close()
    store = PriceStore(path)
    assert store.offers(old.id).gpu_memory_mib.isna().all()        # old rows: unknown, not an error
    new = store.save("aws", ["us-east-1"], "after", sample)          # the column is added on write
    back = store.offers(new.id).sort_values("offer_id").reset_index(drop=True)
    assert back.gpu_memory_mib.tolist() == sample.sort_values("offer_id").gpu_memory_mib.tolist()
    assert store.offers(old.id).gpu_memory_mib.isna().all()


@pytest.mark.parametrize("below", ["s.sqlite", "sub/s.sqlite"])
def test_a_store_path_below_a_file_is_a_one_line_error_and_the_cli_exits_2(tmp_path, monkeypatch, below):
    # path.parent.mkdir() ran outside any try: a FileExistsError / NotADirectoryError traceback
    blocker = tmp_path / "prices"
    blocker.write_text("not a folder")
    path = blocker / below
    with pytest.raises(StoreError) as info:
        PriceStore(path)
    assert str(info.value) == f"cannot use {path}: cannot make its folder {path.parent}: {blocker} is a file, not a folder"
    # the CLI checks the path first, as plan and validate do (catalog.prices.store_mistake), naming what gave it
    for args, env, said in ((["--store", str(path)], {}, f"--store {path}"),
                            ([], {"FLEETPLAN_STORE": str(path)}, f"FLEETPLAN_STORE={path}")):
        # the store is opened before any request; respx with no route fails any request that is made anyway
        with respx.mock():
            result = CliRunner().invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                              *args], env=env)
        assert result.exit_code == 2, result.output
        assert result.stderr.strip() == f"error: {said}: {blocker} is a file, not a folder"
    assert blocker.read_text() == "not a folder"
