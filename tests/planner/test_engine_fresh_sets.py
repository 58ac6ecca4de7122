"""The engine sets a plan's fields without copying them (engine.result._fresh_plan, _set_fresh) where it has just
built them for the plan alone — a copy of each cost about 3 % of an in-process plan — and the plan still keeps them
to itself: what a caller reads and edits, and the Inputs it passed to plan(), change nothing of it.

Oracles: each value's own fingerprint before the edits; that `copied` (result.py's copying of what is set) is never
handed a value read_plan makes; a public `setattr` still copies (test_plan_containers.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from planner.engine import add_decisions, inputs_for, plan, readback, result, run
from planner.engine.result import CONTAINERS, TABLES, Plan
from planner.scenario import load_scenario
from tests.planner.test_saved_plan_copies import edit, fingerprint

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def read_args():
    """The arguments plan() gives read_plan for the worked example."""
    seen = []
    original = run.read_plan

    def spy(*args):
        seen.append(args)
        return original(*args)

    run.read_plan = spy
    try:
        plan(WORKED, baselines=False)
    finally:
        run.read_plan = original
    return seen[0]


def test_read_plan_sets_its_values_without_copying_them(read_args, monkeypatch):
    handed, depth = [], [0]
    real = result.copied

    def counting(value):   # what is handed to `copied` from outside it (not its own nested calls)
        if depth[0] == 0:
            handed.append(type(value).__name__)
        depth[0] += 1
        try:
            return real(value)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(result, "copied", counting)
    monkeypatch.setattr(readback, "copied", counting, raising=False)
    p = readback.read_plan(*read_args)
    # the prices alone, which carry the Inputs' own dicts; Plan(…) copied each of its tables and dicts as it set them
    assert handed == ["dict"]
    assert isinstance(p, Plan) and len(p.fleet) == 2   # worked example: g5.xlarge and the card
    assert p.costs.attrs["money_basis"].startswith("present value")   # labelled all the same


def test_read_plans_tables_are_its_own_objects_none_held_by_its_inputs(read_args):
    p = readback.read_plan(*read_args)
    inp = read_args[0]
    tables = [p.__dict__[f"_{name}"] for name in TABLES if isinstance(p.__dict__[f"_{name}"], pd.DataFrame)]
    assert len({id(t) for t in tables}) == len(tables)   # labelling one would relabel another
    held_by_inputs = {id(v) for v in vars(inp).values()}
    assert not any(id(t) in held_by_inputs for t in tables)
    # the prices carry the Inputs' snapshots and packaged data: copied, so no nested dict is the Inputs' own
    prices = p.__dict__["_prices"]
    assert prices["packaged_data"] == inp.prices["packaged_data"]
    assert prices["packaged_data"] is not inp.prices["packaged_data"]


def _everything(p: Plan) -> dict:
    return {name: fingerprint(getattr(p, name)) for name in TABLES + CONTAINERS if getattr(p, name) is not None}


def test_a_plan_is_independent_of_what_its_caller_reads_and_of_the_inputs_it_gave():
    s = load_scenario(WORKED)
    inp = inputs_for(s)
    p = add_decisions(plan(s, inputs=inp))   # read_plan, plan()'s sets, _solve_baselines_of's and add_decisions'
    before = _everything(p)
    assert {"baselines", "speeds", "decisions", "runner_up", "solver", "warnings", "prices"} <= set(before)
    for name in TABLES + CONTAINERS:
        value = getattr(p, name)
        if value is not None:
            edit(value)
    for value in (inp.prices, inp.input_sha256, inp.pruned, inp.warnings):
        edit(value)
    assert _everything(p) == before
    assert json.loads(before["solver"])["timings_seconds"]["baselines"] > 0   # the engine's own sets kept
    assert p.total == pytest.approx(8385.46, abs=0.005)   # README's worked example


def test_a_public_set_still_copies(read_args):
    p = readback.read_plan(*read_args)
    notes = ["mine"]
    p.warnings = notes
    notes.append("later")
    assert p.warnings == ["mine"]
