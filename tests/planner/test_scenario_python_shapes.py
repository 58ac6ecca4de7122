"""A scenario given in Python is checked as its file would be, whatever shapes its values come in (an audit, 2026-12-06):
the catalog's name checks read lists and dicts only, so a tuple (as `model_dump` gives every list), a Workload object, a
MappingProxyType, a set or a numpy array got past them — a GPU misspelt in a throughput table planned to a silent wrong
total, a misspelt card or framework raised a raw KeyError in the engine, a misspelt profile said "[Errno 2]". The
loader now makes the data plain once (loading.plain_data) before any check. Each typo below is refused with the words
the list form gets; each correct form plans to the list form's total; a scenario's own dump loads back to it."""

from __future__ import annotations

import copy
import json
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from planner import ScenarioError, load_scenario, plan, sweep

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
G5_OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"

# what the list form of each typo is told (the catalog's did-you-mean; these names are in gpus.csv, onprem_cards.csv,
# frameworks.csv and the built-in profiles)
THROUGHPUT_TYPO = "workloads[0].throughput.H100-SXMM: unknown GPU 'H100-SXMM'; did you mean 'H100-SXM'?"
CARD_TYPO = "unknown card 'rtx-4900'; did you mean 'rtx-4090'?"
FRAMEWORK_TYPO = "workloads[0].framework: unknown framework 'tensorflw'; did you mean 'tensorflow'?"
REFERENCE_TYPO = "workloads[0].reference_gpu: unknown GPU 'A100-80GB-PCI'; did you mean 'A100-80GB-PCIE'?"
PROFILE_TYPO = "workloads[0].profile: expected one of flat, business_hours, deadline_peaks or a .csv file, got " \
               "'busines_hours'; did you mean 'business_hours'?"
OVERRIDE_TYPO = "onprem.card_overrides.a100-80gb-pice: unknown card 'a100-80gb-pice'; did you mean 'a100-80gb-pcie'?"
MIN_UNITS_TYPO = "constraints.min_units.a100-80gb-pice: unknown card 'a100-80gb-pice'; did you mean 'a100-80gb-pcie'?"


@pytest.fixture(scope="module")
def startup():
    return load_scenario(STARTUP)


def _as_lists(scenario) -> dict:
    """The scenario's data as a file's YAML holds it: lists and dicts only."""
    return json.loads(json.dumps(scenario.model_dump(mode="json", exclude_unset=True)))


def _problems(data) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    return info.value.problems


# each typo given with `seq` for its lists and `mapping` for its mappings: list and dict as a file's YAML gives them,
# or tuple and MappingProxyType


def _throughput_typo(d, seq, mapping):
    d["workloads"][0]["throughput"] = mapping({"A100-80GB-PCIE": 1.0, "H100-SXMM": 2.4})


def _card_typo(d, seq, mapping):
    d["onprem"]["cards"] = seq([*d["onprem"]["cards"], "rtx-4900"])


def _framework_typo(d, seq, mapping):
    d["workloads"][0]["framework"] = "tensorflw==2.12"


def _reference_typo(d, seq, mapping):
    d["workloads"][0]["reference_gpu"] = "A100-80GB-PCI"


def _profile_typo(d, seq, mapping):
    d["workloads"][0]["profile"] = "busines_hours"


def _override_typo(d, seq, mapping):
    d["onprem"]["card_overrides"] = mapping({**d["onprem"]["card_overrides"], "a100-80gb-pice": {"price": 1}})


def _min_units_typo(d, seq, mapping):
    d["constraints"]["min_units"] = mapping({"a100-80gb-pice": 1})


TYPOS = [(_throughput_typo, THROUGHPUT_TYPO), (_card_typo, CARD_TYPO), (_framework_typo, FRAMEWORK_TYPO),
         (_reference_typo, REFERENCE_TYPO), (_profile_typo, PROFILE_TYPO), (_override_typo, OVERRIDE_TYPO),
         (_min_units_typo, MIN_UNITS_TYPO)]


@pytest.mark.parametrize(("typo", "said"), TYPOS, ids=[t.__name__ for t, _ in TYPOS])
def test_a_typo_in_a_dump_with_tuples_is_refused_as_in_lists(startup, typo, said):
    dumped = startup.model_dump(exclude_unset=True)   # its lists are tuples
    assert isinstance(dumped["workloads"], tuple) and isinstance(dumped["onprem"]["cards"], tuple)
    typo(dumped, tuple, types.MappingProxyType)
    as_lists = _as_lists(startup)
    typo(as_lists, list, dict)
    problems = _problems(dumped)
    assert problems == _problems(as_lists)
    assert len(problems) == 1 and said in problems[0], problems


