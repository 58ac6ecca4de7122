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


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as exc:
        load_scenario_text(text, origin="s.yaml")
    return exc.value.problems


def test_a_syntax_error_on_the_name_line_is_the_only_problem():
    assert problems("name: a: b\n" + WORKLOAD) == [
        "s.yaml:1:8: YAML syntax: mapping values are not allowed here — check the indentation"]


def test_a_syntax_error_on_a_workloads_name_line_keeps_the_item_whole():
    text = WORKLOAD.replace("  - name: train", "  - name: train: big")
    assert problems("name: ok\n" + text) == [
        "s.yaml:3:16: YAML syntax: mapping values are not allowed here — check the indentation"]


def test_a_field_that_is_really_missing_is_still_reported_beside_a_syntax_error():
    # the broken line sets horizon_months; name is on no line at all
    got = problems("horizon_months: a: b\n" + WORKLOAD)
    assert got[0] == "s.yaml:1:18: YAML syntax: mapping values are not allowed here — check the indentation"
    assert any(p.endswith("name: required field is missing") and "workloads" not in p for p in got), got


def test_a_line_that_is_only_a_broken_item_is_blanked_whole_and_the_check_ends():
    got = problems("name: x\nworkloads:\n  - - : : ]\n")
    assert len(got) == 1 and got[0].startswith("s.yaml:3:") and "YAML syntax" in got[0]
