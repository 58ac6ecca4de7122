"""Small-table access the engine's hot paths share: rows of a few columns as plain Python tuples (what the
engine loops over instead of `itertuples`, which builds a namedtuple class on every call), a column read
once per owner, and rows taken by position."""

from __future__ import annotations

import numpy as np
import pandas as pd


def column_rows(frame: pd.DataFrame, *names: str) -> zip:
    """The rows of `frame`'s columns `names` as tuples of Python values, in order."""
    return zip(*(frame[name].tolist() for name in names))


def cached_column(owner, frame: pd.DataFrame, name: str) -> np.ndarray:
    """`frame[name].to_numpy()`, read once and kept in `owner.__dict__`: each read of a string column through
    pandas copies it, and hot loops ask for the same few columns many times. `owner` (Inputs, CostSchedule)
    is never changed in place (`replace` and `take` make new ones), so the copy cannot go stale."""
    cache = owner.__dict__.setdefault("_cols", {})
    if name not in cache:
        cache[name] = frame[name].to_numpy()
    return cache[name]


def take_rows(frame: pd.DataFrame, positions: np.ndarray) -> pd.DataFrame:
    """The rows of `frame` at `positions`, numbered 0 … n−1: `frame.take(positions).reset_index(drop=True)`
    without reset_index's second pass over the columns (take has made a new frame)."""
    rows = frame.take(positions)
    rows.index = pd.RangeIndex(len(rows))
    return rows
