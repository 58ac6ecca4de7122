"""Price sources for a plan: the packaged snapshot, the local price store, or an offers CSV.

`price_table(source, store, snapshot)` gives the whole offers table of a source and its provenance (which
snapshot, its age; the packaged data's build and content hashes, `packaged_data`). It is read once per plan;
the Plan keeps the rows it used, so reports never read a price source again. `option_gaps` names the purchase
options a scenario allows that have no price there (`price_coverage` gives what it needs, for the packaged
snapshot without pandas); `date_report` gives the date range of the prices a plan used and warns on stale or
undated ones, judged on the UTC date (`utc_today`).
"""

from __future__ import annotations

import copy
import hashlib
import io
import itertools
import os
from collections.abc import Mapping
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from planner.catalog.gpus import DATA, QUOTED_SOURCES
from planner.errors import PriceSourceError, PricesRefuteScenario, PriceStoreLocked, PriceStoreUnusable
from planner.fileio import file_problem, file_stamp, not_a_path, write_problem

if TYPE_CHECKING:   # pandas is imported where a table is read: `fleetplan validate` loads none for the snapshot
    import pandas as pd

    from pricing_adapters.errors import StoreError
    from pricing_adapters.store import PriceStore


def _stamp(path: Path | None):
    """Changes whenever the file behind a source changes (cache key)."""
    return None if path is None else (str(path), file_stamp(path))


def resolve_store(store: str | Path | None = None) -> Path:
    """The price store file: `store` when given, else `$FLEETPLAN_STORE` or the platform's data directory; a
    leading `~` is the home folder in either (the variable's already was: default_store_path)."""
    from pricing_adapters.store import default_store_path

    return Path(os.fsdecode(store)).expanduser() if store is not None else default_store_path()


def store_mistake(store: str | Path | None, given_as: str = "store=") -> str | None:
    """Why the price store file `store`, else `$FLEETPLAN_STORE`, is a mistake, in one line naming what was given
    as `given_as` says it ("store=/tmp: is a folder; give the price store file, e.g. /tmp/prices.sqlite", "…: folder
    /tmp/nope does not exist"; the CLI's `given_as` is "--store "); None when it can be the store, or when neither
    is given. A typo would otherwise create the folders and an empty store, or read none, and the plan would
    quietly use the packaged snapshot. The platform's data directory is not checked: no store there is a fresh
    install's, and plans say they use the packaged snapshot."""
    from pricing_adapters.settings import STORE_ENV_VAR

    if store is not None:
        if wrong := not_a_path(store, given_as, "the price store file", "prices.sqlite"):
            return wrong
        said, path = f"{given_as}{os.fsdecode(store)}", Path(os.fsdecode(store)).expanduser()
    elif os.environ.get(STORE_ENV_VAR):
        # read here as default_store_path reads it: pricing_adapters.store imports pandas, which `fleetplan
        # validate` (checking the variable) never needs
        said, path = f"{STORE_ENV_VAR}={os.environ[STORE_ENV_VAR]}", Path(os.environ[STORE_ENV_VAR]).expanduser()
    else:
        return None
    if path.is_symlink() and not path.exists():   # a link to no file: the store says so, with how to mend it
        return None
    problem = write_problem(path, "the price store file", "prices.sqlite")
    return f"{said}: {problem}" if problem else None


def _given_store(store: str | Path | None) -> Path:
    """resolve_store(store); PriceSourceError where store= or $FLEETPLAN_STORE is a mistake (store_mistake)."""
    mistake = store_mistake(store)
    if mistake:
        raise PriceSourceError(mistake)
    return resolve_store(store)


# where a scenario pins a store snapshot: a PricesRefuteScenario's field, for the CLI to give its line
PINNED_FIELD = ("prices", "snapshot")
# the prices.source values that name no file: the packaged snapshot and the price store (any other is an offers CSV)
PRICE_SOURCE_WORDS = ("snapshot", "store")
# the refresh as the words of a missing or empty store name it (pricing_adapters.store.open_store's too), before
# refresh_said gives the commands a scenario needs
REFRESH_COMMAND = "`fleetplan prices refresh`"


