"""Live AWS prices for GPU and ML-accelerator instances (boto3).

Three APIs per region, read in this order:

1. `ec2.describe_instance_types` (every type, paginated): the accelerator facts. A type is an
   accelerator type when it has `GpuInfo`, `NeuronInfo` or `InferenceAcceleratorInfo`; its first
   device's name (and per-device memory) maps to a canonical GPU id through `aws_gpu_id`. An
   accelerator the table does not know is kept with `gpu_known=False` and a note. `gpu_memory_gb` is
   the GPU's nominal GB (`gpu_names.nominal_memory_gb`: 22888 MiB A10G -> 24); the device's
   `MemoryInfo.SizeInMiB` is kept in `gpu_memory_mib`. `gpu_count` is the device `Count`, or a fraction
   for a GPU slice: `GpuPartitionSize` when given, else the device's MiB / a whole GPU's MiB when that is
   well below it (g6f.large: 2861 / 22888 = 0.125 of an L4, whatever Count says; `memory_share`). A type
   whose count is still unknown (Count 0, no slice) is kept with `gpu_count` NaN and the note
   "gpu_count unknown" (plans never use it) and counted in `skipped` as `unknown_gpu_count` (types).
2. `pricing.get_products(ServiceCode="AmazonEC2")`, filtered to Linux, shared tenancy, no
   pre-installed software, `capacitystatus=Used`, `marketoption=OnDemand`, product family
   "Compute Instance" and the region's `regionCode`, paginated by `NextToken`; then the same query for
   bare-metal types (g4dn.metal, g5g.metal …), which the Price List files under product family "Compute
   Instance (bare metal)" with tenancy "Dedicated" (`PRICE_QUERIES`, as Karpenter asks for them). The Price List
   endpoint is chosen by region (`pricing_endpoint_region`). Every `PriceList` item is a JSON string.
   OnDemand terms give `on_demand` rows; Reserved terms give `reserved_1y` / `reserved_3y` rows, one
   per purchase option (No/Partial/All Upfront) and offering class (standard/convertible). An item whose
   attributes are not those its query asked for (Windows, Dedicated, SQL Web …) is skipped (`filter_mismatch`),
   and so is one of another region (`wrong_region`: its `regionCode`, or without one its `location`, names
   another region or none; `in_region`).
3. `ec2.describe_spot_price_history` (Linux/UNIX, start time now): the newest quote of each
   availability zone, reduced to ONE `spot` row per region and type: the LOWEST price across the
   region's own zones (Local Zones and Wavelength zones are left out). The row's `zone` names the
   zone of that price (the AZ id, e.g. `use1-az1`, which is the same in every account). A quote whose
   AvailabilityZoneId is no zone id (ZONE_ID) is skipped as `malformed`.

Each offer's `source` names the API of its price (GetProducts with the product's publicationDate, or
DescribeSpotPriceHistory) and ends with where its hardware facts came from, as the Azure adapter's do:
"…; GPU facts: EC2 DescribeInstanceTypes" (FACTS_SOURCE; a refused hardware change names it, jumps.FACTS_FROM).

Reservation prices are stored as AWS quotes them: `hourly_price` is the recurring hourly fee ("Hrs"
dimension) and `upfront_price` the one-off "Upfront Fee" ("Quantity" dimension), so the planner's
cost per hour is hourly + upfront / hours of the term (8760 for 1 year, 26280 for 3 years; see
`effective_hourly`). A reservation's `offer_id` is `aws:<region>:<type>:reserved_1y` followed by
`:<purchase option>:<class>`, e.g. `…:reserved_1y:partial_upfront:standard`. A term whose prices lack a part of its
purchase option, or have one it has not (`parts_match`: a Partial Upfront term without its upfront fee), is skipped
(`purchase_option_mismatch`).

Products with empty terms, zero prices (capacity blocks), prices no offer can have (below 1e-4 or above 1e9
an hour, upfront above 1e12: `implausible_price`), non-USD prices, unknown price units or lease terms, and
terms of the wrong shape (`terms`, `OnDemand`, `priceDimensions`, `pricePerUnit` that are not JSON objects,
`termAttributes` that are not text, or prices that are not numbers: `malformed`)
are skipped and counted in `AwsPriceSource.skipped` (reason -> number of offers; for `empty_terms`,
`no_accelerator_facts` and a malformed `terms` the number of products; the ids of the offers skipped as
`implausible_price` are kept in `implausible_offers`, for refresh to name an offer in force missing for its price),
never fatal, and so are
accelerator types with no `InstanceType`, a number no float holds, or a device Name or Manufacturer that is not
printable or longer than ACCELERATOR_NAME_CHARS (64) (`malformed`, types); a listing in which
no GPU type keeps an on-demand price is. Everything else that goes wrong raises a `PriceSourceError`
with a one-line message, and no table is returned:

- no, partial, expired or rejected credentials, or a profile's credential_process whose answer cannot be read
  -> `CredentialsError` (naming the credential_process by its program, never its arguments, which may hold a
  secret); a credential lookup that has not answered by the deadline -> `DeadlineExceeded`, and a credential_process
  still running is ended;
- throttling that outlasted botocore's standard retry mode -> `ThrottledError`;
- timeouts and unreachable endpoints -> `PriceSourceError("timed out …")`;
- an answer botocore cannot parse (invalid XML, a number field that is not one) -> `PriceSourceError`;
- a 200 EC2 page that is not the operation's answer (neither its list nor a request id: a proxy's XHTML page,
  `<Response/>`) -> `PriceSourceError`, as a GetProducts page without PriceList/FormatVersion is;
- an answer larger than MAX_ANSWER_BYTES (32 MB; a real page is at most about 1 MB) -> `PriceSourceError`,
  refused as soon as its Content-Length or the bytes read pass the limit, never read to the end;
- a page token longer than MAX_TOKEN_CHARS (64 KiB), or one given twice -> `PriceSourceError`.

Endpoints: boto3 itself honours `AWS_ENDPOINT_URL_PRICING` / `AWS_ENDPOINT_URL_EC2` (and
`AWS_ENDPOINT_URL`); this module never sets `endpoint_url`.

An API's own text in a message (an error's code and message) is cut to API_TEXT_CHARS (200) characters and its length.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import pandas as pd

from pricing_adapters import registry
from pricing_adapters.base import (
    DEFAULT_DEADLINE_S,
    Deadline,
    Progress,
    api_number,
    call_with_deadline,
    check_endpoint,
    check_offer_count,
    no_progress,
    offers_table,
)
from pricing_adapters.errors import CredentialsError, PriceSourceError, RegionError, ThrottledError
from pricing_adapters.extras import require
from pricing_adapters.gpu_names import GPU_MEMORY_GB, NOMINAL_TOLERANCE, aws_gpu_id, nominal_memory_gb
from pricing_adapters.schema import (
    MAX_HOURLY_PRICE,
    MAX_UPFRONT_PRICE,
    MIN_HOURLY_PRICE,
    effective_hourly,
    offer_id,
    offer_row,
)
from pricing_adapters.shown import counted, shortened, urls_shown

PROVIDER = registry.AWS
SOURCE = "AWS Price List Query API + EC2 DescribeInstanceTypes/DescribeSpotPriceHistory"
PRICE_SOURCE = "AWS Price List Query API GetProducts (AmazonEC2)"
# what `returned` counts, in refresh's message for a region whose every item was skipped
RETURNED_WHAT = "accelerator instance types"
SPOT_SOURCE = "AWS EC2 DescribeSpotPriceHistory (Linux/UNIX)"
# where every offer's GPU, GPU count and memory come from, named at the end of its source after "GPU facts: " as the
# Azure adapter names its ARM or size table: a refused hardware change names it (jumps.FACTS_FROM), not SOURCE whole
FACTS_SOURCE = "EC2 DescribeInstanceTypes"

# Instance families with GPUs or ML accelerators. DescribeInstanceTypes decides; the prefix only
# makes a priced type that DescribeInstanceTypes did not describe count as skipped instead of ignored.
ACCELERATOR_PREFIX = re.compile(r"^(p\d|g\d|gr\d|inf\d|trn\d|dl\d)")
REGION_CODE = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d+$")
# An instance type as AWS spells them (p5.48xlarge, g6e.xlarge, trn2u.48xlarge): one family and one size. A name
# outside it goes into offer ids (":" splits them) and every table: 5,003 characters were stored whole.
INSTANCE_TYPE = re.compile(r"[a-z][a-z0-9-]{0,23}\.[a-z0-9-]{1,24}")
# An accelerator's Name or Manufacturer as DescribeInstanceTypes spells them ("A100", "Radeon Pro V520", "Inferentia2",
# "NVIDIA"): printable, at most this long. The name is stored in gpu, accelerator_name and note of every offer of its
# type (an unknown one is kept and flagged): a 1,000,000-character name made a 42 MB store and was printed whole.
ACCELERATOR_NAME_CHARS = 64
# An availability zone id of the region's own zones (use1-az1, apne1-az4; at most 20 characters), and one of a Local or
# Wavelength zone (use1-atl2-az1, usw2-wl1-den-wlz1), which is left out. The id is a spot offer's zone: one of 500,008
# characters was stored, unchecked beside a valid zone name.
ZONE_ID = re.compile(r"[a-z]{2,8}[0-9]{1,2}-az[0-9]{1,5}")
OTHER_ZONE_ID = re.compile(r"[a-z]{2,8}[0-9]{1,2}(?:-[a-z0-9]{1,12}){1,3}")
# GetProducts' publicationDate ("2026-03-20T18:05:11Z"), quoted in each offer's source: anything else (a megabyte,
# terminal escapes) is left out
PUBLICATION_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9:.]{0,20}(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?")
# A spot quote stamped this far past the fetch is no quote yet (a clock skew of minutes is not): a 2099 stamp
# beat every real one as "the newest"
SPOT_CLOCK_SKEW_S = 3600

# MiB that DescribeInstanceTypes reports for one WHOLE device where it is not the nominal GB x 1024
# (reference README trap 1: g5 A10G and g6/gr6 L4 22888 MiB, g6e L40S 45776). A GPU slice reports its
# share of this figure (g6f.large: 2861 MiB = 1/8 of an L4; `memory_share`).
WHOLE_DEVICE_MIB: dict[str, float] = {"A10G": 22888, "L4": 22888, "L40S": 45776}

# botocore reads a whole answer into memory before it parses it. A GetProducts page of 100 price list items,
# each with all 13 terms, is 1.1 MB (100 copies of tests/fixtures/aws' p4d.24xlarge item); a DescribeInstanceTypes
# page of 100 types and a DescribeSpotPriceHistory page of 1,000 quotes, rendered as EC2 XML from the fixtures,
# are 0.23 and 0.28 MB. 32 MB is about 30 times the largest and stops an answer that never ends.
MAX_ANSWER_BYTES = 32 * 1024 * 1024
ANSWER_CHUNK_BYTES = 64 * 1024   # what botocore reads at a time (urllib3's stream() default)

# Characters of a NextToken. Neither botocore's Price List nor its EC2 model bounds one; of the 415 NextToken shapes
# that botocore's other service models bound, 402 allow at most 64 KiB (223 of them 2,048 to 8,192; Kinesis and
# Inspector allow 1 MB), and the Azure adapter's next-page links stop at httpx's 64 KiB URL limit. Price List and EC2
# tokens are short opaque text (the audit put them at a few hundred bytes to a few KB; not measured here).
MAX_TOKEN_CHARS = 64 * 1024

LEASE_MONTHS = {"1yr": 12, "3yr": 36}
PURCHASE_OPTIONS = {"No Upfront": "no_upfront", "Partial Upfront": "partial_upfront", "All Upfront": "all_upfront"}
OFFERING_CLASSES = ("standard", "convertible")

THROTTLING_CODES = frozenset({
    "Throttling", "ThrottlingException", "ThrottledException", "RequestLimitExceeded",
    "RequestThrottled", "RequestThrottledException", "TooManyRequestsException", "SlowDown",
    "ProvisionedThroughputExceededException", "BandwidthLimitExceeded", "EC2ThrottledException",
})
CREDENTIAL_CODES = frozenset({
    "ExpiredToken", "ExpiredTokenException", "UnrecognizedClientException", "InvalidClientTokenId",
    "AuthFailure", "SignatureDoesNotMatch", "InvalidAccessKeyId", "RequestExpired",
    "MissingAuthenticationToken", "IncompleteSignature",
})
NO_CREDENTIALS = ("no AWS credentials: set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY "
                  "(or run `aws configure` / `aws sso login`); nothing was fetched")

_PRICE_FILTERS = (
    ("operatingSystem", "Linux"),
    ("tenancy", "Shared"),
    ("preInstalledSw", "NA"),
    ("capacitystatus", "Used"),
    ("marketoption", "OnDemand"),
    ("productFamily", "Compute Instance"),
)
# Bare-metal types (g4dn.metal, g5g.metal …) are filed under their own product family, with tenancy "Dedicated" (a
# metal instance is a whole host): the query above never returns them, and their prices were lost. Karpenter asks for
# them in a second query with these two values in place of the others (aws/karpenter-provider-aws,
# pkg/providers/pricing/pricing.go, UpdateOnDemandPricing, "bare metal on-demand prices"); its list generated from
# both queries (zz_generated.pricing_aws.go, 2026-07-20) prices g4dn.metal at 7.824 USD/h in us-east-1.
_METAL_PRICE_FILTERS = tuple((field, {"tenancy": "Dedicated", "productFamily": "Compute Instance (bare metal)"}
                              .get(field, value)) for field, value in _PRICE_FILTERS)
# The GetProducts queries of a region, each with what its pages are called in progress and messages
PRICE_QUERIES = ((_PRICE_FILTERS, "GetProducts", "prices"),
                 (_METAL_PRICE_FILTERS, "GetProducts (bare metal)", "bare-metal prices"))


def pricing_endpoint_region(region: str) -> str:
    """The Price List Query API endpoint for `region`: eu-central-1 for eu-*, ap-south-1 for
    ap-*/me-*/af-*, us-east-1 for everything else (the API serves every region from each endpoint)."""
    if region.startswith("eu-"):
        return "eu-central-1"
    if region.startswith(("ap-", "me-", "af-")):
        return "ap-south-1"
    return "us-east-1"


def price_filters(region: str, query: tuple[tuple[str, str], ...] = _PRICE_FILTERS) -> list[dict[str, str]]:
    """The GetProducts filters for one region's Linux, on-demand-market instances of `query`: shared-tenancy compute
    instances (`_PRICE_FILTERS`), or bare-metal ones (`_METAL_PRICE_FILTERS`)."""
    return [{"Type": "TERM_MATCH", "Field": "regionCode", "Value": region}] + [
        {"Type": "TERM_MATCH", "Field": field, "Value": value} for field, value in query]


def _one_line(text: Any) -> str:
    """`text` on one line, any URL in it without credentials (`urls_shown`): botocore names the endpoint URL in its
    errors ("Could not connect to the endpoint URL"), as AWS_ENDPOINT_URL* give it, user:password@ included."""
    return urls_shown(" ".join(str(text or "").split()))


# Of an API's own text (an error's code and message, an exception's words) in a message, as the Azure adapter cuts an
# HTTP error's body: a real AWS error message is one sentence; a 5 MB one was printed whole, on one line.
API_TEXT_CHARS = 200


def _api_text(text: Any) -> str:
    """`text` on one line: whole up to API_TEXT_CHARS characters, else its start and its length."""
    line = _one_line(text)
    if len(line) <= API_TEXT_CHARS:
        return line
    return f"{line[:API_TEXT_CHARS]}… ({len(line):,} characters)"


def _botocore_exceptions():
    bx = require("botocore.exceptions", "aws", "boto3")

    credential = tuple(getattr(bx, name) for name in (
        "NoCredentialsError", "PartialCredentialsError", "CredentialRetrievalError",
        "UnauthorizedSSOTokenError", "SSOTokenLoadError", "TokenRetrievalError", "NoAuthTokenError",
        "ProfileNotFound") if hasattr(bx, name))
    timeout = tuple(getattr(bx, name) for name in (
        "ConnectTimeoutError", "ReadTimeoutError", "EndpointConnectionError", "ConnectionClosedError",
        "ProxyConnectionError") if hasattr(bx, name))
    # an answer botocore cannot parse: invalid XML/JSON is a ResponseParserError (not a BotoCoreError);
    # a field its shape types wrongly (<count>abc</count>) a bare ValueError or TypeError from the parser;
    # JSON nested thousands deep a RecursionError from json.loads
    unreadable = (require("botocore.parsers", "aws", "boto3").ResponseParserError, ValueError, TypeError,
                  RecursionError)
    return bx, credential, timeout, unreadable


class AwsPriceSource:
    """Every GPU/accelerator offer of some AWS regions, live (see the module docstring).

    session:   a boto3.Session; default `boto3.Session()` (the standard credential chain: env
               variables, AWS_PROFILE, config/credentials files, SSO, instance metadata).
    spot:      also read DescribeSpotPriceHistory (`spot` rows).
    reserved:  also turn Reserved terms into `reserved_1y` / `reserved_3y` rows.
    max_attempts: attempts per request in botocore's standard retry mode, the first one included
               (throttling and connection errors are retried with exponential backoff and jitter).
    connect_timeout, read_timeout: socket timeouts in seconds (read_timeout never above the deadline).
    deadline:  seconds the whole fetch may take (`deadline_s`); checked between pages, and every
               call is abandoned when it runs past it (a server dripping bytes never trips read_timeout).

    After `fetch`, `skipped` maps a reason (`empty_terms`, `zero_price`, `unknown_unit`, …) to how
    many offers were left out for it. `client(service, region)` returns (and caches) the client the
    fetch will use, so tests can attach a botocore Stubber to it beforehand.
    """

    provider = PROVIDER
    source = SOURCE
    returned_what = RETURNED_WHAT

    def __init__(self, session=None, spot: bool = True, reserved: bool = True, *,
                 max_attempts: int = 5, connect_timeout: float = 10.0, read_timeout: float = 60.0,
                 deadline: float = DEFAULT_DEADLINE_S):
        # boto3 is the optional [aws] extra: building a source without it fails here, in one line
        Config = require("botocore.config", "aws", "boto3").Config  # noqa: N806 - the class, as botocore names it

        self.session = session
        self.deadline_s = float(deadline)
        self.read_timeout = float(read_timeout)
        self._deadline = Deadline(self.deadline_s)
        self.spot = spot
        self.reserved = reserved
        self.max_attempts = int(max_attempts)
        # botocore's `max_attempts` counts retries; `total_max_attempts` counts the first try as well
        self.config = Config(retries={"mode": "standard", "total_max_attempts": self.max_attempts},
                             connect_timeout=connect_timeout, read_timeout=read_timeout)
        self.skipped: dict[str, int] = {}
        # ids of the offers skipped as implausible_price: refresh tells an offer in force missing for its price
        self.implausible_offers: list[str] = []
        self._clients: dict[tuple[str, str], Any] = {}

    # -- clients ------------------------------------------------------------------------------------

    def _session(self):
        if self.session is None:
            boto3 = require("boto3", "aws")

            with self._errors("credentials", "-"):
                self.session = boto3.Session()
        return self.session

    def client(self, service: str, region: str):
        """The boto3 client for `service` ("pricing" | "ec2") in `region`, created once."""
        key = (service, region)
        if key not in self._clients:
            with self._errors(f"{service} client", region):
                from botocore.config import Config

                config = self.config.merge(Config(read_timeout=min(self.read_timeout, self.deadline_s)))
                self._clients[key] = _bound_answers(self._session().client(service, region_name=region,
                                                                           config=config))
        return self._clients[key]

    def pricing_client(self, region: str):
        """The Price List client serving `region` (its endpoint region per `pricing_endpoint_region`)."""
        return self.client("pricing", pricing_endpoint_region(region))

    # -- errors -------------------------------------------------------------------------------------

    @contextmanager
    def _errors(self, api: str, region: str) -> Iterator[None]:
        """Turn botocore failures into one-line PriceSourceErrors."""
        bx, credential, timeout, unreadable = _botocore_exceptions()
        try:
            yield
        except PriceSourceError:
            raise
        except bx.ClientError as exc:
            err = exc.response.get("Error", {}) or {}
            code = str(err.get("Code", ""))
            shown_code = _api_text(code)
            message = _api_text(err.get("Message", "")) or shown_code
            if code in THROTTLING_CODES:
                raise ThrottledError(
                    f"AWS {api} kept throttling in {region} ({code}) after {self.max_attempts} attempts with "
                    f"backoff; try again later or with fewer regions") from None
            if code in CREDENTIAL_CODES:
                raise CredentialsError(
                    f"AWS rejected the credentials ({code}: {message}); renew them (`aws sso login`, new keys "
                    f"or AWS_PROFILE); nothing was fetched") from None
            raise PriceSourceError(f"AWS {api} failed in {region}: {shown_code}: {message}") from None
        except credential as exc:
            if isinstance(exc, (bx.NoCredentialsError,)):
                raise CredentialsError(NO_CREDENTIALS) from None
            raise CredentialsError(f"AWS credentials unusable ({_api_text(exc)}); set AWS_PROFILE or "
                                   f"AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; nothing was fetched") from None
        except timeout as exc:
            raise PriceSourceError(f"timed out or could not connect calling AWS {api} for {region} "
                                   f"({_api_text(exc)}); check the network or proxy") from None
        except bx.BotoCoreError as exc:
            raise PriceSourceError(f"AWS {api} failed in {region}: {_api_text(exc)}") from None
        except _AnswerTooLarge:
            raise PriceSourceError(f"AWS {api} in {region} sent an answer larger than {MAX_ANSWER_BYTES // 2**20} MB "
                                   f"(a real page is at most about 1 MB); it was not read further; the listing "
                                   f"cannot be trusted; nothing was saved") from None
        except unreadable as exc:
            raise PriceSourceError(f"AWS {api} failed in {region}: its answer could not be read "
                                   f"({type(exc).__name__}: {_api_text(exc)}); nothing was saved") from None

    def _pages(self, call: Callable[..., dict], params: dict, api: str, region: str) -> Iterator[dict]:
        """Every page of a NextToken-paginated call, within the deadline and MAX_PAGES. A token is at most
        MAX_TOKEN_CHARS characters, and only its digest is kept to tell a loop: a server handing out a new 8 MB
        token with each page grew the refresh by 8.7 MB a page (1.5 GB at page 171)."""
        token, seen, pages = None, set(), 0
        while True:
            kwargs = dict(params)
            if token:
                kwargs["NextToken"] = token
            pages += 1
            what = f"AWS {api} in {region} (page {pages})"
            self._deadline.check_pages(pages, what)
            with self._errors(api, region):
                page = call_with_deadline(self._deadline, what, lambda kw=kwargs: call(**kw))
            yield page
            token = page.get("NextToken")
            if not token:
                return
            if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
                size = f"of {len(token):,} characters" if isinstance(token, str) else "that is not text"
                raise PriceSourceError(f"AWS {api} returned a page token {size} in {region} (page {pages}; at "
                                       f"most {MAX_TOKEN_CHARS:,} are taken, a real one is a few KB at most); the "
                                       f"listing cannot be trusted; nothing was saved")
            digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
            if digest in seen:
                raise PriceSourceError(f"AWS {api} returned the same page token twice in {region}; "
                                       f"the listing cannot be trusted")
            seen.add(digest)

    def _skip(self, reason: str, n: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + n

    # -- fetch --------------------------------------------------------------------------------------

    def check_regions(self, regions: Sequence[str]) -> None:
        """RegionError when `regions` is empty or one is not in the form of an AWS region code."""
        if not regions:
            raise RegionError("no AWS region given: name at least one, e.g. us-east-1")
        bad = [r for r in regions if not REGION_CODE.match(r)]
        if bad:
            raise RegionError(f"not AWS region codes: {', '.join(bad)} (expected e.g. us-east-1)")

    def fetch(self, regions: Sequence[str], progress: Progress = no_progress) -> pd.DataFrame:
        """Every GPU/accelerator offer of `regions` as a validated offers table, or raise."""
        regions = list(dict.fromkeys(regions))
        self.check_regions(regions)
        for setting in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_PRICING", "AWS_ENDPOINT_URL_EC2"):
            if os.environ.get(setting):
                check_endpoint(os.environ[setting], setting)
        self.skipped = {}
        self.implausible_offers = []
        self.returned: dict[str, int] = {}   # accelerator types DescribeInstanceTypes listed, per region
        self._conflicting: set[str] = set()
        self._deadline = Deadline(self.deadline_s)
        now = datetime.now(timezone.utc)
        as_of = now.date().isoformat()
        self._check_credentials()
        rows: list[dict] = []
        for done, region in enumerate(regions):
            progress(f"aws regions ({region})", done, len(regions))
            facts = self._instance_facts(region, progress)
            rows.extend(self._price_rows(region, facts, as_of, progress))
            if self.spot:
                rows.extend(self._spot_rows(region, facts, now, as_of, progress))
        progress("aws regions", len(regions), len(regions))
        return offers_table(rows, "aws fetch", self._skip, self.implausible_offers)

    def _check_credentials(self) -> None:
        """Fail before any request when the credential chain finds nothing, or has not answered by the deadline: a
        profile's credential_process that waits for an MFA code or hangs (`/bin/sleep 40` held `--deadline 3` for
        40.9 s) is ended there. A helper whose answer cannot be read is named in the message."""
        bx = _botocore_exceptions()[0]
        with self._errors("credentials", "-"):
            session = self._session()
            helper = _CredentialHelper(session)
            what = f"AWS credentials from credential_process {helper.shown}" if helper.command else "AWS credentials"
            try:
                credentials = call_with_deadline(self._deadline, what, session.get_credentials, on_abandon=helper.end)
            except (PriceSourceError, bx.BotoCoreError):
                raise   # a deadline, no or rejected credentials: said by _errors
            except (ValueError, TypeError, AttributeError, RecursionError, OSError) as exc:
                # Python's own errors in botocore's chain: JSON that does not parse or is no object, a helper that
                # cannot be started
                raise CredentialsError(helper.failure(exc)) from None
        if credentials is None:
            raise CredentialsError(NO_CREDENTIALS)

    # -- DescribeInstanceTypes ----------------------------------------------------------------------

    def _instance_facts(self, region: str, progress: Progress) -> dict[str, dict]:
        ec2 = self.client("ec2", region)
        facts: dict[str, dict] = {}
        for n, page in enumerate(self._pages(ec2.describe_instance_types, {"MaxResults": 100},
                                             "DescribeInstanceTypes", region), 1):
            for info in _ec2_list(page, "InstanceTypes", "DescribeInstanceTypes", region, n):
                try:
                    f = accelerator_facts(info)
                except (TypeError, ValueError, OverflowError):   # a number no float holds (MiB of 400 digits)
                    f = {}
                if f is None:
                    continue
                itype = info.get("InstanceType")
                self.returned[region] = self.returned.get(region, 0) + 1
                if not f or not isinstance(itype, str) or not INSTANCE_TYPE.fullmatch(itype):
                    self._skip("malformed")   # an accelerator type without a name, or readable facts: never priced
                    continue
                facts[itype] = f
                if math.isnan(f["gpu_count"]):
                    self._skip("unknown_gpu_count")   # kept and flagged, but never planned on
            check_offer_count(len(facts), f"AWS DescribeInstanceTypes in {region}: the GPU instance types")
            progress(f"aws {region}: instance types", n, None)
        return facts

    # -- GetProducts --------------------------------------------------------------------------------

    def _price_rows(self, region: str, facts: dict[str, dict], as_of: str, progress: Progress) -> list[dict]:
        pricing = self.pricing_client(region)
        offers: dict[str, dict] = {}
        for query, api, what in PRICE_QUERIES:
            params = {"ServiceCode": "AmazonEC2", "Filters": price_filters(region, query), "FormatVersion": "aws_v1",
                      "MaxResults": 100}
            for n, page in enumerate(self._pages(pricing.get_products, params, api, region), 1):
                for raw in _price_list(page, region, n, api):
                    self._add_product(_product(raw, region, n, api), region, query, facts, as_of, offers)
                check_offer_count(len(offers), f"AWS {api} in {region}: the GPU offers")
                progress(f"aws {region}: {what}", n, None)
        if facts and not any(r["purchase_option"] == "on_demand" for r in offers.values()):
            # every GPU type of a region has an on-demand price: none at all is a broken or foreign listing
            skipped = ", ".join(f"{v} {k}" for k, v in sorted(self.skipped.items())) or "none"
            raise PriceSourceError(f"AWS GetProducts gave no USD on-demand price for any of the {len(facts)} GPU "
                                   f"types of {region} (skipped: {skipped}); nothing was saved")
        return list(offers.values())

    def _add_product(self, item: dict, region: str, query: tuple[tuple[str, str], ...], facts: dict[str, dict],
                     as_of: str, offers: dict[str, dict]) -> None:
        """Put the offers of one GetProducts item of `query` (`PRICE_QUERIES`) into `offers`, or count why not."""
        attrs = item["product"]["attributes"]
        itype = str(attrs.get("instanceType") or "")
        if itype not in facts:
            if ACCELERATOR_PREFIX.match(itype):
                self._skip("no_accelerator_facts")   # priced, but DescribeInstanceTypes gave no accelerator
            return                                   # not an accelerator type: not ours
        if not in_region(attrs, region):
            self._skip("wrong_region")
            return
        if not matches_price_filters(item, query):
            self._skip("filter_mismatch")   # Windows, Dedicated, SQL Web …: not the Linux on-demand price asked for
            return
        terms = _mapping(item.get("terms"))
        on_demand = _mapping(terms.get("OnDemand")) if terms is not None else None
        reserved = _mapping(terms.get("Reserved")) if terms is not None else None
        if on_demand is None or reserved is None:
            self._skip("malformed")   # terms not {"OnDemand": {code: term}, "Reserved": {…}}
            return
        if not on_demand and not reserved:
            self._skip("empty_terms")
            return
        published = item.get("publicationDate")
        if isinstance(published, str) and PUBLICATION_DATE.fullmatch(published):
            source = f"{PRICE_SOURCE} published {published}"
        else:   # none, or not a date: the offer keeps the API's name alone
            source = PRICE_SOURCE
        f = facts[itype]
        for term in on_demand.values():
            price = _term_prices(term)
            if isinstance(price, str):
                self._skip(price)
                continue
            hourly, upfront = price
            if hourly <= 0:
                self._skip("zero_price")
                continue
            if upfront:
                self._skip("unknown_unit")
                continue
            self._put(offers, _row(region, itype, f, "on_demand", hourly, 0.0, 0, "", as_of, source, ""),
                      hourly)
        if not self.reserved:
            return
        for term in reserved.values():
            attrs_t = _mapping(term.get("termAttributes")) if isinstance(term, dict) else None
            if attrs_t is None:
                self._skip("malformed")
                continue
            lease, purchase, klass = (attrs_t.get(k, "") for k in ("LeaseContractLength", "PurchaseOption",
                                                                    "OfferingClass"))
            if not all(isinstance(v, str) for v in (lease, purchase, klass)):
                self._skip("malformed")   # a list or an object: no term AWS publishes (and unhashable as a key)
                continue
            months, option, klass = LEASE_MONTHS.get(lease), PURCHASE_OPTIONS.get(purchase), klass.lower()
            if months is None or option is None or klass not in OFFERING_CLASSES:
                self._skip("unknown_term")
                continue
            price = _term_prices(term)
            if isinstance(price, str):
                self._skip(price)
                continue
            hourly, upfront = price
            if not parts_match(option, hourly, upfront):
                self._skip("purchase_option_mismatch")
                continue
            purchase_option = "reserved_1y" if months == 12 else "reserved_3y"
            note = f"{purchase}/{klass}"
            row = _row(region, itype, f, purchase_option, hourly, upfront, months, "", as_of, source, note,
                       suffix=f":{option}:{klass}")
            self._put(offers, row, effective_hourly(hourly, upfront, months))

    def _put(self, offers: dict[str, dict], row: dict, cost: float) -> None:
        """Keep one row per offer_id. The filtered listing has one product per type: a repeat at the same price
        is kept once (counted "duplicate"); a repeat at another price leaves no way to tell the real one, so
        the offer is dropped (counted "conflicting_prices", each quote of it) — kept, the cheaper won, and a
        bogus 0.0002 USD replaced g5.12xlarge's 5.672 (review, 2026-12-05). A price no offer can have
        (`implausible`) is skipped and counted: left in, the table's validation would refuse the whole
        refresh for one broken item."""
        if implausible(cost, row["upfront_price"]):
            self._skip("implausible_price")
            self.implausible_offers.append(row["offer_id"])
            return
        oid = row["offer_id"]
        if oid in self._conflicting:
            self._skip("conflicting_prices")
            return
        if oid in offers:
            old = offers[oid]
            if (old["hourly_price"], old["upfront_price"]) == (row["hourly_price"], row["upfront_price"]):
                self._skip("duplicate")
                return
            del offers[oid]
            self._conflicting.add(oid)
            self._skip("conflicting_prices", 2)
            return
        offers[oid] = row

    # -- DescribeSpotPriceHistory -------------------------------------------------------------------

    def _spot_rows(self, region: str, facts: dict[str, dict], now: datetime, as_of: str,
                   progress: Progress) -> list[dict]:
        types = sorted(facts)
        if not types:
            return []
        ec2 = self.client("ec2", region)
        newest: dict[tuple[str, str], tuple[datetime, float]] = {}
        pages = 0
        for start in range(0, len(types), 100):
            params = {"InstanceTypes": types[start:start + 100], "ProductDescriptions": ["Linux/UNIX"],
                      "StartTime": now, "MaxResults": 1000}
            for page in self._pages(ec2.describe_spot_price_history, params, "DescribeSpotPriceHistory", region):
                pages += 1
                for quote in _ec2_list(page, "SpotPriceHistory", "DescribeSpotPriceHistory", region, pages):
                    self._add_spot_quote(quote, region, facts, newest, now)
                check_offer_count(len(newest), f"AWS DescribeSpotPriceHistory in {region}: the spot quotes "
                                               "(instance type and zone)")
                progress(f"aws {region}: spot prices", pages, None)
        by_type: dict[str, list[tuple[float, str, datetime]]] = {}
        for (itype, zone), (stamp, price) in newest.items():
            if price <= 0:
                self._skip("zero_price")
                continue
            if implausible(price, 0.0):   # one zone's quote: the type's spot offer is missing only when every one is
                self._skip("implausible_price")
                self.implausible_offers.append(offer_id(PROVIDER, region, itype, "spot"))
                continue
            by_type.setdefault(itype, []).append((price, zone, stamp))
        rows = []
        for itype in sorted(by_type):
            quotes = sorted(by_type[itype])
            price, zone, stamp = quotes[0]
            note = (f"lowest of {counted(len(quotes), 'zone quote')} | "
                    f"spot price of {stamp.isoformat(timespec='seconds')}")
            rows.append(_row(region, itype, facts[itype], "spot", price, 0.0, 0, zone, as_of, SPOT_SOURCE, note))
        return rows

    def _add_spot_quote(self, quote: dict, region: str, facts: dict[str, dict],
                        newest: dict[tuple[str, str], tuple[datetime, float]], now: datetime) -> None:
        itype = quote.get("InstanceType", "")
        if itype not in facts or not str(quote.get("ProductDescription", "")).startswith("Linux/UNIX"):
            return
        zone_name = str(quote.get("AvailabilityZone") or "")
        zone_id = str(quote.get("AvailabilityZoneId") or "")
        # the region's own zones only: us-east-1a / use1-az1, not us-east-1-atl-2a / use1-atl2-az1
        if zone_name and not re.fullmatch(re.escape(region) + r"[a-z]", zone_name):
            self._skip("local_zone_spot")
            return
        if not zone_name and not zone_id:
            self._skip("local_zone_spot")
            return
        if zone_id and not ZONE_ID.fullmatch(zone_id):
            # a Local or Wavelength zone known by its id alone is left out; any other id is no zone's
            local = not zone_name and OTHER_ZONE_ID.fullmatch(zone_id)
            self._skip("local_zone_spot" if local else "malformed")
            return
        price = api_number(quote.get("SpotPrice"))   # "3_673" is no price; 400 digits are inf
        if not math.isfinite(price):
            self._skip("malformed")
            return
        stamp = quote.get("Timestamp")
        if isinstance(stamp, str):
            try:
                stamp = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            except ValueError:
                self._skip("malformed")
                return
        if not isinstance(stamp, datetime):
            stamp = datetime.min.replace(tzinfo=timezone.utc)
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=timezone.utc)
        if stamp > now + timedelta(seconds=SPOT_CLOCK_SKEW_S):
            self._skip("future_timestamp")
            return
        key = (itype, zone_id or zone_name)
        if key not in newest or stamp > newest[key][0]:
            newest[key] = (stamp, price)


# -- credential_process ------------------------------------------------------------------------------

class _CredentialHelper:
    """The credential_process of a session's profile (`command`, or None), and the processes botocore starts for it
    while credentials load, so that `end` can kill one still running when the deadline passes (left running, a
    helper waiting for an MFA code would go on asking after the refresh has failed).

    botocore has no setting for this: its ProcessProvider starts the helper with its private `_popen`, which is
    wrapped here. With another botocore (no such provider or attribute) nothing is wrapped: the deadline still holds
    and only the helper is left to end by itself."""

    def __init__(self, session: Any):
        self.command: str | None = None
        self.profile = str(getattr(session, "profile_name", "") or "default")
        self.started: list[Any] = []
        self.tried = False
        try:
            provider = session._session.get_component("credential_provider").get_provider("custom-process")
            command = provider.profile_config.get("credential_process")
            start = getattr(provider._popen, "unwatched", provider._popen)   # botocore's, when a source wrapped it
        except Exception:  # noqa: BLE001 - an unknown profile, a session without this provider: nothing to watch
            return
        if not isinstance(command, str) or not command:
            return
        self.command = command

        def popen(*args: Any, **kwargs: Any) -> Any:
            self.tried = True
            process = start(*args, **kwargs)
            self.started.append(process)
            return process

        popen.unwatched = start  # type: ignore[attr-defined]
        provider._popen = popen

    @property
    def shown(self) -> str:
        """The helper as a message names it: its program, never its arguments, and its profile."""
        program, hidden = program_shown(self.command or "")
        return f"{program} ({'arguments hidden; ' if hidden else ''}profile {shortened(self.profile, repr)})"

    def end(self) -> None:
        """Kill the helpers still running."""
        for process in self.started:
            if process.poll() is None:
                process.kill()

    def failure(self, exc: BaseException) -> str:
        """The message for `exc`, raised while the credentials loaded: naming the helper when it ran."""
        # an OSError's text names the file it could not start, the program as the command line spells it: the
        # message names the program once, as `shown` does
        said = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        why = f"{type(exc).__name__}: {_api_text(said)}"
        if not (self.command and self.tried):
            return (f"AWS credentials could not be read ({why}); check AWS_PROFILE and the AWS config and credentials "
                    f"files; nothing was fetched")
        if isinstance(exc, OSError) and not self.started:
            return (f"AWS credential_process {self.shown} could not be started ({why}); check its command in the AWS "
                    f"config file; nothing was fetched")
        return (f"AWS credential_process {self.shown} did not print credentials that can be read ({why}); it must "
                f'print one JSON object such as {{"Version": 1, "AccessKeyId": "…", "SecretAccessKey": "…"}}; '
                f"nothing was fetched")


def program_shown(command: str) -> tuple[str, bool]:
    """(its program as a message names it, whether arguments were left out) of a credential_process command line:
    "'/bin/echo'" of "/bin/echo --token=…". Arguments often carry a secret (a token, a password, a role's external
    id), and a message reaches terminals and CI logs. Split as botocore splits it to run it (compat_shell_split:
    shlex on POSIX)."""
    from botocore.compat import compat_shell_split

    try:
        words = compat_shell_split(command)
    except ValueError:   # an unclosed quote: botocore cannot run it either, and where the program ends is unsure
        return "(not shown: its quotes do not close)", False
    if not words:
        return "''", False
    if "=" in words[0]:   # NAME=value first is a shell's way to set a variable, and a secret's usual shape
        return ("(not shown: its first word holds '='; credential_process runs no shell, so NAME=value before the "
                "program sets no variable)"), len(words) > 1
    return shortened(words[0], repr), len(words) > 1


# -- answer size -------------------------------------------------------------------------------------

class _AnswerTooLarge(Exception):
    """An answer passed MAX_ANSWER_BYTES; `_errors` names the API and region. Not a ConnectionError, so
    botocore's retry mode does not ask again."""


