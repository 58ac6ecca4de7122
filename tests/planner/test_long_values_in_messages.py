"""A pasted file where a name belongs: the message names the field, the limit and the length, and shows
the first characters of what was given, never the whole of it (a 40,000-character name came back whole)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from planner.cli import app


def _validate(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return CliRunner().invoke(app, ["validate", str(path)])


def test_a_name_of_40000_characters_is_named_with_its_length_not_repeated(tmp_path):
    name = "L" * 40_000
    result = _validate(tmp_path, f"name: x\nworkloads:\n  - name: {name}\n    gpu_hours_per_month: 10\n"
                                 "    reference_gpu: A100-80GB-PCIE\n")
    assert result.exit_code == 2
    line = next(x for x in result.output.splitlines() if "workloads[0].name" in x)
    assert ":3:" in line and "at most 200 characters" in line and "(40,000 characters)" in line
    assert "L" * 61 not in line and len(line) < 300


def test_an_unknown_card_id_of_5000_characters_is_cut_in_every_message(tmp_path):
    card = "k" * 5_000
    result = _validate(tmp_path, f"name: x\nonprem:\n  cards: [{card}]\nworkloads:\n  - name: w\n"
                                 "    gpu_hours_per_month: 10\n    reference_gpu: A100-80GB-PCIE\n")
    assert result.exit_code == 2
    assert "k" * 61 not in result.output
    assert "unknown card 'kkkk" in result.output and "(5,000 characters)" in result.output


def test_a_number_of_999_digits_is_cut_as_a_text_is(tmp_path):
    # a review (2026-12-05): "expected a number ≤ 120, got 9999…" printed all 999 digits
    result = _validate(tmp_path, f"name: x\nhorizon_months: {'9' * 999}\nworkloads:\n  - name: w\n"
                                 "    gpu_hours_per_month: 10\n    reference_gpu: A100-80GB-PCIE\n")
    assert result.exit_code == 2
    [line] = [x for x in result.output.splitlines() if "horizon_months" in x]
    assert line.endswith(f"horizon_months: expected a number ≤ 120, got {'9' * 60}… (999 characters)")


@pytest.mark.parametrize("option", ["--region", "--provider", "--option", "--fx"])
def test_an_offers_filter_of_120000_characters_is_not_echoed_whole(option):
    # each was echoed whole (--fx twice: 240 KB of error message)
    value = "A1" * 60_000
    result = CliRunner().invoke(app, ["offers", option, value])
    assert result.exit_code == 2
    assert f"{option} '{'A1' * 30}'… (120,000 characters)" in result.stderr
    assert len(result.stderr) < 400, result.stderr
