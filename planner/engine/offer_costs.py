"""What an hour of each offer costs: the cross-provider offers view (`fleetplan offers`, the
dashboard's price explorer).

Cloud offers from a price source plus on-prem cards, each with `usd_per_hour` and `usd_per_gpu_hour`,
filtered and sorted cheapest per GPU-hour first. Cloud rows cost their effective hourly price (the
offers contract's); on-prem rows the schedule's cost of a card busy every hour of its life.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from planner import catalog
from planner.engine.schedule import SiteCosts, owned_cost_per_hour
from planner.errors import PlannerError
from planner.scenario.model import DEFAULT_ELECTRICITY_PER_KWH, DEFAULT_PUE
from planner.text import counted, plural, series, shortened
from pricing_adapters import registry
from pricing_adapters.schema import PURCHASE_OPTIONS, effective_hourly

VIEW_COLUMNS = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb",
                "vcpus", "memory_gb", "usd_per_hour", "usd_per_gpu_hour", "zone", "as_of", "note"]

# Where the price of a catalog card with none sourced goes, as offers_table's warning ends; the dashboard says it
# in its own words by matching this text (fleetplan_dashboard.tables.PAGE_FIELD_REMEDIES)
UNPRICED_CARDS_REMEDY = ("give one in a scenario as onprem.card_overrides.<card>.price (and currency) from a quote, or "
                         "as a custom card (onprem.custom_cards) with its price")


@dataclass(frozen=True)
class OfferFilter:
    gpu: str | None = None
    min_memory_gb: float | None = None
    providers: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    max_usd_per_gpu_hour: float | None = None
    # the currency the cap was given in (`offers --currency EUR --max-price 3`: 3 EUR, held as its USD above), which
    # the warnings about what the cap leaves out name
    max_price_currency: str = "USD"


def _check_choices(values: tuple[str, ...], allowed: tuple[str, ...], flag: str) -> None:
    for v in values:
        if v not in allowed:
            near = catalog.suggest(v, allowed)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            raise PlannerError(f"{flag} {shortened(v, repr)}: expected one of {', '.join(allowed)}{hint}")


def apply_filter(offers: pd.DataFrame, f: OfferFilter) -> pd.DataFrame:
    """Rows of an offers table (with usd columns) that pass the filter; bad filter values raise."""
    _check_choices(f.providers, tuple(p.name for p in registry.providers()), "--provider")
    _check_choices(f.options, PURCHASE_OPTIONS, "--option")
    keep = pd.Series(True, index=offers.index)
    if f.gpu is not None:
        keep &= offers["gpu"].isin(catalog.gpus_named(f.gpu))
    if f.min_memory_gb is not None:
        keep &= offers["gpu_memory_gb"] >= f.min_memory_gb
    if f.providers:
        keep &= offers["provider"].isin(f.providers)
    if f.regions:
        known = tuple(sorted(set(offers["region"])))
        for r in f.regions:
            if r not in known:
                near = catalog.suggest(r, known)
                raise PlannerError(f"--region {shortened(r, repr)}: no offers in that region"
                                   + (f"; did you mean '{near[0]}'?" if near else ""))
        keep &= offers["region"].isin(f.regions) | (offers["provider"] == "onprem")
    if f.options:
        keep &= offers["purchase_option"].isin(f.options)
    if f.max_usd_per_gpu_hour is not None:
        keep &= offers["usd_per_gpu_hour"] <= f.max_usd_per_gpu_hour
    return offers[keep]


def offers_in_usd(offers: pd.DataFrame, cards: pd.DataFrame, fx_to_usd: dict[str, float],
                  electricity_usd_per_kwh: float, pue: float) -> pd.DataFrame:
    """Add `usd_per_hour` and `usd_per_gpu_hour` to an offers table (cloud and on-prem rows). Rows whose
    currency has no rate in `fx_to_usd` get NaN (the caller says which rate is missing)."""
    out = offers.copy()
    rate = out["currency"].map(lambda c: 1.0 if c == "USD" else fx_to_usd.get(c, np.nan)).astype(float)
    usd = effective_hourly(out["hourly_price"], out["upfront_price"], out["term_months"]) * rate
    onprem = (out["provider"] == "onprem").to_numpy()
    if onprem.any():
        card = cards.loc[out.loc[onprem, "sku"]]
        site = SiteCosts(electricity_usd_per_kwh, pue, colocation_per_kw_month=0.0, fixed_onprem_per_month=0.0)
        usd[onprem] = owned_cost_per_hour(out.loc[onprem, "upfront_price"].to_numpy() * rate[onprem].to_numpy(),
                                          card["life_years"], card["maintenance_rate_per_year"],
                                          card["idle_watts"], card["busy_watts"], site)
    out["usd_per_hour"] = usd.astype(float)
    out["usd_per_gpu_hour"] = out["usd_per_hour"] / out["gpu_count"].where(out["gpu_count"] > 0)
    return out


def _first_skus(rows: pd.DataFrame, shown: int = 5) -> str:
    """`sku1, sku2, … and N more` of the distinct skus of `rows`."""
    skus = sorted(set(rows["sku"]))
    return ", ".join(skus[:shown]) + (f" and {len(skus) - shown} more" if len(skus) > shown else "")


def offers_table(f: OfferFilter, fx_to_usd: dict[str, float], electricity_usd_per_kwh: float = DEFAULT_ELECTRICITY_PER_KWH,
                 pue: float = DEFAULT_PUE, cloud: pd.DataFrame | None = None, scenario=None,
                 allowed_only: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """(view rows, warnings). `cloud` defaults to the packaged snapshot. A warning names the catalog cards
    with no sourced price that the filter would show (with a scenario: only those of its cards it gives no
    price either). The defaults of `electricity_usd_per_kwh` and `pue` are a scenario's (scenario.model: the PUE
    the industry average of 2023, Uptime Institute; the electricity price an assumption with no source).

    `scenario` (the dashboard's): its cards are costed with its own figures, as the planner costs them
    (`scenario_cards`: card_overrides applied, custom cards added), the other catalog cards with the catalog's;
    `fx_to_usd` must then rate its currency, and a missing rate is asked of its fx. `allowed_only` (with a
    scenario): only the offers it may use (catalog.allowed), and so only the warnings about those — a card it
    does not list, priced in a currency it has no rate for, is not its concern."""
    from pricing_adapters.snapshot import load_snapshot

    cloud = load_snapshot() if cloud is None else cloud
    cards = catalog.load_cards()
    onprem = catalog.onprem_offers()
    listed_cards = None   # whose lack of a price is worth a warning: None, every card
    if scenario is not None:
        own, own_cards = scenario_cards(scenario)
        listed_cards = [c for c in own_cards.index if c not in set(own["sku"])]   # the planner's unpriced cards
        others = onprem[~onprem["sku"].isin(own_cards.index)].assign(note=CATALOG_NOTE)
        onprem = pd.concat([others, own], ignore_index=True)
        cards = pd.concat([cards.drop(index=own_cards.index, errors="ignore")[own_cards.columns], own_cards])
    all_offers = pd.concat([cloud, onprem], ignore_index=True)
    if allowed_only and scenario is not None:
        all_offers = all_offers[catalog.allowed(all_offers, scenario)].reset_index(drop=True)
    priced = offers_in_usd(all_offers, cards, fx_to_usd, electricity_usd_per_kwh, pue)
    # the rows the filter passes but for the price cap: a row with no USD price has none to compare with
    # the cap, so --max-price drops it, and it is named here rather than lost without a word
    uncapped = apply_filter(priced, replace(f, max_usd_per_gpu_hour=None))
    # the cap alone on the second pass: the region check again, on rows already narrowed by provider and
    # GPU, took a valid region with none of them left for an unknown one
    view = uncapped if f.max_usd_per_gpu_hour is None else uncapped[uncapped["usd_per_gpu_hour"] <= f.max_usd_per_gpu_hour]
    warnings = []
    no_usd = uncapped[uncapped["usd_per_hour"].isna()]
    for cur in sorted(set(no_usd["currency"])):
        skus = ", ".join(sorted(no_usd.loc[no_usd["currency"] == cur, "sku"]))
        if scenario is not None:   # the dashboard: its user has no --fx to pass, only the scenario's fx
            warnings.append(f"{skus} priced in {cur}: add its rate to the scenario to compare, e.g. "
                            f"fx: {{{cur}: <{scenario.currency} per 1 {cur}>}}")
        elif f.max_usd_per_gpu_hour is None:
            warnings.append(f"{skus} priced in {cur}: pass --fx {cur}=<USD per 1 {cur}> to compare")
        else:
            warnings.append(f"{skus} priced in {cur} left out: --max-price compares {f.max_price_currency} per "
                            f"GPU-hour and there is no rate for {cur}; pass --fx {cur}=<USD per 1 {cur}> (in a "
                            f"scenario: fx) to include them")
    if f.max_usd_per_gpu_hour is not None:   # a USD price but no GPU count: no per-GPU price to cap
        uncounted = uncapped[uncapped["usd_per_hour"].notna() & uncapped["usd_per_gpu_hour"].isna()]
        if len(uncounted):
            warnings.append(f"{counted(len(uncounted), 'offer')} with an unknown gpu_count left "
                            f"out ({_first_skus(uncounted)}): --max-price compares {f.max_price_currency} per GPU-hour")
    warnings += _regions_of_other_providers(priced, f)
    if f.min_memory_gb is not None:   # memory not known: no figure to hold to --min-memory (Inferentia, V620 …)
        unsized = apply_filter(priced, replace(f, min_memory_gb=None, max_usd_per_gpu_hour=None))
        unsized = unsized[unsized["gpu_memory_gb"].isna()]
        if len(unsized):
            warnings.append(f"{counted(len(unsized), 'offer')} with an unknown gpu_memory_gb left "
                            f"out ({_first_skus(unsized)}): --min-memory needs the GPU's memory")
    unpriced = _unpriced_cards(f, listed_cards)
    if unpriced:
        warnings.append(f"on-prem {plural(len(unpriced), 'card')} {', '.join(unpriced)} not shown: no sourced "
                        f"price in the catalog; {UNPRICED_CARDS_REMEDY}")
    view = view.sort_values(["usd_per_gpu_hour", "offer_id"], na_position="last", kind="mergesort")
    return view[VIEW_COLUMNS].reset_index(drop=True), warnings


def _regions_of_other_providers(offers: pd.DataFrame, f: OfferFilter) -> list[str]:
    """A warning naming each --region in which no cloud --provider given has an offer, and the provider(s) of every
    --region given, from `offers` (the view's rows, unfiltered): `--provider aws --region eastus` printed "0 offers"
    without a word that eastus is an Azure region. [] where every region has an offer of a provider given, or no cloud
    provider is given (on-prem cards pass any --region)."""
    cloud = [p for p in dict.fromkeys(f.providers) if p != registry.ONPREM]
    if not cloud or not f.regions:
        return []
    regions = list(dict.fromkeys(f.regions))
    owners = {r: sorted(set(offers.loc[offers["region"] == r, "provider"])) for r in regions}
    missed = [r for r in regions if not set(owners[r]) & set(cloud)]
    if not missed:
        return []
    label = {p.name: p.label for p in registry.providers()}

    def whose(region: str) -> str:
        if owners[region] == [registry.ONPREM]:
            return "the on-prem cards' region"
        names = [label.get(p, p) for p in owners[region]]
        if not names:   # a region no offer of the price data is in (a check of --region before refuses most)
            return "a region with no offer"
        if len(names) > 1:
            return f"a region of {series(names)}"
        return f"{'an' if names[0][:1] in 'AEIOU' else 'a'} {names[0]} region"   # an AWS, an Azure region

    kept = [r for r in regions if r not in missed]
    onprem = " (on-prem cards pass any --region)" if registry.ONPREM in f.providers else ""
    so = (f"only the offers in {series(kept)} are shown{onprem}" if kept
          else f"the two filters together match no {'cloud ' if onprem else ''}offer{onprem}")
    return [f"no offer of --provider {series(cloud, 'or')} is in --region {series(missed, 'or')}: "
            f"{series(f'{r} is {whose(r)}' for r in regions)}, so {so}"]


CARD_FACTS = ["life_years", "maintenance_rate_per_year", "idle_watts", "busy_watts"]   # what offers_in_usd reads
CATALOG_NOTE = "catalog figures; capex = card + host share"


def scenario_cards(scenario) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(offers rows, card facts) of `scenario`'s on-prem cards with the figures the planner uses
    (`catalog.site_card_rows`: card_overrides applied, custom cards included): the rows priced in the scenario
    currency, upfront_price the capex of one unit, `note` saying whose figures they are; the facts (CARD_FACTS)
    indexed by card id, for every card, the rows only for the priced ones (capex not NaN)."""
    from planner.catalog.offers import onprem_offer_row, site_card_rows
    from pricing_adapters.schema import OFFER_COLUMNS, validate_offers

    site = site_card_rows(scenario)   # registers the custom cards' GPUs in gpu_table
    gpus = catalog.gpu_table()
    o = scenario.onprem
    rows = []
    for card in site:
        if np.isnan(card["capex"]):
            continue   # no sourced price and none given: not an offer (offers_table names it)
        card_id = card["card_id"]
        given = sorted(k for k, v in (o.card_overrides[card_id].model_dump() if card_id in o.card_overrides
                                      else {}).items() if v is not None and k not in ("as_of", "source"))
        whose = ("scenario custom_cards" if card_id in o.custom_cards
                 else f"scenario card_overrides ({', '.join(given)}), rest catalog" if given else "catalog figures")
        rows.append(onprem_offer_row(card_id, card["gpu"], card["gpu"], gpus.loc[card["gpu"], "memory_gb"],
                                     card["capex"], scenario.currency, card["as_of"], card["source"],
                                     f"{whose}; capex = card + host share"))
    facts = pd.DataFrame(site, columns=["card_id", *CARD_FACTS]).set_index("card_id")
    table = pd.DataFrame(rows, columns=[c for c in OFFER_COLUMNS if c != "gpu_memory_mib"])   # columns: rows may be none
    return validate_offers(table, origin=f"scenario {scenario.name} cards"), facts


def _unpriced_cards(f: OfferFilter, listed: Collection[str] | None) -> list[str]:
    """Catalog cards that `catalog.onprem_offers` leaves out for lack of a sourced price (card or host share)
    and that would pass `f` (but for its price cap), restricted to `listed` when given; sorted."""
    cards = catalog.load_cards()
    missing = cards[cards["price"].isna() | cards["host_cost_per_card"].isna()]
    if listed is not None:
        missing = missing[missing.index.isin(list(listed))]
    if missing.empty:
        return []
    memory = catalog.load_gpus()["memory_gb"]
    rows = pd.DataFrame({"provider": "onprem", "region": "onprem", "purchase_option": "purchase",
                         "sku": missing.index, "gpu": missing["gpu"].to_numpy(),
                         "gpu_memory_gb": memory.loc[missing["gpu"]].to_numpy(dtype=float)})
    # regions: on-prem rows pass any region filter, and the offers' own check of the names has run already
    return sorted(apply_filter(rows, replace(f, max_usd_per_gpu_hour=None, regions=()))["sku"])
