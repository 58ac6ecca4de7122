"""The local price store: every refresh kept as a snapshot with its offers (SQLite, standard library).

A snapshot is written in one transaction after its offers passed validation, so a failed, throttled,
partial or killed refresh never replaces the last good one. The file lives in the platform's data
directory unless `FLEETPLAN_STORE` or `--store PATH` says otherwise.

Many processes may open one path at once (a sweep, the dashboard and a CLI): a new store is built in a
temporary file and linked into place whole, and creating or setting aside is decided under
`<name>.lock`. A damaged store, one whose SQLite header still carries our application id, is moved to a
new `<name>.bad-<time>-<random>` (never over another file); any other file (another application's
SQLite database, a scenario given as the store by mistake) is never moved or written, only reported.
Readers that must leave the disk as it is open with `create=False`: nothing is created, not even the
lock. A store another process keeps locked past BUSY_WAIT_S is StoreLocked, for readers and writers alike:
a lock passes, so it is never taken for a missing store. A store of ours that lost a table or a column every
offer needs (edited by hand) is damaged too. The store made in place of a damaged one numbers its snapshots after the
old store's ids (`_replacing`) and records what it replaced, so a scenario pinned to an old id is refused, never given
another snapshot of that number; every store has a random id (`PriceStore.store_id`) that plans name. A refresh whose
save fails (a full disk, a signal) removes the store and lock it made, and puts back a damaged store it moved aside.
Rows or snapshots edited into nonsense are skipped and named in `PriceStore.warnings`, and the others
keep working: an offer row that breaks the offers contract (a negative price, a lower-case currency), a
row with a text cell that is not UTF-8, a snapshot dated in the future (a wrong clock), offer rows of
another provider than their snapshot's, the same offer id in two snapshots in force, and a snapshot with
no usable offer for a region it claims (its rows deleted), in which case the previous snapshot of that
region stays in force.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import math
import os
import secrets
import sqlite3
import stat
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pandas as pd

from pricing_adapters.errors import (
    StoreCorrupt,
    StoreError,
    StoreForeign,
    StoreLinkBroken,
    StoreLocked,
    StoreMissing,
    StoreSchemaOther,
)
from pricing_adapters.settings import STORE_ENV_VAR
from pricing_adapters.shown import counted, days_old, shortened, urls_shown
from pricing_adapters.signatures import SQLITE_MAGIC, ZIPPED_BYTES, binary_kind

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt
from pricing_adapters.schema import OFFER_COLUMNS, empty_offers, name_rows, row_problems, shown_cell, validate_offers

APPLICATION_ID = 0x46504C4E  # "FPLN" in the SQLite header: tells our store from any other SQLite file
SCHEMA_VERSION = 1
ENV_VAR = STORE_ENV_VAR

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
CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);   -- STORE_ID, MADE_AT, REPLACED
"""
SNAPSHOT_COLUMNS = ("id", "provider", "regions", "fetched_at", "source", "row_count")
# offers columns a store may lack and still be read: the contract gained gpu_memory_mib after stores were
# made (read as unknown, silently); the other optional ones validate_offers fills (dropped by hand: named)
LATER_COLUMNS = ("gpu_memory_mib",)
OPTIONAL_COLUMNS = ("zone", "note", "accelerator_name", "as_of", "gpu_known", *LATER_COLUMNS)
# a snapshot dated later than now by more than this was saved by a machine whose clock was wrong: it
# would stay "newest" (and hide every later refresh) until that date, so it is skipped and named
FUTURE_SLACK = timedelta(days=1)
# keys of the store_info table (a store made before it existed gains it, and an id, at its next save)
STORE_ID = "store_id"     # random hex made with the store: tells one store from another at the same path
MADE_AT = "made_at"       # ISO 8601, UTC
REPLACED = "replaced"     # JSON of the damaged store this one replaced (`Replaced`), absent for a first store
# the first snapshot id of a store replacing a damaged one whose highest id cannot be read: milliseconds since 1970
# (`_id_floor`), above any id a store reaches by refreshing, and above the floor of any store replaced before
ID_FLOOR_PER_S = 1000
ROOT_PAGES = 16   # a store's tables have their root pages among its first pages (2-7), made with it (`_highest_id`)
REGIONS_NAMED = 5   # of a snapshot's regions, in a message (regions_named)
RUNS_NAMED = 20     # of a store's runs of snapshot ids, in a message (ids_held)
# what each message of a file that is no usable store tells a refresh to do (a plan says its own list in their place:
# planner.catalog.prices._store_unusable)
RECOVER = "move it aside (`fleetplan prices refresh` does) and refresh again"
LEAVE_FOREIGN = f"move it or give another --store / ${ENV_VAR}"
GIVE_A_FILE = "give the path of a store file"
# and of a store path that is a broken symbolic link, which whoever made the link wants mended: where it points
MEND_LINK = "mend the link (point it at the store file, or put the store file at {target})"
# … but a link in a loop of links points at itself or at another link of the loop: no store file can be put there
MEND_LOOP = "mend the link (it is in a loop of links: point it at the store file)"


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
        """Days elapsed since the snapshot was fetched, with their fraction (a plan's JSON and every message give the
        age in calendar days instead: `shown.calendar_days`, `shown.days_old`); 0 for a time slightly ahead of this
        machine's clock (a snapshot further ahead is skipped when read, see FUTURE_SLACK)."""
        now = now or datetime.now(timezone.utc)
        return max(0.0, (now - datetime.fromisoformat(self.fetched_at)).total_seconds() / 86400)

    def describe(self) -> str:
        """"snapshot #2 (aws, us-east-1, 104 offers, fetched 2026-06-01T06:00:00+00:00, 189 days old)"."""
        return (f"snapshot #{self.id} ({self.provider}, {regions_named(self.regions)}, {counted(self.row_count, 'offer')}, "
                f"fetched {self.fetched_at}, {days_old(self.fetched_at)})")


@dataclass(frozen=True)
class Replaced:
    """The damaged store a store replaced (its store_info REPLACED): the name it was moved aside to (in the same
    folder), when (ISO 8601, UTC), the highest snapshot id read from it (None: unreadable) and this store's first id."""
    aside: str
    at: str
    highest_id: int | None
    first_id: int

    def describe(self) -> str:
        """"replaced on 2026-12-07 after damage (the damaged store was moved aside to prices.sqlite.bad-…)"."""
        return f"replaced on {self.at[:10]} after damage (the damaged store was moved aside to {self.aside})"


