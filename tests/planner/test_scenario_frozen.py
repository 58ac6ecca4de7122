"""A validated scenario is frozen all the way down: its mappings and lists refuse changes, which would skip
every check (an fx rate of 1.0 for CNY planned 29,607 USD instead of 36,401), while reading, comparing,
dumping, copying and pickling it work as they did."""

import copy
import json
import pickle
from pathlib import Path

import pytest
import yaml

from planner import apply_overrides, load_scenario, plan
from planner.errors import ScenarioError
from planner.scenario import load_scenario_file
from planner.scenario.yaml_core import dump_yaml

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
# startup-hybrid.yaml's total on the packaged prices, as the README documents it (present value, USD)
STARTUP_TOTAL_USD = 36401.33


@pytest.fixture()
def startup():
    return load_scenario_file(STARTUP)


def test_the_auditors_fx_change_is_refused_with_the_validated_way_to_make_it(startup):
    with pytest.raises(TypeError) as info:
        startup.fx["CNY"] = 1.0
    message = str(info.value)
    assert "fx is read-only" in message and "frozen" in message
    assert "plan(scenario, overrides={'fx.CNY': 1.0})" in message
    assert "apply_overrides(scenario, {'fx.CNY': 1.0})" in message
    assert startup.fx == {"CNY": 0.14}


def test_the_validated_way_changes_the_rate(startup):
    assert apply_overrides(startup, {"fx.CNY": 0.15}).fx == {"CNY": 0.15}
    assert startup.fx == {"CNY": 0.14}


@pytest.mark.parametrize("change", [
    lambda m: m.__setitem__("x", 1), lambda m: m.__delitem__(next(iter(m))), lambda m: m.update(x=1),
    lambda m: m.update({"x": 1}), lambda m: m.pop(next(iter(m))), lambda m: m.pop("x", None), lambda m: m.popitem(),
    lambda m: m.clear(), lambda m: m.setdefault("x", 1), lambda m: m.__ior__({"x": 1}),
], ids=["setitem", "delitem", "update-kw", "update", "pop", "pop-default", "popitem", "clear", "setdefault", "ior"])
def test_every_change_of_a_mapping_is_refused(startup, change):
    before = dict(startup.constraints.min_units)
    with pytest.raises(TypeError, match="constraints.min_units is read-only: a validated scenario is frozen"):
        change(startup.constraints.min_units)
    assert startup.constraints.min_units == before


def test_in_place_or_of_a_mapping_is_refused(startup):
    least = startup.constraints.min_units
    with pytest.raises(TypeError, match="read-only"):
        least |= {"rtx-4090": 1}
    assert startup.constraints.min_units == {"a100-80gb-pcie": 1}


@pytest.mark.parametrize("path, key", [
    ("fx", "CNY"),                                          # a mapping of the scenario
    ("onprem.card_overrides", "a100-80gb-pcie"),            # a nested model's mapping of models
    ("onprem.existing", "rtx-3060-12gb"),
    ("onprem.custom_cards", "some-card"),                   # empty in the file: still read-only
    ("constraints.min_units", "a100-80gb-pcie"),
    ("constraints.max_units", "rtx-4090"),
    ("workloads.llm-finetune.throughput", "H100-SXM"),     # a workload's table
])
def test_every_mapping_of_the_scenario_refuses_a_change_and_names_its_override_path(startup, path, key):
    node = startup
    for part in path.split("."):
        node = {w.name: w for w in node}[part] if part == "llm-finetune" else getattr(node, part)
    with pytest.raises(TypeError, match=f"{path} is read-only") as info:
        node[key] = 3
    assert f"overrides={{'{path}.{key}': 3}}" in str(info.value)


@pytest.mark.parametrize("get", [
    lambda s: s.workloads, lambda s: s.onprem.cards, lambda s: s.prices.providers, lambda s: s.prices.regions,
    lambda s: s.prices.purchase_options,
], ids=["workloads", "onprem.cards", "prices.providers", "prices.regions", "prices.purchase_options"])
def test_every_list_of_the_scenario_is_a_tuple(startup, get):
    items = get(startup)
    assert isinstance(items, tuple)
    with pytest.raises(TypeError):
        items[0] = items[0]   # type: ignore[index]
    assert not hasattr(items, "append")


