"""Warnings on what a scenario's on-prem costs rest on: a quote given without a currency and read in the catalog card's
(converted into another scenario currency), catalog prices that are lower bounds, a capex budget below the price of any
card it may buy (a budget typed in thousands), purchases that pay for part of a host, and units of a card sold only as
whole boards (an HGX row: 8 GPUs, priced per GPU) that are not whole boards.

Each warning starts with the dotted path of the field it is about, as loading.plausibility_warnings' do; validate
places `scenario_cost_warnings` in the file, a plan lists the texts (engine.run.plan_notes) with those of
`bought_cost_warnings`, which need the plan's purchases.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from planner.catalog.offers import card_costs, quote_currency
from planner.scenario.fx_check import implausible_fx
from planner.text import number_text

Path_ = tuple


def lower_bound_prices(scenario, bought: Mapping[str, int] | None = None) -> list[tuple[Path_, str]]:
    """(field, warning) for each catalog card of onprem.cards whose catalog price is a lower bound (its
    price_leaves_out, docs/data-sources.md), naming what it leaves out: each card the scenario may buy (`bought`
    None: validate), or each the plan buys (`bought`: card -> units bought). None for a card whose price or host
    share onprem.card_overrides gives: the quote is the user's."""
    costs = card_costs(scenario)
    found = []
    for i, card in enumerate(scenario.onprem.cards):
        cost = costs.get(card)
        if cost is None or not cost["leaves_out"] or (bought is not None and not bought.get(card)):
            continue
        at = ("onprem", "cards", i)
        who = (f"the plan buys {bought[card]:,}, so its capex and total are understated"
               if bought is not None else "a plan that buys it understates its capex and total")
        found.append((at, f"onprem.cards[{i}]: card {card}: its catalog price ({number_text(cost['price'])} "
                          f"{scenario.currency} a card, host share {number_text(cost['host'])}) is a lower bound: it leaves "
                          f"out {cost['leaves_out']}; {who}; give a quote in onprem.card_overrides.{card} (price and "
                          f"host_cost_per_card) — docs/data-sources.md"))
    return found


def implausible_capex_budget(scenario) -> list[tuple[Path_, str]]:
    """(field, warning) for onprem.capex_budget and capex_budget_per_year above 0 but below the cheapest purchase the
    scenario may make, new (price + host share, in its currency): one card, or one whole board of a card sold only as
    whole boards (the catalog's sold_in_units_of: 8 × 39,625 USD for an HGX H100), as the engine buys it (engine
    model, whole_boards); no card can be bought, and the plan goes to the cloud without a word; most often a budget
    typed in thousands (60 for 60,000). None said while a rate the buyable cards' prices are converted at looks wrong
    (fx_check): `fx: {USD: 92}` in a EUR scenario blamed a right budget for it (an audit, 2026-12-07); the rate's own
    warning speaks. A doubted rate of a currency no such card is priced in (fx.CNY with USD cards) silenced it too."""
    costs = {card: c for card, c in card_costs(scenario).items() if c["buyable"]}
    doubted = {at[1] for at, _ in implausible_fx(scenario.currency, dict(scenario.fx))}
    if not costs or doubted & {currency for c in costs.values() for _, currency, _ in c["as_given"]}:
        return []
    # a board's capex is its GPUs' (the card's capex is per GPU); an audit's 300,000 USD a year, short of one
    # 317,000 USD HGX board, was compared with one GPU's 39,625 and passed
    purchase = {card: c["capex"] * c["sold_in_units_of"] for card, c in costs.items()}
    cheapest = min(purchase, key=purchase.__getitem__)
    least, cur, cost = purchase[cheapest], scenario.currency, costs[cheapest]
    size = cost["sold_in_units_of"]
    share = " with its host share" if size <= 1 or cost["host"] > 0 else ""
    what = (f"{number_text(least)} {cur}{share}" if size <= 1 else
            f"{number_text(least)} {cur} for a board of {size}, sold only whole: {size} × {number_text(cost['capex'])} "
            f"{cur} a GPU{share}")
    found = []
    for field in ("capex_budget", "capex_budget_per_year"):
        budget = getattr(scenario.onprem, field)
        if budget is None or budget <= 0 or budget >= least:
            continue
        # above a tenth of the purchase it reads as a budget short of it (300,000 or 150,000 against a 317,000 board),
        # not as thousands typed as units ("for 300,000 thousand, write 300000000"); a tenth or less, as those
        meant = (f"{number_text(least - budget)} {cur} short of it" if 10 * budget > least else
                 f"expected {cur}: for {number_text(budget)} thousand, write {number_text(budget * 1000).replace(',', '')}"
                 if budget * 1000 >= least else f"expected {cur}")
        found.append((("onprem", field), f"onprem.{field}: {number_text(budget)} {cur} is less than the cheapest card the "
                                         f"scenario may buy costs new ({cheapest}: {what}), so no card can be bought; "
                                         f"{meant}"))
    return found