class PriceStore:
    """Snapshots of offers in one SQLite file.

    `create=False` is for readers that must leave the disk as it is (`prices list`, `show`, `diff`):
    StoreMissing when there is no store yet, and nothing is created, not even the lock file."""

    def __init__(self, path: str | Path | None = None, *, create: bool = True):
        self.path = Path(path) if path is not None else default_store_path()
        self.warnings: list[str] = []   # bad rows and snapshots skipped while reading, one line each
        self.made: str | None = None    # the store id of the store this object made at the path (`_create`)
        self.saved: SnapshotInfo | None = None   # the snapshot this object saved last (`save`)
        self.aside: Path | None = None  # where it moved the damaged store it replaced (`open_store`)
        self.unreadable: dict[int, str] = {}   # snapshot id -> why its row cannot be read (of the last `snapshots`)
        self._open(create)

    def _open(self, create: bool) -> None:
        """Check the file at `path` is a store (StoreMissing when there is none and not `create`), making one
        where there is none yet (`create`). StoreToBe overrides it: it opens nothing until it saves."""
        state = _inspect(self.path)
        if state != "ok" and not create:
            raise StoreMissing(f"no price store at {self.path}" if state == "missing"
                               else f"no price store at {self.path} yet (an empty file)")
        if state != "ok":
            if problem := _unwritable(self.path):   # said before anything (a folder, the lock) is made
                raise problem
            # creating is a structural change: one process at a time, and the file appears whole or not at all
            with _exclusive(self.path):
                state = _inspect(self.path)
                if state == "missing":
                    self.made = _create(self.path)
                elif state == "empty":
                    _init_in_place(self.path)

    def _connect(self) -> sqlite3.Connection:
        return _connect(self.path)

    def check_writable(self) -> None:
        """StoreError when this process cannot write the store, found without writing (`_unwritable`): a refresh
        asks before its first request, as `save` would only find out after the whole fetch (minutes for a few
        regions)."""
        if problem := _unwritable(self.path):
            raise problem

    # -- writing ------------------------------------------------------------------------------------

    def save(self, provider: str, regions: Sequence[str], source: str, offers: pd.DataFrame,
             fetched_at: datetime | None = None) -> SnapshotInfo:
        """Validate `offers`, then write them as one new snapshot in a single transaction. Any URL in `source` or in
        the offers' sources is saved without credentials (`urls_shown`): plans and their exports show them. The
        sources of the snapshots already there are rewritten so in the same transaction (`_purge_credentials`)."""
        offers = validate_offers(offers, origin=f"{provider} refresh")
        if offers.empty:
            raise StoreError(f"{provider} refresh returned no offers")
        source, offers["source"] = urls_shown(source), sources_shown(offers["source"])
        fetched = (fetched_at or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec="seconds")
        cols = list(OFFER_COLUMNS)
        rows = [tuple(None if pd.isna(v) else (v.item() if hasattr(v, "item") else v) for v in rec)
                for rec in offers[cols].itertuples(index=False, name=None)]
        try:
            con = self._connect()
        except sqlite3.Error as exc:
            raise _write_error(self.path, exc) from None
        try:
            # the rows rewritten without credentials leave no copy of them in the file's free space
            con.execute("PRAGMA secure_delete = ON")
            con.execute("BEGIN IMMEDIATE")
            try:
                _add_missing_columns(con)
                _add_store_info(con)
                _purge_credentials(con)
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
                # SQLite may have rolled back already (a full disk does): a second ROLLBACK would raise
                # "no transaction is active" and hide the real error
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise _write_error(self.path, exc) from None
        finally:
            con.close()
        # committed: a refresh stopped after this (a signal while it says what it let through) says it was saved
        self.saved = SnapshotInfo(snap_id, provider, tuple(regions), fetched, source, len(rows))
        return self.saved

    # -- reading ------------------------------------------------------------------------------------

    def _warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    def snapshots(self) -> list[SnapshotInfo]:
        """Every readable snapshot, oldest first. A row edited into nonsense (non-JSON regions, a time
        that is not ISO 8601 with a zone or lies in the future, an empty provider …) is left out and named
        in `warnings`."""
        try:
            con = self._connect()
            try:
                rows = con.execute(f"SELECT {', '.join(SNAPSHOT_COLUMNS)} FROM snapshots ORDER BY id").fetchall()
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise _read_error(self.path, exc) from None
        now = datetime.now(timezone.utc)
        out = []
        self.unreadable = {}
        for row in rows:
            info = _snapshot_info(row, now)
            if isinstance(info, str):
                self.unreadable[row[0]] = info
                self._warn(f"{self.path}: snapshot #{row[0]} skipped ({info})")
            else:
                out.append(info)
        return sorted(out, key=lambda i: (datetime.fromisoformat(i.fetched_at), i.id))

    def snapshot_rows(self) -> int:
        """How many snapshots the store holds, readable or not (`snapshots` leaves out the ones it cannot read)."""
        try:
            con = self._connect()
            try:
                return int(con.execute("SELECT count(*) FROM snapshots").fetchone()[0])
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise _read_error(self.path, exc) from None

    def snapshot(self, snapshot_id: int) -> SnapshotInfo:
        """The readable snapshot of that id; StoreError naming the ids there are when there is none, or, for a
        snapshot whose row cannot be read, why (as `snapshots` names it in `warnings`)."""
        infos = self.snapshots()
        for info in infos:
            if info.id == snapshot_id:
                return info
        if snapshot_id in self.unreadable:
            raise StoreError(f"snapshot #{snapshot_id} is in {self.path} but cannot be read: "
                             f"{self.unreadable[snapshot_id]}; pin another or refresh")
        replaced = self.replaced()
        if replaced is not None and snapshot_id < replaced.first_id:   # an id of the store it replaced
            raise StoreError(f"snapshot #{snapshot_id} is not in this store {self.path}: the store that held it was "
                             f"{replaced.describe()}, and this one's snapshots start at #{replaced.first_id}; "
                             f"{ids_held([i.id for i in infos])}")
        raise StoreError(f"no snapshot #{snapshot_id} in {self.path}; {ids_held([i.id for i in infos])}")

    def about(self) -> dict[str, str]:
        """The store's store_info table (STORE_ID, MADE_AT, REPLACED): {} for a store made before it existed."""
        try:
            con = self._connect()
            try:
                rows = con.execute("SELECT key, value FROM store_info").fetchall()
            finally:
                con.close()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return {}
            raise _read_error(self.path, exc) from None
        except sqlite3.Error as exc:
            raise _read_error(self.path, exc) from None
        return {k: v for k, v in rows if isinstance(k, str) and isinstance(v, str)}

    def store_id(self) -> str | None:
        """The random id made with this store (None for a store made before stores had one, until its next save)."""
        return self.about().get(STORE_ID)

    def replaced(self) -> Replaced | None:
        """The damaged store this store replaced, or None (a first store, or its record edited into nonsense)."""
        text = self.about().get(REPLACED)
        try:
            replaced = Replaced(**json.loads(text)) if text else None
        except (TypeError, ValueError):
            return None
        ok = replaced is not None and isinstance(replaced.first_id, int) and isinstance(replaced.at, str)
        return replaced if ok else None

    def latest(self, providers: Sequence[str] | None = None) -> list[SnapshotInfo]:
        """The newest snapshot of each provider (of `providers`, default all)."""
        newest: dict[str, SnapshotInfo] = {}
        for info in self.snapshots():
            if providers is None or info.provider in providers:
                newest[info.provider] = info
        return [newest[p] for p in sorted(newest)]

    def _rows(self, snapshot_id: int) -> pd.DataFrame:
        """The stored offer rows of one snapshot as they are, typed and checked: (rows, problems), a
        problem per row ('' for a good one). StoreCorrupt when the offers table lacks what every offer needs."""
        try:
            con = self._connect()
            try:
                df = pd.read_sql_query("SELECT * FROM offers WHERE snapshot_id = ?", con, params=(snapshot_id,))
            finally:
                con.close()
        except (sqlite3.Error, pd.errors.DatabaseError) as exc:
            raise _read_error(self.path, exc.__cause__ or exc) from None
        lacking = [c for c in OFFER_COLUMNS if c not in df.columns]
        if problem := _missing_columns_problem(lacking):
            raise StoreCorrupt(f"{self.path} is a damaged price store ({problem}): {RECOVER}")
        dropped = [c for c in lacking if c not in LATER_COLUMNS]
        if dropped:
            self._warn(f"{self.path}: table offers has no column {', '.join(dropped)} (dropped by hand?): "
                       f"read as empty")
        return df.drop(columns=["snapshot_id"])

    def _good_offers(self, snapshot_id: int) -> tuple[pd.DataFrame, int]:
        """(the good offers of one snapshot, validated; how many rows it has). Rows that break the contract
        (edited by hand: a negative price, an empty offer id …) are left out and named in `warnings`."""
        rows = self._rows(snapshot_id)
        if rows.empty:
            return empty_offers(), 0
        df, problems = _typed_offers(rows)
        bad = problems != ""
        if bad.any():
            n = int(bad.sum())
            self._warn(f"{self.path}: snapshot #{snapshot_id}: {n} bad offer row{'s' * (n != 1)} skipped: "
                       f"{name_rows(df, problems)}")
        df["source"] = sources_shown(df["source"])   # a store saved before credentials were hidden holds them
        return validate_offers(df[~bad.to_numpy()], origin=f"store snapshot #{snapshot_id}"), len(rows)

    def offers(self, snapshot_id: int) -> pd.DataFrame:
        """The good offers of one snapshot, validated; rows that break the contract (edited by hand:
        a negative price, an empty offer id …) are left out and named in `warnings`. StoreError when there
        is no such snapshot, or it has no offer rows (deleted by hand: plans skip it)."""
        offers, n_rows = self._good_offers(snapshot_id)
        info = next((i for i in self.snapshots() if i.id == snapshot_id), None)   # None: none readable of that id
        if n_rows == 0:
            if info is not None:
                raise StoreError(f"snapshot #{snapshot_id} in {self.path} has no offer rows (deleted by hand?); "
                                 f"plans skip it: refresh its regions again")
            raise StoreError(f"no snapshot #{snapshot_id} in {self.path}")
        if info is not None:   # `prices diff` of a snapshot missing rows says so, as a plan does
            self._check_row_count(info, n_rows)
        return offers

    def _snapshot_offers(self, info: SnapshotInfo) -> pd.DataFrame | None:
        """The good offers of `info` that are its provider's, the others named in `warnings`; None (named)
        when it has no offer rows at all."""
        offers, n_rows = self._good_offers(info.id)
        if n_rows == 0:
            self._warn(f"{self.path}: snapshot #{info.id} ({info.provider}, {regions_named(info.regions)}) has no "
                       f"offer rows (deleted by hand?); skipped")
            return None
        self._check_row_count(info, n_rows)
        other = (offers["provider"] != info.provider).to_numpy()
        if other.any():
            problems = pd.Series(["" if not o else f"provider {p!r}, not {info.provider!r} as its snapshot"
                                  for o, p in zip(other, offers["provider"])], dtype=object)
            self._warn(f"{self.path}: snapshot #{info.id}: {int(other.sum())} offer rows of another provider "
                       f"skipped: {name_rows(offers, problems)}")
            offers = offers[~other].reset_index(drop=True)
        return offers

    def _check_row_count(self, info: SnapshotInfo, n_rows: int) -> None:
        """Name in `warnings` a snapshot holding another number of rows than it recorded when saved: rows deleted
        (or added) by hand, which plans used without a word."""
        if n_rows != info.row_count:
            self._warn(f"{self.path}: snapshot #{info.id} ({info.provider}, {regions_named(info.regions)}) holds {n_rows:,} "
                       f"offer rows where it recorded {info.row_count:,} when saved (rows deleted or added by hand?); "
                       "plans use the rows it holds: refresh its regions again for whole prices")

    def _in_force(self, providers: Sequence[str] | None, up_to: int | None = None) -> tuple[
            dict[tuple[str, str], SnapshotInfo], dict[int, pd.DataFrame]]:
        """({(provider, region): the snapshot in force there}, {snapshot id: its good offers, as read}), of the
        store as it stood when snapshot `up_to` was saved (default: as it is now, see `saved_up_to`)."""
        claims: dict[tuple[str, str], list[SnapshotInfo]] = {}
        by_id = {info.id: info for info in saved_up_to(self.snapshots(), up_to)}
        for info in by_id.values():  # oldest first
            if providers is None or info.provider in providers:
                # each region once: a regions list edited to hold one name 100,000 times took 21 s here
                for region in dict.fromkeys(info.regions):
                    claims.setdefault((info.provider, region), []).append(info)
        read: dict[int, pd.DataFrame | None] = {}
        regions_read: dict[int, set] = {}   # snapshot id -> the regions of its usable offers
        unusable: dict[int, list[str]] = {}   # snapshot id -> regions it claims without a usable offer there
        chosen: dict[tuple[str, str], SnapshotInfo] = {}
        for (provider, region), infos in sorted(claims.items()):
            for info in reversed(infos):   # newest first
                if info.id not in read:
                    read[info.id] = self._snapshot_offers(info)
                    regions_read[info.id] = set() if read[info.id] is None else set(read[info.id]["region"])
                if read[info.id] is None:   # no rows at all: named once, by _snapshot_offers
                    continue
                if region in regions_read[info.id]:
                    chosen[(provider, region)] = info
                    break
                unusable.setdefault(info.id, []).append(region)
        for snapshot_id, regions in unusable.items():   # one warning a snapshot, however many regions
            self._warn(f"{self.path}: snapshot #{snapshot_id} has no usable {by_id[snapshot_id].provider} offer in "
                       f"{regions_named(regions)}, "
                       f"{'a region' if len(regions) == 1 else 'regions'} it claims; skipped there")
        return chosen, {k: v for k, v in read.items() if v is not None}

    def in_force(self, providers: Sequence[str] | None = None, up_to: int | None = None) -> dict[tuple[str, str],
                                                                                                SnapshotInfo]:
        """For each (provider, region) the store covers (of `providers`, default all), the snapshot whose
        offers plans use there: the newest with a usable offer in that region. A snapshot without one
        (its rows deleted, all bad, or of another provider) is skipped there and named in `warnings`, and
        the snapshot before it stays in force. With `up_to`, of the store as it stood when snapshot `up_to`
        was saved (`saved_up_to`)."""
        return self._in_force(providers, up_to)[0]

    def shadowed(self, info: SnapshotInfo) -> dict[str, SnapshotInfo]:
        """The regions of snapshot `info` where another snapshot stays in force, with that snapshot: one
        whose fetched_at is later, though it may have been saved first (a clock behind when `info` was
        saved, or ahead when the other was). Right after a refresh, empty unless a clock was wrong."""
        in_force = self.in_force([info.provider])
        return {region: in_force[info.provider, region] for region in info.regions
                if (info.provider, region) in in_force and in_force[info.provider, region].id != info.id}

    def latest_offers(self, providers: Sequence[str] | None = None) -> tuple[pd.DataFrame, list[SnapshotInfo]]:
        """For each provider and region, the offers of the snapshot in force there (`in_force`); and the
        snapshots used. A refresh of one region leaves the other regions' latest prices in force."""
        offers, in_force = self.offers_in_force(providers)
        if offers is None:
            return pd.DataFrame(), []
        return offers, sorted({i.id: i for i in in_force.values()}.values(), key=lambda i: i.id)

    def offers_in_force(self, providers: Sequence[str] | None = None, up_to: int | None = None) -> tuple[
            pd.DataFrame | None, dict[tuple[str, str], SnapshotInfo]]:
        """(the offers of `latest_offers`, None when the store has none; `in_force`), of the store as it stood
        when snapshot `up_to` was saved (default: as it is now). An offer id found in two snapshots in force
        (edited by hand) is skipped in both and named in `warnings`."""
        chosen, read = self._in_force(providers, up_to)
        if not chosen:
            return None, chosen
        frames = []
        for snap_id in sorted({i.id for i in chosen.values()}):
            regions = [r for (p, r), i in chosen.items() if i.id == snap_id]
            offers = read[snap_id]
            frames.append(offers[offers["region"].isin(regions)].assign(_snapshot=snap_id))
        offers = pd.concat(frames, ignore_index=True)
        twice = offers["offer_id"].duplicated(keep=False).to_numpy()
        if twice.any():
            named = sorted(f"{oid} (snapshots {', '.join(f'#{s}' for s in sorted(set(g['_snapshot'])))})"
                           for oid, g in offers[twice].groupby("offer_id"))
            self._warn(f"{self.path}: {len(named)} offer ids found in two snapshots in force skipped: "
                       f"{'; '.join(named[:5])}{f'; and {len(named) - 5} more' if len(named) > 5 else ''}")
            offers = offers[~twice]
        return validate_offers(offers.drop(columns=["_snapshot"]).reset_index(drop=True), origin="store"), chosen

    def coverage(self, infos: Sequence[SnapshotInfo]) -> set[tuple[str, str]]:
        """(provider, region) pairs the given snapshots cover."""
        return {(i.provider, r) for i in infos for r in i.regions}