def price_table(source: str, store: str | Path | None = None, snapshot: int | None = None,
                named: str | None = None) -> tuple[pd.DataFrame, dict]:
    """(offers, provenance) of a price source: `snapshot`, `store` or an offers CSV path.

    `named`: how the messages about an offers CSV's content name it (a scenario's offers/q3.csv, as its file wrote it:
    catalog.offers.prices_named); default the path. Where a file is looked for and cannot be read, the path is said.

    `store` is the price store file for `source: store` (default: see `resolve_store`); PriceSourceError when it,
    or `$FLEETPLAN_STORE`, names a folder or a file in a folder that does not exist (store_mistake); PriceStoreLocked
    when another process keeps the store locked (a refresh), PriceStoreUnusable when the file there is no usable store
    (another application's, damaged, a folder, unreadable, a broken symbolic link): the packaged prices are not read
    in its place (see `open_store`); with no file there yet they are, and the provenance's warning says so. `snapshot`
    (a scenario's `prices.snapshot`, only with `source: store`) pins the store as it stood when that snapshot was
    saved: PricesRefuteScenario (field PINNED_FIELD) naming the ids there are when the store has no such snapshot,
    or there is no store to pin. Cached; a CSV or the store is read again when its file changes. provenance says
    what was used: {"source", "snapshots": [{id, provider, regions, fetched_at, age_days (whole calendar days, UTC:
    shown.calendar_days)}], "warning",
    "packaged_data": `packaged_data(source)`} and, when pinned, "pinned_snapshot"; of a store, for every provider
    and region it holds (`scenario_provenance` narrows it to a scenario's); of an offers CSV, "sha256": the hash of
    the bytes it was read from (`short_sha256`).
    """
    if snapshot is not None and source != "store":   # the scenario model refuses it; a library caller may not
        raise PricesRefuteScenario(f"prices.snapshot: {snapshot} pins a snapshot of the price store: it needs "
                                   f"prices.source: store, not {source!r}", PINNED_FIELD)
    if source == "store":
        path = _given_store(store)
    else:
        path = None if source == "snapshot" else Path(source)
    offers, provenance = _read_prices(source, str(path) if path else None, _stamp(path), snapshot, named)
    # a copy of the cache's provenance: a caller editing its nested lists (a plan's inputs' prices, in a notebook) left
    # strings among the snapshots of every later plan in the process, and a sweep failed on them (a test's edits)
    provenance = copy.deepcopy(provenance)
    if source == "store":  # ages move on while the cache holds; in calendar days, as `prices list` and every message
        from pricing_adapters.shown import calendar_days

        provenance = dict(provenance, snapshots=[dict(s, age_days=calendar_days(s["fetched_at"]))
                                                 for s in provenance["snapshots"]])
    return offers, provenance


# ------------------------------------------------------------------ which packaged data a plan used

# the catalog files every plan reads (GPUs, cards, speeds, frameworks), in planner/data (gpus.DATA)
CATALOG_FILES = ("gpus.csv", "onprem_cards.csv", "measured_speed.csv", "measured_scaling.csv", "frameworks.csv",
                 "cuda_compute.csv")
# of a file's sha256: 48 bits tell files apart (one chance in 2.8e14 that two contents share them); a reader
# compares them by eye
HASH_HEX_DIGITS = 12


def short_sha256(data: bytes) -> str:
    """The first HASH_HEX_DIGITS hex digits of the sha256 of `data`: how a plan names the content of each file it
    read (the packaged data's, an offers CSV's, a profile CSV's), as `sha256sum` prints it, cut short."""
    return hashlib.sha256(data).hexdigest()[:HASH_HEX_DIGITS]


