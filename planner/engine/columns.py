"""Rows of a few columns of a small table as plain Python tuples: what the engine loops over instead of
`itertuples` (which builds a namedtuple class on every call, dearer than these tables' few rows)."""

from __future__ import annotations

import pandas as pd


def column_rows(frame: pd.DataFrame, *names: str) -> zip:
    """The rows of `frame`'s columns `names` as tuples of Python values, in order."""
    return zip(*(frame[name].tolist() for name in names))
