"""A YAML syntax error is said in a user's words, at the line and column to edit, and the field errors that only
the broken parse made up are left out (a review, 2026-12-07: "mapping values are not allowed here" for a line
indented one space too far; the line after a key without its ':' named instead of that key's; a tab, a quote or a
bracket left open followed by "required field is missing" for fields written below the broken line)."""

from __future__ import annotations

import pytest

from planner.scenario.loading import check_scenario_text

SCENARIO = [
    "name: t",                                  # 1
    "horizon_months: 12",                       # 2
    "prices:",                                  # 3
    "  source: snapshot",                       # 4
    "  providers: [aws]",                       # 5
    "  regions: [us-east-1]",                   # 6
    "onprem:",                                  # 7
    "  electricity_per_kwh: 0.15",              # 8
    "  pue: 1.3",                               # 9
    "  cards: [rtx-4090]",                      # 10
    "workloads:",                               # 11
    "  - name: a",                              # 12
    "    gpu_hours_per_month: 100",             # 13
    "    reference_gpu: A100-80GB-PCIE",        # 14
    "  - name: b",                              # 15
    "    gpu_hours_per_month: 50",              # 16
    "    reference_gpu: A100-80GB-PCIE",        # 17
]


def problems(changes: dict[int, str]) -> list[str]:
    """The problems of SCENARIO with its lines (1-based) changed as given."""
    lines = list(SCENARIO)
    for number, text in changes.items():
        lines[number - 1] = text
    return check_scenario_text("\n".join(lines) + "\n", "s.yaml").problems


def test_the_scenario_unchanged_loads():
    assert problems({}) == []


def test_a_key_indented_one_space_too_far_is_said_at_its_line_in_plain_words():
    # the brief's case: `     reference_gpu` (5 spaces) under `    gpu_hours_per_month: 100` (4): YAML reads it as
    # more of the value 100; the line to edit is 14, from its first character (column 6)
    got = problems({14: "     reference_gpu: A100-80GB-PCIE"})
    assert len(got) == 1, got
    assert got[0].startswith("s.yaml:14:6: YAML syntax: a `key: value` cannot start here: this line is indented more "
                             "than the key 'gpu_hours_per_month' above it (line 13)"), got
    assert "mapping values" not in got[0]


def test_a_second_colon_in_a_value_says_to_quote_it_at_the_colon():
    # `  pue: 1.3: 2`: the second ': ' at column 11 (2 spaces + "pue: 1.3" is 10 characters)
    got = problems({9: "  pue: 1.3: 2"})
    assert got == ["s.yaml:9:11: YAML syntax: a `key: value` cannot start here: a value holding ': ' needs quotes "
                   "(e.g. name: 'a: b'), or this key belongs on a line of its own"]


@pytest.mark.parametrize(("number", "text", "meant"), [
    (1, "name t", "name: t"),                           # PyYAML finds out at line 2's colon
    (4, "  source snapshot", "source: snapshot"),       # … at line 5's
    (12, "  - name a", "- name: a"),                    # … at line 13's
])
def test_a_key_without_its_colon_is_said_at_its_own_line_not_the_next(number, text, meant):
    got = problems({number: text})
    column = len(text) - len(text.lstrip(" -")) + 1
    assert got == [f"s.yaml:{number}:{column}: YAML syntax: no ':' after the key on this line; did you mean '{meant}'?"]


@pytest.mark.parametrize(("number", "text", "said"), [
    # the first key of a block one space further in than the two below it: PyYAML fails at the next line
    (4, "   source: snapshot", "s.yaml:4:4: YAML syntax: this line is indented 1 space more than the keys below it "
                               "(lines 5 and 6) of the same block: line it up with them"),
    (4, " source: snapshot", "s.yaml:4:2: YAML syntax: this line is indented 1 space less than the keys below it "
                             "(lines 5 and 6) of the same block: line it up with them"),
    (8, "   electricity_per_kwh: 0.15", "s.yaml:8:4: YAML syntax: this line is indented 1 space more than the keys "
                                        "below it (lines 9 and 10) of the same block: line it up with them"),
    # the first item of a list a space off the next item's dash (line 15, column 3)
    (12, "   - name: a", "s.yaml:12:4: YAML syntax: this line is indented 1 space more than the next item's dash "
                         "(line 15) of the same block: line it up with them"),
    (12, " - name: a", "s.yaml:12:2: YAML syntax: this line is indented 1 space less than the next item's dash "
                       "(line 15) of the same block: line it up with them"),
])
def test_the_first_line_of_a_block_indented_astray_is_the_line_said(number, text, said):
    assert problems({number: text}) == [said]


