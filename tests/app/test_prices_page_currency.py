"""The Prices page shows a scenario's prices in its own currency, as the Plan, Compare and Export pages do: a browser
audit (2026-12-06) uploaded a EUR scenario (fx USD 0.92), set the electricity to 0.48 and saw the page say "in USD per
hour … electricity 0.52 USD/kWh" (0.48 / 0.92) while the sidebar said 0.48 EUR/kWh.

Facts by hand: the scenario's fx.USD is the units of its currency one USD is worth (1 USD = 0.92 EUR). The packaged
snapshot's row `aws:us-east-1:g4dn.xlarge:on_demand` (pricing_adapters/snapshots/aws.csv, karpenter's pricing of
2026-07-20) is 0.526 USD an hour for one T4: 0.526 × 0.92 = 0.48392 EUR. rtx-4060-ti-16gb at the catalog's figures
(499 USD card + 750 USD host share, 3 years, 3 %/year maintenance, 297 W busy; tests/app/test_prices_page_overrides.py),
owned and busy every hour at PUE 1.0 and 0.48 EUR/kWh: (1,249 × 0.92 = 1,149.08 EUR) / 26,280 h + 1,149.08 × 0.03 /
8,760 h + 0.297 kW × 0.48 = 0.0437245 + 0.0039352 + 0.14256 = 0.1902197 EUR an hour.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text()   # USD, PUE 1.0, electricity 0.15, fx {CNY: 0.13749}
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
G4DN = "aws:us-east-1:g4dn.xlarge:on_demand"


def _snapshot_usd(offer_id: str) -> float:
    """The hourly USD price of `offer_id` in the packaged AWS snapshot, read from the file."""
    with open(ROOT / "pricing_adapters" / "snapshots" / "aws.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["offer_id"] == offer_id)
    assert row["currency"] == "USD" and row["gpu_count"] == "1.0"
    return float(row["hourly_price"])


def _edited(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# CNY in EUR for the catalog's RTX 3060 price: 0.13749 USD per CNY (entry.yaml's) × 0.92 = 0.12649
EUR = _edited(_edited(ENTRY, "currency: USD\n", "currency: EUR\n"), "fx: {CNY: 0.13749}", "fx: {CNY: 0.1265, USD: 0.92}")


def _prices_page(text: str, electricity: float | None = None) -> tuple[AppTest, str]:
    """The Prices page of the uploaded `text`, with the Plan page's sidebar electricity set to `electricity` first
    (as the audit did); and the sidebar slider's label and value as the Plan page showed them."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=240).run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", text.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:"), [e.value for e in at.error]
    slider = at.slider(key="edit:electricity_per_kwh")
    if electricity is not None:
        slider.set_value(electricity).run()
        slider = at.slider(key="edit:electricity_per_kwh")
    sidebar = f"{slider.label}: {slider.value:g}"
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at, sidebar


def _labels(at: AppTest) -> dict[str, str]:
    return {k: v.get("label") for k, v in json.loads(at.dataframe[0].proto.columns).items()}


@pytest.fixture(scope="module")
def eur_page():
    return _prices_page(EUR, electricity=0.48)


def test_a_eur_scenarios_prices_are_in_eur_at_its_fx_usd_and_say_so(eur_page):
    at, _ = eur_page
    table = at.dataframe[0].value
    g4dn = table[(table["provider"] == "aws") & (table["region"] == "us-east-1") & (table["sku"] == "g4dn.xlarge")
                 & (table["purchase_option"] == "on_demand")]
    assert len(g4dn) == 1
    # 0.526 USD (the snapshot's row) × 0.92 EUR per USD = 0.48392 EUR
    assert _snapshot_usd(G4DN) == 0.526
    assert g4dn["usd_per_gpu_hour"].iloc[0] == pytest.approx(0.48392, abs=1e-9)
    assert g4dn["usd_per_hour"].iloc[0] == pytest.approx(0.526 * 0.92, abs=1e-9)
    labels = _labels(at)
    assert labels["usd_per_gpu_hour"] == "EUR per GPU-hour" and labels["usd_per_hour"] == "EUR per hour"
    assert labels["usd_per_reference_gpu_hour"] == "EUR per hour of work"
    captions = [c.value for c in at.caption]
    assert any("in EUR per hour (the offers' USD prices × 0.92 EUR per USD, the scenario's fx.USD), undiscounted" in c
               for c in captions), captions
    assert not [c for c in captions if "USD per hour" in c or "USD/kWh" in c]
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["yaxis"]["title"]["text"] == "EUR per hour of work"
    assert all("USD" not in t["hovertemplate"] for t in chart["data"])


def test_the_electricity_and_an_owned_card_are_in_eur_as_the_sidebar_gives_them(eur_page):
    at, sidebar = eur_page
    assert sidebar == "Electricity, EUR per kWh: 0.48"
    captions = [c.value for c in at.caption]
    assert any("busy watts × PUE 1 × electricity 0.48 EUR/kWh)" in c for c in captions), captions
    table = at.dataframe[0].value
    card = table[(table["provider"] == "onprem") & (table["sku"] == "rtx-4060-ti-16gb")]
    assert card["usd_per_gpu_hour"].iloc[0] == pytest.approx(0.1902197, abs=1e-6)


def test_the_per_hour_of_work_figure_says_what_it_is_beside_the_plans_break_even(eur_page):
    at, _ = eur_page
    captions = [c.value for c in at.caption]
    assert any("for an on-prem card, owning it and keeping it busy every hour" in c
               and "The Plan page's break-even table gives, on a card's row, the cheapest compatible on-demand or spot "
                   "cloud offer's EUR per reference-GPU hour" in c for c in captions), captions


def test_a_usd_scenario_keeps_usd():
    at, sidebar = _prices_page(ENTRY)
    assert sidebar == "Electricity, USD per kWh: 0.15"
    table = at.dataframe[0].value
    g4dn = table[(table["provider"] == "aws") & (table["region"] == "us-east-1") & (table["sku"] == "g4dn.xlarge")
                 & (table["purchase_option"] == "on_demand")]
    assert g4dn["usd_per_gpu_hour"].iloc[0] == pytest.approx(0.526, abs=1e-12)
    labels = _labels(at)
    assert labels["usd_per_gpu_hour"] == "USD per GPU-hour" and labels["usd_per_reference_gpu_hour"] == "USD per hour of work"
    captions = [c.value for c in at.caption]
    assert any(", in USD per hour, undiscounted" in c and "electricity 0.15 USD/kWh)" in c for c in captions), captions
    assert not [c for c in captions if "fx.USD" in c]
