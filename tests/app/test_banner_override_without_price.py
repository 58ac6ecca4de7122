"""The Plan page's price banner says a card whose `onprem.card_overrides` entry gives a date and source but no
price is at the catalog's price (onprem_cards.csv), which the plan uses, not "your quote" (the page passes the
plan's scenario to tables.price_banner). Oracle: the override written in the upload, and the date given there."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 180
A100_OVERRIDE = """    a100-80gb-pcie: {price: 14000, currency: USD, host_cost_per_card: 2500, busy_watts: 300,
                     idle_watts: 50, life_years: 5, maintenance_rate_per_year: 0.05}"""


def test_an_uploaded_override_without_a_price_is_shown_as_the_catalog_price():
    text = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")
    assert A100_OVERRIDE in text
    text = text.replace(A100_OVERRIDE, "    a100-80gb-pcie: {as_of: 2026-11-20, source: Dell by mail}")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="upload_file").set_value(("dated.yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value.startswith("upload:dated.yaml:")
    banner = [t for t in [w.value for w in at.warning] + [i.value for i in at.info] if "\n\nPrices: " in t]
    assert len(banner) == 1, banner
    assert (r"catalog price for a100\-80gb\-pcie with the date and source you gave (the scenario gives no price for it) "
            r"is dated 2026-11-20 (") in banner[0]
    assert "your quote" not in banner[0]
