"""The Streamlit offers page runs on the packaged snapshot and lists its offers."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def test_offers_page_lists_the_snapshot_and_the_cards():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert not at.exception
    table = at.dataframe[0].value
    assert {"aws", "azure", "onprem"} <= set(table["provider"])
    row = table[(table["sku"] == "p4d.24xlarge") & (table["region"] == "us-east-1")
                & (table["purchase_option"] == "on_demand")].iloc[0]
    assert abs(row["usd_per_hour"] - 21.957642) < 1e-9
