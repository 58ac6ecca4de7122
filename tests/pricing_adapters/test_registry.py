"""The provider registry: its rows, its errors, and a third cloud added with one module and one row."""

from __future__ import annotations

import csv
import dataclasses
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from fake_cloud import AcmePriceSource

from pricing_adapters import registry, schema
from pricing_adapters.aws import AwsPriceSource
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import UnknownProviderError
from pricing_adapters.refresh import get_source, refresh
from pricing_adapters.schema import OffersSchemaError, validate_offers
from pricing_adapters.snapshot import SNAPSHOT_PROVIDERS, load_snapshot, snapshot_info
from pricing_adapters.store import PriceStore

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "pricing_adapters" / "snapshots"
ACME = registry.Provider(
    name="acme", label="Acme Cloud", adapter=f"{AcmePriceSource.__module__}:AcmePriceSource",
    purchase_options=("on_demand", "spot"), focus_name="Acme", colour="#7c3aed", snapshot_file=None,
    refresh_options=("hourly_price",))


@pytest.fixture
def acme():
    with registry.registered(ACME) as row:
        yield row
    assert "acme" not in registry.names()


def _csv_column(name: str, column: str) -> list[str]:
    with open(SNAPSHOTS / name, encoding="utf-8", newline="") as f:
        return [row[column] for row in csv.DictReader(f)]


# ------------------------------------------------------------------ the rows

def test_rows_and_order():
    assert registry.names() == ("aws", "azure", "onprem")
    assert [p.name for p in registry.providers()] == ["aws", "azure", "onprem"]
    assert registry.cloud_providers() == ("aws", "azure")
    aws, azure, onprem = registry.providers()
    assert (aws.label, aws.focus_name, aws.colour, aws.snapshot_file) == ("AWS", "AWS", "#f97316", "aws.csv")
    assert (azure.label, azure.focus_name, azure.colour, azure.snapshot_file) == (
        "Azure", "Microsoft", "#2563eb", "azure.csv")
    assert azure.refresh_options == ("subscription_id",) and aws.refresh_options == ()
    assert onprem == registry.Provider("onprem", "On-premises", None, ("purchase",), "On-premises", "#16a34a", None)
    assert set(aws.purchase_options) == {"on_demand", "spot", "reserved_1y", "reserved_3y"}
    assert set(azure.purchase_options) == {"on_demand", "spot", "low_priority", "reserved_1y", "reserved_3y",
                                           "savings_plan_1y", "savings_plan_3y"}
    for p in registry.providers():
        assert set(p.purchase_options) <= set(schema.PURCHASE_OPTIONS)


def test_rows_are_frozen():
    with pytest.raises(AttributeError):
        registry.get("aws").colour = "#000000"


def test_schema_and_snapshot_read_the_registry():
    assert schema.PROVIDERS == ("aws", "azure", "onprem")
    assert SNAPSHOT_PROVIDERS == ("aws", "azure")
    assert list(snapshot_info()["providers"]) == ["aws", "azure"]


def test_adapters_are_the_registered_classes():
    assert AwsPriceSource.provider == "aws" and AzurePriceSource.provider == "azure"
    assert registry.get("aws").adapter == "pricing_adapters.aws:AwsPriceSource"
    assert registry.get("azure").adapter == "pricing_adapters.azure:AzurePriceSource"


def test_snapshot_offers_stay_within_each_providers_purchase_options():
    offers = load_snapshot()
    for provider, options in offers.groupby("provider")["purchase_option"]:
        assert set(options) <= set(registry.get(provider).purchase_options)


@pytest.mark.parametrize("name", ["aws", "azure"])
def test_regions_are_those_of_the_packaged_snapshot(name):
    row = registry.get(name)
    expected = sorted(set(_csv_column(row.snapshot_file, "region")))
    assert list(row.regions()) == expected and len(expected) > 10
    assert row.regions() is row.regions()  # read once
    assert registry.get("onprem").regions() == ()


# ------------------------------------------------------------------ errors

