"""CSV profiles (168 hourly weights): one set of rules for `validate` and `plan`, each bad line named with
`file:line`, and weights of any size scaled to mean 1 without overflow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.engine.profiles import weekly_weights
from planner.errors import ScenarioError
from planner.scenario import load_scenario_file
from planner.scenario.profile_csv import read_profile_csv

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
runner = CliRunner()


def scenario_with_profile(folder: Path, lines: list[str], profile: str = "w.csv") -> Path:
    """The worked example in `folder` on the packaged prices, with its workload's profile `profile`, a CSV of
    `lines` written next to it. The worked example's `profile: flat` is on line 28, column 14 (the value
    after 'profile: ')."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / profile).write_text("\n".join(lines) + "\n", encoding="utf-8")
    # snapshot: the example's own offers CSV is read with pandas, which would hide what the profile needs
    text = (WORKED.read_text(encoding="utf-8").replace("profile: flat", f"profile: {profile}")
            .replace("source: offers-g5-us-east-1.csv", "source: snapshot"))
    path = folder / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def validate_problems(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    return info.value.problems


def as_written(problem: str, csv: Path) -> str:
    """The engine's `problem`, naming the profile CSV by the path it read (`csv`), as validate names it: as the
    scenario wrote it (`w.csv`, beside it: scenario_with_profile), not by the path it was resolved to."""
    return problem.replace(str(csv), "w.csv", 1)


def engine_problems(csv: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        weekly_weights(str(csv))
    return info.value.problems


# Line numbers count every line of the file, the header and blank lines included.
@pytest.mark.parametrize("lines,expected", [
    # header on line 1, 167 ones on lines 2-168, the NaN on line 169
    (["weight", *["1"] * 167, "nan"], ":169: expected a finite hourly weight, got 'nan'"),
    (["1"] * 100 + ["inf"] + ["1"] * 67, ":101: expected a finite hourly weight, got 'inf'"),
    (["1"] * 100 + ["-inf"] + ["1"] * 67, ":101: expected a finite hourly weight, got '-inf'"),
    # header, a blank line 2, 166 ones on lines 3-168, the negative weight on line 169
    (["weight", "", *["1"] * 166, "-2", "1"], ":169: expected an hourly weight ≥ 0, got '-2'"),
    # a timestamp column: the weight is the last cell
    (["hour,weight", *[f"{h},1" for h in range(167)], "167,-0.5"], ":169: expected an hourly weight ≥ 0, got '-0.5'"),
])
def test_a_bad_weight_is_named_with_its_line_by_validate_and_by_the_engine(tmp_path, lines, expected):
    path = scenario_with_profile(tmp_path, lines)
    csv = tmp_path / "w.csv"
    assert engine_problems(csv) == [f"{csv}{expected}"]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: w.csv{expected}"]


@pytest.mark.parametrize("lines,expected", [
    (["1"] * 10, ": expected 168 hourly weights (Monday 00:00 first), one per line (a header line is allowed), got 10"),
    (["weight", *["1"] * 169], ": expected 168 hourly weights (Monday 00:00 first), one per line "
                               "(a header line is allowed), got 169"),
    (["0"] * 168, ": expected hourly weights not all zero (they are scaled to mean 1)"),
])
def test_a_profile_of_the_wrong_length_or_all_zero_is_refused_by_validate_as_by_the_engine(tmp_path, lines, expected):
    path = scenario_with_profile(tmp_path, lines)
    csv = tmp_path / "w.csv"
    assert engine_problems(csv) == [f"{csv}{expected}"]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: w.csv{expected}"]


def test_a_word_after_the_header_is_not_a_number(tmp_path):
    path = scenario_with_profile(tmp_path, ["weight", "1", "lots", *["1"] * 166])
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: w.csv:3: expected a number, got 'lots'"]


def test_a_file_of_nans_names_five_lines_and_counts_the_rest(tmp_path):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["nan"] * 168))
    assert engine_problems(csv) == [*(f"{csv}:{k}: expected a finite hourly weight, got 'nan'" for k in range(1, 6)),
                                    f"{csv}: 163 more lines with bad weights"]


