"""Profile CSVs: a line with a cell too many is refused at its line (`10,3,5` had read as the weight 5), and labels
before a last weight column are checked, not ignored: lines out of order from Monday 00:00 (sorted by weight,
days counted from Sunday, a week starting on a Wednesday) are refused, naming the first line out of place.
Labels the reader cannot read (`1/5/2026 0:00`, `09:00`) are read in the lines' order, as before."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from planner.scenario.profile_csv import read_profile_csv
from tests.planner.profile_files import problems_of, written

DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
# a week's weights, worked out by hand: 1 at night, 3 from 09:00 to 17:59 on weekdays, 2 otherwise
WEEK = [3.0 if day < 5 and 9 <= hour < 18 else 1.0 if hour < 7 else 2.0 for day in range(7) for hour in range(24)]


# --- a cell too many ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("header,row,line,cells,named,last,hint", [
    # 3,5 typed with a decimal comma: read as 5 before
    ("hour,weight", "10,3,5", 12, 3, "the 2 the header 'hour,weight' names", "5",
     "if it is one number with a decimal comma, write a decimal point (3.5)"),
    # an extra column: read as 2 before
    ("hour,weight", "10,3.5,2", 12, 3, "the 2 the header 'hour,weight' names", "2",
     "remove the extra cells, or name their columns in a header"),
    ("day,hour,weight", "0,10,3,5", 12, 4, "the 3 the header 'day,hour,weight' names", "5",
     "if it is one number with a decimal comma, write a decimal point (3.5)"),
    # 1,017: a decimal comma, or a thousands separator
    ("hour,weight", "10,1,017", 12, 3, "the 2 the header 'hour,weight' names", "017",
     "if it is one number with a decimal comma, write a decimal point (1.017), or without the thousands separator "
     "if it is one (1017)"),
])
def test_a_line_with_a_cell_too_many_is_refused_at_its_line(tmp_path, header, row, line, cells, named, last, hint):
    labels = [f"{h}" for h in range(168)] if header == "hour,weight" else [f"{h // 24},{h % 24}" for h in range(168)]
    lines = [header, *(f"{label},{w}" for label, w in zip(labels, WEEK))]
    lines[line - 1] = row   # line 12 is the hour 10 (Monday 10:00)
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:{line}: {row!r} has {cells} cells, more than {named} (its last cell, "
                                f"{last!r}, is no weight to read); {hint}"]


def test_without_a_header_a_line_with_more_cells_than_most_is_refused(tmp_path):
    lines = [f"{h},{w}" for h, w in enumerate(WEEK)]
    lines[20] = "20,2,5"
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:21: '20,2,5' has 3 cells, more than the 2 most lines hold (its last cell, '5', "
                                f"is no weight to read); if it is one number with a decimal comma, write a decimal "
                                f"point (2.5)"]


@pytest.mark.parametrize("row,cell,hint", [
    ('10,"1,5"', "1,5", "if it is one number with a decimal comma, write a decimal point (1.5)"),
    ('1,"1,017"', "1,017", "if it is one number with a decimal comma, write a decimal point (1.017), or without the "
                           "thousands separator if it is one (1017)"),
])
def test_a_quoted_comma_is_named_as_written(tmp_path, row, cell, hint):
    lines = ["hour,weight", *(f"{h},{w}" for h, w in enumerate(WEEK))]
    hour = int(row.split(",")[0])
    lines[hour + 1] = row
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:{hour + 2}: the quoted cell {cell!r} holds a comma; {hint}"]


def test_a_quoted_cell_over_the_csv_field_limit_is_a_bad_line_not_a_crash(tmp_path):
    # regression guard: the code before this change never used the csv module, so it refused this line too
    lines = ["hour,weight", *(f"{h},{w}" for h, w in enumerate(WEEK))]
    lines[5] = '4,"' + "1" * (129 * 1024) + '"'
    csv = written(tmp_path, lines)
    problems = problems_of(csv)
    assert len(problems) == 1 and problems[0].startswith(f"{csv}:6: ")


# --- labels checked, not ignored ---------------------------------------------------------------------------------

def test_hour_weight_sorted_by_weight_is_refused_naming_the_first_line_out_of_place(tmp_path):
    order = sorted(range(168), key=lambda h: (WEEK[h], h))   # hours 0-6 (weight 1) first, then 24-30, …
    csv = written(tmp_path, ["hour,weight", *(f"{h},{WEEK[h]}" for h in order)])
    # line 9 holds hour 24 (Tuesday 00:00, the 8th hour of weight 1) where hour 7 belongs
    assert problems_of(csv) == [f"{csv}:9: '24,1.0' is not numbered hour 7, its place in the week; the weights are "
                                f"read in the lines' order: sort the lines by their labels (Monday 00:00 first)"]


def test_day_hour_weight_out_of_order_is_refused(tmp_path):
    lines = ["day,hour,weight", *(f"{h // 24},{h % 24},{w}" for h, w in enumerate(WEEK))]
    lines[9], lines[10] = lines[10], lines[9]   # Monday 08:00 (weight 2) and 09:00 (weight 3) swapped
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:10: '0,9,3.0' is not numbered day 0, hour 8, its place in the week; the "
                                f"weights are read in the lines' order: sort the lines by their labels (Monday 00:00 "
                                f"first)"]


@pytest.mark.parametrize("monday,sunday", [(2, 1), (1, 0)])
def test_days_counted_from_sunday_on_lines_from_monday_read_in_order(tmp_path, monday, sunday):
    # MySQL's DAYOFWEEK or Excel's WEEKDAY (Sunday 1, Monday 2 … Saturday 7), Postgres's DOW (Sunday 0, Monday 1), over
    # lines in order from Monday: read in order, as they were (a review: refusing them refused correct files)
    days = [monday + d if d < 6 else sunday for d in range(7)]
    csv = written(tmp_path, ["day,hour,weight", *(f"{days[h // 24]},{h % 24},{w}" for h, w in enumerate(WEEK))])
    assert read_profile_csv(csv) == WEEK


def test_days_counted_from_sunday_with_hours_out_of_order_are_refused(tmp_path):
    days = [1, 2, 3, 4, 5, 6, 0]
    lines = ["day,hour,weight", *(f"{days[h // 24]},{h % 24},{w}" for h, w in enumerate(WEEK))]
    lines[9], lines[10] = lines[10], lines[9]   # Monday 08:00 (weight 2) and 09:00 (weight 3) swapped
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:10: '1,9,3.0' is not numbered hour 8, its place in the week; the weights are "
                                f"read in the lines' order: sort the lines by their labels (Monday 00:00 first)"]


def test_local_times_over_a_clock_change_read_in_order(tmp_path):
    # a week of naive local times over the October change: 02:00 written twice (a review: refused, "sort the lines")
    times, t = [], datetime(2026, 10, 19)
    while len(times) < 168:
        times.append(t)
        if t == datetime(2026, 10, 25, 2) and times.count(t) == 1:
            continue
        t += timedelta(hours=1)
    csv = written(tmp_path, ["timestamp,weight", *(f"{time:%Y-%m-%d %H:%M},{w}" for time, w in zip(times, WEEK))])
    assert read_profile_csv(csv) == WEEK


def test_iso_timestamps_starting_on_a_wednesday_are_refused(tmp_path):
    start = datetime(2026, 1, 7, 0, 0)   # a Wednesday
    csv = written(tmp_path, ["timestamp,weight", *(f"{start + timedelta(hours=h):%Y-%m-%d %H:%M},{w}"
                                                   for h, w in enumerate(WEEK))])
    # sorting cannot move a Monday to the front: the message says where the file must start
    assert problems_of(csv) == [f"{csv}:2: the lines start on Wednesday 00:00; the weights are read in the lines' "
                                f"order as the week's hours from Monday 00:00: start the file at a Monday 00:00 (in the "
                                f"time zone the demand keeps)"]


def test_iso_timestamps_not_an_hour_apart_are_refused(tmp_path):
    start = datetime(2026, 1, 5, 0, 0)   # a Monday
    lines = ["date,weight", *(f"{start + timedelta(hours=h):%Y-%m-%dT%H:%M},{w}" for h, w in enumerate(WEEK))]
    lines[31], lines[32] = lines[32], lines[31]   # Tuesday 06:00 (weight 1) and 07:00 (weight 2) swapped
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:32: '2026-01-06T07:00,2.0' is not 2026-01-06 06:00, one hour after the line "
                                f"before; the weights are read in the lines' order, one an hour from Monday 00:00: "
                                f"sort the lines by their labels (Monday 00:00 first)"]


# --- regression guards: these read the same before and after the change -----------------------------------------

@pytest.mark.parametrize("lines", [
    ["hour,weight", *(f"{h},{w}" for h, w in enumerate(WEEK))],
    ["hour,weight", *(f"{h + 1},{w}" for h, w in enumerate(WEEK))],
    ["hour,weight", *(f"{h % 24},{w}" for h, w in enumerate(WEEK))],   # the hour of the day, no day column
    ["day,hour,weight", *(f"{h // 24 + 1},{h % 24 + 1},{w}" for h, w in enumerate(WEEK))],
    ["day,hour,weight", *(f"{DAYS[h // 24][:3]},{h % 24},{w}" for h, w in enumerate(WEEK))],
    ["timestamp,weight", *(f"{datetime(2026, 1, 5) + timedelta(hours=h):%Y-%m-%d %H:%M},{w}"
                           for h, w in enumerate(WEEK))],
    # labels not read: Excel's dates, hours as 09:00, dates without a time
    ["timestamp,weight", *(f"1/{5 + h // 24}/2026 {h % 24}:00,{w}" for h, w in enumerate(WEEK))],
    ["day,hour,weight", *(f"{DAYS[h // 24]},{h % 24:02d}:00,{w}" for h, w in enumerate(WEEK))],
    ["date,weight", *(f"2026-01-{5 + h // 24:02d},{w}" for h, w in enumerate(WEEK))],
    ["weight", *(f"{w}" for w in WEEK)],
])
def test_labelled_files_in_order_and_labels_not_read_plan_as_before(tmp_path, lines):
    assert read_profile_csv(written(tmp_path, lines)) == WEEK


def test_excel_dates_out_of_order_are_still_read_in_the_lines_order(tmp_path):
    # regression guard: `1/7/2026 0:00` is no ISO 8601 date, so not read; the weights are the lines' own, in order
    lines = [f"1/{7 + h // 24}/2026 {h % 24}:00,{w}" for h, w in enumerate(WEEK)]
    assert read_profile_csv(written(tmp_path, ["timestamp,weight", *lines])) == WEEK


# --- a review of the checks: files that planned before still do, and no input takes long or raises -------------

@pytest.mark.parametrize("lines", [
    # zero-padded numbers, as strftime's %H, SQL's HH24 and Excel's hh write them
    ["day,hour,weight", *(f"{h // 24},{h % 24:02d},{w}" for h, w in enumerate(WEEK))],
    ["hour,weight", *(f"{h % 24:02d},{w}" for h, w in enumerate(WEEK))],
    ["hour,weight", *(f"{h:03d},{w}" for h, w in enumerate(WEEK))],
    ["hour,weight", *(f"{h + 1:03d},{w}" for h, w in enumerate(WEEK))],
    ["day,hour,weight", *(f"{h // 24 + 1:02d},{h % 24:02d},{w}" for h, w in enumerate(WEEK))],
    # a quoted label holding a comma is the label's, one cell
    ["slot,weight", *(f'"{DAYS[h // 24]}, {h % 24:02d}:00",{w}' for h, w in enumerate(WEEK))],
    [*(f'"{DAYS[h // 24]}, {h % 24:02d}:00",{w}' for h, w in enumerate(WEEK))],
    # a header naming one column over lines of two: the last cell, as it was read
    ["weight", *(f"Mon {h},{w}" for h, w in enumerate(WEEK))],
    # times that end their hour: Monday 01:00 first
    ["end_time,weight", *(f"{datetime(2026, 1, 5, 1) + timedelta(hours=h):%Y-%m-%d %H:%M},{w}"
                          for h, w in enumerate(WEEK))],
])
def test_files_that_planned_before_still_read_as_the_week_in_order(tmp_path, lines):
    assert read_profile_csv(written(tmp_path, lines)) == WEEK


def test_timestamps_near_the_last_year_are_a_problem_not_a_traceback(tmp_path):
    start = datetime(9999, 12, 27)   # a Monday: 168 hours later is past the last date Python has
    lines = ["timestamp,weight", *(f"{start + timedelta(hours=min(h, 119)):%Y-%m-%d %H:%M},{w}"
                                   for h, w in enumerate(WEEK))]
    problems = problems_of(written(tmp_path, lines))
    assert problems[0].endswith("is not one hour after the line before; the weights are read in the lines' order, one "
                                "an hour from Monday 00:00: sort the lines by their labels (Monday 00:00 first)")


def test_a_file_of_lines_with_a_cell_too_many_is_read_in_linear_time(tmp_path):
    # nearly 1 MiB of lines with a cell too many and no weight: each line's weight problem was filtered against the
    # prefixes of every refused line (a tuple), n² — the review's 1 MiB file ran past 11 minutes; now a set
    csv = tmp_path / "w.csv"
    csv.write_text("hour,weight\n" + "0,a,b\n" * 170_000, encoding="utf-8")
    problems = problems_of(csv)
    assert problems[0] == (f"{csv}:2: '0,a,b' has 3 cells, more than the 2 the header 'hour,weight' names (its last "
                           f"cell, 'b', is no weight to read); remove the extra cells, or name their columns in a header")
    assert f"{csv}: 169995 more lines with bad weights" in problems
