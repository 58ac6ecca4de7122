"""How much of a plan's total rests on undated and on stale prices, where the total is below 0 (owned cards sold for
more than the plan costs): "a credit" was decided by the sign of part ÷ total, so an audit's undated cloud price, a
cost of 876 USD, read "(a credit of 70.3 % of the total)" and a sale's credit of 1,732 USD "(202.3 % of the total)".
Now the part's own sign says a credit, and of a total at or below 0 the amount is said in money (a share of it reads
as nothing a user can act on): in the command line's first line, summary.md and the dashboard's price banner.

Worked by hand (the audit's scenario, undiscounted): the undated cloud price serves 730 reference GPU-hours a month
at half the speed of the reference, so 730 × 12 × 0.05 / 0.5 = 876 USD. The two owned RTX 3090s are sold in month 1
at declining-balance book value, rate 2 / life per year, after 6 months of age: 2 × (750 card + 750 host share, the
catalog's) × (1 − 2 / life) ^ 0.5 = 2 × 1,500 × √0.5 = 2,121.32 USD with the quote's life of 4 years, and
2 × 1,500 × √(1/3) = 1,732.05 USD with the catalog's 3 (its price dated 2026-05-16, stale on the tests' clock,
December 2026 or later). Totals: 876 − 2,121.32 = −1,245.32 and 876 − 1,732.05 = −856.05 USD."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import price_dates

OFFERS = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
          "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
          "aws:us-east-1:g6.xlarge:on_demand,aws,us-east-1,g6.xlarge,on_demand,L4,True,L4,1.0,24.0,4.0,16.0,0.05,0.0,"
          "USD,0,,,hand,\n")

SCENARIO = """\
name: T5
currency: USD
horizon_months: 12
prices: {source: u.csv, providers: [aws], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.25
  pue: 1.2
  availability: 1.0
  resale: {method: declining_balance, share_of_book: 1.0}
  existing: {rtx-3090: {count: 2, age_months: 6}}
  card_overrides: {rtx-3090: {life_years: 4, price: 750, currency: USD, as_of: 2026-11-20, source: q}}
workloads:
  - {name: train, gpu_hours_per_month: 730, reference_gpu: RTX-4090, throughput: {RTX-4090: 1.0, L4: 0.5, RTX-3090: 0.6}}
"""

CLOUD = 730 * 12 * 0.05 / 0.5                                  # 876 USD
SALE_QUOTED, SALE_CATALOG = 2 * 1500 * math.sqrt(0.5), 2 * 1500 * math.sqrt(1 / 3)


def _scenario(tmp_path, quoted: bool):
    (tmp_path / "u.csv").write_text(OFFERS)
    text = SCENARIO if quoted else "".join(line for line in SCENARIO.splitlines(True) if "card_overrides" not in line)
    path = tmp_path / "t5.yaml"
    path.write_text(text)
    return path


def test_an_undated_cost_under_a_negative_total_is_said_in_money_not_as_a_credit(tmp_path):
    p = plan(_scenario(tmp_path, quoted=True), baselines=False)
    assert p.total == pytest.approx(CLOUD - SALE_QUOTED, abs=0.01)           # −1,245.32 USD
    assert p.prices["undated_cost"] == pytest.approx(CLOUD)
    assert p.prices["undated_share_of_total"] is None                        # no share of a total below 0
    said = price_dates(p.prices, "USD")
    assert "1 undated (876 USD of the total)" in said, said
    assert "credit" not in said.split(";")[0], said


def test_a_stale_credit_under_a_negative_total_is_a_credit(tmp_path):
    scenario = _scenario(tmp_path, quoted=False)
    p = plan(scenario, baselines=False)
    assert p.total == pytest.approx(CLOUD - SALE_CATALOG, abs=0.01)          # −856.05 USD
    assert p.prices["stale_cost"] == pytest.approx(-SALE_CATALOG, abs=0.01)
    assert p.prices["stale_share_of_total"] is None
    words = "1 undated (876 USD of the total); 1 older than 180 days (a credit of 1,732 USD of the total)"
    assert price_dates(p.prices, "USD").endswith(words), price_dates(p.prices, "USD")
    # the command line's first line and summary.md say the same
    shown = CliRunner().invoke(app, ["plan", str(scenario), "--no-decisions", "--no-baselines"])
    assert shown.exit_code == 0, shown.output
    assert words in shown.output.splitlines()[[i for i, line in enumerate(shown.output.splitlines())
                                                if line.startswith("T5 —")][0]], shown.output
    assert words in plan_to_markdown(p)


def test_the_dashboard_banner_says_the_amounts_too(tmp_path):
    from fleetplan_dashboard.tables import price_banner

    p = plan(_scenario(tmp_path, quoted=False), baselines=False)
    _, text = price_banner(p.prices, scenario=p.scenario)
    assert "1 undated (876 USD of the total); 1 older than 180 days (a credit of 1,732 USD of the total)" in text, text


def test_a_credit_follows_the_parts_sign_above_a_positive_total():
    # a sale's credit of 30 USD in a total of 1,000 USD: −3 %, said as a credit; a cost of 20 USD: 2 %
    prices = {"as_of_text": "2026-03-20, 1 undated", "undated_prices": 1, "stale_prices": 1,
              "undated_cost": -30.0, "undated_share_of_total": -0.03, "stale_cost": 20.0, "stale_share_of_total": 0.02}
    assert price_dates(prices, "EUR") == ("dated 2026-03-20, 1 undated (a credit of 3 % of the total); "
                                          "1 older than 180 days (2 % of the total)")


def test_a_total_of_zero_says_the_amount():
    prices = {"as_of_text": "2026-03-20, 1 undated", "undated_prices": 1, "stale_prices": 0,
              "undated_cost": 1234.4, "undated_share_of_total": None}
    assert price_dates(prices, "EUR") == "dated 2026-03-20, 1 undated (1,234 EUR of the total)"


def test_the_undated_share_is_said_where_every_other_price_is_the_scenarios_own_quote():
    # "undated, 1 quoted in the scenario": the share of a credit of 10.8 % of the total was dropped (audit 2026-12-07)
    prices = {"as_of_text": "undated, 1 quoted in the scenario", "undated_prices": 1, "stale_prices": 0,
              "undated_cost": -365.19, "undated_share_of_total": -0.108}
    assert price_dates(prices, "EUR") == "1 undated (a credit of 10.8 % of the total), 1 quoted in the scenario"
