"""`fleetplan prices refresh --provider azure` end to end against a local Retail Prices endpoint.

The recorded pages (tests/fixtures/azure/) are served on 127.0.0.1 with their NextPageLink pointed at
the same server, through FLEETPLAN_AZURE_PRICES_URL — the real httpx client, paging and classification.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
PAGES = {None: "retail_eastus_page1.json", "1000": "retail_eastus_page2.json", "2000": "retail_eastus_page3.json"}
UPSTREAM = "https://prices.azure.com:443/api/retail/prices"


@pytest.fixture
def retail_endpoint(retail_prices_server):
    requests = []

    def respond(query: dict, url: str) -> bytes:
        requests.append(query)
        return (FIX / PAGES[query.get("$skip", [None])[0]]).read_text().replace(UPSTREAM, url).encode()

    with retail_prices_server(respond) as url:
        yield url, requests


def test_refresh_from_a_local_endpoint_then_show(tmp_path, monkeypatch, retail_endpoint):
    url, requests = retail_endpoint
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
    store = tmp_path / "s.sqlite"
    runner = CliRunner()
    result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert len(requests) == 3  # three pages followed through NextPageLink
    assert "no AZURE_SUBSCRIPTION_ID" in result.stderr  # GPU facts from the packaged size table
    shown = runner.invoke(app, ["prices", "show", "--gpu", "A100-80GB-PCIE", "--provider", "azure",
                                "--store", str(store), "--format", "json"])
    rows = {(r["sku"], r["purchase_option"]): r for r in json.loads(shown.stdout) if r["region"] == "eastus"}
    # reference data: Standard_NC24ads_A100_v4 in eastus at 3.673 USD/h, 1 × A100 80 GB
    on_demand = rows[("Standard_NC24ads_A100_v4", "on_demand")]
    assert on_demand["hourly_price"] == 3.673 and on_demand["gpu_count"] == 1
    # a 1-year reservation listed at 21,024 USD for the term: 21024 / 8760 h = 2.4 USD/h
    assert rows[("Standard_NC24ads_A100_v4", "reserved_1y")]["hourly_price"] == pytest.approx(2.4)
    assert "store snapshot #1" in shown.stderr
