"""The Plan page's price banner and the command line judge a price by one rule and name the same prices.

- One age: a price is old past catalog.prices.STALE_AFTER_DAYS (180 days, the command line's "stale prices: … older
  than 180 days"), a cloud price as a card's; the dashboard judged cloud prices old at 90 days, so a cloud price 139
  days old was "more than 90 days old" on the page and not stale on the command line.
- The undated prices the banner names come from the plan's offers table (their empty `as_of`), not from the words of
  the plan's "undated prices: …" warning: reworded, the banner named none.

Facts by hand: entry.yaml rents Azure Standard_NC4as_T4_v3 spot in eastus, whose packaged snapshot row has no date
(pricing_adapters/snapshots: every spot row is undated, docs/offers-contract.md); 2026-07-20 is 139 days before
2026-12-06 (11 days left of July + 31 + 30 + 31 + 30 + 6)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import planner.catalog
from fleetplan_dashboard import state, tables
from planner.catalog.prices import STALE_AFTER_DAYS

ROOT = Path(__file__).resolve().parents[2]
UNDATED_SPOT = r"azure Standard\_NC4as\_T4\_v3 spot \(eastus\)"   # as tables.plain shows it


def test_the_dashboard_has_no_age_rule_of_its_own():
    assert STALE_AFTER_DAYS == 180
    assert not hasattr(state, "STALE_AFTER_DAYS")
    prices = {"source": "snapshot", "cloud_dates": {"prices": 1, "as_of": "2026-07-20", "as_of_oldest": "2026-07-20"}}
    level, text = tables.price_banner(prices, today=date(2026, 12, 6))
    assert (level, text) == ("info", "**The prices are recent: the newest cloud price is 139 days old.**\n\n"
                                     "Prices: packaged price snapshot · newest cloud price as of 2026-07-20 (139 days ago).")


@pytest.fixture()
def reworded(monkeypatch):
    """Plans made in the page's run (no worker processes, which would not see the patch), their warnings worded
    otherwise than the command line's "undated prices: N of M prices used have no date: …"."""
    real = planner.catalog.date_report

    def report(*args, **kwargs):
        out = real(*args, **kwargs)
        out["warnings"] = [w.replace("undated prices: ", "prices without a date — ").replace(" have no date: ", ": ")
                           for w in out["warnings"]]
        return out

    monkeypatch.setattr(planner.catalog, "date_report", report)
    monkeypatch.setattr(state, "WORKERS", False)
    state.clear_plan_cache()
    yield
    state.clear_plan_cache()


def test_the_banner_names_the_undated_prices_whatever_the_warnings_words(reworded):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    [box] = [e.value for e in at.code if "eastus" in e.value]
    assert box.startswith("prices without a date — 1 of 1 prices used: azure Standard_NC4as_T4_v3 spot (eastus)"), box
    [banner] = [w.value for w in at.warning if "\n\nPrices: " in w.value]
    assert f"The price used with no date: {UNDATED_SPOT}." in banner, banner
