"""A server told to stop (SIGTERM, or Ctrl-C on `make run`) stops while a worker is busy, and its workers and their
solver processes with it (state.stop_workers): concurrent.futures' exit hook waited for the job under way, and the
audit's server stayed up more than 30 s, until its low-priority worker was killed by hand. The stand-in server
imports the dashboard's state (which registers the hook), runs a job in a lane's worker that starts a child process
as a solve starts CBC, and exits on SIGTERM as Streamlit does: its main thread returns."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SERVER = """
import os, signal, subprocess, sys, time
from fleetplan_dashboard import state
if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))   # Streamlit's handler stops the server; main returns
    pool = state._LANES["decisions"]._executor()
    print(pool.submit(os.getpid).result(), flush=True)
    pool.submit(subprocess.run, ["sleep", "600"])            # a solve's child process, busy for 10 minutes
    print("busy", flush=True)
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return stat[0] not in ("Z", "X")


def _children(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def test_sigterm_stops_the_server_its_busy_worker_and_the_workers_child(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True, env=env)
    worker, solver = None, []
    try:
        worker = int(server.stdout.readline())
        assert server.stdout.readline().strip() == "busy"
        deadline = time.monotonic() + 30
        while not solver and time.monotonic() < deadline:   # the worker starts its child
            solver = _children(worker)
            time.sleep(0.1)
        assert solver, "the worker started no child"
        os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=20)   # it stayed until the job ended (600 s) before
        deadline = time.monotonic() + 10
        while (_alive(worker) or any(map(_alive, solver))) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), f"worker {worker} outlived its server"
        assert not any(map(_alive, solver)), f"the worker's child {solver} outlived its server"
    finally:
        for pid in [p for p in [server.pid, worker, *solver] if p]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
