"""Live Azure prices: the public Retail Prices API (httpx) and VM size facts from azure-mgmt-compute.

Prices
    GET `FLEETPLAN_AZURE_PRICES_URL` (default https://prices.azure.com/api/retail/prices) with
    `api-version=2023-01-01-preview` (the version that carries `savingsPlan`), `currencyCode='USD'` (quoted, as
    Microsoft's examples write it) and
    `$filter=serviceName eq 'Virtual Machines' and armRegionName eq '<region>'`. No `priceType` filter:
    every item of the region is fetched once and classified here, so one pass gives on-demand, spot,
    low-priority, reservation and savings-plan rates. `NextPageLink` is followed to the end; each page is
    classified as it arrives and only its offers are kept, so memory holds one page and the GPU offers.

    Classification of an item (in this order):
    - `type` DevTestConsumption -> dropped (dev/test subscriptions only);
    - `productName` ending " Windows", containing " Win" or " Cloud Services" -> dropped (Linux VMs only);
    - `type` Reservation -> `reserved_1y` / `reserved_3y`. Its `retailPrice` is the TOTAL for the term
      (docs/data-sources.md, trap 15), stored as the effective hourly rate `total / 8760` (1 year) or
      `total / 26280` (3 years) with `upfront_price = 0` and `term_months` 12 / 36. The planner pays a
      reserved term as `upfront + hourly x 730 x months`, and 730 x 12 = 8760, 730 x 36 = 26280, so the
      term costs exactly the API's total; the hourly figure compares directly with on-demand;
    - `type` Consumption: `skuName` or `meterName` ending " Spot" -> `spot`; ending " Low Priority" ->
      `low_priority` (kept apart, never on-demand); one saying Spot and the other Low Priority -> skipped as
      `spot_and_low_priority`; otherwise `on_demand`, and each entry of its `savingsPlan` list
      ("1 Year" / "3 Years", already hourly) -> `savings_plan_1y` / `savings_plan_3y`;
    - anything else -> skipped.
    Prices are per `unitOfMeasure`: "1 Hour" is hourly; "N Hours" is divided by N (on-demand, spot, low
    priority and the item's savings-plan rates); any other unit ("1/Month", "1/Day", none) is skipped as
    `unknown_unit`, and so is a reservation in any unit but "1 Hour" (the unit the API gives a term's total).
    Zero, negative and infinite prices are skipped, and so are missing or non-numeric ones (`no_price`) and
    a `savingsPlan` that is not a list of objects (`malformed`; the item's own rate is kept). An item whose own
    price is skipped is skipped whole, its savings-plan rates too (counted once, with that price's reason). An item
    whose `armRegionName` is not the region asked for is skipped first, as `wrong_region` (as AWS does), and
    one without an `armRegionName` as `no_region`.
    Every skipped item is counted in `self.skipped` (reason -> n), and `self.returned` holds how many items
    each region's listing returned (so a refresh that kept none can say they were all skipped);
    `self.implausible_offers` holds the ids of the offers skipped as `implausible_price` (beyond any price's bounds
    in classify_item, or above USD's in base.offers_table), of the sizes kept, for refresh to name an offer in force
    missing for its price; `self.dropped_with_item_offers` those dropped with an item dropped whole for its own price
    (zero, negative or implausible), each with the id of the item's own offer (on demand, spot, a reservation), for
    refresh to name the item: its savings plans, whatever their own rates, and its own offer when its price is zero or
    negative (an implausible one is in `implausible_offers`).
    When one offer is quoted twice (the preview API also returns non-primary meters), the primary
    meter, then the latest `effectiveStartDate`, wins; the others are counted as `duplicate`. Quotes of the
    same rank at different prices drop the offer, each counted as `conflicting_prices` (as AWS does: nothing
    tells which is real); at the same price they are kept once (the others `duplicate`).
    `as_of` is the fetch date (UTC), as for AWS: the price is current then. The item's
    `effectiveStartDate` (when the price took effect, often years back) is kept in the note.

    Only GPU sizes are kept: sizes in the GPU size facts (below), and `Standard_NC/ND/NG/NV*` sizes the
    facts do not know, which are kept with `gpu_known=False` and a note (docs/offers-contract.md: unknown
    accelerators are flagged, not dropped) when their name is a VM size's (VM_SIZE_NAME; else skipped as
    `malformed_size_name`). Retail keys that differ from the ResourceSku name (trailing
    spaces; `Standard_NG32adms_V620` for `Standard_NG32adms_V620_v1`, reference trap 12) are matched to
    the ResourceSku name, and the note keeps the Retail key. Retired sizes (NC K80, NCv2, ND v1, NV v1,
    NCv3, NVv3, NVv4; `pricing_adapters/retired.py`) are skipped as `retired_size` even when still quoted.

    HTTP 429 and 5xx are retried, honouring `Retry-After` (capped at 60 s; otherwise 1, 2, 4 … s), up to
    `max_attempts` (5) -> ThrottledError; timeouts and connection errors likewise -> PriceSourceError.
    The whole fetch has a deadline (`deadline`, default base.DEFAULT_DEADLINE_S) checked between pages,
    attempts and body chunks, and at most base.MAX_PAGES pages per region -> DeadlineExceeded.
    A page that is not JSON (or nests too deep to parse) or has no `Items` list raises PriceSourceError
    naming the page URL, and so does a page larger than MAX_PAGE_BYTES (32 MB once gzip is undone; real
    pages are 1-3 MB) or one whose Content-Encoding is not a single gzip, deflate, br or identity. A NextPageLink or
    a redirect is followed only on the scheme, host and port of the prices URL (any other, or one that is
    not a URL, raises PriceSourceError): a page must not send requests to another host.
    `fetch` raises rather than return a partial table.

GPU facts (gpu, gpu_count, gpu_memory_gb, vcpus, memory_gb; gpu_memory_mib is empty: Azure reports no MiB)
    - Without a subscription (`subscription_id` argument or `AZURE_SUBSCRIPTION_ID`): the packaged size
      table `pricing_adapters/data/azure_gpu_sizes.csv` (the facts behind the packaged snapshot, built by
      scripts/build_snapshot.py's `azure_size_facts` from the reference data and
      `data/azure_gpu_counts.csv`). No credential is built; `self.notice` says so in one line.
    - With a subscription: `ComputeManagementClient(credential, subscription_id, base_url=...)`
      `.resource_skus.list(filter="location eq '<region>'")` per region (`FLEETPLAN_AZURE_ARM_URL`
      overrides the ARM endpoint). The credential is `azure.identity.DefaultAzureCredential()` unless one
      (or a compute client) is injected. Capabilities `GPUs`, `vCPUs`, `MemoryGB` are strings; the
      `family` is normalised (spaces, case) and mapped by `gpu_names.azure_gpu_id`. Sizes without a
      `GPUs` capability and GPU-partition sizes take their count from `data/azure_gpu_counts.csv`, then
      the packaged size table, then SkyPilot's AZURE_MISSING_GPU_COUNT families (MI300X v5: 8,
      GB200/GB300 v6: 4). NV*ads_A10_v5 sizes are fractional: exactly vCPUs / 36 of an A10, unrounded
      (NV6ads 1/6, noted "vCPUs/36 = 6/36 = 1/6"; the API says 1).
      Restrictions (e.g. `NotAvailableForSubscription`) are flagged in the offer's `note`. Sizes ARM
      does not list in a region fall back to the packaged size table, and so do all sizes when ARM fails
      (rejected credentials, HTTP 403 or 500, throttling, no answer within half the time left); `notice`
      says why.
"""