def test_a_typo_in_a_tuple_of_workloads_is_refused_as_in_a_list(startup):
    data = _as_lists(startup)
    _throughput_typo(data, list, dict)
    in_a_tuple = {**data, "workloads": tuple(data["workloads"])}
    assert _problems(in_a_tuple) == _problems(data) == [f"<dict>: {THROUGHPUT_TYPO}"]


@pytest.mark.parametrize(("update", "said"), [({"throughput": {"A100-80GB-PCIE": 1.0, "H100-SXMM": 2.4}}, THROUGHPUT_TYPO),
                                              ({"framework": "tensorflw==2.12"}, FRAMEWORK_TYPO),
                                              ({"reference_gpu": "A100-80GB-PCI"}, REFERENCE_TYPO),
                                              ({"profile": "busines_hours"}, PROFILE_TYPO)])
def test_a_typo_in_a_workload_object_is_refused(startup, update, said):
    # model_copy(update=…) checks nothing: the object must be read as the dict of its fields
    changed = startup.workloads[0].model_copy(update=update)
    data = {**_as_lists(startup), "workloads": [changed, startup.workloads[1]]}
    assert _problems(data) == [f"<dict>: {said}"]


def test_a_key_no_field_is_in_a_copied_workload_is_refused(startup):
    changed = startup.workloads[0].model_copy(update={"profle": "flat"})
    problems = _problems({**_as_lists(startup), "workloads": [changed, startup.workloads[1]]})
    assert problems == ["<dict>: workloads[0].profle: unknown key; did you mean 'profile'?"]


@pytest.mark.parametrize("cards", [np.array(["rtx-4090", "rtx-4900"]), pd.Series(["rtx-4090", "rtx-4900"]),
                                   iter(["rtx-4090", "rtx-4900"]), [b"rtx-4090", b"rtx-4900"]],
                         ids=["ndarray", "Series", "iterator", "bytes"])
def test_a_card_typo_in_any_list_pydantic_reads_is_refused(startup, cards):
    data = _as_lists(startup)
    data["onprem"]["cards"] = cards
    assert _problems(data) == [f"<dict>: onprem.cards[1]: {CARD_TYPO}"]


def test_a_card_typo_in_a_set_is_refused(startup):
    data = _as_lists(startup)
    data["onprem"]["cards"] = {"rtx-4900"}
    assert _problems(data) == [f"<dict>: onprem.cards[0]: {CARD_TYPO}"]


def test_a_card_typo_in_a_tuple_override_is_refused(startup):
    for given in (("rtx-3060-12gb", "rtx-4900"), ["rtx-3060-12gb", "rtx-4900"]):
        with pytest.raises(ScenarioError) as info:
            plan(startup, overrides={"onprem.cards": given}, baselines=False)
        assert info.value.problems == [f"onprem.cards[1]: {CARD_TYPO}"]


def test_a_card_typo_in_a_tuple_swept_is_refused(startup):
    with pytest.raises(ScenarioError) as info:
        sweep(startup, vary={"onprem.cards": [("rtx-3060-12gb", "rtx-4900")]})
    assert f"onprem.cards[1]: {CARD_TYPO}" in str(info.value)


def test_a_mapping_proxy_is_a_scenario(startup):
    data = _as_lists(startup)
    assert load_scenario(types.MappingProxyType(data)) == load_scenario(data) == startup


def test_a_mapping_that_holds_itself_is_refused_with_its_field(startup):
    data = _as_lists(startup)
    cards = ["rtx-4090"]
    cards.append(cards)
    data["onprem"]["cards"] = cards
    assert _problems(data) == ["<dict>: onprem.cards[1]: the value holds itself (a list or mapping inside itself); "
                               "no scenario value can"]


def test_a_value_nested_too_deep_is_refused(startup):
    data = _as_lists(startup)
    deep: list = []
    data["onprem"]["cards"] = deep
    for _ in range(10_000):   # the model's own check recursed past Python's limit: a RecursionError
        deep.append([])
        deep = deep[0]
    problems = _problems(data)
    assert problems == ["<dict>: onprem.cards[0][0][0][0]: the value is nested more than 100 deep; no scenario "
                        "value is"]


@pytest.fixture(scope="module")
def list_total(startup):
    return plan(_as_lists(startup), baselines=False).total


@pytest.mark.parametrize("shape", ["model_dump", "model_dump_unset", "model_dump_json", "workload_objects",
                                   "mapping_proxies", "tuple_of_workloads"])
