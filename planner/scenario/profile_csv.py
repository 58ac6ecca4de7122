"""The rules of a workload's CSV profile: 168 hourly weights (Monday 00:00 first), one per line.

A weight is the line's last comma-separated cell, written with ASCII digits and a decimal point (`1.5`,
`2e-3`): `1_000`, `１` (full-width) or a decimal comma are refused with the line named, not read as some
other number. Lines starting with `#` are comments; a first line whose last cell holds no digit (nor names a day) is a header.
Under a header `weight,hour` whose lines' last cells number the hours, the weight is the first cell; under a
header naming the weight before its last column (`weight,day,hour`), the weight is the column it names when the
others number each line's day and hour in order, and the file is refused when they do not. A header cell names
what its head word names (`hourly_weight` a weight, `hour_of_day` an hour, `load_date` a date, read as no day).
Without a header, a last column that reads as the hour of the day or the day (`0.8,Mon,9`) is read as such when
the columns number the lines in order one way only, and the file is refused when they do not. A line with more
cells than the header names (without one: than most lines hold) is refused, not read by its last cell (`10,3,5`,
3.5 with a decimal comma, had read as 5); so is a comma in the weight's quoted cell (`10,"1,5"`; a weight quoted
alone, `"0.3"` as in a file with every cell quoted, is read; a label's, `"Monday, 00:00"`, is the label's). Under a
header ending with the weight, labels read as above (hour of the week; day and hour of the day, numbers by their
value; days counted from Sunday on lines from Monday too) or ISO 8601 times in
a date column or a date-time index's unnamed one (`,weight`; Monday 00:00 or 01:00 first, an hour apart but at one
clock change) are checked, not used: lines not in order from Monday 00:00 are refused (the weights are read in the
lines' order); labels not read so (`09:00`, `1/5/2026 0:00`) are left unread. Row numbers first are passed over under
the header cells pandas and R give them (`,hour,weight`; `Unnamed: 0`, `Unnamed: 0.1`, `index`, `level_0`; R's
write.csv `"","hour","weight"` over `"1",0,0.8`, its quotes taken off), the labels after them checked; `,weight,hour`
reads as `weight,hour` after them. Where labels are checked, a line with fewer cells than the header names is refused
at its line (its last cell could be a label as well as the weight), the other lines' labels still checked; where most
lines are short, the labels are left unread. Without a header, lines of two cells whose first cells number the hours
(of the week 0-167 or 1-168, or of the day 0-23 or 1-24 seven times; not a column that could be the days) are checked
as under `hour,weight`: out of order, or an hour missing or repeated, refused at the first line out of place.

Plain Python, no numpy: `fleetplan validate` checks a profile with the same rules and words as the engine,
which reads the weights through `read_profile_csv` and scales them (planner.engine.profiles).
"""

from __future__ import annotations

import contextlib
import csv
import difflib
import math
import re
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from planner.errors import ScenarioError
from planner.months import HOURS_PER_WEEK
from planner.text import not_utf8, shortened
from pricing_adapters.signatures import binary_kind, not_the_file

# 168 weights are a few KB even with a timestamp column; reading stops here, so a profile path that names
# something endless (a device or a pipe behind a .csv name) cannot keep the reader busy
MAX_PROFILE_CHARS = 1024 * 1024
MAX_LINES_REPORTED = 5   # bad lines named one by one; a file of 168 NaNs needs no 168 messages
# what a weight may look like: Python's float() also takes `1_000`, non-ASCII digits and spaces inside
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
NOT_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
# at most the 4,300 digits int() converts (sys.get_int_max_str_digits): a longer run of digits in a label or row
# number cell is no number here, and was a ValueError's traceback
DIGITS = re.compile(r"\d{1,4300}", re.ASCII)
# the head words of a header cell that name the weight, the day (of the week), the hour and a date, where the
# weight is not the last column (`hourly_weight` names a weight; `gpu_hours`, a quantity, is no hour:
# `day,hour,gpu_hours`; `load_date` is a date, not a load)
WEIGHT_WORDS = {"weight", "weights", "load", "value", "values"}
DAY_WORDS = {"day", "weekday", "dow", "dayofweek"}
HOUR_WORDS = {"hour"}
DATE_WORDS = {"date", "datetime", "timestamp"}   # named to say so: a date is not read as the day of the week
KINDS = (("weight", WEIGHT_WORDS), ("day", DAY_WORDS), ("hour", HOUR_WORDS), ("date", DATE_WORDS))
PLURALS = {"hours": "hour", "days": "day"}   # `hours` or `hours_of_day` is the hour column; `gpu_hours` a quantity
CONNECTORS = {"of", "per"}              # the head word comes before them: `hour_of_day`, `weight_per_day`
QUALIFIERS = {"index", "idx", "num", "number", "name"}   # said after the head word: `day_name`, `hour_index`
# the first header cells over a frame's row numbers: pandas' to_csv() leaves it empty (R's write.csv quotes it: ""), a
# file read back and written again names it `Unnamed: 0` (again: `Unnamed: 0.1` before it), reset_index() `index`
# (twice: `level_0` before it)
INDEX_HEADER = re.compile(r"|index|level_0|unnamed: \d{1,9}(?:\.\d{1,9})?", re.IGNORECASE)
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
INDEXED_SHAPES = ("expected the weight last (hour,weight or day,hour,weight) or the other columns numbering each "
                  "line's day (0-6 or 1-7, or Monday … Sunday) and hour of the day (0-23 or 1-24), or its hour of "
                  "the week (0-167 or 1-168), in order from Monday 00:00")
NO_HEADER_SHAPES = "expected the weight last (day,hour,weight) or a first line naming the columns"
# day and hour columns are looked for among this many columns at most: every pair is tried against the lines
MAX_HEADERLESS_COLUMNS = 8