def saved_up_to(infos: Sequence[SnapshotInfo], snapshot_id: int | None) -> list[SnapshotInfo]:
    """Of `infos`, snapshot `snapshot_id` and those saved before it: the store as it stood when that snapshot was
    saved (all of `infos` for None). Ids tell the order of saving (AUTOINCREMENT never reuses or lowers one),
    where fetched_at, which sets the snapshot in force, may be out of that order after a wrong clock."""
    return list(infos) if snapshot_id is None else [i for i in infos if i.id <= snapshot_id]


def ids_held(ids: Sequence[int]) -> str:
    """`it holds snapshots 1-3, 7` of a store's snapshot ids (runs of consecutive ids shortened), or `it holds no
    snapshot yet`: what a message about a snapshot id that is not there says is there."""
    runs: list[list[int]] = []
    for snap_id in sorted(set(ids)):
        if runs and snap_id == runs[-1][-1] + 1:
            runs[-1].append(snap_id)
        else:
            runs.append([snap_id])
    if not runs:
        return "it holds no snapshot yet"
    shown = [str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs[:RUNS_NAMED]]
    more = f" and {len(runs) - RUNS_NAMED:,} more runs" if len(runs) > RUNS_NAMED else ""
    one = len(runs) == 1 and len(runs[0]) == 1
    return f"it holds {'snapshot' if one else 'snapshots'} {', '.join(shown)}{more} (`fleetplan prices list`)"


