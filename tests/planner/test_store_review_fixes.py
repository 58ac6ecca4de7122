"""A review of the price store's and refresh checks' changes (2026-12-07): SIGTERM stops a solve at once where SIGINT
is ignored too; a refresh stopped after its snapshot was saved says it was saved; forked children end silently at
SIGTERM; a failed first save removes its new store only while no other save is in it; a new region's reservations are
held against the same reservation in other regions; the `prices diff` hint names one diff only where one shows it all.
"""

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd

from planner import process
from pricing_adapters import jumps, refresh
from pricing_adapters import store as store_module
from tests.planner.test_store_ops_audit import SIGNALLED
from tests.planner.test_store_refresh_audit import files

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, *args: str, sigint_ignored: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT), "AWS_EC2_METADATA_DISABLED": "true",
                                                      "PATH": "/usr/bin:/bin"},
                          preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                           signal.SIG_IGN if sigint_ignored else signal.SIG_DFL))


def test_a_background_job_ignoring_sigint_still_has_its_solves_stopped_by_sigterm():
    code = """
        import signal
        from planner import process
        process.stop_solves_on_interrupt()
        print(process.stopping_solves(), signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
              signal.getsignal(signal.SIGTERM) is process._on_interrupt)
    """
    # a job started with `&` by a script ignores SIGINT: the solves' checks were never set up, so a SIGTERM waited
    # for the whole solve
    assert _python(code, sigint_ignored=True).stdout.split() == ["True", "True", "True"]


def test_a_forked_child_gets_sigterms_default_back():
    previous = signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, process._on_interrupt)
        process.default_stop_signals()
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        signal.signal(signal.SIGTERM, signal.SIG_IGN)   # one the process set itself is left
        process.default_stop_signals()
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_refresh_stopped_after_its_save_says_it_was_saved(tmp_path):
    # the signal comes while it says what the checks let through, after the snapshot was committed
    code = SIGNALLED.replace("store_module._purge_credentials = signalled",
                             "refresh_module.moved_text = lambda *a: os.kill(os.getpid(), signal.SIGTERM)")
    code = code.replace("{signal}", "SIGTERM")
    path = tmp_path / "new.sqlite"
    result = _python(code, str(path))
    assert result.returncode == 143, result.stderr
    said = " ".join(result.stderr.split())
    assert "refresh stopped: stopped by SIGTERM after it saved snapshot #1" in said, said
    assert "unchanged" not in said
    assert [row[0] for row in sqlite3.connect(path).execute("SELECT id FROM snapshots")] == [1]


def test_a_failed_first_save_keeps_the_new_store_while_another_save_is_in_it(tmp_path):
    path = tmp_path / "new.sqlite"
    made = store_module._create(path)
    other = sqlite3.connect(path, isolation_level=None, timeout=0.1)
    other.execute("BEGIN IMMEDIATE")   # another process's save, begun and not committed
    try:
        assert not store_module._removed_if_only_made(path, made)   # waited for, in vain: kept
        assert path.exists()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store_module._removed_if_only_made(path, made)
    assert files(tmp_path) == {}


def test_a_new_regions_reservation_is_held_against_the_same_reservation_elsewhere(monkeypatch):
    # an AWS reservation's id carries its payment and class after the option (pricing_adapters.aws)
    base = {"provider": "aws", "sku": "g5.xlarge", "currency": "USD", "upfront_price": 0.0}
    stored = pd.DataFrame([
        {**base, "region": "us-east-1", "purchase_option": "reserved_1y", "hourly_price": 0.6, "term_months": 12,
         "offer_id": "aws:us-east-1:g5.xlarge:reserved_1y:no_upfront:standard"},
        {**base, "region": "us-east-1", "purchase_option": "reserved_1y", "hourly_price": 0.4, "term_months": 12,
         "offer_id": "aws:us-east-1:g5.xlarge:reserved_1y:no_upfront:convertible"},
        {**base, "region": "us-west-2", "purchase_option": "reserved_1y", "hourly_price": 0.8, "term_months": 12,
         "offer_id": "aws:us-west-2:g5.xlarge:reserved_1y:no_upfront:standard"}])
    monkeypatch.setattr(jumps, "_packaged", lambda provider: stored.iloc[:0])
    held = jumps.other_regions_prices({"us-east-1": (stored[:2], "snapshot #1"), "us-west-2": (stored[2:], "snapshot #2")},
                                      "aws", "ca-west-1")
    prices = dict(zip(held["offer_id"], held["hourly_price"]))
    # the standard class: the median of 0.6 and 0.8; the convertible one alone: 0.4 (merged, both had read 0.6)
    assert prices == {"aws:ca-west-1:g5.xlarge:reserved_1y:no_upfront:standard": 0.7,
                      "aws:ca-west-1:g5.xlarge:reserved_1y:no_upfront:convertible": 0.4}


def test_the_diff_hint_names_one_diff_only_where_one_shows_every_region():
    some = pd.DataFrame({"offer_id": ["x"]})
    none = some.iloc[:0]
    assert refresh._in_force_id({"a": (some, "snapshot #3"), "b": (some, "snapshot #3")}) == "3"
    assert refresh._in_force_id({"a": (some, jumps.PACKAGED_SNAPSHOT)}) == "packaged"
    assert refresh._in_force_id({"a": (some, "snapshot #3"), "b": (some, "snapshot #2")}) is None
    assert refresh._in_force_id({"a": (some, "snapshot #3"), "b": (none, jumps.PACKAGED_SNAPSHOT)}) is None


def test_a_store_removed_under_a_save_is_said_so_not_called_read_only(tmp_path):
    # SQLite says "attempt to write a readonly database" (SQLITE_READONLY_DBMOVED): the advice was to chmod the file
    path = tmp_path / "s.sqlite"
    store_module._create(path)
    con = store_module._connect(path)
    con.execute("SELECT count(*) FROM snapshots").fetchone()
    path.unlink()
    try:
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO store_info (key, value) VALUES ('x', 'y')")
        con.execute("COMMIT")
        raise AssertionError("SQLite wrote to a removed file")
    except sqlite3.Error as exc:
        said = str(store_module._write_error(path, exc))
    finally:
        con.close()
    assert "removed or replaced while this process had it open" in said and "run the refresh again" in said
    assert "chmod" not in said
