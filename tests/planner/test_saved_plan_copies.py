"""A plan read back from its JSON for `fleetplan compare` (SavedPlan) and a sweep point's summary (PlanSummary) keep
their tables, dicts and lists to themselves, as a Plan does (test_plan_containers.py): each read is a copy, so a
caller that edits what it read — a row dropped, a column added, a key set, a note appended, a nested dict changed —
changes nothing of the object, and the next read gives what the planner read or solved. A changed one is set whole
(`saved.prices = …`; a frozen summary: `dataclasses.replace(summary, warnings=…)`), and what was set is copied too.

Every field annotated as a DataFrame, dict or list is checked, found from the classes' own field lists here, so a
field added later is checked too. Oracle: the value's own fingerprint taken before the edit; the worked example
(README: total 8,385.46 USD, a fleet of 2 rows) for the numbers a comparison of the edited side must still give."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import warnings
from pathlib import Path

import pandas as pd
import pytest

from planner.engine import plan, plan_summary
from planner.engine.result import held
from planner.engine.run import PlanSummary
from planner.reports.compare import SavedPlan, compare, plan_from_dict
from planner.reports.tables import plan_to_dict
from planner.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
KINDS = {"DataFrame": pd.DataFrame, "dict": dict, "list": list}


def kept_fields(cls) -> dict[str, type]:
    """Every field of dataclass `cls` annotated as a DataFrame, dict or list (`X | None` too) → that type."""
    out = {}
    for f in dataclasses.fields(cls):
        first = str(f.type).split("|")[0].strip().rsplit(".", 1)[-1]
        if first in KINDS:
            out[f.name] = KINDS[first]
    return out


def fingerprint(value) -> str:
    """What `value` holds, down to a table's cells, columns, index and attrs, as text."""
    if isinstance(value, pd.DataFrame):
        return json.dumps({"cells": value.to_json(orient="split", default_handler=str),
                           "dtypes": [str(t) for t in value.dtypes], "attrs": repr(value.attrs)})
    return json.dumps(value, sort_keys=True, default=repr)


def edit(value) -> None:
    """What a caller does to a value it read: everything in it changed in place, nested dicts and lists too."""
    if isinstance(value, pd.DataFrame):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # pandas' warnings of edits made on purpose
            value["edited_by_caller"] = 1
            value.drop(index=value.index[:1], inplace=True)
            value.attrs["edited"] = True
    elif isinstance(value, dict):
        for nested in list(value.values()):
            edit(nested)
        value["edited_by_caller"] = True
    elif isinstance(value, list):
        for nested in value:
            edit(nested)
        value.append("edited by caller")


@pytest.fixture(scope="module")
def solved():
    return plan(WORKED, baselines=False)


@pytest.fixture
def saved(solved) -> SavedPlan:
    return plan_from_dict(plan_to_dict(solved), "plan.json")


@pytest.fixture(scope="module")
def summary() -> PlanSummary:
    return plan_summary(load_scenario(WORKED), baselines=True)


def _objects(saved, summary):
    return [("SavedPlan", saved), ("PlanSummary", summary)]


def test_the_fields_checked_are_the_tables_dicts_and_lists_of_each(saved, summary):
    assert kept_fields(SavedPlan) == {"costs": pd.DataFrame, "fleet": pd.DataFrame, "solver": dict, "prices": dict,
                                      "prices_used": pd.DataFrame, "input_files": dict}
    assert kept_fields(PlanSummary) == {"fleet": pd.DataFrame, "baselines": pd.DataFrame, "prices": dict,
                                        "warnings": list}
    # each holds something to edit here (a None or empty value would prove nothing)
    for what, obj in _objects(saved, summary):
        for name, kind in kept_fields(type(obj)).items():
            value = getattr(obj, name)
            assert isinstance(value, kind) and len(value), (what, name)


