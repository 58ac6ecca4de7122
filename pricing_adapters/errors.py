"""Errors of price sources, the price store and the provider registry. Messages are one line a user can act on."""

from __future__ import annotations


class PriceSourceError(Exception):
    """Prices could not be fetched or read; nothing was written."""


class CredentialsError(PriceSourceError):
    """No usable credentials (missing, expired)."""


class ThrottledError(PriceSourceError):
    """The API kept throttling after every retry."""


class StoreError(PriceSourceError):
    """The price store file is corrupt, foreign or unwritable."""


class StoreCorrupt(StoreError):
    """The store file is damaged or is not a fleetplan price store: it may be set aside."""


class StoreForeign(StoreError):
    """The store path holds another application's SQLite database: it is never moved or written."""


class DeadlineExceeded(PriceSourceError):
    """A refresh ran past its overall deadline (or page limit); nothing was written."""


class SourceConfigError(PriceSourceError):
    """A price source is configured wrongly (e.g. an endpoint URL that cannot be used): a usage error."""


class UnknownProviderError(ValueError):
    """A provider name that is not in the provider registry (pricing_adapters.registry)."""
