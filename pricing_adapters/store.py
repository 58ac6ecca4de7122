"""The local price store: every refresh kept as a snapshot with its offers (SQLite, standard library).

A snapshot is written in one transaction after its offers passed validation, so a failed, throttled,
partial or killed refresh never replaces the last good one. The file lives in the platform's data
directory unless `FLEETPLAN_STORE` or `--store PATH` says otherwise. A file that is corrupt or not a
price store is detected, set aside (renamed) and reported; callers fall back to the packaged snapshot.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from pricing_adapters.errors import StoreCorrupt, StoreError
from pricing_adapters.schema import OFFER_COLUMNS, validate_offers

APPLICATION_ID = 0x46504C4E  # "FPLN" in the SQLite header: tells our store from any other SQLite file
SCHEMA_VERSION = 1
ENV_VAR = "FLEETPLAN_STORE"

_SQL_TYPE = {"string": "TEXT", "bool": "INTEGER", "float64": "REAL", "int64": "INTEGER"}
_SCHEMA = f"""
CREATE TABLE snapshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    regions TEXT NOT NULL,          -- JSON list
    fetched_at TEXT NOT NULL,       -- ISO 8601, UTC
    source TEXT NOT NULL,
    row_count INTEGER NOT NULL
);
CREATE TABLE offers (
    snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
    {", ".join(f'"{c}" {_SQL_TYPE[t]}' for c, t in OFFER_COLUMNS.items())}
);
CREATE INDEX offers_by_snapshot ON offers(snapshot_id);
"""


def default_store_path() -> Path:
    """`FLEETPLAN_STORE`, else `prices.sqlite` in the platform's user data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path("fleetplan", appauthor=False) / "prices.sqlite"


@dataclass(frozen=True)
class SnapshotInfo:
    id: int
    provider: str
    regions: tuple[str, ...]
    fetched_at: str
    source: str
    row_count: int

    def age_days(self, now: datetime | None = None) -> float:
        now = now or datetime.now(timezone.utc)
        return (now - datetime.fromisoformat(self.fetched_at)).total_seconds() / 86400

    def describe(self) -> str:
        return (f"snapshot #{self.id} ({self.provider}, {', '.join(self.regions)}, {self.row_count} offers, "
                f"fetched {self.fetched_at}, {self.age_days():.1f} days old)")


