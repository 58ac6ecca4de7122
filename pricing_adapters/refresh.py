"""One refresh: fetch every offer of a source, then write one snapshot — or nothing at all."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from pricing_adapters import registry
from pricing_adapters.base import PriceSource, Progress, no_progress
from pricing_adapters.errors import PriceSourceError, RegionError
from pricing_adapters.store import PriceStore, SnapshotInfo


def refresh(source: PriceSource, regions: Sequence[str], store: PriceStore,
            progress: Progress = no_progress, deadline: float | None = None) -> SnapshotInfo:
    """Fetch `regions` from `source` and save them as a new snapshot; the SnapshotInfo saved.

    `deadline`: seconds the whole fetch may take (default DEFAULT_DEADLINE_S), enforced by adapters that
    have a `deadline_s` attribute (aws, azure) inside their paging loops.
    Raises RegionError for regions that cannot be region codes (see `check_regions`), PriceSourceError
    (or a subclass) when the fetch fails; the store is then unchanged, because the snapshot is written
    only after the whole fetch returned and passed validation.
    """
    regions = check_regions(source, regions)
    if deadline is not None and hasattr(source, "deadline_s"):
        source.deadline_s = float(deadline)
    offers = source.fetch(regions, progress)
    empty = [r for r in regions if not (offers["region"] == r).any()]
    returned = sum((getattr(source, "returned", None) or {}).get(r, 0) for r in empty)
    if empty and returned:
        # the listing was there but nothing in it could be used: say why, not "check the region code"
        skipped = ", ".join(f"{v} {k}" for k, v in sorted((getattr(source, "skipped", None) or {}).items()))
        items = getattr(source, "returned_what", "price items")   # what the adapter counts in `returned`
        raise PriceSourceError(f"no GPU offers returned for region(s) {', '.join(empty)}: {returned} {items} "
                               f"were returned and every one was skipped (skipped in this refresh: "
                               f"{skipped or 'none counted'}); nothing was saved")
    if empty:
        # a snapshot claims the regions it covers: an empty region is a typo or an outage, not "no GPUs"
        raise PriceSourceError(f"no GPU offers returned for region(s) {', '.join(empty)} — check the region "
                               f"code; nothing was saved")
    return store.save(source.provider, regions, source.source, offers)


def check_regions(source: PriceSource, regions: Sequence[str]) -> list[str]:
    """`regions` stripped, blanks and repeats dropped, in order. RegionError when none is left, or when the
    source's own `check_regions` (the form of its region codes; optional) refuses one: bad input, told
    before a store is opened or a request made."""
    regions = list(dict.fromkeys(r.strip() for r in regions if r.strip()))
    check = getattr(source, "check_regions", None)
    if check is not None:
        check(regions)   # first: its message for no region names an example of its codes
    if not regions:
        raise RegionError(f"no {source.provider} region given: name at least one region code")
    return regions


def get_source(provider: str, **options) -> PriceSource:
    """A new live price source of `provider`: the adapter class its registry row names, built with
    `options` as constructor keywords. UnknownProviderError (a ValueError) for a name the registry
    lacks; ValueError for a provider without a live adapter (onprem); extras.MissingExtraError (a
    SourceConfigError: the CLI exits 2 with its one line) when the adapter's optional extra is not installed."""
    row = registry.get(provider)
    if row.adapter is None:
        raise ValueError(f"{row.label} ({row.name}) has no live price source; "
                         f"expected one of {', '.join(registry.cloud_providers())}")
    module, _, name = row.adapter.partition(":")
    return getattr(importlib.import_module(module), name)(**options)
