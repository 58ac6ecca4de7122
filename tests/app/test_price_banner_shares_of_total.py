"""The Plan page's price banner says how much of the plan's total rests on undated and on stale prices, as the command
line's first line and summary.md say it (reports.tables.price_dates: "1 undated (1.3 % of the total); 1 older than
180 days (66.4 % of the total)"): it counted them only, and an audit's plan rested 23 % of its total on one undated
price.

Oracle: industrial.yaml's plan rents aws p4d.24xlarge spot, whose packaged snapshot row has no date, and buys
a100-80gb-pcie cards, whose catalog price is dated 2026-03-20 (more than 180 days before the clock of these tests,
frozen on 2026-12-07); each share is that row's fleet cost over the plan's total, worked out here from the plan's fleet
table."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner import load_scenario, plan
from tests.planner.test_cli_prices_sides_and_ages import freeze_today

ROOT = Path(__file__).resolve().parents[2]
INDUSTRIAL = ROOT / "scenarios" / "industrial.yaml"


def _pct(share: float) -> str:
    return f"{share * 100:.1f} %"


def test_the_banner_says_the_shares_of_the_total_on_undated_and_stale_prices(fresh_cache, monkeypatch):
    # the clock frozen on 2026-12-07: the azure prices of 2026-06-18 in industrial.yaml's offers are 172 days old, not
    # stale; on the real clock they are from 2026-12-16 on, and the banner then counts 2 stale prices
    freeze_today(monkeypatch)
    p = plan(load_scenario(INDUSTRIAL), baselines=False)
    fleet = p.fleet.set_index("unit_id")["cost"]
    undated = fleet["aws:us-east-1:p4d.24xlarge:spot"] / p.total
    stale = fleet["onprem:onprem:a100-80gb-pcie:purchase"] / p.total
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.selectbox(key="base").set_value("file:industrial.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    (banner,) = [w.value for w in at.warning if "\n\nPrices: " in w.value]
    assert (f"All prices used: dated 2026-03-20 to 2026-06-18, 1 undated ({_pct(undated)} of the total); "
            f"1 older than 180 days ({_pct(stale)} of the total).") in banner, banner


def test_a_plan_without_shares_gets_no_sentence_of_them():
    # a plan's prices without the shares (a plan saved by an earlier version, or no undated or stale price)
    prices = {"source": "snapshot", "as_of": "2026-07-20", "as_of_oldest": "2026-07-20", "as_of_text": "2026-07-20",
              "undated_prices": 0, "stale_prices": 0,
              "cloud_dates": {"as_of": "2026-07-20", "as_of_oldest": "2026-07-20", "prices": 1, "undated_prices": 0}}
    _, text = tables.price_banner(prices)
    assert "All prices used" not in text and "of the total" not in text, text