def test_weights_near_the_float_limit_scale_to_mean_one_without_overflow(tmp_path):
    # 168 × 1e308 sums to inf: dividing by that mean made every weight 0 and the plan's demand 0
    csv = tmp_path / "big.csv"
    csv.write_text("\n".join(["1e308"] * 168))
    assert weekly_weights(str(csv)).tolist() == [1.0] * 168
    # half the hours at 1.7e308, half idle: mean 0.85e308, so weights 2 and 0
    csv = tmp_path / "half.csv"
    csv.write_text("\n".join(["1.7e308", "0"] * 84))
    assert weekly_weights(str(csv)).tolist() == [2.0, 0.0] * 84
    # the smallest positive float: every weight 1
    csv = tmp_path / "tiny.csv"
    csv.write_text("\n".join(["5e-324"] * 168))
    assert np.array_equal(weekly_weights(str(csv)), np.ones(168))


def test_a_relative_profile_is_read_from_the_scenarios_folder_not_the_working_directory(tmp_path, monkeypatch):
    path = scenario_with_profile(tmp_path / "team", ["-1"] * 168)
    monkeypatch.chdir(tmp_path)   # a w.csv here must not be the one read
    (tmp_path / "w.csv").write_text("\n".join(["1"] * 168))
    csv = tmp_path / "team" / "w.csv"
    problems = validate_problems(path)
    # w.csv as the scenario names it: beside it, in team (the -1 weights are there)
    assert problems[0] == f"{path}:28:14: workloads[0].profile: w.csv:1: expected an hourly weight ≥ 0, got '-1'"
    csv.write_text("\n".join(["2"] * 168))
    assert load_scenario_file(path).workloads[0].profile == str(csv)


def test_validate_exits_2_for_a_profile_plan_would_refuse(tmp_path):
    path = scenario_with_profile(tmp_path, ["1"] * 167 + ["-1"])
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert f"{path}:28:14: workloads[0].profile: w.csv:168: expected an hourly weight ≥ 0, got '-1'" \
        in result.output
    assert "Traceback" not in result.output


# Runs `fleetplan validate FILE` as the installed script does and reports its exit code and whether numpy,
# pandas or pulp were imported on the way.
CHILD = """
import json, sys
from planner.cli import app
try:
    app(["validate", sys.argv[1]], prog_name="fleetplan")
    code = 0
except SystemExit as exc:
    code = exc.code or 0
print(json.dumps({"code": code, "heavy": sorted({"numpy", "pandas", "pulp"} & set(sys.modules))}))
"""


@pytest.mark.parametrize("weights,code", [(["1"] * 168, 0), (["1"] * 167 + ["nan"], 2)], ids=["good", "bad"])
def test_validate_reads_a_csv_profile_without_numpy(tmp_path, weights, code):
    path = scenario_with_profile(tmp_path, weights)
    child = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, cwd=ROOT,
                           timeout=60)
    assert json.loads(child.stdout.splitlines()[-1]) == {"code": code, "heavy": []}, child.stderr


def test_comment_lines_are_skipped_before_and_after_the_header(tmp_path):
    # a spreadsheet export's note above the header used to become the header, and the real header an error
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["# exported 2026-11-01 from the usage sheet", "weight", *["3"] * 84,
                              "  # the second half of the week", *["1"] * 84]))
    assert weekly_weights(str(csv)).tolist() == [1.5] * 84 + [0.5] * 84   # mean 2: 3/2 and 1/2


@pytest.mark.parametrize("cell", ["1_000", "１", "1 000"])
def test_a_number_python_would_stretch_to_read_is_refused_with_its_line(tmp_path, cell):
    # float() reads '1_000' as 1000 and '１' (full-width) as 1; neither is a CSV number a spreadsheet writes
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["weight", *["1"] * 50, cell, *["1"] * 117]))
    assert engine_problems(csv) == [f"{csv}:52: expected a number written with the digits 0-9 and a decimal point "
                                    f"(no '_', inner spaces or full-width digits), got {cell!r}"]


def test_a_first_line_with_digits_is_a_weight_not_a_header(tmp_path):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["1_000", *["1"] * 167]))
    assert engine_problems(csv)[0].startswith(f"{csv}:1: expected a number written with the digits 0-9")


