"""Ctrl-C during a CBC solve ends the CBC it started (engine.solve._solve_cbc): in a notebook, where the process
lives on, each interrupted solve left its CBC solving on (industrial.yaml at 120 months: about 280 s at 100 % CPU)
until the process ended, its scratch folder already removed.

A real CBC solve of a model that takes minutes, interrupted about a second into it; a CBC in another thread, the
stand-in of another plan's solve, is left running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from planner import plan

ROOT = Path(__file__).resolve().parents[2]
INDUSTRIAL = ROOT / "scenarios" / "industrial.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads this process's children in /proc")


def cbc_children() -> set[int]:
    """The processes this one's threads started whose command line names CBC (pulp's binary, or the launcher
    that execs it)."""
    found = set()
    for listing in Path("/proc/self/task").glob("*/children"):
        for pid in map(int, listing.read_text().split()):
            try:
                line = Path(f"/proc/{pid}/cmdline").read_bytes()
            except FileNotFoundError:
                continue
            if b"cbc" in line.lower():
                found.add(pid)
    return found


def interrupt_main_once(started: set[int], before: set[int]) -> threading.Thread:
    """A thread that, about a second after a new CBC child appears, sends SIGINT to the main thread (as Ctrl-C
    does) and notes the new children in `started`."""
    main = threading.main_thread().ident

    def watch() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            new = cbc_children() - before
            if new:
                started.update(new)
                time.sleep(1.0)   # pulp now waits on CBC
                signal.pthread_kill(main, signal.SIGINT)
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher


def test_ctrl_c_during_a_cbc_solve_kills_that_cbc_only(process_ended):
    # another thread's CBC (a long sleep in its place): the interrupted solve must not end it
    other_cbc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "cbc"])
    started: set[int] = set()
    deadline = time.monotonic() + 10
    while other_cbc.pid not in cbc_children() and time.monotonic() < deadline:   # its command line, once exec'd
        time.sleep(0.02)
    before = cbc_children()
    assert other_cbc.pid in before
    try:
        watcher = interrupt_main_once(started, before)
        with pytest.raises(KeyboardInterrupt):
            plan(str(INDUSTRIAL), solver="cbc", horizon_months=120, baselines=False)
        watcher.join()
        assert started, "no CBC was started"
        deadline = time.monotonic() + 2
        while cbc_children() - before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not cbc_children() - before   # reaped too: a zombie would still be listed
        assert not process_ended(other_cbc.pid, seconds=0)
        # the next plan works
        result = plan(str(WORKED), solver="cbc", baselines=False)
        assert result.status == "optimal"
    finally:
        for pid in cbc_children() - before:   # before the fix: the CBC left solving
            os.kill(pid, signal.SIGKILL)
        other_cbc.kill()
        other_cbc.wait()

