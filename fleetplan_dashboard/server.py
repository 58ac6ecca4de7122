"""Running the dashboard as a `streamlit run` process from Python (the real-browser tests and the
browser benchmark): a free local port, waiting for Streamlit's health check, stopping the process."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_healthy(url: str, proc: subprocess.Popen, timeout: float = 60.0, poll: float = 0.1) -> bool:
    """True once `url`/_stcore/health answers ok; False when `proc` has exited or `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return True
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(poll)


def stop(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Terminate `proc`, and kill it if it has not exited after `grace` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
