"""The header of an offers CSV: a contract column given twice, or misspelt, is refused by name. Before, pandas
read a second `hourly_price` as `hourly_price.1`, which was ignored: the first copy priced the plan without a
word (42,679.72 USD instead of 8,385.46 for the worked example, a hostile-input probe of 2026-12-05); a column
`asof` left every date missing. The example file's own row is the data: g5.xlarge, 1.006 USD/h."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "offers-g5-us-east-1.csv"


def example() -> tuple[list[str], list[str]]:
    header, row = list(csv.reader(io.StringIO(EXAMPLE.read_text(encoding="utf-8"))))
    return header, row


def written(header: list[str], row: list[str]) -> io.StringIO:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([header, row])
    text.seek(0)
    return text


def test_a_column_given_twice_is_refused_whichever_copy_holds_what():
    header, row = example()
    i = header.index("hourly_price")
    twice = written([*header[:i], "hourly_price", *header[i:]], [*row[:i], "9.0", *row[i:]])
    with pytest.raises(OffersSchemaError) as caught:
        read_offers_csv(twice, origin="offers-dup.csv")
    assert str(caught.value) == "offers-dup.csv: columns given twice ['hourly_price']; expected each once"


@pytest.mark.parametrize(("written_as", "meant"), [("asof", "as_of"), ("Hourly_Price", "hourly_price"),
                                                   ("purchase-option", "purchase_option")])
def test_a_misspelt_column_is_refused_with_the_one_meant(written_as, meant):
    header, row = example()
    renamed = [written_as if name == meant else name for name in header]
    with pytest.raises(OffersSchemaError) as caught:
        read_offers_csv(written(renamed, row), origin="offers.csv")
    message = str(caught.value)
    assert message.startswith(f"offers.csv: unknown column {written_as!r} (did you mean {meant!r}?)"), message


@pytest.mark.parametrize("own", ["comment", "notes", "Region", "vcpu", "source "])
def test_a_column_of_the_users_own_is_still_ignored(own):
    # beside the contract column it is close to (`notes` beside `note`), a column is the user's own
    header, row = example()
    offers = read_offers_csv(written([*header, own], [*row, "quote from our reseller"]), origin="offers.csv")
    assert list(offers["hourly_price"]) == [1.006] and own not in offers.columns
