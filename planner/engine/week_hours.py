"""Which hours of the week each weekly level of a plan stands for, in words: the serving table's `hours_of_week`
("Mon-Fri 09:00-18:00", "Mon-Fri 00:00-09:00, 18:00-24:00; Sat-Sun all day").

The levels are engine.periods.week_blocks' own: a scenario with a serving workload keeps every distinct weight vector
of the workloads' weekly profiles as one level (rounded as weight_classes rounds them), or every hour on its own where
its hours are not merged (engine.inputs). The hours of a level are those whose weight vector is the level's; weekly
hour 0 is Monday 00:00-01:00 (engine.profiles).
"""

from __future__ import annotations

import numpy as np

from planner.engine.inputs import Inputs
from planner.engine.periods import WeekBlocks, week_blocks
from planner.engine.profiles import weekly_profile
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
HOURS_PER_DAY = 24
ALL_WEEK = "all week"
ALL_DAY = "all day"


def level_hours(scenario, merged: bool, week: WeekBlocks | None = None) -> list[tuple[int, ...]] | None:
    """The weekly hours (0 … 167) of each weekly level of `scenario`'s plan with every distinct weight kept (no
    profile_slots grouping: a serving workload's), in the order of week_blocks' levels (`week`: week_blocks(scenario,
    None, merged), if already made); `merged`: whether its identical hours were merged (Inputs.hours_merged), else
    every hour is its own level. None where the hours of some level are not as many as week_blocks counts."""
    week = week_blocks(scenario, None, merge=merged) if week is None else week
    if not merged:
        return [(h,) for h in range(HOURS_PER_WEEK)]
    # the rounding weight_classes compares the hours' weight vectors with
    weights = np.round(np.column_stack([weekly_profile(w.profile).weights for w in scenario.workloads]), 12)
    hours = [tuple(int(h) for h in np.flatnonzero((weights == level).all(axis=1))) for level in week.plan.weights]
    if [len(h) for h in hours] != [round(float(h)) for h in week.plan.hours]:
        return None
    return hours


def period_hours(scenario, inp: Inputs) -> list[tuple[int, ...]] | None:
    """The weekly hours of each period of `inp` (the Inputs resolved from `scenario`): its months' groups hold one
    period per weekly level each, levels inner (engine.periods.demand_periods). None where that is not known: no
    scenario, or levels that do not match `inp`'s periods (a profile grouped into blocks, whose corners share hours)
    or the profile files it read (a profile CSV changed since)."""
    if scenario is None or not len(inp.periods):
        return None
    week = week_blocks(scenario, None, merge=inp.hours_merged)
    read = {f"workloads.{name}.profile": sha for name, sha in week.profile_sha256.items()}
    if any(inp.input_sha256.get(key) != sha for key, sha in read.items()):
        return None
    levels = level_hours(scenario, inp.hours_merged, week)
    if levels is None or len(inp.periods) % len(levels):
        return None
    per_month = np.array([len(h) for h in levels], dtype=float) * HOURS_PER_MONTH / HOURS_PER_WEEK
    if not np.allclose(inp.periods["slot_hours"].to_numpy(dtype=float), np.tile(per_month, len(inp.periods) // len(levels))):
        return None
    return [levels[p % len(levels)] for p in range(len(inp.periods))]


def week_hours_text(hours) -> str:
    """The weekly hours `hours` (0 = Monday 00:00-01:00 … 167) in words: days of the same hours together ("Mon-Fri
    09:00-18:00"; days apart "Mon, Wed"), each day's hours as runs ending at the hour after the last ("18:00-24:00"), a
    whole day "all day", the groups in the order of their first day, separated by "; "; the whole week "all week"."""
    held = sorted({int(h) for h in hours})
    if len(held) == HOURS_PER_WEEK:
        return ALL_WEEK
    by_day: dict[str, list[int]] = {}
    for day in range(len(DAYS)):
        of_day = [h % HOURS_PER_DAY for h in held if h // HOURS_PER_DAY == day]
        if of_day:
            by_day.setdefault(_day_text(of_day), []).append(day)
    return "; ".join(f"{_days_text(days)} {text}" for text, days in by_day.items())


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """(first, last) of each run of consecutive numbers in the sorted `values`."""
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _day_text(hours: list[int]) -> str:
    """"all day", or the hours of one day as "09:00-18:00, 20:00-21:00"."""
    if len(hours) == HOURS_PER_DAY:
        return ALL_DAY
    return ", ".join(f"{first:02d}:00-{last + 1:02d}:00" for first, last in _runs(hours))


def _days_text(days: list[int]) -> str:
    """"Mon-Fri", "Sat", "Mon, Wed"; a run of two days as "Sat-Sun"."""
    return ", ".join(DAYS[first] if first == last else f"{DAYS[first]}-{DAYS[last]}" for first, last in _runs(days))
