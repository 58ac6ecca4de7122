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
    """A price store of ours (its SQLite header carries our application id) that is damaged: a refresh
    may set it aside."""


class StoreForeign(StoreError):
    """The store path holds a file that is not a fleetplan price store (another application's SQLite
    database, a scenario given as --store by mistake, any other file): it is never moved or written."""


class StoreLinkBroken(StoreError):
    """The store path is a symbolic link that leads to no file (to a missing one, or round a loop of links): the user
    who made it wants it mended. `target`: where it points, as a path (read against the link's folder); `mend`: how
    to mend it, as the message ends (store.MEND_LINK, or store.MEND_LOOP for a loop, whose target is a link)."""

    def __init__(self, message: str, target, mend: str):
        super().__init__(message)
        self.target, self.mend = target, mend

    def __reduce__(self):   # pickled as it was made: its args hold only the message
        return type(self), (str(self), self.target, self.mend)


class StoreLocked(StoreError):
    """Another process kept the price store locked past the wait (`store.BUSY_WAIT_S`): a refresh saving, a stuck
    process. It passes: a plan on the store fails (tried again later, it reads the store) rather than reading other
    prices in its place, which gave another total for the same inputs by the timing of a refresh."""


class StoreMissing(StoreError):
    """No price store at the path yet (no file, or an empty one), for a reader that creates none."""


class StoreSchemaOther(StoreError):
    """A price store of ours of another store schema than this fleetplan reads: `newer` when a newer fleetplan made it
    (upgrading fleetplan reads it)."""

    def __init__(self, message: str, newer: bool = False):
        super().__init__(message)
        self.newer = newer

    def __reduce__(self):   # pickled as it was made
        return type(self), (str(self), self.newer)


class DeadlineExceeded(PriceSourceError):
    """A refresh ran past its overall deadline (or page limit); nothing was written."""


class PriceJumpError(PriceSourceError):
    """A refresh whose prices moved against those in force by far more than any real repricing, or whose
    reservation or spot prices lie far above or below the same instance's on-demand price (a broken feed: a
    wrong unit, currency or scale); nothing was written. `jumps`: the PriceJump of each region and the
    AgainstOnDemand of each region and kind of offer (pricing_adapters.jumps); `missing`: the MissingOffers of
    the same refresh, when it also lacked most of the offers in force (else None); `hardware`: its HardwareChange
    list, when its hardware facts also changed."""

    def __init__(self, message: str, jumps: list, missing=None, hardware: list | None = None):
        super().__init__(message)
        self.jumps = jumps
        self.missing = missing
        self.hardware = hardware or []


class MissingOffersError(PriceSourceError):
    """A refresh that lacks most of the offers in force in its regions (a partial answer: pages, a region or a
    purchase option left out), or a purchase option whole in a region (a parser or API change), whose prices did
    not jump (or were accepted); nothing was written. `missing`:
    its MissingOffers (pricing_adapters.jumps); `jumps` and `hardware`: those accepted or not refused, as
    PriceJumpError's."""

    def __init__(self, message: str, jumps: list, missing, hardware: list | None = None):
        super().__init__(message)
        self.jumps = jumps
        self.missing = missing
        self.hardware = hardware or []


class HardwareChangeError(PriceSourceError):
    """A refresh whose hardware facts of an instance type (its GPU, their count or memory, its vCPUs or RAM) differ
    from those in force or packaged (a broken feed or parser: an instance type's hardware does not change under its
    name), whose prices did not jump and whose offers are not missing (or those were accepted); nothing was written.
    `hardware`: each HardwareChange (pricing_adapters.jumps); `jumps` and `missing`: as PriceJumpError's."""

    def __init__(self, message: str, jumps: list, missing, hardware: list):
        super().__init__(message)
        self.jumps = jumps
        self.missing = missing
        self.hardware = hardware


class RegionError(PriceSourceError):
    """A region that cannot be one of the provider's region codes (none given, wrong form): a usage
    error, told before the store is opened or any request is made."""


class SourceConfigError(PriceSourceError):
    """A price source is configured wrongly (e.g. an endpoint URL that cannot be used): a usage error."""


class UnknownProviderError(ValueError):
    """A provider name that is not in the provider registry (pricing_adapters.registry)."""
