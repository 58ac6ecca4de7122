"""Cloud sizes the provider has retired: their offers are dropped from snapshots and live refreshes.

The table (`data/azure_retired_sizes.csv`) lists each retired size with its series, GPU, the retirement date
and the provider's announcement (docs/offers-contract.md, "Retired sizes"). A price list may keep quoting
a size after it is gone (the 2026-06-18 Retail Prices data still prices NCv3, retired 2025-09-30); planning
on it would recommend hardware nobody can rent.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pandas as pd

from pricing_adapters import PACKAGE_DIR

RETIRED_COLUMNS = ["arm_sku_name", "series", "gpu", "retired_on", "source"]


def read_retired_table(path: str | Path | None = None) -> pd.DataFrame:
    """The retired-size table (packaged by default): one row per size, every column as text; checked:
    columns, unique names, an ISO date and a source on every row."""
    if path is None:
        with (PACKAGE_DIR / "data" / "azure_retired_sizes.csv").open("r", encoding="utf-8") as f:
            table = pd.read_csv(f, dtype=str, keep_default_na=False)
        where = "pricing_adapters/data/azure_retired_sizes.csv"
    else:
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
        where = str(path)
    if list(table.columns) != RETIRED_COLUMNS:
        raise ValueError(f"{where}: columns {list(table.columns)}, expected {RETIRED_COLUMNS}")
    dupes = sorted(table.loc[table["arm_sku_name"].duplicated(), "arm_sku_name"])
    if dupes:
        raise ValueError(f"{where}: duplicate sizes {dupes}")
    bad = [r.arm_sku_name for r in table.itertuples() if not r.source.strip()
           or pd.to_datetime(r.retired_on, format="%Y-%m-%d", errors="coerce") is pd.NaT]
    if bad:
        raise ValueError(f"{where}: rows without a source or an ISO retired_on date: {bad}")
    return table


@lru_cache(maxsize=1)
def retired_azure_sizes() -> frozenset[str]:
    """Lower-cased names of the packaged retired Azure sizes."""
    return frozenset(read_retired_table()["arm_sku_name"].str.lower())


def is_retired_azure_size(arm_sku_name: str) -> bool:
    """True when `arm_sku_name` (any case, surrounding spaces ignored) is a retired Azure size."""
    return (arm_sku_name or "").strip().lower() in retired_azure_sizes()