def _add_missing_columns(con: sqlite3.Connection) -> None:
    """Add offers columns the contract gained after this store was made (e.g. `gpu_memory_mib`): nullable
    and additive, so older rows read back as unknown and the schema version stays. Runs inside the
    caller's write transaction."""
    have = {row[1] for row in con.execute("PRAGMA table_info(offers)")}
    for col, dtype in OFFER_COLUMNS.items():
        if col not in have:
            con.execute(f'ALTER TABLE offers ADD COLUMN "{col}" {_SQL_TYPE[dtype]}')


def _add_store_info(con: sqlite3.Connection) -> None:
    """Give a store made before the store_info table existed the table and an id (`PriceStore.store_id`), inside the
    caller's write transaction."""
    con.execute("CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT OR IGNORE INTO store_info (key, value) VALUES (?, ?)", (STORE_ID, secrets.token_hex(8)))


def _purge_credentials(con: sqlite3.Connection) -> None:
    """Rewrite each stored source (of snapshots and offers) that holds a URL with credentials as `urls_shown` shows
    it: a store saved before they were hidden on saving keeps them on disk, hidden only when read. Runs inside the
    caller's write transaction: a refresh that fails leaves them as they were, with its own rows unsaved."""
    for table in ("snapshots", "offers"):
        # each distinct text once (a snapshot's rows share a few); only a text with `//` can hold a URL
        texts = [row[0] for row in con.execute(f"SELECT DISTINCT source FROM {table} WHERE instr(source, '//') > 0")]
        hidden = [(shown, text) for text in texts if isinstance(text, str) and (shown := urls_shown(text)) != text]
        con.executemany(f"UPDATE {table} SET source = ? WHERE source = ?", hidden)


def _write_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """A one-line StoreError for a failed write, naming a full disk, a read-only file or a lock plainly."""
    if _is_locked(exc):
        return _locked(path)
    text = str(exc)
    if "full" in text:
        return StoreError(f"disk full: could not write to {path} ({text})")
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DBMOVED":   # "readonly", but no permission is the cause
        return StoreError(f"could not write to {path}: the file was removed or replaced while this process had it open "
                          f"(another refresh's failed first save took away the new store it made); nothing was saved: "
                          f"run the refresh again")
    if "readonly" in text or "read-only" in text:
        return _read_only(path, os.access(path, os.W_OK), _folder_read_only(path, exc), f" ({text})")
    return StoreError(f"could not write to {path}: {text}")


def _read_only(path: Path, file_writable: bool, folder_read_only: bool, said: str = "") -> StoreError:
    """The StoreError of a store that cannot be written: the file read-only (unless `file_writable`), its folder
    (`_journal_folder`) read-only too (`folder_read_only`), or the folder alone; `said`: what SQLite said, when a
    write was tried (" (attempt to write a readonly database)"). One wording for a refresh's check before its
    first request and a save that failed."""
    folder = _journal_folder(path)
    if not folder_read_only:
        return StoreError(f"{path} is read-only: could not write to it{said}; make it writable (chmod u+w; an "
                          f"immutable file: chattr -i), or give a --store / ${STORE_ENV_VAR} elsewhere")
    if not file_writable:
        return StoreError(f"{path} is read-only, and so is its folder {folder}, where SQLite writes a journal "
                          f"file to save: could not write to it{said}")
    return StoreError(f"could not write to {path}: its folder {folder} is read-only, and SQLite writes a journal file "
                      f"beside the store to save{said}; make the folder writable, or give a --store / ${ENV_VAR} in a "
                      f"writable folder")


def _journal_folder(path: Path) -> Path:
    """The folder SQLite writes the store's journal in: the file's, a symbolic link's target's (SQLite follows it)."""
    return Path(os.path.realpath(path)).parent if path.is_symlink() else path.parent


def _writable_folder(folder: Path) -> bool:
    """Whether this process may make files in `folder` (os.access: root may, but not in an immutable folder or on a
    read-only mount)."""
    return os.access(folder, os.W_OK | os.X_OK)


def _unwritable(path: Path) -> StoreError | None:
    """The StoreError of a store path this process could not write, found without writing anything (os.access, as the
    kernel would answer a write: a read-only or immutable file or folder, a read-only mount): a file there (a symbolic
    link's target) that is read-only, or the folder SQLite writes its journal in (`_journal_folder`); for no file yet,
    the folder it would be made in (its lock and temporary file too), or, where that folder is still to be made (the
    default store's, on first use), the nearest folder above it. None when it can be written, and when something else
    is in the way (a folder at the path, a file where a folder should be), which opening it names."""
    if path.exists():
        if not path.is_file():
            return None
        file_writable, folder_writable = os.access(path, os.W_OK), _writable_folder(_journal_folder(path))
        if file_writable and folder_writable:
            return None
        return _read_only(path, file_writable, not folder_writable)
    if path.is_symlink():   # a broken link: _inspect names it
        return None
    folder = next((f for f in (path.parent, *path.parent.parents) if f.exists()), None)
    if folder is None or not folder.is_dir() or _writable_folder(folder):
        return None
    advice = f"make the folder writable, or give a --store / ${ENV_VAR} in a writable folder"
    if folder == path.parent:
        return StoreError(f"cannot create {path}: its folder {folder} is read-only; {advice}")
    return StoreError(f"cannot create {path}: its folder {path.parent} does not exist and cannot be made in {folder}, "
                      f"which is read-only; {advice}")