@pytest.mark.parametrize("lines,line,raw", [
    # a single column with decimal commas: '1,5' lines among whole numbers
    (["weight", "2", "1,5", *["0,5"] * 166], 3, "1,5"),
    # every line 'digits,digits' and the first cells do not count the hours
    (["1,5", "0,25", *["1,25"] * 166], 1, "1,5"),
])
def test_decimal_commas_are_refused_not_read_as_the_digits_after_the_comma(tmp_path, lines, line, raw):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(lines))
    weight, dotted = raw.split(",")[1], raw.replace(",", ".")
    assert engine_problems(csv)[0] == (
        f"{csv}:{line}: {raw!r} reads as two cells, the weight {weight}; if it is one number with a decimal comma, "
        f"write a decimal point ({dotted}); if the first cell numbers the hours, number them 0-167 or 1-168")


@pytest.mark.parametrize("first", [0, 1])
def test_an_hour_column_with_whole_weights_is_read(tmp_path, first):
    # '0,2' … '167,2' (or from 1): hours numbered in order, so the weight is the last cell, 2, and not 0.2
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(f"{h},{2 if h < first + 84 else 6}" for h in range(first, first + 168)))
    assert weekly_weights(str(csv)).tolist() == [0.5] * 84 + [1.5] * 84   # mean 4


def test_semicolon_separated_lines_are_refused(tmp_path):
    # '0;1,5' split on commas gave the weight 5
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["hour;weight", *(f"{h};1,5" for h in range(168))]))
    problems = engine_problems(csv)
    assert problems[0] == (f"{csv}:2: cells separated by ';' (a spreadsheet's export with decimal commas?); expected "
                           f"the weight as the last comma-separated cell, with a decimal point: got '0;1,5'")
    assert problems[-1] == f"{csv}: 163 more lines with bad weights"


@pytest.mark.parametrize(("cell", "said"), [
    # 5,001 digits read as inf by float(); the message quotes the first 60 and the length, not all 5,001
    ("1" * 5001, f"expected a finite hourly weight, got '{'1' * 60}'… (5,001 characters)"),
    ("x" * 100_000, f"expected a number, got '{'x' * 60}'… (100,000 characters)"),
    # up to 80 characters are quoted whole
    ("y" * 80, f"expected a number, got '{'y' * 80}'"),
])
def test_a_long_bad_weight_is_quoted_cut_to_sixty_characters_and_its_length(tmp_path, cell, said):
    path = scenario_with_profile(tmp_path, ["weight", *["1"] * 100, cell, *["1"] * 67])
    csv = tmp_path / "w.csv"
    assert engine_problems(csv) == [f"{csv}:102: {said}"]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: w.csv:102: {said}"]


# A weekday of 0.4 and a weekend of 1.2 (hours 0-119 and 120-167): mean (120 × 0.4 + 48 × 1.2) / 168 = 105.6 / 168,
# so the weights scaled to mean 1 are 0.4 × 168 / 105.6 = 7/11 and 1.2 × 168 / 105.6 = 21/11.
WEEKDAY_WEEKEND = ["0.4"] * 120 + ["1.2"] * 48


@pytest.mark.parametrize("first", [0, 1])
def test_a_weight_hour_header_over_hour_numbers_reads_the_weights_of_the_first_column(tmp_path, first):
    # 'weight,hour' then '0.4,0' … '1.2,167': the hour numbers were read as the weights, a ramp 0 … 167
    reversed_csv, forward_csv = tmp_path / "reversed.csv", tmp_path / "forward.csv"
    reversed_csv.write_text("\n".join(["weight,hour", *(f"{w},{h}" for h, w in enumerate(WEEKDAY_WEEKEND, first))]))
    forward_csv.write_text("\n".join(["hour,weight", *(f"{h},{w}" for h, w in enumerate(WEEKDAY_WEEKEND, first))]))
    assert read_profile_csv(reversed_csv) == [0.4] * 120 + [1.2] * 48
    assert read_profile_csv(reversed_csv) == read_profile_csv(forward_csv)
    assert np.allclose(weekly_weights(str(reversed_csv)), [7 / 11] * 120 + [21 / 11] * 48, rtol=1e-12, atol=0)


