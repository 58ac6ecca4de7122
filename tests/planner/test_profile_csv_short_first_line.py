"""A short first line does not set how the other lines' labels are read (a review of 12a388b, 2026-12-07): its one
cell is the weight, so the labels' numbering (from 0 or 1, day names) is read from the first line that holds them all,
and only the short line is named; and every cell quoted (df.to_csv(quoting=csv.QUOTE_ALL)) reads its weights."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from planner.scenario.profile_csv import DAY_NAMES, read_profile_csv
from tests.planner.profile_files import problems_of, written

# a week's weights worked out by hand: 0.31 + 0.05 × (hour of the day), the same each day (none whole: "13,1" reads
# as a decimal comma)
WEEK = [0.31 + 0.05 * (k % 24) for k in range(168)]


# a header, the short first line (its one or two cells), and how each other line k (1-167) writes its labels
SHORT_FIRST = {
    # lines 3-169 number hours 2..168 in order (from 1): in order, not "not numbered hour 1"
    "hours from 1": ("hour,weight", "0.3", lambda k: f"{k + 1}"),
    "day names": ("day,hour,weight", "0,0.3", lambda k: f"{DAY_NAMES[k // 24]},{k % 24}"),
    "days and hours from 1": ("day,hour,weight", "1,0.3", lambda k: f"{k // 24 + 1},{k % 24 + 1}"),
    "pandas row numbers from 0, hours from 1": (",hour,weight", "0,0.3", lambda k: f"{k},{k + 1}"),
}


@pytest.mark.parametrize("shape", SHORT_FIRST)
def test_a_short_first_line_alone_is_named(tmp_path, shape):
    header, short, labels = SHORT_FIRST[shape]
    lines = [header, short, *(f"{labels(k)},{WEEK[k]:g}" for k in range(1, 168))]
    problems = problems_of(written(tmp_path, lines))
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{problems[0].split(':')[0]}:2: {short!r} has ")
    assert "fewer than the" in problems[0]


def test_a_short_line_is_named_before_the_lines_out_of_order(tmp_path):
    # hours 0-167 but lines 10 and 11 swapped (hours 9 and 8), and line 3 short: both said, the short line first
    hours = list(range(168))
    hours[8], hours[9] = 9, 8
    lines = ["hour,weight", *(f"{h},{WEEK[h]:g}" for h in hours)]
    lines[2] = "0.4"
    problems = problems_of(written(tmp_path, lines))
    assert len(problems) == 2, problems
    assert ":3: '0.4' has 1 cell" in problems[0]
    assert ":10: '9,0.76' is not numbered hour 8" in problems[1]


def test_every_cell_quoted_reads_the_weights(tmp_path):
    frame = pd.DataFrame({"hour": range(168), "weight": WEEK})
    text = frame.to_csv(index=False, quoting=csv.QUOTE_ALL)
    assert text.splitlines()[1] == '"0","0.31"'   # as pandas writes it
    path = tmp_path / "q.csv"
    path.write_text(text, encoding="utf-8")
    assert read_profile_csv(path) == WEEK


def test_every_cell_quoted_out_of_order_is_still_refused(tmp_path):
    frame = pd.DataFrame({"hour": range(168), "weight": WEEK}).sort_values("weight", kind="mergesort")
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, quoting=csv.QUOTE_ALL)
    path = tmp_path / "q.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    # sorted by weight: hours 0, 24, 48, … (weight 0.31) first; the second line of weights holds hour 24, not 1
    assert any(":3: '\"24\",\"0.31\"' is not numbered hour 1" in p for p in problems_of(path))
