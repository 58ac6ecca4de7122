"""The best single type's label says what its plan uses.

1. Where the cards owned serve all demand, every single type's plan keeps them and buys and rents nothing, so
   all tie at their cost: the label was the first in text order, "only cloud on-demand", a type that plan does
   not use. Of tied types, one whose plan uses its type is named; where none does, the label says so.

The worked example (examples/worked-example.yaml), by hand. One RTX A5000 owned, 6 months old, 600 A5000-hours
a month (one card works 0.9 × 730 = 657), 24 months, undiscounted: maintenance 2,500 × 0.05 / 12 × 24 = 250,
idle energy 100 W × 730 h × 1.5 × 0.20 USD/kWh × 24 = 525.60, busy energy 0.3 kW × 1.5 × 0.20 × 600 × 24 = 1,296,
resale at month 25, 30 months old, 2,500 × 0.5 × (1 − 30/48) = −468.75: 1,602.85 USD. Selling it instead
(−1,093.75) and renting 600 / 0.8 = 750 g5.xlarge hours a month (× 1.006 × 24 = 18,108) costs far more, so
every fleet keeps it and needs nothing else. With min_units 2 the plan buys a second A5000 too: capex 2,500,
maintenance 250, idle 525.60, resale at 24 months −625 (its busy hours are the same 600 a month, shared):
+2,650.60 = 4,253.45 USD.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import yaml

from planner import load_scenario, plan
from planner.engine import add_baselines, add_decisions, inputs_for
from planner.engine import baselines as baselines_module
from planner.engine.solve import Solution
from planner.reports.markdown import plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
OWNED_ONLY = "owned cards alone (nothing bought or rented)"
OWNED_TOTAL, WITH_SECOND_CARD = 1602.85, 4253.45


def worked_doc() -> dict:
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    return doc


def owned_serves_all(**constraints):
    doc = worked_doc()
    doc["onprem"]["existing"] = {"rtx-a5000": {"count": 1, "age_months": 6}}
    doc["workloads"][0]["gpu_hours_per_month"] = 600
    if constraints:
        doc["constraints"] = constraints
    return load_scenario(doc)


def by_baseline(p) -> pd.DataFrame:
    return p.baselines.set_index("baseline")


# --- 1. the best single type's label ---


def test_owned_cards_that_serve_all_are_named_not_a_type_their_plan_does_not_use():
    p = plan(owned_serves_all())
    assert p.total == pytest.approx(OWNED_TOTAL, abs=0.01)
    b = by_baseline(p)
    assert b["total"].tolist() == pytest.approx([OWNED_TOTAL] * 3, abs=0.01)
    assert b.loc["best_single", "label"] == OWNED_ONLY
    # its plan: the owned card, nothing bought, nothing rented
    fleet = p.baseline_plans["best_single"].fleet
    assert fleet[["sku", "kind", "existing_units", "new_units"]].values.tolist() == [["rtx-a5000", "card", 1, 0]]
    # the Markdown summary shows the same label
    assert f"| best_single | {OWNED_ONLY} |" in plan_to_markdown(p)


def test_the_table_only_path_labels_it_the_same():
    # the CLI's path: the table without Plans (add_baselines(plans=False)), the fleets read from the rows
    p = plan(owned_serves_all(), baselines=False)
    add_baselines(p, plans=False)
    assert by_baseline(p).loc["best_single", "label"] == OWNED_ONLY


def test_an_owned_only_best_single_cheaper_than_the_plan_is_explained_as_buying_no_card():
    # min_units 2 makes the plan buy a second A5000; the baselines drop it. Nothing bought: the capex budget
    # cannot explain the lower total, only the minimum can (as for all cloud)
    p = plan(owned_serves_all(min_units={"rtx-a5000": 2}))
    assert p.total == pytest.approx(WITH_SECOND_CARD, abs=0.01)
    b = by_baseline(p)
    assert b.loc["best_single", "label"] == OWNED_ONLY
    assert b.loc["best_single", "total"] == pytest.approx(OWNED_TOTAL, abs=0.01)
    assert b.loc["best_single", "note"] == "costs less than the plan: it drops min_units.rtx-a5000 = 2, which the plan keeps"
    # once the cap costs are known, the minimum alone costs the plan 4,253.45 − 1,602.85 = 2,650.60
    add_decisions(p)
    assert by_baseline(p).loc["best_single", "note"] == ("costs less than the plan: it drops constraints.min_units."
                                                         "rtx-a5000 = 2, which alone costs the plan 2,651 USD")


def _fake_rows(monkeypatch, totals: dict, fleets: dict):
    """baseline_rows of the owned-card scenario's inputs with each model's solve replaced: `totals` and `fleets`
    (readback's columns) by single type. It has one card and one cloud kind, so all on-prem is the model of
    only rtx-a5000 and all cloud that of only cloud on-demand (solved once, under the first one's name)."""
    def fake_solve(base, variant, solver, time_limit):
        label = "only cloud on-demand" if variant.keep_kinds else "only rtx-a5000"
        return (label, label, Solution("optimal", totals[label], solver, 0.0, 0.0))

    def fake_fleet(inp, model):
        rows = fleets.get(model, [])
        return 0.0, pd.DataFrame(rows, columns=["kind", "sku", "gpu", "new_units"])

    monkeypatch.setattr(baselines_module, "_solve_variant", fake_solve)
    monkeypatch.setattr(baselines_module, "read_fleet", fake_fleet, raising=False)   # (code that reads no fleet: none)
    # the units whose pairs join the speeds table (tests/planner/test_baseline_speeds.py): none here
    monkeypatch.setattr(baselines_module, "fleet_unit_ids", lambda inp, model: [], raising=False)
    monkeypatch.setattr(baselines_module, "fleet_pairs", lambda inp, unit_ids, offers=None: frozenset(), raising=False)
    rows, _ = baselines_module.baseline_rows(inputs_for(owned_serves_all()), "highs", None, plans=False)
    return {r["baseline"]: r for r in rows}


OWNED_CARD = [("card", "rtx-a5000", "RTX-A5000", 0)]
RENTS = OWNED_CARD + [("on_demand", "g5.xlarge", "A10G", math.nan)]


def test_of_tied_types_the_one_whose_plan_uses_its_type_is_named(monkeypatch):
    # only rtx-a5000 buys nothing at 100.000; only cloud on-demand rents at 100.004, within half a cent: a tie,
    # and the type used wins, though the other costs a little less
    rows = _fake_rows(monkeypatch, {"only rtx-a5000": 100.0, "only cloud on-demand": 100.004},
                      {"only rtx-a5000": OWNED_CARD, "only cloud on-demand": RENTS})
    # its label says it keeps the owned A5000 too (RENTS: the owned card and g5.xlarge hours)
    assert (rows["best_single"]["label"], rows["best_single"]["total"]) == ("only cloud on-demand (and owned cards)",
                                                                             100.004)


def test_a_cheaper_type_beyond_round_off_wins_and_is_named_for_what_it_uses(monkeypatch):
    # 100.01 is no tie with 100.00: the cheapest plan, which buys and rents nothing, is the best single type
    rows = _fake_rows(monkeypatch, {"only rtx-a5000": 100.0, "only cloud on-demand": 100.01},
                      {"only rtx-a5000": OWNED_CARD, "only cloud on-demand": RENTS})
    assert (rows["best_single"]["label"], rows["best_single"]["total"]) == (OWNED_ONLY, 100.0)
    # a card bought is its type used: the label stays the card's
    bought = [("card", "rtx-a5000", "RTX-A5000", 1)]
    rows = _fake_rows(monkeypatch, {"only rtx-a5000": 100.0, "only cloud on-demand": 100.0},
                      {"only rtx-a5000": bought, "only cloud on-demand": OWNED_CARD})
    assert rows["best_single"]["label"] == "only rtx-a5000"
