"""A damaged store that a writer sets aside and replaces while another process reads it (CI, 2026-12-06: one of
20 processes racing on a damaged store was told "another application's file, left untouched")."""
import os
import sqlite3

import pytest
from store_race import damaged_store

import pricing_adapters.store as store_module
from pricing_adapters.errors import StoreCorrupt
from pricing_adapters.store import APPLICATION_ID, PriceStore, open_store


def new_store_at(path):
    """What the writer does once the damaged file is aside: a new store linked into place."""
    made = PriceStore(path.with_name("elsewhere") / "prices.sqlite").path
    os.link(made, path)


def move_aside(path):
    os.link(path, path.with_name(path.name + ".bad-test"))
    os.unlink(path)


def test_a_store_set_aside_between_the_error_and_the_header_read_is_looked_at_again(tmp_path, monkeypatch):
    # The interleaving CI met: this process's read of the damaged file fails; the writer moves the file aside
    # just before this process reads the header (no file: "not ours"), then links its new store into place.
    path = tmp_path / "prices.sqlite"
    damaged_store(path)
    real_is_ours = store_module._is_ours
    calls = []

    def is_ours_while_the_writer_works(p):
        calls.append(p)
        if len(calls) == 1:
            move_aside(path)
            seen = real_is_ours(p)       # no file at the path now: False
            new_store_at(path)
            return seen
        return real_is_ours(p)

    monkeypatch.setattr(store_module, "_is_ours", is_ours_while_the_writer_works)
    for create in (False, True):
        calls.clear()
        if create:
            os.unlink(path)
            damaged_store(path)
        store, warning = open_store(path, create=create)
        assert store is not None and warning is None   # the writer's new store, not "another application's"
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        con.close()
        assert calls, "the race was not staged: the header was never read"
        (path.with_name(path.name + ".bad-test")).unlink()
        (path.with_name("elsewhere") / "prices.sqlite").unlink()


def test_a_reader_of_a_damaged_store_replaced_while_it_read_gets_the_new_store(tmp_path, monkeypatch):
    # The read fails on the old file; by the header read the path holds the writer's new, good store: that is no
    # damaged store to refuse (it was StoreCorrupt for a reader, which must leave a damaged store where it is).
    path = tmp_path / "prices.sqlite"
    damaged_store(path)
    real_connect = store_module._connect
    staged = []

    def connect_then_the_writer_works(p):
        con = real_connect(p)
        con.execute("PRAGMA application_id")   # the file is opened: this connection holds the old one
        if not staged:
            staged.append(p)
            move_aside(path)
            new_store_at(path)
        return con

    monkeypatch.setattr(store_module, "_connect", connect_then_the_writer_works)
    store, warning = open_store(path, create=False)
    assert staged and store is not None and warning is None
    assert store.snapshots() == []


def test_a_damaged_store_nobody_replaces_is_still_refused_to_a_reader(tmp_path):
    path = tmp_path / "prices.sqlite"
    before = damaged_store(path)
    with pytest.raises(StoreCorrupt, match="damaged price store"):
        open_store(path, create=False)
    assert path.read_bytes() == before
