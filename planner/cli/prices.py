"""`fleetplan prices …`: refresh the local price store from live APIs, show and diff snapshots.

A failed refresh exits 1 with its reason in one line and leaves the store as it was. Bad input (an
unknown provider, a region that cannot be one, a --store that holds no store of ours, a store a refresh could not
write, told before its first request) exits 2. Only
`refresh` creates a store or sets a damaged one aside, and only as it saves a snapshot (a refresh that fails leaves
the path as it was); `list`, `show` and `diff` create, move and write nothing.

The price store, the adapters' base and the offers schema import pandas, so they are imported inside the
commands: `fleetplan --help` and `fleetplan prices … --help` load no pandas (tests/planner/test_startup.py);
so is the catalog (GPU table, frameworks), which help does not need either.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from planner.cli.console import (
    CONTEXT_SETTINGS,
    HELP_MARKUP,
    Format,
    choice_option,
    emit,
    err,
    fail,
    progress_bar,
    seconds_within,
    store_option,
)
from planner.errors import PlannerError, PricesRefuteScenario
from planner.text import counted, shortened
from pricing_adapters import registry
from pricing_adapters.errors import (
    HardwareChangeError,
    MissingOffersError,
    PriceJumpError,
    PriceSourceError,
    RegionError,
    SourceConfigError,
    StoreCorrupt,
    StoreError,
    StoreMissing,
    StoreSchemaOther,
)
from pricing_adapters.settings import DEFAULT_DEADLINE_S, STORE_ENV_VAR
from pricing_adapters.shown import calendar_days, days_old

if TYPE_CHECKING:
    import pandas as pd

    from pricing_adapters.store import PriceStore, SnapshotInfo


prices_app = typer.Typer(add_completion=False, no_args_is_help=True, context_settings=CONTEXT_SETTINGS,
                         rich_markup_mode=HELP_MARKUP,
                         help="Live prices: refresh into the local store, show what is in use, diff snapshots.")

STORE_HELP = f"price store file (default: ${STORE_ENV_VAR} or the platform's data directory)"
# --deadline at most a day: no refresh needs longer, and threading's waits overflow on 1e10 or inf
MAX_DEADLINE_S = 86400.0


def _resolve_store(store: Path | None) -> Path:
    """The price store file; exit 2 when --store, or else $FLEETPLAN_STORE, names a folder or a file in a folder
    that does not exist (catalog.prices.store_mistake: the check and words of plan, validate and the library)."""
    from planner.catalog import resolve_store
    from planner.catalog.prices import store_mistake

    mistake = store_mistake(store, "--store ")
    if mistake:
        fail(mistake, 2)
    return resolve_store(store)


def _store_named(store: Path | None) -> str:
    """Where the store path came from, as a message about it begins: `--store`, `$FLEETPLAN_STORE`, or `the default
    store (PATH)` (every one said "--store: …", also where no --store was given)."""
    if store is not None:
        return "--store"
    if os.environ.get(STORE_ENV_VAR):   # as default_store_path reads it: set but empty is unset
        return f"${STORE_ENV_VAR}"
    return f"the default store ({_resolve_store(None)})"


def _what_to_do(exc: StoreError) -> str:
    """What to do about a store a command cannot use, where its message does not say: of another store schema,
    upgrade fleetplan (a newer one made it) or use another store."""
    if isinstance(exc, StoreSchemaOther):
        upgrade = "upgrade fleetplan to read it (a newer fleetplan made it), or " if exc.newer else ""
        return f"; {upgrade}give another --store / ${STORE_ENV_VAR}"
    return ""


def _open(store: Path | None, quiet: bool = False) -> PriceStore:
    """The store for a refresh (`store`, else $FLEETPLAN_STORE or the default), opened without making, moving or
    writing anything (`open_for_refresh`): where there is no store yet, or a damaged store of ours, one is made (the
    damaged one set aside, with a warning) only when the refresh saves its snapshot, so a refresh that fails leaves
    the path as it was. Any other file (another application's, a scenario given as --store by mistake), or a store
    that cannot be used now (a directory, no permission, locked, read-only: checked before any request), exits 2 and
    is left untouched. `quiet`: the note on a damaged store is not told (the warning once it is moved aside is)."""
    from pricing_adapters.store import StoreToBe, open_for_refresh

    try:
        price_store = open_for_refresh(_resolve_store(store))
    except StoreError as exc:
        fail(f"{_store_named(store)}: {exc}{_what_to_do(exc)}", 2)
    if isinstance(price_store, StoreToBe) and price_store.damaged is not None and not quiet:
        err.warn(f"{price_store.damaged}; this refresh moves it aside and starts a new store when it saves its "
                 "snapshot (a refresh that fails leaves it where it is)", label="note")
    return price_store


def _unchanged_text(store: PriceStore, provider: str, regions: list[str]) -> str:
    """What a failed refresh left, after "The store is unchanged": what plans keep using (`_fallback_text`), or, for
    a damaged store it would have set aside on saving, that it is still there and plans on it stop at it."""
    from pricing_adapters.store import StoreToBe

    if isinstance(store, StoreToBe) and store.damaged is not None and not store.snapshots():
        return (f": {store.path} is still the damaged store, moved aside only by a refresh that saves; until then plans "
                f"on prices.source: store stop at it (prices.source: snapshot plans on the packaged prices)")
    return f"; plans keep using {_fallback_text(store, provider, regions)}"


def _read(store: Path | None, needed_for: str | None = None) -> PriceStore | None:
    """The existing store for a command that only reads (list, show, diff), which creates, moves and writes
    nothing. None, with a note saying how to make one, when there is no store yet (no file, or an empty
    one): the state of a fresh install, not an error. A damaged store or any other file exits 2. `needed_for`
    (what was asked of the store, "no snapshot #1"): no store is an error, exit 2, saying so once (it had
    been the note, then an error in the same words)."""
    from pricing_adapters.store import PriceStore

    path = _resolve_store(store)
    try:
        return PriceStore(path, create=False)
    except StoreMissing as exc:
        from planner.catalog.prices import refresh_commands

        # in the words plan and validate say it (pricing_adapters.store.open_store), as a command refresh takes: its
        # required options as its help names them (no scenario says which providers and regions)
        [command] = refresh_commands(store=str(path) if store is not None else None)
        if needed_for is not None:
            fail(f"{needed_for}: {exc}: {command} makes one", 2)
        err.warn(f"{exc}: {command} makes one", label="note")
        return None
    except StoreCorrupt as exc:
        fail(f"{_store_named(store)}: {exc}; it was left as it is: `fleetplan prices refresh` moves it aside and "
             f"starts a new store", 2)
    except StoreError as exc:
        fail(f"{_store_named(store)}: {exc}{_what_to_do(exc)}", 2)


def _check_providers(names: list[str]) -> None:
    """Exit 2 for a --provider whose prices the store cannot hold, as `fleetplan offers` does: an unknown
    name would otherwise filter every offer out and print an empty table with exit 0."""
    from planner.catalog import suggest

    allowed = registry.cloud_providers()
    for name in names:
        if name not in allowed:
            near = suggest(name, allowed)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            if name in registry.names():   # onprem: a provider, but with no live prices in the store
                hint += f"; {registry.get(name).label} has no live prices (its cards: `fleetplan offers --provider {name}`)"
            fail(f"--provider {name!r}: expected one of {', '.join(allowed)}{hint}", 2)


def _print_warnings(store: PriceStore) -> None:
    """Name the stored rows and snapshots that were skipped as unreadable."""
    for text in store.warnings:
        err.warn(text)


def _print_skipped(source, quiet: bool = False) -> None:
    """`skipped: 8 implausible_price, 1 windows`: how many items the fetch of `source` left out, by reason."""
    skipped = {k: v for k, v in (getattr(source, "skipped", None) or {}).items() if v}
    if skipped and not quiet:
        err.print("skipped: " + ", ".join(f"{v} {k}" for k, v in sorted(skipped.items())), soft_wrap=True)


def _fallback_text(store: PriceStore, provider: str, regions: list[str]) -> str:
    """What plans keep using in each of `regions` after a failed refresh: the snapshot in force there, or
    the packaged snapshot for a region never refreshed (or nothing, when that has no prices there either)."""
    from pricing_adapters.schema import OffersSchemaError

    try:
        in_force = store.in_force([provider])
    except (StoreError, OffersSchemaError) as exc:   # the refresh already failed: say why, not a traceback
        return f"what they used before (the store cannot be read: {exc})"
    packaged = registry.get(provider).regions()
    parts: dict[str, list[str]] = {}
    for region in regions:
        if (provider, region) in in_force:
            what = in_force[(provider, region)].describe()
        elif region in packaged:
            what = "the packaged snapshot"
        else:
            what = f"no {provider} prices (neither the store nor the packaged snapshot has any)"
        parts.setdefault(what, []).append(region)
    return "; ".join(f"{what} for {', '.join(where)}" for what, where in parts.items())


@prices_app.command()
def refresh(
    provider: str = typer.Option(..., "--provider", metavar="PROVIDER", help=f"{' or '.join(registry.cloud_providers())}"),
    region: list[str] = typer.Option(..., "--region", metavar="REGION", help="region code (repeatable)"),
    store: Path | None = store_option(STORE_HELP),
    subscription: str | None = typer.Option(None, "--subscription", metavar="ID",
                                               help="Azure subscription for VM size facts (else AZURE_SUBSCRIPTION_ID)"),
    deadline: float = typer.Option(DEFAULT_DEADLINE_S, "--deadline", parser=seconds_within(1, MAX_DEADLINE_S),
                                   help=f"give up (exit 1, store unchanged) when the whole refresh takes longer "
                                        f"than SECONDS (1 to {MAX_DEADLINE_S:g}), however slowly the API answers",
                                   metavar="SECONDS"),
    accept_price_jumps: bool = typer.Option(False, "--accept-price-jumps",
                                            help="save the prices even where they moved more than tenfold against "
                                                 "those in force (the median of a region's offers, or a quarter of "
                                                 "them, two or more) or one offer more than fiftyfold, and where "
                                                 "a reservation costs over 1.5× the same instance on demand (spot: "
                                                 "2×) or any of them under 1/20 of it; without it such a refresh "
                                                 "fails (exit 1, store unchanged), as a broken feed"),
    accept_missing_offers: bool = typer.Option(False, "--accept-missing-offers",
                                               help="save the refresh even where it lacks more than half of the "
                                                    "offers in force in its regions (in all, in one region or in one "
                                                    "purchase option such as spot), across three instance types or "
                                                    "more, or every offer of a purchase option in a region that still "
                                                    "offers an instance type that had it; without it such a refresh "
                                                    "fails (exit 1, store unchanged), as a partial answer or a parser "
                                                    "change, since it would replace those regions' offers and plans "
                                                    "would lose the missing ones"),
    accept_hardware_changes: bool = typer.Option(False, "--accept-hardware-changes",
                                                 help="save the refresh even where the GPU, GPU count, GPU memory, "
                                                      "vCPUs or RAM it gives an instance type differs from what the "
                                                      "store holds for "
                                                      "it, or, for a type the store does not hold yet, from the facts "
                                                      "fleetplan ships (Azure's packaged size table, the packaged "
                                                      "snapshot); without it such a refresh fails (exit 1, store "
                                                      "unchanged), as a broken feed, since a wrong GPU count divides "
                                                      "every price per GPU-hour of the type. Once saved, the facts are "
                                                      "not asked about again (where the packaged facts differ, each "
                                                      "refresh warns; one giving the packaged facts where the store's "
                                                      "differ is saved without it, with a warning)"),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="for cron: print nothing on success (no notes, no \"saved snapshot …\" line, no "
                                    "count of items skipped), but still every warning (offers dropped, prices moved "
                                    "more than twofold, changes accepted) and every error"),
) -> None:
    """Fetch live prices and keep them as a new snapshot in the store (all or nothing)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from planner.process import Terminated
    from pricing_adapters.refresh import check_regions, get_source
    from pricing_adapters.refresh import refresh as do_refresh
    from pricing_adapters.schema import OffersSchemaError

    _check_providers([provider])
    row = registry.get(provider)
    options = {"subscription_id": subscription} if subscription and "subscription_id" in row.refresh_options else {}
    try:
        source = get_source(provider, **options)
        regions = check_regions(source, region)   # bad input is told before the store is opened or made
    except SourceConfigError as exc:
        fail(f"--provider {provider}: {exc}", 2)
    except RegionError as exc:
        fail(f"--region: {exc}", 2)
    price_store = _open(store, quiet)
    try:
        with progress_bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          transient=True) as bar:   # no terminal in cron: it prints nothing there
            tasks: dict[str, int] = {}
            notes: list[str] = []   # told once the snapshot is saved, beside the source's notice

            def progress(step: str, done: int, total: int | None = None) -> None:
                if step not in tasks:
                    tasks[step] = bar.add_task(step, total=total)
                bar.update(tasks[step], completed=done, total=total)

            info = do_refresh(source, regions, price_store, progress, deadline=deadline,
                              accept_price_jumps=accept_price_jumps, accept_missing_offers=accept_missing_offers,
                              accept_hardware_changes=accept_hardware_changes, warn=err.warn, note=notes.append)
    except SourceConfigError as exc:
        fail(f"--provider {provider}: {exc}", 2)
    except (Terminated, KeyboardInterrupt) as exc:   # cron's `timeout`, a service stop, Ctrl-C: said, for the mail
        stopped = str(exc) if isinstance(exc, Terminated) else "stopped by SIGINT (Ctrl-C)"
        if (saved := getattr(price_store, "saved", None)) is not None:   # while saying what the checks let through
            err.labelled("refresh stopped:", f"{stopped} after it saved {saved.describe()} in {price_store.path}; "
                         "its warnings may be cut short", "bold red")
        else:
            err.labelled("refresh stopped:", f"{stopped} before the snapshot was saved. The store is unchanged"
                         f"{_unchanged_text(price_store, provider, regions)}.", "bold red")
        raise typer.Exit(exc.code if isinstance(exc, Terminated) else 130) from None
    except (PriceSourceError, OffersSchemaError) as exc:
        err.labelled("refresh failed:", f"{exc}. The store is unchanged{_unchanged_text(price_store, provider, regions)}.",
                     "bold red")
        if isinstance(exc, (PriceJumpError, MissingOffersError, HardwareChangeError)):
            # refused after a whole fetch: what it skipped may be why (every price a million times too dear)
            _print_skipped(source)
        _print_warnings(price_store)
        raise typer.Exit(1) from None
    if moved_aside := getattr(price_store, "moved_aside", None):   # a damaged store, set aside as the snapshot was saved
        err.warn(moved_aside)
    for notice in [getattr(source, "notice", None), *notes] if not quiet else []:
        if notice:
            err.print(f"note: {notice}", soft_wrap=True)
    _print_skipped(source, quiet)
    if not quiet:
        err.print(f"saved {info.describe()} in {price_store.path}", soft_wrap=True)
    try:
        shadowed = price_store.shadowed(info)
    except (StoreError, OffersSchemaError) as exc:   # the snapshot is saved: this is only a check, exit 0
        err.warn(f"could not check which snapshots are in force in {', '.join(regions)}: {exc}")
        shadowed = {}
    for region, newer in shadowed.items():
        # the store orders snapshots by when they were fetched: a clock behind would hide this refresh
        err.warn(f"snapshot #{info.id} is not in force in {region}: snapshot #{newer.id} there was fetched at "
                 f"{newer.fetched_at}, later than this one's {info.fetched_at}, so plans keep using it. A clock was "
                 "wrong when one of them was saved (check this machine's time); `fleetplan prices list` shows both")
    _print_warnings(price_store)   # rows of earlier snapshots skipped while checking