def read_profile_bytes(path: Path, named: str | None = None) -> bytes:
    """The bytes of the profile CSV at `path`, no more than its longest text can take (UTF-8: at most 4 bytes a
    character, one more to tell a longer file): what read_profile_csv parses and the engine hashes (a plan's
    input_files), read once. ScenarioError when the file cannot be read, naming it `named` (default `path`)."""
    try:
        with Path(path).open("rb") as fh:
            return fh.read(4 * MAX_PROFILE_CHARS + 1)
    except OSError as exc:
        name = path if named is None else named
        raise ScenarioError([f"{name}: cannot read profile: {exc}"], str(name)) from None


def read_profile_csv(path: Path, data: bytes | None = None, named: str | None = None) -> list[float]:
    """The weights of a profile CSV as written: one number per line, the last comma-separated cell of the
    line (a first line whose last cell has no digit is a header; blank lines and `#` comments are skipped), or
    the first cell under a header `weight,hour` whose last column numbers the hours, or the column a header names
    the weight's before its last (`weight,day,hour`, `,weight,hour` after row numbers) where the others number the
    lines' days and hours. Raises
    ScenarioError naming every problem with `FILE:line`: a cell that is not a plain finite number ≥ 0, a line
    separated by semicolons, lines that read as decimal commas (`1,5`), a last column numbering the hours
    (`0.4,0` … `0.55,167`) with no header saying so, a header naming the weight before its last column over
    other columns than the day and hour in order, with no header a last column reading as the day or the hour of
    the day where the columns do not number the lines in order one way only, a line with more cells than the
    header names (or most lines hold) or a quoted comma, labels before a last weight column (or without a header,
    hours of the week in the first) not numbering the lines in order from Monday 00:00, a line with fewer cells than
    the header names where the others' labels are checked, not exactly 168 weights, or weights all zero. `data`:
    the file's bytes as read_profile_bytes read them (read here when not given). `named`: the file as its messages
    name it (default `path`): as the scenario wrote it, not as the path it is read at."""
    data = read_profile_bytes(path, named) if data is None else data
    name = path if named is None else named
    # a workbook, a compressed copy, …: said by what it is, as a scenario file or an offers CSV given so is
    if found := binary_kind(data, whole=len(data) <= 4 * MAX_PROFILE_CHARS, wanted="a profile CSV file"):
        raise ScenarioError([not_the_file(str(name), found, "a profile CSV file")], str(name))
    try:
        # None: more bytes than MAX_PROFILE_CHARS characters can take; -sig: a spreadsheet's byte-order mark is no header
        text = None if len(data) > 4 * MAX_PROFILE_CHARS else data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # where, as the scenario and offers readers say it: Python's "can't decode byte 0xe9 in position 10" named no line
        raise ScenarioError([f"{name}:{not_utf8(exc)}"], str(name)) from None
    if text is None or len(text) > MAX_PROFILE_CHARS:
        raise ScenarioError([f"{name}: longer than {MAX_PROFILE_CHARS:,} characters; expected {HOURS_PER_WEEK} "
                             f"hourly weights, one per line"], str(name))
    rows = [(line, raw) for line, raw in enumerate(text.splitlines(), start=1)
            if raw.strip() and not raw.lstrip().startswith("#")]
    header = rows.pop(0) if rows and _is_header(rows[0][1]) else None
    hours_last = _hours_in_last_column(rows)
    named_weight_hour = header is not None and _names_weight_then_hour(header[1])
    # Weights first and the hour number last: read the first column when the header names the columns so and
    # the last cells number the hours, both saying the same thing; a user who labelled the columns expects them
    # read by their names. Without the header, refused: the last cells alone could be a ramp of weights as well
    # as hour numbers, and which column to read is the user's to say (swap the columns, or name them).
    column = 0 if hours_last and named_weight_hour else -1
    # A header naming the weight before its last column (`weight,day,hour` over `0.4,0,0` …): the last cells are
    # then no weights (read, the hours of the day were a profile 0 … 23 each day, and validated). Read by name when
    # the other columns number each line's day and hour in order: a user who named the columns and numbered the
    # lines expects the column named the weight read, and the numbers agreeing with the lines' order confirm the
    # header describes them. Refused otherwise (another column, lines out of order): the header and the lines
    # disagree, and which one is wrong is the user's to say. `weight,hour` over a line short of a cell is read so
    # too: that line is named as short, where the last cells' hours had been said not to count the week.
    indexed = (header is not None and _weight_before_last(header[1])
               and (not named_weight_hour or any(len(_cells(raw)) < 2 for _, raw in rows)))
    refused = None
    if indexed:
        column, refused = _weight_column_indexed(name, header, rows)
    elif header is None and not hours_last:
        column, refused = _weight_column_headerless(name, rows)
    values, bad = _weights(name, rows, column)
    if refused:   # the weights of a column the header says is not the weight's are not worth naming
        bad = [refused]
    elif hours_last and not (named_weight_hour or indexed):
        line, raw = rows[0]
        bad.insert(0, f"{name}:{line}: the last cells number the hours ({shortened(raw, repr)} …) and the first "
                      f"do not: the columns read as weight,hour; expected the hour number first: hour,weight "
                      f"(or a header line weight,hour naming the columns)")
    elif named_weight_hour and not hours_last:
        line, raw = header
        bad.insert(0, f"{name}:{line}: the header {shortened(raw.strip(), repr)} puts the hour last, but the last "
                      f"cells do not number the hours 0-167 or 1-168 in order; expected the hour number first: "
                      f"hour,weight (the weight is the last cell)")
    elif column == -1 and (problem := _decimal_comma_problem(name, rows)):
        bad.insert(0, problem)
    elif extra := _extra_cells(name, header, rows, column):
        # a line with a cell too many had been read by its last cell: `10,3,5` (3.5 with a decimal comma) as 5; the
        # weights' problems of other lines kept (a set of line numbers: a tuple of prefixes was quadratic, 11 min+)
        prefix = len(f"{name}:")
        bad = [*extra.values(), *(problem for problem in bad if _line_number(problem, prefix) not in extra)]
    elif column == -1 and (labels := _labels_out_of_order(name, header, rows)) != (None, {}):
        # a line too short to tell its weight from its labels is named as such, not by its last cell's problem
        order, short = labels
        prefix = len(f"{name}:")
        bad = [*short.values(), *([order] if order else []),
               *(problem for problem in bad if _line_number(problem, prefix) not in short)]
    problems = bad[:MAX_LINES_REPORTED]
    if len(bad) > MAX_LINES_REPORTED:
        problems.append(f"{name}: {len(bad) - MAX_LINES_REPORTED} more lines with bad weights")
    if len(values) != HOURS_PER_WEEK:
        problems.append(f"{name}: expected {HOURS_PER_WEEK} hourly weights (Monday 00:00 first), one per line "
                        f"(a header line is allowed), got {len(values)}")
    elif not bad and not any(v > 0 for v in values):
        problems.append(f"{name}: expected hourly weights not all zero (they are scaled to mean 1)")
    if problems:
        raise ScenarioError(problems, str(name))
    return values


