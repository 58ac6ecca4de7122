"""Where a card's price comes from when `onprem.card_overrides` replaces it.

scenarios/startup-hybrid.yaml overrides the catalog A100 80GB PCIe (catalog: 11,500 USD, dated 2026-03-20,
cited to AI Tool Discovery) with a quote of 14,000 + 2,500 USD host. The plan's prices must not cite the
catalog's page and date for a price the page never gave: the override's own source and date, or "quoted
in the scenario" when it gives none. An override that leaves the price alone keeps the catalog's provenance.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import yaml

from planner import load_scenario, plan
from planner.catalog import load_cards

ROOT = Path(__file__).resolve().parents[2]
CARD = "a100-80gb-pcie"


def _plan_with_override(override: dict):
    data = yaml.safe_load((ROOT / "scenarios" / "startup-hybrid.yaml").read_text())
    data["onprem"]["card_overrides"] = {CARD: override}
    data["horizon_months"] = 12
    p = plan(load_scenario(data), baselines=False)
    assert CARD in set(p.offers["sku"]), "the test needs the A100 among the plan's offers"
    return p, p.offers.set_index("sku").loc[CARD]


def test_an_undated_quote_is_named_as_the_scenarios_not_the_catalogs():
    catalog = load_cards().loc[CARD]
    assert catalog["as_of"] == "2026-03-20" and "AI Tool Discovery" in catalog["source"]
    p, row = _plan_with_override({"price": 14000, "currency": "USD", "host_cost_per_card": 2500})
    assert row["source"] == "scenario card_overrides: no source given"
    assert row["as_of"] == ""
    assert "1 quoted in the scenario" in p.prices["as_of_text"]
    assert not any(CARD in w for w in p.prices["date_warnings"])   # a quote is neither stale nor undated

    _, sourced = _plan_with_override({"price": 14000, "source": "reseller quote 2026-11"})
    assert sourced["source"] == "scenario card_overrides: reseller quote 2026-11" and sourced["as_of"] == ""


def test_a_dated_quote_keeps_its_date_and_is_checked_for_age():
    # 2025-01-10 is more than 180 days before any day this test runs on: the quote is stale and named
    assert (date.today() - date(2025, 1, 10)).days > 180
    p, row = _plan_with_override({"price": 14000, "as_of": "2025-01-10", "source": "vendor quote Q-17"})
    assert (row["source"], row["as_of"]) == ("vendor quote Q-17", "2025-01-10")
    assert "quoted in the scenario" not in p.prices["as_of_text"]
    assert any(w.startswith("stale prices") and f"card {CARD}" in w for w in p.prices["date_warnings"])


def test_an_override_that_leaves_the_price_keeps_the_catalogs_provenance():
    catalog = load_cards().loc[CARD]
    _, row = _plan_with_override({"busy_watts": 300, "idle_watts": 50})
    assert (row["source"], row["as_of"]) == (catalog["source"], catalog["as_of"])