def _usable_rows(price_store: PriceStore, info) -> int:
    """How many offer rows of snapshot `info` plans can use: its rows less those skipped as bad, which `warnings`
    name (with rows deleted or added by hand since it was saved); the count it recorded when saved said 10 of a
    snapshot whose one bad row plans skip."""
    offers, n_rows = price_store._good_offers(info.id)
    if n_rows:
        price_store._check_row_count(info, n_rows)
    return len(offers)


@prices_app.command("list")
def list_snapshots(
    store: Path | None = store_option(STORE_HELP),
    fmt: Format = choice_option(Format.table, "--format", help="table | json | csv"),
) -> None:
    """Every snapshot kept in the store, oldest first."""
    import pandas as pd

    price_store = _read(store)
    try:
        snapshots = price_store.snapshots() if price_store is not None else []
    except StoreError as exc:   # opened, then unreadable (locked, pages damaged since)
        fail(f"{_store_named(store)}: {exc}{_what_to_do(exc)}", 2)
    from pricing_adapters.schema import OffersSchemaError

    try:
        usable = {s.id: _usable_rows(price_store, s) for s in snapshots}
    except (StoreError, OffersSchemaError) as exc:
        fail(f"{_store_named(store)}: {exc}{_what_to_do(exc)}", 2)
    rows = [{"id": s.id, "provider": s.provider, "regions": ",".join(s.regions), "fetched_at": s.fetched_at,
             "age_days": calendar_days(s.fetched_at), "offers": usable[s.id], "source": s.source}
            for s in snapshots]
    if price_store is not None:
        _print_warnings(price_store)
        if not price_store.unreadable and not snapshots:   # a store made, nothing saved in it yet: as no store is said
            from planner.catalog.prices import refresh_commands

            [command] = refresh_commands(store=str(price_store.path) if store is not None else None)
            err.warn(f"no snapshot in the price store {price_store.path} yet: {command} saves one", label="note")
    emit(pd.DataFrame(rows, columns=["id", "provider", "regions", "fetched_at", "age_days", "offers", "source"]),
         fmt, title=str(_resolve_store(store)))


