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
from planner.errors import PlannerError, ScenarioError
from planner.scenario import CardOverride, ScenarioReadOnly, load_scenario_file
from planner.scenario.yaml_core import dump_yaml

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
# startup-hybrid.yaml's total on the packaged prices, as the README documents it (present value, USD)
# 36,401.33 at 0.14 USD/CNY + 19.829 USD less for the 2 owned RTX 3060s sold = 36,421.16; + 77.38 for the rtx-4090 at
# 1,669.99 USD, not 1,599: 70.99 × (1 + 3 years × 3 % maintenance)
STARTUP_TOTAL_USD = 36498.54


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
    assert startup.fx == {"CNY": 0.13749}


def test_the_validated_way_changes_the_rate(startup):
    assert apply_overrides(startup, {"fx.CNY": 0.15}).fx == {"CNY": 0.15}
    assert startup.fx == {"CNY": 0.13749}


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
    assert fx == {"CNY": 0.13749} and dict(fx) == {"CNY": 0.13749} and {**fx} == {"CNY": 0.13749}
    assert isinstance(fx, dict) and "CNY" in fx and fx.get("EUR") is None and list(fx.items()) == [("CNY", 0.13749)]
    merged = {**fx, "EUR": 1.1}                      # a copy is the caller's own, and changes
    merged["GBP"] = 1.3
    assert fx | {"EUR": 1.1} == {"CNY": 0.13749, "EUR": 1.1} and fx.copy() == {"CNY": 0.13749}
    assert [*startup.onprem.cards, "x"][-1] == "x"
    assert json.dumps(fx) == '{"CNY": 0.13749}'
    assert yaml.safe_dump(fx) == yaml.dump(fx) == dump_yaml(fx) == "CNY: 0.13749\n"


def test_dumps_are_plain_and_read_back_to_an_equal_scenario(startup):
    data = startup.model_dump()
    assert type(data["fx"]) is dict and type(data["onprem"]["card_overrides"]) is dict
    data["fx"]["CNY"] = 0.2                          # a dump is the caller's to change (apply_overrides does)
    assert startup.fx == {"CNY": 0.13749}
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


# Setting a field in place raised pydantic's ValidationError "Instance is frozen" with a link to pydantic's docs,
# where a mapping's entry named itself and the override that changes it.
@pytest.mark.parametrize("get, field, value, path", [
    (lambda s: s, "horizon_months", 12, "horizon_months"),                                  # a top-level field
    (lambda s: s.onprem, "electricity_per_kwh", 0.2, "onprem.electricity_per_kwh"),         # a nested model's
    (lambda s: s.onprem.resale, "method", "none", "onprem.resale.method"),                  # two levels down
    (lambda s: s.workloads[0], "name", "training", "workloads.llm-finetune.name"),          # a list item's, by name
    (lambda s: s.onprem.card_overrides["a100-80gb-pcie"], "price", 12000,                   # a mapping entry's
     "onprem.card_overrides.a100-80gb-pcie.price"),
    (lambda s: s.onprem.existing["rtx-3060-12gb"], "count", 3, "onprem.existing.rtx-3060-12gb.count"),
    (lambda s: s.constraints, "max_cloud_share", 0.5, "constraints.max_cloud_share"),
], ids=["top-level", "nested", "nested-twice", "workload", "card-override", "owned-cards", "constraints"])
def test_setting_a_field_names_its_path_and_the_override_that_changes_it(startup, get, field, value, path):
    node = get(startup)
    before = getattr(node, field)
    with pytest.raises(ScenarioReadOnly) as info:
        setattr(node, field, value)
    change = f"{{'{path}': {value!r}}}"
    assert str(info.value) == (f"{path} is read-only: a validated scenario is frozen, so that no change skips its "
                               f"checks. Plan the change with plan(scenario, overrides={change}), or get a checked "
                               f"copy with apply_overrides(scenario, {change}) (model_copy(update=...) checks nothing)")
    assert getattr(node, field) == before
    assert getattr(get(apply_overrides(startup, {path: value})), field) == value   # the override given makes it


def test_a_field_s_refusal_is_a_planner_error_and_the_type_error_a_mapping_raises(startup):
    # one class for a field and a mapping entry: caught as PlannerError (as every library error) or TypeError
    for change in (lambda: setattr(startup.onprem, "pue", 1.2), lambda: startup.fx.__setitem__("CNY", 0.15)):
        with pytest.raises(ScenarioReadOnly) as info:
            change()
        assert isinstance(info.value, PlannerError) and isinstance(info.value, TypeError)


def test_a_custom_card_s_gpu_figure_is_named_by_its_card(startup):
    data = startup.model_dump(mode="json")
    data["onprem"]["custom_cards"] = {"quoted-48": {"gpu_specs": {"memory_gb": 48}, "price": 4000, "busy_watts": 350,
                                                    "idle_watts": 40, "life_years": 4}}
    s = load_scenario(data)
    with pytest.raises(ScenarioReadOnly, match=r"^onprem\.custom_cards\.quoted-48\.gpu_specs\.memory_gb is read-only: .*"
                                               r"overrides=\{'onprem\.custom_cards\.quoted-48\.gpu_specs\.memory_gb': 80\}"):
        s.onprem.custom_cards["quoted-48"].gpu_specs.memory_gb = 80
    changed = apply_overrides(s, {"onprem.custom_cards.quoted-48.gpu_specs.memory_gb": 80})
    assert changed.onprem.custom_cards["quoted-48"].gpu_specs.memory_gb == 80


def test_a_misspelt_field_gets_did_you_mean_and_deleting_a_field_is_refused_too(startup):
    with pytest.raises(ScenarioReadOnly) as info:
        startup.horizon = 12
    assert str(info.value) == ("horizon: no such field; did you mean horizon_months? It is read-only: a validated "
                               "scenario is frozen. Plan the change with plan(scenario, overrides={'horizon_months': "
                               "12}), or get a checked copy with apply_overrides(scenario, {'horizon_months': 12}) "
                               "(model_copy(update=...) checks nothing)")
    # deleting a field is refused too; the example override is the value it holds
    with pytest.raises(ScenarioReadOnly, match=r"^onprem\.power_cap_kw is read-only: .*overrides=\{'onprem\.power_cap_kw': 6\.0\}"
                                               r"\), or get"):
        del startup.onprem.power_cap_kw
    assert startup.onprem.power_cap_kw == 6.0


def test_where_a_model_sits_is_no_part_of_what_it_states(startup):
    # a card override alone equals, and hashes as, the same one in a scenario; scenarios that differ hash apart
    # (pydantic's hash of the base model, which has no field, made every scenario's hash 0)
    placed = startup.onprem.card_overrides["a100-80gb-pcie"]
    alone = CardOverride(**placed.model_dump())
    assert alone == placed and hash(alone) == hash(placed)
    other = apply_overrides(startup, {"horizon_months": 24})
    assert hash(other) != hash(startup) and hash(load_scenario_file(STARTUP)) == hash(startup)