class _BoundedHttp:
    """A boto3 client's HTTP session that reads each answer's body itself and stops at MAX_ANSWER_BYTES.

    botocore has no setting for this: its session reads the whole body inside `send`, before any event
    (`before-parse` is handed the bytes already read). So `send` asks the wrapped session for the answer
    unread (`stream_output`, as for a download) and reads it here as botocore would: undecoded, in chunks.
    Everything else (`close`, …) is the wrapped session's.
    """

    def __init__(self, http: Any):
        self._http = http

    def __getattr__(self, name: str) -> Any:
        return getattr(self._http, name)

    def send(self, request: Any) -> Any:
        if request.stream_output:   # an answer its caller streams (a download): none of ours
            return self._http.send(request)
        from botocore.awsrequest import AWSResponse

        request.stream_output = True
        try:
            response = self._http.send(request)
        finally:
            request.stream_output = False
        try:
            body = _read_answer(response.raw, response.headers.get("content-length"))
        except _AnswerTooLarge:
            raise
        except Exception as exc:  # noqa: BLE001 - mapped as botocore's send maps them, so they are retried as before
            raise _botocore_read_error(exc, request) from None
        return AWSResponse(response.url, response.status_code, response.headers, _ReadBody(body))


class _ReadBody:
    """A body already read, in the shape AWSResponse reads it (`raw.stream()`)."""

    def __init__(self, data: bytes):
        self.data = data

    def stream(self, *args: Any, **kwargs: Any) -> Iterator[bytes]:
        yield self.data