def _sold_as(cost: dict, cur: str) -> str:
    """'it is sold only as whole 8-GPU boards (priced here per GPU: 27,000 USD a GPU)', for a card sold whole."""
    share = " with its host share" if cost["host"] > 0 else ""
    return (f"it is sold only as whole {cost['sold_in_units_of']}-GPU boards (priced here per GPU: "
            f"{number_text(cost['capex'])} {cur} a GPU{share})")


WHOLE_BOARDS_NOTE = "the plan buys such a card in whole boards only: docs/cost-model.md"


def part_boards_required(scenario) -> list[tuple[Path_, str]]:
    """(field, warning) for constraints.min_units and max_units of a card sold only as whole boards of N GPUs (the
    catalog's sold_in_units_of, docs/data-sources.md) that are not a multiple of N: the plan buys whole boards (engine
    model), so a min_units is met by the whole boards above it and a max_units allows only the whole boards below it;
    each names that purchase and its capex (price + host share, in the scenario's currency, undiscounted). Bounds with
    no whole board between them are whole_board_gaps' (an error)."""
    costs, cur = card_costs(scenario), scenario.currency
    gaps = {field for field, _ in whole_board_gaps(scenario)}
    found = []
    for field, words in (("min_units", "at least"), ("max_units", "at most")):
        for card, units in getattr(scenario.constraints, field).items():
            cost = costs.get(card)
            size = cost["sold_in_units_of"] if cost else 1
            if size <= 1 or ("constraints", "max_units", card) in gaps:
                continue
            owned = scenario.onprem.owned_count(card)
            if (units - owned) % size == 0 or units <= owned:   # whole boards, or the owned alone meet or pass it
                continue
            bought = -(-(units - owned) // size) * size if field == "min_units" else (units - owned) // size * size
            bought = max(bought, 0)
            held = f" beside the {owned:,} owned" if owned else ""
            found.append((("constraints", field, card),
                          f"constraints.{field}.{card}: {words} {units:,} in the fleet, {_hosts(units, size, 'board')}, "
                          f"but {_sold_as(cost, cur)}: the plan buys {words} {_boards_of(bought, size, cost['capex'], cur)}"
                          f"{held} ({WHOLE_BOARDS_NOTE})"))
    return found


def _boards_of(units: int, size: int, capex: float, cur: str) -> str:
    """'8 (1 whole board, 216,000 USD new)'; '0 (no whole board)'."""
    boards = units // size
    if not boards:
        return "0 (no whole board)"
    return f"{units:,} ({boards:,} whole board{'' if boards == 1 else 's'}, {number_text(units * capex)} {cur} new)"


def whole_board_gaps(scenario) -> list[tuple[Path_, str]]:
    """(field, problem) for each card sold only as whole boards of N GPUs whose constraints.min_units and max_units
    hold no fleet of whole boards (with the cards owned of it: owned + k × N for a whole k): no plan meets them. At the
    max_units field."""
    costs = card_costs(scenario)
    c, o = scenario.constraints, scenario.onprem
    found = []
    for card, most in c.max_units.items():
        cost = costs.get(card)
        size = cost["sold_in_units_of"] if cost else 1
        least, owned = c.min_units.get(card, 0), o.owned_count(card)
        if size <= 1 or least <= owned or owned > most:
            continue
        fewest = owned + -(-(least - owned) // size) * size   # the fewest whole boards with the owned that reach least
        if fewest <= most:
            continue
        held = f" with the {owned:,} owned" if owned else ""
        found.append((("constraints", "max_units", card),
                      f"constraints.max_units.{card}: at most {most:,} and min_units at least {least:,}, but it is sold "
                      f"only as whole {size}-GPU boards: no whole number of boards{held} lies between them (the fewest "
                      f"that reach {least:,} are {fewest:,}); set them to hold a whole board, e.g. max_units {fewest:,}"))
    return found


def override_currency_defaults(scenario) -> list[tuple[Path_, str]]:
    """(field, warning) for each onprem.card_overrides entry that gives a price or host_cost_per_card without a
    currency, in a scenario whose currency is not the catalog card's: the amounts are read in the catalog card's
    currency (docs/scenario-format.md) and converted at its fx rate, which a quote meant in the scenario's currency
    never says (1,900 meant as EUR planned as 1,900 USD x 1.09 = 2,071 EUR). At the price (else the host share) given,
    naming each amount as read and as converted, and the `currency` that makes it the scenario's. Nothing where the
    amounts are all 0 (nothing to convert), or where fx has no rate for the catalog's currency: plan and validate
    refuse that on their own."""
    cur = scenario.currency
    found = []
    for card, override in scenario.onprem.card_overrides.items():
        given = [(f, getattr(override, f)) for f in ("price", "host_cost_per_card") if getattr(override, f) is not None]
        read_as = quote_currency(scenario, card) if given and not override.currency else None
        rate = scenario.fx_rate(read_as) if read_as else None
        if read_as is None or read_as == cur or rate is None or not any(v for _, v in given):
            continue
        at = ("onprem", "card_overrides", card, given[0][0])
        amounts = (number_text(given[0][1]) if len(given) == 1
                   else " and ".join(f"{f} {number_text(v)}" for f, v in given))
        converted = " and ".join(number_text(v * rate) for _, v in given)
        found.append((at, f"onprem.card_overrides.{card}.{given[0][0]}: {amounts} read as {read_as} (the catalog "
                          f"card's currency: the override gives none), converted at {rate:.15g} {cur} per {read_as} "
                          f"(fx.{read_as}) = {converted} {cur}; if the quote is in {cur}, add currency: {cur} to "
                          f"onprem.card_overrides.{card}"))
    return found


def scenario_cost_warnings(scenario) -> list[tuple[Path_, str]]:
    """What validate says of a scenario's costs before any plan: quoted amounts read in the catalog card's currency
    and converted, lower-bound prices of cards it may buy, a capex budget below any card's price, and unit bounds
    that hold part of a board of a card sold as whole boards."""
    return (override_currency_defaults(scenario) + lower_bound_prices(scenario) + implausible_capex_budget(scenario)
            + part_boards_required(scenario))


def _hosts(cards: int, per_host: int, noun: str = "host") -> str:
    """How many hosts `cards` cards fill at `per_host` a host, in words: 'half a host', '1/4 of a host', '5 3/4 hosts'
    (`noun`: 'board', '3/8 of a board')."""
    whole, part = divmod(cards, per_host)
    rest = Fraction(part, per_host)
    if not whole:
        return f"half a {noun}" if rest == Fraction(1, 2) else f"{rest} of a {noun}"
    return f"{whole} {rest} {noun}s"


def partial_hosts(scenario, bought: Mapping[str, int]) -> list[tuple[Path_, str]]:
    """(field, warning) for each card whose units bought over the plan (`bought`: card -> units) do not fill whole
    hosts: the model charges host_cost_per_card per card (a host's cost / cards_per_server), so such a plan pays for
    part of a host that must be bought whole (docs/cost-model.md). Cards with no host share, or one card a host,
    have none to warn of; nor have cards sold only as whole boards (the plan buys them whole)."""
    costs = card_costs(scenario)
    found = []
    for card, units in bought.items():
        cost = costs.get(card)
        if (cost is None or units <= 0 or cost["host"] <= 0 or cost["cards_per_server"] <= 1
                or cost["sold_in_units_of"] > 1):
            continue
        per_host, share = cost["cards_per_server"], cost["host"]
        if units % per_host == 0:
            continue
        short = per_host - units % per_host
        cur = scenario.currency
        noun, verb = ("card", "pays") if units == 1 else ("cards", "pay")
        found.append((("onprem", "cards"), f"card {card}: the plan buys {units:,} {noun}; its host share "
                                           f"({number_text(share)} {cur} a card) assumes {per_host} cards per "
                                           f"{number_text(share * per_host)} {cur} host, so {units:,} {noun} {verb} for "
                                           f"{_hosts(units, per_host)}: a whole host adds {number_text(short * share)} {cur} "
                                           f"(hosts are charged per card: docs/cost-model.md)"))
    return found


def bought_cost_warnings(scenario, bought: Mapping[str, int]) -> list[tuple[Path_, str]]:
    """What a plan that buys `bought` (card -> units bought over the plan) is told of its costs: quoted amounts read
    in the catalog card's currency and converted, the lower-bound prices of cards it buys, a capex budget below any
    card's price, and purchases that pay for part of a host (a card sold as whole boards is bought in whole boards)."""
    return (override_currency_defaults(scenario) + lower_bound_prices(scenario, bought) + implausible_capex_budget(scenario)
            + partial_hosts(scenario, bought))
