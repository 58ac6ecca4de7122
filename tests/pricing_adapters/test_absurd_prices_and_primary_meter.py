"""A Retail Prices page that is well-formed JSON but nonsense: a price of 1e300 (finite, so it passed as
a price and became an LP cost that swamped every other), and `isPrimaryMeterRegion` given as the text
"false" (which bool() reads as true, so a secondary meter's quote could replace the primary one)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import httpx
import pandas as pd
import pytest
import respx

from pricing_adapters.azure import AzurePriceSource, classify_item
from pricing_adapters.schema import MAX_HOURLY_PRICE, OffersSchemaError, validate_offers
from pricing_adapters.snapshot import load_snapshot

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
BASE = "https://prices.azure.com/api/retail/prices"


def _page() -> dict:
    """The reference-shaped eastus page of another test, its ND96asr_v4 item (27.197 USD/h) kept."""
    page = json.loads((FIXTURES / "retail_eastus_with_centralus_items.json").read_text())
    page["Items"] = [item for item in page["Items"] if item["armRegionName"] == "eastus"]
    return page


def _fetch(page: dict) -> tuple[pd.DataFrame, AzurePriceSource]:
    with respx.mock(base_url=BASE) as router:
        router.get("").mock(return_value=httpx.Response(200, json=page))
        src = AzurePriceSource(http=httpx.Client())
        return src.fetch(["eastus"]), src


def test_a_secondary_meter_marked_false_as_text_does_not_replace_the_primary_quote():
    page = _page()
    (primary,) = page["Items"]
    secondary = copy.deepcopy(primary) | {"retailPrice": 99.0, "unitPrice": 99.0, "isPrimaryMeterRegion": "false",
                                         "effectiveStartDate": "2026-07-01T00:00:00Z",
                                         "meterId": "22222222-0000-0000-0000-000000000002"}
    page["Items"] = [primary, secondary]   # newer, so only its meter flag can rank it below the primary
    df, _ = _fetch(page)
    assert df.set_index("offer_id").loc["azure:eastus:Standard_ND96asr_v4:on_demand", "hourly_price"] == 27.197


def test_a_price_of_1e300_is_skipped_and_counted_not_stored():
    page = _page()
    (item,) = page["Items"]
    page["Items"] = [item | {"retailPrice": 1e300, "unitPrice": 1e300}]
    df, src = _fetch(page)
    assert len(df) == 0 and src.skipped == {"implausible_price": 1}
    # the same for a savings plan's rate and a reservation's term total
    plan = item | {"savingsPlan": [{"term": "1 Year", "retailPrice": 1e300}]}
    assert classify_item(plan) == ([("on_demand", 27.197, "")], ["implausible_price"])
    reservation = item | {"type": "Reservation", "reservationTerm": "1 Year", "retailPrice": 1e300}
    assert classify_item(reservation) == ([], ["implausible_price"])


def test_an_offers_table_with_a_price_above_the_bound_is_refused_naming_the_row():
    good = load_snapshot().head(2).copy()
    assert validate_offers(good) is not None   # a real table passes
    bad = good.copy()
    bad.loc[bad.index[1], "hourly_price"] = 1e300
    with pytest.raises(OffersSchemaError, match=f"hourly_price above {MAX_HOURLY_PRICE:,.0f}") as refused:
        validate_offers(bad, origin="x.csv")
    assert bad.loc[bad.index[1], "offer_id"] in str(refused.value)
    assert bad.loc[bad.index[0], "offer_id"] not in str(refused.value)
