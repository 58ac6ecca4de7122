"""Test-wide safety: no test may reach beyond loopback, and no real cloud credentials are used."""

import os
import sys
from pathlib import Path

import pytest

# the network guard, for this process (_no_network) and, through sitecustomize.py there, every Python process
# a test starts: its folder goes first on PYTHONPATH, which the subprocesses inherit
NETGUARD = Path(__file__).resolve().parent / "netguard"
sys.path.insert(0, str(NETGUARD))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(NETGUARD), os.environ.get("PYTHONPATH")) if p)

import netguard  # noqa: E402 - found in NETGUARD, put on sys.path just above

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


@pytest.fixture(scope="session", autouse=True)
def _session_network_log(tmp_path_factory):
    """The log of processes a test does not start itself (a module-scoped fixture's), set before they start."""
    log = netguard.SharedLog(tmp_path_factory.mktemp("netguard") / "network-attempts.log")
    before = os.environ.get(netguard.LOG_ENV)
    os.environ[netguard.LOG_ENV] = str(log.path)
    yield log
    if before is None:
        os.environ.pop(netguard.LOG_ENV, None)
    else:
        os.environ[netguard.LOG_ENV] = before
    said = log.unread()   # after the last test: what a fixture's process tried while it was torn down
    assert not said, f"a process started for several tests tried to reach beyond loopback: {said}"


@pytest.fixture(autouse=True)
def _no_network(monkeypatch, tmp_path, _session_network_log):
    """Every connect(), sendto()/sendmsg() and name lookup beyond loopback, of this process and of the Python processes the test
    starts, is refused (NetworkRefused) and recorded, and a test that made one fails at its end even where the
    code under test caught the error. A test that makes one on purpose (to check this guard) asks for this
    fixture and clears what it returns (this process's attempts; a subprocess's are in the log file)."""
    attempts: list[str] = []

    def refused(what: str) -> None:
        attempts.append(what)
        raise netguard.NetworkRefused(f"test tried to {what} (only loopback is allowed)")

    for owner, name, guarded in netguard.replacements(refused):
        monkeypatch.setattr(owner, name, guarded)
    log = tmp_path / "network-attempts.log"
    monkeypatch.setenv(netguard.LOG_ENV, str(log))
    yield attempts
    assert not attempts, f"the test tried to reach beyond loopback: {attempts}"
    said = log.read_text(encoding="utf-8") if log.exists() else ""
    assert not said, f"a process the test started tried to reach beyond loopback: {said}"
    said = _session_network_log.unread()   # since the last test ended: a fixture's process starting, or during it
    assert not said, f"a process started for several tests tried to reach beyond loopback: {said}"
