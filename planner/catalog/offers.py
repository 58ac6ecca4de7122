"""Offers for one scenario: the cloud offers it allows (in its currency) and its on-prem cards.

`allowed` is the one filter of offers by a scenario's providers, regions, purchase options and cards;
the engine's inputs and the dashboard's price explorer both use it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING

from planner.catalog.gpus import (
    OVERRIDE_SOURCE,
    board_gpus,
    card_rows,
    custom_card_row,
    gpu_rows,
    load_cards,
    load_gpus,
    resolve_gpu,
    suggest,
    suggest_gpu,
)
from planner.catalog.prices import PRICE_SOURCE_WORDS
from planner.errors import PricesRefuteScenario
from planner.fileio import named_as_written
from pricing_adapters.currencies import currency_meant, is_iso_4217
from pricing_adapters.shown import SHOWN_CHARS, series, shortened

if TYPE_CHECKING:   # pandas is imported where a table is built: `import planner.catalog` stays light
    import numpy as np
    import pandas as pd


def capex_per_unit(price: float, host_cost_per_card: float, price_rate: float = 1.0, host_rate: float = 1.0) -> float:
    """Capex of one new on-prem unit: the card plus its share of the host server, each converted at
    its own rate (an override may quote the card in another currency than the catalog's host cost)."""
    return float(price) * price_rate + float(host_cost_per_card) * host_rate


def allowed(offers: pd.DataFrame, scenario) -> pd.Series:
    """Which rows of an offers table `scenario` may use: cloud rows of its providers, regions (None =
    all) and purchase options; on-prem rows of the cards it may buy (custom cards always) or owns."""
    o = scenario.onprem
    cards = set(o.cards) | set(o.existing) | set(scenario.constraints.min_units) | set(o.custom_cards)
    return ((offers["provider"] == "onprem") & offers["sku"].isin(cards)) | allowed_cloud(offers, scenario)


def allowed_cloud(offers: pd.DataFrame, scenario) -> np.ndarray:
    """[rows] True for the cloud rows of `offers` that `scenario` may use (its providers, regions and
    purchase options): the cloud part of `allowed` as plain bools, False where a value is missing.
    `isin` only: element-wise comparisons of the table's nullable string columns cost several times more."""
    p = scenario.prices
    cloud_providers = [x for x in p.providers if x != "onprem"]
    keep = (offers["provider"].isin(cloud_providers).to_numpy(dtype=bool)
            & offers["purchase_option"].isin(p.purchase_options).to_numpy(dtype=bool))
    if p.regions is not None:
        keep &= offers["region"].isin(p.regions).to_numpy(dtype=bool)
    return keep


def check_regions(offers, scenario, source: str | None = None) -> None:
    """A region no provider has is a typo; one of a provider not allowed here is simply unused. `offers`:
    an offers table, or `price_coverage`'s columns (`validate` checks with those, without pandas); `source`
    names its prices as their provenance does (default the scenario's prices.source; see `option_gaps`), an
    offers CSV said as the scenario's file wrote it (`prices_named`)."""
    p = scenario.prices
    if p.regions is None:
        return
    regions = offers["region"]
    # a column's cells read as one array: iterating a pandas column itself is slow
    known = sorted(set(regions.to_numpy(dtype=object).tolist() if hasattr(regions, "to_numpy") else regions))
    unknown = [r for r in p.regions if r not in known]
    if unknown:
        hints = [f"'{r}'" + (f" (did you mean '{suggest(r, known)[0]}'?)" if suggest(r, known) else "")
                 for r in unknown]
        raise PricesRefuteScenario(f"prices.regions: no offers in {', '.join(hints)} in the "
                                   f"{prices_named(scenario, source)} prices",
                                   ("prices", "regions", p.regions.index(unknown[0])))


# the field of a price source's own mistake: for the CLI to name the scenario line that names the file
SOURCE_FIELD = ("prices", "source")


def prices_named(scenario, source: str | None = None) -> str:
    """The prices `source` (their provenance's; default the scenario's prices.source) as messages name them: a word
    ('snapshot', 'store') as it is, an offers CSV as the scenario's file wrote it (`offers/q3.csv`; fileio's
    named_as_written), not the path it was resolved to (/home/u/plans/offers/q3.csv), which the user never wrote."""
    return named_as_written(scenario, source or scenario.prices.source, field="prices.source")


def check_no_card_rows(table: pd.DataFrame, source: str) -> None:
    """PricesRefuteScenario (field SOURCE_FIELD) when the price table `source` holds on-prem rows: the planner prices
    cards from the card catalog and the scenario only (docs/offers-contract.md), so a quote in an offers CSV was
    dropped without a word while the plan costed the card at the catalog's price. Names the rows as the CSV's other
    errors do (their file lines, with their offers), and the card_overrides entry that gives the first one's price."""
    import numpy as np

    from pricing_adapters.schema import name_rows
    from pricing_adapters.snapshot import FILE_LINES

    cards = table["provider"].isin(["onprem"]).to_numpy(dtype=bool)
    if not cards.any():
        return
    problems = np.where(cards, "an on-prem card (provider onprem)", "")
    first = table.iloc[int(np.flatnonzero(cards)[0])]
    these = "this row" if cards.sum() == 1 else "these rows"
    raise PricesRefuteScenario(
        f"prices.source: {source}: {name_rows(table, problems, table.attrs.get(FILE_LINES))}: the planner prices cards "
        f"from the card catalog and "
        f"the scenario, never from its price source, so {these} would be ignored; give the quote in the scenario "
        f"instead, {_card_quote_hint(first)}, and delete the on-prem rows", SOURCE_FIELD)


def _card_quote_hint(row) -> str:
    """Where the scenario takes the price of the on-prem offers row `row`: its card's onprem.card_overrides entry
    (upfront_price, the card with its host share, as the price and host share 0), or custom_cards for a card the
    catalog lacks."""
    card = str(row["sku"])
    if card not in _catalog_card_rows():
        return (f"as onprem.custom_cards.{shortened(card)} (gpu, price, currency, host_cost_per_card …): "
                f"{shortened(card, repr)} is not a card of the catalog")
    quote = [f"price: {float(row['upfront_price']):.15g}", f"currency: {row['currency']}", "host_cost_per_card: 0"]
    if str(row["as_of"]).strip():
        quote.append(f"as_of: {str(row['as_of']).strip()[:10]}")
    if len(str(row["source"])) <= SHOWN_CHARS:   # a longer one is left for the user to copy from the file
        quote.append(f"source: {json.dumps(str(row['source']), ensure_ascii=False)}")
    return (f"e.g. onprem.card_overrides: {{{card}: {{{', '.join(quote)}}}}} (upfront_price is the card with its host "
            f"share)")


def check_gpu_ids(table: pd.DataFrame, source: str) -> None:
    """PricesRefuteScenario (field SOURCE_FIELD) when a row of the offers CSV `source` says gpu_known but its gpu is
    no id of planner/data/gpus.csv (docs/offers-contract.md, "Unknown accelerators"): the engine knows a GPU by its
    id alone, so such an offer was left out of every plan as an unknown accelerator without a word, and the plan
    bought cards the offer would have undercut. Names the rows as the CSV's other errors do (their file lines, with
    their offers), each with the id it meant where the catalog can tell (`gpu_id_hint`)."""
    from pricing_adapters.schema import name_rows
    from pricing_adapters.snapshot import FILE_LINES

    unknown = table["gpu_known"].to_numpy(dtype=bool) & ~table["gpu"].isin(list(gpu_rows())).to_numpy(dtype=bool)
    if not unknown.any():
        return
    gpus = table["gpu"].to_numpy(dtype=object)
    said = {gpu: f"gpu {shortened(gpu, repr)} is no GPU id of planner/data/gpus.csv{gpu_id_hint(gpu)}"
            for gpu in set(gpus[unknown].tolist())}   # a file repeats its few names over many rows
    problems = [said[gpu] if bad else "" for gpu, bad in zip(gpus.tolist(), unknown.tolist())]
    raise PricesRefuteScenario(
        f"prices.source: {source}: {name_rows(table, problems, table.attrs.get(FILE_LINES))}: a row whose gpu_known is "
        f"True names its GPU by its id "
        f"in planner/data/gpus.csv, spelt as there, else plans leave the offer out as an unknown accelerator; for an "
        f"accelerator the catalog lacks, set gpu_known to False (the row is kept, and never planned on)", SOURCE_FIELD)


def gpu_id_hint(name: str) -> str:
    """What an offer's gpu `name` that is no catalog id meant, as a message's tail: the id it spells another way
    (' (did you mean 'A10G'?)' for 'a10g', 'Tesla T4' or 'A1\\x000G'), the boards of the family it names ('A100-80GB',
    'NVIDIA A100 80GB': PCIe and SXM, whose speeds differ: the row's memory cannot tell them apart), the id spelt
    nearest to it, or ''."""
    # the inventory's reading of a family name, with or without the vendor's words before it ('NVIDIA A100 80GB')
    from planner.catalog.inventory import _family as family_named

    # Even a name that differs from an id in case alone ('a10g') is refused, not read as the id: the gpu column is
    # the key every reader of the table compares as written (the engine's GPU facts and speeds, `fleetplan offers
    # --gpu`, the plan's prices_used, FOCUS exports), and the file would say one GPU while the plan used another's
    # spelling; the message gives the id, one edit of the file.
    meant = resolve_gpu(name)
    if meant is not None:
        return f" (did you mean '{meant}'?)"
    members = family_named(name)
    if members:
        return f": it names a family ({series(members)}); give the one this offer rents"
    near = suggest_gpu(name, same_model=True)
    return f" (did you mean '{near[0]}'?)" if near else ""


def cloud_rows(scenario, table: pd.DataFrame, source: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(positions, rate): where in `table` the scenario's allowed cloud offers are, and per offer the rate
    that converts its prices to the scenario currency. PricesRefuteScenario (a mistake of the scenario's)
    for a region no provider has or a currency fx lacks, naming the prices as `source` (see `check_regions`), an
    offers CSV as the scenario's file wrote it (`prices_named`)."""
    import numpy as np

    where = prices_named(scenario, source)
    check_no_card_rows(table, where)
    if scenario.prices.source not in PRICE_SOURCE_WORDS:
        # the user's file: the packaged snapshot and the store mark an accelerator their name tables do not know
        # gpu_known False (the snapshot's Standard_ND40s_v2), and the ids of those tables are all catalog ids
        check_gpu_ids(table, where)
    check_regions(table, scenario, source)
    rows = np.flatnonzero(allowed_cloud(table, scenario))
    currency = table["currency"].to_numpy(dtype=object)[rows].tolist()
    rates = {cur: scenario.fx_rate(cur) for cur in set(currency)}
    missing = sorted(c for c, r in rates.items() if r is None)
    # validate_offers refuses a code outside ISO 4217 list one; a table that bypassed it is not sent to an fx key the
    # scenario refuses (BGN was: add fx: {BGN: …}, then "fx.BGN: expected an ISO 4217 currency code")
    unlisted = [c for c in missing if not is_iso_4217(c)]
    if unlisted:
        meant = currency_meant(unlisted[0])
        codes = "a code" if len(unlisted) == 1 else "codes"
        raise PricesRefuteScenario(f"prices.source: {where}: offers are priced in {', '.join(map(repr, unlisted))}, not "
                                   f"{codes} of ISO 4217 list one{f' ({meant})' if meant else ''}, which fx cannot "
                                   f"give a rate for; price them in a current currency", SOURCE_FIELD)
    if missing:
        raise PricesRefuteScenario(f"fx: offers in the {where} prices are priced in "
                                   f"{', '.join(missing)}, which fx has no rate for; "
                                   f"add fx: {{{missing[0]}: <{scenario.currency} per 1 {missing[0]}>}}")
    return rows, np.array([rates[cur] for cur in currency], dtype=float)


SITE_CARD_COLUMNS = ["card_id", "gpu", "buyable", "capex", "busy_watts", "idle_watts", "cards_per_server", "life_years",
                     "maintenance_rate_per_year", "existing", "age_months", "min_units", "max_units", "as_of", "source"]


def site_cards(scenario) -> pd.DataFrame:
    """The scenario's candidate and owned cards with overrides applied, money in the scenario currency.

    Columns: card_id, gpu, buyable (listed in onprem.cards, or a custom card; others are only owned or required),
    capex (per new unit: price + host share), busy_watts, idle_watts,
    cards_per_server, life_years, maintenance_rate_per_year, existing, age_months (of the owned cards at month 1),
    min_units, max_units (NaN = none),
    as_of, source.
    """
    import pandas as pd

    return pd.DataFrame(site_card_rows(scenario), columns=SITE_CARD_COLUMNS)


@lru_cache(maxsize=1)
def _catalog_card_rows() -> dict[str, dict]:
    """`load_cards()` as one dict per card id (a `.loc` row per card and scenario costs more); copy before changing one."""
    return load_cards().to_dict("index")


def _override_provenance(given: dict) -> dict:
    """`as_of` and `source` of a catalog card whose price an override replaces: the override's own, never the
    catalog's (which dated and cited the price replaced). An undated override is the scenario's quote
    (OVERRIDE_SOURCE; catalog.prices.date_report names it as quoted, neither dated nor undated); a dated one
    is checked for age like any dated price."""
    if given.get("as_of"):
        return {"as_of": given["as_of"], "source": given.get("source") or f"{OVERRIDE_SOURCE}: no source given"}
    return {"as_of": "", "source": f"{OVERRIDE_SOURCE}: {given.get('source') or 'no source given'}"}


# Where the price of a card with none sourced goes, as unpriced_card_findings' messages end ({card}: the card's id);
# the dashboard says it in its own words by matching this template (fleetplan_dashboard.tables.PAGE_FIELD_REMEDIES)
UNPRICED_CARD_REMEDY = "set onprem.card_overrides.{card}.price (and currency) from a quote"


def units_required(card: dict) -> bool:
    """Whether constraints.min_units asks for more units of `card` (card_id, existing, min_units) than are owned."""
    return card["min_units"] > max(0, card["existing"])


def unpriced_card_findings(unpriced: list[dict]) -> tuple[list[str], list[str]]:
    """(errors, warnings) of the cards whose price has no source in the catalog (and no override), in plan's words
    (engine.inputs._unpriced_cards) and validate's (unpriced_card_rows): `unpriced` holds their card_id, buyable,
    existing and min_units. Requiring units of such a card (min_units) is an error, since nothing says what they
    cost; else one warning per card: it is not bought, and units owned are not sold (their resale value is unknown)."""
    required = [f"constraints.min_units.{card['card_id']}: card {card['card_id']} has no sourced price in the "
                f"catalog; {UNPRICED_CARD_REMEDY.format(card=card['card_id'])}"
                for card in unpriced if units_required(card)]
    if required:
        return required, []
    warnings = []
    for card in unpriced:
        uses = ["it is not bought"] if card["buyable"] else []
        if card["existing"] > 0:
            uses.append("the units owned are not sold (their resale value is unknown) and their maintenance counts as 0")
        if not uses:   # neither bought nor owned (`existing: {card: 0}`): nothing in the plan rests on its price
            continue
        use = "; ".join(uses)
        warnings.append(f"card {card['card_id']} has no sourced price in the catalog: {use}; "
                        f"{UNPRICED_CARD_REMEDY.format(card=card['card_id'])}")
    return [], warnings


def unpriced_card_rows(scenario) -> list[dict]:
    """The scenario's catalog cards (listed, owned or required) whose capex has no source, as site_card_rows finds
    them (price or host_cost_per_card empty in onprem_cards.csv and not given by onprem.card_overrides), read from
    the catalog's text rows: no pandas, so validate stays quick. Each with the keys unpriced_card_findings reads."""
    o, c = scenario.onprem, scenario.constraints
    catalog_cards = card_rows()
    rows = []
    for card_id in dict.fromkeys([*o.cards, *o.existing, *c.min_units]):
        if card_id in o.custom_cards or card_id not in catalog_cards:   # a custom card is priced; an unknown id is an error
            continue
        override = o.card_overrides.get(card_id)
        given = {k: getattr(override, k, None) for k in ("price", "host_cost_per_card")} if override else {}
        if all(given.get(k) is not None or catalog_cards[card_id][k].strip() for k in ("price", "host_cost_per_card")):
            continue
        rows.append({"card_id": card_id, "buyable": card_id in o.cards, "existing": o.owned_count(card_id),
                     "min_units": int(c.min_units.get(card_id, 0))})
    return rows


def _amount(cell) -> float:
    """A money cell of the catalog's text rows or of the scenario ('' = no sourced figure: NaN)."""
    text = str(cell).strip()
    return float(text) if text else float("nan")


def quote_currency(scenario, card_id: str) -> str | None:
    """The currency of the price and host share that the scenario's onprem.card_overrides or custom_cards entry of
    `card_id` gives, as site_card_rows converts them: the entry's own `currency`, else an override's amounts are in
    the catalog card's currency and a custom card's in the scenario's (docs/scenario-format.md); None where the entry
    gives neither amount, or the card is neither quoted nor in the catalog. Read from the catalog's text rows."""
    o = scenario.onprem
    custom, override = o.custom_cards.get(card_id), o.card_overrides.get(card_id)
    if custom is not None:
        return custom.currency or scenario.currency
    if override is None or (override.price is None and override.host_cost_per_card is None):
        return None
    if override.currency:
        return override.currency
    row = card_rows().get(card_id)
    return row["currency"] if row else None


def card_costs(scenario) -> dict[str, dict]:
    """Per card of `scenario` (listed, custom, owned or required) with a sourced capex that its fx can convert, as
    site_card_rows prices it: {"buyable", "price" and "host" (host_cost_per_card) in the scenario currency, each at
    its own rate, "capex" (their sum), "as_given" (the price and the host share as given, each (amount, currency,
    rate to the scenario's)), "cards_per_server", "busy_watts" (W at the wall, host share included), "leaves_out",
    "sold_in_units_of"}: "leaves_out" is the
    catalog's price_leaves_out, what its price leaves out (a lower bound), '' where it has none or the scenario gives
    the card's price or host share; "sold_in_units_of" the catalog's, the GPUs of the whole board the card is sold
    as only (8 for an HGX row priced per GPU), 1 where it is sold one at a time (empty cell, custom card).
    Read from the catalog's text rows, without pandas, so validate stays quick."""
    o = scenario.onprem
    catalog_cards = card_rows()
    out = {}
    for card_id in dict.fromkeys([*o.cards, *o.custom_cards, *o.existing, *scenario.constraints.min_units]):
        custom = o.custom_cards.get(card_id)
        if custom is None and card_id not in catalog_cards:
            continue
        row = dict(catalog_cards[card_id]) if custom is None else {
            "price": custom.price, "currency": custom.currency or scenario.currency,
            "host_cost_per_card": custom.host_cost_per_card, "cards_per_server": custom.cards_per_server,
            "busy_watts": custom.busy_watts}
        catalog_currency = row["currency"]
        override = o.card_overrides.get(card_id)
        given = {k: v for k, v in override.model_dump().items() if v is not None} if override else {}
        row.update(given)
        price_rate = scenario.fx_rate(row["currency"] if "price" in given else catalog_currency)
        host_rate = scenario.fx_rate(row["currency"] if "host_cost_per_card" in given else catalog_currency)
        price, host = _amount(row["price"]), _amount(row["host_cost_per_card"])
        if price_rate is None or host_rate is None or price != price or host != host:   # NaN: no sourced figure
            continue
        quoted = "price" in given or "host_cost_per_card" in given
        price_currency = row["currency"] if "price" in given else catalog_currency
        host_currency = row["currency"] if "host_cost_per_card" in given else catalog_currency
        out[card_id] = {"as_given": ((price, price_currency, price_rate), (host, host_currency, host_rate)),
                        "buyable": o.may_buy(card_id), "price": price * price_rate,
                        "host": host * host_rate, "capex": capex_per_unit(price, host, price_rate, host_rate),
                        "cards_per_server": int(float(row["cards_per_server"])), "busy_watts": float(row["busy_watts"]),
                        "leaves_out": "" if quoted else str(row.get("price_leaves_out") or "").strip(),
                        "sold_in_units_of": 1 if custom is not None else board_gpus(card_id)}
    return out


def site_card_rows(scenario) -> list[dict]:
    """The rows of `site_cards(scenario)` as dicts (SITE_CARD_COLUMNS), for callers that build their own table."""
    o, c = scenario.onprem, scenario.constraints
    cards = _catalog_card_rows()
    ids = list(dict.fromkeys([*o.cards, *o.custom_cards, *o.existing, *c.min_units]))
    rows = []
    for card_id in ids:
        custom = o.custom_cards.get(card_id)
        row = custom_card_row(card_id, custom, scenario.currency) if custom else dict(cards[card_id])
        catalog_currency = row["currency"]
        override = o.card_overrides.get(card_id)
        given = {k: v for k, v in override.model_dump().items() if v is not None} if override else {}
        row.update(given)
        if "price" in given and not custom:
            row.update(_override_provenance(given))
        # An override's currency applies to the amounts it gives; catalog amounts keep their own.
        price_rate = scenario.fx_rate(row["currency"] if "price" in given else catalog_currency)
        host_rate = scenario.fx_rate(row["currency"] if "host_cost_per_card" in given else catalog_currency)
        rows.append({
            "card_id": card_id, "gpu": row["gpu"], "buyable": o.may_buy(card_id),
            "capex": capex_per_unit(row["price"], row["host_cost_per_card"], price_rate, host_rate),
            "busy_watts": float(row["busy_watts"]), "idle_watts": float(row["idle_watts"]),
            "cards_per_server": float(row["cards_per_server"]), "life_years": float(row["life_years"]),
            "maintenance_rate_per_year": float(row["maintenance_rate_per_year"]),
            "existing": o.owned_count(card_id), "age_months": o.owned_age_months(card_id),
            "min_units": int(c.min_units.get(card_id, 0)),
            "max_units": float(c.max_units[card_id]) if card_id in c.max_units else float("nan"),
            "as_of": row["as_of"], "source": row["source"],
        })
    return rows


# the note of onprem_offers' rows, which only the offers view shows (engine.offer_costs.offers_table: `fleetplan offers`;
# the dashboard notes its own): there the running costs are those of the electricity price and PUE it is given, no
# scenario's ("running costs per scenario" was said where there is none), and the hourly figure is
# engine.schedule.owned_cost_per_hour's, which the note had not said (an hourly price of a card read as a rent)
ONPREM_OFFER_NOTE = ("capex = card + host share; the hourly price is the card busy every hour of its life: capex "
                     "spread over its life (nothing back at its end), maintenance, and energy at busy power at the "
                     "electricity price and PUE given (offers: --electricity, --pue); no availability, colocation "
                     "or site costs")


def onprem_offers(card_ids: list[str] | None = None, overrides: dict | None = None) -> pd.DataFrame:
    """On-prem cards as offers-table rows (`purchase`), in each card's own currency.

    upfront_price is the capex of one unit (card + host share); hourly_price is 0 because running
    costs (energy, maintenance) depend on the site and are costed by the engine's cost schedule.
    """
    import pandas as pd

    from pricing_adapters.schema import validate_offers

    cards = load_cards()
    gpus = load_gpus()
    overrides = overrides or {}
    rows = []
    for card_id in (card_ids if card_ids is not None else list(cards.index)):
        card = dict(cards.loc[card_id])
        card.update({k: v for k, v in dict(overrides.get(card_id) or {}).items() if v is not None})
        if pd.isna(card["price"]) or pd.isna(card["host_cost_per_card"]):
            continue   # no sourced price: not an offer (docs/data-sources.md says which cards)
        gpu = gpus.loc[card["gpu"]]
        rows.append(onprem_offer_row(card_id, card["gpu"], gpu["gpu"], gpu["memory_gb"],
                                     capex_per_unit(card["price"], card["host_cost_per_card"]), card["currency"],
                                     card["as_of"], card["source"], ONPREM_OFFER_NOTE))
    return validate_offers(pd.DataFrame(rows), origin="onprem cards")


def onprem_offer_row(card_id: str, gpu: str, accelerator_name: str, memory_gb: float, capex: float, currency: str,
                     as_of, source, note: str) -> dict:
    """One on-prem card as a row of the offers table: bought (`purchase`), one GPU, its capex per unit as
    the upfront price and no hourly price (running costs depend on the site)."""
    from pricing_adapters.schema import offer_id

    return {"offer_id": offer_id("onprem", "onprem", card_id, "purchase"),
            "provider": "onprem", "region": "onprem", "sku": card_id, "purchase_option": "purchase",
            "gpu": gpu, "gpu_known": True, "accelerator_name": accelerator_name,
            "gpu_count": 1.0, "gpu_memory_gb": memory_gb, "vcpus": float("nan"),
            "memory_gb": float("nan"), "hourly_price": 0.0, "upfront_price": capex,
            "currency": currency, "term_months": 0, "zone": "", "as_of": as_of, "source": source, "note": note}

