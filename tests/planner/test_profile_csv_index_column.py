"""Profile CSVs written by pandas: `df.to_csv()` puts the frame's row numbers first under an empty header cell
(`,hour,weight`), a file read back and written again names that column `Unnamed: 0`, `reset_index()` `index`. Those
row numbers are passed over: the labels after them are checked as without them, so a file sorted by its weights
is refused (it had been read in its lines' order, its labels unread), and one in order reads as without them."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from planner.errors import ScenarioError
from planner.scenario.profile_csv import read_profile_csv
from tests.planner.profile_files import problems_of, written

# a week's weights, worked out by hand: 1 at night, 3 from 09:00 to 17:59 on weekdays, 2 otherwise
WEEK = [3.0 if day < 5 and 9 <= hour < 18 else 1.0 if hour < 7 else 2.0 for day in range(7) for hour in range(24)]
# the hours sorted by their weights: 0-6 (weight 1) first, then 24-30, …; the 8th line of weights holds hour 24
BY_WEIGHT = sorted(range(168), key=lambda h: (WEEK[h], h))
SORTED_AT = 9   # line 1 the header, lines 2-8 hours 0-6, line 9 hour 24 where hour 7 belongs
ORDER_HINT = ("its place in the week; the weights are read in the lines' order: sort the lines by their labels (Monday "
              "00:00 first)")


@pytest.mark.parametrize("index", ["", "Unnamed: 0", "index"])
def test_hour_weight_after_row_numbers_sorted_by_weight_is_refused_naming_the_first_line_out_of_place(tmp_path, index):
    # df.sort_values("weight").reset_index(drop=True).to_csv(): row numbers 0-167 in order, the hours not
    csv = written(tmp_path, [f"{index},hour,weight", *(f"{row},{h},{WEEK[h]}" for row, h in enumerate(BY_WEIGHT))])
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '7,24,1.0' is not numbered hour 7, {ORDER_HINT}"]


def test_row_numbers_kept_from_before_the_sort_are_passed_over_too(tmp_path):
    # df.sort_values("weight").to_csv(): each line keeps its row number, here its hour
    csv = written(tmp_path, [",hour,weight", *(f"{h},{h},{WEEK[h]}" for h in BY_WEIGHT)])
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '24,24,1.0' is not numbered hour 7, {ORDER_HINT}"]


def test_day_hour_weight_after_unnamed_row_numbers_sorted_by_weight_is_refused(tmp_path):
    lines = [f"{row},{h // 24},{h % 24},{WEEK[h]}" for row, h in enumerate(BY_WEIGHT)]
    csv = written(tmp_path, ["Unnamed: 0,day,hour,weight", *lines])
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '7,1,0,1.0' is not numbered day 0, hour 7, {ORDER_HINT}"]


def test_timestamps_after_row_numbers_sorted_by_weight_are_refused(tmp_path):
    monday = datetime(2026, 1, 5)
    lines = [f"{row},{monday + timedelta(hours=h):%Y-%m-%d %H:%M},{WEEK[h]}" for row, h in enumerate(BY_WEIGHT)]
    csv = written(tmp_path, [",timestamp,weight", *lines])
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '7,2026-01-06 00:00,1.0' is not 2026-01-05 07:00, one hour after "
                                f"the line before; the weights are read in the lines' order, one an hour from Monday "
                                f"00:00: sort the lines by their labels (Monday 00:00 first)"]


@pytest.mark.parametrize("header,label", [
    ("hour,weight", lambda h: f"{h}"),
    ("hour,weight", lambda h: f"{h % 24}"),   # the hour of the day, no day column
    ("day,hour,weight", lambda h: f"{h // 24},{h % 24}"),
    ("day,hour,weight", lambda h: f"{(h // 24 + 1) % 7},{h % 24}"),   # days from Sunday (Postgres's DOW), as before
    ("timestamp,weight", lambda h: f"{datetime(2026, 1, 5) + timedelta(hours=h):%Y-%m-%d %H:%M}"),
])
@pytest.mark.parametrize("index", ["", "Unnamed: 0", "index"])
def test_files_in_order_after_row_numbers_read_as_without_them(tmp_path, header, label, index):
    plain = written(tmp_path, [header, *(f"{label(h)},{w}" for h, w in enumerate(WEEK))], "plain.csv")
    indexed = written(tmp_path, [f"{index},{header}", *(f"{h},{label(h)},{w}" for h, w in enumerate(WEEK))])
    assert read_profile_csv(indexed) == read_profile_csv(plain) == WEEK


def test_an_unnamed_first_column_of_no_row_numbers_is_read_as_before(tmp_path):
    # regression guard: day names under an empty header cell are no row numbers; the lines read in their order
    lines = [f"Mon,{h},{WEEK[h]}" for h in BY_WEIGHT]
    assert read_profile_csv(written(tmp_path, [",hour,weight", *lines])) == sorted(WEEK)


@pytest.mark.parametrize("index", [",Unnamed: 0", ",index"])
def test_two_columns_of_row_numbers_are_passed_over(tmp_path, index):
    # a file read back without index_col and written again (`,Unnamed: 0,…`), or sorted, reset_index() and written
    # (`,index,…`, the old row numbers in the second column): both columns are row numbers
    lines = [f"{row},{h},{h},{WEEK[h]}" for row, h in enumerate(BY_WEIGHT)]
    csv = written(tmp_path, [f"{index},hour,weight", *lines])
    assert problems_of(csv) == [f"{csv}:{SORTED_AT}: '7,24,24,1.0' is not numbered hour 7, {ORDER_HINT}"]


LONG = "9" * 5000   # past the 4,300 digits Python's int() converts (a ValueError's traceback before)


@pytest.mark.parametrize("lines", [
    [",hour,weight", f"{LONG},0,1.0"],
    ["hour,weight", f"{LONG},1.0"],
], ids=["row-number", "hour"])
def test_a_cell_of_5000_digits_on_a_short_file_is_the_count_s_problem_not_a_traceback(tmp_path, lines):
    with pytest.raises(ScenarioError, match="expected 168 hourly weights .*, got 1"):
        read_profile_csv(written(tmp_path, lines))


@pytest.mark.parametrize("header,line", [
    ("hour,weight", lambda h: f"{LONG if h == 3 else h},{WEEK[h]}"),
    (",hour,weight", lambda h: f"{LONG if h == 3 else h},{h},{WEEK[h]}"),
    ("day,hour,weight", lambda h: f"{LONG if h == 5 else h // 24},{h % 24},{WEEK[h]}"),
], ids=["hour", "row-number", "day"])
def test_a_label_of_5000_digits_is_no_number_and_the_weights_read_as_written(tmp_path, header, line):
    # a label the reader cannot read leaves the labels unchecked, as `09:00` does (docs/scenario-format.md)
    assert list(read_profile_csv(written(tmp_path, [header, *map(line, range(168))]))) == WEEK


@pytest.mark.parametrize("header,base", [(",weight", 0), ("Unnamed: 0,weight", 0), ("index,weight", 1)])
def test_row_numbers_alone_before_the_weight_refuse_a_file_sorted_by_its_weights(tmp_path, header, base):
    # df[["weight"]].sort_values("weight").to_csv(): the row numbers keep the hours' order, 0-167 (or 1-168) each once
    lines = [header, *(f"{h + base},{WEEK[h]}" for h in BY_WEIGHT)]
    with pytest.raises(ScenarioError) as caught:
        read_profile_csv(written(tmp_path, lines))
    assert caught.value.problems[-1].endswith(
        f"w.csv:{SORTED_AT}: '{24 + base},1.0' is not numbered row {7 + base}: its row numbers ({base}-{167 + base}, "
        "each once) are out of order, and the weights are read in the lines' order: sort the lines by their row numbers "
        "(Monday 00:00 first)")
    # in order, and numbers that do not count the week's hours once each (0-23 seven times), read as written
    assert list(read_profile_csv(written(tmp_path, [header, *(f"{h + base},{WEEK[h]}" for h in range(168))]))) == WEEK
    assert list(read_profile_csv(written(tmp_path, [header, *(f"{h % 24},{WEEK[h]}" for h in range(168))]))) == WEEK
