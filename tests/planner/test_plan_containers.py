"""A Plan's dicts and lists are its own, as its tables are (test_plan_state.py): what a notebook does to
`p.warnings`, `p.solver`, `p.prices`, `p.runner_up`, `p.baseline_plans`, `p.profile_grouping` or `p.input_sha256`
— a note appended, a key set, a nested list cleared — changes none of the plan's exports nor `compare`.

Oracles: the plan's own exports taken before any edit, and what the README and the docstrings promise a plan holds
(`solver.timings_seconds.baselines`, the runner-up's `close_call_share`, `solver.decisions`), which the engine must
still set now that it can no longer change the plan's dicts in place."""

from __future__ import annotations

import dataclasses
import json
import pickle
import warnings
from pathlib import Path

import pytest

from planner import add_decisions, compare, plan, to_excel, to_json, to_markdown
from planner.engine.result import Plan
from tests.planner.test_plan_state import _cells

ROOT = Path(__file__).resolve().parents[2]
# every dict and list field of a Plan (planner/engine/result.py)
CONTAINERS = ("solver", "prices", "warnings", "baseline_plans", "profile_grouping", "runner_up", "input_sha256")


def test_the_containers_are_every_dict_and_list_field_of_a_plan():
    found = {f.name for f in dataclasses.fields(Plan) if str(f.type).split("|")[0].strip() in ("dict", "list")}
    assert found == set(CONTAINERS)


@pytest.fixture(scope="module")
def solved() -> Plan:
    p = add_decisions(plan(ROOT / "scenarios" / "startup-hybrid.yaml"))
    to_json(p)   # its generated_at stamped, so that every copy below carries the same one
    return p


@pytest.fixture(scope="module")
def before(solved) -> dict:
    return {"json": json.loads(to_json(solved)), "markdown": to_markdown(solved),
            "workbook": _cells(to_excel(solved)),
            "warnings": list(solved.warnings), "solver": json.dumps(solved.solver, sort_keys=True, default=str)}


@pytest.fixture
def p(solved) -> Plan:
    return pickle.loads(pickle.dumps(solved))


def _edit_like_a_notebook(p: Plan) -> None:
    p.warnings.append("checked by finance")
    p.warnings.clear()
    p.solver["name"] = "edited"
    p.solver["timings_seconds"]["baselines"] = -1.0
    p.prices["as_of"] = "1999-01-01"
    p.prices["date_warnings"].clear()
    p.runner_up["total"] = 0.0
    p.runner_up["count_alternatives"].clear()
    p.baseline_plans.pop("all_cloud")
    p.baseline_plans["all_onprem"] = None
    p.input_sha256["prices.source"] = "0" * 12
    if p.profile_grouping is not None:
        p.profile_grouping["error_bound"] = 1e9


def test_the_plan_holds_what_the_engine_sets_in_its_dicts(solved):
    # the engine sets these after read_plan: a change made to a copy would have been lost
    assert solved.solver["timings_seconds"]["baselines"] > 0   # baselines solved (plan()'s default)
    assert {"solves", "seconds", "threads", "total_seconds"} <= set(solved.solver["decisions"])
    assert solved.runner_up["close_call_share"] == 0.02          # README: close_call_share defaults to 0.02
    assert isinstance(solved.runner_up["count_alternatives"], list)
    assert set(solved.baseline_plans) == {"all_cloud", "all_onprem", "best_single"}


def test_each_read_of_a_dict_or_list_is_a_copy(solved):
    for name in CONTAINERS:
        value = getattr(solved, name)
        if value is not None:
            assert value is not getattr(solved, name), name
            assert value == getattr(solved, name), name
    assert solved.prices["date_warnings"] is not solved.prices["date_warnings"]   # nested lists too


def test_a_notebooks_edits_leave_the_plan_and_its_exports_as_solved(p, before):
    _edit_like_a_notebook(p)
    assert p.warnings == before["warnings"] and p.warnings
    assert json.dumps(p.solver, sort_keys=True, default=str) == before["solver"]
    assert set(p.baseline_plans) == {"all_cloud", "all_onprem", "best_single"}
    assert json.loads(to_json(p)) == before["json"]
    assert to_markdown(p) == before["markdown"]
    assert _cells(to_excel(p)) == before["workbook"]


def test_compare_after_edits_compares_the_solved_plans(p, solved):
    _edit_like_a_notebook(p)
    c = compare(p, solved)
    # the edited as_of and input hash would show as a difference of the prices' provenance or of the inputs
    assert c.provenance.empty and c.inputs.empty and c.total_delta == 0


def test_a_list_or_dict_set_on_a_plan_is_copied_so_its_makers_later_edit_changes_nothing(solved):
    notes = ["one note"]
    q = dataclasses.replace(solved, warnings=notes)
    notes.append("added later")
    assert q.warnings == ["one note"]
    assert json.loads(to_json(q))["warnings"] == ["one note"]


def test_a_comparisons_tables_notes_and_sides_are_its_own(solved):
    c = compare(solved, solved)
    told = json.dumps(c.to_dict(), sort_keys=True)
    with warnings.catch_warnings():
        # pandas 3 warns that an edit through `c.costs[...] = …` changes a copy (ChainedAssignmentError), and of
        # `inplace=`: both are what a notebook does, made here on purpose
        warnings.simplefilter("ignore")
        c.costs["cost_a"] = 0.0
        c.fleet.drop(index=c.fleet.index, inplace=True)
        c.inputs.loc[0] = ["prices.source", "a.csv", "b.csv"]
        c.provenance.loc[0] = ["prices.as_of", "2020-01-01", "2026-01-01"]
        c.prices.loc[0] = ["aws", "us-east-1", "p5.48xlarge", "H100-SXM", "on_demand", "hourly_price", 1.0, 2.0]
        c.inputs_shown.loc[0] = ["prices.source", "a.csv", "b.csv"]
    c.notes.append("edited")
    c.sides["a"]["file"] = "elsewhere.yaml"
    for name in ("costs", "fleet", "inputs", "provenance", "prices", "inputs_shown", "notes", "sides"):
        assert getattr(c, name) is not getattr(c, name), name
    # the same plan on both sides: no input, provenance or price differs, each category's delta is 0
    assert c.inputs.empty and c.provenance.empty and c.prices.empty and c.inputs_shown.empty
    assert not c.total_differs_with_same_inputs and c.provenance_shown.empty
    assert c.costs["cost_a"].sum() == pytest.approx(solved.total, abs=0.005) and len(c.fleet) == len(solved.fleet)
    assert "edited" not in c.notes and c.sides["a"].get("file") != "elsewhere.yaml"
    assert json.dumps(c.to_dict(), sort_keys=True) == told
    assert c.costs.attrs["money_basis"] == "present value at 0%/year, undiscounted"   # startup-hybrid: rate 0
    q = pickle.loads(pickle.dumps(c))
    assert json.dumps(q.to_dict(), sort_keys=True) == told


def test_a_table_set_on_a_comparison_is_copied(solved):
    c = compare(solved, solved)
    mine = c.costs
    c.costs = mine
    mine["cost_a"] = 0.0
    assert c.costs["cost_a"].sum() == pytest.approx(solved.total, abs=0.005)