from __future__ import annotations

import email.utils
import json
import math
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime, timezone
from typing import Any

import httpx
import pandas as pd

from pricing_adapters import PACKAGE_DIR, registry
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
from pricing_adapters.errors import CredentialsError, DeadlineExceeded, PriceSourceError, RegionError, ThrottledError
from pricing_adapters.extras import require
from pricing_adapters.gpu_names import (
    A10_VCPUS_PER_GPU,
    GPU_MEMORY_GB,
    azure_a10_share,
    azure_gpu_id,
    azure_is_fractional_a10_family,
    azure_is_partition_family,
    family_key,
    fraction_text,
)
from pricing_adapters.retired import is_retired_azure_size
from pricing_adapters.schema import (
    MAX_HOURLY_PRICE,
    MAX_UPFRONT_PRICE,
    MIN_HOURLY_PRICE,
    offer_id,
)
from pricing_adapters.shown import plural, shortened, url_shown, urls_shown

PROVIDER = registry.AZURE
PRICES_URL_ENV = "FLEETPLAN_AZURE_PRICES_URL"
ARM_URL_ENV = "FLEETPLAN_AZURE_ARM_URL"
SUBSCRIPTION_ENV = "AZURE_SUBSCRIPTION_ID"
DEFAULT_PRICES_URL = "https://prices.azure.com/api/retail/prices"
DEFAULT_ARM_URL = "https://management.azure.com"
API_VERSION = "2023-01-01-preview"

PRICES_SOURCE = "Azure Retail Prices API"
ARM_SOURCE = "azure-mgmt-compute resource SKUs"
TABLE_SOURCE = "packaged size table"
NO_SUBSCRIPTION_NOTICE = f"no {SUBSCRIPTION_ENV}: GPU facts from the packaged size table"

HOURS_PER_TERM = {"reserved_1y": 8760, "reserved_3y": 26280}  # 365 x 24, 3 x 365 x 24
RESERVATION_TERMS = {"1 year": "reserved_1y", "3 years": "reserved_3y"}
SAVINGS_PLAN_TERMS = {"1 year": "savings_plan_1y", "3 years": "savings_plan_3y"}
TERM_MONTHS = {"on_demand": 0, "spot": 0, "low_priority": 0, "reserved_1y": 12, "reserved_3y": 36,
               "savings_plan_1y": 12, "savings_plan_3y": 36}

MAX_RETRY_AFTER_S = 60.0
READ_TIMEOUT_S = 30.0       # one socket read; the deadline bounds the whole refresh
CONNECT_TIMEOUT_S = 10.0
ARM_RETRIES = 2             # azure-core's default (10 retries, backoff up to 2 min) outlasts any deadline
ARM_SHARE = 0.5             # ARM may use half the time left: the prices matter more, and facts have a fallback
# A Retail Prices page of 1,000 items is 1-3 MB of JSON. Counted after gzip is undone (what memory holds),
# this is ten times that with room to spare, and stops a page that never ends long before memory runs out.
MAX_PAGE_BYTES = 32 * 1024 * 1024
MAX_REDIRECTS = 5           # httpx's own default is 20; the API itself does not redirect
# Content-Encoding a page may have: one coding at most (the API sends gzip or none). httpx undoes stacked
# codings ("gzip, gzip") in one go per network chunk, so each layer multiplies what one chunk becomes
# (6.7 kB of gzip of gzip is 4 GiB) before MAX_PAGE_BYTES can be counted.
PAGE_CODINGS = frozenset({"gzip", "deflate", "br", "identity"})
GPU_SERIES = re.compile(r"^standard_n[cdgv]", re.IGNORECASE | re.ASCII)  # NP (FPGA) and NM (media) are not GPUs
# A VM size's name as Azure spells them (Standard_ND96isr_H100_v5): letters, digits, '_' and '-', short. A size
# the size table does not know is stored under the name the listing gives: a name holding a NUL or 5,000 digits
# was stored and printed whole. ASCII: without it IGNORECASE lets the Kelvin sign and the long s in as K and s.
VM_SIZE_NAME = re.compile(r"Standard_[A-Za-z0-9_-]{1,60}", re.IGNORECASE | re.ASCII)
# armRegionName: lower-case letters and digits (eastus2, germanywestcentral). The name goes into the
# API's $filter between quotes, so nothing else may pass.
REGION_NAME = re.compile(r"^[a-z][a-z0-9]*$")
# effectiveStartDate "2023-09-01T00:00:00Z": the date the price took effect (_effective_start)
EFFECTIVE_DATE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(?:T[0-9:.]{0,20}(?:Z|[+-][0-9]{2}:[0-9]{2})?)?")
# the end of a Consumption item's skuName or meterName that makes it a spot or low-priority rate ("NC24ads A100 v4 Spot",
# "NC24ads A100 v4 Low Priority")
PRIORITY_SUFFIX = re.compile(r"(?:^|\s)(spot|low\s+priority)\s*$", re.IGNORECASE | re.ASCII)
# unitOfMeasure of a per-hour price: Virtual Machines meters say "1 Hour"; "N Hours" is N hours' price, N a whole
# number: "0.001 Hours" would multiply the price by 1,000
HOURS_UNIT = re.compile(r"^\s*([0-9]{1,9})\s+hours?\s*$", re.IGNORECASE | re.ASCII)

# SkyPilot upstream fetch_azure.py AZURE_MISSING_GPU_COUNT (docs/data-sources.md, Azure price snapshot):
# families whose ResourceSku has no `GPUs` capability. Keys are normalised families (see family_key).
MISSING_GPU_COUNT_BY_FAMILY = {"ndisv5mi300x": 8.0, "ndisrgb200v6ndr": 4.0, "ndisrgb300v6": 4.0}

COUNTS_NOTE = "gpu_count from Azure docs (pricing_adapters/data/azure_gpu_counts.csv)"

Item = Mapping[str, Any]


def _sku_key(name: str) -> str:
    return (name or "").strip().lower()


def _primary_meter(item: dict) -> bool:
    """Whether a quote is for the region's primary meter: the API's JSON true (missing: assumed so, as
    before the field existed); the text "false" is not true, as bool("false") would make it."""
    value = item.get("isPrimaryMeterRegion", True)
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _float(value: Any) -> float:
    """`value` as a float; NaN when it is not a number (JSON true is not 1)."""
    if isinstance(value, bool):
        return math.nan
    try:
        out = float(value)
    except (TypeError, ValueError, OverflowError):   # OverflowError: an int of 400 digits
        return math.nan
    return out


