"""A profile line with more cells than its header names is refused, naming the file and line (an audit, 2026-12:
`10,3,5` under hour,weight, 3.5 typed with a decimal comma, was read as the weight 5 and validated; the plan's total
moved with no warning). Cells are read with CSV quoting: `10,"1,5"` is the hour 10 and the cell 1,5, as written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from planner.errors import ScenarioError
from planner.scenario import load_scenario_file
from planner.scenario.profile_csv import read_profile_csv

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
# a night-heavy week: 4.0 in hours 0-8 of each day, 1.0 otherwise (the audit's night.csv)
NIGHT = np.where(np.arange(168) % 24 < 9, 4.0, 1.0)


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        read_profile_csv(path)
    return info.value.problems


def hour_weight_lines(changed: dict[int, str]) -> list[str]:
    """`hour,weight` then the night week's 168 lines `h,w`, hour h's line replaced by changed[h] (file line h + 2)."""
    return ["hour,weight", *(changed.get(h, f"{h},{NIGHT[h]}") for h in range(168))]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_decimal_commas_under_hour_weight_are_refused_at_their_lines_not_read_as_5_and_75(tmp_path):
    csv = write(tmp_path / "pq5.csv", hour_weight_lines({10: "10,3,5", 11: "11,2,75"}))
    assert problems_of(csv) == [
        f"{csv}:12: '10,3,5' reads as 3 cells, 1 more than the header 'hour,weight' names; if '3,5' is one number "
        f"with a decimal comma, write a decimal point (3.5)",
        f"{csv}:13: '11,2,75' reads as 3 cells, 1 more than the header 'hour,weight' names; if '2,75' is one number "
        f"with a decimal comma, write a decimal point (2.75)"]


def test_an_extra_column_on_one_line_is_refused_not_read_as_its_last_cell(tmp_path):
    csv = write(tmp_path / "w.csv", hour_weight_lines({10: "10,3.5,2"}))
    assert problems_of(csv) == [f"{csv}:12: '10,3.5,2' reads as 3 cells, 1 more than the header 'hour,weight' "
                                f"names; expected one cell for each column"]


def test_a_decimal_comma_under_day_hour_weight_is_refused(tmp_path):
    lines = ["day,hour,weight", *(f"{k // 24},{k % 24},{NIGHT[k]}" for k in range(168))]
    lines[1 + 10] = "0,10,3,5"   # Monday 10:00, line 12
    csv = write(tmp_path / "w.csv", lines)
    assert problems_of(csv) == [f"{csv}:12: '0,10,3,5' reads as 4 cells, 1 more than the header 'day,hour,weight' "
                                f"names; if '3,5' is one number with a decimal comma, write a decimal point (3.5)"]


def test_without_a_header_a_line_wider_than_the_others_is_refused(tmp_path):
    lines = [f"{h},{NIGHT[h]}" for h in range(168)]
    lines[20] = "20,1,25"
    csv = write(tmp_path / "w.csv", lines)
    assert problems_of(csv) == [f"{csv}:21: '20,1,25' reads as 3 cells, 1 more than most lines hold; if '1,25' is "
                                f"one number with a decimal comma, write a decimal point (1.25)"]


def test_a_quoted_decimal_comma_is_named_as_written_and_refused(tmp_path):
    # the cell was split at its comma: the message quoted '5"', a stray quote, not what the user wrote
    csv = write(tmp_path / "w.csv", hour_weight_lines({10: '10,"1,5"'}))
    assert problems_of(csv) == [f"{csv}:12: expected a number with a decimal point, got '1,5', a decimal comma: "
                                f"write a decimal point (1.5)"]


def test_quoted_cells_are_read_as_their_text(tmp_path):
    # a spreadsheet that quotes every cell: "10","4.0" is the hour 10 and the weight 4.0
    csv = write(tmp_path / "w.csv", ['"hour","weight"', *(f'"{h}","{NIGHT[h]}"' for h in range(168))])
    assert read_profile_csv(csv) == NIGHT.tolist()


def test_validate_refuses_the_decimal_comma_line_naming_the_profile_line(tmp_path):
    write(tmp_path / "pq5.csv", hour_weight_lines({10: "10,3,5"}))
    scenario = tmp_path / "s.yaml"
    scenario.write_text(WORKED.read_text(encoding="utf-8").replace("profile: flat", "profile: pq5.csv")
                        .replace("source: offers-g5-us-east-1.csv", "source: snapshot"), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(scenario)
    # the worked example's profile value is on line 28, column 14
    assert info.value.problems == [
        f"{scenario}:28:14: workloads[0].profile: pq5.csv:12: '10,3,5' reads as 3 cells, 1 more than the header "
        f"'hour,weight' names; if '3,5' is one number with a decimal comma, write a decimal point (3.5)"]