def test_get_with_a_typo_suggests_the_name():
    with pytest.raises(UnknownProviderError, match=r"unknown provider 'azur' \(did you mean 'azure'\?\); "
                                                   r"known providers: aws, azure, onprem"):
        registry.get("azur")
    with pytest.raises(ValueError, match="did you mean 'aws'"):
        registry.get("AWS")


def test_get_without_a_close_name_lists_the_known_ones():
    with pytest.raises(UnknownProviderError) as info:
        registry.get("gcp")
    assert str(info.value) == "unknown provider 'gcp'; known providers: aws, azure, onprem"


def test_get_source_of_unknown_or_adapterless_provider():
    with pytest.raises(UnknownProviderError, match="did you mean 'azure'"):
        get_source("azuer")
    with pytest.raises(ValueError, match=r"On-premises \(onprem\) has no live price source; expected one of "
                                         r"aws, azure"):
        get_source("onprem")


def test_register_rejects_bad_rows():
    with pytest.raises(ValueError, match="lower-case"):
        registry.register(registry.Provider("ac:me", "x", None, (), "x", "#000000", None))
    with pytest.raises(ValueError, match="unknown purchase option"):
        registry.register(registry.Provider("acme", "x", None, ("lease",), "x", "#000000", None))
    with pytest.raises(ValueError, match="module:Class"):
        registry.register(registry.Provider("acme", "x", "fake_cloud.Acme", (), "x", "#000000", None))
    assert registry.names() == ("aws", "azure", "onprem")


def test_replacing_a_row_keeps_its_place_and_is_undone():
    orange = registry.get("aws")
    with registry.registered(dataclasses.replace(orange, colour="#000000")):
        assert registry.names() == ("aws", "azure", "onprem") and registry.get("aws").colour == "#000000"
    assert registry.get("aws") is orange


def test_unregister_returns_the_row():
    registry.register(ACME)
    try:
        assert registry.names() == ("aws", "azure", "onprem", "acme")
    finally:
        assert registry.unregister("acme") == ACME
    assert registry.names() == ("aws", "azure", "onprem")
    with pytest.raises(UnknownProviderError):
        registry.unregister("acme")


# ------------------------------------------------------------------ a third cloud, end to end

def test_validate_offers_rejects_an_unregistered_provider():
    with registry.registered(ACME):  # the adapter validates its own table, so it needs the row
        offers = AcmePriceSource().fetch(["acme-east-1"])
    with pytest.raises(OffersSchemaError, match=r"unknown provider \['acme'\]"):
        validate_offers(offers)


def test_a_third_cloud_is_one_module_and_one_row(acme, tmp_path):
    assert registry.names() == ("aws", "azure", "onprem", "acme")
    assert registry.cloud_providers() == ("aws", "azure", "acme")

    source = get_source("acme", hourly_price=8.0)
    assert isinstance(source, AcmePriceSource) and source.hourly_price == 8.0

    offers = validate_offers(source.fetch(["acme-east-1"]))
    assert len(offers) == 2 and set(offers["provider"]) == {"acme"}
    assert set(offers["purchase_option"]) <= set(acme.purchase_options)

    store = PriceStore(tmp_path / "prices.sqlite")
    info = refresh(source, ["acme-east-1"], store)
    assert (info.provider, info.regions, info.row_count, info.source) == (
        "acme", ("acme-east-1",), 2, "Acme fake price list")
    [latest] = store.latest(["acme"])
    assert latest.id == info.id
    saved = store.offers(info.id)
    pd.testing.assert_frame_equal(saved.sort_values("offer_id").reset_index(drop=True),
                                  offers.sort_values("offer_id").reset_index(drop=True))
    assert saved.loc[saved["purchase_option"] == "spot", "hourly_price"].item() == 4.0


def test_pricing_adapters_never_imports_the_planner():
    code = ("import sys, pricing_adapters.refresh, pricing_adapters.snapshot, pricing_adapters.aws, "
            "pricing_adapters.azure; print([m for m in sys.modules if m.split('.')[0] == 'planner'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr
