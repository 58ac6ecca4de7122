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
from pricing_adapters.base import offers_table
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


def _nc24(option: str = "on_demand") -> pd.DataFrame:
    """The packaged NC24ads A100 v4 eastus on-demand row (3.673 USD/h), as `option`."""
    offers = load_snapshot(["azure"])
    row = offers[offers["offer_id"] == "azure:eastus:Standard_NC24ads_A100_v4:on_demand"].reset_index(drop=True)
    return row.assign(purchase_option=option, offer_id=f"azure:eastus:Standard_NC24ads_A100_v4:{option}")


def test_a_usd_price_above_100000_an_hour_is_refused_where_another_currency_may_hold_it():
    # the audit's feed: 3.673 USD/h read as 3,673,000. The dearest packaged unit-hour is 216.32 USD (azure.csv).
    assert load_snapshot()["hourly_price"].max() == 216.32
    assert len(validate_offers(_nc24().assign(hourly_price=100_000.0))) == 1   # the bound itself is allowed
    with pytest.raises(OffersSchemaError, match=r"Standard_NC24ads_A100_v4:on_demand\): hourly_price above 100,000 USD"):
        validate_offers(_nc24().assign(hourly_price=3_673_000.0))
    # 3,673,000 yen (about 25,000 USD) or won is a price another currency's scale may hold: only USD is bounded so
    assert len(validate_offers(_nc24().assign(hourly_price=3_673_000.0, currency="JPY"))) == 1


def test_a_usd_reservation_upfront_above_a_3_year_term_at_100000_an_hour_is_refused():
    # 100,000 USD/h × 36 months × 730 h = 2,628,000,000 USD
    reserved = _nc24("reserved_3y").assign(hourly_price=0.0, term_months=36)
    assert len(validate_offers(reserved.assign(upfront_price=2_628_000_000.0))) == 1
    with pytest.raises(OffersSchemaError, match="upfront_price above 2,628,000,000 USD"):
        validate_offers(reserved.assign(upfront_price=2_628_000_001.0))
    # a card bought outright keeps the bound of any currency: a scenario may price one up to its MAX_MONEY
    card = reserved.assign(offer_id="onprem:onprem:a100:purchase", provider="onprem", region="onprem",
                           purchase_option="purchase", term_months=0, upfront_price=3e9)
    assert len(validate_offers(card)) == 1


# -- an adapter's table: a price above USD's bound skips its row, as the store would refuse it (audit a4) ------------

def _adapter_table(*rows: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """offers_table of `rows` (offers tables of one row each, ids made distinct) and what it counted as skipped."""
    skipped: dict[str, int] = {}

    def skip(reason: str, n: int) -> None:
        skipped[reason] = skipped.get(reason, 0) + n

    records = [{**r.iloc[0].to_dict(), "offer_id": f"{r.iloc[0]['offer_id']}:{i}"} for i, r in enumerate(rows)]
    return offers_table(records, "test fetch", skip), skipped


def test_an_adapter_skips_a_usd_hourly_price_above_100000_and_keeps_the_rest():
    # was: kept, then refused by the store's validation with the whole region's refresh, whatever the flags
    table, skipped = _adapter_table(_nc24(), _nc24().assign(hourly_price=150_000.0), _nc24().assign(hourly_price=100_000.0))
    assert table["hourly_price"].tolist() == [3.673, 100_000.0]   # the bound itself is a price
    assert skipped == {"implausible_price": 1}
    assert len(validate_offers(table)) == 2   # what the store's validation then holds them to


def test_an_adapter_skips_a_usd_reservation_upfront_above_2628000000():
    reserved = _nc24("reserved_3y").assign(hourly_price=0.0, term_months=36)
    table, skipped = _adapter_table(reserved.assign(upfront_price=2_628_000_000.0),
                                    reserved.assign(upfront_price=2_628_000_001.0))
    assert table["upfront_price"].tolist() == [2_628_000_000.0] and skipped == {"implausible_price": 1}


def test_an_adapter_holds_another_currency_to_the_bound_the_store_holds_it_to():
    # the store bounds USD only (150,000 yen is about 1,000 USD); in any currency, above 1e9 an hour is refused
    table, skipped = _adapter_table(_nc24().assign(currency="JPY", hourly_price=150_000.0),
                                    _nc24().assign(currency="JPY", hourly_price=2e9))
    assert table["hourly_price"].tolist() == [150_000.0] and skipped == {"malformed_row": 1}
    assert len(validate_offers(table)) == 1


def test_a_row_above_the_usd_bound_with_another_fault_is_counted_once_as_malformed():
    table, skipped = _adapter_table(_nc24(), _nc24().assign(hourly_price=150_000.0, vcpus=-24.0))
    assert len(table) == 1 and skipped == {"malformed_row": 1}
