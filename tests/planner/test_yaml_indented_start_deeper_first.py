"""A scenario whose first line is indented further than the next (`    name: x` over `  horizon_months: 12`) is one
YAML error at line 1 saying what was expected, where it was two: "a key cannot start here" at line 2 (whose value was
then lost) and then "line 1 is indented 4 spaces" once line 2 was blanked. loading._indented_start took the file's first
line to be the least indented of the lines above the key PyYAML stopped at. The texts expected are written out by hand;
the values read (name x, horizon 12, the nested pue 1.3) are those the text gives."""

from __future__ import annotations

from planner.scenario.loading import check_scenario_text

WORKLOADS = "workloads:\n  - {name: a, gpu_hours_per_month: 10, reference_gpu: RTX-4090}\n"
READ_WORKLOADS = [{"name": "a", "gpu_hours_per_month": 10, "reference_gpu": "RTX-4090"}]


def test_four_spaces_then_two_over_a_key_at_column_1_are_one_error_at_line_1():
    checked = check_scenario_text("    name: x\n  horizon_months: 12\n" + WORKLOADS, "s.yaml")
    assert checked.problems == ["s.yaml:1:5: YAML syntax: lines 1–2 are indented 4 spaces, then 2 from line 2, but the "
                                "file's top-level keys start at column 1 (as on line 3): take the spaces off lines 1–2"]
    assert checked.data == {"name": "x", "horizon_months": 12, "workloads": READ_WORKLOADS}   # line 2 not lost


def test_the_lines_under_an_indented_start_keep_their_blocks():
    text = "    name: x\n    onprem:\n      pue: 1.3\n  horizon_months: 12\n  constraints:\n    max_cloud_share: 0.5\n"
    checked = check_scenario_text(text + "# a comment at column 1\n" + WORKLOADS, "s.yaml")
    assert checked.problems == ["s.yaml:1:5: YAML syntax: lines 1–6 are indented 4 spaces, then 2 from line 4, but the "
                                "file's top-level keys start at column 1 (as on line 8): take the spaces off lines 1–6"]
    assert checked.data == {"name": "x", "onprem": {"pue": 1.3}, "horizon_months": 12,
                            "constraints": {"max_cloud_share": 0.5}, "workloads": READ_WORKLOADS}


def test_without_a_line_at_column_1_the_first_line_is_told_to_line_up_with_the_next_key():
    checked = check_scenario_text("    name: x\n  horizon_months: 12\n", "s.yaml")
    syntax = [p for p in checked.problems if "YAML syntax" in p]
    assert syntax == ["s.yaml:1:5: YAML syntax: line 1 is indented 4 spaces, but the next top-level key (line 2) is "
                      "indented 2: the file's top-level keys all start at one column: take 2 spaces off line 1"]
    # the one other problem is the text's own: it has no workloads
    assert [p for p in checked.problems if p not in syntax] == ["s.yaml:1:3: workloads: required field is missing"]
    assert checked.data == {"name": "x", "horizon_months": 12}