def _is_header(raw: str) -> bool:
    """Whether a first line is a header: its last cell holds no digit (`1_000` is a bad weight, no header) and is
    no day's name (`0.8,9,Mon`, the day last, is a line of a file without a header)."""
    cell = raw.split(",")[-1].strip()
    return (_weight(cell) is None and not any(ch.isdigit() for ch in cell)
            and not (raw.count(",") and _could_be_days((cell,))))


def _weights(path: Path | str, rows: list[tuple[int, str]], column: int) -> tuple[list[float], list[str]]:
    """(the weight of each (line, text) of `rows`, read from its cells' `column`: 0 where it is bad; the problems
    of the bad ones, each with `path:line`)."""
    values: list[float] = []
    bad: list[str] = []
    for line, raw in rows:
        cells = raw.split(",")
        cell = cells[column].strip() if column < len(cells) else ""   # a short line under a header naming more
        if len(cell) > 2 and cell[0] == cell[-1] == '"' and '"' not in cell[1:-1]:
            cell = cell[1:-1].strip()   # quoted as every cell of df.to_csv(quoting=csv.QUOTE_ALL): "0.3"
        value = _weight(cell)
        if ";" in raw:
            bad.append(f"{path}:{line}: cells separated by ';' (a spreadsheet's export with decimal commas?); "
                       f"expected the weight as the last comma-separated cell, with a decimal point: "
                       f"got {shortened(raw.strip(), repr)}")
            value = 0.0
        elif value is None and any(ch.isdigit() for ch in cell):
            bad.append(f"{path}:{line}: expected a number written with the digits 0-9 and a decimal point "
                       f"(no '_', inner spaces or full-width digits), got {shortened(cell, repr)}")
        elif value is None:
            bad.append(f"{path}:{line}: expected a number, got {shortened(cell, repr)}")
        elif not math.isfinite(value):
            bad.append(f"{path}:{line}: expected a finite hourly weight, got {shortened(cell, repr)}")
        elif value < 0:
            bad.append(f"{path}:{line}: expected an hourly weight ≥ 0, got {shortened(cell, repr)}")
        values.append(0.0 if value is None else value)
    return values, bad


def _decimal_comma_problem(path: Path | str, rows: list[tuple[int, str]]) -> str | None:
    """The problem of a column of weights with decimal commas: `1,5` lines among `2` lines, or `d,d` lines
    throughout whose first cells do not number the hours (an hour column would); None when there is none."""
    pairs = [(line, raw.strip(), cells) for line, raw in rows
             if len(cells := [c.strip() for c in raw.split(",")]) == 2 and all(DIGITS.fullmatch(c) for c in cells)]
    widths = {len(raw.split(",")) for _, raw in rows}
    if not pairs or not (widths == {1, 2} or (len(pairs) == len(rows)
                                              and not _numbered_hours([int(c[0]) for _, _, c in pairs]))):
        return None
    line, raw, (first, weight) = pairs[0]
    return (f"{path}:{line}: {shortened(raw, repr)} reads as two cells, the weight {shortened(weight)}; "
            f"{_comma_hint(first, weight)}; if the first cell numbers the hours, number them 0-167 or 1-168")


def _comma_hint(whole: str, after: str) -> str:
    """What to write for the whole numbers `whole`,`after` if they are one number: a decimal point, or, where three
    digits follow the comma (`1,017`), no thousands separator either."""
    hint = f"if it is one number with a decimal comma, write a decimal point ({shortened(f'{whole}.{after}')})"
    if len(after) == 3:
        hint += f", or without the thousands separator if it is one ({shortened(whole + after)})"
    return hint


def _line_number(problem: str, prefix: int) -> int | None:
    """The line a problem `FILE:line: …` names (`prefix`: the length of `FILE:`), or None for one of the file."""
    number = problem[prefix:].partition(":")[0]
    return int(number) if number.isdigit() else None


