"""Where a card's price comes from when `onprem.card_overrides` replaces it.

scenarios/startup-hybrid.yaml overrides the catalog A100 80GB PCIe (catalog: 11,500 USD, dated 2026-03-20,
cited to AI Tool Discovery) with a quote of 14,000 + 2,500 USD host. The plan's prices must not cite the
catalog's page and date for a price the page never gave: the override's own source and date, or "quoted
in the scenario" when it gives none. An override that leaves the price alone keeps the catalog's provenance.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
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


def test_a_workload_named_as_another_s_index_is_refused_not_guessed():
    # a review: `workloads.0.x` set the workload named "0" (the second) where 0 is also the first's index
    from planner.errors import ScenarioError
    from planner.scenario import apply_overrides

    s = load_scenario({"name": "z", "horizon_months": 12, "workloads": [
        {"name": "a", "gpu_hours_per_month": 100, "reference_gpu": "T4"},
        {"name": "0", "gpu_hours_per_month": 200, "reference_gpu": "T4"}]})
    with pytest.raises(ScenarioError) as info:
        apply_overrides(s, {"workloads.0.gpu_hours_per_month": 5})
    assert info.value.problems == [
        "workloads.0.gpu_hours_per_month: workloads.0 is both the workload named '0' (workloads[1]) and workloads[0] "
        "by index ('a'); rename the workload '0' in the scenario to tell them apart"]
    # by the other index, and by a name that is its own index, there is nothing to tell apart
    assert [w.gpu_hours_per_month for w in apply_overrides(s, {"workloads.1.gpu_hours_per_month": 5}).workloads] \
        == [100, 5]
    first = load_scenario({**s.model_dump(mode="json"), "workloads": [
        {"name": "0", "gpu_hours_per_month": 100, "reference_gpu": "T4"}]})
    assert apply_overrides(first, {"workloads.0.gpu_hours_per_month": 5}).workloads[0].gpu_hours_per_month == 5