def _read_answer(raw: Any, content_length: str | None) -> bytes:
    """The undecoded body of one answer (a urllib3 response); _AnswerTooLarge, with the connection closed,
    once its Content-Length or the bytes read pass MAX_ANSWER_BYTES."""
    if content_length and content_length.strip().isdecimal() and int(content_length) > MAX_ANSWER_BYTES:
        _drop(raw)
        raise _AnswerTooLarge
    chunks, size = [], 0
    for chunk in raw.stream(ANSWER_CHUNK_BYTES):
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            _drop(raw)
            raise _AnswerTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _botocore_read_error(exc: Exception, request: Any) -> Exception:
    """The botocore error URLLib3Session.send raises for `exc` met while reading a body: a read timeout or a
    dropped connection is one botocore's retry mode retries and `_errors` reports as timed out."""
    from botocore.exceptions import ConnectionClosedError, HTTPClientError, ReadTimeoutError, SSLError
    from urllib3.exceptions import ProtocolError
    from urllib3.exceptions import ReadTimeoutError as URLLib3ReadTimeoutError
    from urllib3.exceptions import SSLError as URLLib3SSLError

    if isinstance(exc, URLLib3SSLError):
        return SSLError(endpoint_url=request.url, error=exc)
    if isinstance(exc, URLLib3ReadTimeoutError):
        return ReadTimeoutError(endpoint_url=request.url, error=exc)
    if isinstance(exc, ProtocolError):
        return ConnectionClosedError(error=exc, request=request, endpoint_url=request.url)
    return HTTPClientError(error=exc)