def test_a_bad_weight_of_the_first_column_under_a_weight_hour_header_is_named_with_its_line(tmp_path):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["weight,hour", *(f"{w},{h}" for h, w in enumerate(["0.4"] * 100 + ["-1"] + ["0.4"] * 67))]))
    assert engine_problems(csv) == [f"{csv}:102: expected an hourly weight ≥ 0, got '-1'"]   # hour 100 on line 102


REVERSED = "the columns read as weight,hour; expected the hour number first: hour,weight (or a header line weight,hour " \
           "naming the columns)"


@pytest.mark.parametrize("lines,line,raw", [
    # no header: the last cells 0 … 167 could be a ramp of weights as well as hours; the user says which
    ([f"{w},{h}" for h, w in enumerate(WEEKDAY_WEEKEND)], 1, "0.4,0"),
    # whole weights: the columns reversed, not decimal commas ('3,0' is not 3.0)
    ([f"{3 if h < 84 else 5},{h}" for h in range(168)], 1, "3,0"),
    # a header naming the hour first over the hours in the last column: the header does not say what the lines do
    (["hour,weight", *(f"{w},{h + 1}" for h, w in enumerate(WEEKDAY_WEEKEND))], 2, "0.4,1"),
])
def test_hour_numbers_in_the_last_column_without_a_weight_hour_header_are_refused(tmp_path, lines, line, raw):
    path = scenario_with_profile(tmp_path, lines)
    csv = tmp_path / "w.csv"
    said = f"{csv}:{line}: the last cells number the hours ({raw!r} …) and the first do not: {REVERSED}"
    assert engine_problems(csv) == [said]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: {as_written(said, csv)}"]


def test_a_weight_hour_header_over_weights_in_the_last_column_is_refused(tmp_path):
    # the header says the hour is last, the lines hold the hour first: which one is wrong is the user's to say
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["# usage", "weight , hour", *(f"{h},{w}" for h, w in enumerate(WEEKDAY_WEEKEND))]))
    assert engine_problems(csv) == [f"{csv}:2: the header 'weight , hour' puts the hour last, but the last cells do not "
                                    f"number the hours 0-167 or 1-168 in order; expected the hour number first: "
                                    f"hour,weight (the weight is the last cell)"]


@pytest.mark.parametrize("header", ["hourly_weight", "index,hourly_weight", "hour_of_week,weight"])
def test_headers_naming_a_weight_last_keep_the_last_cell_as_the_weight(tmp_path, header):
    csv = tmp_path / "w.csv"
    cells = WEEKDAY_WEEKEND if "," not in header else [f"{h},{w}" for h, w in enumerate(WEEKDAY_WEEKEND)]
    csv.write_text("\n".join([header, *cells]))
    assert read_profile_csv(csv) == [0.4] * 120 + [1.2] * 48


def test_one_column_of_whole_numbers_0_to_167_is_a_ramp_of_weights(tmp_path):
    # one cell a line is the weight: no column beside it could be the hours
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(str(h) for h in range(168)))
    assert read_profile_csv(csv) == [float(h) for h in range(168)]


@pytest.mark.parametrize("header,line", [("hour,weight", "{h},{w}"), ("weight,hour", "{w},{h}")])
def test_a_spreadsheets_byte_order_mark_and_crlf_line_ends_keep_either_column_order(tmp_path, header, line):
    # Excel's 'CSV UTF-8' starts with a byte-order mark and ends lines with CRLF: the header is still a header
    csv = tmp_path / "w.csv"
    csv.write_bytes("\ufeff".encode() + "\r\n".join([header, *(line.format(h=h, w=w) for h, w in
                                                               enumerate(WEEKDAY_WEEKEND))]).encode() + b"\r\n")
    assert read_profile_csv(csv) == [0.4] * 120 + [1.2] * 48


# WEEKDAY_WEEKEND by day and hour of the day: days 0-4 (Monday-Friday) at 0.4, days 5-6 at 1.2
BY_DAY_AND_HOUR = [(d, h, "0.4" if d < 5 else "1.2") for d in range(7) for h in range(24)]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


