"""Weekly demand shapes: 168 hourly weights (Monday 00:00 first) with mean 1.

A month of 730 hours holds each weekly hour 730/168 times, so a profile shapes demand within a month
without changing the month's total.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from planner.catalog.prices import short_sha256
from planner.fileio import file_stamp
from planner.months import HOURS_PER_WEEK
from planner.scenario.profile_csv import read_profile_bytes, read_profile_csv

BUSINESS_TO_OFF_RATIO = 4.0   # a working hour carries 4× the load of a night or weekend hour
DEADLINE_DAYS = (3, 4)        # Thursday, Friday: the push before Friday deadlines
DEADLINE_OFF_WEIGHT = 0.7     # other days; deadline days get (7 − 5 × 0.7) / 2 = 1.75


def _business_hours() -> np.ndarray:
    """Mon–Fri 09:00–18:00 at 4× the weight of every other hour; mean 1."""
    hours = np.arange(HOURS_PER_WEEK)
    day, hour = hours // 24, hours % 24
    busy = (day < 5) & (hour >= 9) & (hour < 18)
    w = np.where(busy, BUSINESS_TO_OFF_RATIO, 1.0)
    return w / w.mean()


def _deadline_peaks() -> np.ndarray:
    """Thursday and Friday at 1.75, the other days at 0.7; mean 1."""
    day = np.arange(HOURS_PER_WEEK) // 24
    peak = (7 - 5 * DEADLINE_OFF_WEIGHT) / len(DEADLINE_DAYS)
    return np.where(np.isin(day, DEADLINE_DAYS), peak, DEADLINE_OFF_WEIGHT)


@dataclass(frozen=True)
class WeeklyProfile:
    """A workload's weekly shape as a plan read it: `weights`, the 168 hourly weights (mean 1), and `sha256`, the hash
    of the CSV's bytes they were read from (catalog.prices.short_sha256: the plan's JSON gives it, input_files);
    None for a built-in profile."""

    weights: np.ndarray
    sha256: str | None = None


def _from_csv(path: Path) -> WeeklyProfile:
    """The weights of a profile CSV (planner.scenario.profile_csv has the rules), scaled to mean 1, with the hash of
    the file's content, taken as it is read (reports never read it again: it may have changed by then)."""
    data = read_profile_bytes(path)   # read once: the weights and their hash are of the same bytes
    w = np.array(read_profile_csv(path, data), dtype=float)
    sha256 = short_sha256(data)
    # divided by the largest first: the mean of weights near 1e308 overflows to inf (and every weight to 0)
    w = w / w.max()
    return WeeklyProfile(w / w.mean(), sha256)


def weekly_weights(profile: str) -> np.ndarray:
    """The 168 weights of a built-in profile name or a CSV path; mean exactly 1 (`weekly_profile`'s)."""
    return weekly_profile(profile).weights


def weekly_profile(profile: str) -> WeeklyProfile:
    """The weekly shape of a built-in profile name or a CSV path: its weights (mean exactly 1) and, of a CSV, the
    hash of the content they were read from.

    Cached; a CSV is read again when it changes (the key holds its resolved path and `file_stamp`)."""
    if profile in ("flat", "business_hours", "deadline_peaks"):
        return _weights(profile, None)
    path = Path(profile).resolve()
    return _weights(str(path), file_stamp(path))


@lru_cache(maxsize=64)
def _weights(profile: str, stamp) -> WeeklyProfile:
    if profile == "flat":
        return WeeklyProfile(np.ones(HOURS_PER_WEEK))
    if profile == "business_hours":
        return WeeklyProfile(_business_hours())
    if profile == "deadline_peaks":
        return WeeklyProfile(_deadline_peaks())
    return _from_csv(Path(profile))