def _drop(raw: Any) -> None:
    """Close a response read only in part (its connection cannot carry another answer) and hand the slot back
    to the pool, which opens a new connection next time."""
    raw.close()
    raw.release_conn()


def _bound_answers(client: Any) -> Any:
    """`client`, its answers read through _BoundedHttp. Every request botocore sends goes through
    `client._endpoint.http_session` (no public setting reaches it); a Stubber or a `before-send` handler that
    answers a request answers it before that, unchanged. tests/pricing_adapters/test_refresh_memory.py checks
    that the bound holds with the installed botocore."""
    endpoint = getattr(client, "_endpoint", None)
    if endpoint is not None and hasattr(endpoint, "http_session"):
        endpoint.http_session = _BoundedHttp(endpoint.http_session)
    return client


# -- parsing helpers (module level so they can be tested alone) -------------------------------------

def _price_list(page: dict, region: str, n: int, api: str = "GetProducts") -> list:
    """The PriceList of one GetProducts page; PriceSourceError when the page is not one. botocore turns
    a 200 answer it cannot parse (truncated, HTML from a proxy) into {'message': body}: without this
    check such a page would read as the last one, and a partial listing would be saved."""
    prices = page.get("PriceList")
    if not isinstance(prices, list) or not page.get("FormatVersion"):
        body = _one_line(page.get("message", ""))[:80]
        raise PriceSourceError(f"AWS {api} page {n} for {region} is not a price list (no PriceList/"
                               f"FormatVersion{': ' + repr(body) if body else ''}); nothing was saved")
    return prices


