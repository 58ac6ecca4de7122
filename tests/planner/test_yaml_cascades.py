"""An indentation or list mistake is said once, at the line to edit, with no cascade of errors after it, and a YAML
syntax error comes before the field problems (a review, 2026-12-07: `name:` and `description:` indented two spaces
gave 20 errors about lines 3 to 42; a workload's `- ` left out gave six "duplicate key" errors; "name: required field
is missing" at line 1 was listed before the syntax error that made it).

Each case is the shipped scenarios/startup-hybrid.yaml with one mistake made in it. Its lines, counted by hand: 1-6 a
comment, 7 `name:`, 8 `description:`, 9 `currency:`, 10 `horizon_months:`, 11 `discount_rate:`, 12 `fx:`, 13
`prices:` (14 `  source:`), 18 `onprem:` (20 `  pue: 1.4`), 32 `workloads:`, 33 `  - name: llm-finetune`, 46
`  - name: prototyping` (its keys on 47-53 at column 5), 54 `constraints:`, 57 lines in all."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.scenario.loading import check_scenario_text, in_file_order

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8").splitlines()


def test_the_shipped_file_is_as_counted():
    # the line numbers below are worked out from this layout: say so plainly if the file changes
    assert len(SHIPPED) == 57
    assert all(SHIPPED[k].startswith("#") for k in range(6))
    assert [SHIPPED[k].split(":")[0] for k in (6, 7, 8, 9, 12, 17, 31, 53)] == [
        "name", "description", "currency", "horizon_months", "prices", "onprem", "workloads", "constraints"]
    assert SHIPPED[19].startswith("  pue: 1.4")
    assert (SHIPPED[32], SHIPPED[45]) == ("  - name: llm-finetune", "  - name: prototyping")
    assert all(SHIPPED[k].startswith("    ") and not SHIPPED[k].startswith("     ") for k in range(46, 53))
    assert check_scenario_text("\n".join(SHIPPED) + "\n", "s.yaml").problems == []


def problems(lines: list[str]) -> list[str]:
    return check_scenario_text("\n".join(lines) + "\n", "s.yaml").problems


def without_header() -> list[str]:
    """The shipped file without its six comment lines: `name:` is line 1, `description:` 2, `currency:` 3,
    `horizon_months:` 4, `discount_rate:` 5, `prices:` 7 (`  source:` 8), `  pue: 1.4` 14."""
    return SHIPPED[6:]


# --- the file's first lines indented -----------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "said"), [
    (2, "s.yaml:1:3: YAML syntax: lines 1–2 are indented 2 spaces, but the file's top-level keys start at column 1 "
        "(as on line 3): take the spaces off lines 1–2"),
    (3, "s.yaml:1:3: YAML syntax: lines 1–3 are indented 2 spaces, but the file's top-level keys start at column 1 "
        "(as on line 4): take the spaces off lines 1–3"),
])
def test_the_files_first_lines_indented_are_one_error_at_the_first(count, said):
    lines = without_header()
    lines[:count] = ["  " + text for text in lines[:count]]
    assert problems(lines) == [said]


def test_the_first_lines_indented_after_a_byte_order_mark_are_one_error_too():
    # a Windows editor's UTF-8 file begins with one: no column, so `  name:` still starts at column 3
    lines = without_header()
    lines[:2] = ["\ufeff  " + lines[0], "  " + lines[1]]
    assert problems(lines) == ["s.yaml:1:3: YAML syntax: lines 1–2 are indented 2 spaces, but the file's top-level keys "
                               "start at column 1 (as on line 3): take the spaces off lines 1–2"]


def test_the_first_lines_indented_below_a_comment_are_said_at_their_own_lines():
    # the comment above them is no line to edit: `name:` (7) and `description:` (8), top-level keys from line 9
    lines = list(SHIPPED)
    lines[6:8] = ["  " + text for text in lines[6:8]]
    assert problems(lines) == ["s.yaml:7:3: YAML syntax: lines 7–8 are indented 2 spaces, but the file's top-level keys "
                               "start at column 1 (as on line 9): take the spaces off lines 7–8"]


def test_a_single_indented_first_line_is_one_error_too():
    # `  name:` over `description:` and `currency:` at column 1
    lines = without_header()
    lines[0] = "  " + lines[0]
    got = problems(lines)
    assert len(got) == 1 and got[0].startswith("s.yaml:1:3: YAML syntax: "), got
    # `  name:` over `prices:`, whose keys are indented: line 2 opens a block, so the two lines below line 1 do not
    # share its meant indentation; still one error, at line 1 (the `fx:` the cards priced in CNY need moved to the end)
    lines = ["  " + SHIPPED[6], *SHIPPED[12:], SHIPPED[11]]
    assert problems(lines) == ["s.yaml:1:3: YAML syntax: line 1 is indented 2 spaces, but the file's top-level keys "
                               "start at column 1 (as on line 2): take the spaces off line 1"]


# --- a list item's dash left out ---------------------------------------------------------------------------------

DASH_LEFT_OUT = ("s.yaml:46:5: YAML syntax: a new list item needs its dash: the keys from line 46 on repeat those of "
                 "the item above (started on line 33), so YAML reads them as that item's keys given twice; write "
                 "`  - name: prototyping`")


def test_a_list_items_dash_left_out_is_one_error_at_its_first_line():
    lines = list(SHIPPED)
    lines[45] = "    name: prototyping"
    assert problems(lines) == [DASH_LEFT_OUT]


def test_two_items_without_their_dash_are_one_error_each():
    # a third workload after line 53, also without its dash: lines 54-56, the item above it started on line 46
    lines = [*SHIPPED[:53], "    name: third", "    gpu_hours_per_month: 10", "    reference_gpu: RTX-A5000",
             *SHIPPED[53:]]
    lines[45] = "    name: prototyping"
    assert problems(lines) == [
        DASH_LEFT_OUT,
        "s.yaml:54:5: YAML syntax: a new list item needs its dash: the keys from line 54 on repeat those of the item "
        "above (started on line 46), so YAML reads them as that item's keys given twice; write `  - name: third`"]


def test_a_key_really_given_twice_is_still_a_duplicate_key():
    # a second top-level `onprem:` after the last line (58): first on line 18; beside a dash left out, said after it
    lines = [*SHIPPED, "onprem:", "  pue: 1.3"]
    duplicate = "s.yaml:58:1: duplicate key 'onprem' (first on line 18); YAML keeps only the last — remove one"
    assert problems(lines) == [duplicate]
    lines[45] = "    name: prototyping"
    assert problems(lines) == [DASH_LEFT_OUT, duplicate]


def test_a_name_given_twice_right_under_the_dash_is_a_duplicate_key():
    # `  - name: prototyping` then `    name: other` (line 47, for its gpu_hours_per_month): no key of the item
    # between them, as likely the name given twice as an item's dash left out
    lines = list(SHIPPED)
    lines[46] = "    name: other"
    got = problems(lines)
    assert "s.yaml:47:5: duplicate key 'name' (first on line 46); YAML keeps only the last — remove one" in got, got
    assert not any("needs its dash" in p for p in got), got


# --- syntax errors first -----------------------------------------------------------------------------------------


def test_syntax_errors_come_before_the_field_problems_each_in_line_order():
    lines = without_header()
    lines[0] = "# the name left out"                     # name missing: said at the first key, description (2, 1)
    lines[4] = "discount_rate: lots"                     # "discount_rate: " is 15 characters: the value at (5, 16)
    lines[7] = "  source snapshot"                       # no ':' (8, 3)
    lines[13] = "  pue 1.4"                              # no ':' (14, 3)
    got = problems(lines)
    assert got[:2] == ["s.yaml:8:3: YAML syntax: no ':' after the key on this line; did you mean 'source: snapshot'?",
                       "s.yaml:14:3: YAML syntax: no ':' after the key on this line; did you mean 'pue: 1.4'?"], got
    assert got[2] == "s.yaml:2:1: name: required field is missing", got
    assert len(got) == 4 and got[3].startswith("s.yaml:5:16: discount_rate: "), got


def test_in_file_order_puts_syntax_errors_first_then_the_rest_each_by_place():
    # the CLI's `validate` orders a file's problems with it (with the price checks' of a file that does not load)
    given = ["f:9:1: a", "f:12:3: YAML syntax: b", "f: c", "f:1:1: d", "f:4:2: YAML syntax: e", "f:9:1: a"]
    assert in_file_order(given) == ["f:4:2: YAML syntax: e", "f:12:3: YAML syntax: b", "f: c", "f:1:1: d", "f:9:1: a"]
