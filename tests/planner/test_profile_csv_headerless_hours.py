"""A profile CSV without a header whose first column numbers the hours is checked as under a header `hour,weight`
(a known problem, 2026-12): hours of the day 0-23 seven times, or hours of the week 0-167 with one missing or
repeated, had been read in the lines' order with no word, where the same lines under `hour,weight` are refused at
the first line out of place."""

from __future__ import annotations

import pytest

from planner.scenario.profile_csv import read_profile_csv
from tests.planner.profile_files import problems_of, written

# a week's weights, worked out by hand: 1 at night, 3 from 09:00 to 17:59 on weekdays, 2 otherwise
WEEK = [3.0 if day < 5 and 9 <= hour < 18 else 1.0 if hour < 7 else 2.0 for day in range(7) for hour in range(24)]
ORDER_HINT = ("its place in the week; the weights are read in the lines' order: sort the lines by their labels (Monday "
              "00:00 first)")


def both(tmp_path, lines: list[str]) -> tuple[list[str], list[str]]:
    """The problems of `lines` under a header `hour,weight` and without one, each line number as the header-less
    file counts it (one less), the file's name left out."""
    headed = [p.split(":", 1)[1] for p in problems_of(written(tmp_path, ["hour,weight", *lines], "headed.csv"))]
    headed = [f"{int(p.split(':', 1)[0]) - 1}:{p.split(':', 1)[1]}" if p.split(":", 1)[0].isdigit() else p for p in headed]
    bare = [p.split(":", 1)[1] for p in problems_of(written(tmp_path, lines, "bare.csv"))]
    return headed, bare


def test_hours_of_the_day_out_of_order_are_refused_at_the_first_line_out_of_place(tmp_path):
    lines = [f"{h % 24},{WEEK[h]}" for h in range(168)]
    lines[32], lines[33] = lines[33], lines[32]   # Tuesday 08:00 and 09:00 swapped: line 33 holds hour 9
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:33: '9,3.0' is not numbered hour 8, {ORDER_HINT}"]


def test_hours_of_the_day_out_of_order_are_said_as_under_a_header(tmp_path):
    lines = [f"{h % 24},{WEEK[h]}" for h in range(168)]
    lines[32], lines[33] = lines[33], lines[32]
    headed, bare = both(tmp_path, lines)
    assert bare == headed


def test_hours_of_the_day_numbered_1_to_24_out_of_order_are_refused(tmp_path):
    lines = [f"{h % 24 + 1},{WEEK[h]}" for h in range(168)]
    lines[1], lines[2] = lines[2], lines[1]   # line 2 holds hour 3 where 2 belongs (line 1's 1 says they count from 1)
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:2: '3,1.0' is not numbered hour 2, {ORDER_HINT}"]


def test_an_hour_of_the_week_repeated_is_refused_where_it_is_out_of_place(tmp_path):
    lines = [f"{h},{WEEK[h]}" for h in range(168)]
    lines[50] = f"49,{WEEK[50]}"   # hour 49 twice, hour 50 missing: line 51 holds 49 where 50 belongs (Wednesday 02:00, weight 1)
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [f"{csv}:51: '49,1.0' is not numbered hour 50, {ORDER_HINT}"]
    headed, bare = both(tmp_path, lines)
    assert bare == headed


def test_an_hour_of_the_week_missing_is_named_with_the_count_of_weights(tmp_path):
    # line 101 holds hour 101 (Friday 05:00, weight 1) where 100 belongs
    lines = [f"{h},{WEEK[h]}" for h in range(168) if h != 100]
    csv = written(tmp_path, lines)
    assert problems_of(csv) == [
        f"{csv}:101: '101,1.0' is not numbered hour 100, {ORDER_HINT}",
        f"{csv}: expected 168 hourly weights (Monday 00:00 first), one per line (a header line is allowed), got 167"]


@pytest.mark.parametrize("label", [lambda h: h % 24, lambda h: h % 24 + 1, lambda h: h, lambda h: h + 1],
                         ids=["0-23", "1-24", "0-167", "1-168"])
def test_hours_in_order_are_read_as_before(tmp_path, label):
    assert read_profile_csv(written(tmp_path, [f"{label(h)},{WEEK[h]}" for h in range(168)])) == WEEK


def test_a_first_column_that_could_be_the_days_is_no_hour_and_is_read_in_order(tmp_path):
    # 0-6, each 24 times: a day column (a header `day,weight` names no hour either); the weights are the last cells
    assert read_profile_csv(written(tmp_path, [f"{h // 24},{WEEK[h]}" for h in range(168)])) == WEEK


def test_a_slice_of_a_longer_series_is_read_in_order(tmp_path):
    # row numbers 168-335 (the second week of a longer frame): no hours of the week, as under a header
    assert read_profile_csv(written(tmp_path, [f"{h + 168},{WEEK[h]}" for h in range(168)])) == WEEK
