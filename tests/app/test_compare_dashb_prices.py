"""The Compare page's "Prices that differ" says what each price is: the card or offer (instance, how it is bought,
provider and region), the amounts with their currency and unit, and each plan's source and date for it. An audit
(2026-12-07) read a raw field name, "capex_per_unit", and bare amounts, 16500 and 17500.

Oracle by hand: startup-hybrid.yaml quotes its A100 80GB PCIe at 14,000 USD with a 2,500 USD host share, no source
and no date, so a new card costs 16,500 USD; the upload quotes 15,000 USD from "Dell quote 4711" dated 2026-11-30, so
17,500. The units are docs/offers-contract.md's: hourly_price in currency per unit-hour, upfront_price per unit (a
cloud offer's unit is its instance); the HGX H100 board is sold as 8 GPUs and priced per GPU (onprem_cards.csv)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard.compare_tables import amount_text, offer_name, price_name, price_unit, source_text

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
QUOTE = "a100-80gb-pcie: {price: 14000, currency: USD, host_cost_per_card: 2500,"
QUOTED = ('a100-80gb-pcie: {price: 15000, currency: USD, host_cost_per_card: 2500, source: "Dell quote 4711", '
          "as_of: 2026-11-30,")


def test_a_quoted_card_reads_with_its_unit_currency_source_and_date():
    text = STARTUP.read_text(encoding="utf-8")
    assert QUOTE in text
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("quoted.yaml", text.replace(QUOTE, QUOTED).encode(),
                                                   "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:quoted.yaml:"), [e.value for e in at.error]
    at.switch_page(COMPARE_PAGE).run()
    at.selectbox(key="compare_a").set_value("file:startup-hybrid.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    (prices,) = [d.value for d in at.dataframe if "source" in d.value.columns]
    assert len(prices) == 1
    row = prices.iloc[0]
    a_col = next(c for c in prices.columns if c.startswith("A: "))
    b_col = next(c for c in prices.columns if c.startswith("B: "))
    assert row["offer"] == "a100-80gb-pcie, on-prem card"
    assert row["price"] == "new card with its host share"
    assert (row[a_col], row[b_col]) == ("16,500 USD per card", "17,500 USD per card")
    assert "no source given" in row["source"] and "Dell quote 4711, as of 2026-11-30" in row["source"]
    assert row["source"].startswith("A: ") and "; B: " in row["source"]
    assert "capex_per_unit" not in " ".join(map(str, row.tolist()))


def _row(**kw) -> dict:
    return {"provider": "aws", "region": "us-east-1", "sku": "p5.48xlarge", "gpu": "H100-SXM",
            "purchase_option": "on_demand", "price": "hourly_price", **kw}


def test_cloud_prices_say_their_offer_and_unit():
    on_demand = _row()
    assert offer_name(on_demand) == "p5.48xlarge on demand, aws us-east-1"
    assert price_name(on_demand) == "hourly rate" and price_unit(on_demand, "USD") == "USD per instance-hour"
    reserved = _row(purchase_option="reserved_1y")
    assert offer_name(reserved) == "p5.48xlarge reserved 1 year, aws us-east-1"
    assert price_name(reserved) == "hourly fee of the reservation"
    upfront = _row(purchase_option="reserved_3y", price="upfront_price")
    assert price_name(upfront) == "upfront fee, each term" and price_unit(upfront, "EUR") == "EUR per instance"
    assert price_unit(_row(purchase_option="reserved_3y", price="term_months"), "USD") == "months"


def test_a_board_card_is_priced_per_gpu_and_amounts_read_to_the_cent():
    board = {"provider": "onprem", "region": "onprem", "sku": "hgx-h100-8gpu", "gpu": "H100-SXM",
             "purchase_option": "purchase", "price": "capex_per_unit"}
    assert price_unit(board, "USD") == "USD per GPU (sold as 8-GPU boards)"
    assert amount_text(16500.0) == "16,500" and amount_text(55.04) == "55.04" and amount_text(1086.171) == "1,086.17"
    assert amount_text(0.0058) == "0.0058" and amount_text(float("nan")) == "no price"
    assert source_text("XDA Developers", "2023-11-23") == "XDA Developers, as of 2023-11-23"
    assert source_text("scenario card_overrides: no source given", "") == "scenario card_overrides: no source given"
