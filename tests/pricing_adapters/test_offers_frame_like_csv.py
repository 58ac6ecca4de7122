"""validate_offers reads a DataFrame's gpu_known and term_months as read_offers_csv reads them from an offers CSV,
with the CSV's words for a bad cell (bool("False") was True, 12.7 months were 12), and an offers CSV written by
pandas from a float term column (0.0, 12.0) reads back; a file's missing columns are said with its other problems.

The offer is examples/offers-g5-us-east-1.csv's one row: aws:us-east-1:g5.xlarge:on_demand at 1.006 USD an hour."""

import io
import re
from pathlib import Path

import pandas as pd
import pytest

from pricing_adapters.schema import OffersSchemaError, validate_offers
from pricing_adapters.snapshot import read_offers_csv

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "offers-g5-us-east-1.csv"
G5 = "aws:us-east-1:g5.xlarge:on_demand"
MONTHS = "expected a whole number of months from 0 to 1200 (0, 12 or 36)"


@pytest.fixture
def offers() -> pd.DataFrame:
    return pd.read_csv(EXAMPLE)


def _reserved(offers: pd.DataFrame, term) -> pd.DataFrame:
    return offers.assign(purchase_option="reserved_1y", term_months=term, offer_id="aws:us-east-1:g5.xlarge:reserved_1y")


@pytest.mark.parametrize(("text", "known"), [("False", False), ("false", False), (" TRUE ", True), ("True", True)])
def test_gpu_known_as_text_reads_as_the_csv_reads_it(offers, text, known):
    # bool("False") is True: an accelerator flagged unknown was planned on as known
    assert validate_offers(offers.assign(gpu_known=text))["gpu_known"].tolist() == [known]


@pytest.mark.parametrize(("value", "shown"), [("yes", "'yes'"), ("", "''"), (None, "''"), (1, "1"), (2.0, "2.0")])
def test_a_gpu_known_that_is_no_true_or_false_is_refused_in_the_csvs_words(offers, value, shown):
    with pytest.raises(OffersSchemaError) as caught:
        validate_offers(offers.assign(gpu_known=value), origin="notebook")
    assert str(caught.value) == f"notebook: row 1 (offer {G5}): gpu_known {shown}: expected True or False"


def test_a_reserved_1y_term_of_12_7_months_is_refused_not_cut_to_12(offers):
    with pytest.raises(OffersSchemaError) as caught:
        validate_offers(_reserved(offers, 12.7), origin="notebook")
    assert str(caught.value) == f"notebook: row 1 (offer aws:us-east-1:g5.xlarge:reserved_1y): term_months 12.7: {MONTHS}"


@pytest.mark.parametrize("term", [12.0, "12", "12.0", 12])
def test_a_whole_term_of_12_as_float_or_text_is_12_months(offers, term):
    typed = validate_offers(_reserved(offers, term))
    assert typed["term_months"].tolist() == [12] and str(typed["term_months"].dtype) == "int64"


@pytest.mark.parametrize(("term", "said"), [(-1.0, "term_months -1.0"), (float("nan"), "term_months ''"),
                                            ("12.5", "term_months '12.5'"), (1201.0, "term_months 1201.0")])
def test_a_float_or_text_term_that_is_no_whole_number_of_months_from_0_to_1200_is_refused(offers, term, said):
    with pytest.raises(OffersSchemaError, match=re.escape(f"offers: row 1 (offer {G5}): {said}: {MONTHS}")):
        validate_offers(offers.assign(term_months=term))


@pytest.mark.parametrize("term", [-1, 1201])
def test_an_integer_term_outside_0_to_1200_is_refused(offers, term):
    # a typed int64 column skips the reading of cells: its range is checked with the row's numbers
    with pytest.raises(OffersSchemaError, match=re.escape(f"offers: row 1 (offer {G5}): term_months out of range: {MONTHS}")):
        validate_offers(offers.assign(term_months=term))


@pytest.mark.parametrize("term", [0, 12])
def test_an_offers_csv_pandas_wrote_from_a_float_term_column_reads_back(offers, term):
    # a plan's offers hold term_months as float64 (its cards have none): to_csv writes 0.0 and 12.0
    table = (offers if term == 0 else _reserved(offers, term)).astype({"term_months": "float64"})
    text = table.to_csv(index=False)
    assert f",{term}.0," in text
    read = read_offers_csv(io.StringIO(text), origin="written.csv")
    assert read["term_months"].tolist() == [term] and read["hourly_price"].tolist() == [1.006]


def test_an_offers_csv_of_12_7_months_is_still_refused(offers):
    text = _reserved(offers, 12.7).to_csv(index=False)
    with pytest.raises(OffersSchemaError) as caught:
        read_offers_csv(io.StringIO(text), origin="written.csv")
    assert str(caught.value) == (f"written.csv: line 2 (offer aws:us-east-1:g5.xlarge:reserved_1y): term_months '12.7': "
                                 f"{MONTHS}")


def test_an_offers_csv_missing_columns_is_told_them_with_its_bad_cells_in_one_message(offers):
    # a plan's offers written out lack offer_id and the instance facts; a bad cell was said first, alone
    text = offers.drop(columns=["gpu_count", "vcpus"]).assign(term_months="12.7").to_csv(index=False)
    with pytest.raises(OffersSchemaError) as caught:
        read_offers_csv(io.StringIO(text), origin="written.csv")
    assert str(caught.value) == (f"written.csv: missing columns ['gpu_count', 'vcpus']; line 2 (offer {G5}): "
                                 f"term_months '12.7': {MONTHS}")


def test_missing_columns_are_told_with_the_problems_of_the_rows(offers):
    # the checks that need no missing column still run: a negative price is said with the missing offer_id
    table = offers.drop(columns=["offer_id", "memory_gb"]).assign(hourly_price=-1.006)
    with pytest.raises(OffersSchemaError) as caught:
        validate_offers(table, origin="notebook")
    assert str(caught.value) == "notebook: missing columns ['offer_id', 'memory_gb']; row 1: negative hourly_price -1.006"
    with pytest.raises(OffersSchemaError) as caught:   # and without a check of the rows: the columns alone
        validate_offers(table, origin="notebook", check=False)
    assert str(caught.value) == "notebook: missing columns ['offer_id', 'memory_gb']"
