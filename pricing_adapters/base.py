"""The interface every price source implements (one module per cloud: aws.py, azure.py; see registry.py)."""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import pandas as pd

from pricing_adapters.errors import DeadlineExceeded, PriceSourceError, SourceConfigError
from pricing_adapters.schema import OFFER_COLUMNS, empty_offers, number_problems, validate_offers
from pricing_adapters.settings import DEFAULT_DEADLINE_S
from pricing_adapters.shown import url_shown

T = TypeVar("T")


class Progress(Protocol):
    def __call__(self, step: str, done: int, total: int | None = None) -> None:
        """Report that `done` of `total` units of `step` are finished (pages, regions …)."""


def no_progress(step: str, done: int, total: int | None = None) -> None:
    """A Progress that reports nothing."""


class PriceSource(Protocol):
    """A live price source. It may also have `check_regions(regions) -> None`, raising RegionError for a
    region not in the form of its region codes: `refresh.check_regions` calls it before anything is fetched."""

    provider: str   # its name in pricing_adapters.registry: aws | azure
    source: str     # what a snapshot records as its origin, e.g. "AWS Price List Query API"

    def fetch(self, regions: Sequence[str], progress: Progress = no_progress) -> pd.DataFrame:
        """Every GPU offer of `regions` as an offers table (pricing_adapters.schema), or raise
        PriceSourceError. Must not return a partial table: any failure raises."""
        ...


# -- time and page limits of a refresh ---------------------------------------------------------------

# Pages one listing may take. A region's GPU price list is < 100 GetProducts pages of 100 and < 20 Retail
# Prices pages of 1,000; 2,000 is far above any real listing and stops a server that hands out page
# tokens forever long before the deadline would.
MAX_PAGES = 2000

# GPU offers (or instance types, or spot zone quotes) one region's listing may give. The packaged snapshot's
# largest regions hold 93 GPU instance types (aws us-east-1) and 59 VM sizes (azure eastus), and a type has at
# most 14 offers (on demand, spot, 12 reservation terms): a real region stays under about 1,500. 10,000 stops
# a listing of invented sizes early: 300,000 distinct GPU size names in one Azure region were all kept, 22 s
# and 620 MB before the refresh ended (review, 2026-12-05). Checked after each page, so at most one page
# beyond it is held.
MAX_OFFERS_PER_REGION = 10_000


def check_offer_count(n: int, what: str) -> None:
    """PriceSourceError when a region's listing has given more than MAX_OFFERS_PER_REGION of `what`."""
    if n > MAX_OFFERS_PER_REGION:
        raise PriceSourceError(f"{what} went past {MAX_OFFERS_PER_REGION:,} for one region (several times any real "
                               "region's); the listing cannot be trusted; nothing was saved")


class Deadline:
    """A point in time a refresh must finish by (time.monotonic)."""

    def __init__(self, seconds: float | None = DEFAULT_DEADLINE_S):
        self.seconds = float(seconds if seconds is not None else DEFAULT_DEADLINE_S)
        # NaN compares false with every time, so it would never pass; inf is a caller's "no limit" (the CLI's
        # --deadline allows 1 s to a day)
        if math.isnan(self.seconds) or self.seconds < 0:
            raise SourceConfigError(f"deadline {seconds!r}: expected a number of seconds ≥ 0, e.g. "
                                    f"{DEFAULT_DEADLINE_S:g}")
        self.at = time.monotonic() + self.seconds

    def remaining(self) -> float:
        """Seconds left, never below 0."""
        return max(0.0, self.at - time.monotonic())

    def check(self, what: str) -> None:
        """Raise DeadlineExceeded, naming `what` was under way, once the deadline has passed."""
        if time.monotonic() >= self.at:
            raise DeadlineExceeded(f"gave up after the {self.seconds:g} s deadline while reading {what} "
                                   f"(the API is too slow or never finishes; --deadline sets the limit); "
                                   f"nothing was saved")

    def check_pages(self, pages: int, what: str) -> None:
        """check(), and raise DeadlineExceeded when a listing passes MAX_PAGES pages."""
        self.check(what)
        if pages > MAX_PAGES:
            raise DeadlineExceeded(f"{what} went past {MAX_PAGES} pages without an end; the listing cannot "
                                   f"be trusted; nothing was saved")


