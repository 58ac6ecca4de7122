"""Saved plans edited by hand, as a review made them (2026-12-05): `compare` reads what it can show and names
what it cannot, without a traceback."""

import functools
import json
import math
from pathlib import Path

import pytest

from planner import PlannerError, compare, plan, to_json
from planner.errors import ScenarioError

WORKED = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"


@functools.cache
def _saved() -> str:
    return to_json(plan(WORKED, baselines=False))


def _edited(tmp_path, name: str, edit) -> Path:
    doc = json.loads(_saved())
    edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_price_no_float_holds_is_shown_blank(tmp_path):
    # a 400-digit integer is JSON; float() overflows on it (the comparison raised OverflowError)
    def huge(doc):
        assert doc["prices_used"], "the worked example's plan records the prices it used"
        doc["prices_used"][0]["capex_per_unit"] = 10**400
    a = _edited(tmp_path, "a.json", huge)
    b = _edited(tmp_path, "b.json", lambda doc: None)
    c = compare(a, b)
    assert c.total_a == c.total_b
    assert math.isnan(c.plan_a.prices_used["capex_per_unit"].iloc[0])


def test_provenance_nested_deep_is_shown_as_the_start_of_its_text(tmp_path):
    deep: object = 1
    for _ in range(500):
        deep = {"a": deep}
    a = _edited(tmp_path, "a.json", lambda doc: doc["prices"].__setitem__("as_of", deep))
    b = _edited(tmp_path, "b.json", lambda doc: None)
    c = compare(a, b)
    row = c.provenance.set_index("path").loc["prices used.as_of"]
    assert row["a"] == '{"a": ' * 10   # its first 60 characters
    json.dumps(c.to_dict())   # the JSON output (it raised RecursionError)


@pytest.mark.parametrize("name", ["twice.json", "twice.out"])   # a plan is known by its content, not its name
@pytest.mark.parametrize("key", ["status", "total", "scenario_inputs"])
def test_a_key_given_twice_is_named(tmp_path, key, name):
    text = _saved()
    value = json.dumps(json.loads(text)[key])
    doctored = text.rstrip().removesuffix("}") + f', "{key}": {value}}}'   # the same key once more, at the end
    path = tmp_path / name
    path.write_text(doctored, encoding="utf-8")
    with pytest.raises(PlannerError, match=f"{name}: the key '{key}' is given twice in one object"):
        compare(path, path)


def test_a_json_scenario_with_a_key_given_twice_is_read_as_a_scenario(tmp_path):
    # no status: a scenario, whose reader names the key (not "expected the plan as … saved it")
    path = tmp_path / "scenario.json"
    path.write_text('{"name": "a", "name": "b", "workloads": []}', encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        compare(path, path)
    assert "name" in str(info.value) and "duplicate" in str(info.value) and "saved it" not in str(info.value)


def test_fleet_numbers_beyond_any_plan_are_refused(tmp_path):
    # the review's pair: one row at 1.7e308 in a and -1.7e308 in b compared as "total +0" beside a delta of -inf.
    # A row is read as written (an edit that keeps the costs summing to the total compares as edited), but no
    # plan holds 1e15 of anything
    for col, value in (("cost", 1.7e308), ("cost", -1.7e308), ("units", 1e308), ("instance_hours", 2e15)):
        path = _edited(tmp_path, "a.json", lambda doc, col=col, value=value: doc["fleet"][0].__setitem__(col, value))
        with pytest.raises(PlannerError, match=rf"a.json: fleet row 1: {col} is .*; expected a number from -1e15 to 1e15$"):
            compare(path, path)
    path = _edited(tmp_path, "b.json", lambda doc: doc["fleet"][0].__setitem__("cost", 1e15))
    assert compare(path, path).fleet["cost_a"].iloc[0] == 1e15   # the most, read as written


@pytest.mark.parametrize("name", ["plan.json", "plan.out"])
def test_a_saved_plan_is_parsed_once(tmp_path, monkeypatch, name):
    # it was parsed twice: once to tell a plan from a scenario, once strictly for a key given twice (a 50 MB
    # plan: compare 0.88 s → 1.19 s)
    from planner.reports.compare import read_side

    path = tmp_path / name
    path.write_text(_saved(), encoding="utf-8")
    total = json.loads(_saved())["total"]
    parses, real = [], json.loads

    def counted(text, *args, **kwargs):
        if text == _saved():
            parses.append(kwargs)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", counted)
    side = read_side(path)
    assert side.total == total
    assert len(parses) == 1 and "object_pairs_hook" in parses[0]   # the strict reading, which names a key given twice
