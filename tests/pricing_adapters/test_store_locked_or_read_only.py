"""What the price store says when it cannot be used for a while (another process holds its lock) or cannot be
written (the file, or the folder SQLite writes its journal in, is read-only).

Hostile-input audit: a lock made `open_store` return the packaged prices in the store's place (a plan then exited 0
with another total); a refresh into a store whose folder was read-only said the file was ("p.sqlite is read-only …
(attempt to write a readonly database)"), where SQLite could not create its journal in the folder. Root ignores
chmod, so the folder's wording is checked with os.access answering as for another user, and with SQLite's own
extended code; the real chmod runs where it can (not as root)."""

import os
import sqlite3
import stat

import pytest

from pricing_adapters import store as store_module
from pricing_adapters.errors import StoreError, StoreLocked
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore, open_store

REGION = "us-east-1"
READ_ONLY_TEXT = "attempt to write a readonly database"   # what SQLite says for a read-only file and folder alike
# what the message of a read-only store file says to do (an audit: it named the problem only)
WHAT_TO_DO = "; make it writable (chmod u+w; an immutable file: chattr -i), or give a --store / $FLEETPLAN_STORE elsewhere"


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


# -- read-only ------------------------------------------------------------------------------------------------

def _writes_refused(monkeypatch):
    """Make the store's connections refuse every write, with SQLite's own read-only error (root ignores chmod: the
    query_only pragma stands in)."""
    real = PriceStore._connect

    def connect(self):
        con = real(self)
        con.execute("PRAGMA query_only = ON")
        return con

    monkeypatch.setattr(PriceStore, "_connect", connect)


def _as_if_read_only(monkeypatch, *read_only):
    """os.access answers "no" to writing `read_only` paths, as it would for a user without the right."""
    real = os.access

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK and os.fspath(path) in {os.fspath(p) for p in read_only}:
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(store_module.os, "access", access)


def test_a_read_only_folder_is_named_as_the_folder_not_the_file(store, monkeypatch):
    _writes_refused(monkeypatch)
    _as_if_read_only(monkeypatch, store.path.parent)
    with pytest.raises(StoreError) as info:
        store.save("aws", [REGION], "later refresh", _offers())
    assert str(info.value) == (
        f"could not write to {store.path}: its folder {store.path.parent} is read-only, and SQLite writes a journal "
        f"file beside the store to save ({READ_ONLY_TEXT}); make the folder writable, or give a --store / "
        f"$FLEETPLAN_STORE in a writable folder")


def test_a_read_only_file_is_named_as_the_file(store, monkeypatch):
    _writes_refused(monkeypatch)
    _as_if_read_only(monkeypatch, store.path)
    with pytest.raises(StoreError) as info:
        store.save("aws", [REGION], "later refresh", _offers())
    assert str(info.value) == f"{store.path} is read-only: could not write to it ({READ_ONLY_TEXT}){WHAT_TO_DO}"


def test_a_read_only_file_in_a_read_only_folder_names_both(store, monkeypatch):
    _writes_refused(monkeypatch)
    _as_if_read_only(monkeypatch, store.path, store.path.parent)
    with pytest.raises(StoreError) as info:
        store.save("aws", [REGION], "later refresh", _offers())
    assert str(info.value) == (f"{store.path} is read-only, and so is its folder {store.path.parent}, where SQLite "
                               f"writes a journal file to save: could not write to it ({READ_ONLY_TEXT})")


def test_sqlites_own_code_for_a_read_only_folder_names_the_folder(store):
    # SQLite's extended code when it cannot create the journal (seen as user nobody in a chmod 555 folder):
    # SQLITE_READONLY_DIRECTORY (1544), whatever os.access says
    error = sqlite3.OperationalError(READ_ONLY_TEXT)
    error.sqlite_errorname = "SQLITE_READONLY_DIRECTORY"
    message = str(store_module._write_error(store.path, error))
    assert message.startswith(f"could not write to {store.path}: its folder {store.path.parent} is read-only")


def _chmod_works(folder) -> bool:
    """True when a folder made read-only is read-only to this process (not so for root)."""
    probe = folder / "probe"
    probe.mkdir()
    probe.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        return not os.access(probe, os.W_OK)
    finally:
        probe.chmod(stat.S_IRWXU)
        probe.rmdir()


def test_a_real_read_only_folder_is_named_and_the_store_unchanged(tmp_path):
    if not _chmod_works(tmp_path):
        pytest.skip("this user writes in read-only folders (root): the wording is checked with os.access above")
    folder = tmp_path / "ro"
    store = PriceStore(folder / "s.sqlite")
    store.save("aws", [REGION], "earlier refresh", _offers())
    before = store.path.read_bytes()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)   # 500: the file stays writable, no journal can be made beside it
    try:
        with pytest.raises(StoreError) as info:
            store.save("aws", [REGION], "later refresh", _offers())
        assert str(info.value).startswith(f"could not write to {store.path}: its folder {folder} is read-only")
        assert store.path.read_bytes() == before
    finally:
        folder.chmod(stat.S_IRWXU)


# -- checked before a refresh fetches (price-refresh audit a6) -------------------------------------------------------

class _CountedSource:
    """A price source that counts its fetches and returns the packaged us-east-1 offers."""

    provider, source = "aws", "counted"

    def __init__(self):
        self.fetches = 0

    def fetch(self, regions, progress):
        self.fetches += 1
        return _offers()


def test_a_refresh_into_a_read_only_store_fails_before_it_fetches(store, monkeypatch):
    # the audit's refresh fetched every page (minutes for a few regions), then failed to save
    from pricing_adapters.refresh import refresh

    before = store.path.read_bytes()
    _as_if_read_only(monkeypatch, store.path)
    source = _CountedSource()
    with pytest.raises(StoreError) as info:
        refresh(source, [REGION], store)
    assert str(info.value) == f"{store.path} is read-only: could not write to it{WHAT_TO_DO}"
    assert source.fetches == 0 and store.path.read_bytes() == before


def test_a_writer_opening_a_store_in_a_read_only_folder_is_refused_where_a_reader_is_not(store, monkeypatch):
    _as_if_read_only(monkeypatch, store.path.parent)
    with pytest.raises(StoreError) as info:
        open_store(store.path)
    assert str(info.value) == (
        f"could not write to {store.path}: its folder {store.path.parent} is read-only, and SQLite writes a journal "
        f"file beside the store to save; make the folder writable, or give a --store / $FLEETPLAN_STORE in a writable "
        f"folder")
    # plans only read: a read-only store keeps giving its prices
    opened, warning = open_store(store.path, create=False)
    assert warning is None and [i.id for i in opened.snapshots()] == [1]


def test_no_store_is_made_in_a_read_only_folder_not_even_its_lock(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    _as_if_read_only(monkeypatch, folder)
    with pytest.raises(StoreError) as info:
        PriceStore(folder / "s.sqlite")
    assert str(info.value) == (f"cannot create {folder / 's.sqlite'}: its folder {folder} is read-only; make the "
                               f"folder writable, or give a --store / $FLEETPLAN_STORE in a writable folder")
    assert list(folder.iterdir()) == []


def test_an_empty_read_only_file_is_named_as_read_only_before_it_is_made_a_store(tmp_path, monkeypatch):
    path = tmp_path / "s.sqlite"
    path.touch()
    _as_if_read_only(monkeypatch, path)
    with pytest.raises(StoreError) as info:
        PriceStore(path)
    assert str(info.value) == f"{path} is read-only: could not write to it{WHAT_TO_DO}"
    assert path.read_bytes() == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite"]
