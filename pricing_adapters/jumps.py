"""A refresh held against the prices it would replace, and against itself: prices that moved by orders of
magnitude, or a reservation or spot price far above or below the same instance's on-demand price, are a broken
feed (a wrong unit, currency or scale), not a repricing, and are refused before they are saved; so is a refresh
that lacks most of the offers in force in its regions (a partial answer, not instance types retired), and so is
one whose hardware facts of an instance type (its GPU, their count and memory, its vCPUs and RAM) differ from those in
force or packaged (a broken feed or parser: a price per GPU-hour is the instance's price divided by its GPU count)."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pricing_adapters import registry
from pricing_adapters.errors import StoreError
from pricing_adapters.retired import is_retired_azure_size
from pricing_adapters.schema import effective_hourly
from pricing_adapters.shown import counted, series, shortened
from pricing_adapters.store import PriceStore, regions_named

# Real repricings move cloud GPU prices by tens of percent: the largest in the reference data is AWS's cut of
# p5.48xlarge from 98.32 to 55.04 USD/h (-44 %, June 2025). Spot quotes swing more, but within what the cloud
# allows, from about a tenth of on-demand to on-demand: us-east-1's lowest p4d.24xlarge spot quote was 2.47
# USD/h against 21.96 on demand (8.9×, tests/fixtures/reference/aws_spot_prices_sample.csv). A broken feed
# moves by its fault's factor: 100 (a price per 100 hours), 730 (per month), 8,760 (a year's total read as
# hourly), about 150 (yen read as dollars), a million (the hostile-input audit's feed).
MAX_REPRICING_FACTOR = 10.0
# A region's prices jumped when the median ratio of its matched offers lies beyond MAX_REPRICING_FACTOR (the
# feed is broken as a whole; a few spot quotes swinging cannot move the median), or when this share of them
# each moved beyond it (a part is broken: reservations read as term totals are a third of Azure's offers,
# which the median hides). A repricing moves no on-demand price or term that far, but one spot quote may move
# beyond it, up to about 16× (MAX_OFFER_FACTOR): in a region of a few offers (11 of the 50 packaged Azure
# regions hold 4 or fewer) that one quote is a quarter of them, and alone it is the median. So both rules need
# at least MIN_JUMPED offers beyond MAX_REPRICING_FACTOR; one offer alone is held to MAX_OFFER_FACTOR.
JUMPED_SHARE = 0.25
MIN_JUMPED = 2
# One offer alone jumped when it moved beyond this (the median and the share miss a single broken price: one
# extra zone quote at 0.0002 USD/h became p4d's spot price, 2.4655 before). The most a real offer moves is a
# spot swing under a repricing: from a tenth of on-demand to on-demand (8.9× above; Azure's lowest spot quote
# in the reference data is 0.11 of on-demand, 9.1×) while on-demand moves by the largest cut (98.32 / 55.04 =
# 1.79×), about 16×. The smallest fault moves a price 100× (a price per 100 hours). 50 lies between, 3× above
# the one and 2× below the other: a limit of 100 itself would let a fault of exactly 100 through.
MAX_OFFER_FACTOR = 50.0
# Within one refresh, an offer is held against the same instance's on-demand price: a check that needs no
# earlier prices (the packaged snapshot holds no reservation, so a first refresh compared them with nothing and
# saved the audit's reservations at 100× their price: p4d's 1-year term at 1,325 USD/h against 21.96 on demand).
# No reservation or savings plan of the recorded API answers costs more an hour than on demand: the dearest is
# 0.74 of it (p4d's 1-year No Upfront convertible term, 16.15 against 21.957642 USD/h, tests/fixtures/aws;
# Azure's, a 1-year savings plan, 0.73). Were on-demand cut by the data's largest cut (-44 %) before the terms
# are, that term would stand at 1.31×: 1.5 lets such a real price list through, while the smallest fault
# (100×) puts even the cheapest term of the data (0.36 of on-demand) at 36×. A term dearer than on demand that
# slips through costs little: a plan that may rent on demand never takes it.
COMMITMENT_OPTIONS = ("reserved_1y", "reserved_3y", "savings_plan_1y", "savings_plan_3y")
MAX_COMMITMENT_TO_ON_DEMAND = 1.5
# Spot (and Azure's low priority) is capped at on-demand: none of the 221 spot quotes of the reference data
# lies above it, 15 equal it (tests/fixtures/reference/*spot* hold 21 of them, 5 equal). A quote read just
# after an on-demand cut may still stand at the old cap: the largest cut of the data, p5's 98.32 → 55.04, would
# put it at 1.79× the new price. 2× allows that, and the smallest fault (100×) puts even the cheapest spot quote
# (0.11 of on-demand) at 11×.
MAX_SPOT_TO_ON_DEMAND = 2.0
# Nor does any cloud sell an hour for next to nothing against its on-demand price: the deepest discount of the
# data is spot at 0.11 of on-demand (the commitments' at 0.36). A twentieth lies 2× below it, and the smallest
# fault (1/100) puts even an offer at on-demand at 0.01: a savings plan or a new instance's spot quote at
# 1/1,000, which no earlier price could give away on a first refresh, is refused too.
MIN_TO_ON_DEMAND = 0.05
# the purchase options held against on-demand, each as a message names it
KINDS = {"reserved_1y": "reservation", "reserved_3y": "reservation", "savings_plan_1y": "savings plan",
         "savings_plan_3y": "savings plan", "spot": "spot offer", "low_priority": "low-priority offer"}
REGIONS_NAMED = 5   # of the regions' jumps and contradictions, in a message
# A refresh replaces every offer of its provider in each region it covers (the store keeps, per provider and
# region, the newest snapshot in force; plans read only that one there), so an offer in force there that the
# refresh lacks is gone from plans. Clouds retire instance types a few at a time and keep quoting them for a
# while (Azure's Retail Prices data still priced NCv3 in June 2026, retired in September 2025); whole series
# go at once (NVv4: 8 sizes, pricing_adapters/data/azure_retired_sizes.csv), but a series is a small part of a
# region, and the retired sizes that table names are left out of the count, as the adapter drops them. A partial
# answer loses most of what it misses: only the API's first pages, one region's listing cut short, a filter
# that drops every spot price. So offers vanished when, of the offers in force in the refresh's regions, more
# than VANISHED_SHARE are missing from it, in all, in one of its regions or in one purchase option, and those
# missing span at least MIN_VANISHED_SKUS instance types: a region of two sizes that loses both, or a type
# retired with its 14 offers (on demand, 12 AWS reservations, spot), is not enough. But a purchase option gone
# whole from a region (spot, a reservation term) is the mark of a parser or API change (a filter, a renamed field)
# whatever its size, as one or two instance types may be all that have it there; so it is missing offers too,
# where the refresh still holds an instance type that had it (under another option): were those types all
# gone, the option went with them, as when the one type with spot in a region is retired.
VANISHED_SHARE = 0.5
MIN_VANISHED_SKUS = 3
MISSING_NAMED = 5   # of the missing offers, in a message
# An instance type's hardware does not change under its name: a new GPU, count or memory is sold as a new size
# (NC A100 v4 is 1 A100 in NC24ads, 2 in NC48ads, 4 in NC96ads, and always was). So a refresh whose GPU, GPU count
# or GPU memory of a type differs from what the prices in force or the packaged facts say is a broken feed or
# parser, not new hardware, and it is the most harmful fault a feed can have: every price per GPU-hour is the
# instance's price divided by its count, which no price check sees (the price-refresh audit: an A100 VM said to hold
# 8 GPUs, not 1, was saved and planned at 0.459 USD per GPU-hour instead of 3.673, a fleet at 335 USD, not 2,681). A fact
# unknown on either side (an empty count or memory) is no change: plans never use a type of unknown count. Its vCPUs
# and RAM are held too, where both sides give them (the offers table's vcpus and memory_gb; Azure's size table lacks
# the RAM of about half its sizes): no cost reads them, but tables and a user choosing a type do, and they do not
# change under the name either (an NC24ads A100 v4 is 24 vCPUs and 220 GB, whatever ARM says one day).
# Both sides give RAM in the same unit, GiB (the column says GB, as Azure's capability does): AWS's
# DescribeInstanceTypes MiB / 1,024 against the packaged snapshot's ec2instances.info GiB (p4d.24xlarge:
# 1,179,648 / 1,024 = 1,152 both), ARM's MemoryGB against the size table's, taken from the same capability (Karpenter's
# recorded ARM listings, SkyPilot's Azure catalog) where it has one;
# so they are held to a part in a million, like the GPU facts, and a first refresh of the recorded answers
# is no change (tests/pricing_adapters/test_first_refresh_hardware.py), while RAM read in decimal GB (7.4 %
# more) would be one.
HARDWARE_FACTS = ("gpu_count", "gpu", "gpu_memory_gb", "vcpus", "memory_gb")   # in the order a message names them
HARDWARE_NAMED = 5   # of the changed facts, in a message
# The facts the project ships for each provider's instance types, checked for a type the store does not hold yet
# (one it holds was checked, or its change accepted, when saved: held against the packaged facts again, an accepted
# change needed --accept-hardware-changes on every refresh, and a cron job that passes it let a later wrong count
# through with a warning): Azure's packaged size table (pricing_adapters/data/azure_gpu_sizes.csv, whose counts
# azure_gpu_counts.csv corrects; the adapter falls back on it), else the packaged snapshot's facts, the same in each
# of its regions (pricing_adapters/snapshots/aws.csv).
PACKAGED_FACTS = {registry.AZURE: "the packaged size table"}
PACKAGED_SNAPSHOT = "the packaged snapshot"   # what `earlier_prices` calls the prices in force before a refresh
# the end of a live offer's source: where its GPU facts came from (Azure: ARM's resource SKUs or the size table, per
# size; AWS: EC2 DescribeInstanceTypes), which a hardware change names rather than the adapter's whole source
FACTS_FROM = "GPU facts: "
# what a HardwareChange is: a fact this refresh changes (refused unless accepted); one where the store's facts disagree
# with the packaged ones and this refresh gives the packaged one (taken, said), or the store's (saved, said)
CHANGED, CORRECTED, CONTRADICTED = "changed", "corrected", "contradicted"


@dataclass(frozen=True)
class PriceJump:
    """How the prices of one provider and region moved against those in force there."""

    provider: str
    region: str
    compared_with: str      # "snapshot #3", "the packaged snapshot"
    matched: int            # offers both hold, priced in the same currency
    jumped: int             # of those, how many moved beyond MAX_REPRICING_FACTOR either way
    far: int                # … and how many beyond MAX_OFFER_FACTOR
    whole_region: bool      # the median or JUMPED_SHARE of the offers, MIN_JUMPED or more, jumped (else only `far` did)
    median_ratio: float     # new / old effective hourly price, the median over the matched offers
    example_offer: str      # whole_region: a jumped offer whose ratio is nearest the median; else the farthest
    example_old: float      # its effective hourly price in force, in `currency`
    example_new: float      # … and in this refresh
    currency: str

    def describe(self) -> str:
        example = (f"{self.example_offer} {amount(self.example_old)} → {amount(self.example_new)} "
                   f"{self.currency}/h")
        if not self.whole_region:
            return (f"{self.provider} {self.region}: {self.far} of the {self.matched} offers also in "
                    f"{self.compared_with} moved beyond ×{MAX_OFFER_FACTOR:g} or ×1/{MAX_OFFER_FACTOR:g}, more than "
                    f"any repricing or spot swing{', e.g.' if self.far > 1 else ':'} {example} "
                    f"({factor(self.example_new / self.example_old)})")
        return (f"{self.provider} {self.region}: the {self.matched} offers also in {self.compared_with} moved by a "
                f"median ratio of {factor(self.median_ratio)} ({self.jumped} of {self.matched} beyond "
                f"×{MAX_REPRICING_FACTOR:g} or ×1/{MAX_REPRICING_FACTOR:g}), e.g. {example}")


def earlier_prices(store: PriceStore, provider: str, offers: pd.DataFrame,
                   stored: dict[str, tuple[pd.DataFrame, str]] | None = None) -> dict[str, tuple[pd.DataFrame, str]]:
    """For each region of `offers` (a refresh of `provider`, typed): (the offers in force there, what they are:
    "snapshot #3", "the packaged snapshot"). The store's snapshot in force (`stored_prices`, read unless given),
    else the packaged snapshot that plans use until a refresh."""
    stored = stored_prices(store, provider) if stored is None else stored
    packaged = _packaged(provider)
    return {region: stored.get(region) or (packaged[packaged["region"] == region], PACKAGED_SNAPSHOT)
            for region in dict.fromkeys(offers["region"])}


def stored_prices(store: PriceStore, provider: str) -> dict[str, tuple[pd.DataFrame, str]]:
    """For each region of `provider` the store holds: (its offers in force there, "snapshot #3")."""
    in_force_offers, in_force = store.offers_in_force([provider])
    return {region: (in_force_offers[in_force_offers["region"] == region], f"snapshot #{info.id}")
            for (_, region), info in in_force.items()}


def price_jumps(earlier: dict[str, tuple[pd.DataFrame, str]], provider: str, offers: pd.DataFrame,
                recent: dict[str, tuple[pd.DataFrame, str]] | None = None) -> list[PriceJump]:
    """The regions of `offers` (a refresh of `provider`, typed) whose prices jumped against `earlier`
    (`earlier_prices`), or, for an offer whose price moved in this refresh, against its oldest price in `recent`
    (`recent_prices`) where that is farther: a move ×9 a night is refused on its second night (×81). An offer whose
    price did not move is not held against `recent` again: its move was refused or accepted when it happened."""
    jumps = []
    for region, (before, compared_with) in earlier.items():
        ratios, compared_with = _held_ratios(before, compared_with, offers[offers["region"] == region],
                                             (recent or {}).get(region), counted_again=True)
        jump = region_jump(ratios)
        if jump is not None:
            jumps.append(PriceJump(provider, region, compared_with, **jump))
    return jumps


def _held_ratios(before: pd.DataFrame, compared_with: str, now: pd.DataFrame, recent: tuple[pd.DataFrame, str] | None,
                 counted_again: bool = False) -> tuple[pd.DataFrame, str]:
    """(`matched_ratios` of a region's refreshed offers `now` against `before`, the prices in force, each offer moved in
    this refresh held against its oldest price in `recent` (`recent_prices`' entry for the region) where that moved
    farther (_farther); what they were compared with, in words, `counted_again`: with how many were held so)."""
    ratios = matched_ratios(before, now)
    past, past_label = recent if recent is not None else (None, compared_with)
    if past is not None and past_label != compared_with and not ratios.empty:
        ratios, compounded = _farther(ratios, matched_ratios(past, now))
        if compounded:
            again = f"for the {counted(compounded, 'offer')} moved again" if counted_again else "moved again"
            compared_with = f"{compared_with} or, {again}, {past_label}"
    return ratios, compared_with


def _farther(ratios: pd.DataFrame, past: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """(`ratios` (`matched_ratios` against the prices in force) with each offer that moved in this refresh held
    against its price in `past` (`matched_ratios` against older prices) where that moved farther, how many were)."""
    both = ratios.merge(past, on=["offer_id", "currency"], how="left", suffixes=("", "_past"))
    moved_now = np.abs(np.log(both["ratio"].to_numpy())) > SAME_PRICE
    farther = moved_now & (np.abs(np.log(both["ratio_past"].to_numpy(dtype=float))) > np.abs(np.log(both["ratio"])))
    farther = np.asarray(farther, dtype=bool) & np.isfinite(both["ratio_past"].to_numpy(dtype=float))
    for column in ("old_per_hour", "ratio"):
        both[column] = np.where(farther, both[f"{column}_past"], both[column])
    return both[list(ratios.columns)], int(farther.sum())


def _packaged(provider: str) -> pd.DataFrame:
    """The packaged offers of `provider`; none for a provider without a packaged snapshot."""
    from pricing_adapters.snapshot import load_snapshot

    if not registry.get(provider).snapshot_file:
        return pd.DataFrame(columns=["offer_id", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb",
                                     "hourly_price", "upfront_price", "term_months", "currency", "source"])
    return load_snapshot([provider])


def matched_ratios(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """The offers in both tables (same offer id, which holds provider, region, sku and purchase option) priced
    in the same currency: offer_id, currency, old_per_hour, new_per_hour (effective hourly prices: a
    reservation's upfront spread over its term) and ratio (new / old), in offer id order."""
    both = _per_hour(old).merge(_per_hour(new), on=["offer_id", "currency"], suffixes=("_old", "_new"))
    both = both.rename(columns={"per_hour_old": "old_per_hour", "per_hour_new": "new_per_hour"})
    # a ratio needs two prices: on-prem purchases cost nothing an hour, and unreadable rows fail later
    usable = np.isfinite(both["old_per_hour"]) & np.isfinite(both["new_per_hour"])
    both = both[usable & (both["old_per_hour"] > 0) & (both["new_per_hour"] > 0)]
    both = both.assign(ratio=both["new_per_hour"] / both["old_per_hour"])
    return both.sort_values("offer_id").reset_index(drop=True)


def _per_hour(df: pd.DataFrame) -> pd.DataFrame:
    """offer_id, currency and per_hour (the effective hourly price: a reservation's upfront spread over its
    term) of each offer of `df`, in its order."""
    per_hour = effective_hourly(df["hourly_price"].astype(float), df["upfront_price"].astype(float), df["term_months"])
    return pd.DataFrame({"offer_id": df["offer_id"].astype(object).to_numpy(),
                         "currency": df["currency"].astype(object).to_numpy(),
                         "per_hour": np.asarray(per_hour, dtype=float)})


def region_jump(ratios: pd.DataFrame) -> dict | None:
    """The PriceJump fields (but provider, region and compared_with) of one region's `matched_ratios`, or None
    when its prices moved as a repricing can."""
    if ratios.empty:
        return None
    logs = np.log(ratios["ratio"].to_numpy())
    median_log = float(np.median(logs))   # of the logarithms: ×10 and ×1/10 are equally far from ×1
    limit = math.log(MAX_REPRICING_FACTOR)
    jumped = np.abs(logs) > limit
    far = np.abs(logs) > math.log(MAX_OFFER_FACTOR)
    whole_region = (jumped.sum() >= MIN_JUMPED
                    and (abs(median_log) > limit or jumped.sum() >= JUMPED_SHARE * len(logs)))
    if not whole_region and not far.any():
        return None
    # the example: of a whole region, a jumped offer whose move is nearest the median's; else the farthest offer;
    # among ties (to a part in a billion: each division rounds its own way) an on-demand price, the one a reader
    # knows, then the first in offer id order
    distance = (np.where(jumped, np.round(np.abs(logs - median_log), 9), np.inf) if whole_region
                else np.where(far, -np.round(np.abs(logs), 9), np.inf))
    on_demand = ratios["offer_id"].str.endswith(":on_demand").to_numpy()
    example = ratios.iloc[int(np.lexsort((np.arange(len(ratios)), ~on_demand, distance))[0])]
    return {"matched": len(ratios), "jumped": int(jumped.sum()), "far": int(far.sum()),
            "whole_region": bool(whole_region), "median_ratio": math.exp(median_log),
            "example_offer": example["offer_id"], "example_old": float(example["old_per_hour"]),
            "example_new": float(example["new_per_hour"]), "currency": example["currency"]}


@dataclass(frozen=True)
class AgainstOnDemand:
    """The offers of one provider, region and kind (reservation, savings plan, spot, low priority) that cost more
    an hour than `limit` × the same instance on demand in the same refresh, or less than `limit` × it."""

    provider: str
    region: str
    kind: str               # "reservation", "savings plan", "spot offer", "low-priority offer"
    above: bool             # dearer than `limit` × on demand, else cheaper
    limit: float            # MAX_COMMITMENT_TO_ON_DEMAND, MAX_SPOT_TO_ON_DEMAND or MIN_TO_ON_DEMAND
    count: int
    example_offer: str      # the farthest from its on-demand price
    example_per_hour: float  # its effective hourly price (a reservation's upfront spread over its term)
    example_upfront: bool   # whether it has an upfront price, spread into `example_per_hour`
    on_demand_per_hour: float
    currency: str

    def describe(self) -> str:
        kinds = counted(self.count, self.kind)
        if self.above:
            than = f"more an hour than {self.limit:g}× the same instance"
        else:
            than = f"less an hour than 1/{1 / self.limit:g} of the same instance"
        spread = ", upfront spread over the term" if self.example_upfront else ""
        return (f"{self.provider} {self.region}: {kinds} cost{'s' if self.count == 1 else ''} {than} on "
                f"demand in this refresh, e.g. {self.example_offer} {amount(self.example_per_hour)} {self.currency}/h"
                f"{spread}, against {amount(self.on_demand_per_hour)} on demand "
                f"({factor(self.example_per_hour / self.on_demand_per_hour)})")


def against_on_demand(offers: pd.DataFrame) -> list[AgainstOnDemand]:
    """The reservations and savings plans of `offers` (typed) dearer an hour than MAX_COMMITMENT_TO_ON_DEMAND ×
    the on-demand price of the same provider, region, sku and currency in `offers`, the spot and low-priority
    offers dearer than MAX_SPOT_TO_ON_DEMAND × it, and any of them cheaper than MIN_TO_ON_DEMAND × it; by
    provider, region, kind and side, in order of appearance."""
    priced = _per_hour(offers).assign(provider=offers["provider"].astype(object).to_numpy(),
                                      region=offers["region"].astype(object).to_numpy(),
                                      sku=offers["sku"].astype(object).to_numpy(),
                                      option=offers["purchase_option"].astype(object).to_numpy(),
                                      upfront=offers["upfront_price"].astype(float).to_numpy())
    key = ["provider", "region", "sku", "currency"]
    # one on-demand offer an instance (its offer id is unique): the max only indexes it
    on_demand = priced[priced["option"] == "on_demand"].groupby(key, sort=False, as_index=False)["per_hour"].max()
    held = priced[priced["option"].isin(KINDS)].merge(on_demand.rename(columns={"per_hour": "on_demand"}), on=key)
    ceiling = np.where(held["option"].isin(COMMITMENT_OPTIONS), MAX_COMMITMENT_TO_ON_DEMAND, MAX_SPOT_TO_ON_DEMAND)
    ratio = held["per_hour"] / held["on_demand"]
    held = held.assign(ratio=ratio, above=ratio > ceiling, limit=np.where(ratio > ceiling, ceiling, MIN_TO_ON_DEMAND),
                       kind=held["option"].map(KINDS))
    # a price that cannot be read is named by the store's validation, after this
    readable = np.isfinite(held["per_hour"]) & np.isfinite(held["on_demand"]) & (held["on_demand"] > 0)
    off = held[readable & (held["above"] | (held["ratio"] < MIN_TO_ON_DEMAND))]
    found = []
    for (provider, region, kind, above), group in off.groupby(["provider", "region", "kind", "above"], sort=False):
        example = group.sort_values(["ratio", "offer_id"], ascending=[not above, True]).iloc[0]
        found.append(AgainstOnDemand(provider, region, kind, bool(above), float(example["limit"]), len(group),
                                     example["offer_id"], float(example["per_hour"]), bool(example["upfront"] > 0),
                                     float(example["on_demand"]), example["currency"]))
    return found


def uncompared_commitments(earlier: dict[str, tuple[pd.DataFrame, str]], offers: pd.DataFrame) -> str:
    """What the reservations and savings plans of `offers` (typed) that `earlier` (`earlier_prices`) does not
    price in the same currency are: "reservations", "savings plans", "reservations and savings plans", or ""
    when there is none. On a first refresh they are all of them: the packaged snapshot holds none."""
    known = set()
    for before, _ in earlier.values():
        known.update(zip(before["offer_id"].astype(object), before["currency"].astype(object)))
    new = offers[offers["purchase_option"].isin(COMMITMENT_OPTIONS)]
    kinds = {f"{KINDS[option]}s" for offer, currency, option in
             zip(new["offer_id"].astype(object), new["currency"].astype(object), new["purchase_option"].astype(object))
             if (offer, currency) not in known}
    return " and ".join(sorted(kinds))


@dataclass(frozen=True)
class MissingOffers:
    """The offers in force in the regions of a refresh of one provider that the refresh lacks, where more than
    VANISHED_SHARE of them are missing (in all, in a region or in a purchase option) across MIN_VANISHED_SKUS
    instance types or more, or where a purchase option is gone whole from a region whose instance types that
    had it are still offered there."""

    provider: str
    regions: tuple[str, ...]     # the refresh's
    compared_with: str           # "snapshot #3", "the packaged snapshot", "snapshot #3 and the packaged snapshot"
    in_force: int                # offers in force in `regions` (retired sizes left out)
    fetched: int                 # offers of the refresh
    missing: int                 # of `in_force`, how many the refresh lacks
    beyond: tuple[tuple[str, int, int, int], ...]   # (of what, missing, in force, instance types missing) past the rule
    examples: tuple[str, ...]    # offer ids (provider, region, sku, purchase option) of the missing, MISSING_NAMED
    more: int                    # missing offers beyond `examples`, in the groups of `beyond` and `vanished`
    # (purchase option, regions, offers missing, instance types) gone whole from those regions, not said by `beyond`
    vanished: tuple[tuple[str, tuple[str, ...], int, int], ...] = ()
    # of `missing`, how many the refresh had but skipped as implausible prices (the adapter's `implausible_offers`):
    # a feed at a wrong scale, not a partial answer
    implausible: int = 0
    # … and how many it had but dropped with their item, whose own price was skipped (Azure's savings plans of an item
    # priced at zero or implausibly, whatever their own rates, and the item's own offer priced at zero: the adapter's
    # `dropped_with_item_offers`)
    dropped_with_item: int = 0
    # the offer ids of those items' own offers (on demand, spot), sorted, where the adapter names them
    dropped_items: tuple[str, ...] = ()

    def describe(self) -> str:
        said = []
        if self.beyond:
            said.append("more than half of " + ", ".join(f"{what} ({missing:,} of {in_force:,}, "
                                                         f"{counted(types, 'instance type')})"
                                                         for what, missing, in_force, types in self.beyond))
        if self.vanished:
            gone = ", ".join(f"the {counted(missing, option + ' offer')} in {regions_named(regions)} "
                             f"({counted(types, 'instance type')})" for option, regions, missing, types in self.vanished)
            one = len(self.vanished) == 1
            where = ("a region that still offers" if len({r for _, regions, _, _ in self.vanished for r in regions}) == 1
                     else "regions that still offer")
            said.append(f"{'a purchase option' if one else 'purchase options'} gone whole from {where} instance types "
                        f"that had {'it' if one else 'them'}: {gone}")
        more = f" and {self.more:,} more" if self.more else ""
        return (f"{self.provider} {regions_named(self.regions)}: {self.missing:,} of the {self.in_force:,} offers in "
                f"force there ({self.compared_with}) are missing from this refresh, which holds "
                f"{counted(self.fetched, 'offer')}: {'; and '.join(said)}; e.g. {', '.join(self.examples)}{more}")


def missing_offers(earlier: dict[str, tuple[pd.DataFrame, str]], provider: str, offers: pd.DataFrame,
                   implausible: Collection[str] = (),
                   dropped_with_item: Collection[str] | Mapping[str, str] = ()) -> MissingOffers | None:
    """The offers of `earlier` (`earlier_prices`: in force in the regions of `offers`, a refresh of `provider`)
    that `offers` lacks, when they are more than VANISHED_SHARE of those in force in all, in a region or in a
    purchase option, across MIN_VANISHED_SKUS instance types or more, or when they are every offer of a purchase
    option in a region where `offers` still holds one of the instance types that had it; else None (nothing, or
    a few retired). `implausible`: the ids of the offers the refresh skipped as implausible prices, and
    `dropped_with_item` those it dropped with their item (for its own price), of which the result counts those
    missing, and names their items where it maps each to the id of its item's own offer."""
    before = [b for b, _ in earlier.values() if not b.empty]
    if not before:
        return None
    before = pd.concat(before, ignore_index=True)
    if provider == "azure":   # sizes the adapter drops, deliberately: pricing_adapters/retired.py
        before = before[~before["sku"].astype(object).map(is_retired_azure_size).astype(bool)]
    gone = ~before["offer_id"].isin(offers["offer_id"])
    groups = [("them", pd.Series(True, index=before.index))]
    if len(earlier) > 1:
        groups += [(f"those in {region}", before["region"] == region) for region in earlier]
    groups += [(f"the {option} offers", before["purchase_option"] == option)
               for option in dict.fromkeys(before["purchase_option"])]
    beyond, shown = [], pd.Series(False, index=before.index)
    for what, member in groups:
        if what != "them" and member.all():   # the one purchase option in force: the same as "them"
            continue
        missing = member & gone
        types = before.loc[missing, "sku"].nunique()
        if missing.sum() > VANISHED_SHARE * member.sum() and types >= MIN_VANISHED_SKUS:
            beyond.append((what, int(missing.sum()), int(member.sum()), int(types)))
            shown |= missing
    said_whole = {what for what, missing, in_force, _ in beyond if missing == in_force}
    vanished = []
    for option, (regions, rows) in _vanished_options(before, offers).items():
        shown |= before.index.isin(rows)
        if f"the {option} offers" not in said_whole:   # else "the spot offers (13 of 13, …)" said it already
            vanished.append((option, tuple(regions), len(rows), int(before.loc[rows, "sku"].nunique())))
    if not beyond and not vanished:
        return None
    named = sorted(before.loc[shown, "offer_id"].astype(object))
    # the store's snapshots in id order, then the packaged one
    labels = sorted({c for _, c in earlier.values()}, key=lambda c: (c.startswith("the"), len(c), c))
    compared_with = series(labels)
    priced_out = gone & before["offer_id"].isin(set(implausible))
    with_item = gone & ~priced_out & before["offer_id"].isin(set(dropped_with_item))
    items = ({dropped_with_item[o] for o in before.loc[with_item, "offer_id"]} if isinstance(dropped_with_item, Mapping)
             else set())
    return MissingOffers(provider, tuple(earlier), compared_with, len(before), len(offers), int(gone.sum()),
                         tuple(beyond), tuple(named[:MISSING_NAMED]), max(0, len(named) - MISSING_NAMED),
                         tuple(vanished), int(priced_out.sum()), int(with_item.sum()), tuple(sorted(items)))


def _vanished_options(before: pd.DataFrame, offers: pd.DataFrame) -> dict[str, tuple[list[str], list]]:
    """{purchase option: (the regions it is gone whole from, the index labels of `before` it had there)}: options
    that `before` (offers in force) has in a region and `offers` (the refresh) has not, where `offers` still holds
    there one of the instance types that had it, in the order `before` first has them."""
    now_options = set(zip(offers["region"].astype(object), offers["purchase_option"].astype(object)))
    now_types = set(zip(offers["region"].astype(object), offers["sku"].astype(object)))
    had: dict[tuple[str, str], list] = {}   # (region, option) -> index labels of `before`, in its order
    for label, region, option in zip(before.index, before["region"].astype(object),
                                     before["purchase_option"].astype(object)):
        had.setdefault((region, option), []).append(label)
    found: dict[str, tuple[list[str], list]] = {}
    for (region, option), rows in had.items():
        if (region, option) in now_options or not any((region, sku) in now_types for sku in before.loc[rows, "sku"]):
            continue
        regions, labels = found.setdefault(option, ([], []))
        regions.append(region)
        labels.extend(rows)
    return found


@dataclass(frozen=True)
class HardwareChange:
    """A hardware fact of one instance type that a refresh gives otherwise than the prices in force or the packaged
    facts do, in the regions of the refresh where it does (`kind` CHANGED); or one where the store's facts and the
    packaged ones disagree (CORRECTED: this refresh gives the packaged fact; CONTRADICTED: it gives the store's)."""

    provider: str
    sku: str
    fact: str                    # one of HARDWARE_FACTS
    old: float | str             # as the references say: a number (gpu_count, gpu_memory_gb) or a GPU id
    old_sources: tuple[str, ...]  # "snapshot #3", "the packaged snapshot", "the packaged size table"
    new: float | str             # as this refresh says
    new_source: str              # where this refresh took its facts from: its offers' FACTS_FROM, else the adapter's source
    regions: tuple[str, ...]     # of the refresh
    kind: str = "changed"        # CHANGED, CORRECTED or CONTRADICTED
    packaged: str = ""           # CORRECTED, CONTRADICTED: the packaged facts that disagree with `old_sources`
    packaged_value: float | str | None = None   # CONTRADICTED: what `packaged` says

    def describe(self) -> str:
        old, new = fact_shown(self.fact, self.old), fact_shown(self.fact, self.new)
        sources = self.old_sources
        named = series(sources)
        where = f"{self.provider} {self.sku} in {regions_named(self.regions)}: {self.fact}"
        if self.kind == CORRECTED:
            return (f"{where} {old} → {new} ({old} in {named}, which {self.packaged} contradicts; {new} in this refresh, "
                    f"from {self.new_source}, as in {self.packaged})")
        if self.kind == CONTRADICTED:
            return (f"{where} {new} ({new} in {named} and in this refresh, from {self.new_source}; "
                    f"{fact_shown(self.fact, self.packaged_value)} in {self.packaged})")
        return f"{where} {old} → {new} ({old} in {named}; {new} in this refresh, from {self.new_source})"


def fact_shown(fact: str, value: float | str) -> str:
    """A hardware fact as a message shows it: 8, 0.125, 80 GB, 'A100-80GB-PCIE' (a GPU id as quoted text: an unknown
    accelerator's is the feed's own name)."""
    if fact == "gpu":
        return shortened(str(value), repr)
    return f"{value:g}{' GB' if fact in ('gpu_memory_gb', 'memory_gb') else ''}"


def hardware_changes(earlier: dict[str, tuple[pd.DataFrame, str]], provider: str, offers: pd.DataFrame,
                     fetched_from: str, stored: dict[str, tuple[pd.DataFrame, str]] | None = None) -> list[HardwareChange]:
    """The hardware facts (HARDWARE_FACTS) of the instance types of `offers` (a refresh of `provider`, typed, from
    the source named `fetched_from`) that differ from those the store holds for the same type, or, for a type the
    store does not hold yet, from those of `earlier` (`earlier_prices`: the packaged snapshot in force in the same
    region) and the packaged facts (`packaged_facts`: any region); by instance type, fact and old value, one each,
    with the regions where they differ (kind CHANGED). The store's facts (`stored`: `stored_prices`, all its regions;
    by default those of `earlier` from a snapshot) are those in force in the same region where it holds the type
    there, else in any region: they were checked, or their change accepted, when saved. But a store saved before
    hardware facts were checked holds a broken feed's unchecked, so they are held against the packaged facts too:
    where the two disagree, a refresh that gives the packaged fact is CORRECTED (taken), one that gives the store's is
    CONTRADICTED (said); and a fact the store does not know is held against the packaged one, as for a new type."""
    stored = {r: e for r, e in earlier.items() if e[1] != PACKAGED_SNAPSHOT} if stored is None else stored
    new = _facts_of(offers).assign(new_source=_facts_source(offers, fetched_from))
    new = new.drop_duplicates()
    held = _labelled_facts(stored, offers)
    held_here = set(zip(held["region"], held["key"]))
    in_store = new["key"].isin(held["key"]).to_numpy()
    here = np.array([pair in held_here for pair in zip(new["region"], new["key"])], dtype=bool)
    packaged_in_force = _labelled_facts({r: e for r, e in earlier.items() if r not in stored}, offers)
    packaged, label = packaged_facts(provider)
    shipped = packaged.drop(columns=["region", "sku"]).rename(columns={f: f"{f}_packaged" for f in HARDWARE_FACTS})
    held_pairs = pd.concat([new[here].merge(held, on=["region", "key"], suffixes=("", "_old")),
                            new[in_store & ~here].merge(held.drop(columns="region"), on="key", suffixes=("", "_old"))],
                           ignore_index=True).merge(shipped, on="key", how="left")
    fresh = new[~in_store]
    fresh_pairs = pd.concat([fresh.merge(packaged_in_force, on=["region", "key"], suffixes=("", "_old")),
                             fresh.merge(packaged.drop(columns="region").assign(reference=label), on="key",
                                         suffixes=("", "_old"))], ignore_index=True)
    found: dict[tuple, tuple[dict, dict]] = {}   # (kind, sku, fact, old, new, new source, packaged value) -> ordered
    # (references, regions)

    def record(rows: pd.DataFrame, fact: str, kind: str, old_column: str, reference: str | None = None,
               packaged_column: str | None = None) -> None:
        for row in rows.itertuples(index=False):
            shipped_value = _plain(getattr(row, packaged_column)) if packaged_column else None
            key = (kind, row.sku, fact, _plain(getattr(row, old_column)), _plain(getattr(row, fact)), row.new_source,
                   shipped_value)
            references, regions = found.setdefault(key, ({}, {}))
            references[reference or row.reference] = None
            regions[row.region] = None

    for fact in HARDWARE_FACTS:
        now, old = held_pairs[fact], held_pairs[f"{fact}_old"]
        ships = held_pairs[f"{fact}_packaged"]
        differs = _known(fact, now) & _known(fact, old) & ~_same(fact, now, old)
        as_shipped = _known(fact, ships) & _same(fact, now, ships)
        record(held_pairs[differs & ~as_shipped], fact, CHANGED, f"{fact}_old")
        record(held_pairs[differs & as_shipped], fact, CORRECTED, f"{fact}_old")
        unknown_held = _known(fact, now) & ~_known(fact, old) & _known(fact, ships) & ~as_shipped
        record(held_pairs[unknown_held], fact, CHANGED, f"{fact}_packaged", reference=label)
        contradicted = (_known(fact, now) & _known(fact, old) & _same(fact, now, old) & _known(fact, ships)
                        & ~as_shipped)
        record(held_pairs[contradicted], fact, CONTRADICTED, f"{fact}_old", packaged_column=f"{fact}_packaged")
        now, old = fresh_pairs[fact], fresh_pairs[f"{fact}_old"]
        record(fresh_pairs[_known(fact, now) & _known(fact, old) & ~_same(fact, now, old)], fact, CHANGED,
               f"{fact}_old")
    changes = [HardwareChange(provider, sku, fact, old, tuple(_references(references)), now, source, tuple(regions),
                              kind, label if kind != CHANGED else "", shipped_value)
               for (kind, sku, fact, old, now, source, shipped_value), (references, regions) in found.items()]
    return sorted(changes, key=lambda c: (c.sku, HARDWARE_FACTS.index(c.fact), c.old_sources, str(c.old)))


def _known(fact: str, values: pd.Series) -> np.ndarray:
    """Whether each of `values` (of `fact`) is a fact: an empty GPU id or an empty or NaN number is none (the store's
    validation names such a row of a refresh, after this)."""
    if fact == "gpu":
        return values.astype(object).fillna("").to_numpy() != ""
    return np.isfinite(values.astype(float).to_numpy())


def _same(fact: str, a: pd.Series, b: pd.Series) -> np.ndarray:
    """Whether `a` and `b` (known facts of `fact`) say the same, pair by pair: a number within a part in a million (a
    CSV's 0.16666666666666666 is the adapter's 1/6; no real fact is that near another)."""
    if fact == "gpu":
        return a.astype(object).fillna("").to_numpy() == b.astype(object).fillna("").to_numpy()
    return np.isclose(a.astype(float).to_numpy(), b.astype(float).to_numpy(), rtol=1e-6, atol=0.0)


def _labelled_facts(prices: dict[str, tuple[pd.DataFrame, str]], offers: pd.DataFrame) -> pd.DataFrame:
    """`_facts_of` the offers of each region of `prices` (`earlier_prices`, `stored_prices`) in that region, with
    what they are as `reference`; no rows (the columns of `offers`'s facts) for none."""
    return pd.concat([_facts_of(before[before["region"] == region]).assign(reference=compared_with)
                      for region, (before, compared_with) in prices.items()]
                     or [_facts_of(offers.iloc[:0]).assign(reference="")], ignore_index=True)


def _facts_of(df: pd.DataFrame) -> pd.DataFrame:
    """region, key (the sku casefolded: Azure's listings and tables spell sizes in more than one case), sku and the
    HARDWARE_FACTS of each offer of `df`, in its order (a number column `df` lacks: unknown)."""
    sku = df["sku"].astype(object)
    numbers = {fact: (df[fact].astype(float).to_numpy() if fact in df.columns else np.full(len(df), np.nan))
               for fact in HARDWARE_FACTS if fact != "gpu"}
    return pd.DataFrame({"region": df["region"].astype(object).to_numpy(), "key": sku.str.casefold().to_numpy(),
                         "sku": sku.to_numpy(), "gpu": df["gpu"].astype(object).to_numpy(), **numbers})


def _facts_source(offers: pd.DataFrame, fetched_from: str) -> list[str]:
    """Where each offer's hardware facts came from: what its source names after FACTS_FROM (Azure's ARM or packaged
    size table, per size; AWS's EC2 DescribeInstanceTypes), else the refresh's source, `fetched_from`."""
    return [text.rpartition(FACTS_FROM)[2] if FACTS_FROM in text else fetched_from
            for text in offers["source"].astype(object).fillna("")]


def packaged_facts(provider: str) -> tuple[pd.DataFrame, str]:
    """(The hardware facts the project ships for the instance types of `provider`, one row each, as `_facts_of`
    (region empty), what they are: "the packaged size table", "the packaged snapshot"): see PACKAGED_FACTS. No rows
    for a provider with neither."""
    if provider == registry.AZURE:
        from pricing_adapters.azure import load_size_table  # the adapter reads the table so: read the same rows

        table = pd.DataFrame(load_size_table().values(), columns=["sku", *HARDWARE_FACTS])
        facts = _facts_of(table.assign(region=""))
    else:
        facts = _facts_of(_packaged(provider)).assign(region="")
    return facts.drop_duplicates("key").reset_index(drop=True), PACKAGED_FACTS.get(provider, PACKAGED_SNAPSHOT)


def _references(labels: dict) -> list[str]:
    """The references a fact was held against, in order: the store's snapshots by id, the packaged snapshot, the
    packaged size table."""
    return sorted(labels, key=lambda c: (c.startswith("the"), c == PACKAGED_FACTS.get(registry.AZURE), len(c), c))


def _plain(value):
    """A fact as Python gives it: a float or a str (not numpy's), for a message and a comparison in a test."""
    return value if isinstance(value, str) else float(value)


def hardware_text(found: list[HardwareChange]) -> str:
    """The hardware changes of a refresh in one line: the first HARDWARE_NAMED, then how many more."""
    shown = "; ".join(c.describe() for c in found[:HARDWARE_NAMED])
    more = len(found) - HARDWARE_NAMED
    return shown + (f"; and {more} more" if more > 0 else "")


def jumps_text(found: list) -> str:
    """The jumps and contradictions of a refresh (`PriceJump`, `AgainstOnDemand`) in one line: the first
    REGIONS_NAMED, then how many more."""
    shown = "; ".join(j.describe() for j in found[:REGIONS_NAMED])
    more = len(found) - REGIONS_NAMED
    return shown + (f"; and {more} more" if more > 0 else "")


def factor(ratio: float) -> str:
    """A ratio as a factor a reader takes in: ×1,000,000, ×1/1,000, ×1.10."""
    if ratio >= MAX_REPRICING_FACTOR:
        return f"×{ratio:,.0f}"
    if ratio <= 1 / MAX_REPRICING_FACTOR:
        return f"×1/{1 / ratio:,.0f}"
    return f"×{ratio:.2f}"


def amount(value: float) -> str:
    """A price to six significant digits, thousands separated, no trailing zeros: 3.673, 3,673,000, 0.444433."""
    decimals = max(0, 5 - math.floor(math.log10(abs(value)))) if value else 0
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# -- what a saved refresh changed, held against a longer past: said, not refused -------------------------------------

# The checks above hold a refresh against the snapshot in force just before, so a feed going wrong a step a night
# passed each of them: 72, then 50, then 36 of eastus's offers (a GPU type gone), or prices ×9 a night (the ops audit of
# nightly refreshes). So a refresh is also held against the last RECENT_SNAPSHOTS snapshots of the store covering its
# region: a week of nightly refreshes, each read once (a few thousand rows), losses within it adding up. Not the
# packaged snapshot, once the store covers the region: it never moves, so every instance type retired since it was
# built would be said on every refresh for ever, and the first refresh was held against it already. Nor more than
# a window: the store does not record which losses and jumps a user accepted, so one accepted stops being said (or
# refused) once it is RECENT_SNAPSHOTS refreshes old.
RECENT_SNAPSHOTS = 7
# A move of an offer's price beyond this either way, within the refusal limits, is said: a real repricing moves tens of
# percent (the largest of the reference data, -44 %, is ×1/1.79), so ×2 is a move to look at, ×9 (under the refusal's
# ×10) a broken feed's step as likely as a repricing.
MOVED_FACTOR = 2.0
MOVED_NAMED = 3   # of the offers moved or dropped, in a warning
SAME_PRICE = 1e-6   # a ratio within this of 1 (in its logarithm) is a price unchanged: each division rounds its own way


def recent_prices(store: PriceStore, provider: str, earlier: dict[str, tuple[pd.DataFrame, str]]
                  ) -> dict[str, tuple[pd.DataFrame, str]]:
    """For each region of `earlier` (`earlier_prices`) that the store covers: (the offers of its last RECENT_SNAPSHOTS
    snapshots of `provider` covering it, each offer once with its price in the oldest of them, "snapshots #1 to #3");
    for a region it does not cover, `earlier`'s (the packaged snapshot)."""
    covering: dict[str, list] = {}
    for info in store.snapshots():   # oldest first
        if info.provider == provider:
            for region in info.regions:
                if region in earlier:
                    covering.setdefault(region, []).append(info)
    read: dict[int, pd.DataFrame] = {}
    recent = {}
    for region, entry in earlier.items():
        infos = covering.get(region, [])[-RECENT_SNAPSHOTS:]
        if not infos:
            recent[region] = entry
            continue
        parts = []
        for info in infos:
            if info.id not in read:
                try:
                    read[info.id] = store.offers(info.id)
                except StoreError:   # no rows left (deleted by hand): plans skip it, and so does this
                    read[info.id] = None
            if read[info.id] is not None:
                parts.append(read[info.id][read[info.id]["region"] == region])
        if not parts:
            recent[region] = entry
            continue
        offers = pd.concat(parts, ignore_index=True).drop_duplicates("offer_id")   # the oldest price of each
        ids = [i.id for i in infos]
        recent[region] = (offers, f"snapshot #{ids[0]}" if len(ids) == 1 else f"snapshots #{ids[0]} to #{ids[-1]}")
    return recent


def dropped_text(earlier: dict[str, tuple[pd.DataFrame, str]], recent: dict[str, tuple[pd.DataFrame, str]],
                 provider: str, offers: pd.DataFrame) -> str:
    """What a saved refresh of `provider` (`offers`, typed) dropped of the offers in force in its regions (`earlier`)
    and of those of its recent snapshots there (`recent_prices`), retired Azure sizes left out as the adapter drops
    them: counts, the first MOVED_NAMED offer ids, the GPUs no longer offered in a region; "" for nothing dropped."""
    said, examples, gpus_gone = [], [], []
    for region, (before, compared_with) in earlier.items():
        now = offers[offers["region"] == region]
        lost_now = _lost(before, now, provider)
        past, past_label = recent.get(region, (before, compared_with))
        lost_past = _lost(past, now, provider)
        if lost_now.empty and lost_past.empty:
            continue
        text = f"{provider} {region}: "
        if not lost_now.empty:
            text += f"{len(lost_now):,} of the {len(_kept(before, provider)):,} offers in force ({compared_with})"
        if len(lost_past) > len(lost_now):
            text += (" and " if not lost_now.empty else "") + (f"{len(lost_past):,} of the "
                                                              f"{len(_kept(past, provider)):,} offers of {past_label}")
        said.append(text)
        examples += sorted((lost_now if not lost_now.empty else lost_past)["offer_id"].astype(str))
        had = set(_kept(past, provider)["gpu"].astype(str)) | set(_kept(before, provider)["gpu"].astype(str))
        gone = sorted(had - set(now["gpu"].astype(str)) - {"", "nan", "None"})
        if gone:
            gpus_gone.append(f"in {region} of {', '.join(gone)}")
    if not said:
        return ""
    more = f" and {len(examples) - MOVED_NAMED:,} more" if len(examples) > MOVED_NAMED else ""
    gone = f"; no offer left {'; '.join(gpus_gone)}" if gpus_gone else ""
    return (f"offers dropped, missing from this refresh: {'; '.join(said)}; e.g. {', '.join(examples[:MOVED_NAMED])}"
            f"{more}{gone}")


def _kept(before: pd.DataFrame, provider: str) -> pd.DataFrame:
    """`before` without the retired Azure sizes the adapter drops, deliberately (as `missing_offers` counts)."""
    if provider == "azure" and not before.empty:
        return before[~before["sku"].astype(object).map(is_retired_azure_size).astype(bool)]
    return before


def _lost(before: pd.DataFrame, now: pd.DataFrame, provider: str) -> pd.DataFrame:
    """The offers of `before` (`_kept`) that `now` lacks."""
    before = _kept(before, provider)
    return before[~before["offer_id"].isin(now["offer_id"])]


def moved_text(earlier: dict[str, tuple[pd.DataFrame, str]], provider: str, offers: pd.DataFrame,
               recent: dict[str, tuple[pd.DataFrame, str]] | None = None) -> str:
    """The offers of a saved refresh of `provider` (`offers`, typed) whose price moved beyond MOVED_FACTOR either way
    against `earlier` (the prices in force, or the same instance types' in other regions) or, moved again, against
    their oldest price in `recent` (as `price_jumps` holds them), the first MOVED_NAMED named old → new, by region;
    "" for none. Spot quotes are left out: they move with the market (below)."""
    said = []
    spot_ids = set(offers.loc[offers["purchase_option"] == "spot", "offer_id"])
    for region, (before, compared_with) in earlier.items():
        ratios, compared_with = _held_ratios(before, compared_with, offers[offers["region"] == region],
                                             (recent or {}).get(region))
        # spot quotes move with the market, between a tenth of on-demand and on-demand (the recorded ones: 0.11 to 1.0),
        # so ×2 between two refreshes is a market's move: said every few nights, a warning would be read as noise. They
        # are held against the same refresh's on-demand price instead (against_on_demand: above 2× or under 1/20 of it)
        ratios = ratios[~ratios["offer_id"].isin(spot_ids)]
        logs = np.log(ratios["ratio"].to_numpy()) if not ratios.empty else np.array([])
        moved = ratios[np.abs(logs) > math.log(MOVED_FACTOR)]
        if moved.empty:
            continue
        moved = moved.assign(far=np.round(np.abs(np.log(moved["ratio"])), 9))
        moved = moved.sort_values(["far", "offer_id"], ascending=[False, True])   # the farthest first, then by id
        named = ", ".join(f"{r.offer_id} {amount(r.old_per_hour)} → {amount(r.new_per_hour)} {r.currency}/h "
                          f"({factor(r.ratio)})" for r in moved.head(MOVED_NAMED).itertuples())
        more = f" and {len(moved) - MOVED_NAMED:,} more" if len(moved) > MOVED_NAMED else ""
        said.append(f"{provider} {region}: {len(moved):,} of the {len(ratios):,} offers also in {compared_with}, "
                    f"e.g. {named}{more}")
    if not said:
        return ""
    return (f"prices moved more than ×{MOVED_FACTOR:g} or ×1/{MOVED_FACTOR:g} (a repricing moves tens of percent): "
            f"{'; '.join(said)}")


def other_regions_prices(stored: dict[str, tuple[pd.DataFrame, str]], provider: str, region: str) -> pd.DataFrame:
    """The offers of `provider` in `region` as its other regions price them: for each instance type, purchase option
    and currency priced in another region of the store (`stored_prices`) or of the packaged snapshot, one offer of
    `region`'s id at the median effective hourly price over those regions (no upfront). What a region with no
    earlier prices of its own is held against: a cloud prices an instance type within about ×2 across its regions."""
    packaged = _packaged(provider)
    held = [packaged[packaged["region"] != region]]
    held += [before for r, (before, _) in stored.items() if r != region]
    others = pd.concat([h for h in held if not h.empty] or [packaged.iloc[:0]], ignore_index=True)
    if others.empty:
        return others
    per_hour = _per_hour(others)["per_hour"].to_numpy()
    # each offer's own id with `region` for its region (`provider:region:` first, schema.offer_id): what follows the
    # purchase option (an AWS reservation's `:partial_upfront:standard`, a zone) is kept, so a reservation is held
    # against the same payment and class, and a zonal spot price matches nothing
    others = others.assign(hourly_price=per_hour, upfront_price=0.0, term_months=0,
                           offer_id=[f"{provider}:{region}:{i.split(':', 2)[2]}" for i in others["offer_id"].astype(str)])
    median = others.groupby(["offer_id", "currency"], as_index=False)["hourly_price"].median()
    return median.assign(upfront_price=0.0, term_months=0)
