"""validate_offers types and orders an offers table as the contract says (docs/offers-contract.md): columns
an older CSV or store lacks get their defaults, empty optional text reads "", a cell of the wrong type is
refused naming its column, and the caller's frame is left as it was."""

import math

import numpy as np
import pandas as pd
import pytest

from pricing_adapters.schema import OFFER_COLUMNS, OffersSchemaError, validate_offers


def _older_table() -> pd.DataFrame:
    """Two offers as an older offers CSV held them: no zone, note, accelerator_name, as_of, gpu_known or
    gpu_memory_mib column, numbers read as text, rows in another order with a non-default index."""
    return pd.DataFrame({
        "source": ["test", "test"], "term_months": ["0", "12"], "currency": ["USD", "USD"],
        "upfront_price": ["0", "1000"], "hourly_price": ["3.5", "1.25"], "memory_gb": ["128", "256"],
        "vcpus": ["16", "32"], "gpu_memory_gb": ["24", "80"], "gpu_count": ["1", "8"], "gpu": ["L4", "A100-80GB"],
        "purchase_option": ["on_demand", "reserved_1y"], "sku": ["g6.4xlarge", "p4de.24xlarge"],
        "region": ["us-east-1", "us-east-1"], "provider": ["aws", "aws"],
        "offer_id": ["aws:us-east-1:g6.4xlarge:on_demand", "aws:us-east-1:p4de.24xlarge:reserved_1y"],
    }, index=[7, 3])


def test_an_older_table_gets_the_contract_columns_in_order_typed_with_their_defaults():
    older = _older_table()
    before = older.copy()
    typed = validate_offers(older, origin="old.csv")
    assert list(typed.columns) == list(OFFER_COLUMNS)
    assert {c: str(typed[c].dtype) for c in ("gpu_known", "gpu_count", "term_months", "hourly_price")} == {
        "gpu_known": "bool", "gpu_count": "float64", "term_months": "int64", "hourly_price": "float64"}
    assert all(isinstance(typed[c].dtype, pd.StringDtype) for c, t in OFFER_COLUMNS.items() if t == "string")
    assert list(typed.index) == [0, 1]                                    # a fresh index, rows in their order
    assert typed["sku"].tolist() == ["g6.4xlarge", "p4de.24xlarge"]
    assert typed["hourly_price"].tolist() == [3.5, 1.25] and typed["term_months"].tolist() == [0, 12]
    assert typed["gpu_known"].tolist() == [True, True]                    # taken as mapped
    assert all(math.isnan(x) for x in typed["gpu_memory_mib"])           # usable memory unknown
    assert typed[["zone", "note", "accelerator_name", "as_of"]].to_numpy().tolist() == [[""] * 4] * 2
    pd.testing.assert_frame_equal(older, before)                          # the caller's frame unchanged


def test_missing_optional_text_reads_as_empty_and_a_typed_column_is_kept_as_it_is():
    table = validate_offers(_older_table())
    table.loc[0, "note"] = None
    table["zone"] = table["zone"].astype(object)
    table.loc[1, "zone"] = np.nan
    again = validate_offers(table)
    assert again["note"].tolist() == ["", ""] and again["zone"].tolist() == ["", ""]
    assert isinstance(again["zone"].dtype, pd.StringDtype)
    pd.testing.assert_series_equal(again["hourly_price"], table["hourly_price"])
    # the typed table's columns are reused, yet an edit of the result never reaches the caller's table
    again.loc[0, "hourly_price"] = 99.0
    again.loc[1, "sku"] = "changed"
    assert table["hourly_price"].tolist() == [3.5, 1.25] and table["sku"].tolist() == ["g6.4xlarge", "p4de.24xlarge"]


def test_a_missing_required_column_or_a_cell_of_the_wrong_type_is_refused_naming_it():
    with pytest.raises(OffersSchemaError, match=r"old\.csv: missing columns \['hourly_price'\]"):
        validate_offers(_older_table().drop(columns="hourly_price"), origin="old.csv")
    twice = pd.concat([_older_table(), _older_table()[["sku"]]], axis=1)
    with pytest.raises(OffersSchemaError, match=r"old\.csv: columns given twice \['sku'\]"):
        validate_offers(twice, origin="old.csv")
    bad = _older_table()
    bad.loc[3, "gpu_count"] = "eight"
    with pytest.raises(OffersSchemaError, match="old.csv: column 'gpu_count' is not float64"):
        validate_offers(bad, origin="old.csv")