def test_every_correct_shape_plans_to_the_list_forms_total(startup, list_total, shape):
    data = {"model_dump": lambda: startup.model_dump(),
            "model_dump_unset": lambda: startup.model_dump(exclude_unset=True),
            "model_dump_json": lambda: startup.model_dump(mode="json"),
            "workload_objects": lambda: {**_as_lists(startup), "workloads": list(startup.workloads)},
            "mapping_proxies": lambda: types.MappingProxyType(
                {**_as_lists(startup), "fx": types.MappingProxyType(dict(startup.fx)),
                 "onprem": types.MappingProxyType(_as_lists(startup)["onprem"])}),
            "tuple_of_workloads": lambda: {**_as_lists(startup), "workloads": tuple(_as_lists(startup)["workloads"])},
            }[shape]()
    assert load_scenario(data) == startup
    assert plan(data, baselines=False).total == list_total


def test_a_tuple_of_cards_overridden_plans_as_the_list(startup):
    cards = ("rtx-3060-12gb", "rtx-4090", "a100-80gb-pcie")
    assert (plan(startup, overrides={"onprem.cards": cards}, baselines=False).total
            == plan(startup, overrides={"onprem.cards": list(cards)}, baselines=False).total)


def test_the_shipped_scenarios_load_back_from_their_dumps():
    files = sorted([*(ROOT / "scenarios").glob("*.yaml"), *(ROOT / "examples").glob("*.yaml")])
    assert files
    for path in files:
        scenario = load_scenario(path)
        for dumped in (scenario.model_dump(), scenario.model_dump(exclude_unset=True), scenario.model_dump(mode="json")):
            assert load_scenario(copy.deepcopy(dumped)) == scenario, path


def test_the_file_and_its_dumps_plan_alike(startup):
    from_file = plan(STARTUP, baselines=False)
    for dumped in (startup.model_dump(), startup.model_dump(exclude_unset=True)):
        again = plan(load_scenario(dumped), baselines=False)
        assert again.total == from_file.total
        assert again.fleet.equals(from_file.fleet)
        assert again.warnings == from_file.warnings


# --- prices.source given as a table ---------------------------------------------------------------------------------

SOURCE_SAID = ("prices.source: expected snapshot, store or the path of an offers CSV; got a pandas DataFrame (prices "
               "are read from a file: write the offers with offers.to_csv('offers.csv', index=False) and give that path)")


def test_an_offers_dataframe_as_the_source_is_refused_saying_how_to_give_it(startup):
    offers = pd.read_csv(G5_OFFERS)
    with pytest.raises(ScenarioError) as info:
        plan(startup, overrides={"prices.source": offers}, baselines=False)
    assert info.value.problems == [SOURCE_SAID]
    data = _as_lists(startup)
    data["prices"]["source"] = offers
    assert _problems(data) == [f"<dict>: {SOURCE_SAID}"]


def test_a_path_object_as_the_source_is_its_path(startup):
    data = _as_lists(startup)
    data["prices"]["source"] = G5_OFFERS
    assert load_scenario(data).prices.source == str(G5_OFFERS)


def test_a_dataframe_given_for_a_list_is_refused_as_what_it_is(startup):
    # pydantic read a DataFrame given for a list as its column labels: cards named 'a', a KeyError in the engine
    with pytest.raises(ScenarioError) as info:
        plan(startup, overrides={"onprem.cards": pd.DataFrame({"a": [1]})}, baselines=False)
    assert info.value.problems == ["onprem.cards: expected a list, got a pandas DataFrame"]


def test_a_typo_in_workload_objects_overridden_is_named_by_its_workload(startup):
    changed = startup.workloads[0].model_copy(update={"framework": "tensorflw==2.12"})
    for given in ((changed, startup.workloads[1]), [changed, startup.workloads[1]]):
        with pytest.raises(ScenarioError) as info:
            plan(startup, overrides={"workloads": given}, baselines=False)
        assert info.value.problems == ["workloads.llm-finetune.framework: unknown framework 'tensorflw'; did you mean "
                                       "'tensorflow'?"]


def test_an_override_that_holds_itself_is_refused():
    cards: list = ["rtx-4090"]
    cards.append(cards)
    with pytest.raises(ScenarioError) as info:
        plan(STARTUP, overrides={"onprem.cards": cards}, baselines=False)
    assert info.value.problems == ["onprem.cards: the value holds itself (a list or mapping inside itself); no scenario "
                                   "value can"]
