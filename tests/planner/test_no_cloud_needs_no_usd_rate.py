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
    assert "fx: cloud prices are in USD; add fx: {USD: <EUR per 1 USD>}" in result.output
