"""A scenario's messages give the line and column an editor shows. YAML also ends a line at NEL (U+0085),
LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029) — text pasted from a web page or a word processor
carries them inside quoted strings — while editors (VS Code, vim, Emacs) show them inside a line. Every
place after one was reported a line too far down.

The expected places are counted here by hand: lines split at line feeds only, columns counted in
characters, the separator one character of its line, as an editor counts it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

runner = CliRunner()


def validate(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "s.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())   # rich's wrapping undone


def editor_place(lines: list[str], needle: str) -> str:
    """'line:column' of the first `needle`, as an editor counts them (lines split at line feeds only)."""
    for number, text in enumerate(lines, start=1):
        if needle in text:
            return f"{number}:{text.index(needle) + 1}"
    raise AssertionError(needle)


def scenario(description: str) -> list[str]:
    return [
        "name: pasted",                                   # 1
        f'description: "{description}"',                  # 2
        "currency: USD",                                  # 3
        "horizon_month: 12",                              # 4: misspelt
        "onprem:",                                        # 5
        "  cards: [rtx-4090]",                            # 6
        "workloads:",                                     # 7
        "  - name: w",                                    # 8
        "    gpu_hours_per_month: 100",                   # 9
        "    reference_gpu: RTX-4090",                    # 10
    ]


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_key_after_a_line_separator_in_a_string_is_placed_on_the_editors_line(tmp_path, separator):
    lines = scenario(f"our plan{separator}pasted from the wiki")
    said = validate(tmp_path, lines)
    assert "s.yaml:4:1: horizon_month: unknown key; did you mean 'horizon_months'?" in said, said


def test_a_file_without_such_characters_is_placed_as_before(tmp_path):
    said = validate(tmp_path, scenario("our plan"))
    assert "s.yaml:4:1: horizon_month: unknown key" in said, said


def test_two_separators_on_one_line_move_no_later_line(tmp_path):
    lines = scenario("one\u2028two\u2029three")
    lines[9] = "    reference_gpu: RTX-4909"   # line 10: unknown GPU
    said = validate(tmp_path, lines)
    assert "s.yaml:4:1: horizon_month: unknown key" in said, said
    assert f"s.yaml:{editor_place(lines, 'RTX-4909')}: workloads[0].reference_gpu: unknown GPU 'RTX-4909'" in said, said


def test_the_column_after_a_separator_on_the_same_line_counts_the_whole_editor_line(tmp_path):
    # a flow mapping on one editor line: the misspelt key follows the separator on that line
    lines = scenario("ok")
    lines[7:10] = ['  - {name: "tr\u2028aining", gpu_hours_per_monht: 100, reference_gpu: RTX-4090}']
    said = validate(tmp_path, lines)
    assert f"s.yaml:{editor_place(lines, 'gpu_hours_per_monht')}: workloads[0].gpu_hours_per_monht: unknown key" in said, said


def test_a_syntax_error_after_a_separator_is_on_the_editors_line(tmp_path):
    lines = scenario("our plan\u2028pasted")
    lines[2] = "currency: USD: EUR"   # line 3: a mapping value where none may start
    said = validate(tmp_path, lines)
    assert f"s.yaml:{editor_place(lines, ': EUR')}: YAML syntax: a `key: value` cannot start here" in said, said


def test_a_duplicate_key_after_a_separator_names_both_editor_lines(tmp_path):
    lines = scenario("our plan\x85pasted")
    lines[3] = "horizon_months: 12"
    lines.append("currency: EUR")   # line 11, the first on line 3
    said = validate(tmp_path, lines)
    assert "s.yaml:11:1: duplicate key 'currency' (first on line 3)" in said, said


def test_a_refused_character_after_a_separator_is_on_the_editors_line(tmp_path):
    lines = scenario("our plan\u2029pasted")
    lines[3] = "horizon_months: 1\x002"   # line 4: NUL, which YAML refuses
    said = validate(tmp_path, lines)
    assert f"s.yaml:{editor_place(lines, chr(0))}: YAML syntax: unacceptable character \\x00" in said, said


def validate_bytes(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "s.yaml"
    path.write_bytes(data)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def test_a_byte_order_mark_is_no_column_before_a_separator_on_the_first_line(tmp_path):
    # editors hide the mark: the misspelt key's column is counted in the line without it
    line = '{name: "a\u2028b", horizon_monht: 12, workloads: []}'
    said = validate_bytes(tmp_path, ("\ufeff" + line + "\n").encode("utf-8"))
    assert f"s.yaml:1:{line.index('horizon_monht') + 1}: horizon_monht: unknown key" in said, said


def test_windows_line_ends_count_once_and_a_separator_still_not(tmp_path):
    lines = scenario("our plan\u2028pasted")
    said = validate_bytes(tmp_path, "\r\n".join(lines).encode("utf-8") + b"\r\n")
    assert "s.yaml:4:1: horizon_month: unknown key" in said, said
