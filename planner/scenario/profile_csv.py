"""The rules of a workload's CSV profile: 168 hourly weights (Monday 00:00 first), one per line.

A weight is the line's last comma-separated cell, written with ASCII digits and a decimal point (`1.5`,
`2e-3`): `1_000`, `１` (full-width) or a decimal comma are refused with the line named, not read as some
other number. Lines starting with `#` are comments; a first line whose last cell holds no digit is a header.

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
    line (a first line whose last cell has no digit is a header; blank lines and `#` comments are skipped). Raises
    ScenarioError naming every problem with `path:line`: a cell that is not a plain finite number ≥ 0, a
    line separated by semicolons, lines that read as decimal commas (`1,5`), not exactly 168 weights, or
    weights all zero."""
    try:
        with Path(path).open(encoding="utf-8-sig") as fh:   # -sig: a spreadsheet's byte-order mark is no header
            text = fh.read(MAX_PROFILE_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([f"{path}: cannot read profile: {exc}"], str(path)) from None
    if len(text) > MAX_PROFILE_CHARS:
        raise ScenarioError([f"{path}: longer than {MAX_PROFILE_CHARS:,} characters; expected {HOURS_PER_WEEK} "
                             f"hourly weights, one per line"], str(path))
    values: list[float] = []
    bad: list[str] = []
    pairs: list[tuple[int, str, str, str]] = []   # (line, text, cells) of lines `d,d`: an hour and a weight, or 1,5?
    widths: set[int] = set()            # cells per weight line
    header_allowed = True
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        cells = raw.split(",")
        cell = cells[-1].strip()
        value = _weight(cell)
        has_digit = any(ch.isdigit() for ch in cell)
        if value is None and header_allowed and not has_digit:   # `1_000` is no header
            header_allowed = False
            continue
        header_allowed = False
        if ";" in raw:
            bad.append(f"{path}:{line}: cells separated by ';' (a spreadsheet's export with decimal commas?); "
                       f"expected the weight as the last comma-separated cell, with a decimal point: "
                       f"got {shortened(raw.strip(), repr)}")
            value = 0.0
        elif value is None and has_digit:
            bad.append(f"{path}:{line}: expected a number written with the digits 0-9 and a decimal point "
                       f"(no '_', inner spaces or full-width digits), got {shortened(cell, repr)}")
        elif value is None:
            bad.append(f"{path}:{line}: expected a number, got {shortened(cell, repr)}")
        elif not math.isfinite(value):
            bad.append(f"{path}:{line}: expected a finite hourly weight, got {shortened(cell, repr)}")
        elif value < 0:
            bad.append(f"{path}:{line}: expected an hourly weight ≥ 0, got {shortened(cell, repr)}")
        if len(cells) == 2 and all(DIGITS.fullmatch(c.strip()) for c in cells):
            pairs.append((line, raw.strip(), cells[0].strip(), cell))
        widths.add(len(cells))
        values.append(0.0 if value is None else value)
    # a column of weights with decimal commas: `1,5` lines among `2` lines, or `d,d` lines throughout whose
    # first cells do not number the hours (an hour column would)
    if pairs and (widths == {1, 2} or (len(pairs) == len(values)
                                       and not _numbered_hours([int(first) for _, _, first, _ in pairs]))):
        line, raw, _, weight = pairs[0]
        bad.insert(0, f"{path}:{line}: {shortened(raw, repr)} reads as two cells, the weight {shortened(weight)}; "
                      f"if it is one number with a decimal comma, write a decimal point ({shortened(raw.replace(',', '.'))}); "
                      f"if the first cell numbers the hours, number them 0-167 or 1-168")
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


def _weight(cell: str) -> float | None:
    """The number a cell writes (inf and nan too, for their own message), or None when it is not one."""
    if PLAIN_NUMBER.fullmatch(cell) or cell.lower() in NOT_FINITE:
        return float(cell)
    return None


def _numbered_hours(first_cells: list[int]) -> bool:
    """Whether a first column numbers the hours of the week in order, from 0 or from 1."""
    start = first_cells[0] if first_cells else 0
    return start in (0, 1) and first_cells == list(range(start, start + len(first_cells)))
