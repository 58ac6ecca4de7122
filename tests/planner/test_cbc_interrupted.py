"""Ctrl-C during a CBC solve ends the CBC it started (engine.solve._solve_cbc): in a notebook, where the process
lives on, each interrupted solve left its CBC solving on (industrial.yaml at 120 months: about 280 s at 100 % CPU)
until the process ended, its scratch folder already removed.

A real CBC solve of a model that takes minutes, interrupted about a second into it, while another thread's CBC solve
of the same model, started after it, runs on (as a notebook's threads of plans do)."""

from __future__ import annotations

import os
import signal
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


def wait_for_new_cbc(known: set[int], seconds: float = 60) -> int | None:
    """The pid of a CBC child not in `known` once one appears (within `seconds`), else None."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        new = cbc_children() - known
        if new:
            return new.pop()
        time.sleep(0.02)
    return None


def test_ctrl_c_during_a_cbc_solve_kills_that_cbc_only():
    before = cbc_children()
    pids: dict[str, int | None] = {}
    other_outcome: list[BaseException] = []

    def other_plan() -> None:
        try:
            plan(str(INDUSTRIAL), solver="cbc", horizon_months=120, baselines=False)
        except BaseException as exc:   # noqa: BLE001 — its CBC is killed at the end of the test
            other_outcome.append(exc)

    other = threading.Thread(target=other_plan, daemon=True)

    def interrupt_main() -> None:
        # the main thread's CBC first, then another thread's: the last CBC started is not the one to kill
        pids["main"] = wait_for_new_cbc(before)
        if pids["main"] is None:
            return
        other.start()
        pids["other"] = wait_for_new_cbc(before | {pids["main"]})
        time.sleep(1.0)   # pulp waits on both CBCs now
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)   # as Ctrl-C does

    interrupter = threading.Thread(target=interrupt_main, daemon=True)
    interrupter.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            plan(str(INDUSTRIAL), solver="cbc", horizon_months=120, baselines=False)
        interrupter.join()
        assert pids["main"] is not None and pids.get("other") is not None, pids
        deadline = time.monotonic() + 2
        while pids["main"] in cbc_children() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert cbc_children() - before == {pids["other"]}   # the main thread's reaped too: a zombie is still listed
        # the next plan works
        assert plan(str(WORKED), solver="cbc", baselines=False).status == "optimal"
    finally:
        for pid in cbc_children() - before:   # the other thread's, and before the fix the main thread's
            os.kill(pid, signal.SIGKILL)
        if other.is_alive() or other.ident is not None:
            other.join(timeout=30)
    assert [type(exc).__name__ for exc in other_outcome] == ["SolverFailed"]   # its CBC killed here: a failed solve