SHOWN_LINK_CHARS = 300   # of a page's URL in a message: a real NextPageLink has about 200


def _shown_link(link: str) -> str:
    """A URL (or a text holding one) as a message shows it: without credentials (`urls_shown`), whole up to
    SHOWN_LINK_CHARS characters, else its start and its length. A page names the next: a link of a megabyte must not
    come back whole."""
    link = urls_shown(link)
    if len(link) <= SHOWN_LINK_CHARS:
        return link
    return f"{link[:SHOWN_LINK_CHARS - 60]}… ({len(link):,} characters)"


def _effective_start(value: Any) -> date | None | bool:
    """An item's effectiveStartDate as a date; None when it has none; False when it is not a date (text that is
    no real day, a number, an object)."""
    if value is None or value == "":
        return None
    m = EFFECTIVE_DATE.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        return False
    try:
        return date.fromisoformat(m.group(1))
    except ValueError:   # 2026-02-30
        return False


def _isnan(x: float) -> bool:
    return isinstance(x, float) and math.isnan(x)


# ------------------------------------------------------------------ classification of Retail items

def classify_item(item: Item) -> tuple[list[tuple[str, float, str]], list[str]]:
    """The offers one Retail Prices item gives, as ([(purchase_option, hourly_price, note)], [skip reasons]).

    An item dropped as a whole gives ([], [reason]): so is one whose own price is missing, not a number, not
    finite, zero or negative, or beyond the bounds of any price, its savings-plan rates with it. A Consumption
    item may give an on-demand rate plus savings-plan rates, some of which are skipped (zero price). Prices are in
    the item's currency.
    """
    offers, skipped, _, _ = classify_item_options(item)
    return offers, skipped


def classify_item_options(item: Item) -> tuple[list[tuple[str, float, str]], list[str], list[str], list[str]]:
    """`classify_item`'s offers and skip reasons, the purchase options the item would have given but for the prices
    it skipped as `implausible_price` (its own option, when its own price is so, or a savings-plan term so priced),
    and the options dropped with an item dropped whole for its own price: its own option first where that price is zero
    or negative (an implausible one is among the options skipped for their prices), then its savings-plan terms,
    whatever their own rates: for the fetch to keep their offer ids (refresh tells an offer in force missing for its
    price, or with its item, naming the item, as the AWS adapter does)."""
    product = str(item.get("productName") or "")
    sku_name = str(item.get("skuName") or "").strip()
    kind = str(item.get("type") or "")
    if kind == "DevTestConsumption":
        return [], ["devtest"], [], []
    if product.endswith(" Windows") or " Win" in product:
        return [], ["windows"], [], []
    if " Cloud Services" in product:
        return [], ["cloud_services"], [], []
    price = api_number(item.get("retailPrice"))   # 400 digits: inf; "3_673": NaN
    if _isnan(price):
        return [], ["no_price"], [], []
    if math.isinf(price):   # JSON 1e400 reads as inf: not a price
        return [], ["non_finite_price"], [], []
    unit = str(item.get("unitOfMeasure") or "").strip()
    hours = unit_hours(unit)
    if hours is None:
        return [], ["unknown_unit"], [], []
    if kind == "Reservation":
        if hours != 1:   # the API says "1 Hour" for a term's total; any other unit cannot be read
            return [], ["unknown_unit"], [], []
        term = str(item.get("reservationTerm") or "").strip().lower()
        option = RESERVATION_TERMS.get(term)
        if option is None:
            return [], ["unknown_reservation_term"], [], []
        if price <= 0:
            return [], ["zero_or_negative_price"], [], [option]
        if price > MAX_UPFRONT_PRICE:   # a term's total: 1e300 is a broken feed, not a price
            return [], ["implausible_price"], [option], []
        hours = HOURS_PER_TERM[option]
        if price / hours < MIN_HOURLY_PRICE:   # a term of GPU-hours for a fraction of a cent
            return [], ["implausible_price"], [option], []
        note = f"reservation: {price:g} per {item.get('reservationTerm')} term / {hours} h"
        return [(option, price / hours, note)], [], [], []
    if kind != "Consumption":
        return [], ["unknown_type"], [], []
    option = consumption_option(sku_name, str(item.get("meterName") or ""))
    if option is None:
        return [], ["spot_and_low_priority"], [], []
    # the item's own price unusable drops it whole, its savings-plan rates too, as a missing or NaN price does: its
    # plans would be saved without the on-demand rate they are discounts on, which refresh checks them against
    # Its plans' ids are kept apart from the implausible prices: their own rates may be sound (a refused refresh said
    # them skipped as implausible prices, and those of an item dropped for a zero price not at all)
    if price <= 0:
        return [], ["zero_or_negative_price"], [], [option, *_savings_plan_options(item, option)]
    if not MIN_HOURLY_PRICE <= price / hours <= MAX_HOURLY_PRICE:   # 1e300, or per "100000000 Hours"
        return [], ["implausible_price"], [option], _savings_plan_options(item, option)
    per_unit = f"retailPrice per {unit}" if hours != 1 else ""
    offers: list[tuple[str, float, str]] = [(option, price / hours, per_unit)]
    skipped: list[str] = []
    priced_out: list[str] = []
    plans = item.get("savingsPlan") or []
    if option == "on_demand" and not isinstance(plans, list):
        skipped.append("malformed")   # not a list of {"term", "retailPrice"} objects: no plan can be read
        plans = []
    if option == "on_demand":
        for plan in plans:
            if not isinstance(plan, Mapping):
                skipped.append("malformed")
                continue
            plan_option = SAVINGS_PLAN_TERMS.get(str(plan.get("term") or "").strip().lower())
            if plan_option is None:
                skipped.append("unknown_savings_plan_term")
                continue
            rate = api_number(plan.get("retailPrice"))
            if _isnan(rate):
                skipped.append("no_price")
                continue
            if math.isinf(rate):
                skipped.append("non_finite_price")
                continue
            if rate <= 0:
                skipped.append("zero_or_negative_price")
                continue
            if not MIN_HOURLY_PRICE <= rate / hours <= MAX_HOURLY_PRICE:
                skipped.append("implausible_price")
                priced_out.append(plan_option)
                continue
            offers.append((plan_option, rate / hours, per_unit))
    return offers, skipped, priced_out, []


def _savings_plan_options(item: Item, option: str) -> list[str]:
    """The savings-plan options an `option` item's `savingsPlan` list names by a known term (none but on-demand)."""
    plans = item.get("savingsPlan") or []
    if option != "on_demand" or not isinstance(plans, list):
        return []
    terms = (SAVINGS_PLAN_TERMS.get(str(plan.get("term") or "").strip().lower()) for plan in plans
             if isinstance(plan, Mapping))
    return [term for term in terms if term is not None]


