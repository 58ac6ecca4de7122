"""The rules of a workload's CSV profile: 168 hourly weights (Monday 00:00 first), one per line.

Plain Python, no numpy: `fleetplan validate` checks a profile with the same rules and words as the engine,
which reads the weights through `read_profile_csv` and scales them (planner.engine.profiles).
"""

from __future__ import annotations

import math
from pathlib import Path

from planner.errors import ScenarioError
from planner.months import HOURS_PER_WEEK

# 168 weights are a few KB even with a timestamp column; reading stops here, so a profile path that names
# something endless (a device or a pipe behind a .csv name) cannot keep the reader busy
MAX_PROFILE_CHARS = 1024 * 1024
MAX_LINES_REPORTED = 5   # bad lines named one by one; a file of 168 NaNs needs no 168 messages


def read_profile_csv(path: Path) -> list[float]:
    """The weights of a profile CSV as written: one number per line, the last comma-separated cell of the
    line (a first line that is not a number is a header; blank lines are skipped). Raises ScenarioError
    naming every problem with `path:line`: a cell that is not a finite number ≥ 0, not exactly 168
    weights, or weights all zero."""
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
    header_allowed = True
    for line, raw in enumerate(text.splitlines(), start=1):
        cell = raw.split(",")[-1].strip()
        if not raw.strip():
            continue
        try:
            value = float(cell)
        except ValueError:
            if header_allowed:
                header_allowed = False
                continue
            value = None
        header_allowed = False
        if value is None:
            bad.append(f"{path}:{line}: expected a number, got {cell!r}")
        elif not math.isfinite(value):
            bad.append(f"{path}:{line}: expected a finite hourly weight, got {cell!r}")
        elif value < 0:
            bad.append(f"{path}:{line}: expected an hourly weight ≥ 0, got {cell!r}")
        values.append(0.0 if value is None else value)
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