def _ec2_list(page: dict, key: str, api: str, region: str, n: int) -> list:
    """The `key` list ("InstanceTypes", "SpotPriceHistory") of one EC2 page; PriceSourceError when the page is not
    the operation's answer. botocore reads any well-formed XML answered with status 200 (a proxy's XHTML page,
    `<Response/>`) as a page with nothing in it: read so, a spot answer made every spot offer vanish and a second
    DescribeInstanceTypes page cut the listing short, both saved with exit 0. A real answer names its request
    (`<requestId>`, botocore's ResponseMetadata.RequestId) even where botocore leaves out an empty list."""
    items = page.get(key)
    if isinstance(items, list):
        return items
    request_id = (page.get("ResponseMetadata") or {}).get("RequestId")
    if items is None and isinstance(request_id, str) and request_id:
        return []
    raise PriceSourceError(f"AWS {api} page {n} for {region} is not its answer (no {key} and no request id: a "
                           f"proxy's or another service's page); the listing cannot be trusted; nothing was saved")


def _product(raw: Any, region: str, n: int, api: str = "GetProducts") -> dict:
    """One decoded PriceList item; PriceSourceError when it does not parse (a truncated page)."""
    try:
        item = json.loads(raw) if isinstance(raw, (str, bytes)) else raw
        if not isinstance(item["product"]["attributes"], dict):
            raise TypeError("attributes")
    except (ValueError, KeyError, TypeError, RecursionError):   # RecursionError: arrays nested thousands deep
        raise PriceSourceError(f"AWS {api} page {n} for {region} has an item that does not parse as a "
                               f"product: {_one_line(raw)[:80]!r}; nothing was saved") from None
    return item


