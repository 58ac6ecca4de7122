"""What the price store says when it cannot be used for a while: another process holds its lock.

Hostile-input audit: a lock made `open_store` return the packaged prices in the store's place (a plan then exited 0
with another total)."""

import sqlite3

import pytest

from pricing_adapters import store as store_module
from pricing_adapters.errors import StoreLocked
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore, open_store

REGION = "us-east-1"


@pytest.fixture
def store(tmp_path):
    """A store holding one AWS snapshot of us-east-1 (the packaged offers)."""
    s = PriceStore(tmp_path / "s.sqlite")
    s.save("aws", [REGION], "earlier refresh", _offers())
    return s


def _offers():
    return load_snapshot(["aws"]).query("region == @REGION")


@pytest.fixture
def other_connection_locks(store, monkeypatch):
    """Another connection holds an exclusive transaction on the store (as a refresh committing does) for the test;
    the store waits 0.1 s for it."""
    monkeypatch.setattr(store_module, "BUSY_WAIT_S", 0.1)
    con = sqlite3.connect(store.path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    yield store
    con.close()


# -- locked ---------------------------------------------------------------------------------------------------

def test_opening_a_locked_store_raises_the_lock_rather_than_giving_the_packaged_prices(other_connection_locks):
    path = other_connection_locks.path
    with pytest.raises(StoreLocked) as info:
        open_store(path, create=False)
    assert str(info.value) == (f"the price store {path} is locked by another process (a refresh?): still locked "
                               f"after 0.1 s; try again when it ends")


def test_a_refresh_into_a_locked_store_names_the_lock(other_connection_locks):
    with pytest.raises(StoreLocked, match="is locked by another process"):
        other_connection_locks.save("aws", [REGION], "later refresh", _offers())


def test_once_the_lock_ends_the_store_opens_with_its_snapshot(store, monkeypatch):
    monkeypatch.setattr(store_module, "BUSY_WAIT_S", 0.1)
    con = sqlite3.connect(store.path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreLocked):
        open_store(store.path, create=False)
    con.close()
    opened, warning = open_store(store.path, create=False)
    assert warning is None and [i.id for i in opened.snapshots()] == [1]


def test_a_store_that_is_not_there_still_gives_the_packaged_prices_with_a_warning(tmp_path):
    path = tmp_path / "none.sqlite"
    assert open_store(path, create=False) == (
        None, f"no price store at {path}: `fleetplan prices refresh` makes one; using the packaged snapshot")
