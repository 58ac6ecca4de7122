"""validate says of a price store only what concerns the scenario's providers and regions, as plan does: an Azure
eastus scenario pinned to a store holding azure eastus alone was warned "aws: packaged snapshot (not refreshed up to
snapshot #1); azure: packaged prices for regions not refreshed …", which its plan does not say (an audit, 2026-12-07).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.planner.cli_run import run

SCENARIO = Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "store-a100-eastus.yaml"


def test_an_azure_eastus_scenario_is_not_told_of_aws_or_other_regions(tmp_path, azure_eastus_store):
    scenario = tmp_path / "pinned.yaml"
    text = SCENARIO.read_text(encoding="utf-8")
    assert "  source: store\n" in text and "providers: [azure]" in text and "regions: [eastus]" in text   # the premise
    scenario.write_text(text.replace("  source: store\n", "  source: store\n  snapshot: 1\n"), encoding="utf-8")
    store = tmp_path / "prices.sqlite"
    shutil.copy(azure_eastus_store, store)
    result = run("validate", scenario, "--store", store)
    assert result.exit_code == 0
    assert "aws" not in result.output and "not refreshed" not in result.output, result.output
    # plan, on the same store, says none of it either
    planned = run("plan", scenario, "--store", store, "--no-decisions", "--no-baselines", "--format", "json")
    assert planned.exit_code == 0 and "not refreshed" not in planned.stderr


def test_offers_says_its_prices_are_the_packaged_snapshots_where_a_store_is_at_its_place(tmp_path, monkeypatch,
                                                                                       azure_eastus_store):
    from pricing_adapters.snapshot import snapshot_info

    monkeypatch.setenv("FLEETPLAN_STORE", str(azure_eastus_store))
    result = run("offers", "--provider", "azure", "--limit", "1", "--format", "csv")
    built = snapshot_info()["built_at"][:10]
    assert (f"note: the cloud prices shown are the packaged snapshot's (built {built}), not those of the price store "
            f"at {azure_eastus_store}") in result.stderr
    assert result.stdout.startswith("provider,")   # the CSV itself is as it was
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path / "none.sqlite"))
    assert "note:" not in run("offers", "--provider", "azure", "--limit", "1", "--format", "csv").stderr