@lru_cache(maxsize=1)
def _packaged_identity() -> tuple[str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """(the packaged price snapshot's built_at, ((file, hash) of its price files), ((file, hash) of the catalog
    files)): read once a process (the packaged files do not change while it runs; 0.7 MB hashed in under 1 ms)."""
    from pricing_adapters import PACKAGE_DIR, registry
    from pricing_adapters.snapshot import snapshot_info

    prices = [(f"pricing_adapters/snapshots/{p.snapshot_file}", PACKAGE_DIR / "snapshots" / p.snapshot_file)
              for p in registry.providers() if p.snapshot_file]
    catalog = [(f"planner/data/{name}", DATA / name) for name in CATALOG_FILES]
    return (snapshot_info()["built_at"], tuple((name, short_sha256(path.read_bytes())) for name, path in prices),
            tuple((name, short_sha256(path.read_bytes())) for name, path in catalog))


def packaged_data(source: str) -> dict:
    """Which packaged data a plan on the price source `source` used, for a reader telling whether two plans used
    the same: {"built_at" (the packaged price snapshot's build date, manifest.json), "sha256": {file: the first
    12 hex digits of its sha256}} of the packaged price files and the catalog CSVs (planner/data); of an offers
    CSV, which uses no packaged price, the catalog CSVs' alone (no built_at)."""
    built_at, prices, catalog = _packaged_identity()
    if source in PRICE_SOURCE_WORDS:   # the store uses the packaged prices where it was never refreshed
        return {"built_at": built_at, "sha256": dict(prices + catalog)}
    return {"sha256": dict(catalog)}


def _packaged() -> tuple[pd.DataFrame, dict]:
    from pricing_adapters.snapshot import load_snapshot

    return load_snapshot(), {"source": "snapshot", "built_at": _packaged_identity()[0], "snapshots": [],
                             "warning": None}


def _pinned_store(path: Path, snapshot_id: int) -> PriceStore:
    """The store at `path` holding snapshot `snapshot_id`, opened to read (nothing created or moved): a pinned
    snapshot is used as it is or not at all, never the packaged prices in its place. PricesRefuteScenario naming
    the ids the store holds, or why there is no store to pin; StoreLocked as it is (a lock passes: try again)."""
    from pricing_adapters.errors import StoreError, StoreLocked
    from pricing_adapters.store import PriceStore

    try:
        store = PriceStore(path, create=False)
    except StoreLocked:   # the snapshot may well be there: said as it is (a PriceSourceError), to try again
        raise
    except StoreError as exc:   # none there, damaged (left where it is), another application's file
        raise PricesRefuteScenario(f"prices.snapshot: no snapshot #{snapshot_id}: {exc}", PINNED_FIELD) from None
    try:
        store.snapshot(snapshot_id)
    except StoreLocked:
        raise
    except StoreError as exc:   # "no snapshot #9 in …; it holds snapshots 1-3"
        raise PricesRefuteScenario(f"prices.snapshot: {exc}", PINNED_FIELD) from None
    return store


def _from_store(path: Path, snapshot: int | None = None) -> tuple[pd.DataFrame, dict]:
    """The newest stored snapshot of each provider and region; the packaged snapshot for the rest, and for all when
    there is no store at `path` yet (a file there that is no usable store raises: `open_store`). With `snapshot`,
    of the store as it stood when that snapshot was saved (it and the snapshots saved before it); the packaged prices
    fill in only the providers and regions it does not price: PricesRefuteScenario (`_pinned_store`) where it prices
    none, its rows all unusable.

    Besides the provenance every source has, it carries what `scenario_provenance` needs to name only
    what a scenario uses: "in_force" ([provider, region, snapshot id] of each pair the store prices) and
    "notes" ([provider or None, regions or None, text] of each line of "warning")."""
    import pandas as pd

    from pricing_adapters.schema import validate_offers
    from pricing_adapters.store import open_store

    pinned = {} if snapshot is None else {"pinned_snapshot": snapshot}
    if snapshot is None:
        store, warning = open_store(path, create=False)   # reading prices creates, moves and writes nothing
    else:
        store, warning = _pinned_store(path, snapshot), None
    packaged, packaged_provenance = _packaged()
    # a store to make or fill: the refresh's commands are the scenario's to name (refresh_said), its --store where
    # the refresh would not find the store by itself (not $FLEETPLAN_STORE's, nor the platform's data directory)
    store_named = None if Path(path) == resolve_store(None) else str(path)
    if store is None:
        return packaged, {"source": "snapshot", "snapshots": [], "warning": warning,
                          "refresh": {"store": store_named, "warning": warning}}
    offers, in_force = store.offers_in_force(up_to=snapshot)
    if offers is None and snapshot is not None:   # pinned: its prices or none, never the packaged ones instead
        why = "; ".join(store.warnings)
        raise PricesRefuteScenario(f"prices.snapshot: snapshot #{snapshot} is in {store.path}, but neither it nor a "
                                   f"snapshot saved before it has a usable offer{f' ({why})' if why else ''}; pin "
                                   "another (`fleetplan prices list`)", PINNED_FIELD)
    if offers is None:   # no snapshot, or none with a usable offer (its rows all skipped: store.warnings say why)
        none = (f"has no snapshot yet (run {REFRESH_COMMAND})" if not store.snapshot_rows() else
                f"has no snapshot with a usable offer (run {REFRESH_COMMAND} again)")
        warning = "; ".join([f"the price store {store.path} {none}; using the packaged snapshot", *store.warnings])
        return packaged, {**packaged_provenance, "warning": warning,
                          "refresh": {"store": store_named, "warning": warning}}
    infos = sorted({i.id: i for i in in_force.values()}.values(), key=lambda i: i.id)
    covered = set(in_force)
    pairs = pd.Series(list(zip(packaged["provider"], packaged["region"])), index=packaged.index)
    # a stored row replaces the packaged row with its offer id, wherever the store puts it (two rows of one
    # id failed every plan on the store)
    rest = packaged[~pairs.isin(covered) & ~packaged["offer_id"].isin(offers["offer_id"])]
    refreshed = {p for p, _ in covered}
    never = "never refreshed" if snapshot is None else f"not refreshed up to snapshot #{snapshot}"
    notes: list[list] = [[p, None, f"{p}: packaged snapshot ({never})"]
                         for p in sorted(set(rest["provider"]) - refreshed)]
    notes += [[p, sorted(set(rest["region"][rest["provider"] == p])), f"{p}: packaged prices for regions {never}"]
              for p in sorted(refreshed & set(rest["provider"]))]
    notes += [[None, None, text] for text in store.warnings]  # rows and snapshots edited into nonsense: skipped, named
    # a snapshot id and time name a snapshot only within its store: a store replacing a damaged one at the same path
    # is told apart by its id (None for a store made before stores had one, until its next refresh)
    store_id = store.store_id()
    return validate_offers(pd.concat([offers, rest], ignore_index=True), origin=f"the price store {store.path}"), {
        "source": "store", "store": str(store.path),
        "snapshots": [{"id": i.id, "provider": i.provider, "regions": list(i.regions), "fetched_at": i.fetched_at,
                       "source": i.source, "row_count": i.row_count, "store_id": store_id} for i in infos],
        "warning": "; ".join(text for _, _, text in notes) or None,
        "in_force": [[p, r, i.id] for (p, r), i in sorted(in_force.items())], "notes": notes,
        "packaged": packaged_provenance, **pinned}


def refresh_commands(providers=None, regions=None, store: str | None = None) -> list[str]:
    """The `fleetplan prices refresh` commands, each in backquotes, that fill a price store with what a scenario
    allowing `providers` and `regions` (None: not known; regions None: any) plans on: one per cloud provider, as
    the command takes one, with its regions of `regions` (a provider with none of them is left out: the scenario
    uses none of its offers) or the placeholder REGION where any region is allowed; `--store STORE` where given.
    The placeholders of `fleetplan prices refresh --help` where nothing is known. Regions are told apart by the
    packaged snapshots' (the registry's: every region of each provider)."""
    import shlex

    from pricing_adapters import registry

    tail = f" --store {shlex.quote(store)}" if store is not None else ""
    commands = []
    for provider in [p for p in providers or () if p in registry.cloud_providers()]:
        known = registry.get(provider).regions()
        own = None if regions is None else [r for r in regions if r in known]
        if own == []:
            continue
        where = " ".join(f"--region {shlex.quote(r)}" for r in own) if own else "--region REGION"
        commands.append(f"`fleetplan prices refresh --provider {provider} {where}{tail}`")
    return commands or [f"`fleetplan prices refresh --provider PROVIDER --region REGION{tail}`"]


def refresh_said(provenance: dict, providers=None, regions=None) -> dict:
    """`provenance` (of `price_table`) whose warning of a store to make or fill (none there yet, or none of its
    snapshots usable: its "refresh") names the refresh commands of a scenario allowing `providers` and `regions`
    (refresh_commands), in place of the bare REFRESH_COMMAND, which lacks the options the command requires; as it
    is otherwise. Said from the warning as read, so it can be said again for another scenario."""
    refresh = provenance.get("refresh")
    if not refresh or not refresh.get("warning"):
        return provenance
    commands = refresh_commands(providers, regions, refresh["store"])
    said = " and ".join(commands)
    warning = refresh["warning"].replace(f"{REFRESH_COMMAND} makes one",
                                         f"{said} {'make' if len(commands) > 1 else 'makes'} one", 1)
    return {**provenance, "warning": warning.replace(REFRESH_COMMAND, said, 1)}


def scenario_provenance(provenance: dict, providers=None, regions=None) -> dict:
    """`provenance` (of `price_table`) narrowed to what a scenario allowing `providers` and `regions` (None:
    any) can use: of a store, only the snapshots in force in an allowed provider and region, and only the
    notes about those; the packaged snapshot's provenance (source "snapshot") when no snapshot applies; a store to
    make or fill with the refresh commands the scenario needs (refresh_said). Any other source's provenance is
    returned as it is. The keys every source has keep their shapes; what narrowing needs is kept, so a narrowed
    provenance can be narrowed again for another scenario."""
    provenance = refresh_said(provenance, providers, regions)
    if "in_force" not in provenance:
        return provenance

    def allowed(provider, region_list) -> bool:
        return ((providers is None or provider in providers)
                and (regions is None or region_list is None or bool(set(region_list) & set(regions))))

    every = provenance.get("all_snapshots", provenance["snapshots"])
    used = {snap_id for p, r, snap_id in provenance["in_force"] if allowed(p, [r])}
    warning = "; ".join(text for p, rs, text in provenance["notes"] if p is None or allowed(p, rs)) or None
    kept = {k: provenance[k] for k in ("in_force", "notes", "packaged", "store", "pinned_snapshot", "packaged_data")
            if k in provenance}
    snapshots = [s for s in every if s["id"] in used]
    if not snapshots:
        return {**provenance["packaged"], **kept, "all_snapshots": every, "snapshots": [], "warning": warning}
    return {**provenance, "all_snapshots": every, "snapshots": snapshots, "warning": warning}


@lru_cache(maxsize=8)
def _read_prices(source: str, path: str | None, stamp, snapshot: int | None = None,
                 named: str | None = None) -> tuple[pd.DataFrame, dict]:
    """(offers, provenance) of `price_table`, its provenance with `packaged_data`."""
    offers, provenance = _read_source(source, path, snapshot, named)
    return offers, {**provenance, "packaged_data": packaged_data(source)}


# what to do instead of a plan on a file that is no usable store: a damaged store of ours is set aside by a refresh;
# another application's file is never touched (the plan says to move it or give another store). One list: the advice
# the adapter's message gives a refresh is said in it, not beside it
NEW_STORE = ("refresh into a new file (`fleetplan prices refresh --store NEW.sqlite`) and plan with `--store NEW.sqlite` "
             "(or set $FLEETPLAN_STORE to it)")
DAMAGED_REMEDY = "`fleetplan prices refresh` moves it aside and starts a new store, or set prices.source: snapshot"
FOREIGN_REMEDY = f"move it, {NEW_STORE}, or set prices.source: snapshot"
UNUSABLE_REMEDY = f"move it aside, {NEW_STORE}, or set prices.source: snapshot"


def _store_unusable(exc: StoreError) -> PriceStoreUnusable:
    """The PriceStoreUnusable of a pricing_adapters StoreError `exc`: the file and what is wrong with it, why the
    plan stops (the packaged prices in the store's place planned a scenario on other prices than it asks for, exit 0)
    and one list of what to do."""
    from pricing_adapters.errors import StoreCorrupt, StoreForeign, StoreLinkBroken

    # a broken symbolic link: whoever made it wants it mended, said first with where it points (of a loop: that it is one)
    mend = exc.mend if isinstance(exc, StoreLinkBroken) else None
    remedy = (DAMAGED_REMEDY if isinstance(exc, StoreCorrupt) else FOREIGN_REMEDY if isinstance(exc, StoreForeign)
              else f"{mend}, {UNUSABLE_REMEDY}" if mend else UNUSABLE_REMEDY)
    return PriceStoreUnusable(f"{_without_advice(str(exc), mend)}; plans on prices.source: store read no other prices "
                              f"in its place: {remedy}")


def _without_advice(text: str, mend: str | None = None) -> str:
    """A store's error `text` less the advice it ends with for a refresh (pricing_adapters.store's RECOVER,
    LEAVE_FOREIGN, GIVE_A_FILE, and `mend` for a broken link): "X is a directory", not "X is a directory; give the
    path of a store file"."""
    from pricing_adapters.store import GIVE_A_FILE, LEAVE_FOREIGN, RECOVER

    mended = [f"; {GIVE_A_FILE}, or {mend}"] if mend else []
    for advice in (f": {RECOVER}", f": {LEAVE_FOREIGN}", *mended, f"; {GIVE_A_FILE}"):
        if text.endswith(advice):
            return text.removesuffix(advice)
    return text


def _read_source(source: str, path: str | None, snapshot: int | None,
                 named: str | None = None) -> tuple[pd.DataFrame, dict]:
    from pricing_adapters.errors import PriceSourceError as AdapterError
    from pricing_adapters.errors import StoreError, StoreLocked
    from pricing_adapters.snapshot import read_offers_csv

    if source == "snapshot":
        return _packaged()
    if source == "store":
        from pricing_adapters.schema import OffersSchemaError

        try:
            return _from_store(Path(path), snapshot)
        except StoreLocked as exc:   # it passes: a class of its own, for callers that try again (the dashboard)
            raise PriceStoreLocked(str(exc)) from None
        except StoreError as exc:   # a file there, but no store to read: it stays until moved (the dashboard keeps it)
            raise _store_unusable(exc) from None
        except (AdapterError, OffersSchemaError) as exc:   # one line, never a traceback (exit 2)
            raise PriceSourceError(str(exc)) from None
    csv = Path(source)
    if problem := file_problem(csv):
        raise PriceSourceError(f"prices.source: offers CSV: {problem}: {csv}")
    try:
        data = _offers_csv_bytes(csv)
        return read_offers_csv(data, origin=named or str(csv)), {"source": str(csv), "snapshots": [], "warning": None,
                                                                 "sha256": short_sha256(data.getvalue())}
    except OSError as exc:
        raise PriceSourceError(f"prices.source: offers CSV: cannot read: {exc.strerror or exc}: {csv}") from None
    except ValueError as exc:
        raise PriceSourceError(str(exc)) from None


def _offers_csv_bytes(csv: Path) -> io.BytesIO:
    """The bytes of the offers CSV at `csv`, read once (one more than the reader takes: a longer file is refused
    as too large), named as the file: the plan's hash of them (`sha256` of its provenance, which its JSON's
    input_files gives) is of the very bytes it was priced from, however the file changes after."""
    from pricing_adapters.snapshot import MAX_OFFERS_CSV_BYTES

    with open(csv, "rb") as f:
        data = io.BytesIO(f.read(MAX_OFFERS_CSV_BYTES + 1))
    data.name = str(csv)   # what the reader's messages take its suffix from (a .zst)
    return data


# ------------------------------------------------------------------ gaps and dates of the prices used

STALE_AFTER_DAYS = 180   # a price older than this is named in a plan's warnings (issue 16)
NAMED = 5                # a warning names this many offers, then counts the rest


def _where(provider: str, regions: list[str] | None) -> str:
    return f"{provider} in {', '.join(regions)}" if regions else f"{provider} (any region)"


COVERAGE_COLUMNS = ("provider", "region", "purchase_option")


def price_coverage(source: str, store: str | Path | None = None, snapshot: int | None = None,
                   named: str | None = None) -> tuple[dict[str, list[str]], dict]:
    """({provider, region, purchase_option: one list each, a row per offer}, provenance) of a price source: what
    `option_gaps` reads, and the provenance `price_table` gives — its "source" the prices actually read (the
    packaged snapshot's, "snapshot", where there is no store yet), its "warning" what is said of the store (rows
    skipped; no store yet, the packaged snapshot used instead), and its errors (a locked or unusable store, a pinned
    snapshot that is not there). Reading moves, creates and writes nothing. The packaged snapshot's comes from the
    registry's csv reading (no pandas); a store or an offers CSV is read whole by `price_table` (`named` as there)."""
    if source == "snapshot":
        from pricing_adapters import registry

        rows = [row for p in registry.providers() for row in p.snapshot_coverage()]
        return {col: [row[i] for row in rows] for i, col in enumerate(COVERAGE_COLUMNS)}, _packaged_coverage()
    table, provenance = price_table(source, store, snapshot, named)
    return {col: list(table[col]) for col in COVERAGE_COLUMNS}, provenance


# the facts of an offer that decide which workloads it can serve (engine.workloads._reason), with what explanations
# name it by: `offer_facts`' columns
OFFER_FACT_COLUMNS = ("offer_id", "provider", "region", "sku", "purchase_option", "gpu", "gpu_known", "gpu_count",
                      "gpu_memory_gb", "hourly_price", "accelerator_name")


def offer_facts(source: str, store: str | Path | None = None, snapshot: int | None = None,
                named: str | None = None) -> list[tuple]:
    """One tuple per offer of a price source, OFFER_FACT_COLUMNS in order (gpu_known a bool, the numbers floats,
    NaN where a cell is empty): what `fleetplan validate` checks a workload's memory against, as `price_coverage`
    reads the packaged snapshot with the csv module (no pandas) and a store or an offers CSV whole by `price_table`."""
    if source == "snapshot":
        return list(_packaged_offer_facts())
    table = price_table(source, store, snapshot, named)[0]
    columns = [table[c].to_numpy(dtype=object).tolist() for c in OFFER_FACT_COLUMNS]
    return [(*row[:6], bool(row[6]), *(_number(x) for x in row[7:10]), str(row[10] or "")) for row in zip(*columns)]


def _number(cell) -> float:
    """A number cell as a float, NaN where it is empty or not a number."""
    try:
        return float(cell)
    except (TypeError, ValueError):
        return float("nan")


@lru_cache(maxsize=1)
def _packaged_offer_facts() -> tuple[tuple, ...]:
    """`offer_facts` of the packaged snapshot, read with the csv module in registry order (as load_snapshot
    reads them); a gpu_known cell reads as load_snapshot's (pricing_adapters.schema.known_flags): False only where
    it says false."""
    import csv

    from pricing_adapters import PACKAGE_DIR, registry

    rows = []
    for provider in registry.providers():
        if not provider.snapshot_file:
            continue
        with (PACKAGE_DIR / "snapshots" / provider.snapshot_file).open("r", encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                rows.append((*(row[c] for c in OFFER_FACT_COLUMNS[:6]), row["gpu_known"].strip().lower() != "false",
                             *(_number(row[c]) for c in OFFER_FACT_COLUMNS[7:10]), row["accelerator_name"]))
    return tuple(rows)


def _packaged_coverage() -> dict:
    """The provenance `price_coverage` gives of the packaged snapshot, read without pandas (no build date)."""
    return {"source": "snapshot", "snapshots": [], "warning": None}


def _cells(column):
    """The cells of a table column (a Series or a list) as a plain sequence."""
    return column.to_numpy(dtype=object) if hasattr(column, "to_numpy") else column


def option_gaps(scenario, table, source: str | None = None, plans: bool = True) -> list[str]:
    """One warning per purchase option `scenario` allows that has no price in its allowed providers and
    regions of `table` (an offers table, e.g. from `price_table`, or `price_coverage`'s columns); []
    when every allowed option is priced, or when the scenario left its options to the default (none of them was
    the user's choice: the default's reservations have no packaged price). `source` names the prices `table` holds,
    as their provenance says ("snapshot" where `prices.source: store` fell back to the packaged snapshot); default
    the scenario's prices.source. See `gaps_of_options`."""
    p = scenario.prices
    if not p.options_given:
        return []
    return gaps_of_options(p.providers, p.regions, p.purchase_options, table, source or p.source, plans)


def gaps_of_options(providers, regions, options, table, source: str, plans: bool = True) -> list[str]:
    """One warning per purchase option of `options` that has no price for some of `providers` in `regions` (None:
    any) of `table` (see option_gaps), in the `source` prices.

    e.g. "reserved_1y: no reserved_1y prices for aws in us-east-1 in the snapshot prices; plans use
    on_demand/spot only". When some providers have the option and others do not, the warning names the ones without
    it and says where it is priced. Without `plans` (`fleetplan offers`, which plans nothing), no word of what plans
    use instead.
    """
    # (provider, region, option); a Series' cells read as one array (pandas' per-cell access costs ~5 ms here)
    offered = set(zip(*(_cells(table[col]) for col in COVERAGE_COLUMNS)))
    cloud = {(prov, region, opt) for prov, region, opt in offered
             if prov in providers and (regions is None or region in regions)}
    regions_of = {prov: (None if regions is None else
                         sorted({region for pv, region, _ in offered if pv == prov} & set(regions)))
                  for prov in providers}
    priced = {opt: {prov for prov, _, o in cloud if o == opt} for opt in options}
    usable = [opt for opt in options if priced[opt]]
    fallback = f"plans use {'/'.join(usable)} only" if usable else "no allowed option has a price there"
    out = []
    for opt in options:
        missing = [prov for prov in providers if prov not in priced[opt] and regions_of[prov] != []]
        if not missing:
            continue
        who = " or ".join(_where(prov, regions_of[prov]) for prov in missing)
        text = f"{opt}: no {opt} prices for {who} in the {source} prices"
        if priced[opt]:
            text += f"; {opt} is priced only for {', '.join(sorted(priced[opt]))}"
        elif plans:
            text += f"; {fallback}"
        out.append(text)
    return out


def _label(provider, sku, option, region) -> str:
    """'aws g5.xlarge spot (us-east-1)' for an offer; the card id for an on-prem card."""
    provider = provider or ""
    if provider in ("", "onprem"):
        return f"card {sku}" if provider == "onprem" else str(sku)
    return f"{provider} {sku} {option}" + (f" ({region})" if region else "")


def _cells_or(table, column: str, default, n: int):
    """The cells of `column` of `table` in row order (iterated as pandas' itertuples gives them), or `n`
    times `default` when there is no such column."""
    return iter(table[column]) if column in table else itertools.repeat(default, n)


def _named(labels: list[str]) -> str:
    more = f" and {len(labels) - NAMED} more" if len(labels) > NAMED else ""
    return ", ".join(labels[:NAMED]) + more


def _iso(text) -> date | None:
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        return None


def undated_and_stale(used_offers: pd.DataFrame | Mapping, today: date | None = None,
                      stale_after_days: int = STALE_AFTER_DAYS) -> tuple[list[bool], list[bool]]:
    """Row by row, whether each price of `used_offers` (as date_report reads them) is undated, and whether it is
    stale, as date_report tells them: a quote of the scenario's without a date is neither."""
    limit = (today or utc_today()) - timedelta(days=stale_after_days)
    n = len(list(used_offers["sku"]))
    undated, stale = [], []
    for source, as_of in zip(_cells_or(used_offers, "source", "", n), _cells_or(used_offers, "as_of", None, n)):
        when = _iso(as_of)
        undated.append(when is None and not str(source or "").startswith(QUOTED_SOURCES))
        stale.append(when is not None and when < limit)
    return undated, stale


def utc_today() -> date:
    """Today in UTC, the clock of a plan's `generated_at` and of the adapters' dates: a plan's stale-price count
    is the same wherever it is run (the local date made a run in Los Angeles a day younger than one in UTC). The
    snapshots' ages read the same clock (`shown.utc_today`)."""
    from pricing_adapters import shown
    return shown.utc_today()


def date_report(used_offers: pd.DataFrame | Mapping, today: date | None = None,
                stale_after_days: int = STALE_AFTER_DAYS) -> dict:
    """How old the prices a plan used are. `used_offers`: one row per offer used (a DataFrame, or a dict of
    equally long columns), with `as_of` and `sku` (and, when present, `provider`, `purchase_option`,
    `region`, `source`); a row whose `as_of` is empty or not an
    ISO date is undated. A row without a date whose `source` starts with one of QUOTED_SOURCES is a price
    the scenario gives (`onprem.custom_cards`, or a catalog card's price in `onprem.card_overrides`): named
    in `quoted` and the text, never a stale or undated price (an override with its own `as_of` is dated). Returns

        {"as_of_min", "as_of_max": ISO dates of the dated rows (None when none is dated),
         "rows", "dated_rows", "undated_rows", "stale_rows": counts (one row per offer label; quoted
         prices are not rows), "quoted_rows",
         "undated", "stale", "quoted": the labels ('aws g5.xlarge spot (us-east-1)'), oldest first for stale,
         "stale_after_days", "text": the range for a one-line summary ("2024-04-04 to 2026-07-20,
         3 undated", "undated", "no prices used"), "warnings": strings naming stale (older than
         `stale_after_days` on `today`, default `utc_today()`), undated and future-dated prices, NAMED at most
         each, the rest counted}.
    """
    today = today or utc_today()
    seen: dict[str, date | None] = {}
    quoted: set[str] = set()   # cards priced by the scenario itself (custom cards, overrides): a quote, not undated data
    # column by column: a row tuple per offer (itertuples) costs more than the rest of the report
    skus = list(used_offers["sku"])
    n = len(skus)
    rows = zip(_cells_or(used_offers, "provider", "", n), skus, _cells_or(used_offers, "purchase_option", "", n),
               _cells_or(used_offers, "region", "", n), _cells_or(used_offers, "source", "", n),
               _cells_or(used_offers, "as_of", None, n))
    for provider, sku, option, region, source, as_of in rows:
        label = _label(provider, sku, option, region)
        when = _iso(as_of)
        if when is None and str(source or "").startswith(QUOTED_SOURCES):
            quoted.add(label)
            continue
        if label not in seen or (when is not None and (seen[label] is None or when < seen[label])):
            seen[label] = when  # an offer used twice counts once, at its oldest date
    dated = {k: v for k, v in seen.items() if v is not None}
    undated = sorted(k for k, v in seen.items() if v is None)
    limit = today - timedelta(days=stale_after_days)
    stale = sorted((k for k, v in dated.items() if v < limit), key=lambda k: (dated[k], k))
    lo = min(dated.values()) if dated else None
    hi = max(dated.values()) if dated else None
    if not seen:
        text = "no prices used"
    elif not dated:
        text = "undated"
    else:
        text = lo.isoformat() if lo == hi else f"{lo.isoformat()} to {hi.isoformat()}"
        if undated:
            text += f", {len(undated)} undated"
    if quoted:
        quotes = f"{len(quoted)} quoted in the scenario"
        text = quotes if not seen else f"{text}, {quotes}"
    warnings = []
    if stale:
        oldest = dated[stale[0]]
        warnings.append(f"stale prices: {len(stale)} of {len(seen)} prices used are older than {stale_after_days} "
                        f"days on {today.isoformat()} (oldest {oldest.isoformat()}, {(today - oldest).days} days): "
                        f"{_named(stale)}")
    if undated:
        warnings.append(f"undated prices: {len(undated)} of {len(seen)} prices used have no date: {_named(undated)}")
    # a typo or a wrong clock: such a price counts as fresh. A day's slack: a source may date its prices in a
    # zone ahead of UTC, where tomorrow has begun
    future = sorted(k for k, v in dated.items() if v > today + timedelta(days=1))
    if future:
        warnings.append(f"prices dated after {today.isoformat()}: {len(future)} of {len(seen)} prices used (latest "
                        f"{max(dated[k] for k in future).isoformat()}; a wrong date?): {_named(future)}")
    return {"as_of_min": lo.isoformat() if lo else None, "as_of_max": hi.isoformat() if hi else None,
            "rows": len(seen), "dated_rows": len(dated), "undated_rows": len(undated), "stale_rows": len(stale),
            "quoted_rows": len(quoted),
            "undated": undated, "stale": stale, "quoted": sorted(quoted), "stale_after_days": stale_after_days, "text": text,
            "warnings": warnings}