@pytest.mark.parametrize("header,line", [
    ("weight,day,hour", "{w},{d},{h}"),                 # the hour of the day had been read as the weights 0 … 23
    ("weight,day,hour", "{w},{d1},{h1}"),               # days 1-7, hours 1-24
    ("load,day_of_week,hour_of_day", "{w},{name},{h}"),  # days named, Monday first
    ("day,weight,hour", "{d},{w},{h}"),                 # the weight between the two
    ("kwh,hour,weekday", "{w},{h},{d}"),                # the weight the one column naming no day or hour
    ("weight,days,hours", "{w},{d},{h}"),
])
def test_a_header_naming_the_weight_before_day_and_hour_columns_reads_the_weights_by_name(tmp_path, header, line):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join([header, *(line.format(w=w, d=d, d1=d + 1, name=DAYS[d], h=h, h1=h + 1)
                                        for d, h, w in BY_DAY_AND_HOUR)]))
    assert read_profile_csv(csv) == [0.4] * 120 + [1.2] * 48
    assert np.allclose(weekly_weights(str(csv)), [7 / 11] * 120 + [21 / 11] * 48, rtol=1e-12, atol=0)


def test_a_bad_weight_under_a_weight_day_hour_header_is_named_with_its_line(tmp_path):
    csv = tmp_path / "w.csv"
    weights = ["1"] * 30 + ["-1"] + ["1"] * 137   # hour 30: day 1, hour 6, on line 32 (the header is line 1)
    csv.write_text("\n".join(["weight,day,hour", *(f"{w},{k // 24},{k % 24}" for k, w in enumerate(weights))]))
    assert engine_problems(csv) == [f"{csv}:32: expected an hourly weight ≥ 0, got '-1'"]


SHAPES = ("expected the weight last (hour,weight or day,hour,weight) or the other columns numbering each line's day "
          "(0-6 or 1-7, or Monday … Sunday) and hour of the day (0-23 or 1-24), or its hour of the week (0-167 or "
          "1-168), in order from Monday 00:00")


def test_day_and_hour_columns_out_of_order_are_refused_at_the_first_line_out_of_place(tmp_path):
    # Tuesday 00:00 and 01:00 swapped: line 26 (hour 24, the header on line 1) holds day 1 hour 1
    order = [*range(24), 25, 24, *range(26, 168)]
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["weight,day,hour", *(f"1,{k // 24},{k % 24}" for k in order)]))
    assert engine_problems(csv) == [f"{csv}:26: the header 'weight,day,hour' does not end with the weight, "
                                    f"but '1,1,1' is not numbered day 1, hour 0, its place in the week; {SHAPES}"]


@pytest.mark.parametrize("header,cells,said", [
    # a column that is neither the weight nor a day or hour: the last cells had been read as the weights
    ("weight,note,hour", "{w},x,{k}", "'note' names no day or hour"),
    # no column of the hours
    ("weight,day", "{w},{d}", "no column names the hour"),
    # two columns naming no day or hour: which is the weight is the user's to say
    ("site,usage,hour", "a,{w},{k}", "'site', 'usage' name no day or hour"),
    # Unix seconds in the last column: read as weights 1,767,571,200 … and scaled to about 1
    ("weight,timestamp", "{w},{t}", "'timestamp' (a date, which is not read: number or name the day of the week) "
                                    "names no day or hour"),
    # the hour and the day and no weight: the days 0 … 6 had been read as the weights
    ("hour,day", "{h},{d}", "no column is left for the weight"),
    ("weight,hour,hour_of_day", "{w},{k},{h}", "'hour', 'hour_of_day' each name the hour"),
])
def test_a_header_naming_the_weight_before_columns_that_are_not_day_and_hour_is_refused(tmp_path, header, cells, said):
    path = scenario_with_profile(tmp_path, [header, *(cells.format(w=w, k=k, d=k // 24, h=k % 24, t=1767571200 + 3600 * k)
                                                      for k, w in enumerate(WEEKDAY_WEEKEND))])
    csv = tmp_path / "w.csv"
    problem = f"{csv}:1: the header {header!r} does not end with the weight, and {said}; {SHAPES}"
    assert engine_problems(csv) == [problem]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: {as_written(problem, csv)}"]


def test_a_last_column_of_gpu_hours_after_day_and_hour_columns_is_the_weight(tmp_path):
    # 'gpu_hours' is a quantity, not the hour of the day: the weight is the last cell, as it always was
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["day,hour,gpu_hours", *(f"{d},{h},{w}" for d, h, w in BY_DAY_AND_HOUR)]))
    assert read_profile_csv(csv) == [0.4] * 120 + [1.2] * 48


