"""Live Azure adapter, offline: recorded Retail Prices pages (respx) and ResourceSku models (fake client).

Fixtures: tests/fixtures/azure/ (README.md there names the source of every value).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import azure.identity
import azure.mgmt.compute
import httpx
import pandas as pd
import pytest
import respx
from azure.core.exceptions import ClientAuthenticationError
from azure.mgmt.compute.models import ResourceSku

from pricing_adapters import azure as az
from pricing_adapters.azure import AzurePriceSource, classify_item, load_size_table
from pricing_adapters.errors import PriceSourceError, RegionError, ThrottledError
from pricing_adapters.refresh import get_source, refresh
from pricing_adapters.schema import validate_offers
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore
from tests.planner.test_price_dates_in_utc import NOW, fixed_clock

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
BASE = "https://prices.azure.com/api/retail/prices"


# ------------------------------------------------------------------ safety and helpers

@pytest.fixture(autouse=True)
def _no_real_credentials(monkeypatch):
    """No test may build a real credential chain or ARM client unless it replaces them itself."""
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
    monkeypatch.delenv(az.PRICES_URL_ENV, raising=False)
    monkeypatch.delenv(az.ARM_URL_ENV, raising=False)

    def refuse(*args, **kwargs):
        raise AssertionError("DefaultAzureCredential must not be constructed here")

    monkeypatch.setattr(azure.identity, "DefaultAzureCredential", refuse)
    monkeypatch.setattr(azure.mgmt.compute, "ComputeManagementClient", refuse)


def _json(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _response(name: str) -> httpx.Response:
    return httpx.Response(200, content=(FIXTURES / name).read_bytes(),
                          headers={"content-type": "application/json"})


PAGES = {None: "retail_eastus_page1.json", "1000": "retail_eastus_page2.json", "2000": "retail_eastus_page3.json"}


def _pager(request: httpx.Request) -> httpx.Response:
    """The recorded Retail API: eastus in three pages joined by NextPageLink ($skip), eastus2 in one."""
    flt = request.url.params.get("$filter", "")
    if "armRegionName eq 'eastus2'" in flt:
        return _response("retail_eastus2_page1.json")
    if "armRegionName eq 'eastus'" in flt:
        return _response(PAGES[request.url.params.get("$skip")])
    return httpx.Response(200, json={"Items": [], "NextPageLink": None})


@pytest.fixture
def retail():
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        route = router.get("").mock(side_effect=_pager)
        yield route


def _sku_model(data: dict):
    """The SDK's own model from ARM JSON (`deserialize` in msrest-style SDKs; azure-mgmt-compute >= 35
    models are built from the JSON mapping itself)."""
    deserialize = getattr(ResourceSku, "deserialize", None)
    return deserialize(data) if deserialize else ResourceSku(data)


class FakeCredential:
    def get_token(self, *scopes, **kwargs):  # pragma: no cover - the fake client never asks
        raise AssertionError("the fake compute client needs no token")


class FakeResourceSkus:
    def __init__(self, skus, error=None):
        self.skus, self.error, self.filters = skus, error, []

    def list(self, filter=None, **kwargs):  # noqa: A002 - the SDK's parameter name
        self.filters.append(filter)
        if self.error is not None:
            raise self.error
        region = filter.split("'")[1]
        return iter([s for s in self.skus if region in s.locations])


class FakeComputeClient:
    def __init__(self, error=None):
        skus = [_sku_model(d) for d in _json("resource_skus_eastus_eastus2.json")]
        skus += [_sku_model(d) for d in _json("resource_skus_gpu_examples.json")]
        self.resource_skus = FakeResourceSkus(skus, error)


def _row(df: pd.DataFrame, region: str, sku: str, option: str) -> pd.Series:
    hit = df[(df.region == region) & (df.sku == sku) & (df.purchase_option == option)]
    assert len(hit) == 1, f"{region} {sku} {option}: {len(hit)} rows"
    return hit.iloc[0]


# ------------------------------------------------------------------ paging, classification, prices

def test_three_pages_joined_via_next_page_link(retail):
    src = AzurePriceSource(http=httpx.Client(), sleep=lambda s: None)
    steps = []
    df = src.fetch(["eastus"], progress=lambda step, done, total=None: steps.append((step, done, total)))
    assert retail.call_count == 3
    first = retail.calls[0].request.url.params
    assert first["api-version"] == "2023-01-01-preview"
    assert first["currencyCode"] == "'USD'"   # quoted, as Microsoft's examples write it
    assert first["$filter"] == "serviceName eq 'Virtual Machines' and armRegionName eq 'eastus'"
    assert [c.request.url.params.get("$skip") for c in retail.calls] == [None, "1000", "2000"]
    # one offer from each page
    assert {"Standard_NC24ads_A100_v4", "Standard_ND96asr_v4", "Standard_NV6ads_A10_v5"} <= set(df.sku)
    assert ("azure eastus: price pages", 3, None) in steps
    assert steps[-1] == ("azure regions", 1, 1)


def test_reference_values_nc24ads_a100_v4_and_nd96asr_v4_in_eastus(retail, monkeypatch):
    # the fetch reads a frozen clock: the date expected, read after the fetch, was a day later when the run crossed
    # midnight UTC between the two
    monkeypatch.setattr(az, "datetime", fixed_clock(NOW)[1])   # 2026-12-06 03:00 UTC
    df = AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
    nc = _row(df, "eastus", "Standard_NC24ads_A100_v4", "on_demand")
    assert nc.hourly_price == 3.673 and nc.currency == "USD"
    assert (nc.gpu, nc.gpu_count, nc.gpu_memory_gb, nc.vcpus, nc.memory_gb) == ("A100-80GB-PCIE", 1, 80, 24, 220)
    nd = _row(df, "eastus", "Standard_ND96asr_v4", "on_demand")
    assert nd.hourly_price == 27.197
    assert (nd.gpu, nd.gpu_count, nd.gpu_memory_gb, nd.vcpus, nd.memory_gb) == ("A100-40GB-SXM", 8, 40, 96, 900)
    assert nd.offer_id == "azure:eastus:Standard_ND96asr_v4:on_demand"
    assert nd.as_of == "2026-12-06"                                    # the fetch date (UTC)
    assert nd.note.endswith("effectiveStartDate 2026-06-01")           # the item's, kept in the note
    assert nd.term_months == 0 and nd.upfront_price == 0


def test_spot_low_priority_windows_cloud_services_devtest_classified(retail):
    src = AzurePriceSource(http=httpx.Client())
    df = src.fetch(["eastus"])
    nc = "Standard_NC24ads_A100_v4"
    assert _row(df, "eastus", nc, "spot").hourly_price == 0.444433
    assert _row(df, "eastus", "Standard_ND96asr_v4", "spot").hourly_price == 2.99167
    low = _row(df, "eastus", nc, "low_priority")
    assert low.hourly_price == 0.7346
    # Low Priority is kept apart: the on-demand row is the on-demand price
    assert _row(df, "eastus", nc, "on_demand").hourly_price == 3.673
    assert 4.409 not in set(df.hourly_price)        # Windows
    assert 0.3 not in set(df.hourly_price)          # DevTestConsumption
    assert "Standard_D14" not in set(df.sku)        # not a GPU size
    assert not ((df.sku == "Standard_ND96asr_v4") & (df.purchase_option == "low_priority")).any()  # price 0
    assert src.skipped == {"windows": 1, "cloud_services": 1, "devtest": 1, "non_gpu": 1,
                           "zero_or_negative_price": 1}
    assert sorted(df.purchase_option.unique()) == ["low_priority", "on_demand", "reserved_1y", "reserved_3y",
                                                   "savings_plan_1y", "savings_plan_3y", "spot"]


def test_verbatim_sample_items_classified():
    low_priority_cloud_services, consumption, reservation, devtest_windows = _json("retail_items_examples.json")
    assert classify_item(low_priority_cloud_services) == ([], ["cloud_services"])
    assert classify_item(devtest_windows) == ([], ["devtest"])
    offers, skipped = classify_item(consumption)
    assert skipped == []
    assert [(o, p) for o, p, _ in offers] == [("on_demand", 0.673), ("savings_plan_3y", 0.34323),
                                             ("savings_plan_1y", 0.49129)]
    offers, skipped = classify_item(reservation)
    (option, hourly, note), = offers
    assert option == "reserved_1y"
    assert hourly == pytest.approx(0.39703196, abs=1e-8)   # 3478.0 / 8760 h, by hand
    assert hourly == 3478.0 / 8760
    assert "3478" in note
    # the same item as a Windows Low Priority: Windows wins; a Low Priority Linux item is low_priority
    assert classify_item({**consumption, "productName": "Virtual Machines Basv2 Series Windows"}) == ([], ["windows"])
    lp = {**consumption, "skuName": "B16als v2 Low Priority", "savingsPlan": None}
    assert classify_item(lp)[0] == [("low_priority", 0.673, "")]
    assert classify_item({**consumption, "retailPrice": 0.0, "savingsPlan": []}) == ([], ["zero_or_negative_price"])
    assert classify_item({**reservation, "retailPrice": -1.0}) == ([], ["zero_or_negative_price"])


def test_reservation_total_becomes_effective_hourly_by_hand(retail):
    df = AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
    r1 = _row(df, "eastus", "Standard_NC24ads_A100_v4", "reserved_1y")
    r3 = _row(df, "eastus", "Standard_NC24ads_A100_v4", "reserved_3y")
    # 21024.0 USD for one year / 8760 h = 2.4 USD/h; 39420.0 for three years / 26280 h = 1.5 USD/h
    assert r1.hourly_price == pytest.approx(2.4, abs=1e-12)
    assert r3.hourly_price == pytest.approx(1.5, abs=1e-12)
    assert (r1.upfront_price, r1.term_months) == (0.0, 12)
    assert (r3.upfront_price, r3.term_months) == (0.0, 36)
    # the planner pays a term as upfront + hourly x 730 x months: exactly the API's total
    assert r1.upfront_price + r1.hourly_price * 730 * 12 == pytest.approx(21024.0)
    assert r3.upfront_price + r3.hourly_price * 730 * 36 == pytest.approx(39420.0)


def test_savings_plan_rates(retail):
    df = AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
    sp1 = _row(df, "eastus", "Standard_NC24ads_A100_v4", "savings_plan_1y")
    sp3 = _row(df, "eastus", "Standard_NC24ads_A100_v4", "savings_plan_3y")
    assert (sp1.hourly_price, sp1.term_months, sp1.upfront_price) == (2.5711, 12, 0.0)
    assert (sp3.hourly_price, sp3.term_months, sp3.upfront_price) == (1.4692, 36, 0.0)
    assert sp1.gpu == "A100-80GB-PCIE"


def test_output_is_a_valid_offers_table(retail):
    df = AzurePriceSource(http=httpx.Client()).fetch(["eastus", "eastus2"])
    pd.testing.assert_frame_equal(df, validate_offers(df))
    assert df.offer_id.is_unique
    assert set(df.provider) == {"azure"} and set(df.currency) == {"USD"}
    assert df.source.str.startswith("Azure Retail Prices API").all()


def test_currency_is_requested_and_checked():
    seen = []

    def eur(request):
        seen.append(request.url.params["currencyCode"])
        page = _json("retail_eastus2_page1.json")
        page["BillingCurrency"] = "EUR"   # as the API answers a currencyCode=EUR request: page and items
        for item in page["Items"]:
            item["currencyCode"] = "EUR"
        return httpx.Response(200, json=page)

    with respx.mock(base_url=BASE) as router:
        router.get("").mock(side_effect=eur)
        df = AzurePriceSource(http=httpx.Client(), currency="EUR").fetch(["eastus2"])
        assert seen == ["'EUR'"] and set(df.currency) == {"EUR"}
        with pytest.raises(PriceSourceError, match="EUR for eastus2; USD was asked for"):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])


def test_a_page_billed_in_another_currency_fails_even_when_its_items_name_none():
    # items without currencyCode were taken as the currency asked for: 3.673 EUR stored as 3.673 USD
    def eur_page(request):
        page = _json("retail_eastus2_page1.json")
        page["BillingCurrency"] = "EUR"
        for item in page["Items"]:
            item.pop("currencyCode", None)
        return httpx.Response(200, json=page)

    with respx.mock(base_url=BASE) as router:
        router.get("").mock(side_effect=eur_page)
        with pytest.raises(PriceSourceError, match="a page billed in EUR for eastus2; USD was asked for"):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
        assert set(AzurePriceSource(http=httpx.Client(), currency="EUR").fetch(["eastus2"]).currency) == {"EUR"}


def test_packaged_facts_fractional_a10_mi300x_alias_and_unknown_size(retail):
    df = AzurePriceSource(http=httpx.Client()).fetch(["eastus", "eastus2"])
    nv = _row(df, "eastus", "Standard_NV6ads_A10_v5", "on_demand")
    # a sixth of an A10, exactly (not 0.167): 0.454 USD/h is 0.454 x 6 = 2.724 USD per whole A10-hour
    assert (nv.gpu, nv.gpu_memory_gb, nv.hourly_price) == ("A10", 4.0, 0.454)
    assert abs(nv.gpu_count - 1 / 6) <= 1e-12 and abs(nv.hourly_price / nv.gpu_count - 2.724) <= 1e-9
    assert "fractional GPU: 1/6 of one per unit" in nv.note
    mi = _row(df, "eastus2", "Standard_ND96isr_MI300X_v5", "on_demand")
    assert (mi.gpu, mi.gpu_count, mi.hourly_price) == ("MI300X", 8, 48.0)
    ng = _row(df, "eastus2", "Standard_NG32adms_V620_v1", "on_demand")  # Retail key Standard_NG32adms_V620
    assert ng.hourly_price == 3.302 and "Retail Prices armSkuName is 'Standard_NG32adms_V620'" in ng.note
    unknown = _row(df, "eastus2", "Standard_NC8ads_X9_v9", "on_demand")
    assert not unknown.gpu_known and pd.isna(unknown.gpu_count) and "accelerator unknown" in unknown.note


def test_an_unknown_size_whose_name_is_no_vm_size_name_is_skipped_and_counted():
    # a review's listing (2026-12-05): names that look like GPU sizes but hold a NUL or 5,000 digits were stored
    # as offers of an unknown accelerator, and `prices show` printed the long one whole
    page = _json("retail_eastus2_page1.json")
    (template,) = [i for i in page["Items"] if i["armSkuName"] == "Standard_NC8ads_X9_v9"]
    odd = ["Standard_ND\x00x", "Standard_NC" + "9" * 5000, "Standard_NC8 ads"]
    page["Items"] = [template] + [{**template, "armSkuName": name, "meterId": f"m-{i}"} for i, name in enumerate(odd)]
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        router.get("").mock(return_value=httpx.Response(200, json=page))
        src = AzurePriceSource(http=httpx.Client())
        df = src.fetch(["eastus2"])
    assert df["sku"].tolist() == ["Standard_NC8ads_X9_v9"]   # the well-formed unknown size is kept
    assert src.skipped["malformed_size_name"] == 3


# ------------------------------------------------------------------ failures

def test_429_then_success_honours_retry_after():
    calls, sleeps = [], []

    def flaky(request):
        calls.append(request)
        if len(calls) == 1:
            return httpx.Response(429, headers={"Retry-After": "7"})
        return _response("retail_eastus2_page1.json")

    with respx.mock(base_url=BASE) as router:
        router.get("").mock(side_effect=flaky)
        df = AzurePriceSource(http=httpx.Client(), sleep=sleeps.append).fetch(["eastus2"])
    assert len(calls) == 2 and sleeps == [7.0]
    assert _row(df, "eastus2", "Standard_ND96isr_MI300X_v5", "on_demand").hourly_price == 48.0


def test_throttled_to_the_end_raises_with_bounded_backoff():
    sleeps = []
    with respx.mock(base_url=BASE) as router:
        route = router.get("").mock(side_effect=[httpx.Response(429, headers={"Retry-After": "3600"}),
                                                 httpx.Response(503), httpx.Response(429), httpx.Response(429),
                                                 httpx.Response(429)])
        with pytest.raises(ThrottledError, match="after 5 attempts"):
            AzurePriceSource(http=httpx.Client(), sleep=sleeps.append).fetch(["eastus"])
    assert route.call_count == 5
    assert sleeps == [60.0, 2.0, 4.0, 8.0]  # Retry-After capped at 60 s; else 1, 2, 4, 8 s by attempt


def test_timeout_raises_price_source_error():
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(side_effect=httpx.ReadTimeout("read timed out"))
        with pytest.raises(PriceSourceError, match="timed out") as info:
            AzurePriceSource(http=httpx.Client(), sleep=lambda s: None).fetch(["eastus"])
    assert not isinstance(info.value, ThrottledError)


@pytest.mark.parametrize("bad_page, message", [
    ("retail_page_without_items.json", "has no 'Items' list"),
    ("retail_page_malformed.json", "is not valid JSON"),
])
def test_bad_page_is_a_clear_error(bad_page, message):
    def second_page_bad(request):
        return _response(bad_page if request.url.params.get("$skip") == "1000" else "retail_eastus_page1.json")

    with respx.mock(base_url=BASE) as router:
        router.get("").mock(side_effect=second_page_bad)
        with pytest.raises(PriceSourceError) as info:
            AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
    text = str(info.value)
    assert message in text and "\n" not in text
    assert "page https://prices.azure.com:443/api/retail/prices?" in text and "$skip=1000" in text  # the NextPageLink


@pytest.mark.parametrize("bad_page", ["retail_page_without_items.json", "retail_page_malformed.json"])
def test_bad_page_leaves_the_store_unchanged(retail, tmp_path, bad_page):
    store = PriceStore(tmp_path / "prices.sqlite")
    # the recorded pages' 10 offers, where the packaged snapshot holds 72 in eastus: the missing ones accepted
    good = refresh(AzurePriceSource(http=httpx.Client()), ["eastus"], store, accept_missing_offers=True)
    before = store.snapshots()
    offers_before = store.offers(good.id)

    def third_page_bad(request):
        return _response(bad_page) if request.url.params.get("$skip") == "2000" else _pager(request)

    retail.mock(side_effect=third_page_bad)
    with pytest.raises(PriceSourceError):
        refresh(AzurePriceSource(http=httpx.Client()), ["eastus", "eastus2"], store)
    assert store.snapshots() == before
    pd.testing.assert_frame_equal(store.offers(good.id), offers_before)


def test_a_region_azure_cannot_have_fails_before_any_request():
    # armRegionName is lower-case letters and digits; the name is quoted into the API's $filter
    src = AzurePriceSource(http=httpx.Client())
    with pytest.raises(RegionError, match=r"not Azure region names: us-east-1, eastus' or 1 eq 1 \("):
        src.fetch(["us-east-1", "eastus' or 1 eq 1", "eastus2"])


def test_page_loop_is_an_error():
    page = _json("retail_eastus2_page1.json")
    page["NextPageLink"] = BASE + "?$skip=100"
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, json=page))
        with pytest.raises(PriceSourceError, match="loops back"):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])


# ------------------------------------------------------------------ credentials and ARM size facts

def test_no_subscription_prices_refresh_from_packaged_size_table(retail, tmp_path):
    # DefaultAzureCredential and ComputeManagementClient raise if called (autouse fixture)
    src = get_source("azure", http=httpx.Client())
    assert src.notice == "no AZURE_SUBSCRIPTION_ID: GPU facts from the packaged size table"
    assert src.source == "Azure Retail Prices API"
    store = PriceStore(tmp_path / "prices.sqlite")
    info = refresh(src, ["eastus"], store, accept_missing_offers=True)   # 10 recorded offers, 72 packaged
    assert info.source == "Azure Retail Prices API" and info.row_count > 0
    assert src.credential is None and src.compute_client is None
    offers = store.offers(info.id)
    assert offers.source.str.endswith("GPU facts: packaged size table").all()
    assert _row(offers, "eastus", "Standard_ND96asr_v4", "on_demand").gpu_count == 8


def test_arm_size_facts_through_sdk_models():
    client = FakeComputeClient()
    src = AzurePriceSource(http=httpx.Client(), compute_client=client, credential=FakeCredential(),
                           subscription_id="00000000-0000-0000-0000-000000000000")
    assert src.notice == "" and src.source == "Azure Retail Prices API + azure-mgmt-compute resource SKUs"
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(side_effect=_pager)
        df = src.fetch(["eastus", "eastus2"])
    assert client.resource_skus.filters == ["location eq 'eastus'", "location eq 'eastus2'"]
    nc = _row(df, "eastus", "Standard_NC24ads_A100_v4", "on_demand")
    assert (nc.gpu, nc.gpu_count, nc.gpu_memory_gb, nc.vcpus, nc.memory_gb, nc.hourly_price) == \
        ("A100-80GB-PCIE", 1, 80, 24, 220, 3.673)
    assert nc.source.endswith("GPU facts: azure-mgmt-compute resource SKUs")
    nd = _row(df, "eastus", "Standard_ND96asr_v4", "on_demand")  # family 'Standard NDASv4_A100 Family'
    assert (nd.gpu, nd.gpu_count, nd.gpu_memory_gb, nd.hourly_price) == ("A100-40GB-SXM", 8, 40, 27.197)
    assert "restricted in eastus: NotAvailableForSubscription" in nd.note
    nv = _row(df, "eastus", "Standard_NV6ads_A10_v5", "on_demand")  # API says GPUs "1"
    assert (nv.gpu, nv.gpu_memory_gb, nv.memory_gb) == ("A10", 4.0, 55.0)
    assert abs(nv.gpu_count - 1 / 6) <= 1e-12   # 6 vCPUs / 36, unrounded (0.167 was 0.2 % too much A10)
    assert "fractional A10: vCPUs/36 = 6/36 = 1/6 (the API reports GPUs=1)" in nv.note
    mi = _row(df, "eastus2", "Standard_ND96isr_MI300X_v5", "on_demand")  # no GPUs capability
    assert (mi.gpu, mi.gpu_count, mi.gpu_memory_gb, mi.memory_gb) == ("MI300X", 8, 192, 1850)
    assert "azure_gpu_counts.csv" in mi.note
    ng = _row(df, "eastus2", "Standard_NG32adms_V620_v1", "on_demand")  # partition family, no docs count
    assert ng.gpu == "V620" and pd.isna(ng.gpu_count) and "fraction unknown" in ng.note
    assert "Standard_D14" not in set(df.sku)


def test_arm_facts_of_the_verbatim_sample_sku():
    sample = _sku_model(_json("resource_skus_gpu_examples.json")[0])
    facts = az.arm_size_facts(sample, "southcentralus", load_size_table(), az.load_gpu_counts())
    assert (facts["sku"], facts["gpu"], facts["gpu_count"], facts["gpu_memory_gb"], facts["vcpus"],
            facts["memory_gb"]) == ("Standard_NC6s_v3", "V100-16GB-PCIE", 1.0, 16, 6.0, 112.0)
    assert facts["notes"] == []


def test_arm_fractional_a10_per_gpu_price_is_the_vm_price_times_six(retail):
    # recorded eastus page 3: NV6ads_A10_v5 on-demand 0.454 USD/h; the fake ARM says vCPUs "6", GPUs "1".
    # By hand: 6 / 36 = 1/6 of an A10, so one whole A10-hour costs 0.454 x 6 = 2.724 (0.454 / 0.167 = 2.7186)
    src = AzurePriceSource(http=httpx.Client(), compute_client=FakeComputeClient(), credential=FakeCredential(),
                           subscription_id="00000000-0000-0000-0000-000000000000")
    nv = _row(src.fetch(["eastus"]), "eastus", "Standard_NV6ads_A10_v5", "on_demand")
    assert nv.source.endswith("GPU facts: azure-mgmt-compute resource SKUs")
    assert abs(nv.gpu_count - 1 / 6) <= 1e-12
    assert abs(nv.hourly_price / nv.gpu_count - 2.724) <= 1e-9
    assert nv.gpu_count * 6 == pytest.approx(1, abs=1e-12)    # six of them are one A10, not 1.002


def _nv_a10_v5_sku(size: str, vcpus: str):
    """The recorded NV6ads_A10_v5 ResourceSku renamed to another NV*ads_A10_v5 size: the API's GPUs "1"
    kept (reference trap 8: it says 1 for every fractional size), vCPUs as the size name says."""
    (data,) = [d for d in _json("resource_skus_eastus_eastus2.json") if d["name"] == "Standard_NV6ads_A10_v5"]
    caps = [{**c, "value": vcpus} if c["name"] == "vCPUs" else c for c in data["capabilities"]]
    return _sku_model({**data, "name": f"Standard_{size}", "size": size, "capabilities": caps})


@pytest.mark.parametrize("size, vcpus, share, label, memory", [
    ("NV6ads_A10_v5", "6", 1 / 6, "6/36 = 1/6", 4.0),      # 24 GB / 6
    ("NV12ads_A10_v5", "12", 1 / 3, "12/36 = 1/3", 8.0),   # 24 GB / 3
    ("NV18ads_A10_v5", "18", 1 / 2, "18/36 = 1/2", 12.0),  # 24 GB / 2
])
def test_arm_fractional_a10_counts_are_exact_vcpu_fractions(size, vcpus, share, label, memory):
    for table, counts in (({}, {}), (load_size_table(), az.load_gpu_counts())):
        facts = az.arm_size_facts(_nv_a10_v5_sku(size, vcpus), "eastus", table, counts)
        assert abs(facts["gpu_count"] - share) <= 1e-12 and facts["gpu_memory_gb"] == memory
        assert facts["gpu"] == "A10" and facts["origin"] == az.ARM_SOURCE
        assert f"fractional A10: vCPUs/36 = {label} (the API reports GPUs=1)" in facts["notes"]


def test_arm_whole_a10_v5_sizes_stay_whole():
    one = az.arm_size_facts(_nv_a10_v5_sku("NV36ads_A10_v5", "36"), "eastus", {}, {})
    assert (one["gpu_count"], one["gpu_memory_gb"]) == (1.0, 24.0)
    assert not any(n.startswith("fractional") for n in one["notes"])


def test_packaged_size_table_fractional_a10_counts_are_exact():
    # the table behind refreshes without a subscription: 1/6, 1/3, 1/2 of an A10, not the reference's 0.167 / 0.333
    table = load_size_table()
    for size, share, label in (("standard_nv6ads_a10_v5", 1 / 6, "1/6"), ("standard_nv12ads_a10_v5", 1 / 3, "1/3"),
                               ("standard_nv18ads_a10_v5", 1 / 2, "1/2")):
        assert abs(table[size]["gpu_count"] - share) <= 1e-12, size
        assert f"fractional GPU: {label} of one per unit" in table[size]["notes"]


@pytest.mark.parametrize("family, expected", [("standardNDISRGB300V6Family", 4.0),
                                              ("standard NDISRGB200V6NDR Family", 4.0),
                                              ("StandardNDISv5MI300XFamily", 8.0)])
def test_missing_gpus_capability_counts_by_family(family, expected):
    data = _json("resource_skus_gpu_examples.json")[0]
    data = {**data, "name": "Standard_ND999isr_New_v9", "family": family,
            "capabilities": [{"name": "vCPUs", "value": "128"}, {"name": "MemoryGB", "value": "2000"}]}
    facts = az.arm_size_facts(_sku_model(data), "eastus", {}, {})
    assert facts["gpu_count"] == expected and facts["gpu_known"]


def test_subscription_builds_default_credential_and_configured_arm_client(monkeypatch, retail):
    built = {}

    class RecordingCredential(FakeCredential):
        def __init__(self):
            built["credential"] = self

    def client(credential, subscription_id, base_url=None, **kwargs):
        built.update(client_credential=credential, subscription_id=subscription_id, base_url=base_url)
        return FakeComputeClient()

    monkeypatch.setattr(azure.identity, "DefaultAzureCredential", RecordingCredential)
    monkeypatch.setattr(azure.mgmt.compute, "ComputeManagementClient", client)
    monkeypatch.setenv("AZURE_SUBSCRIPTION_ID", "11111111-2222-3333-4444-555555555555")
    monkeypatch.setenv("FLEETPLAN_AZURE_ARM_URL", "http://127.0.0.1:9/arm")
    src = AzurePriceSource(http=httpx.Client())
    assert built == {}  # nothing is built before fetch
    df = src.fetch(["eastus"])
    assert built["client_credential"] is built["credential"]
    assert built["subscription_id"] == "11111111-2222-3333-4444-555555555555"
    assert built["base_url"] == "http://127.0.0.1:9/arm"
    assert _row(df, "eastus", "Standard_NV6ads_A10_v5", "on_demand").memory_gb == 55.0


def test_injected_credential_means_no_default_credential(monkeypatch, retail):
    def client(credential, subscription_id, base_url=None, **kwargs):
        assert isinstance(credential, FakeCredential) and base_url == "https://management.azure.com"
        return FakeComputeClient()

    monkeypatch.setattr(azure.mgmt.compute, "ComputeManagementClient", client)
    src = AzurePriceSource(http=httpx.Client(), credential=FakeCredential(), subscription_id="sub")
    assert len(src.fetch(["eastus"])) > 0


def test_rejected_credentials_still_refresh_prices_with_packaged_size_facts(retail):
    # issue 5: the Retail Prices API is public, so failing ARM credentials cost only the live size facts
    client = FakeComputeClient(error=ClientAuthenticationError("DefaultAzureCredential failed to retrieve a token"))
    src = AzurePriceSource(http=httpx.Client(), compute_client=client, credential=FakeCredential(), subscription_id="s")
    df = src.fetch(["eastus"])
    nc24 = df[(df["sku"] == "Standard_NC24ads_A100_v4") & (df["purchase_option"] == "on_demand")].iloc[0]
    assert nc24["hourly_price"] == 3.673 and nc24["gpu"] == "A100-80GB-PCIE" and nc24["gpu_count"] == 1
    assert "failed to retrieve a token" in src.notice and "packaged size table" in src.notice
    assert "resource SKUs" not in src.source


def test_prices_url_from_environment(monkeypatch):
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", "http://127.0.0.1:9/retail/prices")
    with respx.mock(base_url="http://127.0.0.1:9/retail/prices") as router:
        route = router.get("").mock(return_value=_response("retail_eastus2_page1.json"))
        df = AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
    assert route.call_count == 1 and len(df) == 3
    assert "http://127.0.0.1:9/retail/prices" in df.source.iloc[0]


# ------------------------------------------------------------------ the packaged size table

def test_size_table_agrees_with_packaged_snapshot():
    table = load_size_table()
    snap = load_snapshot(["azure"]).drop_duplicates("sku")
    for row in snap.itertuples(index=False):
        facts = table[row.sku.lower()]
        assert (facts["gpu"], facts["gpu_known"], facts["accelerator_name"]) == \
            (row.gpu, row.gpu_known, row.accelerator_name), row.sku
        for col in ("gpu_count", "gpu_memory_gb", "vcpus", "memory_gb"):
            a, b = facts[col], getattr(row, col)
            assert (pd.isna(a) and pd.isna(b)) or a == b, (row.sku, col, a, b)


def test_sockets_beyond_loopback_are_refused(_no_network):
    with pytest.raises(OSError, match="only loopback"):
        socket.create_connection(("192.0.2.1", 443), timeout=0.1)
    assert _no_network == ["resolve '192.0.2.1'"]   # recorded (tests/conftest.py): create_connection looks it up first
    with socket.socket() as sock, pytest.raises(OSError, match="only loopback"):   # and a connect() to the address itself
        sock.connect(("192.0.2.1", 443))
    assert _no_network[1:] == ["connect to ('192.0.2.1', 443)"]
    _no_network.clear()


def test_a_python_process_a_test_starts_is_guarded_too(tmp_path):
    # tests/netguard/sitecustomize.py: the child refuses, and logs for the test's fixture, what is beyond
    # loopback; loopback itself still works (a listening socket of this process)
    log = Path(os.environ["FLEETPLAN_TEST_NETWORK_LOG"])
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        child = textwrap.dedent(f"""
            import socket
            socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
            for address in [("192.0.2.1", 443), ("prices.azure.com", 443)]:
                try:
                    socket.create_connection(address, timeout=0.1)
                except OSError as exc:
                    print(type(exc).__name__, exc)
            """)
        done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "NetworkRefused test subprocess tried to resolve '192.0.2.1' (only loopback is allowed)",
        "NetworkRefused test subprocess tried to resolve 'prices.azure.com' (only loopback is allowed)"]
    pid = r"pid \d+: "
    assert re.fullmatch(f"{pid}resolve '192.0.2.1'\n{pid}resolve 'prices.azure.com'\n", log.read_text(encoding="utf-8"))
    log.unlink()   # the attempts were this test's purpose: the fixture would fail it for them


@pytest.fixture(scope="module")
def module_log():
    """The log a process started by a module-scoped fixture (a dashboard server) is given."""
    return os.environ.get("FLEETPLAN_TEST_NETWORK_LOG")


def test_a_process_started_for_a_whole_module_is_guarded_and_read_by_each_test(module_log, _session_network_log):
    # the session's log (tests/conftest.py), whose additions every test reads at its end; a test's own
    # processes log to a file of the test
    assert module_log == str(_session_network_log.path)
    assert os.environ["FLEETPLAN_TEST_NETWORK_LOG"] not in (None, module_log)


def test_the_shared_log_is_read_on_from_where_it_was_last_read(tmp_path):
    # what a module's server tried while it started (before any test of the module) is still read by a test
    import netguard

    log = netguard.SharedLog(tmp_path / "shared.log")
    assert log.unread() == ""   # no file yet
    log.path.write_text("pid 1: resolve 'a.example'\n", encoding="utf-8")
    assert log.unread() == "pid 1: resolve 'a.example'\n"
    assert log.unread() == ""
    with open(log.path, "a", encoding="utf-8") as f:
        f.write("pid 2: connect to ('192.0.2.1', 443)\n")
    assert log.unread() == "pid 2: connect to ('192.0.2.1', 443)\n"


def test_the_guard_s_sitecustomize_runs_the_next_one_on_the_path(tmp_path):
    # it would hide another sitecustomize (a distribution's, coverage's subprocess hook) further down the path
    other = tmp_path / "other"
    other.mkdir()
    (other / "sitecustomize.py").write_text("import os\nos.environ['OTHER_SITECUSTOMIZE'] = 'ran'\n", encoding="utf-8")
    child = ("import os, socket\nprint(os.environ.get('OTHER_SITECUSTOMIZE'))\n"
             "try:\n    socket.getaddrinfo('prices.azure.com', 443)\nexcept OSError as exc:\n    print(type(exc).__name__)\n")
    env = {**os.environ, "PYTHONPATH": f"{os.environ['PYTHONPATH']}{os.pathsep}{other}"}
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=60, env=env)
    assert done.stdout.splitlines() == ["ran", "NetworkRefused"], done.stderr
    Path(os.environ["FLEETPLAN_TEST_NETWORK_LOG"]).unlink()   # the attempt was this test's purpose


# ------------------------------------------------------------------ retired sizes and memory units

def test_retired_sizes_still_quoted_are_skipped_and_counted():
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        router.get("").mock(return_value=_response("retail_eastus_retired_sizes.json"))
        src = AzurePriceSource(http=httpx.Client())
        df = src.fetch(["eastus"])
    # NC6_Promo (K80, retired 2023-09-06), NV12s_v3 (M60, 2026-09-30), NC6s_v3 (V100, 2025-09-30) are gone
    assert set(df.sku) == {"Standard_NC24ads_A100_v4"}
    assert src.skipped == {"retired_size": 3}


def test_azure_rows_carry_nominal_gb_and_no_api_mib(retail):
    df = AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
    nc = _row(df, "eastus", "Standard_NC24ads_A100_v4", "on_demand")
    assert nc.gpu_memory_gb == 80 and pd.isna(nc.gpu_memory_mib)   # Azure reports no MiB figure
    assert df.gpu_memory_mib.isna().all()


# ------------------------------------------------------------------ units, dates and regions of items

def _fetch_page(name: str, region: str = "eastus") -> tuple[pd.DataFrame, AzurePriceSource]:
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=_response(name))
        src = AzurePriceSource(http=httpx.Client())
        return src.fetch([region]), src


def test_a_price_per_month_is_skipped_and_one_per_100_hours_is_divided():
    df, src = _fetch_page("retail_eastus_non_hourly_units.json")
    # NC24ads_A100_v4 at 2681.29 per "1/Month" is no hourly price: neither it nor its savings plans are kept
    assert "Standard_NC24ads_A100_v4" not in set(df.sku)
    # ND96asr_v4 at 2719.7 per "100 Hours" = 27.197 USD/h, the reference eastus price
    nd = _row(df, "eastus", "Standard_ND96asr_v4", "on_demand")
    assert nd.hourly_price == pytest.approx(27.197, abs=1e-9)
    assert "retailPrice per 100 Hours" in nd.note
    assert _row(df, "eastus", "Standard_NV6ads_A10_v5", "on_demand").hourly_price == 0.454
    assert src.skipped == {"unknown_unit": 1}


def test_units_of_verbatim_items_and_odd_units():
    _, consumption, reservation, _ = _json("retail_items_examples.json")
    assert consumption["unitOfMeasure"] == "1 Hour" and reservation["unitOfMeasure"] == "1 Hour"
    assert classify_item({**consumption, "unitOfMeasure": "1/Day"}) == ([], ["unknown_unit"])
    assert classify_item({**consumption, "unitOfMeasure": None}) == ([], ["unknown_unit"])
    assert classify_item({**reservation, "unitOfMeasure": "1/Month"}) == ([], ["unknown_unit"])
    assert classify_item({**reservation, "unitOfMeasure": "10 Hours"}) == ([], ["unknown_unit"])
    # 6.73 per 10 Hours: 0.673 USD/h; savings plans 3.4323 and 4.9129 per 10 hours: 0.34323 and 0.49129
    offers, skipped = classify_item({**consumption, "retailPrice": 6.73, "unitOfMeasure": "10 Hours",
                                     "savingsPlan": [{"term": "3 Years", "retailPrice": 3.4323},
                                                     {"term": "1 Year", "retailPrice": 4.9129}]})
    assert skipped == []
    assert [(o, round(p, 9)) for o, p, _ in offers] == [("on_demand", 0.673), ("savings_plan_3y", 0.34323),
                                                        ("savings_plan_1y", 0.49129)]


def test_prices_in_effect_since_2023_are_dated_by_the_fetch_and_not_flagged_stale():
    """The Retail API's effectiveStartDate is when a price took effect (the verbatim sample's is
    2023-09-01); the price is current when fetched, so as_of is the fetch date, as for AWS."""
    from planner.catalog.prices import date_report

    before = datetime.now(timezone.utc).date()
    df, _ = _fetch_page("retail_eastus_effective_2023.json")
    after = datetime.now(timezone.utc).date()
    assert len(df) == 4   # NC24ads on-demand and two savings plans, ND96asr on-demand
    assert set(df.as_of) <= {before.isoformat(), after.isoformat()}
    assert df.note.str.contains("effectiveStartDate 2023-09-01", regex=False).all()
    assert date_report(df, after)["stale_rows"] == 0   # 2023-09-01 would be stale (older than 180 days)


def test_an_item_of_another_region_is_skipped_and_counted_not_stored_under_the_region_asked():
    # the page for eastus carries NC24ads_A100_v4 at centralus's 4.15 USD/h (reference on-demand file)
    df, src = _fetch_page("retail_eastus_with_centralus_items.json")
    assert list(df.offer_id) == ["azure:eastus:Standard_ND96asr_v4:on_demand"]
    assert 4.15 not in set(df.hourly_price) and set(df.region) == {"eastus"}
    assert src.skipped == {"wrong_region": 1}


# ------------------------------------------------------------------ malformed items

@pytest.mark.parametrize("plans, reason", [
    ([{"term": "1 Year"}], "no_price"),                            # no retailPrice
    ([{"term": "1 Year", "retailPrice": "abc"}], "no_price"),      # not a number
    ([{"term": "1 Year", "retailPrice": True}], "no_price"),       # JSON true is not 1
    (["1 Year"], "malformed"),                                     # entries are objects
    ({"term": "1 Year", "retailPrice": 0.49129}, "malformed"),     # a list of them
    ("1 Year", "malformed"),
])
def test_a_savings_plan_that_cannot_be_read_is_skipped_and_the_on_demand_rate_kept(plans, reason):
    _, consumption, _, _ = _json("retail_items_examples.json")
    assert classify_item({**consumption, "savingsPlan": plans}) == ([("on_demand", 0.673, "")], [reason])


@pytest.mark.parametrize("price, reason", [
    (0.0, "zero_or_negative_price"),      # were: the item's two savings-plan rates kept, without its on-demand rate
    (-1.0, "zero_or_negative_price"),
    ("0", "zero_or_negative_price"),
    (1e300, "implausible_price"),         # above 1e9 an hour
    ("NaN", "no_price"),                  # these three dropped the item whole already
    (None, "no_price"),
    ("1e999", "non_finite_price"),
])
def test_an_item_whose_own_price_is_no_price_is_skipped_whole_its_savings_plans_too(price, reason):
    _, consumption, _, _ = _json("retail_items_examples.json")   # 0.673 an hour; plans 0.34323 (3 y), 0.49129 (1 y)
    assert classify_item({**consumption, "retailPrice": price}) == ([], [reason])


def test_an_on_demand_item_priced_0_leaves_no_savings_plan_rows_and_is_counted_once(retail):
    def nc24_on_demand_at_0(request):
        if "armRegionName eq 'eastus'" in request.url.params.get("$filter", "") and \
                request.url.params.get("$skip") is None:
            page = _json("retail_eastus_page1.json")
            assert page["Items"][0]["armSkuName"] == "Standard_NC24ads_A100_v4" and page["Items"][0]["savingsPlan"]
            page["Items"][0]["retailPrice"] = 0.0
            return httpx.Response(200, json=page)
        return _pager(request)

    retail.mock(side_effect=nc24_on_demand_at_0)
    src = AzurePriceSource(http=httpx.Client())
    df = src.fetch(["eastus"])
    nc24 = df[df.sku == "Standard_NC24ads_A100_v4"]
    # its own items stay: spot 0.444433, low priority 0.7346, reservations 21024 / 8760 and 39420 / 26280
    assert sorted(nc24.purchase_option) == ["low_priority", "reserved_1y", "reserved_3y", "spot"]
    # this item, and the recorded ND96asr_v4 Low Priority item at 0
    assert src.skipped["zero_or_negative_price"] == 2


def test_an_unpriced_savings_plan_no_longer_aborts_every_region(retail):
    # NC24ads_A100_v4's "1 Year" plan without retailPrice became a NaN row, and validation refused the table
    def page1_without_plan_price(request):
        if "armRegionName eq 'eastus'" in request.url.params.get("$filter", "") and \
                request.url.params.get("$skip") is None:
            page = _json("retail_eastus_page1.json")
            (plan,) = [p for p in page["Items"][0]["savingsPlan"] if p["term"] == "1 Year"]
            del plan["retailPrice"]
            return httpx.Response(200, json=page)
        return _pager(request)

    retail.mock(side_effect=page1_without_plan_price)
    src = AzurePriceSource(http=httpx.Client())
    df = src.fetch(["eastus", "eastus2"])
    assert _row(df, "eastus", "Standard_NC24ads_A100_v4", "savings_plan_3y").hourly_price == 1.4692
    assert not ((df.sku == "Standard_NC24ads_A100_v4") & (df.purchase_option == "savings_plan_1y")).any()
    assert _row(df, "eastus2", "Standard_ND96isr_MI300X_v5", "on_demand").hourly_price == 48.0
    assert src.skipped["no_price"] == 1


def test_with_its_only_on_demand_price_per_month_a_region_fails_naming_what_was_skipped():
    page = _json("retail_eastus_page1.json")   # NC24ads on-demand, spot, low priority, Windows
    page["Items"][0]["unitOfMeasure"] = "1/Month"
    page["NextPageLink"] = None
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, json=page))
        with pytest.raises(PriceSourceError, match=r"no on-demand price for any GPU size in eastus "
                                                   r"\(skipped: 1 unknown_unit, 1 windows\); nothing was saved"):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus"])


# ------------------------------------------------------------------ where a page may send the next request, and its size

METADATA = "http://169.254.169.254/metadata/instance"   # the link-local address of a cloud VM's metadata service


@pytest.mark.parametrize("link", [
    METADATA,                                                       # another host
    "http://prices.azure.com/api/retail/prices?$skip=1000",         # the same host, downgraded to plain http
    "https://prices.azure.com:8443/api/retail/prices?$skip=1000",   # the same host, another port
    "//169.254.169.254/metadata/instance",                          # scheme-relative: another host
])
def test_a_next_page_link_off_the_prices_host_is_refused_before_any_request(link):
    page = _json("retail_eastus2_page1.json")
    page["NextPageLink"] = link
    with respx.mock(assert_all_called=False) as router:
        prices = router.get(BASE).mock(return_value=httpx.Response(200, json=page))
        elsewhere = router.route(url__regex=r"^(?!https://prices\.azure\.com/).*").mock(
            return_value=httpx.Response(200, json={"Items": [], "NextPageLink": None}))
        with pytest.raises(PriceSourceError) as info:
            AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
    text = str(info.value)
    assert ("which is not on https://prices.azure.com (the scheme, host and port of the prices URL, "
            "FLEETPLAN_AZURE_PRICES_URL); refused; nothing was saved") in text
    assert "\n" not in text
    assert prices.call_count == 1 and not elsewhere.called


def test_a_next_page_link_that_is_not_a_url_is_a_one_line_error():
    page = _json("retail_eastus2_page1.json")
    page["NextPageLink"] = "http://[::1"   # httpx.InvalidURL, which is not an httpx.HTTPError
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, json=page))
        with pytest.raises(PriceSourceError, match=r"has a NextPageLink that is not a URL: 'http://\[::1'"):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])


def test_a_next_page_link_on_the_configured_local_url_is_followed(monkeypatch):
    local = "http://127.0.0.1:9/retail/prices"
    monkeypatch.setenv(az.PRICES_URL_ENV, local)
    first = {**_json("retail_eastus_page1.json"), "NextPageLink": f"{local}?$skip=1000"}
    second = {**_json("retail_eastus_page3.json"), "NextPageLink": None}
    with respx.mock(base_url=local) as router:
        route = router.get("").mock(side_effect=lambda r: httpx.Response(
            200, json=second if r.url.params.get("$skip") else first))
        df = AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
    assert route.call_count == 2
    assert _row(df, "eastus", "Standard_NC24ads_A100_v4", "on_demand").hourly_price == 3.673   # from page 1


def test_a_redirect_on_the_prices_host_is_followed_and_one_off_it_refused():
    moved = "https://prices.azure.com/api/retail/prices-v2?$filter=x"
    with respx.mock(assert_all_called=False) as router:
        router.get(BASE).mock(return_value=httpx.Response(302, headers={"Location": moved}))
        router.get(moved.split("?")[0]).mock(return_value=_response("retail_eastus2_page1.json"))
        df = AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
    assert _row(df, "eastus2", "Standard_ND96isr_MI300X_v5", "on_demand").hourly_price == 48.0   # reference eastus2

    with respx.mock(assert_all_called=False) as router:
        router.get(BASE).mock(return_value=httpx.Response(307, headers={"Location": METADATA}))
        metadata = router.get(METADATA).mock(return_value=httpx.Response(200, json={"Items": []}))
        with pytest.raises(PriceSourceError, match=r"redirects \(HTTP 307\) to http://169\.254\.169\.254/metadata/"
                                                   r"instance, which is not on https://prices\.azure\.com "):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
    assert not metadata.called


def test_the_default_client_does_not_follow_redirects_itself(monkeypatch):
    # the check above runs in _get; a client that followed redirects on its own would never show them to it
    built = {}
    real = httpx.Client

    def client(**kwargs):
        built.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(az.httpx, "Client", client)
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=_response("retail_eastus2_page1.json"))
        AzurePriceSource().fetch(["eastus2"])
    assert not built.get("follow_redirects", False)


def test_a_page_larger_than_32_mb_once_unzipped_is_refused_and_nothing_saved(tmp_path):
    import gzip

    # 33 MiB of JSON whitespace before a valid empty page: 33 kB on the wire, 33 MiB once gzip is undone
    body = b" " * (33 * 2**20) + b'{"Items": [], "NextPageLink": null}'
    store = PriceStore(tmp_path / "prices.sqlite")
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(
            200, content=gzip.compress(body), headers={"content-type": "application/json", "content-encoding": "gzip"}))
        with pytest.raises(PriceSourceError, match=r"page .* is larger than 32 MB \(a real page is 1-3 MB\)"):
            refresh(AzurePriceSource(http=httpx.Client()), ["eastus2"], store)
    assert store.snapshots() == []


def test_a_page_of_31_mb_is_still_read():
    # the limit is on size, not on shape: the same page with 31 MiB of whitespace is a page like any other
    page = (FIXTURES / "retail_eastus2_page1.json").read_bytes()
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, content=b" " * (31 * 2**20) + page))
        df = AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
    assert _row(df, "eastus2", "Standard_ND96isr_MI300X_v5", "on_demand").hourly_price == 48.0


def _unknown_sizes(n: int) -> dict:
    """One Retail page of eastus2 quoting `n` distinct well-formed GPU sizes the size table does not know (each
    the fixture's Standard_NC8ads_X9_v9 renamed): each is kept as one on-demand offer of an unknown accelerator."""
    page = _json("retail_eastus2_page1.json")
    (template,) = [i for i in page["Items"] if i["armSkuName"] == "Standard_NC8ads_X9_v9"]
    page["Items"] = [{**template, "armSkuName": f"Standard_NC{i}ads_X9_v9", "meterId": f"m-{i}"} for i in range(n)]
    return page


def test_more_gpu_offers_than_any_region_has_fail_the_refresh_and_save_nothing(tmp_path):
    # a review's listing (2026-12-05): 300,000 invented GPU size names in one region were all kept, 22 s and
    # 620 MB before the refresh ended. 10,000 offers (MAX_OFFERS_PER_REGION) are kept; one more fails it.
    store = PriceStore(tmp_path / "prices.sqlite")
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        router.get("").mock(return_value=httpx.Response(200, json=_unknown_sizes(10_000)))
        # none of the 74 packaged offers of eastus2 among them: accepted
        good = refresh(AzurePriceSource(http=httpx.Client()), ["eastus2"], store, accept_missing_offers=True)
    assert good.row_count == 10_000
    before, offers_before = store.snapshots(), store.offers(good.id)
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        router.get("").mock(return_value=httpx.Response(200, json=_unknown_sizes(10_001)))
        with pytest.raises(PriceSourceError) as info:
            refresh(AzurePriceSource(http=httpx.Client()), ["eastus2"], store)
    assert str(info.value) == ("Azure Retail Prices for eastus2: the GPU offers went past 10,000 for one region "
                               "(several times any real region's); the listing cannot be trusted; nothing was saved")
    assert store.snapshots() == before
    pd.testing.assert_frame_equal(store.offers(good.id), offers_before)