def accelerator_facts(info: dict) -> dict | None:
    """GPU facts of one DescribeInstanceTypes entry, or None when it has no accelerator. ValueError when its first
    device's Name or Manufacturer is no accelerator's (not printable text, or over ACCELERATOR_NAME_CHARS)."""
    itype = info.get("InstanceType", "")
    sections = (("GpuInfo", "Gpus"), ("NeuronInfo", "NeuronDevices"), ("InferenceAcceleratorInfo", "Accelerators"))
    kind, devices = "", []
    for section, key in sections:
        devices = (info.get(section) or {}).get(key) or []
        if devices:
            kind = section
            break
    if not devices:
        return None
    dev = devices[0]
    notes: list[str] = []
    name = str(dev.get("Name") or "")
    manufacturer = str(dev.get("Manufacturer") or ("AWS" if kind == "NeuronInfo" else ""))
    for text in (name, manufacturer):
        if len(text) > ACCELERATOR_NAME_CHARS or not text.isprintable():
            raise ValueError(f"accelerator name of {len(text):,} characters, or not printable")
    memory_mib = (dev.get("MemoryInfo") or {}).get("SizeInMiB")
    count = dev.get("Count")
    partition = dev.get("GpuPartitionSize")
    if len(devices) > 1:
        notes.append(f"{len(devices)} accelerator kinds in {kind}; the first ({name}) is used")
    gpu = aws_gpu_id(name, memory_mib, itype)
    known = gpu is not None
    share = memory_share(gpu, memory_mib) if kind == "GpuInfo" else None
    if partition is not None and 0 < float(partition) < 1:
        gpu_count = float(partition) * (count if count else 1)
        notes.append(f"fractional GPU: {gpu_count:g} of one per unit")
    elif share is not None:
        fraction, whole = share
        gpu_count = fraction * (count if count else 1)
        given = f"Count {count}" if count is not None else "no Count"
        notes.append(f"fractional GPU: {gpu_count:g} of one per unit ({float(memory_mib):g} of the {whole:g} MiB "
                     f"of a whole {gpu}; the API gave {given} and no GpuPartitionSize)")
    elif count:
        gpu_count = float(count)
    else:
        gpu_count = math.nan
        notes.append(f"gpu_count unknown: {kind} reports no device count")
    if not known:
        label = " ".join(p for p in (manufacturer, name) if p) or "unnamed"
        notes.insert(0, f"unknown accelerator: {label} ({kind})")
        gpu = name or f"unknown ({kind})"
    return {
        "gpu": gpu,
        "gpu_known": known,
        "accelerator_name": name,
        "gpu_count": gpu_count,
        # nominal GB (22888 MiB A10G -> 24, like every other row); the API's usable MiB in its own column
        "gpu_memory_gb": nominal_memory_gb(gpu if known else None, memory_mib, gpu_count),
        "gpu_memory_mib": float(memory_mib) if memory_mib else math.nan,
        "vcpus": float((info.get("VCpuInfo") or {}).get("DefaultVCpus") or math.nan),
        "memory_gb": float((info.get("MemoryInfo") or {}).get("SizeInMiB") or math.nan) / 1024,
        "note": " | ".join(notes),
    }


