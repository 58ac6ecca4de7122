"""The ops audit of the price store (2026-12-07): a store that replaces a damaged one goes on numbering its snapshots
after the old store's ids, so a scenario pinned to an id of the old store is refused instead of planning on another
snapshot of the same number; each store has an id; a refresh that fails while saving (a full disk) or that is stopped
by SIGTERM leaves no new store or lock file behind.

Stores are real SQLite files in tmp_path; the price source is the fake of test_store_refresh_audit (the packaged
g5.xlarge on-demand offer of us-east-1 at a price of the test's choosing; no network).
"""

import errno
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import pricing_adapters.refresh as refresh_module
import pricing_adapters.store as store_module
from pricing_adapters.store import PriceStore
from tests.planner.cli_run import run
from tests.planner.test_prices_pinned import SCENARIO
from tests.planner.test_store_refresh_audit import Source, files, flat, g5_at

ROOT = Path(__file__).resolve().parents[2]


def source_at(monkeypatch, price: float) -> None:
    """The fake price source gives g5.xlarge at `price` USD/h."""
    class Priced(Source):
        def fetch(self, regions, progress):
            return g5_at(price)

    monkeypatch.setattr(refresh_module, "get_source", lambda provider, **kw: Priced(False))


def refresh_at(monkeypatch, store: Path, price: float):
    """`fleetplan prices refresh` of us-east-1 into `store`, the fake source giving g5.xlarge at `price` USD/h."""
    source_at(monkeypatch, price)
    # the second refresh's price doubles: a jump the refresh checks would take for a broken feed
    return run("prices", "refresh", "--provider", "aws", "--region", "us-east-1", "--store", store,
               "--accept-missing-offers", "--accept-price-jumps")


def plan_pinned(tmp_path, store: Path, pin: int):
    scenario = tmp_path / "pin.yaml"
    scenario.write_text(SCENARIO.format(pin=f"  snapshot: {pin}\n"), encoding="utf-8")
    return run("plan", scenario, "--store", store, "--no-baselines", "--no-decisions", "--format", "json")


def test_a_store_replacing_a_damaged_one_goes_on_after_its_ids_and_a_pin_of_an_old_id_is_refused(monkeypatch, tmp_path):
    # the audit: after the damaged store was moved aside the new one began at #1 again, and a scenario pinned to
    # snapshot 1 planned on the new #1's prices, "pinned to snapshot #1", without a word
    store = tmp_path / "st" / "pin.sqlite"
    store.parent.mkdir()
    for price in (1.00, 2.00):
        assert refresh_at(monkeypatch, store, price).exit_code == 0
    assert plan_pinned(tmp_path, store, 1).exit_code == 0
    os.truncate(store, 10_000)   # a copy cut short: its first two 4096-byte pages whole (the snapshots table is page 2)
    # the replacement is stamped on a frozen clock: the date expected, read after the refresh and a plan, was a day
    # later when the run crossed midnight UTC between them
    monkeypatch.setattr(store_module, "_now_text", lambda: "2026-12-07T23:59:59+00:00")
    result = refresh_at(monkeypatch, store, 3.00)
    assert result.exit_code == 0, result.output
    said = flat(result.stderr)
    assert "moved aside to" in said and "saved snapshot #3 " in said
    (aside,) = store.parent.glob("pin.sqlite.bad-*")
    planned = plan_pinned(tmp_path, store, 1)
    assert planned.exit_code == 2, planned.output
    assert (f"prices.snapshot: snapshot #1 is not in this store {store}: the store that held it was replaced on 2026-12-07 "
            f"after damage (the damaged store was moved aside to {aside.name}), and this one's snapshots start at #3; "
            f"it holds snapshot 3") in flat(planned.stderr)
    assert plan_pinned(tmp_path, store, 3).exit_code == 0


def test_a_store_replacing_one_that_cannot_be_read_at_all_starts_above_any_id_it_could_have_given(tmp_path):
    path = tmp_path / "prices.sqlite"
    for price in (1.00, 2.00):
        PriceStore(path).save("aws", ["us-east-1"], "test", g5_at(price))
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\xff" * (len(data) - 100))   # every page overwritten, the header spared
    started = int(time.time())
    store, warning = store_module.open_store(path)
    assert "moved aside to" in warning
    first = store.save("aws", ["us-east-1"], "test", g5_at(3.00)).id
    # milliseconds since 1970 at the replacement: 1.7e12, where the old store gave ids 1 and 2
    assert started * 1000 < first <= int(time.time()) * 1000 + 1
    replaced = store.replaced()
    assert replaced.highest_id is None and replaced.first_id == first
    with pytest.raises(store_module.StoreError, match=r"snapshot #2 is not in this store .*: the store that held it "
                                                      r"was replaced on .* after damage"):
        store.snapshot(2)
    # a store replacing this one, damaged in turn but readable, goes on after its id
    store.save("aws", ["us-east-1"], "test", g5_at(4.00))
    os.truncate(path, 10_000)
    again, _ = store_module.open_store(path)
    assert again.save("aws", ["us-east-1"], "test", g5_at(5.00)).id == first + 2


