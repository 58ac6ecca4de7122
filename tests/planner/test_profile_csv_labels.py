"""A profile's hour, day and date labels place each weight at the hour of the week they name, in every layout
(an audit, 2026-12: `hour,weight` lines sorted by weight, labels intact, were read in the file's order and planned
at 39,897 USD against 30,739 for the same week in order, both validated; `timestamp,weight` from a Wednesday was
read as Monday first; `weight,hour` lines out of order were refused, with a message sending the user to
hour,weight). Every hour of the week must be named once.

Each expected week is built here by hour index (numpy), and the files write its weights in another order."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from planner import load_scenario
from planner.engine import plan
from planner.errors import ScenarioError
from planner.scenario.profile_csv import read_profile_csv

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
# a week of distinct-looking weights by hour of the week (0 = Monday 00:00), and an order to write them in
WEEK = np.random.default_rng(11).integers(1, 40, 168) / 4
SHUFFLED = np.random.default_rng(12).permutation(168)
BY_WEIGHT = np.argsort(WEEK, kind="stable")   # a spreadsheet sorted by its weight column
NIGHT = np.where(np.arange(168) % 24 < 9, 4.0, 1.0)


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        read_profile_csv(path)
    return info.value.problems


@pytest.mark.parametrize("order", [BY_WEIGHT, SHUFFLED], ids=["sorted-by-weight", "shuffled"])
@pytest.mark.parametrize("header,line", [
    ("hour,weight", "{k},{w}"),
    ("hour,weight", "{k1},{w}"),                           # hours 1-168
    (None, "{k},{w}"),                                     # no header: the first column numbers the hours
    ("day,hour,weight", "{d},{h},{w}"),
    ("day,hour,weight", "{name},{h},{w}"),
    (None, "{d},{h},{w}"),                                 # no header: the day and the hour before the weight
    ("weight,hour", "{w},{k}"),                            # was refused out of order, pointing to hour,weight
    ("weight,day,hour", "{w},{d},{h}"),                    # was refused at the first line out of order
    ("load_date,hour,value", "2026-12-{date:02d},{h},{w}"),   # 2026-12-07 is a Monday
])
def test_labelled_lines_in_any_order_place_each_weight_at_its_hour(tmp_path, header, line, order):
    lines = [line.format(k=k, k1=k + 1, d=k // 24, h=k % 24, name=DAYS[k // 24], date=7 + k // 24, w=WEEK[k])
             for k in order]
    csv = write(tmp_path / "w.csv", ([header] if header else []) + lines)
    assert read_profile_csv(csv) == WEEK.tolist()


@pytest.mark.parametrize("header,line", [
    ("timestamp,weight", "{t:%Y-%m-%d %H:%M},{w}"),
    ("weight,timestamp", "{w},{t:%Y-%m-%dT%H:%M:%S}"),     # was refused: 'a date, which is not read'
    ("time,weight", "{t:%Y-%m-%dT%H:%M}+01:00,{w}"),       # a column naming nothing, all dates and times
    (None, "{t:%Y-%m-%d %H:%M},{w}"),
])
def test_a_week_of_timestamps_from_a_wednesday_is_placed_by_weekday_and_hour(tmp_path, header, line):
    # 2026-12-09 is a Wednesday: the file's k-th line is hour 48 + k of the week (Monday 00:00 = 0), wrapping
    start = datetime(2026, 12, 9)
    lines = [line.format(t=start + timedelta(hours=k), w=WEEK[(48 + k) % 168]) for k in range(168)]
    csv = write(tmp_path / "w.csv", ([header] if header else []) + lines)
    assert read_profile_csv(csv) == WEEK.tolist()


def test_an_hour_named_twice_is_refused_at_its_line_with_the_hour_left_out(tmp_path):
    # lines 2-169 are hours 0-167, but line 52 says 49 (Wednesday 01:00, as line 51 does) where 50 belongs
    csv = write(tmp_path / "w.csv", ["hour,weight", *(f"{49 if k == 50 else k},{WEEK[k]}" for k in range(168))])
    assert problems_of(csv) == [
        f"{csv}:52: '49,{WEEK[50]}' names Wednesday 01:00 (hour 49), as line 51 does; expected each of the 168 hours "
        f"of the week once",
        f"{csv}: no line names Wednesday 02:00 (hour 50) (1 hour of the week); expected each of the 168 once"]


def test_an_hour_of_the_day_without_a_day_column_must_follow_the_lines_order(tmp_path):
    # hour_of_day 0-23 seven times: the day is the line's place; in order it reads as written
    in_order = write(tmp_path / "in_order.csv", ["hour_of_day,weight", *(f"{k % 24},{WEEK[k]}" for k in range(168))])
    assert read_profile_csv(in_order) == WEEK.tolist()
    # sorted by weight, the day cannot be told: refused at the first line out of place (line 2, hour 0 expected)
    k = BY_WEIGHT[0]
    csv = write(tmp_path / "w.csv", ["hour_of_day,weight", *(f"{j % 24},{WEEK[j]}" for j in BY_WEIGHT)])
    assert problems_of(csv) == [
        f"{csv}:2: '{k % 24},{WEEK[k]}' names the hour '{k % 24}', but as line 1 of the week it is Monday 00:00 "
        f"(hour 0); with no day column the lines must run in order from Monday 00:00: add a day column or sort "
        f"the lines"]


@pytest.mark.parametrize("header,line,said", [
    # Unix seconds: had been refused as 'a date, which is not read'; dates are read, as ISO 8601
    ("weight,timestamp", "{w},{unix}", "expected a date (and time) written as 2026-01-07 13:00, got '1796601600'"),
    # a US date: month and day could be either way round
    ("timestamp,weight", "{t:%m/%d/%Y %H:%M},{w}", "expected a date (and time) written as 2026-01-07 13:00, got "
                                                    "'12/07/2026 00:00'"),
    # day numbers under a date's name
    ("value,load_date,hour", "{w},{d},{h}", "expected a date (and time) written as 2026-01-07 13:00, got '0'"),
    ("day,hour,weight", "{d},{h24},{w}", "expected an hour of the day (0-23 or 1-24), got '24'"),
    ("day,hour,weight", "x{d},{h},{w}", "expected a day of the week (0-6 or 1-7, or Monday … Sunday), got 'x0'"),
])
def test_a_label_naming_no_hour_of_the_week_is_refused_at_its_line(tmp_path, header, line, said):
    start = datetime(2026, 12, 7)   # a Monday
    lines = [line.format(w=WEEK[k], unix=1796601600 + 3600 * k, t=start + timedelta(hours=k), d=k // 24, h=k % 24,
                         h24=k % 24 + (k == 0) * 24) for k in range(168)]
    csv = write(tmp_path / "w.csv", [header, *lines])
    assert problems_of(csv) == [f"{csv}:2: {said}"]


def test_a_weight_hour_header_over_hour_weight_lines_names_the_header_to_write(tmp_path):
    # 'expected the hour number first: hour,weight' sent users to a layout then read in the lines' order; both
    # layouts place by the hour now, and the message says the header should name the columns as they are
    csv = write(tmp_path / "w.csv", ["weight,hour", *(f"{k},{WEEK[k]}" for k in range(168))])
    assert problems_of(csv) == [
        f"{csv}:1: the header 'weight,hour' puts the hour last, but the last cells do not number the hours of the "
        f"week, 0-167 or 1-168, each once; expected them there, or a header naming the columns as they are "
        f"(hour,weight where the weight is the last cell)"]


def test_a_spreadsheet_sorted_by_weight_plans_the_same_total_as_the_week_in_order(tmp_path):
    # The worked example (one card within its budget, the rest on AWS on-demand) with 400 GPU-hours a month of
    # night-heavy training (4.0 in hours 0-8 of each day) beside 400 of office work (business_hours): the card
    # serves both, so how the two weeks line up moves the total. Read in the file's order, the sorted copy put
    # the night's weights on Sunday afternoon and planned another total (11,227.79 USD against 10,857.05).
    write(tmp_path / "night.csv", ["hour,weight", *(f"{k},{NIGHT[k]}" for k in range(168))])
    write(tmp_path / "sorted.csv", ["hour,weight", *(f"{k},{NIGHT[k]}" for k in np.argsort(NIGHT, kind="stable"))])
    write(tmp_path / "column.csv", ["weight", *(f"{w}" for w in NIGHT)])   # no labels: the lines' order is the week's
    text = (WORKED.read_text(encoding="utf-8").replace("gpu_hours_per_month: 800", "gpu_hours_per_month: 400")
            .replace("source: offers-g5-us-east-1.csv", f"source: {WORKED.parent / 'offers-g5-us-east-1.csv'}"))
    office = text[text.index("  - name: training"):].replace("name: training", "name: office") \
        .replace("profile: flat", "profile: business_hours")
    totals = {}
    for name in ("night", "sorted", "column"):
        scenario = tmp_path / f"{name}.yaml"
        scenario.write_text(text.replace("profile: flat", f"profile: {name}.csv") + office, encoding="utf-8")
        totals[name] = plan(load_scenario(scenario), baselines=False).total
    assert totals["sorted"] == pytest.approx(totals["night"], rel=1e-9)
    assert totals["night"] == pytest.approx(totals["column"], rel=1e-9)
