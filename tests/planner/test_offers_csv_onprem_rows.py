"""An on-prem row in an offers CSV is refused, by row, in `validate` and `plan` alike. The planner prices cards from
the card catalog and the scenario only (docs/offers-contract.md, "How prices are stated"), and before, such a row
passed validation and was ignored without a word: a quote of 100 USD for an RTX 3090 in the CSV, and the plan costed
the card at the catalog's 1,500 USD (750 card + 750 host share, planner/data/onprem_cards.csv). The message gives
the onprem.card_overrides entry that prices the card at the quote instead."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "offers-g5-us-east-1.csv"
# an auditor's row, in the header's column order: an RTX 3090 bought (upfront_price) for 100 USD
QUOTE_ROW = ("onprem:onprem:rtx-3090:purchase,onprem,onprem,rtx-3090,purchase,RTX-3090,True,RTX-3090,1,24.0,,,0,100,"
             "USD,0,,2026-11-01,my quote,")
SCENARIO = """name: quoted card
currency: USD
horizon_months: 12
prices:
  source: {csv}
  providers: [aws]
  purchase_options: [on_demand]
onprem:
  cards: [{card}]
{extra}workloads:
  - name: w
    gpu_hours_per_month: 100
    reference_gpu: A10G
    min_gpu_memory_gb: 16
"""


def scenario(tmp_path: Path, rows: list[str], card: str = "rtx-3090", extra: str = "") -> Path:
    (tmp_path / "offers.csv").write_text(EXAMPLE.read_text().rstrip("\n") + "\n" + "".join(r + "\n" for r in rows))
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(csv="offers.csv", card=card, extra=extra))
    return path


def said(result) -> str:
    return " ".join(result.stderr.split())


@pytest.mark.parametrize("command", [["validate"], ["plan", "--format", "json", "--no-decisions"]])
def test_an_onprem_row_of_an_offers_csv_is_refused_naming_its_row_and_the_override_to_write(tmp_path, command):
    path = scenario(tmp_path, [QUOTE_ROW])
    result = CliRunner().invoke(app, [*command, str(path)])
    text = said(result)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    # line 5 of the scenario names the CSV; the example's g5 row is on line 2 (under the header), the quote row on line 3
    assert f"{path}:5:" in text
    assert "line 3 (offer onprem:onprem:rtx-3090:purchase): an on-prem card (provider onprem)" in text
    assert "so this row would be ignored" in text
    assert ('onprem.card_overrides: {rtx-3090: {price: 100, currency: USD, host_cost_per_card: 0, as_of: 2026-11-01, '
            'source: "my quote"}}') in text


def test_every_onprem_row_is_named_and_the_first_one_priced(tmp_path):
    second = QUOTE_ROW.replace("rtx-3090", "rtx-4090").replace("RTX-3090", "RTX-4090").replace(",100,", ",1800.5,")
    result = CliRunner().invoke(app, ["validate", str(scenario(tmp_path, [QUOTE_ROW, second]))])
    text = said(result)
    assert result.exit_code == 2
    assert ("line 3 (offer onprem:onprem:rtx-3090:purchase): an on-prem card (provider onprem); "
            "line 4 (offer onprem:onprem:rtx-4090:purchase): an on-prem card (provider onprem)") in text
    assert "so these rows would be ignored" in text and "{rtx-3090: {price: 100," in text


def test_a_card_the_catalog_lacks_is_sent_to_custom_cards(tmp_path):
    mine = QUOTE_ROW.replace("onprem:rtx-3090:", "onprem:my-card:").replace(",rtx-3090,", ",my-card,")
    result = CliRunner().invoke(app, ["validate", str(scenario(tmp_path, [mine]))])
    text = said(result)
    assert result.exit_code == 2
    assert "line 3 (offer onprem:onprem:my-card:purchase)" in text
    assert "as onprem.custom_cards.my-card (gpu, price, currency, host_cost_per_card …): 'my-card' is not a card of" in text


def test_the_override_the_message_gives_prices_the_card_at_the_quote(tmp_path):
    refused = CliRunner().invoke(app, ["validate", str(scenario(tmp_path, [QUOTE_ROW]))])
    override = re.search(r"onprem\.card_overrides: (\{rtx-3090: \{.*?\}\})", said(refused))[1]
    # the CSV without the row, the quote as the message wrote it
    path = scenario(tmp_path, [], extra=f"  card_overrides: {override}\n")
    result = CliRunner().invoke(app, ["plan", str(path), "--format", "json", "--no-decisions", "--no-baselines"])
    assert result.exit_code == 0, result.output
    card = [row for row in json.loads(result.stdout)["prices_used"] if row["sku"] == "rtx-3090"]
    # 100 USD a card and no host share: the row's upfront_price, the whole capex of one unit; bought, as it is far
    # cheaper than 100 g5.xlarge hours a month at 1.006 USD
    assert [(c["capex_per_unit"], c["as_of"], c["source"]) for c in card] == [(100.0, "2026-11-01", "my quote")]