def _extra_cells(path: Path | str, header: tuple[int, str] | None, rows: list[tuple[int, str]],
                 column: int = -1) -> dict[int, str]:
    """The problem of each of `rows` with more cells than the `header` (line, text) names, or without one than most
    lines hold, where that is two or more, by line: its weight had been read from its last cell. (One column, with
    lines of two cells among them, is _decimal_comma_problem's; under a header `weight` alone lines of two cells were
    read by their last, as they still are.) Quoted cells (`"Monday, 00:00",0.4`) count as one, but a comma in the
    weight's quoted cell (`column`: its index) or a line the csv module cannot read is a problem too, the cell shown
    as written."""
    counts = [raw.count(",") + 1 for _, raw in rows]
    width = header[1].count(",") + 1 if header else Counter(counts).most_common(1)[0][0] if counts else 0
    problems: dict[int, str] = {}
    if width < 2:
        return problems
    for (line, raw), count in zip(rows, counts):
        cells = raw.split(",")
        if ";" in raw:   # its own problem: cells separated by ';'
            continue
        if '"' in raw:
            try:
                cells = next(csv.reader([raw]))
            except csv.Error as exc:   # a quoted cell over the csv module's field limit, …
                problems[line] = _said(problems, _unreadable_said, path, line, raw, exc)
                continue
            quoted = cells[column].strip() if -len(cells) <= column < len(cells) else ""
            if "," in quoted:   # a label's comma (`"Monday, 00:00"`) is the label's
                problems[line] = _said(problems, _quoted_comma_said, path, line, quoted)
                continue
        elif count <= width:
            continue
        if len(cells) > width:
            problems[line] = _said(problems, _extra_cells_said, path, header, line, raw, cells, width)
    return problems


def _said(problems: dict, words: Callable[..., str], *args) -> str:
    """A line's problem, `words(*args)`, for the first MAX_LINES_REPORTED; "" after them (counted, never shown): the
    words of every line of a 1 MiB file of refused lines had cost 2-3 times the reading."""
    return words(*args) if len(problems) < MAX_LINES_REPORTED else ""


def _unreadable_said(path: Path | str, line: int, raw: str, exc: csv.Error) -> str:
    """The problem of a line the csv module cannot read (a quoted cell over its field limit)."""
    return (f"{path}:{line}: cannot read the line's cells ({exc}): got {shortened(raw.strip(), repr)}; expected the "
            f"weight as the last comma-separated cell, written with the digits 0-9 and a decimal point")


def _quoted_comma_said(path: Path | str, line: int, quoted: str) -> str:
    """The problem of the weight's quoted cell `quoted`, which holds a comma."""
    whole = [part.strip() for part in quoted.split(",")]
    hint = (_comma_hint(*whole) if len(whole) == 2 and all(DIGITS.fullmatch(c) for c in whole)
            else "expected the weight as one number with a decimal point")
    return f"{path}:{line}: the quoted cell {shortened(quoted, repr)} holds a comma; {hint}"


def _extra_cells_said(path: Path | str, header: tuple[int, str] | None, line: int, raw: str, cells: list[str],
                      width: int) -> str:
    """The problem of line `line` (`raw`, its `cells`), with more cells than the `width` its header names."""
    named = f"the header {shortened(header[1].strip(), repr)} names" if header else "most lines hold"
    at = [cell.strip() for cell in cells[width - 1:width + 1]]
    hint = (_comma_hint(*at) if len(cells) == width + 1 and all(DIGITS.fullmatch(c) for c in at)
            else "remove the extra cells, or name their columns in a header")
    return (f"{path}:{line}: {shortened(raw.strip(), repr)} has {len(cells)} cells, more than the {width} {named} (its "
            f"last cell, {shortened(cells[-1].strip(), repr)}, is no weight to read); {hint}")


def _labels_out_of_order(path: Path | str, header: tuple[int, str] | None,
                         rows: list[tuple[int, str]]) -> tuple[str | None, dict[int, str]]:
    """(the problem of `rows` not in order from Monday 00:00, the problem of each line too short to read, by line) under
    a `header` (line, text) ending with the weight, whose other columns number each line's hour of the week, or its
    day and hour of the day, as _weight_column_indexed reads them, or hold ISO 8601 times (`2026-01-07 13:00`, under
    a date or time column or a date-time index's unnamed one, `,weight`); without a header, on lines of two cells whose
    first numbers the hours of the week 0-167 (or 1-168) each once, or else the hours as under `hour,weight` (of the
    day 0-23 seven times; of the week, one missing or repeated) where that column could not be the days. The weights
    are read in the lines' order: lines sorted by their weights, or a week starting on a Wednesday, are refused. A line
    with fewer cells than the header names (without one: than two) cannot be read where the others' labels are:
    whether its last cell is its weight or a label cannot be told. (None, {}) where the lines are in order or the
    labels are none this module reads (`09:00`, `1/5/2026 0:00`), or most lines hold fewer cells: read in the lines'
    order, as written. Row numbers first (`,hour,weight`, `Unnamed: 0,day,hour,weight`, R's `"",hour,weight`) are
    passed over: the labels after them are checked."""
    week = rows[:HOURS_PER_WEEK]   # more rows are too many weights, said as such
    table = [_cells(raw) for _, raw in week]
    names = _cells(header[1]) if header else ["", ""]
    width = len(names)
    full = [cells for cells in table if len(cells) == width]
    if len(full) * 2 <= len(week) or any(len(cells) > width for cells in table):
        return None, {}

    def column(i: int) -> list[str | None]:   # a column's labels; None on a short line, whose labels are not known
        return [cells[i] if len(cells) == width else None for cells in table]

    skip = _index_columns(names, full) if header else 0
    if header is None:
        read, problem = _rows_out_of_order(path, week, column(0), "hour")
        if not read and not _could_be_days(tuple(cells[0] for cells in full)):
            # hours of the day (0-23 seven times), or of the week with one missing or repeated: checked as under a
            # header `hour,weight`, which they would be given (a column that could be the days names no hour)
            read, problem = _numbered_out_of_order(path, week, ["hour", "weight"], full, 0)
    elif skip and width == skip + 1:   # `,weight`: the row numbers alone say the lines' order
        read, problem = _rows_out_of_order(path, week, column(skip - 1))
    elif width == skip + 2 and (_column_named(names[skip]) == "date" or _head_word(_words(names[skip])) == "time"
                                or INDEX_HEADER.fullmatch(names[skip])):
        read, problem = _times_out_of_order(path, week, column(skip))
    else:
        read, problem = _numbered_out_of_order(path, week, names[skip:], [cells[skip:] for cells in full], skip)
    if not read:
        return None, {}
    short: dict[int, str] = {}
    for line, raw in rows:
        if len(cells := _cells(raw)) < width:
            short[line] = _said(short, _short_line_said, path, header, line, raw, len(cells), width)
    return problem, short


