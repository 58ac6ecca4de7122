"""Which store snapshots a plan, `prices show` and a failed refresh name: only those in force in the
providers and regions asked about.

The store is filled by `fleetplan prices refresh --provider azure` from the recorded Retail Prices pages
(tests/fixtures/azure/, see its README) served on 127.0.0.1: snapshot #1 is eastus (Standard_NC24ads_A100_v4
on demand at 3.673 USD/h), snapshot #2 eastus2 (ND96isr_MI300X_v5 at 48.0, NG32adms_V620 at 3.302).
"""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.catalog import price_table
from planner.catalog.prices import scenario_provenance
from planner.cli import app
from planner.engine import plan
from pricing_adapters.snapshot import load_snapshot

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
UPSTREAM = "https://prices.azure.com:443/api/retail/prices"
# (region, $skip) → recorded page; a region not listed answers an envelope with no items
PAGES = {("eastus", None): "retail_eastus_page1.json", ("eastus", "1000"): "retail_eastus_page2.json",
         ("eastus", "2000"): "retail_eastus_page3.json", ("eastus2", None): "retail_eastus2_page1.json"}
runner = CliRunner()


@pytest.fixture
def azure_endpoint(monkeypatch, retail_prices_server):
    """The recorded pages on 127.0.0.1, NextPageLink pointed back at it; regions in `broken` get the
    recorded malformed page (a refresh of them fails)."""
    broken: set[str] = set()

    def respond(query: dict, url: str) -> bytes:
        region = re.search(r"armRegionName eq '(\w+)'", query.get("$filter", [""])[0]).group(1)
        page = PAGES.get((region, query.get("$skip", [None])[0]))
        if region in broken:
            return (FIX / "retail_page_malformed.json").read_bytes()
        if page is not None:
            return (FIX / page).read_text().replace(UPSTREAM, url).encode()
        return json.dumps({"BillingCurrency": "USD", "Items": [], "NextPageLink": None, "Count": 0}).encode()

    with retail_prices_server(respond) as url:
        monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
        yield broken


def refresh(store, *regions, extra=()):
    return runner.invoke(app, ["prices", "refresh", "--provider", "azure", *(a for r in regions for a in ("--region", r)),
                               "--store", str(store), *extra])


@pytest.fixture
def store(tmp_path, azure_endpoint):
    """#1 eastus, #2 eastus2. The recorded pages hold a few sizes of each region (10 offers of eastus, 3 of eastus2),
    where the packaged snapshot holds 72 and 74: against it they lack most offers, so they are saved deliberately."""
    path = tmp_path / "s.sqlite"
    for region in ("eastus", "eastus2"):
        result = refresh(path, region, extra=["--accept-missing-offers"])
        assert result.exit_code == 0, result.output
    return path


def scenario(tmp_path, providers, regions, gpu):
    path = tmp_path / f"{'-'.join(providers)}-{'-'.join(regions)}.yaml"
    path.write_text(f"""name: store provenance
currency: USD
horizon_months: 1
discount_rate: 0.0
prices:
  source: store
  providers: [{', '.join(providers)}]
  regions: [{', '.join(regions)}]
  purchase_options: [on_demand]
onprem: {{electricity_per_kwh: 0.12, pue: 1.4, availability: 0.97, cards: []}}
workloads:
  - name: ft
    gpu_hours_per_month: 730
    reference_gpu: {gpu}
    min_gpu_memory_gb: 16
    profile: flat
    throughput: {{{gpu}: 1.0}}
""")
    return path


# ------------------------------------------------------------------ defect 2: the plan cites what it used