@prices_app.command()
def show(
    gpu: str | None = typer.Option(None, "--gpu", metavar="GPU", help="GPU id, alias or family"),
    provider: list[str] = typer.Option([], "--provider", metavar="PROVIDER", help="aws, azure (repeatable)"),
    snapshot: str | None = typer.Option(None, "--snapshot", metavar="ID",
                                        help="the prices of the store as it stood when snapshot ID was saved (see "
                                             "`prices list`), as a scenario with `prices.snapshot: ID` plans on them; "
                                             "--format csv writes an offers CSV that `prices.source: FILE` reads"),
    store: Path | None = store_option(STORE_HELP),
    fmt: Format = choice_option(Format.table, "--format", help="table | json | csv"),
) -> None:
    """The prices a scenario with `prices.source: store` plans on: which snapshot, its age, its offers."""
    from planner import catalog
    from planner.catalog.prices import scenario_provenance

    _check_providers(provider)
    pinned = None if snapshot is None else _snapshot_id(snapshot, "--snapshot: ")
    # checked here first (_read): a damaged or foreign file exits 2 with this command's words (price_table would
    # raise PriceStoreUnusable, worded for plans), and no store at all shows the packaged snapshot plans use.
    # With no store, plans use the packaged snapshot: show that (a snapshot asked for is not there: exit 2).
    needed_for = None if pinned is None else f"--snapshot: no snapshot #{pinned}"
    source = "store" if _read(store, needed_for) is not None else "snapshot"
    if source == "snapshot":
        err.warn("until then plans on `prices.source: store` use the packaged snapshot, shown here", label="note")
    try:
        offers, provenance = catalog.price_table(source, store, pinned)
        provenance = scenario_provenance(provenance, provider or None)   # the snapshots of the providers shown
        if gpu is not None:
            offers = offers[offers["gpu"].isin(catalog.gpus_named(gpu))]
    except PricesRefuteScenario as exc:   # the scenario's words ("prices.snapshot: no snapshot #9 …"), the option's here
        fail(f"--snapshot: {str(exc).removeprefix('prices.snapshot: ')}", 2)
    except PlannerError as exc:
        fail(exc)
    if provider:
        offers = offers[offers["provider"].isin(provider)]
    if pinned is not None:
        err.print(f"the store as it stood when snapshot #{pinned} was saved:", soft_wrap=True)
    for snap in provenance.get("snapshots", []):
        err.print(f"{snap['provider']}: store snapshot #{snap['id']} fetched {snap['fetched_at']} "
                  f"({days_old(snap['fetched_at'])}), {counted(snap['row_count'], 'offer')}", soft_wrap=True)
    _print_provenance(provenance, provider)
    emit(offers.reset_index(drop=True), fmt, title=counted(len(offers), "offer"))


