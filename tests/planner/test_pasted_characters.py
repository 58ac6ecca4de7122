"""Characters pasted from a web page or a word processor that look like a space or show as nothing, or that
editors show inside a line where YAML ends it: a non-breaking space (U+00A0) is a letter to YAML, and NEL,
U+2028 and U+2029 end a YAML line. Each gave a wall of errors on the lines below ("could not find expected ':'"
on lines 9-28 for one after a colon on line 8), none naming the character. Now it is one problem at its line and
column, saying what it is; where it is text (in quotes, between an unquoted value's words, in a comment) it is
kept.

The places are counted here by hand: lines split at line feeds only, columns in characters, as an editor
counts them."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from planner.cli import app
from planner.errors import ScenarioError
from planner.scenario import parse_value
from planner.scenario.loading import check_scenario_text, read_yaml_value

NBSP = "\u00a0"

LINES = [
    "# Entry tier: a student or a two-person team.",                       # 1
    "#",                                                                     # 2
    "# One cheap card, or cloud GPUs by the hour?",                          # 3
    "#",                                                                     # 4
    "name: Entry",                                                           # 5
    "description: Datasets under 10 GB; RTX 3060 versus cloud by the hour",  # 6
    "currency: USD",                                                         # 7
    "horizon_months: 24",                                                    # 8
    "discount_rate: 0.0",                                                    # 9
    "fx: {CNY: 0.14}               # USD per 1 CNY",                         # 10
    "prices:",                                                               # 11
    "  source: snapshot",                                                    # 12
    "  providers: [aws, azure]",                                             # 13
    "  regions: [us-east-1, eastus]",                                        # 14
    "  purchase_options: [on_demand, spot]",                                 # 15
    "onprem:",                                                               # 16
    "  electricity_per_kwh: 0.15   # household tariff",                      # 17
    "  pue: 1.0",                                                            # 18
    "  availability: 0.95",                                                  # 19
    "  cards: [rtx-3060-12gb, rtx-4060-ti-16gb]",                            # 20
    "  capex_budget: 1500",                                                  # 21
    "workloads:",                                                            # 22
    "  - name: coursework",                                                  # 23
    "    gpu_hours_per_month: 120",                                          # 24
    "    reference_gpu: RTX-3060-12GB",                                      # 25
    "    min_gpu_memory_gb: 8",                                              # 26
    "    profile: business_hours",                                           # 27
    "    interruptible: true",                                               # 28
    "    interruption_overhead: 0.15",                                       # 29
    "    throughput_metric: fp32_tflops",                                    # 30
]

# a second ": " on a line (`name: a: b`), as validate says it
COLON_IN_VALUE = ("a `key: value` cannot start here: a value holding ': ' needs quotes (e.g. name: 'a: b'), "
                  "or this key belongs on a line of its own")


def problems(lines: list[str]) -> list[str]:
    return check_scenario_text("\n".join(lines) + "\n", "s.yaml").problems


def changed(line: int, text: str) -> list[str]:
    """LINES with line `line` (1-based) replaced by `text`."""
    lines = list(LINES)
    lines[line - 1] = text
    return lines


def test_the_file_loads_as_written():
    assert problems(LINES) == []


def test_a_non_breaking_space_after_a_colon_is_one_problem_at_it():
    # "horizon_months:" is 15 characters: the non-breaking space is column 16 of line 8
    assert problems(changed(8, f"horizon_months:{NBSP}24")) == [
        "s.yaml:8:16: non-breaking space U+00A0: YAML does not read it as a space; use a normal space"]


@pytest.mark.parametrize(("char", "name"), [("\u2028", "line separator U+2028"), ("\u2029", "paragraph separator U+2029"),
                                            ("\x85", "next line character (NEL) U+0085")])
def test_a_line_break_editors_do_not_show_in_an_unquoted_value_is_one_problem_at_its_line(char, name):
    # "description: Datasets under 10 GB; RTX" is 38 characters: the separator is column 39 of line 6
    line = LINES[5].replace("RTX 3060", f"RTX{char}3060")
    assert problems(changed(6, line)) == [
        f"s.yaml:6:39: {name}: YAML ends a line there, editors do not show one; use a space or a normal line break"]


def test_non_breaking_spaces_as_indentation_are_one_problem_not_an_unknown_key():
    # they were "electricity_per_kwh: unknown key" at the top level and four "expected <block end>" below
    assert problems(changed(17, f"{NBSP}{NBSP}electricity_per_kwh: 0.15")) == [
        "s.yaml:17:1: non-breaking space U+00A0: YAML does not read it as a space; use a normal space "
        "(and 1 more such character on this line)"]


def test_a_line_separator_in_a_comment_is_refused_at_it():
    # YAML ended the comment there and read "tariff" as a value of its own
    line = "  electricity_per_kwh: 0.15   # household\u2028tariff"
    assert problems(changed(17, line)) == [
        f"s.yaml:17:{line.index(chr(0x2028)) + 1}: line separator U+2028: YAML ends a line there, editors do not "
        "show one; use a space or a normal line break"]


@pytest.mark.parametrize(("number", "line", "column", "name"), [
    (17, f"  electricity_per_kwh: 0.15{NBSP}# household tariff", 28, "non-breaking space U+00A0"),  # the comment a value
    (20, f"  cards: [rtx-3060-12gb,{NBSP}rtx-4060-ti-16gb]", 25, "non-breaking space U+00A0"),      # a card " rtx-…"
    (7, f"currency: USD{NBSP}", 14, "non-breaking space U+00A0"),                                   # 'USD ', no code
    (7, "currency:\u200b USD", 10, "zero-width space U+200B"),
])
def test_a_pasted_character_where_yaml_needs_a_space_is_refused_at_it(number, line, column, name):
    [problem] = problems(changed(number, line))
    assert problem.startswith(f"s.yaml:{number}:{column}: {name}: "), problem


def test_pasted_characters_that_are_text_are_kept():
    lines = changed(6, f'description: "Datasets{NBSP}under 10{NBSP}GB"')
    lines[4] = f"name: Entry{NBSP}tier"                          # between an unquoted value's words
    lines[16] = f"  electricity_per_kwh: 0.15   #{NBSP}household"  # in a comment
    checked = check_scenario_text("\n".join(lines) + "\n", "s.yaml")
    assert checked.problems == []
    assert checked.scenario.description == f"Datasets{NBSP}under 10{NBSP}GB"
    assert checked.scenario.name == f"Entry{NBSP}tier"


def test_a_pasted_character_and_a_syntax_error_elsewhere_are_both_at_their_lines():
    lines = changed(8, f"horizon_months:{NBSP}24")
    lines[17] = "  pue: 1.0: 2"   # line 18: "  pue: 1.0" is 10 characters, the second colon column 11
    assert problems(lines) == [   # the syntax error first (tests/planner/test_yaml_cascades.py)
        f"s.yaml:18:11: YAML syntax: {COLON_IN_VALUE}",
        "s.yaml:8:16: non-breaking space U+00A0: YAML does not read it as a space; use a normal space"]


def test_validate_exits_2_with_the_one_problem(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("\n".join(changed(8, f"horizon_months:{NBSP}24")) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "s.yaml:8:16: non-breaking space U+00A0" in said, said
    assert "could not find expected ':'" not in said and "Traceback" not in said


def test_a_short_yaml_text_refuses_it_at_its_place_as_it_refuses_a_nul():
    # what the dashboard checks an upload with before validating it, and a --vary value
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        read_yaml_value(f"a: 1\nb:{NBSP}2\n")
    assert caught.value.problem.startswith("non-breaking space U+00A0")
    assert (caught.value.problem_mark.line, caught.value.problem_mark.column) == (1, 2)
    assert read_yaml_value(f"a: 'x{NBSP}y'") == {"a": f"x{NBSP}y"}


def test_a_sweep_value_with_one_is_refused_at_its_column():
    # it was the text '[rtx-4090, l40s]' ("expected a list"): YAML's flow list with a card named " l40s"
    with pytest.raises(ScenarioError) as caught:
        parse_value(f"[rtx-4090,{NBSP}l40s]")
    assert caught.value.problems == [
        "'[rtx-4090,\\xa0l40s]': column 11: non-breaking space U+00A0: YAML does not read it as a space; "
        "use a normal space"]
    assert parse_value(f"'a{NBSP}b'") == f"a{NBSP}b"


# In a | or > block a line's content starts at the block's indentation (the spaces before its first line): a
# non-breaking space after those is the line's first letter; one in place of them still ends the block.
@pytest.mark.parametrize(("name_lines", "name"), [
    (["name: |", f"  {NBSP}Entry", "  tier"], f"{NBSP}Entry\ntier\n"),
    (["name: >-", f"  {NBSP}Entry", f"  {NBSP}{NBSP}tier"], f"{NBSP}Entry {NBSP}{NBSP}tier"),
    (["name: |2", f"  {NBSP}Entry"], f"{NBSP}Entry\n"),
])
def test_a_non_breaking_space_starting_a_block_line_is_text(name_lines, name):
    lines = LINES[:4] + name_lines + LINES[5:]
    checked = check_scenario_text("\n".join(lines) + "\n", "s.yaml")
    assert checked.problems == []
    assert checked.scenario.name == name


@pytest.mark.parametrize(("name_lines", "line", "column"), [
    (["name: |", f"{NBSP}Entry"], 6, 1),                    # no space before it: the block is empty, Entry a key
    (["name: |", "  Entry", f" {NBSP}tier"], 7, 2),          # the block is indented 2: it ends at the line indented 1
])
def test_a_non_breaking_space_in_place_of_a_block_indentation_is_refused_at_it(name_lines, line, column):
    lines = LINES[:4] + name_lines + LINES[5:]
    assert problems(lines) == [
        f"s.yaml:{line}:{column}: non-breaking space U+00A0: YAML does not read it as a space; use a normal space"]
