"""Helpers shared by the planner's tests."""

import time
from pathlib import Path

import pytest


def _ended(pid: int, seconds: float = 10.0) -> bool:
    """True once process `pid` is gone or a zombie (killed, waiting for whoever adopted it to reap it);
    reads its state in Linux's /proc, polling for up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


@pytest.fixture
def process_ended():
    """`process_ended(pid, seconds=10)`: whether that process has ended (Linux only: skip without /proc)."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads process states in Linux's /proc")
    return _ended
