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


def test_the_plans_prices_date_the_cloud_the_catalog_cards_and_the_quote_apart():
    # the plan uses aws p5.48xlarge on-demand (snapshot row dated 2026-07-20), the owned RTX 3060s (catalog: the
    # seed guide, undated), an RTX 4090 (catalog: 2023-11-23) and the A100 at the scenario's quote: a fresh quote
    # date must not pass for the cloud prices' date (the dashboard's banner judges their age on these)
    p, _ = _plan_with_override({"price": 14000, "as_of": "2026-11-20", "source": "vendor quote Q-17"})
    assert p.prices["as_of"] == "2026-11-20"   # the newest of all, as before
    assert p.prices["cloud_dates"] == {"as_of": "2026-07-20", "as_of_oldest": "2026-07-20", "prices": 1,
                                       "undated_prices": 0}
    assert p.prices["card_dates"] == {"as_of": "2023-11-23", "as_of_oldest": "2023-11-23", "prices": 2,
                                      "undated_prices": 1}
    assert p.prices["quotes"] == [{"card": CARD, "as_of": "2026-11-20"}]

    undated, _ = _plan_with_override({"price": 14000, "currency": "USD", "host_cost_per_card": 2500})
    assert undated.prices["quotes"] == [{"card": CARD, "as_of": None}]
    # an override that leaves the price alone: the A100's price is the catalog's (2026-03-20), no quote
    watts, _ = _plan_with_override({"busy_watts": 300, "idle_watts": 50})
    assert watts.prices["quotes"] == []
    assert watts.prices["card_dates"] == {"as_of": "2026-03-20", "as_of_oldest": "2023-11-23", "prices": 3,
                                          "undated_prices": 1}