def test_each_store_has_its_own_id_and_a_store_made_before_ids_gains_one_when_saved_to(tmp_path):
    a, b = PriceStore(tmp_path / "a.sqlite"), PriceStore(tmp_path / "b.sqlite")
    assert len(a.store_id()) == 16 and a.store_id() != b.store_id()
    with sqlite3.connect(a.path) as con:
        con.execute("DROP TABLE store_info")   # as a store made before the table existed
    con.close()
    assert a.store_id() is None and a.replaced() is None
    a.save("aws", ["us-east-1"], "test", g5_at(1.00))
    assert len(a.store_id()) == 16


def disk_full_on_save(monkeypatch):
    """SQLite's error for ENOSPC in the save's transaction."""
    def full(con):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_module, "_purge_credentials", full)


def disk_full_on_create(monkeypatch):
    """ENOSPC as the new store, built in a temporary file, is put in place (link, or rename where links fail)."""
    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store_module.os, "link", full)
    monkeypatch.setattr(store_module.os, "rename", full)


@pytest.mark.parametrize("full", [disk_full_on_save, disk_full_on_create])
def test_a_first_refresh_that_fails_on_a_full_disk_leaves_no_file(monkeypatch, tmp_path, full):
    # it left a 20 KB new.sqlite with no snapshot and new.sqlite.lock, saying "The store is unchanged"
    path = tmp_path / "new.sqlite"
    full(monkeypatch)
    result = refresh_at(monkeypatch, path, 1.50)
    assert result.exit_code == 1, result.output
    assert "The store is unchanged" in flat(result.stderr)
    assert files(tmp_path) == {}


def test_a_first_refresh_that_fails_leaves_no_folder_it_made_and_keeps_those_that_were_there(monkeypatch, tmp_path):
    # the default store's folder (platformdirs' user data folder, here under XDG_DATA_HOME) was made and left empty
    monkeypatch.delenv("FLEETPLAN_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    disk_full_on_save(monkeypatch)
    source_at(monkeypatch, 1.50)
    refresh = ("prices", "refresh", "--provider", "aws", "--region", "us-east-1", "--accept-missing-offers")
    result = run(*refresh)
    assert result.exit_code == 1, result.output
    assert "The store is unchanged" in flat(result.stderr)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "data").mkdir()   # a folder there before the refresh stays
    result = run(*refresh)
    assert result.exit_code == 1, result.output
    assert [p.name for p in tmp_path.rglob("*")] == ["data"]


def test_a_refresh_that_fails_on_a_full_disk_puts_the_damaged_store_back(monkeypatch, tmp_path):
    path = tmp_path / "prices.sqlite"
    PriceStore(tmp_path / "made.sqlite").save("aws", ["us-east-1"], "test", g5_at(1.00))
    data = (tmp_path / "made.sqlite").read_bytes()[:10_000]
    for made in tmp_path.iterdir():
        made.unlink()
    path.write_bytes(data)
    disk_full_on_save(monkeypatch)
    result = refresh_at(monkeypatch, path, 1.50)
    assert result.exit_code == 1, result.output
    assert files(tmp_path) == {"prices.sqlite": data}


SIGNALLED = """
import os, signal, sys
import pandas as pd
import pricing_adapters.refresh as refresh_module
import pricing_adapters.store as store_module
from tests.planner.test_store_refresh_audit import Source, g5_at

class Good(Source):
    def fetch(self, regions, progress):
        return g5_at(1.50)

real = store_module._purge_credentials

def signalled(con):   # the signal comes while the snapshot is being written
    real(con)
    os.kill(os.getpid(), signal.{signal})

refresh_module.get_source = lambda provider, **kw: Good(False)
store_module._purge_credentials = signalled
sys.argv = ["fleetplan", "prices", "refresh", "--provider", "aws", "--region", "us-east-1", "--store", sys.argv[1],
            "--accept-missing-offers"]
from planner.cli import main
main()
"""


@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_refresh_stopped_by_a_signal_while_saving_leaves_no_file(tmp_path, name, status):
    # SIGTERM killed it at once (exit 143): a first refresh left its new store and lock behind
    path = tmp_path / "store" / "new.sqlite"
    path.parent.mkdir()
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(SIGNALLED.format(signal=name)), str(path)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "AWS_EC2_METADATA_DISABLED": "true"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    assert files(path.parent) == {}
    # one line for cron's mail: which signal, and that nothing was saved
    said = " ".join(result.stderr.split())
    assert f"refresh stopped: stopped by {name}" in said and "before the snapshot was saved. The store is unchanged" in said


def test_sigterm_raises_terminated_with_status_143_and_ctrl_c_stays_a_keyboard_interrupt():
    script = textwrap.dedent("""
        import os, signal
        from planner.process import Terminated, stop_solves_on_interrupt
        stop_solves_on_interrupt()
        try:
            os.kill(os.getpid(), signal.SIGTERM)
        except Terminated as exc:
            print(exc.code, exc)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "143 stopped by SIGTERM"


def test_a_plan_names_the_store_its_snapshots_come_from(monkeypatch, tmp_path):
    # a plan's prices.snapshots gave only id and fetched_at: the same #1 of two stores at one path read alike
    store = tmp_path / "prices.sqlite"
    assert refresh_at(monkeypatch, store, 1.50).exit_code == 0
    planned = plan_pinned(tmp_path, store, 1)
    assert planned.exit_code == 0, planned.output
    (snapshot,) = json.loads(planned.stdout)["prices"]["snapshots"]
    assert snapshot["id"] == 1 and snapshot["store_id"] == PriceStore(store, create=False).store_id()