@pytest.mark.parametrize("which", ["SavedPlan", "PlanSummary"])
def test_editing_what_was_read_changes_nothing_of_the_next_read(saved, summary, which):
    obj = dict(_objects(saved, summary))[which]
    for name in kept_fields(type(obj)):
        before = fingerprint(getattr(obj, name))
        value = getattr(obj, name)
        assert value is not getattr(obj, name), name
        edit(value)
        assert fingerprint(value) != before, name          # the edit did change what was read
        assert fingerprint(getattr(obj, name)) == before, name


def test_a_whole_new_value_set_on_a_saved_plan_is_kept_and_copied(saved):
    for name in kept_fields(SavedPlan):
        new = getattr(saved, name)
        edit(new)
        setattr(saved, name, new)
        told = fingerprint(new)
        assert fingerprint(getattr(saved, name)) == told, name
        edit(new)   # the caller's later edit of what it set
        assert fingerprint(getattr(saved, name)) == told, name


def test_a_whole_new_value_replaces_a_summarys_and_is_copied(summary):
    for name in kept_fields(PlanSummary):
        new = getattr(summary, name)
        edit(new)
        told = fingerprint(new)
        changed = dataclasses.replace(summary, **{name: new})
        assert fingerprint(getattr(changed, name)) == told, name
        edit(new)
        assert fingerprint(getattr(changed, name)) == told, name
        with pytest.raises(dataclasses.FrozenInstanceError):   # frozen, as it was: set whole by replace
            setattr(summary, name, new)


def test_a_summary_read_is_what_plan_summary_solved(summary):
    # the worked example (README): 8,385.46 USD, its baselines table of all cloud, all on-prem and best single
    for value in (summary.fleet, summary.baselines, summary.warnings, summary.prices):
        edit(value)
    assert summary.total == pytest.approx(8385.46, abs=0.005)
    assert "edited_by_caller" not in summary.fleet and len(summary.fleet) == 2
    assert sorted(summary.baselines["baseline"]) == ["all_cloud", "all_onprem", "best_single"]
    assert "edited by caller" not in summary.warnings and "edited_by_caller" not in summary.prices


def test_a_comparison_of_an_edited_saved_plan_compares_the_plan_as_saved(saved, solved):
    told = json.dumps(compare(saved, solved).to_dict(), sort_keys=True)
    for name in kept_fields(SavedPlan):
        edit(getattr(saved, name))
    c = compare(saved, solved)
    assert json.dumps(c.to_dict(), sort_keys=True) == told
    assert c.total_delta == 0 and c.inputs.empty and c.provenance.empty and c.prices.empty
    assert c.costs["cost_a"].sum() == pytest.approx(8385.46, abs=0.005) and len(c.fleet) == 2


def test_the_reports_read_a_saved_plans_tables_as_it_holds_them(saved):
    # held: not a copy for the comparison's own reads, which change nothing
    assert held(saved, "fleet") is held(saved, "fleet") and held(saved, "costs") is held(saved, "costs")
    assert fingerprint(held(saved, "fleet")) == fingerprint(saved.fleet)


def test_a_saved_plan_and_a_summary_copied_or_pickled_keep_their_values(saved, summary):
    for obj in (saved, summary):
        for twin in (pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj), copy.copy(obj)):
            for name in kept_fields(type(obj)):
                assert fingerprint(getattr(twin, name)) == fingerprint(getattr(obj, name)), name


def test_a_dict_nested_deeper_than_python_recurses_is_copied_too(saved):
    # a saved plan's JSON may nest a dict hundreds deep (test_compare_hostile_plans.py); one set here nests 5,000 deep
    deep: object = {"leaf": 1}
    for _ in range(5000):
        deep = {"a": deep}
    saved.prices = deep
    read = saved.prices
    for _ in range(5000):
        read = read["a"]
    read["leaf"] = "edited"
    again = saved.prices
    for _ in range(5000):
        again = again["a"]
    assert again == {"leaf": 1}
