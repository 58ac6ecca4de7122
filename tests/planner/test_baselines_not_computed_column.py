"""A column of the baselines of a plan made without them (`plan(..., baselines=False)`) says why there is none and
how to get them — `add_baselines(plan)` or `plan(..., baselines=True)` — where it was a bare KeyError: 'total'.

The table itself stays what the reports, exports and the CLI read as "never solved": no rows, no columns, `.empty`,
`len() == 0`, `"baseline" not in .columns`, `.get(column, default)` the default. The error is a KeyError still (code
catching the lookup's KeyError keeps working) and a PlannerError (the planner's family)."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from planner import add_baselines, plan, to_dict, to_markdown
from planner.engine.result import BaselinesNotComputed
from planner.errors import PlannerError

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"


@pytest.fixture(scope="module")
def bare():
    return plan(ENTRY, baselines=False)


def test_a_column_of_baselines_not_computed_names_add_baselines_and_baselines_true(bare):
    with pytest.raises(KeyError) as caught:
        bare.baselines["total"]
    assert isinstance(caught.value, BaselinesNotComputed) and isinstance(caught.value, PlannerError)
    said = str(caught.value)
    assert "'total'" in said and "not computed" in said
    assert "add_baselines(plan)" in said and "plan(..., baselines=True)" in said


def test_the_table_still_reads_as_never_solved(bare):
    table = bare.baselines
    assert table.empty and len(table) == 0 and list(table.columns) == []
    assert "baseline" not in table.columns and "error_bound" not in table
    assert table.get("note", []) == []          # the CLI's zip(p.baselines.get("baseline", []), …)


@pytest.mark.parametrize("copy", [
    lambda p: pickle.loads(pickle.dumps(p)),   # the dashboard's workers send plans pickled
    lambda p: replace(p),                      # the dashboard's replace(outcome.plan, …)
])
def test_a_copy_of_the_plan_says_it_too(bare, copy):
    with pytest.raises(BaselinesNotComputed):
        copy(bare).baselines["savings"]


def test_a_table_made_from_it_with_columns_of_its_own_misses_a_column_as_any_table(bare):
    made = bare.baselines.assign(x=[])
    with pytest.raises(KeyError) as caught:
        made["total"]
    assert not isinstance(caught.value, BaselinesNotComputed)


def test_the_reports_of_a_plan_without_baselines_still_have_none(bare):
    assert json.loads(json.dumps(to_dict(bare), default=str))["baselines"] == []
    assert bare.scenario_name in to_markdown(bare)


def test_after_add_baselines_the_column_reads(bare):
    p = replace(bare)
    add_baselines(p)
    assert set(p.baselines["baseline"]) == {"all_cloud", "all_onprem", "best_single"}
    assert p.baselines["total"].notna().all()
