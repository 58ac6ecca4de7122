"""A line blanked after a YAML syntax error (so the rest of the file is still checked) is not also reported
as a required field that is missing, and a list item's other lines stay one item (a review's known problem,
2026-12-04: `name: a: b` gave the syntax error and "name: required field is missing")."""

from __future__ import annotations

import pytest

from planner.errors import ScenarioError
from planner.scenario import load_scenario_text

WORKLOAD = """workloads:
  - name: train
    gpu_hours_per_month: 100
    reference_gpu: A100-80GB-PCIE
"""

# a second ": " on a line (`name: a: b`), as validate says it
COLON_IN_VALUE = ("a `key: value` cannot start here: a value holding ': ' needs quotes (e.g. name: 'a: b'), "
                  "or this key belongs on a line of its own")


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as exc:
        load_scenario_text(text, origin="s.yaml")
    return exc.value.problems


def test_a_syntax_error_on_the_name_line_is_the_only_problem():
    assert problems("name: a: b\n" + WORKLOAD) == [
        f"s.yaml:1:8: YAML syntax: {COLON_IN_VALUE}"]


def test_a_syntax_error_on_a_workloads_name_line_keeps_the_item_whole():
    text = WORKLOAD.replace("  - name: train", "  - name: train: big")
    assert problems("name: ok\n" + text) == [
        f"s.yaml:3:16: YAML syntax: {COLON_IN_VALUE}"]


def test_a_field_that_is_really_missing_is_still_reported_beside_a_syntax_error():
    # the broken line sets horizon_months; name is on no line at all
    got = problems("horizon_months: a: b\n" + WORKLOAD)
    assert got[0] == f"s.yaml:1:18: YAML syntax: {COLON_IN_VALUE}"
    assert any(p.endswith("name: required field is missing") and "workloads" not in p for p in got), got


def test_a_broken_line_hides_no_field_missing_elsewhere():
    # the top-level name is on no line; the blanked line set a workload's name, at another column
    got = problems("workloads:\n  - name: a: b\n    gpu_hours_per_month: 100\n    reference_gpu: A100-80GB-PCIE\n")
    assert got == [f"s.yaml:2:12: YAML syntax: {COLON_IN_VALUE}",   # the syntax error first
                   "s.yaml:1:1: name: required field is missing"]
    # a second workload without a name is reported though the first one's name line was blanked
    text = "name: ok\n" + WORKLOAD.replace("  - name: train", "  - name: train: big")
    got = problems(text + "  - gpu_hours_per_month: 5\n    reference_gpu: A100-80GB-PCIE\n")
    assert got == [f"s.yaml:3:16: YAML syntax: {COLON_IN_VALUE}",
                   "s.yaml:6:5: workloads[1].name: required field is missing"]


@pytest.mark.parametrize("text", ["name: x\nhorizon_months: 12\n  - a: b: c\n" + WORKLOAD,
                                  "name: x\nhorizon_months: 12\n  # a comment\n  - a: b: c\n" + WORKLOAD])
def test_a_broken_item_under_a_plain_value_is_blanked_whole(text):
    # its dash kept would join the value above: "horizon_months: expected a whole number, got '12 -'"
    got = problems(text)
    assert len(got) == 1 and "YAML syntax" in got[0], got


def test_a_line_that_is_only_a_broken_item_ends_with_its_syntax_error():
    got = problems("name: x\nworkloads:\n  - - : : ]\n")
    assert len(got) == 1 and got[0].startswith("s.yaml:3:") and "YAML syntax" in got[0]


def test_a_check_of_a_blanked_fields_value_is_not_reported_either():
    # the demand line is broken: "required: one of gpu_hours_per_month, …" only restated its absence
    text = "name: x\n" + WORKLOAD.replace("gpu_hours_per_month: 100", "gpu_hours_per_month: 100: 3")
    assert problems(text) == [f"s.yaml:4:29: YAML syntax: {COLON_IN_VALUE}"]
    # with the line gone for good, the same file is told what it lacks
    gone = problems("name: x\n" + WORKLOAD.replace("    gpu_hours_per_month: 100\n", ""))
    assert len(gone) == 1 and "workloads[0].gpu_hours_per_month: required: one of" in gone[0]


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quoted_key_on_a_broken_line_is_its_key(quote):
    assert problems(f"{quote}name{quote}: a: b\n" + WORKLOAD) == [
        f"s.yaml:1:10: YAML syntax: {COLON_IN_VALUE}"]


# --- a key indented too far, a quote or bracket left open (a review, 2026-12-05) ---------------------

WORKLOAD_FLOW = "  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"


@pytest.mark.parametrize("indent", ["  ", "\t"])
def test_a_key_indented_too_far_is_not_also_missing(indent):
    # `workloads:` indented under top-level keys: the line's error, and no "workloads: required field is missing"
    got = problems(f"name: x\nhorizon_months: 12\n{indent}workloads:\n" + WORKLOAD_FLOW)
    assert got and all("required field is missing" not in p for p in got), got
    assert got[0].startswith("s.yaml:3:")


def test_a_key_of_a_nested_item_does_not_stand_for_a_missing_top_level_one():
    # the blanked line sets a workload's name, inside the workloads list: the file's own name is still missing
    got = problems("horizon_months: 12\nworkloads:\n  - name: a: b\n    gpu_hours_per_month: 1\n"
                   "    reference_gpu: T4\n")
    assert got == [f"s.yaml:3:12: YAML syntax: {COLON_IN_VALUE}",   # the syntax error first
                   "s.yaml:1:1: name: required field is missing"]


def test_a_quote_left_open_is_reported_where_it_opens():
    # PyYAML finds the end of the file still inside the quote
    assert problems('name: "x\nhorizon_months: 12\nworkloads:\n' + WORKLOAD_FLOW) == [
        "s.yaml:1:7: YAML syntax: the quote opened here is never closed: the file ends first"]


def test_a_bracket_left_open_is_reported_where_it_opens_and_the_rest_is_read():
    got = problems("name: x\nhorizon_months: 12\nprices: {providers: [aws\nworkloads:\n" + WORKLOAD_FLOW
                   + "discount_rate: 9\n")
    assert got[0] == ("s.yaml:3:21: YAML syntax: the [ opened here is not closed before line 4 (expected ',' or "
                      "']', but got ':')")
    # the lines after it are read: the discount rate out of range is found at its own line
    assert any(p.startswith("s.yaml:6:16: discount_rate:") for p in got), got


def test_an_error_inside_a_bracket_closed_later_is_reported_where_it_is():
    # the { of line 3 is closed on line 4, whose stray word is the mistake: no "opened here" for it
    got = problems("name: x\nhorizon_months: 12\nprices: {providers: [aws], regions: [us-east-1],\n"
                   "         purchase_options: [on_demand] spot}\n" + "workloads:\n" + WORKLOAD_FLOW)
    assert got[0].startswith("s.yaml:4:40: YAML syntax: expected ',' or '}', but got '<scalar>'"), got
    assert not any("opened here" in p for p in got)
    assert len(got) == len(set(got))          # no problem said twice


def test_a_blanked_first_line_of_a_nested_mapping_does_not_stand_for_a_missing_top_level_key():
    # the blanked `  name: a: b` lies between `onprem:` and the mapping's next key: onprem's, not the file's
    got = problems("onprem:\n  name: a: b\n  cards: [rtx-4090]\nworkloads:\n" + WORKLOAD_FLOW)
    assert got[1] == "s.yaml:1:1: name: required field is missing", got   # after the syntax error
