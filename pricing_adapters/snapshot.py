"""The packaged price snapshot: the embedded default offers table, readable offline.

The `snapshot_file` of each registry row that has one (`snapshots/aws.csv`, `snapshots/azure.csv`) holds
offers-table rows (see `schema.OFFER_COLUMNS`) built by `scripts/build_snapshot.py` from public price
data; `snapshots/manifest.json` says what they were built from and the `as_of` range of each file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from typing import IO

import pandas as pd

from pricing_adapters import registry
from pricing_adapters.schema import OFFER_COLUMNS, OffersSchemaError, validate_offers

SNAPSHOT_PROVIDERS = tuple(p.name for p in registry.providers() if p.snapshot_file)  # ("aws", "azure")
_TEXT = [c for c, t in OFFER_COLUMNS.items() if t == "string"]
_NUMERIC = [c for c, t in OFFER_COLUMNS.items() if t == "float64"]


def _snapshot_dir():
    return files("pricing_adapters") / "snapshots"


def _read_csv(f: IO[str] | str) -> pd.DataFrame:
    """CSV text as read, not yet checked: empty text cells stay "", empty numeric cells become NaN."""
    return pd.read_csv(
        f,
        dtype={**dict.fromkeys(_TEXT, "string"), "gpu_known": "bool", "term_months": "int64"},
        keep_default_na=False,
        na_values={c: [""] for c in _NUMERIC},
    )


def read_offers_csv(f: IO[str] | str, origin: str = "offers CSV") -> pd.DataFrame:
    """An offers table from CSV text, validated: empty text cells stay "", empty numeric cells become NaN."""
    try:
        table = _read_csv(f)
    except pd.errors.EmptyDataError:   # pandas says "No columns to parse from file", naming no file
        raise OffersSchemaError(f"{origin}: the file is empty; expected a header line naming the offers columns "
                                "(offer_id, provider, region, sku, … as docs/offers-contract.md lists them) and a "
                                "row per offer") from None
    return validate_offers(table, origin=origin)


def load_snapshot(providers: Sequence[str] | None = None) -> pd.DataFrame:
    """The packaged offers of `providers` (default: every registry row with a snapshot file), validated,
    in registry order (aws, then azure)."""
    packaged = [p for p in registry.providers() if p.snapshot_file]
    have = [p.name for p in packaged]
    wanted = list(have if providers is None else providers)
    unknown = sorted(set(wanted) - set(have))
    if unknown:
        raise ValueError(f"no packaged snapshot for provider(s) {unknown}; have {have}")
    frames, names = [], []
    for provider in packaged:
        if provider.name in wanted:
            with (_snapshot_dir() / provider.snapshot_file).open("r", encoding="utf-8") as f:
                frames.append(_read_csv(f))
            names.append(provider.snapshot_file)
    if not frames:
        return validate_offers(pd.DataFrame({c: [] for c in OFFER_COLUMNS}), origin="snapshot")
    # checked once, all files together (each file alone would be checked again after the concat)
    return validate_offers(pd.concat(frames, ignore_index=True), origin=f"snapshot {' + '.join(names)}")


def snapshot_info() -> dict:
    """What the packaged snapshot holds: `built_at`, `built_from`, and per provider the row count, the
    `as_of` range (`as_of_min`, `as_of_max`; ISO dates, None when no row states a date) and the undated
    rows (`rows_without_as_of`); `commitments` (which reserved / savings-plan options have prices, per
    provider and region) and `retired_sizes_dropped` (size, series, GPU, retired_on, rows dropped, source)."""
    manifest = json.loads((_snapshot_dir() / "manifest.json").read_text(encoding="utf-8"))
    providers = {p.name: manifest["files"][p.snapshot_file] for p in registry.providers()
                 if p.snapshot_file in manifest["files"]}
    return {"built_at": manifest["built_at"], "built_from": manifest["built_from"], "providers": providers,
            "commitments": manifest.get("commitments", {"priced": {}}),
            "retired_sizes_dropped": manifest.get("retired_sizes_dropped", [])}
