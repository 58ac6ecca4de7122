"""A dashboard worker ends with the server that started it: a server killed (a test's, or by its user) left
its workers adopted and waiting for jobs for ever, the first still solving a stale job at full speed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# a stand-in server: one worker as the dashboard starts them (spawn, jobs.worker_start), its pid printed,
# then killed by this test
SERVER = """
import multiprocessing, os, sys, time
from concurrent.futures import ProcessPoolExecutor
from fleetplan_dashboard.jobs import worker_start
if __name__ == "__main__":
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=worker_start,
                               initargs=(0,))
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def test_a_worker_ends_when_its_server_is_killed(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    server = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        worker = int(server.stdout.readline())
        assert _alive(worker)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 30   # the worker looks once a second (jobs.PARENT_CHECK_S)
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), f"worker {worker} outlived its server"
    finally:
        if server.poll() is None:
            server.kill()