@pytest.mark.parametrize("changes", [
    {1: "\tname: t"},
    {7: "\tonprem:"},                                # its block's keys read as prices' ("belongs under onprem")
    {11: "\tworkloads:"},                            # "workloads: required field is missing"
    {11: " workloads:"},
    {12: "\t- name: a"},                             # "workloads: expected a list"
    {13: "\tgpu_hours_per_month: 100"},              # "gpu_hours_per_month: required: one of …"
    {14: "\treference_gpu: A100-80GB-PCIE"},         # "reference_gpu: required field is missing"
    {14: "   reference_gpu: A100-80GB-PCIE"},        # dedented: the same
    {15: "\t- name: b"},                             # the two items merged: "duplicate key"
    {15: "   - name: b"},
    {15: " - name: b"},
    {15: "  - name: b: x"},
    {15: '  - name: "b'},                            # a quote left open
    {13: "    gpu_hours_per_month 100"},             # no colon: "gpu_hours_per_month: required: one of …"
    {1: 'name: "t'},
    {3: "prices: {source: snapshot, providers: [aws], regions: [us-east-1]", 4: "", 5: "", 6: ""},   # a { left open
])
def test_a_syntax_error_is_the_only_problem_where_the_rest_is_right(changes):
    got = problems(changes)
    assert len(got) == 1 and ": YAML syntax: " in got[0], got
    assert got[0].startswith(f"s.yaml:{min(changes)}:"), got


def test_a_tab_is_said_in_words():
    (got,) = problems({13: "\tgpu_hours_per_month: 100"})
    assert got == "s.yaml:13:1: YAML syntax: a tab here — indent with spaces: YAML does not allow tabs"


def test_a_field_really_missing_is_still_said_beside_a_tab():
    # the tab-indented line sets reference_gpu; the second workload lacks its gpu_hours_per_month for real
    got = problems({14: "\treference_gpu: A100-80GB-PCIE", 16: "    interruptible: true"})
    assert len(got) == 2 and got[0].startswith("s.yaml:14:1: YAML syntax: a tab here"), got
    assert got[1].startswith("s.yaml:15:5: workloads[1].gpu_hours_per_month: required"), got


def test_a_value_of_the_wrong_shape_after_a_syntax_error_says_it_may_follow_from_it():
    # `  name: a` with its dash left out: workloads is read as a mapping, and the item's next lines are too far in
    got = problems({12: "  name: a"})
    # the syntax error first (tests/planner/test_yaml_cascades.py), though on the line below
    assert got[0].startswith("s.yaml:13:5: YAML syntax: a `key: value` cannot start here: this line is indented more "
                             "than the key 'name' above it (line 12)"), got
    assert got[-1] == ("s.yaml:12:3: workloads: expected a list, got {'name': 'a'} (this may follow from the YAML "
                       "syntax error on line 13: fix that first)"), got


def test_the_files_first_line_indented_is_the_line_said():
    # one space: read at column 1 like the keys below it, no error for each of them
    got = problems({1: " name: t"})
    assert got == ["s.yaml:1:2: YAML syntax: this line is indented 1 space more than the keys below it (lines 2 and 3) "
                   "of the same block: line it up with them"]
    assert problems({1: "  name: t"}) == [
        "s.yaml:1:3: YAML syntax: this line is indented 2 spaces more than the keys below it (lines 2 and 3) of the same "
        "block: line it up with them"]
    # the first two lines: one error, at the first, naming both (not at line 3, where YAML finds out, and each
    # top-level key after it; tests/planner/test_yaml_cascades.py)
    got = problems({1: "  name: t", 2: "  horizon_months: 12"})
    assert got == ["s.yaml:1:3: YAML syntax: lines 1–2 are indented 2 spaces, but the file's top-level keys start at "
                   "column 1 (as on line 3): take the spaces off lines 1–2"], got


@pytest.mark.parametrize("opened", ["[", "{"])
def test_a_bracket_left_open_in_a_list_item_is_one_problem_where_it_opens(opened):
    # `  - name: [a`: the item's next keys (column 5, as `name`) are not inside the bracket: one problem, at the
    # bracket (column 11), not one more for each of the item's lines
    got = problems({12: f"  - name: {opened}a"})
    assert len(got) == 1 and got[0].startswith(f"s.yaml:12:11: YAML syntax: the {opened} opened here is not closed "
                                               "before line 13"), got
