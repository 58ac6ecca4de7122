"""Profile CSVs in the shapes R and pandas write: R's `write.csv` (quoted row names under `""`), a frame read back and
written twice (`Unnamed: 0.1`, `level_0`), a date-time index (`,weight`) and `,weight,hour` are read past their row
numbers with their labels checked, as without them; a line with fewer cells than the header names is named, the other
lines' labels still checked; and without a header, a first column numbering the hours of the week is checked too. A
file sorted by its weights had been read in its lines' order with no word (or refused as naming no day or hour)."""

from __future__ import annotations

import io
from datetime import datetime, timedelta

import pandas as pd
import pytest

from planner.scenario.profile_csv import INDEXED_SHAPES, read_profile_csv
from tests.planner.profile_files import problems_of, written

# a week's weights, worked out by hand: 1 at night, 3 from 09:00 to 17:59 on weekdays, 2 otherwise
WEEK = [3.0 if day < 5 and 9 <= hour < 18 else 1.0 if hour < 7 else 2.0 for day in range(7) for hour in range(24)]
# the hours sorted by their weights: 0-6 (weight 1) first, then 24-30, …; the 8th line of weights holds hour 24
BY_WEIGHT = sorted(range(168), key=lambda h: (WEEK[h], h))
SORTED_AT = 9   # line 1 the header, lines 2-8 hours 0-6, line 9 hour 24 where hour 7 belongs
ORDER_HINT = ("its place in the week; the weights are read in the lines' order: sort the lines by their labels (Monday "
              "00:00 first)")
MONDAY = datetime(2026, 1, 5)   # a Monday


def frame(hours: list[int]) -> pd.DataFrame:
    return pd.DataFrame({"hour": hours, "weight": [WEEK[h] for h in hours]})


def lines_of(text: str) -> list[str]:
    return text.splitlines()


# --- R's write.csv: quoted row names 1..168 under "" ----------------------------------------------------------------

def test_r_write_csv_sorted_by_weight_is_refused_at_the_first_line_out_of_place(tmp_path):
    # write.csv(df[order(df$weight), ], "w.csv"): row names renumbered 1..168 by the sort, quoted; numbers not
    lines = ['"","hour","weight"', *(f'"{row + 1}",{h},{WEEK[h]}' for row, h in enumerate(BY_WEIGHT))]
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"""{csv}:{SORTED_AT}: '"8",24,1.0' is not numbered hour 7, {ORDER_HINT}"""]


def test_r_write_csv_in_order_reads_the_weights(tmp_path):
    lines = ['"","day","hour","weight"', *(f'"{h + 1}",{h // 24},{h % 24},{WEEK[h]}' for h in range(168))]
    assert read_profile_csv(written(tmp_path, lines)) == WEEK


def test_r_row_names_alone_before_the_weight_out_of_order_are_refused(tmp_path):
    # write.csv(df[order(df$weight), "weight", drop=FALSE]): the row names keep the hours, 1..168
    csv = written(tmp_path, ['"","weight"', *(f'"{h + 1}",{WEEK[h]}' for h in BY_WEIGHT)])
    assert problems_of(csv) == [f"""{csv}:{SORTED_AT}: '"25",1.0' is not numbered row 8: its row numbers (1-168, each """
                                f"once) are out of order, and the weights are read in the lines' order: sort the lines by "
                                f"their row numbers (Monday 00:00 first)"]


# --- pandas written twice: Unnamed: 0.1, level_0 --------------------------------------------------------------------

def test_a_frame_read_back_and_written_twice_is_checked_past_its_three_columns_of_row_numbers(tmp_path):
    text = frame(BY_WEIGHT).set_index(pd.Index(BY_WEIGHT)).to_csv()   # each line keeps its hour as row number
    for _ in range(2):
        text = pd.read_csv(io.StringIO(text)).to_csv()
    # pandas' own header, as users get it: the new row numbers, those of the first reading (Unnamed: 0.1), the
    # hours kept from before the sort (Unnamed: 0)
    assert lines_of(text)[0] == ",Unnamed: 0.1,Unnamed: 0,hour,weight"
    csv = written(tmp_path, lines_of(text))
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '7,7,24,24,1.0' is not numbered hour 7, {ORDER_HINT}"]


def test_a_frame_reset_twice_is_checked_past_level_0_and_index(tmp_path):
    text = frame(BY_WEIGHT).set_index(pd.Index(BY_WEIGHT)).reset_index().reset_index().to_csv()
    assert lines_of(text)[0] == ",level_0,index,hour,weight"
    csv = written(tmp_path, lines_of(text))
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '7,7,24,24,1.0' is not numbered hour 7, {ORDER_HINT}"]