def _print_provenance(provenance: dict, providers: list[str]) -> None:
    """What `prices show` says of the prices beside its table: as a note, the packaged prices filling in what the
    store does not price; as a warning, each of the store's rows and snapshots skipped as unreadable (they were one
    note: "note: … 1 bad offer row skipped")."""
    notes = provenance.get("notes")
    if notes is None:   # the packaged snapshot's, or a store with no usable snapshot: one text
        if provenance.get("warning"):
            err.warn(provenance["warning"], label="note")
        return
    told = [text for p, _, text in notes if p is not None and (not providers or p in providers)]
    if told:
        err.warn("; ".join(told), label="note")
    for p, _, text in notes:
        if p is None:   # the store's skips (PriceStore.warnings)
            err.warn(text)


def snapshot_diff(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """Added and removed offers, and price changes in %, keyed on offer_id (effective hourly price)."""
    import pandas as pd

    from pricing_adapters.schema import effective_hourly

    def priced(df: pd.DataFrame) -> pd.DataFrame:
        out = df[["offer_id", "provider", "region", "sku", "purchase_option", "gpu"]].copy()
        out["usd_per_hour"] = effective_hourly(df["hourly_price"], df["upfront_price"], df["term_months"])
        return out.set_index("offer_id")

    a, b = priced(old), priced(new)
    rows = []
    for oid in sorted(set(a.index) | set(b.index)):
        if oid not in a.index:
            r, change, before, after = b.loc[oid], "added", float("nan"), b.at[oid, "usd_per_hour"]
        elif oid not in b.index:
            r, change, before, after = a.loc[oid], "removed", a.at[oid, "usd_per_hour"], float("nan")
        else:
            before, after = a.at[oid, "usd_per_hour"], b.at[oid, "usd_per_hour"]
            if abs(after - before) <= 1e-9 * max(abs(before), 1.0):
                continue
            r, change = b.loc[oid], "changed"
        pct = (after - before) / before * 100 if change == "changed" and before else float("nan")
        rows.append({"change": change, "offer_id": oid, "provider": r["provider"], "region": r["region"],
                     "sku": r["sku"], "purchase_option": r["purchase_option"], "gpu": r["gpu"],
                     "old_usd_per_hour": before, "new_usd_per_hour": after, "change_pct": pct})
    return pd.DataFrame(rows, columns=["change", "offer_id", "provider", "region", "sku", "purchase_option", "gpu",
                                       "old_usd_per_hour", "new_usd_per_hour", "change_pct"])


SNAPSHOT_ID = re.compile(r"[0-9]{1,18}")   # ASCII digits, as `prices list` shows them


def _snapshot_id(ref: str, given_as: str = "") -> int:
    """The snapshot id `ref` (ASCII digits, as `prices list` shows them); exit 2 for anything else. `given_as`
    leads the message ("--snapshot: ")."""
    if ref.isascii() and ref.isdigit() and not SNAPSHOT_ID.fullmatch(ref):   # digits, but more than an id has
        fail(f"{given_as}no snapshot #{shortened(ref, str)}: snapshot ids have at most 18 digits (see `prices list`)", 2)
    if not SNAPSHOT_ID.fullmatch(ref):   # int() also took "٢", "1_0" and " 1"
        fail(f"{given_as}{shortened(ref, repr)}: expected a snapshot id (digits 0-9, see `prices list`)"
             f"{'' if given_as else ' or `packaged`'}", 2)
    return int(ref)


def _regions(cover: set) -> str:
    """`aws: us-east-1, us-west-2; azure: eastus` of a snapshot's (provider, region) pairs."""
    by_provider: dict[str, list[str]] = {}
    for provider, region in sorted(cover):
        by_provider.setdefault(provider, []).append(region)
    return "; ".join(f"{p}: {', '.join(r)}" for p, r in by_provider.items()) or "no regions"


SOURCES_NAMED = 3   # of the packaged rows' sources, in a diff's heading


def _side_heading(info: SnapshotInfo | None, offers: pd.DataFrame) -> str:
    """One side of `prices diff` as its heading names it: the store snapshot (id, provider and regions, when it was
    fetched and how long ago) or the packaged snapshot (when it was built), the dates of the prices compared (their
    own `as_of`), and where they came from: the store snapshot's source, or the sources of the packaged rows compared
    (the first SOURCES_NAMED, each whole, " | " between them: a source's own words may hold "; ")."""
    if info is not None:
        from pricing_adapters.store import regions_named

        what = (f"store snapshot #{info.id} ({info.provider}, {regions_named(info.regions)}), fetched {info.fetched_at} "
                f"({days_old(info.fetched_at)})")
        source = f"source: {info.source or 'not recorded'}"
    else:
        from pricing_adapters.snapshot import snapshot_info

        what = f"the packaged snapshot, built {snapshot_info()['built_at']}"
        sources = list(dict.fromkeys(offers["source"].dropna().astype(str)))
        more = f" | and {len(sources) - SOURCES_NAMED} more" if len(sources) > SOURCES_NAMED else ""
        source = (f"{counted(len(sources), 'source')}: {' | '.join(sources[:SOURCES_NAMED])}{more}" if sources
                  else "source: not recorded")
    return f"{what}; {_as_of_text(offers)}; {source}"


def _as_of_text(offers: pd.DataFrame) -> str:
    """The dates of `offers`' prices as the source gave them (`as_of`): "prices as of 2026-07-20", "… 2024-04-04 to
    2026-07-20, 26 undated", "prices undated"; "no prices" for none."""
    if offers.empty:
        return "no prices"
    dates = offers["as_of"].astype(object).where(offers["as_of"].notna(), "").astype(str).str.strip()
    dated = sorted(dates[dates != ""])
    undated = len(dates) - len(dated)
    if not dated:
        return f"prices undated ({counted(undated, 'offer')})"
    text = f"prices as of {dated[0]}" + ("" if dated[0] == dated[-1] else f" to {dated[-1]}")
    return text + (f", {undated:,} undated" if undated else "")


@prices_app.command()
def diff(
    old: str = typer.Argument(..., help="snapshot id (see `prices list`) or `packaged`"),
    new: str = typer.Argument(..., help="snapshot id or `packaged`"),
    store: Path | None = store_option(STORE_HELP),
    fmt: Format = choice_option(Format.table, "--format", help="table | json | csv"),
) -> None:
    """What changed between two snapshots: SKUs added and removed, price changes in %."""
    import pandas as pd

    from pricing_adapters.schema import OffersSchemaError
    from pricing_adapters.snapshot import load_snapshot

    ids = [_snapshot_id(ref) for ref in (old, new) if ref != "packaged"]
    # no store is an error only where a snapshot of it is asked for (two `packaged` need none)
    price_store = _read(store, f"no snapshot #{ids[0]}" if ids else None)

    def load(ref: str) -> tuple[pd.DataFrame, set, SnapshotInfo | None]:
        """(offers, the (provider, region) pairs the snapshot covers, its SnapshotInfo; None for the packaged one)."""
        if ref == "packaged":
            offers = load_snapshot()
            return offers, set(zip(offers["provider"], offers["region"])), None
        snap_id = _snapshot_id(ref)
        try:
            info = price_store.snapshot(snap_id)
            return price_store.offers(info.id), price_store.coverage([info]), info
        except (PriceSourceError, OffersSchemaError) as exc:
            fail(str(exc), 2)

    (a, cover_a, info_a), (b, cover_b, info_b) = load(old), load(new)
    # Compare like with like: regions one side never fetched are not "added" or "removed".
    shared = cover_a & cover_b
    if not shared:   # an empty table would read "nothing changed"
        fail(f"snapshots {old} ({_regions(cover_a)}) and {new} ({_regions(cover_b)}) share no provider and region: "
             "nothing to compare", 2)

    def within(df: pd.DataFrame) -> pd.DataFrame:
        return df[pd.Series(list(zip(df["provider"], df["region"])), index=df.index).isin(shared)]

    a, b = within(a), within(b)
    table = snapshot_diff(a, b)
    for side, info, offers in (("old", info_a, a), ("new", info_b, b)):
        err.print(f"{side}: {_side_heading(info, offers)}", soft_wrap=True)
    if price_store is not None:
        _print_warnings(price_store)
    counts = table["change"].value_counts()
    regions = sorted({f"{p}:{r}" for p, r in shared})
    err.print(f"{counts.get('added', 0)} added, {counts.get('removed', 0)} removed, "
              f"{counts.get('changed', 0)} price changes ({old} → {new}; "
              f"{counted(len(regions), 'region')} both cover: {', '.join(regions[:6])}"
              f"{' …' if len(regions) > 6 else ''})")
    emit(table, fmt, title=f"prices {old} → {new}")
