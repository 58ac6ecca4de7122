"""`fleetplan prices refresh` as a nightly cron job runs it (ops audit): an endpoint variable with stray whitespace is
bad input told before any request, and `--quiet` prints nothing on success but every warning and error.

The recorded Retail Prices pages (tests/fixtures/azure/, 10 offers of eastus) are served on 127.0.0.1 through
FLEETPLAN_AZURE_PRICES_URL, as in test_cli_prices_local_endpoint.py."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app


def _refresh(store: Path, *extra: str, provider: str = "azure", region: str = "eastus"):
    return CliRunner().invoke(app, ["prices", "refresh", "--provider", provider, "--region", region,
                                    "--store", str(store), *extra])


@pytest.mark.parametrize("padded", [" {}", "{}\n", "{} "], ids=["leading space", "trailing newline", "trailing space"])
def test_a_prices_url_with_stray_whitespace_is_refused_before_any_request(tmp_path, monkeypatch, recorded_eastus, padded):
    url, requests = recorded_eastus
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", padded.format(url))
    result = _refresh(tmp_path / "s.sqlite")
    assert result.exit_code == 2, result.output
    assert "FLEETPLAN_AZURE_PRICES_URL=" in result.stderr and "stray whitespace" in result.stderr
    assert requests == [] and not (tmp_path / "s.sqlite").exists()


def test_an_aws_endpoint_variable_with_stray_whitespace_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL_PRICING", " http://127.0.0.1:9/")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    result = _refresh(tmp_path / "s.sqlite", provider="aws", region="us-east-1")
    assert result.exit_code == 2, result.output
    assert "AWS_ENDPOINT_URL_PRICING=" in result.stderr and "stray whitespace at its start" in result.stderr


def test_quiet_prints_nothing_on_success_but_still_warnings(tmp_path, monkeypatch, recorded_eastus):
    url, _ = recorded_eastus
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
    store = tmp_path / "s.sqlite"
    # the 10 recorded offers (4 sizes, 5 of them on demand or spot) lack 67 of the 72 packaged ones of eastus:
    # saved only when accepted, which is said
    first = _refresh(store, "--accept-missing-offers", "--quiet")
    assert first.exit_code == 0, first.output
    assert first.stderr.startswith("warning: missing offers accepted (--accept-missing-offers): azure eastus: 67 of")
    assert "note:" not in first.stderr and "saved" not in first.stderr.replace("was saved", "")
    # the same offers again: nothing to say at all
    again = _refresh(store, "--quiet")
    assert (again.exit_code, again.stdout, again.stderr) == (0, "", "")
    # without --quiet, the same refresh says where it saved, and that the GPU facts are the packaged size table's
    loud = _refresh(store)
    assert loud.exit_code == 0 and "saved snapshot #3" in loud.stderr and "no AZURE_SUBSCRIPTION_ID" in loud.stderr


def test_quiet_still_prints_an_error(tmp_path, monkeypatch, recorded_eastus):
    url, _ = recorded_eastus
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
    result = _refresh(tmp_path / "s.sqlite", "--quiet")   # refused: most packaged offers missing
    assert result.exit_code == 1 and result.stderr.startswith("refresh failed: offers missing: azure eastus: 67 of")


def test_quiet_is_described_in_the_help():
    result = CliRunner().invoke(app, ["prices", "refresh", "--help"], terminal_width=200)
    assert "--quiet" in result.stdout and "cron" in result.stdout
