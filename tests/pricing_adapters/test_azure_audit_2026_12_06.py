"""The Azure adapter audit of 2026-12-06, replayed offline (respx; no credentials, no ARM): two quotes of one
offer at one rank and different prices (the first on the page won), a spot or low-priority rate named so by its
meterName alone (taken as on-demand), an item without a region (stored under the region asked for), the currency
sent unquoted, and a region named twice by a library caller (a duplicate offer_id error).

Items have the fields, in the order, of the verbatim Consumption item of
`../shared/reference/api-samples/azure_retail_items_examples.json` (B16als v2, australiacentral), with region,
size, names, ids and prices replaced as in tests/fixtures/azure/ (README there): NC24ads A100 v4 at 3.673 USD/h and
ND96asr v4 at 27.197 in eastus (reference on-demand file, 2026-06-18); Low Priority 0.7346 and the other prices
are made up.
"""

from __future__ import annotations

import itertools

import httpx
import pytest
import respx

from pricing_adapters import azure
from pricing_adapters.azure import AzurePriceSource

RETAIL = "https://prices.azure.com/api/retail/prices"   # answered by respx: no request leaves the process
NC = "Standard_NC24ads_A100_v4"
NC_ON_DEMAND = f"azure:eastus:{NC}:on_demand"
ND_ON_DEMAND = "azure:eastus:Standard_ND96asr_v4:on_demand"
ids = itertools.count(1)


@pytest.fixture(autouse=True)
def _azure_defaults(monkeypatch):
    """The Azure adapter on its default URL (mocked) and the packaged size table: no ARM, no credential."""
    monkeypatch.delenv(azure.PRICES_URL_ENV, raising=False)
    monkeypatch.delenv(azure.SUBSCRIPTION_ENV, raising=False)


def _nc(price: float, **changes) -> dict:
    """An eastus Linux pay-as-you-go Retail Prices item of the NC24ads A100 v4 at `price` USD/h."""
    n = next(ids)
    item = {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": price, "unitPrice": price,
            "armRegionName": "eastus", "location": "US East", "effectiveStartDate": "2026-06-01T00:00:00Z",
            "meterId": f"11111111-0000-0000-0000-{n:012d}", "meterName": "NC24ads A100 v4",
            "productId": "DZH318Z0AAAA", "skuId": f"DZH318Z0AAAA/{n:04d}",
            "productName": "Virtual Machines NCads A100 v4 Series", "skuName": "NC24ads A100 v4",
            "serviceName": "Virtual Machines", "serviceId": "DZH313Z7MMC8", "serviceFamily": "Compute",
            "unitOfMeasure": "1 Hour", "type": "Consumption", "isPrimaryMeterRegion": True, "armSkuName": NC}
    return {**item, **changes}


def _nd() -> dict:
    """ND96asr v4 on demand in eastus, 27.197 USD/h: the region keeps an on-demand price whatever NC's fate."""
    return _nc(27.197, meterName="ND96asr v4", productName="Virtual Machines NDasv4 Series", skuName="ND96asr v4",
               productId="DZH318Z0BBBB", armSkuName="Standard_ND96asr_v4")


def _page(items: list[dict], next_link: str | None = None) -> dict:
    return {"BillingCurrency": "USD", "CustomerEntityId": "Default", "CustomerEntityType": "Retail",
            "Items": items, "NextPageLink": next_link, "Count": len(items)}


def _fetch(*pages: list[dict], regions: tuple[str, ...] = ("eastus",)) -> tuple[dict[str, float], AzurePriceSource]:
    """({offer_id: hourly price}, source) of a listing of `pages` (each a list of items) joined by NextPageLink,
    every region answered with the same listing."""
    def answer(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("$skip", "0"))
        link = f"{RETAIL}?$skip={number + 1}" if number + 1 < len(pages) else None
        return httpx.Response(200, json=_page(pages[number], link))

    src = AzurePriceSource(http=httpx.Client())
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(side_effect=answer)
        df = src.fetch(list(regions))
    return dict(zip(df.offer_id, df.hourly_price)), src


# ------------------------------------------------------------------ 3. an item without a region

@pytest.mark.parametrize("changes", [{"armRegionName": ""}, {"armRegionName": None}, {"armRegionName": "  "}, {}],
                         ids=["empty", "null", "blank", "missing"])
def test_an_item_without_a_region_is_skipped_and_counted_not_stored_under_the_region_asked(changes):
    # centralus's 4.15 USD/h (reference on-demand file) without its armRegionName became eastus's price
    item = _nc(4.15, effectiveStartDate="2026-07-01T00:00:00Z", **changes)
    if not changes:
        del item["armRegionName"]
    prices, src = _fetch([_nc(3.673), item, _nd()])
    assert prices == {NC_ON_DEMAND: 3.673, ND_ON_DEMAND: 27.197}
    assert src.skipped == {"no_region": 1}


# ------------------------------------------------------------------ 4. the currency between quotes

def test_the_currency_is_sent_between_single_quotes_as_microsofts_examples_write_it():
    # learn.microsoft.com, "Azure Retail Prices overview": ...?currencyCode='EUR'&$filter=serviceFamily eq 'Compute'
    src = AzurePriceSource(http=httpx.Client())
    with respx.mock(base_url=RETAIL) as router:
        route = router.get("").mock(return_value=httpx.Response(200, json=_page([_nc(3.673)])))
        src.fetch(["eastus"])
    (call,) = route.calls
    assert call.request.url.params["currencyCode"] == "'USD'"
    assert "currencyCode=%27USD%27" in str(call.request.url)


# ------------------------------------------------------------------ 5. a region named twice

def test_a_region_named_twice_by_a_library_caller_is_read_once_in_order():
    prices, _ = _fetch([_nc(3.673), _nd()], regions=("eastus", "eastus"))
    assert prices == {NC_ON_DEMAND: 3.673, ND_ON_DEMAND: 27.197}
    src = AzurePriceSource(http=httpx.Client())
    with respx.mock(base_url=RETAIL) as router:
        route = router.get("").mock(return_value=httpx.Response(200, json=_page([_nc(3.673)])))
        src.fetch(["eastus2", "eastus", " eastus2", "eastus"])
    asked = [call.request.url.params["$filter"].split("'")[-2] for call in route.calls]
    assert asked == ["eastus2", "eastus"]
