"""The provider registry: one row per provider, the only place provider names are spelled.

Adding a cloud means writing one adapter module (a `base.PriceSource`) and adding one row here. The
schema, the packaged snapshot, `refresh.get_source` and the snapshot builder read these rows.
"""

from __future__ import annotations

import csv
import difflib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from pricing_adapters import PACKAGE_DIR
from pricing_adapters.errors import UnknownProviderError
from pricing_adapters.shown import plural

AWS = "aws"
AZURE = "azure"
ONPREM = "onprem"


@dataclass(frozen=True)
class Provider:
    name: str                            # id in offers tables and scenario files
    label: str                           # for people
    adapter: str | None                  # "module:Class" of its live PriceSource; None when there is none
    purchase_options: tuple[str, ...]    # the options its offers can carry (schema.PURCHASE_OPTIONS)
    focus_name: str                      # FOCUS 1.0 ProviderName / PublisherName / InvoiceIssuerName
    colour: str                          # display colour, hex
    snapshot_file: str | None            # file in pricing_adapters/snapshots/, None when not packaged
    refresh_options: tuple[str, ...] = ()  # constructor keywords a CLI may pass to the adapter

    def regions(self) -> tuple[str, ...]:
        """The regions of its packaged snapshot, sorted; () when it has none."""
        return _snapshot_regions(self.snapshot_file) if self.snapshot_file else ()

    def snapshot_coverage(self) -> tuple[tuple[str, str, str], ...]:
        """(provider, region, purchase_option) of every offer in its packaged snapshot, distinct and
        sorted; () when it has none. Read with the csv module: `fleetplan validate` warns about unpriced
        purchase options from this without loading pandas."""
        return _snapshot_coverage(self.snapshot_file) if self.snapshot_file else ()


_BUILTIN = (
    Provider(AWS, "AWS", "pricing_adapters.aws:AwsPriceSource",
             ("on_demand", "spot", "reserved_1y", "reserved_3y"),
             "AWS", "#f97316", "aws.csv"),
    Provider(AZURE, "Azure", "pricing_adapters.azure:AzurePriceSource",
             ("on_demand", "spot", "reserved_1y", "reserved_3y", "savings_plan_1y", "savings_plan_3y",
              "low_priority"),
             "Microsoft", "#2563eb", "azure.csv", refresh_options=("subscription_id",)),
    Provider(ONPREM, "On-premises", None, ("purchase",), "On-premises", "#16a34a", None),
)
_ROWS: dict[str, Provider] = {p.name: p for p in _BUILTIN}
_NAME = re.compile(r"[a-z][a-z0-9_-]*")  # no ":" — offer ids join fields with it


@cache
def _snapshot_coverage(snapshot_file: str) -> tuple[tuple[str, str, str], ...]:
    with (PACKAGE_DIR / "snapshots" / snapshot_file).open("r", encoding="utf-8", newline="") as f:
        return tuple(sorted({(row["provider"], row["region"], row["purchase_option"]) for row in csv.DictReader(f)}))


@cache
def _snapshot_regions(snapshot_file: str) -> tuple[str, ...]:
    return tuple(sorted({region for _, region, _ in _snapshot_coverage(snapshot_file)}))


def providers() -> tuple[Provider, ...]:
    """Every registered provider, built-ins first in the order aws, azure, onprem."""
    return tuple(_ROWS.values())


def names() -> tuple[str, ...]:
    """The name of every registered provider, in registry order."""
    return tuple(_ROWS)


def cloud_providers() -> tuple[str, ...]:
    """The names of the providers that have a live adapter, in registry order: ("aws", "azure")."""
    return tuple(p.name for p in _ROWS.values() if p.adapter is not None)


def get(name: str) -> Provider:
    """The row of `name`; UnknownProviderError (with a did-you-mean hint) when it is not registered."""
    try:
        return _ROWS[name]
    except KeyError:
        pass
    close = difflib.get_close_matches(str(name).lower(), list(_ROWS), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise UnknownProviderError(f"unknown provider {name!r}{hint}; known providers: {', '.join(_ROWS)}")


def register(provider: Provider) -> None:
    """Add `provider` at the end, or replace the row of the same name in its place. Returns None;
    ValueError for a name that cannot be an offer-id field or a purchase option the schema lacks."""
    from pricing_adapters.schema import PURCHASE_OPTIONS  # schema imports this module at load time

    if not _NAME.fullmatch(provider.name):
        raise ValueError(f"provider name {provider.name!r}: use lower-case letters, digits, '-' or '_'")
    unknown = sorted(set(provider.purchase_options) - set(PURCHASE_OPTIONS))
    if unknown:
        raise ValueError(f"provider {provider.name!r}: unknown {plural(len(unknown), 'purchase option')} {unknown}")
    if provider.adapter is not None and ":" not in provider.adapter:
        raise ValueError(f"provider {provider.name!r}: adapter must be 'module:Class', got {provider.adapter!r}")
    _ROWS[provider.name] = provider


def unregister(name: str) -> Provider:
    """Remove the row of `name` and return it; UnknownProviderError when it is not registered."""
    get(name)
    return _ROWS.pop(name)


@contextmanager
def registered(provider: Provider) -> Iterator[Provider]:
    """Register `provider` for the `with` block (yields it), then put the registry back as it was."""
    before = dict(_ROWS)
    register(provider)
    try:
        yield provider
    finally:
        _ROWS.clear()
        _ROWS.update(before)