def _folder_read_only(path: Path, exc: sqlite3.Error) -> bool:
    """True when the store's folder is read-only for this process: SQLite creates its rollback journal
    (`<name>-journal`) there for every write, and says "attempt to write a readonly database" for want of the folder
    as of the file. Its extended code tells (SQLITE_READONLY_DIRECTORY, Python 3.11+), else the folder's permissions."""
    return getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY" or not _writable_folder(_journal_folder(path))


def _read_error(path: Path, exc: BaseException) -> StoreError:
    """A one-line StoreError for a failed read of an open store: StoreCorrupt when a table or column the
    store needs is gone or its pages are damaged, naming the way back; else as `_sqlite_error`."""
    text = str(exc)
    if ("no such table" in text or "no such column" in text) and _is_ours(path):
        return StoreCorrupt(f"{path} is a damaged price store ({text}): {RECOVER}")
    if isinstance(exc, sqlite3.Error):
        return _sqlite_error(path, exc)
    return StoreError(f"cannot use {path}: {text}")


def _missing_columns_problem(lacking_offers: Sequence[str], lacking_snapshots: Sequence[str] = ()) -> str | None:
    """What is wrong with tables lacking these columns, or None when each may be missing."""
    required = [c for c in lacking_offers if c not in OPTIONAL_COLUMNS]
    parts = [f"table {t} has no column {', '.join(cols)}"
             for t, cols in (("snapshots", lacking_snapshots), ("offers", required)) if cols]
    return "; ".join(parts) or None


def _schema_problem(con: sqlite3.Connection) -> str | None:
    """What the tables of a store of ours lack (a table or a column every offer needs), or None."""
    tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = [t for t in ("snapshots", "offers") if t not in tables]
    if missing:
        return f"no table {', '.join(missing)}"

    def columns(table: str) -> set[str]:
        return {row[1] for row in con.execute(f"PRAGMA table_info({table})")}

    snapshots, offers = columns("snapshots"), columns("offers")
    return _missing_columns_problem([c for c in ("snapshot_id", *OFFER_COLUMNS) if c not in offers],
                                    [c for c in SNAPSHOT_COLUMNS if c not in snapshots])


def _snapshot_info(row: tuple, now: datetime | None = None) -> SnapshotInfo | str:
    """A snapshots-table row as a SnapshotInfo, or what is wrong with it (`now`: this machine's time)."""
    snap_id, provider, regions, fetched_at, source, row_count = row
    for name, value in (("provider", provider), ("regions", regions), ("fetched_at", fetched_at), ("source", source)):
        if isinstance(value, bytes):   # a BLOB, or text that is not UTF-8 (_text_or_bytes)
            return f"{name} is not UTF-8 text"
    shown = regions[:80] if isinstance(regions, str) else regions   # a cell may be megabytes long
    try:
        parsed = json.loads(regions)
    except (TypeError, ValueError, RecursionError):   # RecursionError: lists nested thousands deep
        return f"regions {shown!r} is not a JSON list"
    if not isinstance(parsed, list) or not all(isinstance(r, str) and r for r in parsed):
        return f"regions {shown!r} is not a JSON list of region codes"
    try:
        when = datetime.fromisoformat(str(fetched_at))
    except ValueError:
        return f"fetched_at {fetched_at!r} is not an ISO 8601 time"
    if when.tzinfo is None:
        return f"fetched_at {fetched_at!r} has no time zone"
    if when > (now or datetime.now(timezone.utc)) + FUTURE_SLACK:
        return (f"fetched_at {fetched_at} is in the future: the clock of the machine that saved it was wrong; "
                f"refresh its regions again")
    if not isinstance(provider, str) or not provider or not isinstance(row_count, int) or row_count < 0:
        return f"provider {provider!r} / row_count {row_count!r} unusable"
    return SnapshotInfo(snap_id, provider, tuple(parsed), str(fetched_at), urls_shown(str(source or "")), row_count)


def sources_shown(sources: pd.Series) -> pd.Series:
    """A column of offer sources with any URL in them without credentials (`urls_shown`), each distinct text read
    once (a snapshot's rows share a few)."""
    shown = {text: urls_shown(text) for text in sources.dropna().unique()}
    return sources.map(shown, na_action="ignore").astype(sources.dtype)


