"""The network guard (netguard.py) on datagrams: UDP needs no connect(), so sendto and sendmsg are guarded too."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

OUTSIDE = ("192.0.2.1", 53)   # TEST-NET-1 (RFC 5737): an address beyond loopback that no test may reach


@pytest.fixture
def udp_server():
    """A UDP socket bound to 127.0.0.1, to receive what the test sends it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as server:
        server.bind(("127.0.0.1", 0))
        server.settimeout(5)
        yield server


def test_a_sendto_beyond_loopback_is_refused_and_one_to_127_0_0_1_is_sent(udp_server, _no_network):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        with pytest.raises(OSError, match="only loopback"):
            sock.sendto(b"query", OUTSIDE)
        with pytest.raises(OSError, match="only loopback"):
            sock.sendto(b"query", 0, OUTSIDE)   # the form with flags
        assert _no_network == [f"send to {OUTSIDE!r}"] * 2   # recorded (tests/conftest.py), as connect's are
        _no_network.clear()

        assert sock.sendto(b"to loopback", udp_server.getsockname()) == len(b"to loopback")
        assert udp_server.recvfrom(64)[0] == b"to loopback"


@pytest.mark.skipif(not hasattr(socket.socket, "sendmsg"), reason="no sendmsg on this platform")
def test_a_sendmsg_beyond_loopback_is_refused_and_one_to_127_0_0_1_is_sent(udp_server, _no_network):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        with pytest.raises(OSError, match="only loopback"):
            sock.sendmsg([b"query"], [], 0, OUTSIDE)
        assert _no_network == [f"send to {OUTSIDE!r}"]
        _no_network.clear()

        assert sock.sendmsg([b"to ", b"loopback"], [], 0, udp_server.getsockname()) == len(b"to loopback")
        assert udp_server.recvfrom(64)[0] == b"to loopback"
        # a connected socket names no address: its connect() was checked
        sock.connect(udp_server.getsockname())
        assert sock.sendmsg([b"again"]) == len(b"again")
        assert udp_server.recvfrom(64)[0] == b"again"


def test_a_python_process_a_test_starts_refuses_and_logs_a_sendto_too(udp_server):
    # tests/netguard/sitecustomize.py guards the child with the same functions; it logs for the test's fixture
    log = Path(os.environ["FLEETPLAN_TEST_NETWORK_LOG"])
    child = textwrap.dedent(f"""
        import socket
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.sendto(b"to loopback", {udp_server.getsockname()!r})
            try:
                sock.sendto(b"query", {OUTSIDE!r})
            except OSError as exc:
                print(type(exc).__name__, exc)
        """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"NetworkRefused test subprocess tried to send to {OUTSIDE!r} (only loopback is allowed)"]
    assert udp_server.recvfrom(64)[0] == b"to loopback"
    assert re.fullmatch(rf"pid \d+: send to {re.escape(repr(OUTSIDE))}\n", log.read_text(encoding="utf-8"))
    log.unlink()   # the attempt was this test's purpose: the fixture would fail it for it
