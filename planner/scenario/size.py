"""What a scenario says of the size of its model before any price or catalog table is read (no pandas): the integer
purchase variables, which `fleetplan plan` refuses above a limit (engine.run.check_size), so that `fleetplan validate`
refuses what plan is certain to refuse. The engine counts them on the built inputs (engine.model.purchase_variables):
one per card and purchase month it can be bought in, per owned batch's choice (kept, switched off), per reservation
offer. Which cards can serve a workload (the catalog's) and the reservation offers (the prices') are the plan's to
know: here they give the fewest and the most the plan can count, not the count."""

from __future__ import annotations

import typing

# How plan says to make the purchase variables fewer (engine.run.check_size), and, where reservation offers are among
# them (one per region, provider and reservation option), fewer of those too
_FEWER = ("quote fewer custom cards (onprem.custom_cards) or list fewer cards (onprem.cards), buy less often (a longer "
          "onprem.purchase_every_months){} or shorten horizon_months")
FEWER_PURCHASES = _FEWER.format("")
FEWER_RESERVATIONS = _FEWER.format(", allow fewer reservation options (prices.purchase_options), regions or providers "
                                   "(prices.regions, prices.providers)")
# the purchase options that are reservation offers (engine.inputs.KIND_OF_OPTION's "reserved", made from these)
RESERVATION_OPTIONS = frozenset({"reserved_1y", "reserved_3y", "savings_plan_1y", "savings_plan_3y"})


class PurchaseCount(typing.NamedTuple):
    """Integer purchase variables of a scenario's model, as engine.model.PurchaseVariables counts them but for the
    reservation offers: `purchases` (`cards` card types × `months` purchase months) and `owned` (one per owned batch
    and choice)."""

    purchases: int
    cards: int
    months: int
    owned: int

    @property
    def total(self) -> int:
        return self.purchases + self.owned


def purchase_months(horizon_months: int, every_months: int) -> list[int]:
    """Months a card can be bought in: 1, 1 + k, 1 + 2k … up to the horizon (the last purchase period is shorter
    when k does not divide the horizon). The engine's vintages are bought in these (engine.vintages)."""
    return list(range(1, horizon_months + 1, max(1, every_months)))


def purchase_counts(scenario) -> tuple[PurchaseCount, PurchaseCount]:
    """(fewest, most) purchase variables the model of `scenario` holds besides its reservation offers. A card bought
    (listed in onprem.cards, or a custom card whose `buyable` is not false) has one per purchase month when it can
    serve a workload, which the catalog says; a card required (constraints.min_units) has them in any case: the
    fewest count those, the most every card that may be bought or is required. Each owned card is one batch: kept,
    and switched off too where onprem.switch_off_owned allows it."""
    o, required = scenario.onprem, scenario.constraints.min_units
    months = len(purchase_months(scenario.horizon_months, o.purchase_every_months))
    cards = dict.fromkeys([*o.cards, *o.custom_cards, *o.existing, *required])
    bought = [card for card in cards if o.may_buy(card) or required.get(card, 0) > 0]
    surely = [card for card in bought if required.get(card, 0) > 0]
    owned = sum(o.owned_count(card) > 0 for card in cards) * (2 if o.switch_off_owned else 1)
    return (PurchaseCount(len(surely) * months, len(surely), months, owned),
            PurchaseCount(len(bought) * months, len(bought), months, owned))


def reservations_possible(scenario) -> bool:
    """Whether the prices may give the scenario reservation offers: a reservation option allowed, with a provider."""
    p = scenario.prices
    return bool(p.providers) and any(option in RESERVATION_OPTIONS for option in p.purchase_options)
