"""The rules of a workload's CSV profile: 168 hourly weights (Monday 00:00 first), one per line.

A weight is the line's last comma-separated cell, written with ASCII digits and a decimal point (`1.5`,
`2e-3`): `1_000`, `１` (full-width) or a decimal comma are refused with the line named, not read as some
other number. Lines starting with `#` are comments; a first line whose last cell holds no digit is a header.
Under a header `weight,hour` whose lines' last cells number the hours, the weight is the first cell.

Plain Python, no numpy: `fleetplan validate` checks a profile with the same rules and words as the engine,
which reads the weights through `read_profile_csv` and scales them (planner.engine.profiles).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from planner.errors import ScenarioError
from planner.months import HOURS_PER_WEEK
from planner.text import shortened

# 168 weights are a few KB even with a timestamp column; reading stops here, so a profile path that names
# something endless (a device or a pipe behind a .csv name) cannot keep the reader busy
MAX_PROFILE_CHARS = 1024 * 1024
MAX_LINES_REPORTED = 5   # bad lines named one by one; a file of 168 NaNs needs no 168 messages
# what a weight may look like: Python's float() also takes `1_000`, non-ASCII digits and spaces inside
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
NOT_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
DIGITS = re.compile(r"\d+", re.ASCII)


def read_profile_csv(path: Path) -> list[float]:
    """The weights of a profile CSV as written: one number per line, the last comma-separated cell of the
    line (a first line whose last cell has no digit is a header; blank lines and `#` comments are skipped), or
    the first cell under a header `weight,hour` whose last column numbers the hours. Raises ScenarioError naming
    every problem with `path:line`: a cell that is not a plain finite number ≥ 0, a line separated by semicolons,
    lines that read as decimal commas (`1,5`), a last column numbering the hours (`0.4,0` … `0.55,167`) with no
    header saying so, not exactly 168 weights, or weights all zero."""
    try:
        with Path(path).open(encoding="utf-8-sig") as fh:   # -sig: a spreadsheet's byte-order mark is no header
            text = fh.read(MAX_PROFILE_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([f"{path}: cannot read profile: {exc}"], str(path)) from None
    if len(text) > MAX_PROFILE_CHARS:
        raise ScenarioError([f"{path}: longer than {MAX_PROFILE_CHARS:,} characters; expected {HOURS_PER_WEEK} "
                             f"hourly weights, one per line"], str(path))
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
    values, bad = _weights(path, rows, column)
    if hours_last and not named_weight_hour:
        line, raw = rows[0]
        bad.insert(0, f"{path}:{line}: the last cells number the hours ({shortened(raw, repr)} …) and the first "
                      f"do not: the columns read as weight,hour; expected the hour number first: hour,weight "
                      f"(or a header line weight,hour naming the columns)")
    elif named_weight_hour and not hours_last:
        line, raw = header
        bad.insert(0, f"{path}:{line}: the header {shortened(raw.strip(), repr)} puts the hour last, but the last "
                      f"cells do not number the hours 0-167 or 1-168 in order; expected the hour number first: "
                      f"hour,weight (the weight is the last cell)")
    elif column == -1 and (problem := _decimal_comma_problem(path, rows)):
        bad.insert(0, problem)
    problems = bad[:MAX_LINES_REPORTED]
    if len(bad) > MAX_LINES_REPORTED:
        problems.append(f"{path}: {len(bad) - MAX_LINES_REPORTED} more lines with bad weights")
    if len(values) != HOURS_PER_WEEK:
        problems.append(f"{path}: expected {HOURS_PER_WEEK} hourly weights (Monday 00:00 first), one per line "
                        f"(a header line is allowed), got {len(values)}")
    elif not bad and not any(v > 0 for v in values):
        problems.append(f"{path}: expected hourly weights not all zero (they are scaled to mean 1)")
    if problems:
        raise ScenarioError(problems, str(path))
    return values


def _is_header(raw: str) -> bool:
    """Whether a first line is a header: its last cell holds no digit (`1_000` is a bad weight, no header)."""
    cell = raw.split(",")[-1].strip()
    return _weight(cell) is None and not any(ch.isdigit() for ch in cell)


def _weights(path: Path, rows: list[tuple[int, str]], column: int) -> tuple[list[float], list[str]]:
    """(the weight of each (line, text) of `rows`, read from its cells' `column`: 0 where it is bad; the problems
    of the bad ones, each with `path:line`)."""
    values: list[float] = []
    bad: list[str] = []
    for line, raw in rows:
        cell = raw.split(",")[column].strip()
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


def _decimal_comma_problem(path: Path, rows: list[tuple[int, str]]) -> str | None:
    """The problem of a column of weights with decimal commas: `1,5` lines among `2` lines, or `d,d` lines
    throughout whose first cells do not number the hours (an hour column would); None when there is none."""
    pairs = [(line, raw.strip(), cells) for line, raw in rows
             if len(cells := [c.strip() for c in raw.split(",")]) == 2 and all(DIGITS.fullmatch(c) for c in cells)]
    widths = {len(raw.split(",")) for _, raw in rows}
    if not pairs or not (widths == {1, 2} or (len(pairs) == len(rows)
                                              and not _numbered_hours([int(c[0]) for _, _, c in pairs]))):
        return None
    line, raw, (_, weight) = pairs[0]
    return (f"{path}:{line}: {shortened(raw, repr)} reads as two cells, the weight {shortened(weight)}; "
            f"if it is one number with a decimal comma, write a decimal point ({shortened(raw.replace(',', '.'))}); "
            f"if the first cell numbers the hours, number them 0-167 or 1-168")


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
    return len(cells) == 2 and _names_hour(cells[1]) and not _names_hour(cells[0])


def _names_hour(cell: str) -> bool:
    return bool({"hour", "hours"} & set(re.findall(r"[a-z]+", cell.lower())))


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
