"""The Prices page refuses an offers CSV with on-prem rows, as `fleetplan plan` and `validate` do
(planner.catalog.offers.check_no_card_rows): it read the CSV without the planner's check and listed the CSV's quote,
an RTX A5000 for 100 USD, beside the scenario's own RTX A5000 at its card_overrides' 2,000 + 500 USD — a price the
plan never uses, since the planner prices cards from the card catalog and the scenario only.

The scenario is examples/worked-example.yaml, its CSV the example's one g5.xlarge row (line 2, under the header) and an
auditor's quote row (line 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_CSV = ROOT / "examples" / "offers-g5-us-east-1.csv"
WORKED = ROOT / "examples" / "worked-example.yaml"
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
# in the header's column order: offer_id, provider, region, sku, purchase_option, gpu, gpu_known, accelerator_name,
# gpu_count, gpu_memory_gb, vcpus, memory_gb, hourly_price, upfront_price, currency, term_months, zone, as_of, source,
# note — an RTX A5000 bought for 100 USD
QUOTE_ROW = ("onprem:onprem:rtx-a5000:purchase,onprem,onprem,rtx-a5000,purchase,RTX-A5000,True,RTX-A5000,1,24.0,,,0,"
             "100,USD,0,,2026-11-01,my quote,")


def _folder(tmp_path: Path, monkeypatch, rows: list[str]) -> None:
    """The dashboard's scenario folder: the worked example beside its CSV with `rows` added."""
    (tmp_path / "offers-g5-us-east-1.csv").write_text(
        EXAMPLE_CSV.read_text(encoding="utf-8").rstrip("\n") + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    (tmp_path / "worked.yaml").write_text(WORKED.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(state, "SCENARIO_DIR", tmp_path)


def _prices_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert at.selectbox(key="base").value == "file:worked.yaml"
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_offers_csv_with_an_onprem_row_is_refused_naming_the_row_and_the_override_to_write(tmp_path, monkeypatch,
                                                                                               fresh_cache):
    _folder(tmp_path, monkeypatch, [QUOTE_ROW])
    at = _prices_page()
    errors = [e.value.replace("\\", "") for e in at.error]   # as a reader sees them (tables.message_block escapes)
    assert len(errors) == 1, errors
    error = " ".join(errors[0].split())
    assert error.startswith("The prices cannot be read: prices.source: ")
    assert "line 3 (offer onprem:onprem:rtx-a5000:purchase): an on-prem card (provider onprem)" in error
    assert "so this row would be ignored" in error
    assert ('onprem.card_overrides: {rtx-a5000: {price: 100, currency: USD, host_cost_per_card: 0, as_of: 2026-11-01, '
            'source: "my quote"}}') in error
    assert not at.dataframe                     # no table of prices the plan would not use


def test_the_same_csv_without_the_row_shows_its_offer_and_the_scenarios_card(tmp_path, monkeypatch, fresh_cache):
    _folder(tmp_path, monkeypatch, [])
    at = _prices_page()
    assert not at.error, [e.value for e in at.error]
    table = at.dataframe[0].value
    assert sorted(zip(table["provider"], table["sku"])) == [("aws", "g5.xlarge"), ("onprem", "rtx-a5000")]
    # the card at the scenario's figures, one row: 2,000 + 500 USD over 4 years, 5 %/year, 400 W × PUE 1.5 × 0.20
    card = table[table["provider"] == "onprem"]
    hours_per_year = 12 * 730
    expected = 2500 / (4 * hours_per_year) + 2500 * 0.05 / hours_per_year + 0.4 * 1.5 * 0.20
    assert card["usd_per_gpu_hour"].tolist() == pytest.approx([expected])
