"""Prices too small to be real are refused, as prices too large are: 1e-300 USD an hour in an offers CSV, or
an Azure price per "100000000 Hours", planned a fleet at a cost of 0 (a known problem carried since
2026-12-03). The floor is 1e-4 per unit-hour in any currency; the cheapest GPU instance-hour in the packaged
snapshot is 0.05786 USD (Azure NC4as_T4_v3 spot), about 0.018 KWD, the dearest currency unit."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pytest
import respx
import test_aws
from test_aws import ACCELERATOR_TYPES, REGION, Stubs, _items, _p4d_item, _spot_params

from planner.catalog.prices import price_table
from planner.errors import PriceSourceError as PlanPriceSourceError
from pricing_adapters.azure import AzurePriceSource, classify_item
from pricing_adapters.schema import MIN_HOURLY_PRICE, number_problems, validate_offers
from pricing_adapters.snapshot import load_snapshot

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
BASE = "https://prices.azure.com/api/retail/prices"
session = test_aws.session            # fixtures: a boto3 session with fake keys (AWS_EC2_METADATA_DISABLED),
_no_backoff_sleep = test_aws._no_backoff_sleep


def test_the_floor_lies_far_below_every_packaged_price():
    offers = load_snapshot()
    cheapest = offers["hourly_price"][offers["hourly_price"] > 0].min()
    assert cheapest == pytest.approx(0.05786)
    assert MIN_HOURLY_PRICE * 100 < cheapest / 3.3   # even in KWD (about 3.3 USD), 100 times above the floor


@pytest.mark.parametrize("value", ["1e-300", "0.00009", "5e-5"])
def test_an_offers_csv_priced_below_the_floor_is_refused_naming_the_row(tmp_path, value):
    offers = load_snapshot(["aws"]).head(5).astype({"hourly_price": object})
    offers.loc[3, "hourly_price"] = value
    csv = tmp_path / "offers.csv"
    offers.to_csv(csv, index=False)
    with pytest.raises(PlanPriceSourceError) as info:
        price_table(str(csv))
    # the fourth row, on line 5 under the header
    assert f"line 5 (offer {offers.loc[3, 'offer_id']}): a price below 0.0001 per unit-hour" in str(info.value)


def test_a_price_at_the_floor_and_a_reservation_priced_by_its_upfront_pass():
    offers = load_snapshot(["aws"]).head(3).copy()
    offers.loc[0, "hourly_price"] = 1e-4   # at the floor: allowed
    # an All Upfront reservation: no hourly fee, 100 USD for a year = 100 / 8,760 = 0.0114 an hour
    offers.loc[1, ["purchase_option", "hourly_price", "upfront_price", "term_months"]] = ["reserved_1y", 0.0, 100.0, 12]
    offers.loc[1, "offer_id"] = offers.loc[1, "offer_id"].replace(":on_demand", ":reserved_1y")
    assert number_problems(validate_offers(offers)).tolist() == ["", "", ""]


def test_a_reservation_whose_fee_and_upfront_come_to_less_than_the_floor_is_refused():
    offers = load_snapshot(["aws"]).head(1).copy()
    # 0.5 upfront for 3 years: 0.5 / (36 × 730) = 1.9e-5 an hour
    offers.loc[0, ["purchase_option", "hourly_price", "upfront_price", "term_months"]] = ["reserved_3y", 0.0, 0.5, 36]
    assert number_problems(offers).tolist() == ["a price below 0.0001 per unit-hour (a unit error?)"]


def _eastus_item() -> dict:
    page = json.loads((FIXTURES / "retail_eastus_with_centralus_items.json").read_text())
    (item,) = [i for i in page["Items"] if i["armRegionName"] == "eastus"]
    return item   # Standard_ND96asr_v4, 27.197 USD per "1 Hour"


def test_an_azure_price_per_a_hundred_million_hours_is_skipped_and_counted():
    item = _eastus_item() | {"unitOfMeasure": "100000000 Hours"}   # 27.197 / 1e8 = 2.7e-7 an hour
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, json={"Items": [item], "NextPageLink": None}))
        src = AzurePriceSource(http=httpx.Client())
        df = src.fetch(["eastus"])
    assert len(df) == 0 and src.skipped == {"implausible_price": 1}
    # "100 Hours" is a real unit: 27.197 / 100 = 0.27197 an hour stays
    offers, _ = classify_item(_eastus_item() | {"unitOfMeasure": "100 Hours"})
    assert offers == [("on_demand", pytest.approx(0.27197), "retailPrice per 100 Hours")]


def test_an_azure_savings_plan_rate_and_a_reservation_below_the_floor_are_skipped():
    item = _eastus_item()
    plan = item | {"savingsPlan": [{"term": "1 Year", "retailPrice": 1e-9}]}
    assert classify_item(plan) == ([("on_demand", 27.197, "")], ["implausible_price"])
    # a year's reservation for 0.5 USD: 0.5 / 8,760 h = 5.7e-5 an hour
    reservation = item | {"type": "Reservation", "reservationTerm": "1 Year", "retailPrice": 0.5}
    assert classify_item(reservation) == ([], ["implausible_price"])


def test_the_azure_offers_skipped_for_their_prices_as_items_are_read_are_named_for_refresh():
    # the review of 2026-12-07: only the offers table's USD bound kept the ids of the offers it skipped; those
    # skipped as the items were read were counted, unnamed, so refresh took them for a partial answer
    nd96 = _eastus_item()
    items = [
        # per "100000000 Hours": 27.197 / 1e8 an hour, the item dropped whole with its two savings-plan rates (their
        # own, 20 and 12 per 1e8 hours, are no matter: they go with the item, not for their prices)
        nd96 | {"unitOfMeasure": "100000000 Hours", "savingsPlan": [{"term": "1 Year", "retailPrice": 20.0},
                                                                    {"term": "3 Years", "retailPrice": 12.0}]},
        # 3 years' reservation for 1e13 USD, above the 1e12 any term's total may be
        nd96 | {"type": "Reservation", "reservationTerm": "3 Years", "retailPrice": 1e13},
        # the NC24ads A100 v4 at 3.673 kept, its 1-year savings plan at 1e-9 an hour skipped
        nd96 | {"armSkuName": "Standard_NC24ads_A100_v4", "skuName": "NC24ads A100 v4", "meterName": "NC24ads A100 v4",
                "retailPrice": 3.673, "savingsPlan": [{"term": "1 Year", "retailPrice": 1e-9}]},
        # no GPU size: skipped for its price all the same, but no offer of it would have been kept
        nd96 | {"armSkuName": "Standard_D14", "skuName": "D14", "meterName": "D14", "retailPrice": 1e-9},
    ]
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, json={"Items": items, "NextPageLink": None}))
        src = AzurePriceSource(http=httpx.Client())
        df = src.fetch(["eastus"])
    assert df["offer_id"].tolist() == ["azure:eastus:Standard_NC24ads_A100_v4:on_demand"]
    assert src.skipped == {"implausible_price": 4}
    assert sorted(src.implausible_offers) == [
        "azure:eastus:Standard_NC24ads_A100_v4:savings_plan_1y",
        "azure:eastus:Standard_ND96asr_v4:on_demand",
        "azure:eastus:Standard_ND96asr_v4:reserved_3y",
    ]
    # each dropped with the item whose own offer is the ND96asr's on demand, named for refresh to say
    assert src.dropped_with_item_offers == {"azure:eastus:Standard_ND96asr_v4:savings_plan_1y":
                                            "azure:eastus:Standard_ND96asr_v4:on_demand",
                                            "azure:eastus:Standard_ND96asr_v4:savings_plan_3y":
                                            "azure:eastus:Standard_ND96asr_v4:on_demand"}


@pytest.mark.parametrize("usd", [
    "0.00005",   # below the floor
    "1e300",     # above the ceiling of any currency, finite so no longer malformed
    "150000",    # above 100,000 USD an hour: was kept, and the store refused the whole refresh
])
def test_an_aws_on_demand_price_no_offer_can_have_is_skipped_and_counted_not_the_whole_refresh(session, usd):
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    odd = copy.deepcopy(_items()["g5.12xlarge"])
    (term,) = odd["terms"]["OnDemand"].values()
    (dim,) = term["priceDimensions"].values()
    dim["pricePerUnit"] = {"USD": usd}
    stubs.products([odd, _p4d_item()])
    df = stubs.source.fetch([REGION])
    assert list(df["sku"]) == ["p4d.24xlarge"] and stubs.source.skipped == {"implausible_price": 1}


def test_an_aws_spot_quote_below_the_floor_is_skipped_and_counted(session):
    stubs = Stubs(session, reserved=False)
    stubs.describe()
    stubs.products([_items()["g5.12xlarge"]])
    quote = {"InstanceType": "g5.12xlarge", "ProductDescription": "Linux/UNIX", "AvailabilityZone": "us-east-1a",
             "AvailabilityZoneId": "use1-az1", "SpotPrice": "0.00005", "Timestamp": datetime(2026, 7, 20, tzinfo=timezone.utc)}
    stubs.ec2.add_response("describe_spot_price_history", {"SpotPriceHistory": [quote]}, _spot_params(ACCELERATOR_TYPES))
    df = stubs.source.fetch([REGION])
    assert df["purchase_option"].tolist() == ["on_demand"] and stubs.source.skipped == {"implausible_price": 1}

