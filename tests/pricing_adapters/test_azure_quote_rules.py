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
from typer.testing import CliRunner

from pricing_adapters import azure
from pricing_adapters.azure import AzurePriceSource, classify_item

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


# ------------------------------------------------------------------ 1. quotes of one rank that disagree

@pytest.mark.parametrize("first, second", [(3.673, 4.5), (4.5, 3.673)])
def test_two_primary_quotes_of_one_date_at_3_673_and_4_5_drop_the_offer_each_counted_conflicting(first, second):
    # the first on the page won, the other counted "duplicate": 4.5 could stand for the real 3.673
    prices, src = _fetch([_nc(first), _nd(), _nc(second)])
    assert prices == {ND_ON_DEMAND: 27.197}
    assert src.skipped == {"conflicting_prices": 2}


def test_quotes_that_disagree_on_different_pages_drop_the_offer_and_a_third_is_counted_too():
    prices, src = _fetch([_nc(3.673), _nd()], [_nc(4.5)], [_nc(3.673)])
    assert prices == {ND_ON_DEMAND: 27.197}
    assert src.skipped == {"conflicting_prices": 3}   # each quote of it, as the AWS adapter counts


def test_an_identical_repeat_is_kept_once_as_a_duplicate():
    prices, src = _fetch([_nc(3.673), _nd()], [_nc(3.673)])
    assert prices == {NC_ON_DEMAND: 3.673, ND_ON_DEMAND: 27.197}
    assert src.skipped == {"duplicate": 1}


def test_a_primary_meter_or_a_newer_date_still_wins_over_quotes_that_disagree_below_it():
    # non-primary at 4.5 beside the primary 3.673: the primary meter's price
    prices, src = _fetch([_nc(4.5, isPrimaryMeterRegion=False), _nc(3.673), _nd()])
    assert prices[NC_ON_DEMAND] == 3.673 and src.skipped == {"duplicate": 1}
    # a repricing dated 2026-07-01 at 3.9 over two 2026-06-01 quotes that disagree, in every order
    quotes = [_nc(3.673), _nc(4.5), _nc(3.9, effectiveStartDate="2026-07-01T00:00:00Z")]
    for order in itertools.permutations(quotes):
        prices, src = _fetch([*order, _nd()])
        assert prices[NC_ON_DEMAND] == 3.9 and src.skipped == {"duplicate": 2}, order


def test_two_newer_quotes_that_disagree_drop_the_offer_whatever_the_older_one_says():
    # the first of the newest pair won before: 4.5 or 3.9, over an older 3.673
    quotes = [_nc(3.673), _nc(4.5, effectiveStartDate="2026-07-01T00:00:00Z"),
              _nc(3.9, effectiveStartDate="2026-07-01T00:00:00Z")]
    for order in itertools.permutations(quotes):
        prices, src = _fetch([*order, _nd()])
        assert NC_ON_DEMAND not in prices and src.skipped == {"conflicting_prices": 2, "duplicate": 1}, order


def test_the_refresh_command_prints_the_conflicting_quotes_with_the_other_skipped_items(tmp_path):
    from planner.cli import app

    listing = _page([_nc(3.673), _nc(4.5), _nd()])
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, json=listing))
        result = CliRunner().invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus", "--store",
                                          str(tmp_path / "s.sqlite"), "--accept-missing-offers"])
    assert result.exit_code == 0, result.output
    assert "skipped: 2 conflicting_prices" in result.stderr


# ------------------------------------------------------------------ 2. spot and low priority by meterName too

def test_a_low_priority_meter_under_an_on_demand_sku_name_is_low_priority_not_the_on_demand_price():
    # its 0.7346 replaced 3.673 as the NC24ads A100 v4's on-demand price (newer: it ranked first)
    low = _nc(0.7346, meterName="NC24ads A100 v4 Low Priority", effectiveStartDate="2026-07-01T00:00:00Z")
    for items in ([_nc(3.673), low, _nd()], [low, _nc(3.673), _nd()]):
        prices, src = _fetch(items)
        assert prices[NC_ON_DEMAND] == 3.673 and prices[f"azure:eastus:{NC}:low_priority"] == 0.7346
        assert src.skipped == {}


def test_a_spot_meter_under_an_on_demand_sku_name_is_spot_and_has_no_savings_plan():
    spot = _nc(0.444433, meterName="NC24ads A100 v4 Spot",
               savingsPlan=[{"unitPrice": 0.3, "retailPrice": 0.3, "term": "1 Year"}])
    assert classify_item(spot) == ([("spot", 0.444433, "")], [])
    prices, _ = _fetch([_nc(3.673), spot, _nd()])
    assert prices[NC_ON_DEMAND] == 3.673 and prices[f"azure:eastus:{NC}:spot"] == 0.444433
    assert f"azure:eastus:{NC}:savings_plan_1y" not in prices


def test_a_sku_name_alone_still_names_spot_and_low_priority():
    assert classify_item(_nc(0.444433, skuName="NC24ads A100 v4 Spot"))[0] == [("spot", 0.444433, "")]
    assert classify_item(_nc(0.7346, skuName="NC24ads A100 v4 Low Priority"))[0] == [("low_priority", 0.7346, "")]


def test_an_item_whose_sku_name_says_spot_and_meter_name_low_priority_is_skipped_and_counted():
    for sku, meter in [("NC24ads A100 v4 Spot", "NC24ads A100 v4 Low Priority"),
                       ("NC24ads A100 v4 Low Priority", "NC24ads A100 v4 Spot")]:
        item = _nc(0.5, skuName=sku, meterName=meter)
        assert classify_item(item) == ([], ["spot_and_low_priority"])
        prices, src = _fetch([_nc(3.673), item, _nd()])
        assert prices == {NC_ON_DEMAND: 3.673, ND_ON_DEMAND: 27.197}
        assert src.skipped == {"spot_and_low_priority": 1}


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