def call_with_deadline(deadline: Deadline, what: str, call: Callable[[], T],
                       on_abandon: Callable[[], None] | None = None) -> T:
    """`call()`'s result, or DeadlineExceeded when it has not returned by the deadline.

    For clients whose socket timeouts bound one read but not a whole answer (botocore, azure-core, httpx): a
    server dripping a byte every few seconds — or its headers, or gzip blocks that decode to nothing —
    never trips a read timeout. The call runs in a daemon thread; when the deadline passes it is abandoned
    (it ends with its connection, or with the process), after `on_abandon()` (say, closing the connection
    it reads, so that its next read fails) when given; an error of `on_abandon` is dropped.
    """
    deadline.check(what)
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["result"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread as is
            box["error"] = exc

    worker = threading.Thread(target=run, name=f"fleetplan {what}", daemon=True)
    worker.start()
    # join() raises OverflowError above TIMEOUT_MAX (~292 years): a deadline of 1e10 s or inf waits that long
    worker.join(min(deadline.remaining(), threading.TIMEOUT_MAX))
    if worker.is_alive():
        if on_abandon is not None:
            try:
                on_abandon()
            except Exception:  # noqa: BLE001, S110 - best effort: the thread is let go either way
                pass
        deadline.check(what)
        raise DeadlineExceeded(f"gave up on {what} at the {deadline.seconds:g} s deadline; nothing was saved")
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["result"]  # type: ignore[return-value]


def check_endpoint(url: str, setting: str) -> None:
    """SourceConfigError naming `setting` when `url` is not a usable http(s) URL (no host, a port
    above 65535 …): a configuration mistake, told before any request."""
    from urllib.parse import urlsplit

    # urlsplit strips leading and trailing whitespace, so " http://host/…" passed here and failed only at the first
    # request, after every retry (about 16 s, exit 1, at times said to be the deadline): refused, not stripped, as
    # a value that is not what the user meant to set (a quoting slip in a cron line) may be wrong otherwise too
    stray = [where for where, found in (("start", url[:1].isspace()), ("end", url[-1:].isspace()),
                                        ("middle", any(c.isspace() for c in url.strip()))) if found]
    if stray:
        raise SourceConfigError(f"{setting}={url_shown(url)!r} is not a usable URL: stray whitespace at its "
                                f"{' and '.join(stray)}; set it without spaces, tabs or line breaks")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError as exc:
        raise SourceConfigError(f"{setting}={url_shown(url)!r} is not a usable URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SourceConfigError(f"{setting}={url_shown(url)!r} is not a usable URL: expected http(s)://host[:port][/path]")


# -- numbers and rows an API sends ----------------------------------------------------------------------

# A price or count as an API writes it in text: decimal digits, an optional fraction and exponent. Python's
# float() reads more: "3_673" as 3673 (digit separators), " 1e3 ", "nan", "infinity".
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_NUMBER_CHARS = 64   # of a number sent as text: a real price has a dozen


def api_number(value: Any) -> float:
    """A number an API sent — a JSON number, or decimal text such as "3.673" or "2e-3" — as a float: ±inf
    for one too large for a float (a JSON integer of 400 digits, which float() refuses with OverflowError,
    or "1e400"); NaN for anything else (JSON true, null, an object, "3_673", "nan", " 1 ", text over
    MAX_NUMBER_CHARS characters)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return math.nan
    if isinstance(value, str):
        if len(value) > MAX_NUMBER_CHARS or not _DECIMAL.fullmatch(value):
            return math.nan
        return float(value)
    try:
        return float(value)
    except OverflowError:   # an int beyond a float's range
        return math.inf if value > 0 else -math.inf


def offers_table(rows: list[dict], origin: str, skip: Callable[[str, int], None],
                 implausible_offers: list[str] | None = None) -> pd.DataFrame:
    """The validated offers table of an adapter's `rows`, without the rows whose numbers break the contract (a
    negative memory size, a vCPU count of 1e400 …), each counted with `skip("malformed_row", 1)`, and without those
    priced above the bounds the store holds USD prices to (schema.MAX_USD_HOURLY_PRICE, MAX_USD_UPFRONT_PRICE), each
    counted with `skip("implausible_price", 1)` and its offer id added to `implausible_offers` when given (refresh
    tells an offer in force missing for its price from one missing from the answer): one broken item must not refuse
    a whole region's refresh, as a bad price does not. Anything else wrong (an empty id, a repeated offer_id, an
    unknown provider) is the adapter's bug, not the API's: validation still refuses it."""
    if not rows:
        return empty_offers()
    typed = validate_offers(pd.DataFrame(rows, columns=list(OFFER_COLUMNS)), origin=origin, check=False)
    malformed = (number_problems(typed, usd_bounds=False) != "").to_numpy()
    # the rows the store's own check (validate_offers, usd_bounds=True) refuses for their price alone, told by that
    # check itself, so that a feed in any currency is held to the bounds the store will hold it to. Kept, one new size
    # at 150,000 USD/h refused the region's refresh whatever the flags (audit a4). A known offer priced so is then
    # missing from the refresh, and refresh's missing-offers check weighs it with the others missing
    implausible = (number_problems(typed) != "").to_numpy() & ~malformed
    for reason, rows_out in (("malformed_row", malformed), ("implausible_price", implausible)):
        if rows_out.any():
            skip(reason, int(rows_out.sum()))
    if implausible_offers is not None:
        implausible_offers.extend(typed["offer_id"].astype(object).to_numpy()[implausible])
    return validate_offers(typed[~(malformed | implausible)], origin=origin)
