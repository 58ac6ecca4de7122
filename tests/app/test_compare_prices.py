"""The Compare page's "Prices that differ": the unit prices of an offer both plans use, A against B (a
review, 2026-12-04: the section had no dashboard test; the comparison behind it has library and CLI tests).

Oracle by hand: startup-hybrid.yaml quotes its A100 80GB PCIe at 14,000 USD with a 2,500 USD host share, so
a new card costs 16,500 USD; the upload quotes 15,000, so 17,500. Nothing else about the offers differs."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"


def _subheaders(at: AppTest) -> list[str]:
    return [h.value for h in at.subheader]


def test_a_card_quoted_higher_in_one_scenario_is_listed_with_both_unit_prices():
    text = STARTUP.read_text(encoding="utf-8")
    assert "price: 14000" in text and "host_cost_per_card: 2500" in text
    quoted = text.replace("price: 14000", "price: 15000", 1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("quoted.yaml", quoted.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:quoted.yaml:"), [e.value for e in at.error]
    at.switch_page(COMPARE_PAGE).run()
    at.selectbox(key="compare_a").set_value("file:startup-hybrid.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Prices that differ" in _subheaders(at)
    prices = next(d.value for d in at.dataframe if "price" in d.value.columns)
    assert len(prices) == 1
    row = prices.iloc[0]
    # in words, the amounts with their currency and unit (test_compare_dashb_prices.py: the source and date too)
    assert (row["offer"], row["price"]) == ("a100-80gb-pcie, on-prem card", "new card with its host share")
    a_col = next(c for c in prices.columns if c.startswith("A: "))
    b_col = next(c for c in prices.columns if c.startswith("B: "))
    assert (row[a_col], row[b_col]) == ("16,500 USD per card", "17,500 USD per card")


def test_the_section_is_left_out_when_every_price_is_the_same():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.slider(key="edit:demand:prototyping").set_value(3000.0).run()   # more work, the same prices
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Inputs that differ" in _subheaders(at) and "Prices that differ" not in _subheaders(at)