def _is_null(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _typed_offers(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Stored offer rows cast to the contract's types, and per row what is wrong ('' for a good row). SQLite
    keeps whatever was written into a column, so a cell that does not cast becomes empty and is named.
    An optional column the table lacks (OPTIONAL_COLUMNS) reads as validate_offers fills it."""
    df = df.copy()
    if "gpu_memory_mib" not in df.columns:  # a store made before the column existed
        df["gpu_memory_mib"] = None
    cast: list[list[str]] = [[] for _ in range(len(df))]
    uncast: list[set[str]] = [set() for _ in range(len(df))]
    for col, dtype in OFFER_COLUMNS.items():
        if col not in df.columns:
            continue
        if dtype in ("float64", "int64"):
            values = pd.to_numeric(df[col], errors="coerce")
            for i in (values.isna() & df[col].notna()).to_numpy().nonzero()[0]:
                cast[i].append(f"{col} {shown_cell(str(df[col].iat[i]))} is not a number")
                uncast[i].add(f"empty {col!r}")   # the cell was not empty: row_problems' word for it is dropped
            if dtype == "int64":
                # whole numbers a float holds exactly: not inf (inf == inf.round()), which int64 cannot hold
                values = values.where(values.isna() | ((values == values.round()) & (values.abs() < 2**53)))
                values = values.fillna(-1).astype("int64")   # -1: not a term; the row is named below
            df[col] = values
        elif dtype == "bool":
            df[col] = df[col].map(lambda v: bool(v) if not _is_null(v) and v in (0, 1) else True)
        else:
            # bytes: a BLOB, or text that is not UTF-8 (_text_or_bytes); shown decoded, never used
            for i in df[col].map(lambda v: isinstance(v, bytes)).to_numpy().nonzero()[0]:
                cast[i].append(f"{col} is not UTF-8 text")
            df[col] = df[col].map(lambda v: None if _is_null(v) else v if isinstance(v, str)
                                  else v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v))
    df = validate_offers(df, origin="store", check=False)
    bad_term = ~df["term_months"].isin((0, 12, 36))
    problems = row_problems(df)
    text = [", ".join(p for p in (*c, "bad term_months" if t else "", *q.split(", ")) if p and p not in u)
            for c, t, q, u in zip(cast, bad_term, problems, uncast)]
    return df, pd.Series(text, index=df.index, dtype=object)


# -- opening, creating, setting aside (module level: they run before a PriceStore exists) -------------

LOCK_WAIT_S = 30.0   # creating or setting aside takes milliseconds; a lock held longer is a stuck process
# How long a connection waits for SQLite's lock on the store before StoreLocked. A refresh blocks readers only while it
# commits (its rows are written under a lock readers pass), well under a second for the largest snapshot; a lock held
# for seconds is a process holding a transaction open, which waiting longer would not end.
BUSY_WAIT_S = 5.0


def _connect(path: Path) -> sqlite3.Connection:
    """A connection to an existing file: `mode=rw` never creates one, so no reader leaves an empty file."""
    uri = path.absolute().as_uri() + "?mode=rw"
    con = sqlite3.connect(uri, uri=True, timeout=BUSY_WAIT_S, isolation_level=None)
    con.text_factory = _text_or_bytes
    return con


def _text_or_bytes(raw: bytes) -> str | bytes:
    """A TEXT cell as str, or as its bytes when they are not UTF-8 (edited by hand). sqlite3's default
    raises on such a cell, failing the whole query: as bytes, the reader names and skips its row alone."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _is_ours(path: Path) -> bool:
    """True when the file's SQLite header carries our application id: a store of ours, however damaged
    its pages. Read raw, because SQLite may refuse a damaged file before any PRAGMA can be asked."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError:
        return False
    return header.startswith(SQLITE_MAGIC) and int.from_bytes(header[68:72], "big") == APPLICATION_ID


def _binary_kind(path: Path) -> tuple[str, str] | None:
    """What the file at `path` is by its first bytes (signatures.binary_kind) when it is no SQLite database: a gzip
    of a store, a workbook, …; None for an SQLite database (another application's, or damaged), text or an unknown
    format."""
    try:
        with path.open("rb") as f:
            head = f.read(ZIPPED_BYTES)
    except OSError:
        return None
    return None if head.startswith(SQLITE_MAGIC) else binary_kind(head, whole=False, wanted="the price store file")


def _is_locked(exc: sqlite3.Error) -> bool:
    """True when SQLite gave up waiting for a lock another connection holds (SQLITE_BUSY, SQLITE_LOCKED)."""
    name = getattr(exc, "sqlite_errorname", "")   # Python 3.11+; the text otherwise
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "is locked" in str(exc)


def _locked(path: Path) -> StoreLocked:
    return StoreLocked(f"the price store {path} is locked by another process (a refresh?): still locked after "
                       f"{BUSY_WAIT_S:g} s; try again when it ends")


def _sqlite_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """The StoreError for an SQLite failure while opening an existing file. An unreadable file is
    StoreCorrupt (may be set aside) only when its header says it is a store of ours: anything else, a
    scenario given as --store by mistake or another application's damaged database, is StoreForeign.
    StoreLocked when another process held the store's lock past BUSY_WAIT_S."""
    if _is_locked(exc):
        return _locked(path)
    text = str(exc)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        if _is_ours(path):
            return StoreCorrupt(f"{path} is a damaged price store ({text})")
        if found := _binary_kind(path):   # a compressed copy, a workbook, …: said as the scenario's reader says it
            kind, remedy = found
            return StoreForeign(f"{path} is {kind}, not a fleetplan price store{f'; {remedy}' if remedy else ''}; "
                                f"it was left untouched: {LEAVE_FOREIGN}")
        return StoreForeign(f"{path} is not a fleetplan price store ({text}); it may be another application's "
                            f"file, so it was left untouched: {LEAVE_FOREIGN}")
    return StoreError(f"cannot use {path}: {text}")  # read-only, no permission, …


def regions_named(regions: Sequence[str]) -> str:
    """A snapshot's regions in a message: the first REGIONS_NAMED and how many more (a regions list edited to hold
    100,000 names made each message that named them 800 KB)."""
    named = ", ".join(map(shortened, regions[:REGIONS_NAMED]))
    return named + (f" and {len(regions) - REGIONS_NAMED:,} more" if len(regions) > REGIONS_NAMED else "")


def _broken_link(path: Path) -> tuple[str, str]:
    """(What the symbolic link at `path`, which leads to no file, is, how to mend it): a loop of links, or a link to
    a missing file, where a store file may be put."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link in a loop of links", MEND_LOOP
    target = path.parent / os.readlink(path)   # a relative link is read against its own folder
    return f"a symbolic link to {os.readlink(path)}, which does not exist", MEND_LINK.format(target=target)


def _inspect(path: Path, looks_left: int = 3) -> str:
    """"ok" for a usable store, "missing" when no file is there, "empty" for an empty file or an SQLite
    database with nothing in it. StoreForeign for any file that is not a store of ours (never touched),
    StoreCorrupt for a damaged store of ours (torn pages, or a table or column it needs dropped),
    StoreLinkBroken for a symbolic link that leads to no file, StoreError for one that cannot be used now. Reads only.
    A file another process moved aside or replaced while it was read is looked at again, up to `looks_left` times."""
    if path.is_dir():
        raise StoreError(f"{path} is a directory; {GIVE_A_FILE}")
    if path.is_symlink() and not path.exists():   # readers said "no price store", a refresh "unable to open"
        what, mend = _broken_link(path)
        raise StoreLinkBroken(f"{path} is {what}; {GIVE_A_FILE}, or {mend}", path.parent / os.readlink(path), mend)
    try:
        if not path.exists():
            return "missing"
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):   # a FIFO or a device "is empty": a refresh wrote a .lock and a journal beside it
            raise StoreForeign(f"{path} is not a regular file (a pipe or a device); {GIVE_A_FILE}")
        if st.st_size == 0:
            return "empty"
        con = _connect(path)
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            version = con.execute("PRAGMA user_version").fetchone()[0]
            tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            ok = con.execute("PRAGMA quick_check").fetchone()[0] if app_id == APPLICATION_ID else "ok"
            schema = _schema_problem(con) if app_id == APPLICATION_ID and ok == "ok" else None
        finally:
            con.close()
    except OSError as exc:
        if exc.errno == errno.ENOENT and not path.exists():   # moved aside by another process between the checks
            return "missing"
        raise StoreError(f"cannot use {path}: {exc.strerror or exc}") from None
    except sqlite3.DatabaseError as exc:
        error = _sqlite_error(path, exc)   # reads the header again, by path
        # A writer setting a damaged store aside (set_aside) and making a new one meanwhile: the error came from the
        # old file, the header just read from a new one or from no file at all (then it was called "another
        # application's file" in 1 of 16 rounds of 20 processes). Judged only when the path still names that file.
        if _replaced(path, st) and looks_left > 0:
            return _inspect(path, looks_left - 1)
        if not path.exists():
            return "missing"
        raise error from None
    if app_id == 0 and version == 0 and tables == 0:
        return "empty"
    if app_id != APPLICATION_ID:
        raise StoreForeign(f"{path} is an SQLite database of another application, not a fleetplan price store; "
                           f"it was left untouched: {LEAVE_FOREIGN}")
    if version != SCHEMA_VERSION:
        raise StoreSchemaOther(f"{path} has store schema {version}; this fleetplan reads {SCHEMA_VERSION}",
                               newer=version > SCHEMA_VERSION)
    if ok != "ok":
        raise StoreCorrupt(f"{path} is corrupt: {ok}")
    if schema:   # a table or column dropped by hand: as damaged as a torn page
        raise StoreCorrupt(f"{path} is a damaged price store ({schema})")
    return "ok"


def _replaced(path: Path, before: os.stat_result) -> bool:
    """True when `path` no longer names the file `before` was taken of: removed, moved, or another put in its place."""
    try:
        now = path.stat()
    except OSError:
        return True
    return (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino)


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold `<name>.lock` next to the store: creating and setting aside are decided by one process at a
    time, each after checking the file again under the lock."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        # FileExistsError / NotADirectoryError: a file stands where one of the path's folders should be
        blocker = next((p for p in (path.parent, *path.parent.parents) if p.exists() and not p.is_dir()), None)
        why = f"{blocker} is a file, not a folder" if blocker is not None else exc.strerror or str(exc)
        raise StoreError(f"cannot use {path}: cannot make its folder {path.parent}: {why}") from None
    lock = path.with_name(path.name + ".lock")
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot use {path}: cannot create the lock file {lock}: {exc.strerror or exc}") from None
        try:
            _lock(fd, path)
            if _replaced(lock, os.fstat(fd)):   # removed by its holder (`_undo_new_store`): take the one there now
                continue
            yield
            return
        finally:
            os.close(fd)   # closing the descriptor releases the lock


def _lock(fd: int, path: Path) -> None:
    """Take the lock on `fd`, waiting at most LOCK_WAIT_S; StoreError when it stays taken."""
    give_up = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:  # pragma: no cover - Windows
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return
        except OSError:
            if time.monotonic() > give_up:
                raise StoreError(f"cannot use {path}: another process has held {path.name}.lock for "
                                 f"{LOCK_WAIT_S:.0f} s") from None
            time.sleep(0.01)


def _make_schema(con: sqlite3.Connection, replaced: Replaced | None = None) -> str:
    """Make the empty database of `con` a store, in the caller's transaction: its tables, its id and when it was made,
    and, for a store replacing a damaged one, what it replaced and snapshot ids continuing after that one's (`Replaced`):
    a scenario pinned to an id of the old store must not plan on another snapshot of the same number. The marks last.
    The store id made."""
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            con.execute(statement)
    info = {STORE_ID: secrets.token_hex(8), MADE_AT: _now_text()}
    if replaced is not None:
        info[REPLACED] = json.dumps(dataclasses.asdict(replaced))
        # AUTOINCREMENT gives the id after the one sqlite_sequence holds (made with the snapshots table)
        con.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('snapshots', ?)", (replaced.first_id - 1,))
    con.executemany("INSERT INTO store_info (key, value) VALUES (?, ?)", info.items())
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return info[STORE_ID]


def _now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _create(path: Path, replaced: Replaced | None = None) -> str | None:
    """Build a new store in a temporary file of the same folder, then link it into place without
    replacing anything: other processes see no store or a whole one, never a half-created file. Its store id, None
    when another process put a file there meanwhile (which is checked, and left)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        con = sqlite3.connect(tmp, isolation_level=None)
        try:
            con.execute("BEGIN EXCLUSIVE")
            made: str | None = _make_schema(con, replaced)
            con.execute("COMMIT")
        finally:
            con.close()
        try:
            os.link(tmp, path)       # fails when the path exists: never overwrites
        except FileExistsError:
            made = None              # made meanwhile by a process that does not take the lock: check it
        except OSError:
            if path.exists():        # a file system without hard links: rename under the lock instead
                raise
            os.rename(tmp, path)
    except OSError as exc:
        raise StoreError(f"cannot create {path}: {exc.strerror or exc}") from None
    except sqlite3.Error as exc:   # a fresh temporary file failed: nothing of the user's is involved
        raise StoreError(f"cannot create {path}: {exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    _inspect(path)
    return made


def _init_in_place(path: Path) -> None:
    """Make an empty file or empty SQLite database a store: schema and marks in one exclusive transaction."""
    try:
        con = _connect(path)
        try:
            con.execute("BEGIN EXCLUSIVE")
            if con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                _make_schema(con)
            con.execute("COMMIT")
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise _sqlite_error(path, exc) from None
    _inspect(path)


def _highest_id(damaged: Path) -> int | None:
    """The highest snapshot id a damaged store issued, as far as SQLite can still read it, with the first id of the
    store it had replaced itself; 0 when it issued none; None when none of these can be read. SQLite refuses a file cut
    short outright (its header counts more pages), so it reads a copy in memory of the whole pages there are, pages of
    zeros after them up to the tables' root pages (a store's first pages, made with it), the header counting those:
    the snapshots table and sqlite_sequence often survive, and a page of zeros is an error, never a number."""
    try:
        data = damaged.read_bytes()
    except OSError:
        return None
    size = int.from_bytes(data[16:18], "big") if len(data) >= 100 else 0
    size = 65536 if size == 1 else size
    if size < 512 or size & (size - 1):   # no page size SQLite writes: a header no longer there
        return None
    whole = len(data) // size
    pages = max(whole, ROOT_PAGES)
    data = data[:28] + pages.to_bytes(4, "big") + data[32:whole * size] + bytes((pages - whole) * size)
    found: list[int] = []
    con = sqlite3.connect(":memory:", isolation_level=None)
    try:
        con.deserialize(data)
        for sql in ("SELECT max(seq) FROM sqlite_sequence WHERE name = 'snapshots'", "SELECT max(id) FROM snapshots",
                    "SELECT max(snapshot_id) FROM offers",
                    f"SELECT json_extract(value, '$.first_id') - 1 FROM store_info WHERE key = '{REPLACED}'"):
            try:
                value = con.execute(sql).fetchone()
            except sqlite3.Error:
                continue
            value = value[0] if value else None
            found.append(value if isinstance(value, int) and value >= 0 else 0)
    except sqlite3.Error:
        return None
    finally:
        con.close()
    return max(found) if found else None


def _replacing(aside: Path) -> Replaced:
    """What a new store replacing the damaged store moved to `aside` records, its first snapshot id after the old
    store's highest (`_highest_id`). Where that cannot be read, after a floor no old id reaches (ID_FLOOR_PER_S per
    second since 1970): a store counts up from 1 a snapshot a refresh, and one that itself started at such a floor
    would have to have saved more than ID_FLOOR_PER_S snapshots a second since it was made to reach it."""
    highest = _highest_id(aside)
    first = highest + 1 if highest is not None else int(time.time()) * ID_FLOOR_PER_S + 1
    return Replaced(aside.name, _now_text(), highest, first)


def set_aside(path: Path) -> Path | None:
    """Move a damaged store of ours aside (`_set_aside`): the new path, or None."""
    return _set_aside(path)[0]


def _set_aside(path: Path, make_new: bool = False) -> tuple[Path | None, str | None]:
    """Move a damaged store of ours to a new name `<name>.bad-<time>-<random>` that nothing else has: the
    new path; None when, checked before and again under the lock, the file is not damaged (any more:
    another process set it aside or replaced it). StoreForeign, and nothing moved, when the file is not a store of ours;
    StoreError when it cannot be moved. Never overwrites a file. `make_new`: make a new store at `path` under the same
    lock, recording the one it replaces, its snapshot ids continuing after the old ones (`_replacing`). (The new path,
    the store id of the store made.)"""
    try:
        _inspect(path)   # first without the lock, so that nothing, not even a lock file, is made beside
        return None, None   # a file that is not a store of ours
    except StoreCorrupt:
        pass
    with _exclusive(path):
        try:
            _inspect(path)
            return None, None
        except StoreCorrupt:
            pass
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        aside = path.with_name(f"{path.name}.bad-{stamp}-{secrets.token_hex(3)}")
        try:
            os.link(path, aside)    # no-clobber: FileExistsError rather than replacing a file
            os.unlink(path)
        except OSError as exc:
            if aside.exists() and path.exists():
                aside.unlink(missing_ok=True)   # the link worked, the unlink did not: keep one copy
            raise StoreError(f"{path} could not be moved aside: {exc.strerror or exc}") from None
        if not make_new:
            return aside, None
        try:
            return aside, _create(path, _replacing(aside))
        except BaseException:
            _move_back(aside, path)   # no new store: the damaged one stays where it was
            raise


def _move_back(aside: Path, path: Path) -> None:
    """Put the damaged store moved to `aside` back at `path`, where nothing is (never over a file)."""
    os.link(aside, path)
    os.unlink(aside)


def _undo_new_store(path: Path, made: str | None, aside: Path | None, lock_was_there: bool) -> None:
    """After a save that failed, leave `path` as it was before it: remove the store this process made there (store id
    `made`) while it holds no snapshot, with its journal, the damaged store it replaced (moved to `aside`) put back,
    and the lock file when there was none. Anything else there (another process's store, or one it saved to) stays.
    Quiet: the failure to tell is the save's."""
    lock = path.with_name(path.name + ".lock")
    if made is None and (lock_was_there or not lock.exists()):
        return
    try:
        with _exclusive(path):
            if made is not None and _removed_if_only_made(path, made) and aside is not None:
                _move_back(aside, path)
            if not lock_was_there:
                lock.unlink(missing_ok=True)   # held: a process waiting for it takes it, sees it gone, opens anew
    except (OSError, StoreError):
        pass


def _missing_folders(folder: Path) -> list[Path]:
    """`folder` and those of its parents that do not exist yet, deepest first: what a save would make."""
    missing = []
    for each in (folder, *folder.parents):
        if each.exists():
            break
        missing.append(each)
    return missing


def _remove_if_empty(folders: list[Path]) -> None:
    """Remove `folders` (deepest first) while each is empty: the folders a save made before it failed. A folder
    another process put a file in meanwhile stays, with those above it."""
    for folder in folders:
        try:
            folder.rmdir()   # only an empty folder
        except OSError:
            return


def _removed_if_only_made(path: Path, made: str) -> bool:
    """Remove the store at `path` (and its journal) where it is the one of store id `made` and holds no snapshot,
    checked and removed inside SQLite's exclusive lock on it: saves take no lock file, so a save another process began
    into the new store meanwhile is waited for (then it holds a snapshot and stays), never cut from under it. Whether
    it was removed."""
    try:
        con = _connect(path)
        try:
            con.execute("BEGIN EXCLUSIVE")
            ours = con.execute("SELECT value FROM store_info WHERE key = ?", (STORE_ID,)).fetchone() == (made,)
            if not (ours and con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0):
                return False
            path.unlink()
            path.with_name(path.name + "-journal").unlink(missing_ok=True)
            return True
        finally:
            con.close()   # ends the transaction, which wrote nothing
    except (sqlite3.Error, OSError):
        return False


class StoreToBe(PriceStore):
    """The store a refresh saves to where none is usable yet: no file at the path, an empty one, or a damaged store of
    ours. Nothing is made, moved or written until `save`, after a whole fetch passed its checks: a refresh that fails
    leaves the path as it was (no store, no lock file, the damaged file where it was). Until then it reads as a store
    with no snapshot, unless another process made a store at the path meanwhile (read as it is then). `save` opens
    the path as `open_store` does (a damaged store set aside, a new one made) and saves there; `moved_aside` is then
    the warning of a damaged store set aside (None otherwise). `damaged`: what is wrong with the damaged store found
    at the path (None for no store yet)."""

    def __init__(self, path: Path, damaged: StoreCorrupt | None = None):
        # PriceStore's own init sets what every store has (path, warnings …), so an attribute added there is here
        # too; its `_open`, which would look at the path, is this class's, which does nothing
        self.damaged = damaged
        self.moved_aside: str | None = None
        super().__init__(path)

    def _open(self, create: bool) -> None:
        """Nothing: the path is looked at, and a store made, only by `save`."""

    def _usable_now(self) -> bool:
        """True when the path now holds a usable store (made by another process since this one looked)."""
        try:
            return _inspect(self.path) == "ok"
        except StoreError:
            return False

    def snapshots(self) -> list[SnapshotInfo]:
        return super().snapshots() if self._usable_now() else []

    def snapshot_rows(self) -> int:
        return super().snapshot_rows() if self._usable_now() else 0

    def save(self, provider: str, regions: Sequence[str], source: str, offers: pd.DataFrame,
             fetched_at: datetime | None = None) -> SnapshotInfo:
        offers = validate_offers(offers, origin=f"{provider} refresh")   # a refresh that cannot be saved makes nothing
        if offers.empty:
            raise StoreError(f"{provider} refresh returned no offers")
        lock_was_there = self.path.with_name(self.path.name + ".lock").exists()
        folders_made = _missing_folders(self.path.parent)
        store = None
        try:
            store, self.moved_aside = open_store(self.path)
            info = store.save(provider, regions, source, offers, fetched_at)
        except BaseException:   # a full disk, a signal: the path is left as it was, as before a refresh that failed
            _undo_new_store(self.path, getattr(store, "made", None), getattr(store, "aside", None), lock_was_there)
            _remove_if_empty(folders_made)
            self.moved_aside = None
            raise
        self.warnings = [*self.warnings, *(w for w in store.warnings if w not in self.warnings)]
        self.saved = info
        return info


def open_for_refresh(path: str | Path | None = None) -> PriceStore:
    """The store a refresh saves to, opened without making, moving or writing anything: the store at `path` when it is
    usable, else a StoreToBe (no file, an empty one, or a damaged store of ours, set aside only when a snapshot is
    saved). Raises as `open_store` does for anything else (another application's file, a folder, a store of another
    schema, locked), and StoreError for a path this process could not write (`PriceStore.check_writable`), before
    anything is fetched for it."""
    path = Path(path) if path is not None else default_store_path()
    try:
        store: PriceStore = PriceStore(path, create=False)
    except StoreMissing:
        store = StoreToBe(path)
    except StoreCorrupt as exc:
        store = StoreToBe(path, exc)
    store.check_writable()
    return store


def open_store(path: str | Path | None = None, *, create: bool = True) -> tuple[PriceStore | None, str | None]:
    """(store, warning). (None, warning) only when there is no store at `path` yet (no file, or an empty one) and
    `create=False` (a plan reading prices creates nothing): the caller uses the packaged snapshot, as on first use.
    Any other file at `path` raises as PriceStore raises it and is left as it is: another application's file or one
    that is no database (StoreForeign), a damaged store of ours (StoreCorrupt), a folder, a file that cannot be read
    or of another store schema (StoreError), a store another process keeps locked (StoreLocked). The packaged prices
    in their place planned a scenario that asks for the store's prices on other prices, exit 0, said only in a
    warning. With `create=True` (a writer), a damaged store of ours is moved aside to a new
    `<name>.bad-<time>-<random>` and a new store made: how `fleetplan prices refresh` opens its store
    (planner.cli.prices._open); the warning says where it went. A writer's store that this process cannot write (the
    file or its folder read-only: `PriceStore.check_writable`) raises StoreError, before anything is fetched for it."""
    path = Path(path) if path is not None else default_store_path()
    try:
        store = PriceStore(path, create=create)
        if create:
            store.check_writable()
        return store, None
    except StoreMissing as exc:
        return None, f"{exc}: `fleetplan prices refresh` makes one; using the packaged snapshot"
    except StoreCorrupt as exc:
        if not create:
            raise
        aside, made = _set_aside(path, make_new=True)   # None: another process set it aside or replaced it meanwhile
        store = PriceStore(path)
        store.made, store.aside = made, aside
        return store, (f"{exc}; moved aside to {aside}" if aside is not None else None)
