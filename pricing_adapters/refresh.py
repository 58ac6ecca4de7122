"""One refresh: fetch every offer of a source, then write one snapshot — or nothing at all."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from pricing_adapters import registry
from pricing_adapters.base import PriceSource, Progress, no_progress
from pricing_adapters.errors import HardwareChangeError, MissingOffersError, PriceJumpError, PriceSourceError, RegionError
from pricing_adapters.jumps import (
    CHANGED,
    CONTRADICTED,
    CORRECTED,
    MISSING_NAMED,
    against_on_demand,
    dropped_text,
    earlier_prices,
    hardware_changes,
    hardware_text,
    jumps_text,
    missing_offers,
    moved_text,
    other_regions_prices,
    price_jumps,
    recent_prices,
    stored_prices,
    uncompared_commitments,
)
from pricing_adapters.schema import MAX_USD_HOURLY_PRICE, MIN_HOURLY_PRICE, validate_offers
from pricing_adapters.shown import counted, plural
from pricing_adapters.store import PriceStore, SnapshotInfo

if TYPE_CHECKING:
    import pandas as pd

# what an offer skipped as `implausible_price` costs, in a message (schema's bounds: the adapters skip a price beyond
# them rather than fail the region's refresh)
IMPLAUSIBLE = f"above {MAX_USD_HOURLY_PRICE:,.0f} USD an hour or below {MIN_HOURLY_PRICE:g} a unit-hour, say"


def _say_nothing(text: str) -> None:
    """A `warn` that tells no one."""


def refresh(source: PriceSource, regions: Sequence[str], store: PriceStore,
            progress: Progress = no_progress, deadline: float | None = None, *,
            accept_price_jumps: bool = False, accept_missing_offers: bool = False, accept_hardware_changes: bool = False,
            warn: Callable[[str], None] = _say_nothing, note: Callable[[str], None] = _say_nothing) -> SnapshotInfo:
    """Fetch `regions` from `source` and save them as a new snapshot; the SnapshotInfo saved.

    `deadline`: seconds the whole fetch may take (default DEFAULT_DEADLINE_S), enforced by adapters that
    have a `deadline_s` attribute (aws, azure) inside their paging loops.
    Raises RegionError for regions that cannot be region codes (see `check_regions`), StoreError before any request
    when the store cannot be written (its file or folder read-only: `PriceStore.check_writable`), PriceSourceError
    (or a subclass) when the fetch fails, and PriceJumpError when a region's prices, or one offer's, moved
    against those in force there by far more than any repricing, or when a reservation or spot offer costs far
    more or less than the same instance on demand in this refresh (pricing_adapters.jumps); MissingOffersError when
    it lacks most of the offers in force in its regions (in all, in a region or in a purchase option), or a
    purchase option whole in a region that still has its instance types (`jumps.missing_offers`);
    HardwareChangeError when the GPU, GPU count, GPU memory, vCPUs or RAM it gives an instance type differs from the prices in
    force there or from the facts the project ships (`jumps.hardware_changes`). The store is then unchanged, because
    the snapshot is written only after the whole fetch returned and passed these checks and validation.
    `accept_price_jumps` saves such prices all the same, `accept_missing_offers` such a refresh and
    `accept_hardware_changes` such facts; once the snapshot is saved, `warn` is told what each let through (not
    before: a save that fails let nothing through). Once saved, `note` is told when reservations or savings plans
    had no earlier prices to compare with (checked against on-demand only).
    """
    regions = check_regions(source, regions)
    # a store it could not save to is told before the first request, not after a fetch of minutes (audit a6)
    store.check_writable()
    if deadline is not None and hasattr(source, "deadline_s"):
        source.deadline_s = float(deadline)
    offers = source.fetch(regions, progress)
    empty = [r for r in regions if not (offers["region"] == r).any()]
    returned = sum((getattr(source, "returned", None) or {}).get(r, 0) for r in empty)
    where = f"{plural(len(empty), 'region')} {', '.join(empty)}"
    if empty and returned:
        # the listing was there but nothing in it could be used: say why, not "check the region code"
        skipped = ", ".join(f"{v} {k}" for k, v in sorted((getattr(source, "skipped", None) or {}).items()))
        items = getattr(source, "returned_what", "price items")   # what the adapter counts in `returned`
        raise PriceSourceError(f"no GPU offers returned for {where}: {returned} {items} "
                               f"were returned and every one was skipped (skipped in this refresh: "
                               f"{skipped or 'none counted'}); nothing was saved")
    if empty:
        # a snapshot claims the regions it covers: an empty region is a typo or an outage, not "no GPUs"
        raise PriceSourceError(f"no GPU offers returned for {where} — check the "
                               f"{plural(len(empty), 'region code')}; nothing was saved")
    # typed only: a row that breaks the contract is named by the store's validation, after this
    typed = validate_offers(offers, origin=f"{source.provider} refresh", check=False)
    stored = stored_prices(store, source.provider)
    earlier = earlier_prices(store, source.provider, typed, stored)
    recent = recent_prices(store, source.provider, earlier)
    # a region with no earlier prices (one the packaged snapshot lacks, never refreshed) is held against the same
    # instance types' prices in the provider's other regions: else its prices were checked against nothing
    unpriced = [r for r, (before, _) in earlier.items() if before.empty]
    elsewhere = {r: (other_regions_prices(stored, source.provider, r), "the same instance types in other regions")
                 for r in unpriced}
    priced = {**earlier, **elsewhere}
    accepted = check_against_prices_in_force(earlier, source.provider, typed, accept_price_jumps, accept_missing_offers,
                                             source=source.source, accept_hardware_changes=accept_hardware_changes,
                                             implausible=getattr(source, "implausible_offers", None) or (),
                                             dropped_with_item=getattr(source, "dropped_with_item_offers", None) or (),
                                             stored=stored, priced=priced, recent=recent)
    info = store.save(source.provider, regions, source.source, offers)
    for text in accepted:   # only now are they saved
        warn(text)
    # what the checks let through as a real change can be, said (listings shrink, prices move): told each save, so
    # that a feed going wrong a step a night is seen on the first night
    diff = (f"`fleetplan prices diff {old} {info.id}` shows each offer" if (old := _in_force_id(earlier)) is not None
            else "`fleetplan prices list` and `fleetplan prices diff OLD NEW` show each offer")
    if not any(t.startswith("missing offers accepted") for t in accepted):
        dropped = dropped_text(earlier, recent, source.provider, typed)
        if dropped:
            warn(f"{dropped}; saved all the same (listings do shrink). {diff}")
    if not any(t.startswith("price jumps accepted") for t in accepted):
        moved = moved_text(priced, source.provider, typed, recent)
        if moved:
            warn(f"{moved}; saved all the same. {diff}")
    for region in unpriced:
        matched = typed["offer_id"].isin(elsewhere[region][0]["offer_id"]).sum()
        if matched:
            note(f"no earlier prices for {source.provider} {region}: checked against the same instance types' prices "
                 f"in other regions ({counted(int(matched), 'offer')})")
        else:
            warn(f"no earlier prices for {source.provider} {region}: not checked against any (none of its instance "
                 f"types is priced in another region either)")
    uncompared = uncompared_commitments(earlier, typed)
    if uncompared:
        note(f"{uncompared}: no earlier prices to compare with; checked against on-demand only")
    return info


def _in_force_id(earlier: dict[str, tuple[pd.DataFrame, str]]) -> str | None:
    """What `prices diff` calls the prices in force before a refresh, where every region refreshed had them from one
    snapshot: its id, or `packaged`; None where they came from several, or a region had none (held against other
    regions'): no one diff shows them."""
    labels = {label for before, label in earlier.values() if not before.empty}
    if len(labels) != 1 or any(before.empty for before, _ in earlier.values()):
        return None
    label = labels.pop()
    return label.removeprefix("snapshot #") if label.startswith("snapshot #") else "packaged"


def check_against_prices_in_force(earlier: dict[str, tuple[pd.DataFrame, str]], provider: str, offers: pd.DataFrame,
                                  accept_price_jumps: bool, accept_missing_offers: bool, *, source: str = "",
                                  accept_hardware_changes: bool = False, implausible: Collection[str] = (),
                                  dropped_with_item: Collection[str] | Mapping[str, str] = (),
                                  stored: dict[str, tuple[pd.DataFrame, str]] | None = None,
                                  priced: dict[str, tuple[pd.DataFrame, str]] | None = None,
                                  recent: dict[str, tuple[pd.DataFrame, str]] | None = None) -> list[str]:
    """What `accept_price_jumps`, `accept_missing_offers` and `accept_hardware_changes` let through of `offers`
    (typed, fetched from `source`, which skipped the offers of ids `implausible` for their prices, and those of ids
    `dropped_with_item` with their item, for its own price: a mapping names the item's own offer), one warning each,
    for the caller to tell once the refresh is saved. Raises PriceJumpError when their prices jumped against `earlier`
    (`price_jumps`) or contradict their on-demand prices (`against_on_demand`), MissingOffersError when `offers` lacks
    most of the offers of `earlier` (`missing_offers`; said to be skipped for their prices where they were),
    HardwareChangeError when their hardware facts differ from those the store holds (`stored`: `stored_prices`), or
    for a type it does not hold yet from those packaged (`hardware_changes`);
    prices are held against `priced` (default `earlier`; a region without earlier prices: other regions') and, for an
    offer moved again, `recent` (`recent_prices`);
    each names the others' findings too, so that one refresh again settles them all."""
    jumps, contradictions = price_jumps(priced or earlier, provider, offers, recent), against_on_demand(offers)
    missing = missing_offers(earlier, provider, offers, implausible, dropped_with_item)
    found = hardware_changes(earlier, provider, offers, source or f"the {provider} refresh", stored)
    hardware = [c for c in found if c.kind == CHANGED]
    refused, errors = [], []
    if (jumps or contradictions) and not accept_price_jumps:
        refused.append(_price_jumps_text(jumps, contradictions))
        errors.append(PriceJumpError)
    if missing and not accept_missing_offers:
        refused.append(_missing_offers_text(missing))
        errors.append(MissingOffersError)
    if hardware and not accept_hardware_changes:
        refused.append(_hardware_text(hardware))
        errors.append(HardwareChangeError)
    if refused:
        raise errors[0](". Also ".join(refused), [*jumps, *contradictions], missing, hardware)
    accepted = []
    if jumps or contradictions:
        accepted.append(f"price jumps accepted (--accept-price-jumps): {jumps_text([*jumps, *contradictions])}")
    if missing:
        accepted.append(f"missing offers accepted (--accept-missing-offers): {missing.describe()}"
                        f"{_priced_out_text(missing)}")
    if hardware:
        accepted.append(f"hardware changes accepted (--accept-hardware-changes): {hardware_text(hardware)}")
    corrected = [c for c in found if c.kind == CORRECTED]
    if corrected:
        accepted.append(_corrected_text(corrected))
    contradicted = [c for c in found if c.kind == CONTRADICTED]
    if contradicted:
        accepted.append(_contradicted_text(contradicted))
    return accepted


def _price_jumps_text(jumps: list, contradictions: list) -> str:
    """Why a refresh whose prices jumped (`PriceJump`) or contradict each other (`AgainstOnDemand`) was refused."""
    what = []
    if jumps:
        what.append(f"prices moved far beyond any real repricing (tens of percent): {jumps_text(jumps)}")
    if contradictions:
        what.append(f"prices contradict each other: {jumps_text(contradictions)}")
    return (f"{'; '.join(what)}; more likely a broken feed (a wrong unit, currency or scale) than new prices, so "
            f"nothing was saved. If these really are the prices, refresh again with --accept-price-jumps")


def _missing_offers_text(missing) -> str:
    """Why a refresh that lacks most of the offers in force in its regions, or a purchase option whole
    (`MissingOffers`), was refused: a partial answer, or, where the refresh had them but skipped them as implausible
    prices or with their item, a feed at a wrong scale (the million-fold feed of the audit read "more likely a partial
    answer")."""
    change = " or a parser or API change (a purchase option no longer read)" if missing.vanished else ""
    sold = " (a purchase option no longer sold there, say)" if missing.vanished else ""
    partial = f"a partial answer (pages, a region or a purchase option left out){change}"
    never_saved = "an implausible price is never saved" + (", nor a savings plan without its item"
                                                           if missing.dropped_with_item else "")
    skipped = missing.implausible + missing.dropped_with_item
    if skipped == missing.missing:
        why = (f"every offer missing was in the answer but {_skipped_how(missing, True)}, so more likely a broken feed "
               f"(a wrong unit, currency or scale) than a partial answer or instance types retired")
        then = f"To save the others all the same ({never_saved}), refresh again with --accept-missing-offers"
    elif skipped:
        why = (f"{skipped:,} of the {missing.missing:,} offers missing {'was' if skipped == 1 else 'were'} in the answer "
               f"but {_skipped_how(missing, skipped == 1)}, more likely a broken feed (a wrong unit, currency or scale); "
               f"the others more likely {partial} than instance types retired")
        then = f"If the others really are gone{sold}, refresh again with --accept-missing-offers ({never_saved})"
    else:
        why = f"more likely {partial} than instance types retired"
        then = f"If they really are gone{sold}, refresh again with --accept-missing-offers"
    return f"offers missing: {missing.describe()}; {why}, and plans would lose those offers, so nothing was saved. {then}"


def _skipped_how(missing, one: bool, bounds: str = f" ({IMPLAUSIBLE})") -> str:
    """How the offers missing that the refresh had but skipped were skipped (`MissingOffers`): "skipped as an
    implausible price (…)", "dropped with its item, …", or, for both, "skipped, 1 as an implausible price (…) and 4
    dropped with their item, …"; `one`: whether the sentence speaks of one offer (or of each); `bounds`: what an
    implausible price is, as the sentence puts it."""
    implausible, with_item = missing.implausible, missing.dropped_with_item

    def price(single: bool) -> str:
        return f"{'an implausible price' if single else 'implausible prices'}{bounds}"

    def item(single: bool) -> str:
        return (f"dropped with {'its' if single else 'their'} item{_items_named(missing.dropped_items)}, whose own price "
                f"was skipped as zero, negative or implausible")

    if not with_item:
        return f"skipped as {price(one)}"
    if not implausible:
        return item(one)
    return f"skipped, {implausible:,} as {price(implausible == 1)} and {with_item:,} {item(with_item == 1)}"


def _items_named(items: Sequence[str]) -> str:
    """" (azure:eastus:Standard_NC24ads_A100_v4:on_demand, …)": the own offer ids of the items dropped for their own
    price (`MissingOffers.dropped_items`), MISSING_NAMED at most, or "" for none."""
    if not items:
        return ""
    more = f" and {len(items) - MISSING_NAMED:,} more" if len(items) > MISSING_NAMED else ""
    return f" ({', '.join(items[:MISSING_NAMED])}{more})"


def _priced_out_text(missing) -> str:
    """What an accepted `MissingOffers` adds of its offers skipped as implausible prices or with their item ("" for
    none)."""
    skipped = missing.implausible + missing.dropped_with_item
    if not skipped:
        return ""
    one = skipped == 1
    how = _skipped_how(missing, one, f", {IMPLAUSIBLE},")
    return (f" ({skipped:,} of the {missing.missing:,} offers missing {'was' if one else 'were'} {how}"
            f"{'' if missing.implausible and not missing.dropped_with_item else ','} and {'is' if one else 'are'} not "
            f"saved)")


def _hardware_text(hardware: list) -> str:
    """Why a refresh whose hardware facts of instance types changed (`HardwareChange`) was refused."""
    return (f"hardware facts changed: {hardware_text(hardware)}; an instance type's hardware does not change under "
            f"its name, so more likely a broken feed or parser than new hardware, and a wrong GPU count divides or "
            f"multiplies every price per GPU-hour of the type, so nothing was saved. If these really are the facts, "
            f"refresh again with --accept-hardware-changes")


def _corrected_text(corrected: list) -> str:
    """What a refresh that gives the packaged hardware facts where the store's differ (`HardwareChange` CORRECTED) took,
    without --accept-hardware-changes: two sources against one."""
    return (f"hardware facts corrected: {hardware_text(corrected)}; the store held facts that fleetplan's packaged ones "
            f"contradict (a store saved before refreshes checked hardware facts kept a broken feed's unchecked), and "
            f"this refresh agrees with the packaged ones, so its facts are saved. If the store's were right (a change "
            f"you accepted with --accept-hardware-changes), the packaged facts are wrong: please report it")


def _contradicted_text(contradicted: list) -> str:
    """What a refresh that repeats the store's hardware facts where fleetplan's packaged ones differ (`HardwareChange`
    CONTRADICTED) saved: said on each such refresh, as neither side can be taken for the other."""
    return (f"hardware facts that fleetplan's packaged ones contradict, saved as the store and this refresh give them: "
            f"{hardware_text(contradicted)}; "
            f"a store saved before refreshes checked hardware facts may hold a broken feed's, which this refresh repeats "
            f"(a wrong GPU count divides or multiplies every price per GPU-hour of the type). If the packaged facts "
            f"are right, plan on the packaged prices (prices.source: snapshot) until the feed gives them; if the "
            f"store's are (a change you accepted with --accept-hardware-changes), the packaged facts are out of date: "
            f"please report it")


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