def test_a_scenario_on_regions_the_store_never_refreshed_cites_the_packaged_snapshot(tmp_path, store):
    result = runner.invoke(app, ["plan", str(scenario(tmp_path, ["aws"], ["us-east-1"], "A10G")), "--store", str(store),
                                 "--format", "json", "--no-baselines", "--no-decisions"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    # priced from the packaged snapshot: each instance-hour rented at its packaged us-east-1 on-demand price
    packaged = load_snapshot(["aws"]).query("region == 'us-east-1' and purchase_option == 'on_demand'")
    hourly = dict(zip(packaged["sku"], packaged["hourly_price"]))
    assert doc["fleet"] and all(f["provider"] == "aws" for f in doc["fleet"])
    assert doc["total"] == pytest.approx(sum(f["instance_hours"] * hourly[f["sku"]] for f in doc["fleet"]))
    assert doc["prices"]["source"] == "snapshot" and doc["prices"]["requested_source"] == "store"
    assert "snapshots" not in doc["prices"]
    assert "store snapshot #" not in result.stderr


def test_an_eastus_scenario_cites_the_eastus_snapshot_only(tmp_path, store):
    result = runner.invoke(app, ["plan", str(scenario(tmp_path, ["azure"], ["eastus"], "A100-80GB-PCIE")),
                                 "--store", str(store), "--format", "json", "--no-baselines", "--no-decisions"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    # Standard_NC24ads_A100_v4 (1 × A100 80 GB PCIe) on demand in eastus at 3.673 USD/h (the recorded page), 730 h
    assert doc["total"] == pytest.approx(730 * 3.673)
    assert doc["prices"]["source"] == "store"
    assert [(s["id"], s["regions"]) for s in doc["prices"]["snapshots"]] == [(1, ["eastus"])]
    assert "azure store snapshot #1" in result.stderr and "snapshot #2" not in result.stderr


def test_the_plan_api_names_only_the_snapshots_in_the_scenarios_regions(tmp_path, store):
    both = plan(scenario(tmp_path, ["azure"], ["eastus", "eastus2"], "A100-80GB-PCIE"), baselines=False, store=store)
    assert [s["id"] for s in both.prices["snapshots"]] == [1, 2]
    east2 = plan(scenario(tmp_path, ["azure", "aws"], ["eastus2", "us-east-1"], "A10G"), baselines=False, store=store)
    assert [s["id"] for s in east2.prices["snapshots"]] == [2]
    assert "aws: packaged snapshot (never refreshed)" in east2.prices["warning"]


def test_scenario_provenance_narrows_the_store_provenance(store):
    _, provenance = price_table("store", store)
    assert [s["id"] for s in provenance["snapshots"]] == [1, 2]
    east = scenario_provenance(provenance, ["azure"], ["eastus"])
    assert [s["id"] for s in east["snapshots"]] == [1] and east["source"] == "store"
    assert set(east) >= {"source", "store", "snapshots", "warning"}
    assert scenario_provenance(provenance, ["azure"], None)["snapshots"] == provenance["snapshots"]
    aws = scenario_provenance(provenance, ["aws"], ["us-east-1"])
    assert aws["source"] == "snapshot" and aws["snapshots"] == []
    assert aws["warning"] == "aws: packaged snapshot (never refreshed)"
    westus = scenario_provenance(provenance, ["azure"], ["westus"])
    assert westus["source"] == "snapshot" and westus["warning"] == "azure: packaged prices for regions never refreshed"
    packaged = price_table("snapshot")[1]
    assert scenario_provenance(packaged, ["aws"], ["us-east-1"]) is packaged


def test_prices_show_for_one_provider_names_only_its_snapshots(store):
    shown = runner.invoke(app, ["prices", "show", "--provider", "aws", "--store", str(store), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert "store snapshot #" not in shown.stderr
    everything = runner.invoke(app, ["prices", "show", "--store", str(store), "--format", "json"])
    assert "azure: store snapshot #1" in everything.stderr and "azure: store snapshot #2" in everything.stderr


# ------------------------------------------------------------------ defect 3: what a failed refresh leaves in use

def failure_line(result) -> str:
    assert result.exit_code == 1, result.output
    (line,) = [t for t in result.stderr.splitlines() if t.startswith("refresh failed:")]
    return line


def test_a_failed_refresh_of_a_region_never_refreshed_names_the_packaged_snapshot(store):
    # westus: the endpoint returns no items, so the refresh fails and saves nothing
    line = failure_line(refresh(store, "westus"))
    assert "plans keep using the packaged snapshot for westus." in line and "snapshot #" not in line


def test_a_failed_refresh_of_eastus_names_the_eastus_snapshot(store, azure_endpoint):
    azure_endpoint.add("eastus")
    line = failure_line(refresh(store, "eastus"))
    assert re.search(r"plans keep using snapshot #1 \(azure, eastus, \d+ offers.*\) for eastus\.$", line), line
    assert "#2" not in line


def test_a_failed_refresh_of_several_regions_names_each(store):
    # eastus2 is served, westus has no items: the whole refresh fails, nothing is saved
    line = failure_line(refresh(store, "eastus2", "westus"))
    assert re.search(r"plans keep using snapshot #2 \(azure, eastus2, .*\) for eastus2; the packaged snapshot for "
                     r"westus\.$", line), line
    listed = runner.invoke(app, ["prices", "list", "--store", str(store), "--format", "json"])
    assert [r["id"] for r in json.loads(listed.stdout)] == [1, 2]
