"""Each planner error with an __init__ of its own pickles as it was made (a sweep's process pool, a forked child
send errors so): pickle makes it again from its args, which hold only the message, so `SidesUnreadable` raised
"missing 'messages' and 'problems'" when read back, a ScenarioError came back with one problem per character of its
message, and a YamlRefused did not come back at all (review, 2026-12)."""

from __future__ import annotations

import pickle

import pytest
import yaml

from planner.errors import (
    ModelTooLarge,
    PlannerError,
    PricesRefuteScenario,
    ScenarioError,
    SolverFailed,
    TooManyPurchaseVariables,
)
from planner.reports.compare import SidesUnreadable, _DuplicateKey
from planner.scenario.loading import YamlRefused


def _made() -> list[BaseException]:
    """One of each error class with its own __init__ (found by walking planner's modules, 2026-12)."""
    side_a, side_b = ScenarioError(["a.yaml:3:1: horizon_months: expected a number ≥ 1, got 0"], "a.yaml"), \
        PlannerError("b.json: not a plan")
    return [
        ScenarioError(["s.yaml:2:7: currency: 'EURO' is no currency code", "s.yaml:4:1: name: missing"], "s.yaml"),
        SidesUnreadable({"a": side_a, "b": side_b}, ["m1", "m2"], ["x", "y"]),
        ModelTooLarge(40, 25, 500, "plan fewer workloads", "a: "),
        TooManyPurchaseVariables((10, 2, 3, 4, 5), 12, "plan fewer months"),
        PricesRefuteScenario("no offer in region eastus2", ("prices", "regions", 1)),
        SolverFailed("highs", "cbc", "status 7"),
        YamlRefused(yaml.Mark("s.yaml", 10, 2, 4, None, None), "YAML nested deeper than 64 levels"),
        _DuplicateKey("status"),
    ]


@pytest.mark.parametrize("error", _made(), ids=lambda e: type(e).__name__)
def test_an_error_pickles_with_its_message_and_its_attributes(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert set(vars(back)) == set(vars(error))
    for name, value in vars(error).items():
        if isinstance(value, dict):   # SidesUnreadable's errors: each side's error, by its message
            assert {k: str(v) for k, v in vars(back)[name].items()} == {k: str(v) for k, v in value.items()}
        elif isinstance(value, yaml.Mark):
            assert (back.mark.name, back.mark.line, back.mark.column) == (value.name, value.line, value.column)
        else:
            assert vars(back)[name] == value, name


def test_sides_unreadable_comes_back_with_both_messages_and_problems():
    error = SidesUnreadable({"a": ScenarioError(["x"]), "b": PlannerError("y")}, ["m1", "m2"], ["x", "y"])
    back = pickle.loads(pickle.dumps(error))
    assert str(back) == "m1\nm2"
    assert (back.messages, back.problems, back.origin, back.exit_code) == (["m1", "m2"], ["x", "y"], "compare", 2)


def test_a_scenario_error_comes_back_with_its_problems_not_its_characters():
    back = pickle.loads(pickle.dumps(ScenarioError(["s.yaml:1:1: name: missing"], "s.yaml")))
    assert str(back) == "s.yaml: 1 problem\n  s.yaml:1:1: name: missing"
    assert back.args == ("s.yaml: 1 problem\n  s.yaml:1:1: name: missing",)