def test_a_scenario_from_a_dict_or_overrides_is_frozen_too(startup):
    data = startup.model_dump(mode="json")
    for s in (load_scenario(data), apply_overrides(startup, {"horizon_months": 24}), plan(startup, baselines=False).scenario):
        with pytest.raises(TypeError, match="read-only"):
            s.onprem.existing["rtx-4090"] = 1


def test_reading_a_mapping_works_as_a_dict(startup):
    fx = startup.fx
    assert fx == {"CNY": 0.14} and dict(fx) == {"CNY": 0.14} and {**fx} == {"CNY": 0.14}
    assert isinstance(fx, dict) and "CNY" in fx and fx.get("EUR") is None and list(fx.items()) == [("CNY", 0.14)]
    merged = {**fx, "EUR": 1.1}                      # a copy is the caller's own, and changes
    merged["GBP"] = 1.3
    assert fx | {"EUR": 1.1} == {"CNY": 0.14, "EUR": 1.1} and fx.copy() == {"CNY": 0.14}
    assert [*startup.onprem.cards, "x"][-1] == "x"
    assert json.dumps(fx) == '{"CNY": 0.14}'
    assert yaml.safe_dump(fx) == yaml.dump(fx) == dump_yaml(fx) == "CNY: 0.14\n"


def test_dumps_are_plain_and_read_back_to_an_equal_scenario(startup):
    data = startup.model_dump()
    assert type(data["fx"]) is dict and type(data["onprem"]["card_overrides"]) is dict
    data["fx"]["CNY"] = 0.2                          # a dump is the caller's to change (apply_overrides does)
    assert startup.fx == {"CNY": 0.14}
    assert load_scenario(startup.model_dump(mode="json")) == startup
    assert load_scenario(json.loads(startup.model_dump_json())) == startup
    assert json.loads(json.dumps(startup.model_dump(mode="json"))) == json.loads(startup.model_dump_json())


@pytest.mark.parametrize("copied", [
    lambda s: pickle.loads(pickle.dumps(s)), lambda s: pickle.loads(pickle.dumps(s, protocol=0)),
    copy.deepcopy, copy.copy, lambda s: s.model_copy(), lambda s: s.model_copy(deep=True),
], ids=["pickle", "pickle-protocol-0", "deepcopy", "copy", "model_copy", "model_copy-deep"])
def test_copies_are_equal_and_frozen(startup, copied):
    s = copied(startup)
    assert s == startup and s.model_dump() == startup.model_dump() and hash(s) == hash(startup)
    assert s.workloads[0].throughput == {"A100-80GB-PCIE": 1.0, "H100-SXM": 2.4}
    with pytest.raises(TypeError, match="onprem.card_overrides is read-only"):
        s.onprem.card_overrides["rtx-4090"] = None
    with pytest.raises(TypeError, match="fx is read-only"):
        s.fx.clear()


def test_a_frozen_scenario_is_hashable_and_equal_ones_hash_alike(startup):
    assert hash(load_scenario_file(STARTUP)) == hash(startup)
    assert len({startup, load_scenario_file(STARTUP), apply_overrides(startup, {"fx.CNY": 0.15})}) == 2


def test_a_pickled_scenario_plans_the_documented_total(startup):
    assert round(plan(pickle.loads(pickle.dumps(startup)), baselines=False).total, 2) == STARTUP_TOTAL_USD


def test_a_plan_pickles_with_its_frozen_scenario(startup):
    p = plan(startup, baselines=False)
    assert round(p.total, 2) == STARTUP_TOTAL_USD
    back = pickle.loads(pickle.dumps(p))
    assert back.scenario == startup and round(back.total, 2) == STARTUP_TOTAL_USD
    with pytest.raises(TypeError, match="read-only"):
        back.scenario.fx["CNY"] = 1.0


def test_a_mapping_of_the_scenario_given_whole_as_an_override_still_validates(startup):
    # the value is the scenario's own read-only mapping; the override's entry path still reaches into it
    s = apply_overrides(startup, {"onprem.existing": startup.onprem.existing})
    assert s == startup
    with pytest.raises(ScenarioError) as info:
        apply_overrides(startup, {"fx": startup.fx, "fx.CNY": 0.2})
    assert info.value.problems == ["fx and fx.CNY: fx.CNY is a field of fx; give one of them (the field alone, or the whole fx "
                        "with the field in it)"]
