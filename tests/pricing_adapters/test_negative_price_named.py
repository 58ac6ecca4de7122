"""An offers CSV with a negative price names the column and the value of each bad cell; it said only "negative
prices", leaving the reader to find which of hourly_price and upfront_price on the line was wrong. Many such rows
still make a short message: ROWS_NAMED rows, then a count. The offer is examples/offers-g5-us-east-1.csv's one row
(aws:us-east-1:g5.xlarge:on_demand, 1.006 USD an hour), as test_offers_frame_like_csv takes it."""

import io
from pathlib import Path

import pandas as pd
import pytest

from pricing_adapters.schema import ROWS_NAMED, OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "offers-g5-us-east-1.csv"
G5 = "aws:us-east-1:g5.xlarge"


def refused(rows: pd.DataFrame) -> str:
    with pytest.raises(OffersSchemaError) as caught:
        read_offers_csv(io.StringIO(rows.to_csv(index=False)), origin="offers.csv")
    return str(caught.value)


def test_a_negative_price_names_its_column_and_value():
    g5 = pd.read_csv(EXAMPLE)
    reserved = g5.assign(offer_id=f"{G5}:reserved_1y", purchase_option="reserved_1y", term_months=12,
                         hourly_price=0.5, upfront_price=-1.5)
    both = g5.assign(offer_id=f"{G5}:reserved_3y", purchase_option="reserved_3y", term_months=36,
                     hourly_price=-0.25, upfront_price=-100)
    # the header is line 1: the good row line 2, then one bad price, then two
    message = refused(pd.concat([g5, reserved, both]))
    assert message == (f"offers.csv: line 3 (offer {G5}:reserved_1y): negative upfront_price -1.5; "
                       f"line 4 (offer {G5}:reserved_3y): negative hourly_price -0.25, negative upfront_price -100.0")


def test_many_negative_prices_name_the_first_rows_and_count_the_rest():
    g5 = pd.read_csv(EXAMPLE)
    rows = pd.concat([g5.assign(offer_id=f"{G5}:spot:z{i}", purchase_option="spot", hourly_price=-(i + 1))
                      for i in range(ROWS_NAMED + 3)])
    message = refused(rows)
    named = [f"line {i + 2} (offer {G5}:spot:z{i}): negative hourly_price {-(i + 1.0)}" for i in range(ROWS_NAMED)]
    assert message == "offers.csv: " + "; ".join(named) + "; and 3 more rows"