class PriceStore:
    """Snapshots of offers in one SQLite file."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_store_path()
        self._check()

    # -- opening ------------------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=5, isolation_level=None)

    def _check(self) -> None:
        """Create the store when missing; StoreCorrupt for a damaged or foreign file, StoreError for a
        file that cannot be used now (a directory, no permission, locked by another process)."""
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a directory; give the path of a store file")
        try:
            if not self.path.exists() or self.path.stat().st_size == 0:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                con = self._connect()
                try:
                    con.executescript(_SCHEMA)
                    # the id goes last: a file left half-created is not taken for a store
                    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                finally:
                    con.close()
                return
            con = self._connect()
            try:
                app_id = con.execute("PRAGMA application_id").fetchone()[0]
                version = con.execute("PRAGMA user_version").fetchone()[0]
                ok = con.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                con.close()
        except OSError as exc:
            raise StoreError(f"cannot use {self.path}: {exc.strerror or exc}") from None
        except sqlite3.DatabaseError as exc:
            text = str(exc)
            if "not a database" in text or "malformed" in text or "corrupt" in text:
                raise StoreCorrupt(f"{self.path} is not a readable price store ({text})") from None
            raise StoreError(f"cannot use {self.path}: {text}") from None  # locked, read-only, …
        if app_id != APPLICATION_ID:
            raise StoreCorrupt(f"{self.path} is an SQLite file but not a fleetplan price store")
        if version != SCHEMA_VERSION:
            raise StoreError(f"{self.path} has store schema {version}; this fleetplan reads {SCHEMA_VERSION}")
        if ok != "ok":
            raise StoreCorrupt(f"{self.path} is corrupt: {ok}")

    # -- writing ------------------------------------------------------------------------------------

    def save(self, provider: str, regions: Sequence[str], source: str, offers: pd.DataFrame,
             fetched_at: datetime | None = None) -> SnapshotInfo:
        """Validate `offers`, then write them as one new snapshot in a single transaction."""
        offers = validate_offers(offers, origin=f"{provider} refresh")
        if offers.empty:
            raise StoreError(f"{provider} refresh returned no offers; the store is unchanged")
        fetched = (fetched_at or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
        cols = list(OFFER_COLUMNS)
        rows = [tuple(None if pd.isna(v) else (v.item() if hasattr(v, "item") else v) for v in rec)
                for rec in offers[cols].itertuples(index=False, name=None)]
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            try:
                cur = con.execute(
                    "INSERT INTO snapshots (provider, regions, fetched_at, source, row_count) VALUES (?,?,?,?,?)",
                    (provider, json.dumps(list(regions)), fetched, source, len(rows)))
                snap_id = cur.lastrowid
                con.executemany(
                    f"INSERT INTO offers (snapshot_id, {', '.join(f'{chr(34)}{c}{chr(34)}' for c in cols)}) "
                    f"VALUES ({', '.join('?' * (len(cols) + 1))})",
                    [(snap_id, *r) for r in rows])
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"could not write to {self.path}: {exc}; the store is unchanged") from None
        finally:
            con.close()
        return SnapshotInfo(snap_id, provider, tuple(regions), fetched, source, len(rows))

    # -- reading ------------------------------------------------------------------------------------

    def snapshots(self) -> list[SnapshotInfo]:
        """Every snapshot, oldest first."""
        con = self._connect()
        try:
            rows = con.execute("SELECT id, provider, regions, fetched_at, source, row_count FROM snapshots "
                               "ORDER BY fetched_at, id").fetchall()
        finally:
            con.close()
        return [SnapshotInfo(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], r[5]) for r in rows]

    def snapshot(self, snapshot_id: int) -> SnapshotInfo:
        for info in self.snapshots():
            if info.id == snapshot_id:
                return info
        raise StoreError(f"no snapshot #{snapshot_id} in {self.path}")

    def latest(self, providers: Sequence[str] | None = None) -> list[SnapshotInfo]:
        """The newest snapshot of each provider (of `providers`, default all)."""
        newest: dict[str, SnapshotInfo] = {}
        for info in self.snapshots():
            if providers is None or info.provider in providers:
                newest[info.provider] = info
        return [newest[p] for p in sorted(newest)]

    def offers(self, snapshot_id: int) -> pd.DataFrame:
        """The offers of one snapshot, validated."""
        con = self._connect()
        try:
            df = pd.read_sql_query("SELECT * FROM offers WHERE snapshot_id = ?", con, params=(snapshot_id,))
        finally:
            con.close()
        if df.empty:
            raise StoreError(f"no snapshot #{snapshot_id} in {self.path}")
        df = df.drop(columns=["snapshot_id"])
        df["gpu_known"] = df["gpu_known"].astype(bool)
        return validate_offers(df, origin=f"store snapshot #{snapshot_id}")

    def latest_offers(self, providers: Sequence[str] | None = None) -> tuple[pd.DataFrame, list[SnapshotInfo]]:
        """For each provider and region, the offers of the newest snapshot that covers that region; and
        the snapshots used. A refresh of one region leaves the other regions' latest prices in force."""
        newest: dict[tuple[str, str], SnapshotInfo] = {}
        for info in self.snapshots():  # oldest first: later snapshots overwrite
            if providers is None or info.provider in providers:
                for region in info.regions:
                    newest[(info.provider, region)] = info
        if not newest:
            return pd.DataFrame(), []
        used = sorted({i.id: i for i in newest.values()}.values(), key=lambda i: i.id)
        frames = []
        for info in used:
            regions = [r for (p, r), i in newest.items() if i.id == info.id]
            offers = self.offers(info.id)
            frames.append(offers[offers["region"].isin(regions)])
        return validate_offers(pd.concat(frames, ignore_index=True), origin="store"), used

    def coverage(self, infos: Sequence[SnapshotInfo]) -> set[tuple[str, str]]:
        """(provider, region) pairs the given snapshots cover."""
        return {(i.provider, r) for i in infos for r in i.regions}


def set_aside(path: Path) -> Path | None:
    """Rename a bad store file to `<name>.bad-<time>`; the new path, or None when it could not be moved."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.bad-{stamp}")
    try:
        path.rename(aside)
        return aside
    except OSError:
        return None


def open_store(path: str | Path | None = None) -> tuple[PriceStore | None, str | None]:
    """(store, warning). A corrupt or foreign file is renamed to `<name>.bad-<time>` and reported; a
    file that cannot be used now (locked, no permission, a directory) is reported and left alone. In
    both cases the caller uses the packaged snapshot."""
    path = Path(path) if path is not None else default_store_path()
    try:
        return PriceStore(path), None
    except StoreCorrupt as exc:
        aside = set_aside(path)
        moved = f"; moved aside to {aside}" if aside else ""
        return None, f"{exc}{moved}; using the packaged snapshot"
    except StoreError as exc:
        return None, f"{exc}; using the packaged snapshot"