def consumption_option(sku_name: str, meter_name: str) -> str | None:
    """The purchase option of a Consumption item: `spot` or `low_priority` when its skuName or its meterName ends
    so (" Spot", " Low Priority"), else `on_demand`; None when one says Spot and the other Low Priority (which
    rate it is cannot be told). Either name counts: an item whose meterName alone said "Low Priority" was taken
    as on-demand and its 0.7346 could replace the NC24ads A100 v4's 3.673 (Azure adapter audit, 2026-12-06)."""
    said = {_priority(sku_name), _priority(meter_name)} - {"on_demand"}
    if len(said) > 1:
        return None
    return said.pop() if said else "on_demand"


def _priority(name: str) -> str:
    """`spot`, `low_priority` or `on_demand`, as the end of a skuName or meterName says ("NC24ads A100 v4 Spot")."""
    m = PRIORITY_SUFFIX.search(name)
    if m is None:
        return "on_demand"
    return "spot" if m.group(1).lower() == "spot" else "low_priority"


def unit_hours(unit: str) -> float | None:
    """Hours one `unitOfMeasure` stands for ("1 Hour" -> 1, "100 Hours" -> 100); None for any other unit
    ("1/Month", "1/Day", "1 GB/Month", empty): such a price is not hourly."""
    m = HOURS_UNIT.match(unit or "")
    if m is None:
        return None
    hours = float(m.group(1))
    return hours if hours >= 1 else None


# ------------------------------------------------------------------ GPU size facts

def _facts(sku: str, family: str, gpu: str | None, raw: str, count: float, memory: float, vcpus: float,
           memory_gb: float, notes: list[str], origin: str) -> dict:
    if gpu is None:
        notes = [f"unknown accelerator: {raw or sku}", *notes]
    if _isnan(count) and not any("gpu_count unknown" in n or "fraction unknown" in n for n in notes):
        notes.append("gpu_count unknown")
    elif not _isnan(count) and 0 < count < 1 and not any(n.startswith("fractional") for n in notes):
        notes.append(f"fractional GPU: {count:g} of one per unit")
    return {"sku": sku, "gpu": gpu or raw or sku, "gpu_known": gpu is not None, "accelerator_name": family,
            "gpu_count": count, "gpu_memory_gb": memory, "vcpus": vcpus, "memory_gb": memory_gb,
            "notes": notes, "origin": origin}


def load_size_table() -> dict[str, dict]:
    """The packaged GPU size table (`data/azure_gpu_sizes.csv`): lower-cased size name -> facts."""
    with (PACKAGE_DIR / "data" / "azure_gpu_sizes.csv").open("r", encoding="utf-8") as f:
        table = pd.read_csv(f, dtype=str, keep_default_na=False)
    out = {}
    for r in table.itertuples(index=False):
        known = r.gpu_known.strip().lower() == "true"
        notes = [n for n in r.note.split(" | ") if n]
        out[_sku_key(r.arm_sku_name)] = {
            "sku": r.arm_sku_name, "gpu": r.gpu, "gpu_known": known, "accelerator_name": r.family,
            "gpu_count": _float(r.gpu_count), "gpu_memory_gb": _float(r.gpu_memory_gb),
            "vcpus": _float(r.vcpus), "memory_gb": _float(r.memory_gb), "notes": notes, "origin": TABLE_SOURCE,
        }
    return out


def load_gpu_counts() -> dict[str, dict]:
    """`data/azure_gpu_counts.csv` (counts from Azure's docs): lower-cased size name -> count, memory."""
    with (PACKAGE_DIR / "data" / "azure_gpu_counts.csv").open("r", encoding="utf-8") as f:
        table = pd.read_csv(f, dtype=str, keep_default_na=False)
    return {_sku_key(r.arm_sku_name): {"gpu_count": _float(r.gpu_count), "gpu_memory_gb": _float(r.gpu_memory_gb)}
            for r in table.itertuples(index=False)}


def _field(obj: Any, attr: str, key: str) -> Any:
    """An SDK model field. The azure-mgmt-compute models are also Mappings (REST names as keys), and on
    them some attribute names clash with Mapping methods (`ResourceSkuRestrictions.values`)."""
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, attr, None)


def _text(value: Any) -> str:
    value = getattr(value, "value", value)  # enums
    return "" if value is None else str(value)


def _restriction_notes(sku: Any, region: str) -> list[str]:
    notes = []
    for r in _field(sku, "restrictions", "restrictions") or []:
        reason = _text(_field(r, "reason_code", "reasonCode")) or "restricted"
        kind = _text(_field(r, "type", "type"))
        info = _field(r, "restriction_info", "restrictionInfo")
        if kind.lower() == "zone":
            zones = list(_field(info, "zones", "zones") or []) if info is not None else []
            notes.append(f"restricted in {plural(len(zones) or 1, 'zone')} {','.join(map(str, zones)) or '?'}: {reason}")
        else:
            values = [str(v).lower() for v in (_field(r, "values", "values") or [])]
            if not values or region.lower() in values:
                notes.append(f"restricted in {region}: {reason}")
    return notes


def arm_size_facts(sku: Any, region: str, table: Mapping[str, dict], counts: Mapping[str, dict]) -> dict | None:
    """GPU facts of one ResourceSku (azure-mgmt-compute model), or None when it is not a GPU VM size."""
    if _text(_field(sku, "resource_type", "resourceType")).lower() not in ("virtualmachines", ""):
        return None
    name = _text(_field(sku, "name", "name")).strip()
    family = _text(_field(sku, "family", "family"))
    caps = {_text(_field(c, "name", "name")): _text(_field(c, "value", "value"))
            for c in (_field(sku, "capabilities", "capabilities") or [])}
    gpus, vcpus, memory_gb = _float(caps.get("GPUs")), _float(caps.get("vCPUs")), _float(caps.get("MemoryGB"))
    key, fkey = _sku_key(name), family_key(family)
    packaged = table.get(key)
    docs = counts.get(key)
    gpu = azure_gpu_id(family, name)
    notes: list[str] = []
    if gpu is None and packaged is not None and packaged["gpu_known"]:
        gpu = packaged["gpu"]
        notes.append(f"family '{family}' not mapped; GPU from the packaged size table")
    has_gpus = not _isnan(gpus) and gpus > 0
    if not has_gpus and gpu is None and packaged is None and docs is None:
        return None  # no GPU capability, no GPU family, unknown to the tables: not a GPU size
    partition = azure_is_partition_family(family)
    a10_share = azure_a10_share(family, vcpus)   # NV*ads_A10_v5: exactly vCPUs / 36 of an A10 (gpu_names)
    unreliable = not has_gpus or partition or azure_is_fractional_a10_family(family)
    count, memory = (gpus if has_gpus else math.nan), math.nan
    if unreliable:
        if docs is not None:
            count, memory = docs["gpu_count"], docs["gpu_memory_gb"]
            notes.append(COUNTS_NOTE)
        elif a10_share is not None:
            count = a10_share   # exact: 6/36 = 1/6, not 0.167
            if count < 1:
                notes.append(f"fractional A10: vCPUs/{A10_VCPUS_PER_GPU} = {vcpus:g}/{A10_VCPUS_PER_GPU}"
                             f" = {fraction_text(count)}"
                             + (f" (the API reports GPUs={gpus:g})" if has_gpus else ""))
        elif packaged is not None and not _isnan(packaged["gpu_count"]):
            count, memory = packaged["gpu_count"], packaged["gpu_memory_gb"]
            notes.append("gpu_count from the packaged size table")
        elif not has_gpus and fkey in MISSING_GPU_COUNT_BY_FAMILY:
            count = MISSING_GPU_COUNT_BY_FAMILY[fkey]
            notes.append("gpu_count from SkyPilot AZURE_MISSING_GPU_COUNT (no GPUs capability)")
        elif partition:
            count = math.nan
            notes.append("GPU partition; fraction unknown")
    if _isnan(memory) and gpu is not None and not (partition and _isnan(count)):
        memory = GPU_MEMORY_GB.get(gpu, math.nan)
        if not _isnan(count) and 0 < count < 1 and not _isnan(memory):
            memory = memory / round(1 / count)  # the VM's slice: 1/6 of an A10 = 4 GB
    if gpu is not None and _isnan(memory):
        notes.append("gpu_memory_gb unknown")
    if packaged is not None:
        vcpus = packaged["vcpus"] if _isnan(vcpus) else vcpus
        memory_gb = packaged["memory_gb"] if _isnan(memory_gb) else memory_gb
    notes.extend(_restriction_notes(sku, region))
    return _facts(name, family, gpu, family, count, memory, vcpus, memory_gb, notes, ARM_SOURCE)


