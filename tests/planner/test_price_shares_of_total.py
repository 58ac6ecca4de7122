"""How much of a plan's total rests on undated and on stale prices (engine.readback.prices_used, the plan's first
line): an audit's plan rested 23 % of its total on one undated spot price, and "1 undated" did not say so."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.reports.tables import price_dates

# g5.xlarge dated 2020-01-01 (stale on any day after mid-2020), g6.xlarge undated
OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,"
          "1.5,0.0,USD,0,,2020-01-01,test,\n"
          "aws:us-east-1:g6.xlarge:on_demand,aws,us-east-1,g6.xlarge,on_demand,L4,True,L4,1.0,24.0,4.0,16.0,"
          "0.8,0.0,USD,0,,,test,\n")

# each workload runs where it is ten times faster: a on the A10G (1,000 h × 1.5 USD × 12 = 18,000 USD), b on the L4
# (500 h × 0.8 USD × 12 = 4,800 USD); 22,800 USD in all, undiscounted
SCENARIO = """\
name: shares
currency: USD
horizon_months: 12
discount_rate: 0
prices: {source: offers.csv, providers: [aws], purchase_options: [on_demand]}
onprem: {cards: []}
workloads:
  - {name: a, gpu_hours_per_month: 1000, reference_gpu: A10G, throughput: {A10G: 1.0, L4: 0.1}}
  - {name: b, gpu_hours_per_month: 500, reference_gpu: L4, throughput: {L4: 1.0, A10G: 0.1}}
"""


@pytest.fixture()
def scenario_file(tmp_path):
    (tmp_path / "offers.csv").write_text(OFFERS)
    path = tmp_path / "shares.yaml"
    path.write_text(SCENARIO)
    return path


def test_the_plan_says_the_share_of_its_total_on_undated_and_on_stale_prices(scenario_file):
    p = plan(scenario_file, baselines=False)
    assert p.total == pytest.approx(22_800)
    assert p.prices["undated_share_of_total"] == pytest.approx(4_800 / 22_800)
    assert p.prices["stale_share_of_total"] == pytest.approx(18_000 / 22_800)
    assert price_dates(p.prices) == ("dated 2020-01-01, 1 undated (21.1 % of the total); "
                                     "1 older than 180 days (78.9 % of the total)")


def test_the_terminal_and_the_json_say_them(scenario_file):
    runner = CliRunner()
    shown = runner.invoke(app, ["plan", str(scenario_file), "--no-decisions", "--no-baselines"])
    assert shown.exit_code == 0, shown.output
    assert "1 undated (21.1 % of the total); 1 older than 180 days (78.9 % of the total)" in shown.output
    out = runner.invoke(app, ["plan", str(scenario_file), "--no-decisions", "--no-baselines", "--format", "json"])
    prices = json.loads(out.stdout)["prices"]
    assert prices["undated_share_of_total"] == pytest.approx(0.2105263)
    assert prices["stale_share_of_total"] == pytest.approx(0.7894737)


def test_a_sale_priced_at_an_undated_price_is_a_credit():
    # a sale's credit is a negative cost: said as a credit, not as "-3 %"
    prices = {"as_of_text": "2023-11-23 to 2026-07-20, 1 undated, 1 quoted in the scenario", "undated_prices": 1,
              "stale_prices": 0, "undated_share_of_total": -0.0298, "stale_share_of_total": 0.0}
    assert price_dates(prices) == ("dated 2023-11-23 to 2026-07-20, 1 undated (a credit of 3 % of the total), "
                                   "1 quoted in the scenario")


def test_a_plan_saved_before_the_shares_reads_as_before():
    prices = {"as_of_text": "2026-03-20 to 2026-06-18, 1 undated", "undated_prices": 1, "stale_prices": 1}
    assert price_dates(prices) == "dated 2026-03-20 to 2026-06-18, 1 undated"


def test_a_share_that_rounds_to_nothing_is_not_called_0():
    prices = {"as_of_text": "2026-03-20, 1 undated", "undated_prices": 1, "stale_prices": 0,
              "undated_share_of_total": 0.0002}
    assert price_dates(prices) == "dated 2026-03-20, 1 undated (under 0.1 % of the total)"
