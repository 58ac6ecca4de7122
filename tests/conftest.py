"""Test-wide safety: no test may reach beyond loopback, and no real cloud credentials are used."""

import ipaddress
import os
import socket

import pytest

# boto3's credential chain probes the instance-metadata address when no keys are set.
os.environ["AWS_EC2_METADATA_DISABLED"] = "true"


@pytest.fixture(autouse=True)
def _offline_cloud_env(monkeypatch, tmp_path):
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws_config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws_credentials"))
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path / "store.sqlite"))


class NetworkRefused(OSError, AssertionError):
    """A connection or name lookup beyond loopback in a test: an OSError, as a refused network is to the code
    under test, and an AssertionError."""


def _loopback(host) -> bool:
    name = host.decode() if isinstance(host, bytes) else host
    if name in (None, "localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Every connect() and name lookup of this process beyond loopback is refused (NetworkRefused) and
    recorded, and a test that made one fails at its end even where the code under test caught the error. A
    test that makes one on purpose (to check this guard) asks for this fixture and clears what it returns."""
    attempts: list[str] = []
    real_connect, real_connect_ex, real_getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

    def refuse(what: str) -> None:
        attempts.append(what)
        raise NetworkRefused(f"test tried to {what} (only loopback is allowed)")

    def check(sock, address) -> None:
        if sock.family != getattr(socket, "AF_UNIX", None):
            if not _loopback(address[0] if isinstance(address, tuple) else address):
                refuse(f"connect to {address!r}")

    def connect(sock, address):
        check(sock, address)
        return real_connect(sock, address)

    def connect_ex(sock, address):
        check(sock, address)
        return real_connect_ex(sock, address)

    def getaddrinfo(host, *args, **kwargs):   # no DNS queries either
        if not _loopback(host):
            refuse(f"resolve {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield attempts
    assert not attempts, f"the test tried to reach beyond loopback: {attempts}"
