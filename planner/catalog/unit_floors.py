"""The fewest new cards a scenario's constraints.min_units ask, and the caps those alone pass (the capex budgets, the
power cap), found without solving: validate and `fleetplan plan` say them at once (cli.commands._min_units_checks),
and the library's plan() and sweeps refuse them so (engine.run.check_min_units_within_caps), where a plan's solve
found no fleet after its wait and its explanation named the budget alone. Read from the figures
the engine costs cards by (card_costs: price + host share at the scenario's fx, whole boards, busy watts), without
pandas, so validate stays quick."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from planner.catalog.offers import card_costs
from planner.text import number_text


@dataclass(frozen=True)
class UnitFloor:
    """One card's constraints.min_units with the figures the model costs and powers it by: `capex` a new unit's (price
    + host share, scenario currency: catalog.offers.capex_per_unit), `board` the GPUs of the whole board it is sold as
    only (1: one at a time), `busy_watts` a unit's at the wall, `owned` the units onprem.existing holds."""

    sku: str
    least: int
    owned: int
    capex: float
    board: int
    busy_watts: float
    # how `capex` is made, for the reader to check it: "11,500 USD + 2,500 USD host share at fx.USD 0.92"
    made_of: str = "a card with its host share"

    @property
    def bought(self) -> int:
        """The fewest units bought to meet the minimum in month 1: beyond the owned, up to whole boards."""
        return -(-max(self.least - self.owned, 0) // self.board) * self.board

    @property
    def in_service(self) -> int:
        """The fewest units in service in month 1: the minimum, or the whole boards bought for it where more."""
        return max(self.least, self.bought)

    def said(self, currency: str) -> str:
        """'6 × 12,880 EUR: 11,500 USD + 2,500 USD host share at fx.USD 0.92', with what it buys beyond the minimum
        or short of it: '(a whole 8-GPU board)', '(6 less 4 owned)'."""
        notes = [f"{self.least:,} less {self.owned:,} owned"] if self.owned else []
        if self.bought > max(self.least - self.owned, 0):
            boards = self.bought // self.board
            notes.append(f"{'a whole' if boards == 1 else f'{boards:,} whole'} {self.board}-GPU board{'s' * (boards > 1)}")
        return (f"{self.bought:,} × {self.capex:,.0f} {currency}: {self.made_of}"
                + (f" ({', '.join(notes)})" if notes else ""))


def _floors_named(floors: list[UnitFloor]) -> str:
    if len(floors) == 1:
        f = floors[0]
        return f"constraints.min_units.{f.sku}: {f.least:,} card{'s need' if f.least != 1 else ' needs'}"
    return f"constraints.min_units ({', '.join(f'{f.sku}: {f.least:,}' for f in floors)}) need"


def floors_beyond_caps(floors: list[UnitFloor], caps: Mapping[str, Any], currency: str,
                       where: Callable[[str], str] = lambda field: "") -> list[tuple[UnitFloor, str]]:
    """The caps the unit minimums alone exceed, found without solving: (the first card of those that need the cap,
    what they need against the cap's limit). Lower bounds of any fleet, as engine.constraints' _define_capex,
    _define_capex_per_year and _define_power count it: the new units the minimums ask in month 1 (UnitFloor.bought)
    are capex within the plan and within its first year (onprem.capex_budget, capex_budget_per_year), and the units
    they keep in service (UnitFloor.in_service) draw their busy watts in every month (onprem.power_cap_kw: installed
    IT power, no PUE: docs/cost-model.md). `where(field)`: words placing a cap's field, after its limit (validate:
    ' (line 19)'). The solve of an audit's plan found no
    fleet after 25 s, its explanation naming the budget alone ("capex budget 60,000 EUR < 77,280 EUR needed at the
    least: 6 × A100-80GB-PCIE")."""
    found = []
    buying = [f for f in floors if f.bought > 0 and math.isfinite(f.capex)]
    capex = sum(f.bought * f.capex for f in buying)
    for name, field, when in (("capex_budget", "onprem.capex_budget", ""),
                              ("capex_budget_per_year", "onprem.capex_budget_per_year", " in the plan's first year")):
        limit = caps.get(name)
        if limit is None or not buying or capex <= limit + 1e-6:
            continue
        found.append((buying[0], f"{_floors_named(buying)} at least {capex:,.0f} {currency} of new cards{when} "
                                 f"({'; '.join(f.said(currency) for f in buying)}), more "
                                 f"than {field} {limit:,.0f} {currency}{where(field)}: raise {field} or lower the "
                                 f"minimum{'s' * (len(buying) > 1)}"))
    drawing = [f for f in floors if f.least > 0 and f.busy_watts > 0]
    kw = sum(f.in_service * f.busy_watts for f in drawing) / 1000
    limit = caps.get("power_kw")
    if limit is not None and drawing and kw > limit + 1e-9:
        watts = " + ".join(f"{f.in_service:,} × {f.busy_watts:,.0f} W" for f in drawing)
        found.append((drawing[0], f"{_floors_named(drawing)} at least {kw:,.2f} kW in service ({watts} busy), more "
                                  f"than onprem.power_cap_kw {limit:g} kW{where('onprem.power_cap_kw')}: raise "
                                  f"onprem.power_cap_kw or lower the minimum{'s' * (len(drawing) > 1)}"))
    return found


def min_units_beyond_caps(scenario, where: Callable[[str], str] = lambda field: "") -> list[tuple[UnitFloor, str]]:
    """floors_beyond_caps of `scenario`'s own unit minimums and caps: the one check that validate and `fleetplan plan`
    (cli.commands._min_units_checks, `where` naming a cap's line) and the library's plan() and sweep
    (engine.run.check_min_units_within_caps) make before solving."""
    return floors_beyond_caps(scenario_floors(scenario), scenario_caps(scenario), scenario.currency, where)


def scenario_floors(scenario) -> list[UnitFloor]:
    """The cards of `scenario` with a constraints.min_units above 0 and a sourced capex (one with none is an error of
    its own: cli.commands._card_checks), with the figures the engine costs them by."""
    if not any(units > 0 for units in scenario.constraints.min_units.values()):   # every plan asks: no catalog read
        return []
    costs = card_costs(scenario)
    return [UnitFloor(card, int(units), scenario.onprem.owned_count(card), cost["capex"], cost["sold_in_units_of"],
                      cost["busy_watts"], _made_of(cost["as_given"], scenario.currency))
            for card, units in scenario.constraints.min_units.items() if units > 0 and (cost := costs.get(card))]


def _made_of(as_given, currency: str) -> str:
    """'11,500 USD + 2,500 USD host share at fx.USD 0.92' (card_costs' as_given), '2,000 + 200 host share' in the
    scenario's currency, 'a card with no host share' for a price alone."""
    (price, price_currency, price_rate), (host, host_currency, host_rate) = as_given

    def amount(x: float, cur: str) -> str:
        return number_text(x) if cur == currency else f"{number_text(x)} {cur}"

    rates = dict.fromkeys(f"fx.{cur} {rate:g}" for cur, rate in ((price_currency, price_rate), (host_currency, host_rate))
                          if cur != currency)
    at = f" at {' and '.join(rates)}" if rates else ""
    if not host:
        return f"{amount(price, price_currency)}{at}, no host share"
    return f"{amount(price, price_currency)} + {amount(host, host_currency)} host share{at}"


def scenario_caps(scenario) -> dict[str, Any]:
    """The caps floors_beyond_caps checks, as engine.constraints.CAPS names them, None where the scenario sets none."""
    o = scenario.onprem
    return {"capex_budget": o.capex_budget, "capex_budget_per_year": o.capex_budget_per_year, "power_kw": o.power_cap_kw}