def memory_share(gpu: str | None, memory_mib: Any) -> tuple[float, float] | None:
    """(fraction of one GPU, MiB of a whole one) when a device's reported MiB is well below a whole `gpu`'s:
    a GPU slice (g6f.large: 2861 of 22888 MiB = 1/8 of an L4) that DescribeInstanceTypes may describe with
    Count 0 or 1 and no GpuPartitionSize. None for a whole GPU, an unknown GPU or unknown memory.

    A whole device's MiB is WHOLE_DEVICE_MIB, else the nominal GB x 1024; "well below" is under
    (1 - NOMINAL_TOLERANCE) of it, the tolerance within which gpu_names reads API MiB as a marketed size
    (whole A10G and L4 report 22888 MiB, 93 % of 24 GB). The packaged snapshot's g6f/gr6f counts are the
    same ratio (reference README trap 4: count = memory / 22888). A ratio within 2 % of 1/n is read as 1/n."""
    if gpu is None or memory_mib is None:
        return None
    try:
        mib = float(memory_mib)
    except (TypeError, ValueError, OverflowError):   # OverflowError: an int of 400 digits
        return None
    whole = WHOLE_DEVICE_MIB.get(gpu) or GPU_MEMORY_GB.get(gpu, math.nan) * 1024
    if not (math.isfinite(mib) and mib > 0 and math.isfinite(whole)) or mib >= (1 - NOMINAL_TOLERANCE) * whole:
        return None
    fraction = mib / whole
    n = round(1 / fraction)
    if abs(fraction * n - 1) <= 0.02:
        fraction = 1 / n
    return fraction, whole


