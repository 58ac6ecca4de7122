"""Price sources for a plan: the packaged snapshot, the local price store, or an offers CSV.

`price_table(source, store)` gives the whole offers table of a source and its provenance (which
snapshot, its age). It is read once per plan; the Plan keeps the rows it used, so reports never read
a price source again.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pandas as pd

from planner.errors import PriceSourceError


def _stamp(path: Path | None):
    """Changes whenever the file behind a source changes (cache key)."""
    if path is None:
        return None
    try:
        st = path.stat()
        return (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        return (str(path), None)


def resolve_store(store: str | Path | None = None) -> Path:
    """The price store file: `store` when given, else `$FLEETPLAN_STORE` or the platform's data directory."""
    from pricing_adapters.store import default_store_path

    return Path(store) if store is not None else default_store_path()


def price_table(source: str, store: str | Path | None = None) -> tuple[pd.DataFrame, dict]:
    """(offers, provenance) of a price source: `snapshot`, `store` or an offers CSV path.

    `store` is the price store file for `source: store` (default: see `resolve_store`). Cached; a CSV
    or the store is read again when its file changes. provenance says what was used:
    {"source", "snapshots": [{id, provider, regions, fetched_at, age_days}], "warning"}.
    """
    if source == "store":
        path = resolve_store(store)
    else:
        path = None if source == "snapshot" else Path(source)
    offers, provenance = _read_prices(source, str(path) if path else None, _stamp(path))
    if source == "store":  # ages move on while the cache holds
        from pricing_adapters.store import SnapshotInfo

        keys = ("id", "provider", "regions", "fetched_at", "source", "row_count")
        provenance = dict(provenance, snapshots=[
            dict(s, age_days=round(SnapshotInfo(**{k: s[k] for k in keys}).age_days(), 2))
            for s in provenance["snapshots"]])
    return offers, provenance


def _packaged() -> tuple[pd.DataFrame, dict]:
    from pricing_adapters.snapshot import load_snapshot, snapshot_info

    info = snapshot_info()
    return load_snapshot(), {"source": "snapshot", "built_at": info["built_at"], "snapshots": [], "warning": None}


def _from_store(path: Path) -> tuple[pd.DataFrame, dict]:
    """The newest stored snapshot of each provider and region; the packaged snapshot for the rest."""
    from pricing_adapters.schema import validate_offers
    from pricing_adapters.store import open_store

    store, warning = open_store(path)
    packaged, _ = _packaged()
    if store is None:
        return packaged, {"source": "snapshot", "snapshots": [], "warning": warning}
    offers, infos = store.latest_offers()
    if not infos:
        return packaged, {"source": "snapshot", "snapshots": [], "warning": "; ".join([
                          f"the price store {store.path} has no snapshot yet (run `fleetplan prices "
                          "refresh`); using the packaged snapshot", *store.warnings])}
    covered = store.coverage(infos)
    pairs = pd.Series(list(zip(packaged["provider"], packaged["region"])), index=packaged.index)
    rest = packaged[~pairs.isin(covered)]
    refreshed = {p for p, _ in covered}
    notes = [f"{p}: packaged snapshot (never refreshed)" for p in sorted(set(rest["provider"]) - refreshed)]
    notes += [f"{p}: packaged prices for regions never refreshed" for p in sorted(refreshed & set(rest["provider"]))]
    notes += store.warnings  # rows and snapshots edited into nonsense: skipped, named
    return validate_offers(pd.concat([offers, rest], ignore_index=True), origin="store"), {
        "source": "store", "store": str(store.path),
        "snapshots": [{"id": i.id, "provider": i.provider, "regions": list(i.regions), "fetched_at": i.fetched_at,
                       "source": i.source, "row_count": i.row_count} for i in infos],
        "warning": "; ".join(notes) or None}


@lru_cache(maxsize=8)
def _read_prices(source: str, path: str | None, stamp) -> tuple[pd.DataFrame, dict]:
    from pricing_adapters.errors import PriceSourceError as AdapterError
    from pricing_adapters.snapshot import read_offers_csv

    if source == "snapshot":
        return _packaged()
    if source == "store":
        try:
            return _from_store(Path(path))
        except AdapterError as exc:
            raise PriceSourceError(str(exc)) from None
    csv = Path(source)
    if not csv.is_file():
        raise PriceSourceError(f"prices.source: offers CSV not found: {csv}")
    try:
        return read_offers_csv(str(csv), origin=str(csv)), {"source": str(csv), "snapshots": [], "warning": None}
    except ValueError as exc:
        raise PriceSourceError(str(exc)) from None