@pytest.mark.parametrize("header", [",Unnamed: 0.1,Unnamed: 0,hour,weight", ",level_0,index,hour,weight"])
def test_files_in_order_behind_those_row_numbers_read_the_weights(tmp_path, header):
    assert read_profile_csv(written(tmp_path, [header, *(f"{h},{h},{h},{h},{WEEK[h]}" for h in range(168))])) == WEEK


# --- a date-time index: ,weight -------------------------------------------------------------------------------------

def week_series(start: datetime, hours: list[int]) -> str:
    index = pd.DatetimeIndex([start + timedelta(hours=h) for h in hours])
    return pd.Series([WEEK[h] for h in hours], index=index, name="weight").to_csv()


def test_a_date_time_index_sorted_by_weight_is_refused_at_the_first_line_out_of_place(tmp_path):
    text = week_series(MONDAY, BY_WEIGHT)
    assert lines_of(text)[:2] == [",weight", "2026-01-05 00:00:00,1.0"]
    csv = written(tmp_path, lines_of(text))
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '2026-01-06 00:00:00,1.0' is not 2026-01-05 07:00, one hour after "
                                f"the line before; the weights are read in the lines' order, one an hour from Monday "
                                f"00:00: sort the lines by their labels (Monday 00:00 first)"]


def test_a_date_time_index_from_a_wednesday_is_refused_and_from_a_monday_read(tmp_path):
    csv = written(tmp_path, lines_of(week_series(MONDAY + timedelta(days=2), list(range(168)))))
    assert problems_of(csv) == [f"{csv}:2: the lines start on Wednesday 00:00; the weights are read in the lines' order "
                                f"as the week's hours from Monday 00:00: start the file at a Monday 00:00 (in the time "
                                f"zone the demand keeps)"]
    assert read_profile_csv(written(tmp_path, lines_of(week_series(MONDAY, list(range(168)))))) == WEEK


def test_a_date_time_index_reset_and_written_again_is_checked_past_the_row_numbers(tmp_path):
    # read back without index_col and written again: `,Unnamed: 0,weight`, the times after the new row numbers
    text = pd.read_csv(io.StringIO(week_series(MONDAY, BY_WEIGHT))).to_csv()
    assert lines_of(text)[0] == ",Unnamed: 0,weight"
    csv = written(tmp_path, lines_of(text))
    assert problems_of(csv)[0].startswith(f"{csv}:{SORTED_AT}: '7,2026-01-06 00:00:00,1.0' is not 2026-01-05 07:00, "
                                          f"one hour after the line before;")


# --- ,weight,hour: row numbers, then weight,hour --------------------------------------------------------------------

def test_weight_hour_behind_row_numbers_reads_the_weight_column(tmp_path):
    text = frame(list(range(168)))[["weight", "hour"]].to_csv()
    assert lines_of(text)[0] == ",weight,hour"
    assert read_profile_csv(written(tmp_path, lines_of(text))) == WEEK


def test_weight_hour_behind_row_numbers_sorted_by_weight_is_refused_at_the_first_line_out_of_place(tmp_path):
    text = frame(BY_WEIGHT).set_index(pd.Index(BY_WEIGHT))[["weight", "hour"]].to_csv()
    csv = written(tmp_path, lines_of(text))
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: the header ',weight,hour' does not end with the weight, but "
                                f"'24,1.0,24' is not numbered hour 7, its place in the week; {INDEXED_SHAPES}"]


# --- a line with fewer cells than the header names ------------------------------------------------------------------

def short_said(csv, line: int, raw: str, cells: int, header: str, width: int) -> str:
    return (f"{csv}:{line}: {raw!r} has {cells} cell{'s' if cells > 1 else ''}, fewer than the {width} the header "
            f"{header!r} names: which cell is missing cannot be told; expected each line to hold all {width} columns")


def test_a_short_line_keeps_the_other_lines_labels_checked_and_is_named(tmp_path):
    # line 3 (hour 1) lost its label: the file, sorted by weight, had been read in its lines' order with no word
    lines = [f"{h},{WEEK[h]}" for h in BY_WEIGHT]
    lines[1] = f"{WEEK[1]}"
    csv = written(tmp_path, ["hour,weight", *lines])
    # in the lines' order: the short line 3 first
    assert problems_of(csv) == [short_said(csv, 3, "1.0", 1, "hour,weight", 2),
                                f"{csv}:{SORTED_AT}: '24,1.0' is not numbered hour 7, {ORDER_HINT}"]


