"""A card override may not leave the card's idle watts above its busy watts (an audit of the documented format,
2026-12): `card_overrides: {rtx-4090: {busy_watts: 0.45}}` — kW typed as W, below the catalog's idle 68 W —
validated, and the plan then ran the card 8,497 h a year for a demand of 3,600 h, since each busy hour cost
(0.45 − 68) W × PUE × price: less than idling. custom_cards refused idle above busy already; an override is
held to the same rule, against the catalog's figure for the one it leaves out (onprem_cards.csv: the RTX 4090
draws 810 W busy, 68 W idle)."""

from __future__ import annotations

import pydantic
import pytest
from test_scenario_limits import HEAD, WORKLOAD, problems_of

from planner.errors import ScenarioError
from planner.scenario import Scenario, apply_overrides, load_scenario_text

WORKS = "a card draws at least its idle power while working"


def with_override(fields: str) -> str:
    """A scenario whose rtx-4090 override is `{FIELDS}`, on line 7 from column 16."""
    return HEAD + f"onprem:\n  cards: [rtx-4090]\n  card_overrides:\n    rtx-4090: {{{fields}}}\n" + WORKLOAD


def test_busy_watts_typed_as_kilowatts_below_the_catalogs_idle_68_is_refused_with_450_suggested():
    # "    rtx-4090: {busy_watts: " is 27 characters; 0.45 kW is 450 W
    assert problems_of(with_override("busy_watts: 0.45")) == [
        "s.yaml:7:28: onprem.card_overrides.rtx-4090.busy_watts: busy_watts 0.45 is below the catalog's idle_watts 68; "
        f"{WORKS}; busy_watts is in W: did you mean 450?"]


def test_idle_watts_above_the_catalogs_busy_810_is_refused():
    assert problems_of(with_override("idle_watts: 900")) == [
        f"s.yaml:7:28: onprem.card_overrides.rtx-4090.idle_watts: idle_watts 900 is above the catalog's busy_watts 810; "
        f"{WORKS}"]


def test_both_watts_given_are_compared_with_each_other_as_a_custom_cards_are():
    # "    rtx-4090: {busy_watts: 50, idle_watts: " is 43 characters
    assert problems_of(with_override("busy_watts: 50, idle_watts: 60")) == [
        f"s.yaml:7:44: onprem.card_overrides.rtx-4090.idle_watts: idle_watts 60 is above busy_watts 50; {WORKS}"]


@pytest.mark.parametrize(("fields", "busy", "idle"), [
    ("busy_watts: 50, idle_watts: 10", 50, 10),   # both below the catalog's 68 W idle: the override's own pair
    ("busy_watts: 68", 68, None),                  # busy at the catalog's idle: allowed, as for custom cards
    ("idle_watts: 810", None, 810),
])
def test_watts_that_keep_idle_at_most_busy_are_the_cards(fields, busy, idle):
    override = load_scenario_text(with_override(fields)).onprem.card_overrides["rtx-4090"]
    assert (override.busy_watts, override.idle_watts) == (busy, idle)


def test_it_is_reported_with_the_other_problems_of_its_override():
    # a bad field of the override stops pydantic's checks of the whole onprem section, this one's too
    # "    rtx-4090: {price: " is 22 characters, "    rtx-4090: {price: -1, busy_watts: " 38
    text = with_override("price: -1, busy_watts: 0.45").replace("horizon_months: 12", "horizon_months: 0")
    assert problems_of(text) == [
        "s.yaml:2:17: horizon_months: expected a number ≥ 1, got 0",
        "s.yaml:7:23: onprem.card_overrides.rtx-4090.price: expected a number ≥ 0, got -1",
        "s.yaml:7:39: onprem.card_overrides.rtx-4090.busy_watts: busy_watts 0.45 is below the catalog's idle_watts 68; "
        f"{WORKS}; busy_watts is in W: did you mean 450?"]


def test_watts_out_of_bounds_are_reported_once_as_such():
    assert problems_of(with_override("busy_watts: -1")) == [
        "s.yaml:7:28: onprem.card_overrides.rtx-4090.busy_watts: expected a number ≥ 0, got -1"]


def test_the_model_and_an_override_path_refuse_it_too():
    data = {"name": "t", "onprem": {"card_overrides": {"rtx-4090": {"busy_watts": 0.45}}},
            "workloads": [{"name": "a", "gpu_hours_per_month": 100, "reference_gpu": "T4"}]}
    with pytest.raises(pydantic.ValidationError, match="busy_watts 0.45 is below the catalog's idle_watts 68"):
        Scenario.model_validate(data)
    scenario = load_scenario_text(HEAD + WORKLOAD)
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(scenario, {"onprem.card_overrides.rtx-4090.busy_watts": 0.45})
    assert any("onprem.card_overrides.rtx-4090.busy_watts: busy_watts 0.45 is below the catalog's idle_watts 68" in p
               for p in caught.value.problems)


def test_an_unknown_card_is_named_as_such_and_no_more():
    text = with_override("busy_watts: 50, idle_watts: 60").replace("    rtx-4090: {", "    rtx-409: {")
    assert problems_of(text) == [
        "s.yaml:7:5: onprem.card_overrides.rtx-409: unknown card 'rtx-409'; did you mean 'rtx-4090'?"]
