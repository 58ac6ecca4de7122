"""The test suite's network guard: connections, datagrams and name lookups beyond loopback are refused.

tests/conftest.py applies it to the test process (the `_no_network` fixture) and puts this folder first on
PYTHONPATH, so that `sitecustomize.py` here applies it to every Python process a test starts too (the CLI,
the dashboard's server, a worker), which write each refused attempt to the file $FLEETPLAN_TEST_NETWORK_LOG
names for the fixture to read. Processes started with PYTHONPATH replaced (tests/app/test_packaged.py runs
an installed wheel in a clean environment) or with `python -I` go without it.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

LOG_ENV = "FLEETPLAN_TEST_NETWORK_LOG"


class NetworkRefused(OSError, AssertionError):
    """A connection or name lookup beyond loopback in a test: an OSError, as a refused network is to the code
    under test, and an AssertionError."""


def loopback(host) -> bool:
    name = host.decode() if isinstance(host, bytes) else host
    if name in (None, "localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def replacements(refused: Callable[[str], None]) -> list[tuple[object, str, Callable]]:
    """(owner, attribute, guarded function) for socket's connect, connect_ex, sendto, sendmsg and getaddrinfo: each
    calls `refused(what)` for an address or name beyond loopback (which raises), else the real function."""
    real_connect, real_connect_ex, real_getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo
    real_sendto, real_sendmsg = socket.socket.sendto, getattr(socket.socket, "sendmsg", None)   # no sendmsg on Windows

    def check(sock, address, what: str = "connect to") -> None:
        if sock.family != getattr(socket, "AF_UNIX", None):
            if not loopback(address[0] if isinstance(address, tuple) else address):
                refused(f"{what} {address!r}")

    def connect(sock, address):
        check(sock, address)
        return real_connect(sock, address)

    def connect_ex(sock, address):
        check(sock, address)
        return real_connect_ex(sock, address)

    # a datagram needs no connect(): sendto(data[, flags], address), sendmsg(buffers[, ancdata[, flags[, address]]])
    def sendto(sock, data, *args):
        if args:
            check(sock, args[-1], "send to")
        return real_sendto(sock, data, *args)

    def sendmsg(sock, buffers, *args):
        if len(args) >= 3 and args[2] is not None:
            check(sock, args[2], "send to")
        return real_sendmsg(sock, buffers, *args)

    def getaddrinfo(host, *args, **kwargs):   # no DNS queries either
        if not loopback(host):
            refused(f"resolve {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    guarded = [(socket.socket, "connect", connect), (socket.socket, "connect_ex", connect_ex),
               (socket.socket, "sendto", sendto), (socket, "getaddrinfo", getaddrinfo)]
    if real_sendmsg is not None:
        guarded.append((socket.socket, "sendmsg", sendmsg))
    return guarded


def install_logging_to(path: str) -> None:
    """Guard this process for good (a test's subprocess): each refused attempt is appended to `path`, one line,
    with this process's id, then refused."""
    import os

    def refused(what: str) -> None:
        with open(path, "a", encoding="utf-8") as log:   # one short write per attempt: lines do not interleave
            log.write(f"pid {os.getpid()}: {what}\n")
        raise NetworkRefused(f"test subprocess tried to {what} (only loopback is allowed)")

    for owner, name, guarded in replacements(refused):
        setattr(owner, name, guarded)


class SharedLog:
    """The guard's log of the Python processes started outside any one test (a module's dashboard server), read
    on from where it was last read: each test reads what was added up to its end, the session what was left."""

    def __init__(self, path):
        self.path, self.read_to = path, 0

    def unread(self) -> str:
        if not self.path.exists():
            return ""
        with open(self.path, "rb") as f:
            f.seek(self.read_to)
            said = f.read()
        self.read_to += len(said)
        return said.decode("utf-8", "replace")