# Header-less lines with the weight before the day and hour: the hour of the day (0 … 23 each day) had been read as
# the weights. WEEKDAY_WEEKEND again: 0.4 on days 0-4, 1.2 on days 5-6, so 7/11 and 21/11 scaled to mean 1.
@pytest.mark.parametrize("line", [
    "{w},{d},{h}",     # 0.4,0,9
    "{w},{name},{h}",  # 0.4,Mon,9
    "{w},{d1},{h1}",   # days 1-7, hours 1-24
    "{d},{w},{h}",     # the weight between the day and the hour
    "{w},{h},{d}",     # the day last: 0 … 6 had been read as the weights
    "{w},{h},{name}",  # the day named last: its first line had been taken for a header, 'Tue' for a bad weight
])
def test_headerless_lines_with_the_day_and_hour_after_the_weight_read_the_weights(tmp_path, line):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(line.format(w=w, d=d, d1=d + 1, name=DAYS[d], h=h, h1=h + 1) for d, h, w in BY_DAY_AND_HOUR))
    assert read_profile_csv(csv) == [0.4] * 120 + [1.2] * 48
    assert np.allclose(weekly_weights(str(csv)), [7 / 11] * 120 + [21 / 11] * 48, rtol=1e-12, atol=0)


def test_headerless_whole_weights_before_day_and_hour_are_told_apart_by_the_lines_order(tmp_path):
    # '3,0,0' … '5,6,23': the first column could be days and the last two hours, but only the second and third number
    # the lines in order from Monday 00:00 (the first starts at 3); weights 3 then 5 (84 hours each): mean 4
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(f"{3 if k < 84 else 5},{k // 24},{k % 24}" for k in range(168)))
    assert read_profile_csv(csv) == [3.0] * 84 + [5.0] * 84
    assert np.allclose(weekly_weights(str(csv)), [0.75] * 84 + [1.25] * 84, rtol=1e-12, atol=0)


@pytest.mark.parametrize("weights", [WEEKDAY_WEEKEND, [str(k % 9) for k in range(168)]], ids=["decimal", "whole"])
def test_headerless_day_hour_weight_lines_still_read_the_last_cells(tmp_path, weights):
    # whole weights 0 … 8 could be hours, but only the first two columns number the lines in order
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(f"{k // 24},{k % 24},{w}" for k, w in enumerate(weights)))
    assert read_profile_csv(csv) == [float(w) for w in weights]


NO_HEADER = "expected the weight last (day,hour,weight) or a first line naming the columns"


def test_headerless_columns_that_number_the_lines_in_order_two_ways_are_refused(tmp_path):
    # '1,0,0' … '7,6,23': days 0-6 with weights 1-7 (the day plus one), or days 1-7 with weights 0-6
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(f"{k // 24 + 1},{k // 24},{k % 24}" for k in range(168)))
    assert engine_problems(csv) == [
        f"{csv}:1: no header, and the columns of '1,0,0' … read as day,weight,hour and as weight,day,hour, each "
        f"numbering the lines in order from Monday 00:00: which column holds the weights cannot be told; {NO_HEADER} "
        f"(e.g. day,weight,hour)"]


def test_headerless_weight_day_hour_lines_out_of_order_are_refused_at_the_first_line_out_of_place(tmp_path):
    # the week from Monday 09:00: line 1 '0.4,Mon,9' is hour 0 of Monday in the week's order
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(f"0.4,{DAYS[(k + 9) // 24 % 7]},{(k + 9) % 24}" for k in range(168)))
    assert engine_problems(csv) == [
        f"{csv}:1: no header, and the last cells read as the hour of the day (weight,day,hour), but '0.4,Mon,9' is not "
        f"numbered day Mon, hour 0, its place in the week; {NO_HEADER} (e.g. weight,day,hour) over lines in order "
        f"from Monday 00:00"]


