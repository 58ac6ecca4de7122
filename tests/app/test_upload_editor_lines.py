"""An uploaded scenario's refusals (checked before validation: a syntax error, a profile naming a file) give
the line and column an editor shows, as the loader's messages do (tests/planner/test_yaml_editor_lines.py):
YAML and str.splitlines() also end a line at NEL, U+2028 and U+2029, editors do not. Places are counted
here by hand: lines split at line feeds only, the separator one character of its line."""

from __future__ import annotations

import pytest

from fleetplan_dashboard import state

LINES = [
    "name: pasted",                                 # 1
    'description: "our plan\u2028from the wiki"',    # 2
    "currency: USD",                                # 3
    "workloads:",                                   # 4
    "  - name: w",                                  # 5
    "    gpu_hours_per_month: 100",                 # 6
    "    reference_gpu: RTX-4090",                  # 7
]


def upload(lines: list[str]) -> list[str]:
    scenario, problems, _ = state.read_upload("up.yaml", ("\n".join(lines) + "\n").encode("utf-8"))
    assert scenario is None and problems
    return problems


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_syntax_error_after_a_separator_is_refused_at_the_editors_line(separator):
    lines = [line.replace("\u2028", separator) for line in LINES]
    lines[2] = "currency: USD: EUR"   # line 3
    (problem,) = upload(lines)
    assert problem.startswith(f"up.yaml:3:{lines[2].index(': EUR') + 1}: YAML syntax"), problem


def test_a_profile_naming_a_file_after_a_separator_is_refused_at_the_editors_line():
    lines = [*LINES, "    profile: /etc/passwd"]   # line 8
    problems = upload(lines)
    assert any(p.startswith("up.yaml:8:1: workloads[0].profile: an uploaded scenario can use only") for p in problems), \
        problems