def test_a_short_line_of_a_file_in_order_is_named_as_its_weight_cannot_be_told(tmp_path):
    # `0,7` under day,hour,weight: day 0, hour 7 and no weight, or a weight of 7: had been read as the weight 7
    lines = [f"{h // 24},{h % 24},{WEEK[h]}" for h in range(168)]
    lines[7] = "0,7"
    csv = written(tmp_path, ["day,hour,weight", *lines])
    assert problems_of(csv) == [short_said(csv, 9, "0,7", 2, "day,hour,weight", 3)]


def test_a_short_line_behind_row_numbers_with_the_weight_first_is_named(tmp_path):
    lines = [f"{h},{WEEK[h]},{h}" for h in range(168)]
    lines[4] = "4"
    csv = written(tmp_path, [",weight,hour", *lines])
    assert problems_of(csv) == [short_said(csv, 6, "4", 1, ",weight,hour", 3)]


def test_a_short_line_under_weight_hour_is_named_as_short(tmp_path):
    # had been said as hours in the last cells not counting the week, which they do on every other line
    lines = [f"{WEEK[h]},{h}" for h in range(168)]
    lines[4] = f"{WEEK[4]}"
    csv = written(tmp_path, ["weight,hour", *lines])
    assert problems_of(csv) == [short_said(csv, 6, "1.0", 1, "weight,hour", 2)]


def test_a_short_line_among_times_in_order_is_named_alone_the_times_around_it_an_hour_apart_each(tmp_path):
    # line 7 (05:00) lost its time: 04:00 on line 6 and 06:00 on line 8 are two hours apart, as their places are
    lines = [f"{MONDAY + timedelta(hours=h):%Y-%m-%d %H:%M},{WEEK[h]}" for h in range(168)]
    lines[5] = f"{WEEK[5]}"
    csv = written(tmp_path, ["timestamp,weight", *lines])
    assert problems_of(csv) == [short_said(csv, 7, "1.0", 1, "timestamp,weight", 2)]
    # and where line 8 is 07:00, an hour late: two hours after line 6 is 06:00
    lines[6] = f"{MONDAY + timedelta(hours=7):%Y-%m-%d %H:%M},{WEEK[6]}"
    lines[7] = f"{MONDAY + timedelta(hours=8):%Y-%m-%d %H:%M},{WEEK[7]}"
    csv = written(tmp_path, ["timestamp,weight", *lines])
    assert problems_of(csv)[1] == (f"{csv}:8: '2026-01-05 07:00,1.0' is not 2026-01-05 06:00, 2 hours after line 6; the "
                                   f"weights are read in the lines' order, one an hour from Monday 00:00: sort the lines by "
                                   f"their labels (Monday 00:00 first)")


def test_a_short_line_among_labels_not_read_is_read_by_its_last_cell_as_before(tmp_path):
    # `09:00` labels are not read (docs/scenario-format.md): lines in their order, by their last cell
    lines = [f"{h % 24:02}:00,{WEEK[h]}" for h in range(168)]
    lines[3] = f"{WEEK[3]}"
    assert read_profile_csv(written(tmp_path, ["time,weight", *lines])) == WEEK


# --- no header: hour,weight ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("base", [0, 1])
def test_headerless_hours_of_the_week_out_of_order_are_refused_naming_the_line(tmp_path, base):
    csv = written(tmp_path, [f"{h + base},{WEEK[h]}" for h in BY_WEIGHT])
    assert problems_of(csv) == [f"{csv}:{SORTED_AT - 1}: '{24 + base},1.0' is not numbered hour {7 + base}: its hour "
                                f"numbers ({base}-{167 + base}, each once) are out of order, and the weights are read in "
                                f"the lines' order: sort the lines by their hour numbers (Monday 00:00 first)"]


@pytest.mark.parametrize("label", [lambda h: h, lambda h: h + 1, lambda h: h % 24], ids=["0-167", "1-168", "0-23"])
def test_headerless_hour_weight_in_order_or_hours_of_the_day_read_as_before(tmp_path, label):
    assert read_profile_csv(written(tmp_path, [f"{label(h)},{WEEK[h]}" for h in range(168)])) == WEEK


def test_headerless_whole_weights_behind_hours_out_of_order_keep_the_decimal_comma_word(tmp_path):
    # an existing rule that already applies: `d,d` lines whose first cells do not number the hours in order
    csv = written(tmp_path, [f"{h},{int(WEEK[h])}" for h in BY_WEIGHT])
    assert problems_of(csv)[0].startswith(f"{csv}:1: '0,1' reads as two cells, the weight 1;")
