"""price_table caches a source's offers and provenance; a caller editing the provenance it got (or a plan's inputs'
`prices`, which carry it) must not change what later calls get. A test that edited `inputs_for(...).prices` in place
(test_engine_fresh_sets.py) left strings among the cached snapshots, and a sweep later in the same process failed
on them ("dictionary update sequence element #0 has length 1").

Oracle: the provenance's own content before the edits (a JSON dump), and the sweep that failed."""

from __future__ import annotations

import json
from pathlib import Path

from planner import catalog, sweep
from planner.engine import inputs_for
from planner.scenario import load_scenario
from tests.planner.test_saved_plan_copies import edit

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


def test_editing_the_provenance_got_leaves_the_next_call_alone():
    _, first = catalog.price_table("snapshot")
    before = json.dumps(first, sort_keys=True, default=str)
    edit(first)
    _, again = catalog.price_table("snapshot")
    assert json.dumps(again, sort_keys=True, default=str) == before
    assert all(isinstance(s, dict) for s in again["snapshots"])


def test_editing_a_plans_inputs_prices_leaves_a_later_sweep_alone():
    inp = inputs_for(load_scenario(WORKED))
    edit(inp.prices)
    table = sweep(WORKED, vary={"discount_rate": [0.0, 0.1]}, processes=1)
    assert len(table) == 2 and table["status"].eq("optimal").all()
