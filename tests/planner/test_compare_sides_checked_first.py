"""compare refuses what needs no solve before it solves either side (an audit, 2026-12-07): two scenarios in
different currencies were both solved (2.5 s) before "cannot compare plans in USD and EUR"; and of two files that
do not load, only the first one's problems were said. The expected messages are written out by hand."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from planner import PlannerError, compare
from tests.planner.cli_run import run

compare_module = importlib.import_module("planner.reports.compare")   # the package's name is the function

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"   # currency: USD
DIFFERENT = ("cannot compare plans in different currencies: a ({a}) is in USD, b ({b}) in EUR; plan both in the same "
             "currency (a scenario's `currency`, with `fx` rates for the prices in others)")


@pytest.fixture
def in_euros(tmp_path) -> Path:
    """entry.yaml in EUR, with the rates of its cards' and the cloud's currencies (it validates)."""
    path = tmp_path / "eur.yaml"
    text = ENTRY.read_text(encoding="utf-8").replace("currency: USD", "currency: EUR")
    path.write_text(text.replace("fx: {CNY: 0.14}", "fx: {CNY: 0.13, USD: 0.92}"), encoding="utf-8")
    assert run("validate", path).exit_code == 0
    return path


@pytest.fixture
def nothing_read_or_solved(monkeypatch):
    """Reading a side's prices or solving it fails the test."""
    def refused(*args, **kwargs):
        raise AssertionError("a side was priced or solved before the refusal")
    monkeypatch.setattr(compare_module, "checked_inputs", refused)
    monkeypatch.setattr(compare_module, "plan", refused)


def test_the_cli_refuses_sides_in_two_currencies_before_solving_naming_each_file(in_euros, nothing_read_or_solved):
    result = run("compare", ENTRY, in_euros)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == "error: " + DIFFERENT.format(a=ENTRY, b=in_euros)


def test_the_library_refuses_them_before_solving_too(in_euros, nothing_read_or_solved):
    with pytest.raises(PlannerError) as info:
        compare(ENTRY, in_euros)
    assert str(info.value) == DIFFERENT.format(a=ENTRY, b=in_euros)


def test_the_problems_of_both_files_are_said(tmp_path, nothing_read_or_solved):
    typo, dup = tmp_path / "typo.yaml", tmp_path / "dup.yaml"
    typo.write_text("name: x\nhorizn_months: 12\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    dup.write_text("name: x\nname: y\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    result = run("compare", typo, dup)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == (
        f"error: {typo}: 1 problem {typo}:2:1: horizn_months: unknown key; did you mean 'horizon_months'? "
        f"error: {dup}: 1 problem {dup}:2:1: duplicate key 'name' (first on line 1); YAML keeps only the last — "
        "remove one")


def test_one_file_that_does_not_load_is_said_alone(tmp_path, nothing_read_or_solved):
    missing = tmp_path / "missing.yaml"
    result = run("compare", ENTRY, missing)
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.count("error:") == 1 and str(missing) in result.stderr