@pytest.mark.parametrize("header,line", [
    ("load_date,hour,value", "2026-01-{day:02d},{h},{w}"),   # a date, not a load: the weight is the value, last
    ("hourly_value,DayOfWeek,HourOfDay", "{w},{d},{h}"),     # words split at capitals: HourOfDay is an hour
    ("weight,day,hours_of_day", "{w},{d},{h}"),              # hours of the day, not a second day column
])
def test_header_cells_are_named_by_their_head_word(tmp_path, header, line):
    csv = tmp_path / "w.csv"
    # 2026-01-05 is a Monday
    csv.write_text("\n".join([header, *(line.format(w=w, d=d, h=h, day=5 + d) for d, h, w in BY_DAY_AND_HOUR)]))
    assert read_profile_csv(csv) == [0.4] * 120 + [1.2] * 48


@pytest.mark.parametrize("header,said", [
    # 'load_date' had been the weight (the word load), 'value' the column naming nothing
    ("value,load_date,hour", "'load_date' (a date, which is not read: number or name the day of the week) names no "
                             "day or hour"),
    ("weight,dya,hour", "'dya' (did you mean 'day'?) names no day or hour"),
    ("weight,day,huor", "'huor' (did you mean 'hour'?) names no day or hour"),
])
def test_a_header_cell_naming_a_date_or_misspelt_says_so(tmp_path, header, said):
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join([header, *(f"{w},{d},{h}" for d, h, w in BY_DAY_AND_HOUR)]))
    assert engine_problems(csv) == [f"{csv}:1: the header {header!r} does not end with the weight, and {said}; {SHAPES}"]


# A profile that is not UTF-8 (an auditor, 2026-12): the reader gave Python's "cannot read profile: 'utf-8' codec
# can't decode byte 0xe9 in position 10: invalid continuation byte", naming no line and saying nothing to do.
SAVE_AS_UTF8 = "save the file as UTF-8 (a byte like this is often a Latin-1 or Windows-1252 accent)"
HOURLY = [f"{h},1" for h in range(168)]


def latin1_profile(folder: Path) -> Path:
    """The worked example with a profile whose header `heure,pondération` is Latin-1: é is the byte 0xe9 after the
    10 characters `heure,pond`, so line 1, column 11."""
    path = scenario_with_profile(folder, HOURLY)
    (folder / "w.csv").write_bytes("\n".join(["heure,pondération", *HOURLY]).encode("latin-1") + b"\n")
    return path


def test_a_latin1_profile_is_named_at_its_line_and_column_with_what_to_do(tmp_path):
    path = latin1_profile(tmp_path)
    csv = tmp_path / "w.csv"
    said = f"{csv}:1:11: not UTF-8 text (byte 0xe9); {SAVE_AS_UTF8}"
    assert engine_problems(csv) == [said]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: {as_written(said, csv)}"]


def test_a_utf16_profile_is_named_as_such(tmp_path):
    path = scenario_with_profile(tmp_path, HOURLY)
    csv = tmp_path / "w.csv"
    csv.write_bytes("\n".join(["hour,weight", *HOURLY]).encode("utf-16"))   # with its byte order mark, as Excel saves
    said = f"{csv}:1:1: not UTF-8 text: UTF-16 (it begins with UTF-16's byte order mark); save the file as UTF-8"
    assert engine_problems(csv) == [said]
    assert validate_problems(path) == [f"{path}:28:14: workloads[0].profile: {as_written(said, csv)}"]


@pytest.mark.parametrize("command", [["validate"], ["plan", "--no-baselines", "--no-decisions"]])
def test_validate_and_plan_exit_2_naming_where_a_profile_is_not_utf8(tmp_path, command):
    path = latin1_profile(tmp_path)
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path}:28:14: workloads[0].profile: w.csv:1:11: not UTF-8 text (byte 0xe9); " \
           f"{SAVE_AS_UTF8}" in result.output
    assert "Traceback" not in result.output and "codec" not in result.output
