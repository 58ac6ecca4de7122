"""Messages of a review of hostile input (2026-12-05) that named no place, or spoke Python: each problem is
at the line and column of the value that causes it, in the words the file uses."""

from __future__ import annotations

import pytest
from test_scenario_limits import HEAD, WORKLOAD
from test_scenario_limits import problems_of as problems

INVISIBLE = ("an invisible character, which no table of the plan shows; delete it (it often comes with text pasted "
             "from a web page or a chat)")


def test_an_override_currency_without_a_rate_is_reported_at_that_currency():
    # it was at 1:1, the top of the file, where no fx is
    text = HEAD + "onprem:\n  cards: [rtx-4090]\n  card_overrides:\n    rtx-4090: {price: 2000, currency: GBP}\n" + WORKLOAD
    assert problems(text) == [
        "s.yaml:7:39: fx: card 'rtx-4090' is priced in GBP; add its rate, e.g. fx: {GBP: <USD per 1 GBP>}"]


def test_a_catalog_card_in_another_currency_is_reported_where_it_is_listed():
    # the RTX 3060's catalog price is in yuan (planner/data/onprem_cards.csv); second in the list, column 21
    text = HEAD + "onprem:\n  cards: [rtx-4090, rtx-3060-12gb]\n" + WORKLOAD
    assert problems(text) == [
        "s.yaml:5:21: fx: card 'rtx-3060-12gb' is priced in CNY; add its rate, e.g. fx: {CNY: <USD per 1 CNY>}"]


def test_a_date_where_a_number_belongs_is_shown_as_written():
    text = HEAD + WORKLOAD.replace("gpu_hours_per_month: 100", "gpu_hours_per_month: 2026-01-01")
    # text by YAML 1.2's core schema, which has no dates (YAML 1.1 read a date: "got 2026-01-01 (YAML read it as a date)")
    assert problems(text) == ["s.yaml:5:36: workloads[0].gpu_hours_per_month: expected a number, got '2026-01-01'"]


def test_a_list_where_a_boolean_belongs_says_what_is_expected():
    text = HEAD + WORKLOAD.replace("reference_gpu: T4}", "reference_gpu: T4, interruptible: [1]}")
    # "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, interruptible: " is 74 characters
    assert problems(text) == ["s.yaml:5:75: workloads[0].interruptible: expected true or false, got [1]"]


def test_a_lone_surrogate_in_a_name_is_named_as_such():
    text = HEAD.replace("name: t", 'name: "\\ud800"') + WORKLOAD
    assert problems(text) == ["s.yaml:1:7: name: expected a text, got '\\ud800', which holds a lone surrogate: "
                              "no character"]


@pytest.mark.parametrize(("source", "hint"), [("SNAPSHOT", "snapshot"), ("'store '", "store"), ("snapshto", "snapshot")])
def test_a_misspelt_price_source_gets_did_you_mean(source, hint):
    [problem] = problems(HEAD.replace("{providers", f"{{source: {source}, providers") + WORKLOAD)
    assert problem.startswith("s.yaml:3:18: prices.source: expected snapshot, store or the path of an offers CSV; "
                              "file not found: ")
    assert problem.endswith(f"; did you mean '{hint}'?")


def test_an_empty_price_source_is_not_a_folder():
    [problem] = problems(HEAD.replace("{providers", "{source: '', providers") + WORKLOAD)
    assert problem == "s.yaml:3:18: prices.source: expected snapshot, store or the path of an offers CSV, got ''"


@pytest.mark.parametrize("name", ["'   '", '"\\t\\u2028"'])
def test_a_name_with_no_visible_character_is_refused(name):
    # spaces, a tab and a line separator: each reads as a blank table cell
    got = problems(HEAD + WORKLOAD.replace("name: a,", f"name: {name},"))
    assert got == [f"s.yaml:5:12: workloads[0].name: expected a name with a visible character, got "
                   f"{load_scenario_repr(name)}"]


def test_a_name_of_a_zero_width_space_is_refused_naming_it():
    # an invisible format character is refused in any name (scenario.model.Frozen._no_invisible_characters)
    got = problems(HEAD + WORKLOAD.replace("name: a,", 'name: "\\u200b",'))
    assert got == [f"s.yaml:5:12: workloads[0].name: zero-width space U+200B inside the value: {INVISIBLE}, got "
                   "'\\u200b'"]


def load_scenario_repr(yaml_text: str) -> str:
    """The repr of the text a YAML scalar holds, as the message shows it."""
    from planner.scenario import read_yaml_value

    return repr(read_yaml_value(yaml_text))


def test_names_that_differ_only_in_how_an_accent_is_typed_are_one_name():
    # é as one character (U+00E9) and as e + a combining acute accent (U+0301): the same on every screen
    second = "  - {name: \"e\\u0301\", gpu_hours_per_month: 100, reference_gpu: T4}\n"
    got = problems(HEAD + WORKLOAD.replace("name: a,", 'name: "\\u00e9",') + second)
    assert got == ["s.yaml:6:12: workloads[1].name: 'e\u0301' is the name of an earlier workload too; workload names "
                   "must be unique"]


@pytest.mark.parametrize(("field", "listed"), [
    ("providers", "[aws, aws]"), ("regions", "[us-east-1, us-east-1]"), ("purchase_options", "[spot, on_demand, spot]"),
])
def test_a_price_filter_listing_an_item_twice_is_refused(field, listed):
    # planned as if listed once; the warnings named the item twice ("aws (any region) or aws (any region)")
    head = HEAD.replace("prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}",
                        f"prices: {{{field}: {listed}}}")
    item = listed.strip("[]").split(", ")[0]
    column = len(f"prices: {{{field}: ") + 1   # where the list starts
    assert problems(head + WORKLOAD) == [f"s.yaml:3:{column}: prices.{field}: '{item}' is listed twice; list each once"]


def test_a_card_listed_twice_is_refused():
    got = problems(HEAD + "onprem: {cards: [rtx-4090, rtx-a5000, rtx-4090]}\n" + WORKLOAD)
    assert got == ["s.yaml:4:17: onprem.cards: 'rtx-4090' is listed twice; list each once"]


def test_a_custom_card_id_with_no_visible_character_is_refused():
    # its baselines read "only  " and its rows a blank card column
    text = HEAD + ("onprem:\n  custom_cards:\n    \"\\u200b\": {gpu: T4, price: 1000, busy_watts: 70, idle_watts: 10,"
                   " life_years: 4}\n") + WORKLOAD
    got = problems(text)
    # an invisible format character in it is refused first (scenario.model.Frozen._no_invisible_characters)
    assert got == [f"s.yaml:6:5: onprem.custom_cards: zero-width space U+200B inside the key: {INVISIBLE}"]