def _mapping(value: Any) -> dict | None:
    """`value` when it is a JSON object, {} when it is absent or empty, None when it is of another type."""
    if isinstance(value, dict):
        return value
    return {} if value is None or value == [] or value == "" else None


def implausible(cost_per_hour: float, upfront: float) -> bool:
    """Whether an offer costing `cost_per_hour` (its upfront spread over its term included) is a price no offer can
    have: outside MIN_HOURLY_PRICE … MAX_HOURLY_PRICE, or an upfront above MAX_UPFRONT_PRICE (schema)."""
    return not MIN_HOURLY_PRICE <= cost_per_hour <= MAX_HOURLY_PRICE or upfront > MAX_UPFRONT_PRICE


def _term_prices(term: dict) -> tuple[float, float] | str:
    """(hourly, upfront) USD of one OnDemand/Reserved term, or the reason to skip it ("malformed" when the
    term, its priceDimensions, a dimension or its pricePerUnit is not a JSON object)."""
    hourly = upfront = None
    dims = _mapping(term.get("priceDimensions")) if isinstance(term, dict) else None
    if dims is None:
        return "malformed"
    for dim in dims.values():
        per_unit = _mapping(dim.get("pricePerUnit")) if isinstance(dim, dict) else None
        if per_unit is None:
            return "malformed"
        usd = per_unit.get("USD")
        if usd is None:
            return "non_usd"
        value = api_number(usd)   # NaN for "3_673" or an object, inf for 400 digits or "1e400"
        if value < 0 or not math.isfinite(value):
            return "malformed"
        unit = dim.get("unit")
        if unit == "Hrs" and hourly is None:
            hourly = value
        elif unit == "Quantity" and "upfront" in str(dim.get("description", "")).lower() and upfront is None:
            upfront = value
        else:
            return "unknown_unit"   # another unit, or a second (tiered) rate
    if hourly is None and upfront is None:
        return "empty_terms"
    hourly, upfront = hourly or 0.0, upfront or 0.0
    if hourly <= 0 and upfront <= 0:
        return "zero_price"
    return hourly, upfront


def parts_match(option: str, hourly: float, upfront: float) -> bool:
    """Whether a reservation's prices hold the parts its purchase option has (`PURCHASE_OPTIONS` values): All Upfront an
    upfront fee and an hourly fee of 0, Partial Upfront both fees, No Upfront an hourly fee alone. A Partial Upfront
    term without its "Upfront Fee" dimension was saved at its hourly fee alone: half its price (p4d.24xlarge 1-year
    standard at 6.625 USD/h instead of 6.625 + 58035 / 8760 = 13.25), the cheapest 1-year term."""
    if option == "all_upfront":
        return upfront > 0 and hourly == 0
    if option == "partial_upfront":
        return upfront > 0 and hourly > 0
    return upfront == 0 and hourly > 0


def matches_price_filters(item: dict, query: tuple[tuple[str, str], ...] = _PRICE_FILTERS) -> bool:
    """Whether a GetProducts item has every attribute value `price_filters(region, query)` asked for (but regionCode,
    checked on its own): `productFamily` on the product, the others among its attributes, spelled as the filter spells
    them (as the Price List spells them). A server that did not filter (a Windows, Dedicated or SQL Web product) had its
    price saved as the Linux on-demand one. An item without one of these attributes cannot have matched the filter.
    Each query's answer is held to its own filters: a Dedicated "Compute Instance" (a dedicated instance's dearer
    price) matches neither."""
    product = item["product"]
    attrs = product["attributes"]
    return all((product.get(field) if field == "productFamily" else attrs.get(field)) == value
               for field, value in query)


# Price List `location` names botocore's region descriptions do not spell (they are compared without case, accents
# or a "Europe"/"EU" difference: "EU (Ireland)" in the Price List is "Europe (Ireland)" in botocore, "South America
# (São Paulo)" or "(Sao Paulo)"). us-gov-west-1: the reference GetProducts item (r5.24xlarge, usage type UGW1-…, 2019;
# tests/fixtures/aws/README.md) says "AWS GovCloud (US)" where botocore says "AWS GovCloud (US-West)".
PRICE_LIST_LOCATIONS: dict[str, tuple[str, ...]] = {"us-gov-west-1": ("AWS GovCloud (US)",)}


def location_names(region: str) -> tuple[str, ...]:
    """The names a Price List item's `location` may give `region` ("US East (N. Virginia)" for us-east-1): its
    description in botocore's endpoints data, and PRICE_LIST_LOCATIONS; none for a region neither knows."""
    return _botocore_region_names().get(region, ()) + PRICE_LIST_LOCATIONS.get(region, ())


@functools.cache
def _botocore_region_names() -> dict[str, tuple[str, ...]]:
    """Each region code botocore's endpoints data knows -> (its description,)."""
    loader = require("botocore.loaders", "aws", "boto3").create_loader()
    names: dict[str, tuple[str, ...]] = {}
    for partition in loader.load_data("endpoints").get("partitions", []):
        for code, info in partition.get("regions", {}).items():
            if isinstance(info, dict) and isinstance(info.get("description"), str):
                names[code] = (info["description"],)
    return names


def _location_key(name: str) -> str:
    """`name` as locations are compared: case, accents, runs of spaces and "Europe" for "EU" left out."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    key = " ".join(plain.casefold().split())
    return "eu" + key[len("europe"):] if key.startswith("europe (") else key


def in_region(attrs: dict, region: str) -> bool:
    """Whether a GetProducts item's attributes place it in `region`: its `regionCode` when it has one, else its
    `location`, one of `location_names(region)`. The query filters on regionCode, so an item without one is an item
    the server did not filter, and any region's: one in "US West (Oregon)" was stored as a us-east-1 price. An item
    with neither cannot be told to be the region's."""
    code = attrs.get("regionCode")
    if code is not None:
        return code == region
    location = attrs.get("location")
    return isinstance(location, str) and _location_key(location) in {_location_key(n) for n in location_names(region)}


def _row(region: str, itype: str, facts: dict, purchase_option: str, hourly: float, upfront: float,
         term_months: int, zone: str, as_of: str, source: str, note: str, suffix: str = "") -> dict:
    notes = " | ".join(n for n in (note, facts["note"]) if n)
    return offer_row(PROVIDER, region, itype, purchase_option, facts, hourly, upfront, term_months, zone, as_of,
                     f"{source}; GPU facts: {FACTS_SOURCE}", notes, suffix)