def _numbered_out_of_order(path: Path | str, week: list[tuple[int, str]], names: list[str], full: list[list[str]],
                           skip: int) -> tuple[bool, str | None]:
    """(whether the labels are read, the problem of the first of `week` out of place) for the header `names` after
    `skip` row numbers ending with the weight, whose other columns number the hour of the week, or the day and hour
    of the day, in each of the lines of every column `full` (those cells after the row numbers)."""
    columns = _header_columns(",".join(names))
    if isinstance(columns, str) or columns[0] != len(names) - 1:
        return False, None
    _, day, hour = columns
    hours = tuple(cells[hour] for cells in full)
    daily = day is None and _could_be_hours(hours)   # hour,weight over the hours of each day: 0 … 23 seven times
    if not (_could_be_hours(hours) if day is not None or daily else _numbers_up_to(hours, HOURS_PER_WEEK)):
        return False, None
    if day is not None and not _could_be_days(tuple(cells[day] for cells in full)):
        return False, None
    width = len(names) + skip
    placed = [k for k, (_, raw) in enumerate(week) if len(_cells(raw)) == width]
    days = _whole_numbers([cells[day] for cells in full]) if day is not None else None
    if (days and len(week) == HOURS_PER_WEEK
            and all(d == min(days) + (k // 24 + 1) % 7 for d, k in zip(days, placed))):
        # the days counted from Sunday (Postgres's DOW: Monday 1, Sunday 0; MySQL's DAYOFWEEK, Excel's WEEKDAY:
        # Monday 2, Sunday 1) on lines in order from Monday: read in order, as they were; the hours still checked
        day, daily = None, True
    # the columns as the lines' own cells count them, index included: the line out of place is named as written
    found = _out_of_place(week, None if day is None else day + skip, hour + skip, daily, width)
    if found is None:
        return True, None
    (line, raw), place = found
    return True, (f"{path}:{line}: {shortened(raw.strip(), repr)} is not numbered {place}, its place in the week; the "
                  f"weights are read in the lines' order: sort the lines by their labels (Monday 00:00 first)")


def _short_line_said(path: Path | str, header: tuple[int, str] | None, line: int, raw: str, count: int,
                     width: int) -> str:
    """The problem of line `line` (`raw`), of `count` cells, fewer than the `width` its header names."""
    named = f"the header {shortened(header[1].strip(), repr)} names" if header else "most lines hold"
    return (f"{path}:{line}: {shortened(raw.strip(), repr)} has {count} cell{'s' if count > 1 else ''}, fewer than the "
            f"{width} {named}: which cell is missing cannot be told; expected each line to hold all {width} columns")


def _index_columns(names: list[str], table: list[list[str]]) -> int:
    """How many of the header's first `names` are row numbers: named as pandas or R names them (INDEX_HEADER) over
    whole numbers in every line of `table` (`,Unnamed: 0,hour,weight`, a file read back without its index and written
    again, has two); the weight's last column is never one."""
    skip = 0
    while (skip < len(names) - 1 and INDEX_HEADER.fullmatch(names[skip])
           and _whole_numbers([_cell(cells, skip) for cells in table]) is not None):
        skip += 1
    return skip


def _rows_out_of_order(path: Path | str, week: list[tuple[int, str]], cells: list[str | None],
                       kind: str = "row") -> tuple[bool, str | None]:
    """(whether the row numbers are read, the problem) of the `week` of rows whose row numbers `cells` (None on a
    short line) number them 0-167 (or 1-168) each once but not in order: a frame sorted by its weights and written
    with its index (`df.sort_values("weight").to_csv()`). Not read where they are other numbers (days of 0-23
    concatenated, a slice of a longer series): the lines are read in their order, as written (a header-less first
    column of hours of the day is _numbered_out_of_order's to check, as under `hour,weight`). `kind`: what the numbers
    number, in the words ("hour": a header-less first column)."""
    known = [(k, cell) for k, cell in enumerate(cells) if cell is not None]
    numbers = _whole_numbers([cell for _, cell in known])
    if not numbers or len(week) != HOURS_PER_WEEK or len(set(numbers)) != len(numbers):
        return False, None
    # from 0 or from 1: both, where a short line may hold the 0 or the 168
    bases = [base for base in (0, 1) if base <= min(numbers) and max(numbers) < base + HOURS_PER_WEEK]
    if not bases or any(all(n == base + k for (k, _), n in zip(known, numbers)) for base in bases):
        return bool(bases), None
    base = bases[0]
    k = next(k for (k, _), n in zip(known, numbers) if n != base + k)
    line, raw = week[k]
    return True, (f"{path}:{line}: {shortened(raw.strip(), repr)} is not numbered {kind} {base + k}: its {kind} numbers "
                  f"({base}-{base + HOURS_PER_WEEK - 1}, each once) are out of order, and the weights are read in the "
                  f"lines' order: sort the lines by their {kind} numbers (Monday 00:00 first)")


def _times_out_of_order(path: Path | str, week: list[tuple[int, str]],
                        cells: list[str | None]) -> tuple[bool, str | None]:
    """(whether the times are read, the problem) of the `week` of rows whose date and time `cells` (None on a short
    line) do not run one hour apart from a Monday 00:00. Not read where one cell is no ISO 8601 date with a time
    (`1/5/2026 0:00`, `2026-01-05`)."""
    known = [(k, cell) for k, cell in enumerate(cells) if cell is not None]
    hour = timedelta(hours=1)
    try:
        # a date alone (`2026-01-05`, 10 characters) says no hour: a date,weight file of days is not read
        times = [datetime.fromisoformat(cell) for _, cell in known if len(cell) > len("2026-01-05")]
        if not times or len(times) != len(known):
            return False, None
        # how far each time is from an hour for each line after the one before (a short line between: its hour)
        offs = [later - time - (k2 - k1) * hour for (k1, _), (k2, _), time, later in zip(known, known[1:], times, times[1:])]
        start = times[0] - known[0][0] * hour
    except (ValueError, TypeError, OverflowError):   # not ISO 8601; times with and without a UTC offset; year 1
        return False, None
    odd = [i + 1 for i, off in enumerate(offs) if off]
    if times[0].tzinfo is None and len(odd) == 1 and offs[odd[0] - 1] in (-hour, hour):
        odd = []   # local times over a clock change: an hour written twice, or one skipped, on lines in order
    # Monday 01:00 first: times that end their hour (end_time), read in order as the week's hours too
    if start.weekday() != 0 or start.minute or start.second or start.hour > 1:
        return True, (f"{path}:{week[0][0]}: the lines start on {DAY_NAMES[start.weekday()]} {start:%H:%M}; the weights "
                      f"are read in the lines' order as the week's hours from Monday 00:00: start the file at a Monday "
                      f"00:00 (in the time zone the demand keeps)")
    if not odd:
        return True, None
    late = odd[0]
    (before, _), (k, _) = known[late - 1], known[late]
    line, raw = week[k]
    after = "one hour after the line before" if k - before == 1 else f"{k - before} hours after line {week[before][0]}"
    try:
        meant = f"{times[late - 1] + (k - before) * hour:%Y-%m-%d %H:%M}, {after}"
    except OverflowError:   # past the year 9999
        meant = after
    return True, (f"{path}:{line}: {shortened(raw.strip(), repr)} is not {meant}; the weights are read in the lines' "
                  f"order, one an hour from Monday 00:00: sort the lines by their labels (Monday 00:00 first)")


def _hours_in_last_column(rows: list[tuple[int, str]]) -> bool:
    """Whether the last cells number the hours in order (0-167 or 1-168) and the first cells do not, on lines of
    two or more cells alike: the weight is then not the last cell."""
    table = [[c.strip() for c in raw.split(",")] for _, raw in rows]
    if len(table) < 2 or len({len(cells) for cells in table}) != 1 or len(table[0]) < 2:
        return False
    last, first = _whole_numbers([c[-1] for c in table]), _whole_numbers([c[0] for c in table])
    return last is not None and _numbered_hours(last) and not (first is not None and _numbered_hours(first))


def _names_weight_then_hour(header: str) -> bool:
    """Whether a header of two cells names the hour in its last and not in its first (`weight,hour`,
    `load,hour_of_week`; `hourly_weight` names a weight)."""
    cells = header.split(",")
    return len(cells) == 2 and _column_named(cells[1]) == "hour" and _column_named(cells[0]) != "hour"


def _column_named(cell: str) -> str | None:
    """What a header cell names: "weight", "hour", "day", "date" (what its head word names, as a whole word:
    `hour_of_day` is an hour, `weight_per_day` and `hourly_weight` weights, `load_date` a date; `hours` or
    `hours_of_day` is the hour, `gpu_hours` none), or None."""
    words = _words(cell)
    head = _head_word(words)
    if head in PLURALS and head == words[0]:
        head = PLURALS[head]
    return next((kind for kind, named in KINDS if head in named), None)


def _words(cell: str) -> list[str]:
    """The words of a header cell, lower case: `load_date`, `Load Date` and `loadDate` are load, date."""
    return [word.lower() for word in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", cell)]


def _head_word(words: list[str]) -> str:
    """The word a column name is about: the last before `of` or `per` (`hour_of_day`, `weight_per_day`), else the
    last (`hourly_weight`, `load_date`), passing over a trailing index or name (`day_name`); "" for none."""
    cut = next((i for i, word in enumerate(words) if word in CONNECTORS and i > 0), len(words))
    head = words[:cut]
    while len(head) > 1 and head[-1] in QUALIFIERS:
        head = head[:-1]
    return head[-1] if head else ""


def _unnamed_cell(cell: str) -> str:
    """A header cell naming no weight, day or hour, in words: quoted, with what it names instead (a date) or the
    name it is close to."""
    quoted = shortened(cell, repr)
    if _column_named(cell) == "date":
        return f"{quoted} (a date, which is not read: number or name the day of the week)"
    known = sorted({word for _, named in KINDS[:3] for word in named} | set(PLURALS))
    head = _head_word(_words(cell))
    # a near miss only: `gpu_hours` is a quantity, not a misspelt hour
    near = difflib.get_close_matches(head, known, n=1) if head not in known else []
    return f"{quoted} (did you mean {near[0]!r}?)" if near else quoted


def _weight_before_last(header: str) -> bool:
    """Whether a header of two or more cells says the weight is not its last column: the last names the hour or the
    day, or names no weight where another does (`weight,timestamp`)."""
    *others, last = [_column_named(cell) for cell in header.split(",")]
    return bool(others) and last != "weight" and (last is not None or "weight" in others)


def _weight_column_indexed(path: Path | str, header: tuple[int, str], rows: list[tuple[int, str]]) -> tuple[int, str | None]:
    """(the column of the weights under a `header` (line, text) naming them before its last column, None), or
    (-1, the problem) where its other columns do not number the day and the hour of each of `rows` in order."""
    line, raw = header
    named = f"the header {shortened(raw.strip(), repr)} does not end with the weight"
    names = _cells(raw)
    table = [_cells(text) for _, text in rows]
    # row numbers first (`,weight,hour`, from df[["weight", "hour"]].to_csv()): the header after them is read
    skip = _index_columns(names, [cells for cells in table if len(cells) == len(names)])
    columns = _header_columns(",".join(names[skip:]))
    if isinstance(columns, str):
        return -1, f"{path}:{line}: {named}, and {columns}; {INDEXED_SHAPES}"
    if short := next(((row, cells) for row, cells in zip(rows, table) if len(cells) < len(names)), None):
        (row_line, text), cells = short
        return -1, _short_line_said(path, header, row_line, text, len(cells), len(names))
    weight, day, hour = (None if i is None else i + skip for i in columns)
    out_of_place = _out_of_place(rows, day, hour)
    if out_of_place is not None:
        (row_line, text), place = out_of_place
        return -1, (f"{path}:{row_line}: {named}, but {shortened(text.strip(), repr)} is not numbered {place}, its "
                    f"place in the week; {INDEXED_SHAPES}")
    return weight, None


def _weight_column_headerless(path: Path | str, rows: list[tuple[int, str]]) -> tuple[int, str | None]:
    """(the column of the weights of header-less `rows`, None), or (-1, the problem). The last column, as written,
    unless it could be the day or the hour of the day beside another column that could be the other (`0.8,Mon,9`,
    `0.8,0,9`): then the one column left by the day and hour columns that number the lines in order from Monday
    00:00, where every such reading leaves the same weights; else the problem."""
    table = [[c.strip() for c in raw.split(",")] for _, raw in rows]
    width = len(table[0]) if table else 0
    if not 3 <= width <= MAX_HEADERLESS_COLUMNS or any(len(cells) != width for cells in table):
        return -1, None
    columns = list(zip(*table))
    readings = [(d, h) for d in range(width) for h in range(width)
                if d != h and _could_be_days(columns[d]) and _could_be_hours(columns[h])]
    claims = [reading for reading in readings if width - 1 in reading]
    if not claims:   # the last column is no day or hour: the weights, as in day,hour,weight
        return -1, None
    in_order = [reading for reading in readings if _out_of_place(rows, *reading) is None]
    weights = {_column_left(width, *reading) for reading in in_order}
    if weights and None not in weights and len({columns[w] for w in weights}) == 1:
        return min(weights), None   # readings leaving the same cells as the weights agree
    line, raw = rows[0]
    if in_order:
        shapes = [_shape(width, *reading) for reading in in_order]
        return -1, (f"{path}:{line}: no header, and the columns of {shortened(raw.strip(), repr)} … read as "
                    f"{' and as '.join(shapes)}, each numbering the lines in order from Monday 00:00: which column "
                    f"holds the weights cannot be told; {NO_HEADER_SHAPES} ({_example(width, in_order)})")
    # a reading leaving a column of decimals as the weights is the one to name; whole numbers could be days or hours
    d, h = min(claims, key=lambda reading: _whole_weights(columns, _column_left(width, *reading)))
    if _whole_weights(columns, _column_left(width, d, h)):
        readings.sort(key=lambda reading: width - 1 in reading)   # the weight last first: the header to suggest
        shapes = list(dict.fromkeys(_shape(width, *reading) for reading in readings))
        return -1, (f"{path}:{line}: no header, and the columns of {shortened(raw.strip(), repr)} … could read as "
                    f"{' or as '.join(shapes)}, but none numbers the lines in order from Monday 00:00; "
                    f"{NO_HEADER_SHAPES} ({_example(width, readings)})")
    (row_line, text), place = _out_of_place(rows, d, h)
    said = "day of the week" if d == width - 1 else "hour of the day"
    return -1, (f"{path}:{row_line}: no header, and the last cells read as the {said} ({_shape(width, d, h)}), but "
                f"{shortened(text.strip(), repr)} is not numbered {place}, its place in the week; {NO_HEADER_SHAPES} "
                f"({_example(width, [(d, h)])}) over lines in order from Monday 00:00")


def _whole_weights(columns: list[tuple[str, ...]], weight: int | None) -> bool:
    """Whether the weights' column is not known or holds whole numbers alone."""
    return weight is None or _whole_numbers(list(columns[weight])) is not None


def _could_be_days(cells: tuple[str, ...]) -> bool:
    """Whether every cell could be a day of the week: 0-6, 1-7, or named (Mon or Monday)."""
    names = {name.casefold() for day in DAY_NAMES for name in (day, day[:3])}
    return all(cell.casefold() in names for cell in cells) or _numbers_up_to(cells, 7)


def _could_be_hours(cells: tuple[str, ...]) -> bool:
    """Whether every cell could be an hour of the day: 0-23 or 1-24."""
    return _numbers_up_to(cells, 24)


def _numbers_up_to(cells: tuple[str, ...], count: int) -> bool:
    """Whether the cells are whole numbers all from 0 to count - 1 or all from 1 to count."""
    numbers = _whole_numbers(list(cells))
    return numbers is not None and (max(numbers) < count or (min(numbers) >= 1 and max(numbers) <= count))


def _column_left(width: int, day: int, hour: int) -> int | None:
    """The weights' column of lines `width` cells wide beside `day` and `hour` columns: the last where it is free,
    else the one column left; None where more are left."""
    left = [i for i in range(width) if i not in (day, hour)]
    return width - 1 if width - 1 in left else (left[0] if len(left) == 1 else None)


def _shape(width: int, day: int, hour: int) -> str:
    """The columns of a reading, as a header would name them (`weight,day,hour`; `?` for a column not known)."""
    weight = _column_left(width, day, hour)
    return ",".join({day: "day", hour: "hour", weight: "weight"}.get(i, "?") for i in range(width))


def _example(width: int, readings: list[tuple[int, int]]) -> str:
    """A header to suggest: the first of the readings whose weights' column is known, else weight,day,hour."""
    return "e.g. " + next((_shape(width, *r) for r in readings if _column_left(width, *r) is not None), "weight,day,hour")


def _header_columns(header: str) -> tuple[int, int | None, int] | str:
    """(the weight's column, the day's or None, the hour's) of a header naming the weight before its last column:
    the weight is the cell naming a weight, or else the one cell naming nothing; every other cell names the day or
    the hour, each once at most, and one the hour. Else what is wrong, in words."""
    cells = [cell.strip() for cell in header.split(",")]
    kinds = [_column_named(cell) for cell in cells]
    unnamed = [i for i, kind in enumerate(kinds) if kind is None]
    weight = next((i for i, kind in enumerate(kinds) if kind == "weight"), unnamed[0] if len(unnamed) == 1 else None)
    extra = [_unnamed_cell(cells[i]) for i, kind in enumerate(kinds) if kind not in ("day", "hour") and i != weight]
    if extra:
        return f"{', '.join(extra)} {'names' if len(extra) == 1 else 'name'} no day or hour"
    if weight is None:
        return "no column is left for the weight"
    for kind in ("day", "hour"):
        if kinds.count(kind) > 1:
            return f"{', '.join(shortened(c, repr) for c, k in zip(cells, kinds) if k == kind)} each name the {kind}"
    if "hour" not in kinds:
        return "no column names the hour"
    return weight, kinds.index("day") if "day" in kinds else None, kinds.index("hour")


def _out_of_place(rows: list[tuple[int, str]], day: int | None, hour: int, daily: bool = False,
                  width: int = 0) -> tuple[tuple[int, str], str] | None:
    """The first of the week's `rows` whose `day` and `hour` cells (the hour of the day, or of the week where `day`
    is None and not `daily`) are not its place in the week, and that place as the columns number it ("day 1, hour 0"); None when
    every row is in place. A column numbers from 0, or from 1 where its first cell is 1; days may be named (Monday
    or Mon). Rows of fewer cells than `width` are passed over: their labels are not known."""
    week = rows[:HOURS_PER_WEEK]   # more rows are too many weights, said as such
    if not week:
        return None
    table = [_cells(raw) for _, raw in week]
    # how the labels are written, from the first line that holds them all (a short first line holds the weight)
    first = next((k for k, cells in enumerate(table) if len(cells) >= width), 0)

    def place(k: int) -> dict[str, int]:
        return {"day": k // 24, "hour": k % 24 if day is not None or daily else k}

    columns = [(kind, i, _place_words(_cell(table[first], i), place(first)[kind]))
               for kind, i in (("day", day), ("hour", hour)) if i is not None]
    for k, (row, cells) in enumerate(zip(week, table)):
        if len(cells) < width:
            continue
        expected = [(kind, i, said(place(k)[kind])) for kind, i, said in columns]
        if any(not _same_label(_cell(cells, i), text) for _, i, text in expected):
            return row, ", ".join(f"{kind} {text}" for kind, _, text in expected)
    return None


def _place_words(first: str, at: int = 0) -> Callable[[int], str]:
    """How a column whose cell `first`, on the line at place `at` (from 0), writes the place k of a line: k + 1 where
    that cell is at + 1, the k-th day's name where it is a day's (Mon or Monday, as written), else k."""
    if first.casefold() in {name.casefold() for day in DAY_NAMES for name in (day, day[:3])}:
        return lambda k: DAY_NAMES[k][:3] if len(first) == 3 else DAY_NAMES[k]
    return lambda k: str(k + 1 if DIGITS.fullmatch(first) and int(first) == at + 1 else k)


def _same_label(cell: str, text: str) -> bool:
    """Whether a label cell writes `text` (a place as _place_words writes it): numbers by their value (`00` is 0, as
    strftime's %H and Excel's hh write it), names in any case."""
    if DIGITS.fullmatch(cell) and text.isdigit():
        return int(cell) == int(text)
    return cell.casefold() == text.casefold()


def _cell(cells: list[str], i: int) -> str:
    return cells[i] if i < len(cells) else ""


def _cells(raw: str) -> list[str]:
    """A line's cells, stripped, their quotes taken off as the csv module reads them (R's write.csv quotes its row
    names and header: `"1",0,0.8`); split at each comma where it cannot read the line (_extra_cells names it)."""
    if '"' in raw:
        with contextlib.suppress(csv.Error):
            return [cell.strip() for cell in next(csv.reader([raw]))]
    return [cell.strip() for cell in raw.split(",")]


def _whole_numbers(cells: list[str]) -> list[int] | None:
    """The cells as whole numbers, or None when one is not written as digits alone."""
    return [int(c) for c in cells] if all(DIGITS.fullmatch(c) for c in cells) else None


def _weight(cell: str) -> float | None:
    """The number a cell writes (inf and nan too, for their own message), or None when it is not one."""
    if PLAIN_NUMBER.fullmatch(cell) or cell.lower() in NOT_FINITE:
        return float(cell)
    return None


def _numbered_hours(first_cells: list[int]) -> bool:
    """Whether a first column numbers the hours of the week in order, from 0 or from 1."""
    start = first_cells[0] if first_cells else 0
    return start in (0, 1) and first_cells == list(range(start, start + len(first_cells)))
