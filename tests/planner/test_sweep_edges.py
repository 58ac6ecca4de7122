"""A sweep's edges, as a notebook meets them: nothing to vary (max() of no counts: a ValueError naming no argument),
a path given no values, and a scheduler whose host name no resolver knows (a raw socket.gaierror).

No name is looked up here: socket.getaddrinfo is replaced to fail for the made-up host as a resolver does
(tests/netguard refuses a lookup beyond loopback)."""

import socket
from pathlib import Path
from types import MappingProxyType

import pytest
from typer.testing import CliRunner

from planner import load_scenario, sweep
from planner.cli import app
from planner.errors import PlannerError, ScenarioError
from planner.reports.sweep import check_values, sweep_points

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"
NOTHING = "vary: nothing to vary: give at least one field path and its values, e.g. {'onprem.pue': [1.2, 1.4]}"


@pytest.mark.parametrize("vary", [{}, MappingProxyType({})])
def test_a_sweep_of_nothing_to_vary_is_refused_up_front(vary):
    with pytest.raises(PlannerError) as caught:
        sweep(ENTRY, vary=vary)
    assert str(caught.value) == f"sweep: {NOTHING}"


@pytest.mark.parametrize("check", [check_values, sweep_points])
def test_checking_nothing_to_vary_is_refused_too(check):
    with pytest.raises(PlannerError) as caught:
        check(load_scenario(ENTRY), {})
    assert str(caught.value) == NOTHING


def test_a_path_given_no_values_is_named_with_what_to_do():
    with pytest.raises(ScenarioError) as caught:
        sweep(ENTRY, vary={"onprem.pue": []})
    assert "onprem.pue: no values to vary over; give at least one value, or leave onprem.pue out" in str(caught.value)


@pytest.mark.parametrize(("args", "said"), [
    ([], "Missing option '--vary'"),
    (["--vary", "onprem.pue="], "--vary 'onprem.pue=': expected PATH=V1,V2,…, e.g. onprem.electricity_per_kwh=0.1,0.2"),
])
def test_the_cli_sweep_of_nothing_to_vary_is_refused_with_exit_2(args, said):
    result = CliRunner().invoke(app, ["sweep", str(ENTRY), *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert said in result.stderr and "Traceback" not in result.output


@pytest.fixture
def unknown_host(monkeypatch):
    """socket.getaddrinfo failing for the host name 'host' as a resolver that does not know it fails (EAI_NONAME)."""
    looked_up = []
    real = socket.getaddrinfo   # the network guard's: loopback only

    def getaddrinfo(host, *args, **kwargs):
        if host == "host":
            looked_up.append(host)
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return looked_up


UNRESOLVED = ("Dask scheduler 'tcp://host:8786': the host name 'host' could not be resolved (Name or service not "
              "known); expected the address of a running Dask scheduler, such as tcp://10.0.0.5:8786 or "
              "tcp://scheduler.example.com:8786: check the name, or give its IP address")


def test_a_scheduler_host_name_that_cannot_be_resolved_is_a_planner_error_naming_it(unknown_host):
    pytest.importorskip("distributed")
    with pytest.raises(PlannerError) as caught:
        sweep(WORKED, {"onprem.electricity_per_kwh": [0.1, 0.2]}, scheduler="tcp://host:8786", scheduler_timeout=1)
    assert str(caught.value) == UNRESOLVED
    assert unknown_host   # the name was looked up (and failed), not refused for another reason


def test_the_cli_says_a_scheduler_host_name_cannot_be_resolved_in_one_line(unknown_host):
    pytest.importorskip("distributed")
    result = CliRunner().invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.1,0.2",
                                      "--scheduler", "tcp://host:8786", "--scheduler-timeout", "1"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"error: {UNRESOLVED}"]
