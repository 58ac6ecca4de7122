"""A key written without its colon is placed at its own line, once (a browser audit, 2026-12-06: `  pue 1.3` on line 15
was reported at line 16, the next key's, and `validate` listed 12 errors, one for each line from there on, as each
blanked line made PyYAML fail again on the next)."""

from __future__ import annotations

import pytest

from planner.errors import ScenarioError
from planner.scenario.loading import load_scenario_text

PUE_WITHOUT_COLON = """\
name: t
onprem:
  electricity_per_kwh: 0.2
  pue 1.3
  availability: 0.95
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "s.yaml")
    return caught.value.problems


def test_the_key_without_its_colon_is_the_one_problem_at_its_line_and_column():
    # line 4, the key after two spaces of indentation: column 3
    assert problems(PUE_WITHOUT_COLON) == [
        "s.yaml:4:3: YAML syntax: no ':' after the key on this line; did you mean 'pue: 1.3'?"]


def test_a_top_level_key_with_a_value_of_several_words():
    text = "name: t\ndescription this is a text\nworkloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n"
    assert problems(text) == [
        "s.yaml:2:1: YAML syntax: no ':' after the key on this line; did you mean 'description: this is a text'?"]