def _unknown_size_facts(sku: str) -> dict:
    return _facts(sku, "", None, sku, math.nan, math.nan, math.nan, math.nan,
                  ["size not in the GPU size facts; accelerator unknown"], "none")


# ------------------------------------------------------------------ the price source

class AzurePriceSource:
    """Azure GPU offers from the Retail Prices API, with GPU facts from ARM or the packaged size table."""

    provider = PROVIDER

    def __init__(self, http: httpx.Client | None = None, compute_client: Any = None, credential: Any = None,
                 subscription_id: str | None = None, currency: str = "USD", *,
                 max_attempts: int = 5, sleep: Callable[[float], None] | None = None,
                 deadline: float = DEFAULT_DEADLINE_S):
        self.http = http
        self.deadline_s = float(deadline)
        self._deadline = Deadline(self.deadline_s)
        self.compute_client = compute_client
        self.credential = credential
        self.subscription_id = subscription_id or os.environ.get(SUBSCRIPTION_ENV) or None
        self.currency = (currency or "USD").upper()
        self.max_attempts = max(1, int(max_attempts))
        self.sleep = sleep or time.sleep
        self.prices_url = os.environ.get(PRICES_URL_ENV) or DEFAULT_PRICES_URL
        self.arm_url = os.environ.get(ARM_URL_ENV) or DEFAULT_ARM_URL
        check_endpoint(self.prices_url, PRICES_URL_ENV)   # a usage error, told before any request
        check_endpoint(self.arm_url, ARM_URL_ENV)
        self.uses_arm = bool(self.subscription_id) or compute_client is not None
        self.source = f"{PRICES_SOURCE} + {ARM_SOURCE}" if self.uses_arm else PRICES_SOURCE
        self.notice = "" if self.uses_arm else NO_SUBSCRIPTION_NOTICE
        self.skipped: dict[str, int] = {}
        self.implausible_offers: list[str] = []   # ids of the offers skipped as implausible_price (see fetch)
        # id of an offer dropped with its item -> the id of the item's own offer (see fetch)
        self.dropped_with_item_offers: dict[str, str] = {}

    # -- public --------------------------------------------------------------------------------------

    def check_regions(self, regions: Sequence[str]) -> None:
        """RegionError when `regions` is empty or one is not in the form of an Azure region name."""
        if not regions:
            raise RegionError("no Azure region given (e.g. --region eastus)")
        bad = [r for r in regions if not REGION_NAME.match(r)]
        if bad:
            raise RegionError(f"not Azure region names: {', '.join(bad)} (expected lower-case letters and "
                              f"digits, e.g. eastus)")

    def fetch(self, regions: Sequence[str], progress: Progress = no_progress) -> pd.DataFrame:
        """Every GPU offer of `regions` as a validated offers table; raises PriceSourceError on any failure."""
        # each region once, in order, as refresh() and the CLI give them: a repeat was read twice and its
        # offers refused as duplicate offer_ids
        regions = list(dict.fromkeys(r.strip() for r in regions if r and r.strip()))
        self.check_regions(regions)
        self.skipped = {}
        self.implausible_offers = []
        self.dropped_with_item_offers = {}
        self.returned: dict[str, int] = {}
        self._deadline = Deadline(self.deadline_s)
        as_of = datetime.now(timezone.utc).date().isoformat()
        table = load_size_table()
        counts = load_gpu_counts() if self.uses_arm else {}
        compute = None
        if self.uses_arm:
            try:
                compute = self._compute_client()
            except CredentialsError as exc:
                self._without_arm(exc)
        # redirects are followed by _get, which first checks that they stay on the prices URL's host
        client = self.http or httpx.Client(timeout=httpx.Timeout(READ_TIMEOUT_S, connect=CONNECT_TIMEOUT_S))
        rows: list[dict] = []
        try:
            for i, region in enumerate(regions):
                facts = dict(table)
                if compute is not None:
                    try:
                        facts.update(self._arm_facts_in_time(compute, region, table, counts))
                        progress(f"azure {region}: VM sizes", 1, 1)
                    except PriceSourceError as exc:  # prices are public: keep going without ARM
                        self._deadline.check(f"ARM resource SKUs for {region}")
                        compute = None
                        self._without_arm(exc)
                region_rows = self._region_offers(client, region, facts, as_of, progress)
                if region_rows and not any(r["purchase_option"] == "on_demand" for r in region_rows):
                    # every GPU size has a pay-as-you-go price: none at all is a broken or foreign listing
                    skipped = ", ".join(f"{v} {k}" for k, v in sorted(self.skipped.items())) or "none"
                    raise PriceSourceError(f"Azure Retail Prices API gave no on-demand price for any GPU size "
                                           f"in {region} (skipped: {skipped}); nothing was saved")
                rows.extend(region_rows)
                progress("azure regions", i + 1, len(regions))
        finally:
            if self.http is None:
                client.close()
        rows.sort(key=lambda row: (row["region"], row["sku"], row["purchase_option"]))   # stable, as mergesort
        return offers_table(rows, "azure refresh", self._skip, self.implausible_offers)

    # -- ARM -----------------------------------------------------------------------------------------

    def _without_arm(self, exc: Exception) -> None:
        """ARM failed (credentials, HTTP 403 or 500, throttling, no answer in time): the Retail Prices API
        needs none of it, so GPU facts come from the packaged table, and the notice says why."""
        self.source = PRICES_SOURCE
        self.notice = f"{exc}; GPU facts from the packaged size table instead"

    def _compute_client(self) -> Any:
        if self.compute_client is not None:
            return self.compute_client
        # the optional [azure] extra, needed only with a subscription: a clear one-line error without it
        ComputeManagementClient = require("azure.mgmt.compute", "azure", "azure-mgmt-compute").ComputeManagementClient  # noqa: N806
        credential = self.credential
        if credential is None:
            DefaultAzureCredential = require("azure.identity", "azure", "azure-identity").DefaultAzureCredential  # noqa: N806

            try:
                credential = DefaultAzureCredential()
            except Exception as exc:  # noqa: BLE001 - azure-identity raises various errors
                raise CredentialsError(f"Azure credentials could not be set up: {_one_line(exc)}") from None
            self.credential = credential
        self.compute_client = ComputeManagementClient(
            credential, self.subscription_id, base_url=self.arm_url, connection_timeout=CONNECT_TIMEOUT_S,
            read_timeout=min(READ_TIMEOUT_S, self.deadline_s), retry_total=ARM_RETRIES)
        return self.compute_client

    def _arm_facts_in_time(self, compute: Any, region: str, table: Mapping[str, dict],
                           counts: Mapping[str, dict]) -> dict[str, dict]:
        """_arm_facts within ARM_SHARE of the time left; PriceSourceError (a fallback, not a failure of
        the refresh) when ARM has not answered by then."""
        budget = Deadline(self._deadline.remaining() * ARM_SHARE)
        what = f"ARM resource SKUs for {region}"
        try:
            return call_with_deadline(budget, what, lambda: self._arm_facts(compute, region, table, counts))
        except DeadlineExceeded:
            raise PriceSourceError(f"{what}: no answer within {budget.seconds:.0f} s") from None

    def _arm_facts(self, compute: Any, region: str, table: Mapping[str, dict],
                   counts: Mapping[str, dict]) -> dict[str, dict]:
        from azure.core.exceptions import AzureError, ClientAuthenticationError, HttpResponseError

        out: dict[str, dict] = {}
        try:
            for sku in compute.resource_skus.list(filter=f"location eq '{region}'"):
                facts = arm_size_facts(sku, region, table, counts)
                if facts is not None:
                    out[_sku_key(facts["sku"])] = facts
        except ClientAuthenticationError as exc:
            raise CredentialsError(f"Azure credentials rejected or missing for subscription "
                                   f"{self.subscription_id}: {_one_line(exc)}") from None
        except HttpResponseError as exc:
            status = getattr(exc, "status_code", None)
            if status in (401, 403):
                raise CredentialsError(f"ARM resource SKUs for {region}: HTTP {status}: {_one_line(exc)}") from None
            if status == 429:
                raise ThrottledError(f"ARM resource SKUs for {region}: throttled (HTTP 429)") from None
            raise PriceSourceError(f"ARM resource SKUs for {region}: HTTP {status}: {_one_line(exc)}") from None
        except AzureError as exc:
            raise PriceSourceError(f"ARM resource SKUs for {region} failed: {_one_line(exc)}") from None
        return out

    # -- Retail Prices API ---------------------------------------------------------------------------

    def _region_offers(self, client: httpx.Client, region: str, facts: Mapping[str, dict], as_of: str,
                       progress: Progress) -> list[dict]:
        """The offers of one region's Retail listing, dated `as_of`. Each page is classified as it arrives
        and then let go: across pages only the offers (and the counts) are held, not every item of the
        region (pages of non-GPU items, each up to MAX_PAGE_BYTES, would otherwise pile up until MAX_PAGES)."""
        params = {
            "api-version": API_VERSION,
            # between single quotes, as Microsoft's "Azure Retail Prices overview" (learn.microsoft.com/rest/api/
            # cost-management/retail-prices/azure-retail-prices) writes it: "Example calls filtered for compute
            # with currency in euro: ...?currencyCode='EUR'&$filter=serviceFamily eq 'Compute'"
            "currencyCode": f"'{self.currency}'",
            "$filter": f"serviceName eq 'Virtual Machines' and armRegionName eq '{region}'",
        }
        url: str | None = self.prices_url
        seen: set[str] = set()
        quotes: dict[str, OfferQuotes] = {}
        pages = returned = 0
        while url:
            self._deadline.check_pages(pages + 1, f"Azure Retail Prices for {region} (page {pages + 1})")
            page = self._page(client, url, params if pages == 0 else None)
            pages += 1
            # an item without its own currencyCode is in the page's: one not asked for fails the refresh
            billed = str(page.get("BillingCurrency") or self.currency).upper()
            if billed != self.currency:
                raise PriceSourceError(f"Azure Retail Prices API returned a page billed in {shortened(billed)} for {region}; "
                                       f"{self.currency} was asked for")
            returned += len(page["Items"])
            self._add_offers(region, page["Items"], facts, as_of, quotes)
            check_offer_count(len(quotes), f"Azure Retail Prices for {region}: the GPU offers")
            progress(f"azure {region}: price pages", pages, None)
            nxt = page.get("NextPageLink")
            del page   # before the next page is read: one page in memory at a time
            if nxt and not isinstance(nxt, str):
                raise PriceSourceError(f"Azure Retail Prices API: page {_shown_link(url)} has a NextPageLink that is not a URL")
            if nxt and nxt in seen:
                raise PriceSourceError(f"Azure Retail Prices API: NextPageLink loops back to {_shown_link(nxt)}")
            if nxt:
                seen.add(nxt)
                self._on_prices_host(nxt, f"page {_shown_link(url)} has a NextPageLink")   # requested as given: it names pages
            url = nxt or None
        self.returned[region] = returned
        return self._chosen_rows(quotes)

    def _chosen_rows(self, quotes: Mapping[str, OfferQuotes]) -> list[dict]:
        """The row of each offer whose best-ranked quotes agree; the others are counted. Counted once the whole
        listing is read, so the counts do not depend on the order of the quotes."""
        rows = []
        for offer in quotes.values():
            if offer.outranked + offer.repeats:
                self._skip("duplicate", offer.outranked + offer.repeats)
            if offer.conflicting:
                self._skip("conflicting_prices", offer.at_rank)
            else:
                rows.append(offer.row)
        return rows

    def _on_prices_host(self, link: str, what: str, current: str | None = None) -> httpx.URL:
        """`link` (relative to `current` when given) as a URL, when it keeps the scheme, host and port of
        the prices URL (FLEETPLAN_AZURE_PRICES_URL); PriceSourceError otherwise. A page or a redirect
        chooses where the next request goes: it must not send it to another host (a link-local metadata
        address, an internal service) or from https to plain http."""
        try:
            target = httpx.URL(current).join(link) if current is not None else httpx.URL(link)
        except httpx.InvalidURL as exc:
            raise PriceSourceError(f"Azure Retail Prices API: {what} that is not a URL: {_shown_link(repr(link))} "
                                   f"({_shown_link(str(exc))}); "
                                   f"nothing was saved") from None
        base = httpx.URL(self.prices_url)
        if (target.scheme, target.host, target.port) != (base.scheme, base.host, base.port):
            raise PriceSourceError(f"Azure Retail Prices API: {what} to {_shown_link(str(target))}, which is not on "
                                   f"{base.scheme}://{base.netloc.decode('ascii')} (the scheme, host and port of "
                                   f"the prices URL, {PRICES_URL_ENV}); refused; nothing was saved")
        return target

    def _page(self, client: httpx.Client, url: str, params: dict | None) -> dict:
        """One Retail Prices page as a dict with an `Items` list, retrying 429, 5xx, timeouts and
        connection errors within the deadline; PriceSourceError (or a subclass) otherwise."""
        # the URL requested: httpx adds `params` to the query the prices URL may have
        shown = _shown_link(url if params is None else str(httpx.URL(url).copy_merge_params(params)))
        for attempt in range(1, self.max_attempts + 1):
            self._deadline.check(f"Azure Retail Prices page {shown}")
            try:
                status, headers, body = self._get(client, url, params, shown)
            except httpx.TimeoutException:
                self._deadline.check(f"Azure Retail Prices page {shown}")
                failure = f"Azure Retail Prices API timed out on {shown}"
                if attempt == self.max_attempts:
                    raise PriceSourceError(f"{failure} ({attempt} attempts)") from None
                self._wait(attempt, None)
                continue
            except httpx.HTTPError as exc:
                if attempt == self.max_attempts:
                    raise PriceSourceError(f"Azure Retail Prices API unreachable ({_one_line(exc)}) "
                                           f"for {shown} ({attempt} attempts)") from None
                self._wait(attempt, None)
                continue
            if status == 429 or status >= 500:
                if attempt == self.max_attempts:
                    what = "throttled (HTTP 429)" if status == 429 else f"failing (HTTP {status})"
                    raise ThrottledError(f"Azure Retail Prices API kept {what} after {attempt} attempts: {shown}")
                self._wait(attempt, headers.get("Retry-After"))
                continue
            if status != 200:
                raise PriceSourceError(f"Azure Retail Prices API answered HTTP {status} for {shown}: "
                                       f"{_one_line(body.decode('utf-8', 'replace'))[:200]}")
            return _parse_page(body, shown)
        raise AssertionError("unreachable")  # pragma: no cover

    def _get(self, client: httpx.Client, url: str, params: dict | None, shown: str) -> tuple[int, httpx.Headers, bytes]:
        """(status, headers, body) of one GET within the deadline. A read timeout bounds each read; the deadline
        bounds the whole answer, its status line and headers too: a server dripping a byte at a time, or gzip
        blocks that decode to nothing, keeps every read short and would otherwise hold the refresh for hours
        (review, 2026-12-05). So the GET runs in a thread the caller stops waiting for at the deadline, its
        connection closed then (call_with_deadline)."""
        what = f"Azure Retail Prices page {shown}"
        open_now: list[httpx.Response] = []
        return call_with_deadline(self._deadline, what, lambda: self._read(client, url, params, shown, open_now),
                                  on_abandon=lambda: [response.close() for response in open_now])

    def _read(self, client: httpx.Client, url: str, params: dict | None, shown: str,
              open_now: list[httpx.Response]) -> tuple[int, httpx.Headers, bytes]:
        """`_get`'s GET, read chunk by chunk: MAX_PAGE_BYTES bounds the body, the deadline is checked at each
        chunk, and the response being read is in `open_now` (for `_get` to close). Redirects are followed
        here, at most MAX_REDIRECTS, each only on the prices URL's host."""
        for _ in range(MAX_REDIRECTS + 1):
            remaining = max(self._deadline.remaining(), 0.001)
            timeout = httpx.Timeout(min(READ_TIMEOUT_S, remaining), connect=min(CONNECT_TIMEOUT_S, remaining))
            with client.stream("GET", url, params=params, timeout=timeout, follow_redirects=False) as response:
                open_now[:] = [response]
                if response.is_redirect:
                    url = str(self._on_prices_host(response.headers["location"],   # may be relative (RFC 9110)
                                                   f"{shown} redirects (HTTP {response.status_code})",
                                                   current=str(response.url)))
                    params = None   # the Location carries its own query
                    continue
                codings = [c.strip().lower() for c in response.headers.get_list("content-encoding", split_commas=True)
                           if c.strip()]
                if len(codings) > 1 or not set(codings) <= PAGE_CODINGS:
                    raise PriceSourceError(f"Azure Retail Prices API: page {shown} has Content-Encoding "
                                           f"{', '.join(codings)[:100]!r}; at most one of "
                                           f"{', '.join(sorted(PAGE_CODINGS))} is read; nothing was saved")
                chunks, size = [], 0
                for chunk in response.iter_bytes():   # decoded: gzip undone, so `size` is what memory holds
                    size += len(chunk)
                    if size > MAX_PAGE_BYTES:
                        raise PriceSourceError(f"Azure Retail Prices API: page {shown} is larger than "
                                               f"{MAX_PAGE_BYTES // 2**20} MB (a real page is 1-3 MB); the listing "
                                               f"cannot be trusted; nothing was saved")
                    chunks.append(chunk)
                    self._deadline.check(f"Azure Retail Prices page {shown}")
                return response.status_code, response.headers, b"".join(chunks)
        raise PriceSourceError(f"Azure Retail Prices API: {shown} redirected more than {MAX_REDIRECTS} times; "
                               f"nothing was saved")

    def _wait(self, attempt: int, retry_after: str | None) -> None:
        """Sleep before the next attempt, never past the deadline."""
        self.sleep(min(self._backoff(attempt, retry_after), self._deadline.remaining()))

    @staticmethod
    def _backoff(attempt: int, retry_after: str | None) -> float:
        """Seconds to wait before the next attempt: Retry-After (seconds or HTTP date) when given, else
        1, 2, 4 … s; never more than MAX_RETRY_AFTER_S."""
        delay = None
        if retry_after:
            text = retry_after.strip()
            try:
                delay = float(text)
            except ValueError:
                try:
                    when = email.utils.parsedate_to_datetime(text)
                    delay = (when - datetime.now(timezone.utc)).total_seconds()
                except (TypeError, ValueError):
                    delay = None
        if delay is None or math.isnan(delay):
            delay = 2.0 ** (attempt - 1)
        return min(max(delay, 0.0), MAX_RETRY_AFTER_S)

    # -- offers --------------------------------------------------------------------------------------

    def _skip(self, reason: str, n: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + n

    def _lookup(self, facts: Mapping[str, dict], arm_sku_name: str) -> tuple[dict | None, str]:
        """Facts for a Retail armSkuName, and a note when the key differs from the ResourceSku name."""
        raw = arm_sku_name or ""
        key = _sku_key(raw)
        found = facts.get(key) or facts.get(key + "_v1")
        if found is not None and found["sku"] != raw:
            return found, f"Retail Prices armSkuName is '{raw}'"
        return found, ""

    def _kept_size(self, facts: Mapping[str, dict], arm_sku_name: str) -> tuple[dict | None, str, str]:
        """(facts, key note, "") of the size a Retail armSkuName names when its offers are kept, or (None, "",
        why they are skipped): a retired size, a non-GPU one, one not named as a VM size is."""
        if is_retired_azure_size(arm_sku_name):   # still quoted, no longer rentable (pricing_adapters/retired.py)
            return None, "", "retired_size"
        size, key_note = self._lookup(facts, arm_sku_name)
        if size is not None:
            return size, key_note, ""
        if not GPU_SERIES.match(arm_sku_name.strip()):
            return None, "", "non_gpu"
        if not VM_SIZE_NAME.fullmatch(arm_sku_name.strip()):
            return None, "", "malformed_size_name"
        return _unknown_size_facts(arm_sku_name.strip()), "", ""

    def _add_offers(self, region: str, items: list[Item], facts: Mapping[str, dict], as_of: str,
                    quotes: dict[str, OfferQuotes]) -> None:
        """Add the offers of some of a region's items, dated `as_of` (the fetch date), to `quotes` (offer_id ->
        its quotes so far); skipped items are counted."""
        for item in items:
            if not isinstance(item, Mapping):   # a broken page, not an item to skip: the listing is unreliable
                raise PriceSourceError(f"Azure Retail Prices API: an item for {region} is not an object: "
                                       f"{_one_line(item)[:80]!r}; nothing was saved")
            item_region = str(item.get("armRegionName") or "").strip().lower()
            if not item_region:   # whose region is unknown: it was stored under the region asked for
                self._skip("no_region")
                continue
            if item_region != region:   # asked for by $filter; never stored under another region
                self._skip("wrong_region")
                continue
            offers, skipped, priced_out, with_item = classify_item_options(item)
            for reason in skipped:
                self._skip(reason)
            if not offers and not priced_out and not with_item:
                continue
            arm_sku = str(item.get("armSkuName") or "")
            size, key_note, dropped = self._kept_size(facts, arm_sku)
            if size is not None:   # skipped for its price, an offer of a size kept: refresh names it if in force
                self.implausible_offers.extend(offer_id(PROVIDER, region, size["sku"], o) for o in priced_out)
                if with_item:   # the item's own option is the first of the options skipped for its price, or with it
                    own = offer_id(PROVIDER, region, size["sku"], (priced_out or with_item)[0])
                    self.dropped_with_item_offers.update(
                        (offer_id(PROVIDER, region, size["sku"], o), own) for o in with_item)
            if not offers:
                continue
            if size is None:
                self._skip(dropped, len(offers))
                continue
            currency = str(item.get("currencyCode") or self.currency).upper()
            if currency != self.currency:
                raise PriceSourceError(f"Azure Retail Prices API returned {shortened(currency)} prices for "
                                       f"{shortened(arm_sku)} in {region}; {self.currency} was asked for")
            started = _effective_start(item.get("effectiveStartDate"))
            if started is False:   # not a date: it cannot rank the quote against others (a string "zzzz" won)
                self._skip("bad_effective_date", len(offers))
                continue
            if started is not None and started.isoformat() > as_of:   # a price not yet in force (2099 won)
                self._skip("not_yet_effective", len(offers))
                continue
            # the date the price took effect, often years back: when it was read is the fetch date
            date_note = f"effectiveStartDate {started.isoformat()}" if started else ""
            source = f"{PRICES_SOURCE} ({url_shown(self.prices_url)}, api-version {API_VERSION}); GPU facts: {size['origin']}"
            for option, hourly, price_note in offers:
                oid = offer_id(PROVIDER, region, size["sku"], option)
                notes = [*size["notes"], key_note, price_note, date_note]
                row = {
                    "offer_id": oid, "provider": PROVIDER, "region": region, "sku": size["sku"],
                    "purchase_option": option, "gpu": size["gpu"], "gpu_known": size["gpu_known"],
                    "accelerator_name": size["accelerator_name"], "gpu_count": size["gpu_count"],
                    "gpu_memory_gb": size["gpu_memory_gb"], "gpu_memory_mib": math.nan,
                    "vcpus": size["vcpus"], "memory_gb": size["memory_gb"],
                    "hourly_price": float(hourly), "upfront_price": 0.0, "currency": currency,
                    "term_months": TERM_MONTHS[option], "zone": "", "as_of": as_of, "source": source,
                    "note": " | ".join(n for n in notes if n),
                }
                # Preference among quotes of one offer: primary meter, then the newest effectiveStartDate.
                rank = (_primary_meter(item), started or date.min)
                if oid in quotes:
                    quotes[oid].add(rank, row)
                else:
                    quotes[oid] = OfferQuotes(rank, row)


class OfferQuotes:
    """The quotes of one offer in a region's listing: the best rank seen (primary meter, then the newest
    effectiveStartDate), the row of its first quote, how many quotes share that rank and whether they all give its
    price. Quotes of the same rank at different prices leave nothing to tell the real one (the AWS adapter drops
    such an offer too, docs/reliability.md): the first on the page won, and 4.5 USD/h could stand for the
    NC24ads A100 v4's 3.673 (Azure adapter audit, 2026-12-06)."""

    def __init__(self, rank: tuple, row: dict):
        self.rank, self.row = rank, row
        self.at_rank = 1          # quotes of the best rank
        self.conflicting = False  # whether two of them differ in price
        self.outranked = 0        # quotes of a lower rank, each a `duplicate`

    @property
    def repeats(self) -> int:
        """Quotes of the best rank beside the one kept, each a `duplicate`, when they all agree."""
        return 0 if self.conflicting else self.at_rank - 1

    def add(self, rank: tuple, row: dict) -> None:
        if rank < self.rank:
            self.outranked += 1
        elif rank > self.rank:
            self.outranked += self.at_rank
            self.rank, self.row, self.at_rank, self.conflicting = rank, row, 1, False
        else:
            self.at_rank += 1
            self.conflicting = self.conflicting or row["hourly_price"] != self.row["hourly_price"]


def _parse_page(body: bytes, shown: str) -> dict:
    """A Retail Prices page from its body; PriceSourceError when it is not JSON with an `Items` list."""
    try:
        page = json.loads(body)
    except (ValueError, RecursionError):   # RecursionError: arrays nested thousands deep
        raise PriceSourceError(f"Azure Retail Prices API: page {shown} is not valid JSON") from None
    if not isinstance(page, dict) or not isinstance(page.get("Items"), list):
        raise PriceSourceError(f"Azure Retail Prices API: page {shown} has no 'Items' list")
    return page


def _one_line(exc: Any) -> str:
    """An exception's words (or an answer's body) on one line, any URL in them without credentials (`urls_shown`)."""
    return urls_shown(" ".join(str(exc).split()))
