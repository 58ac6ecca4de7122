"""A scenario in EUR that allows no cloud provider and quotes its card in EUR (price and host share) uses
no USD amount: `validate` asked for a USD rate all the same ("cloud prices are in USD")."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app

SCENARIO = """\
name: on-prem only, in EUR
currency: EUR
horizon_months: 12
prices: {{providers: {providers}}}
onprem:
  cards: [a100-80gb-pcie]
  card_overrides:
    a100-80gb-pcie: {{price: 9000, currency: EUR, host_cost_per_card: 1000}}
workloads:
  - name: train
    gpu_hours_per_month: 500
    reference_gpu: A100-80GB-PCIE
"""


def test_no_cloud_provider_and_a_quote_in_eur_need_no_usd_rate(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(providers="[]"))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    p = plan(path, baselines=False)
    assert p.currency == "EUR" and set(p.fleet["sku"]) == {"a100-80gb-pcie"}
    # the quote in full: 9,000 + 1,000 EUR for the one card 500 GPU-hours a month need
    assert p.costs.set_index("category").loc["capex", "cost"] == pytest.approx(10_000)


def test_with_a_cloud_provider_the_usd_rate_is_still_asked_for(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(providers="[aws]"))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "fx: cloud offers are priced in USD; add its rate, e.g. fx: {USD: <EUR per 1 USD>}" in result.output


def test_an_offers_csv_in_the_scenario_currency_needs_no_usd_rate(tmp_path):
    # the worked example's one AWS offer (1.006 an hour) restated in EUR, in a scenario in EUR
    from pathlib import Path
    examples = Path(__file__).resolve().parents[2] / "examples"
    csv = (examples / "offers-g5-us-east-1.csv").read_text()
    assert csv.count(",USD,") == 1
    (tmp_path / "offers-eur.csv").write_text(csv.replace(",USD,", ",EUR,"))
    text = (examples / "worked-example.yaml").read_text()
    text = text.replace("currency: USD\nhorizon", "currency: EUR\nhorizon").replace(
        "source: offers-g5-us-east-1.csv", "source: offers-eur.csv").replace("currency: USD,", "currency: EUR,")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    p = plan(path, baselines=False)
    assert p.currency == "EUR"
    # README's worked example: 1 A5000 and the rest rented at 1.006 an hour; in EUR now, the same numbers
    cloud = p.fleet[p.fleet["provider"] == "aws"]
    assert cloud["cost"].sum() / cloud["instance_hours"].sum() == pytest.approx(1.006)

    # the same CSV in USD under an EUR scenario: validate cannot know (it does not read the file); plan says
    (tmp_path / "offers-eur.csv").write_text(csv)
    result = CliRunner().invoke(app, ["plan", str(path)])
    assert result.exit_code == 2 and "add fx: {USD: <EUR per 1 USD>}" in result.output, result.output
