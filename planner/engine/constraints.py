"""The caps on a fleet, one record each. A record reads its limit from the scenario, adds its
constraint to a model, names the quantity it caps (minimised to explain an infeasible plan), words
that explanation, and says whether baselines keep it.

Adding a cap is adding a record to `CAPS` (and its field to the scenario model): the model builder,
the infeasibility explanation and the baselines all loop over this list.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pulp

from planner.engine.vintages import in_service

if TYPE_CHECKING:
    from planner.engine.inputs import Inputs
    from planner.engine.model import Model


@dataclass(frozen=True)
class Cap:
    name: str                                          # key in Inputs.caps
    read: Callable[[Any], Any]                         # the limit stated by a scenario; None = not set
    define: Callable[[Model, Any], None]               # add the constraint for a limit that is set
    in_baselines: bool                                 # True: physical, baselines keep it; False: a preference
    measure: Callable[[Model], pulp.LpAffineExpression] | None = None   # the capped quantity
    # (limit, least needed, fleet, inputs, why that least is not proved: "" when it is; below_least words it)
    explain: Callable[[Any, float, str, Inputs, str], str] | None = None
    precheck: Callable[[Inputs], str | None] | None = None              # a reason found without solving
    # True: bounds card decisions alone, from above, so a plan without cards meets it (engine.baselines:
    # the plan's run without cards is then the all-cloud baseline, which drops the preferences); False,
    # the safe default, for a cap that may bind a plan without cards
    met_without_cards: bool = False
    # the limit in the note of a baseline that costs less than the plan: (limit, inputs) -> "the capex budget
    # of 300,000 USD" (the unit limits are named per card, in cap_entries)
    named: Callable[[Any, Inputs], str] | None = None
    # where a scenario sets the limit, and the limit's unit ("currency": the scenario's), for the table of
    # what each cap costs the plan (cap_entries, engine.decisions)
    field: str = ""
    unit: str = ""


# ---------------------------------------------------------------------------------------------------
# The capped quantities


def affine(coefficients: dict, constant: float = 0.0) -> pulp.LpAffineExpression:
    """pulp.LpAffineExpression(coefficients, constant=constant), the same expression: pulp's constructor
    copies the dict through .items(), calling each variable's (Python) __hash__ again; a dict update
    copies it with the hashes the dict already holds."""
    expression = pulp.LpAffineExpression(constant=constant)
    expression.update(coefficients)
    return expression


def scaled_sum(scaled) -> pulp.LpAffineExpression:
    """pulp.lpSum(weight * expression for weight, expression in `scaled`): the same coefficients and
    constant, added in the same order, in one dict instead of a product expression per term."""
    coefficients: dict = {}
    constant = 0.0
    for weight, expression in scaled:
        if not math.isfinite(weight):
            raise pulp.PulpError("Cannot multiply variables with NaN/inf values")
        if weight == 0:   # pulp's product with 0 is the empty expression
            continue
        constant += expression.constant * weight
        for var, x in expression.items():
            term = weight * x
            coefficients[var] = coefficients[var] + term if var in coefficients else term
    return affine(coefficients, constant)


def new_capex(m: Model, months: range | None = None) -> pulp.LpAffineExpression:
    """New capex in the scenario currency: capex per card bought × cards bought, over the vintages
    bought in `months` (None = the whole plan), from the cost schedule."""
    capex = m.inputs.schedule.totals("buy", "capex").tolist()
    bought_in = m.inputs.vintages["first_service"].tolist()
    return scaled_sum((capex[k], pulp.LpAffineExpression([(b, 1)], constant=0))
                      for k, b in m.buy.items() if months is None or bought_in[k] in months)


def _epochs(m: Model) -> list[int]:
    return sorted({e for _, e in m.installed})


def installed_kw(m: Model) -> dict[int, pulp.LpAffineExpression]:
    """Installed IT power in kW in each fleet epoch (sorted): Σ cards in service × busy watts / 1000,
    grouped in one pass over the cards in service."""
    watts = m.inputs.col("busy_watts").tolist()
    scaled: dict = {e: [] for e in _epochs(m)}
    for (i, e), n in m.installed.items():
        scaled[e].append((watts[i] / 1000.0, n))
    return {e: scaled_sum(terms) for e, terms in scaled.items()}


def peak_kw(m: Model) -> pulp.LpAffineExpression:
    """The most installed IT power in any epoch (a variable bounded below by each epoch's power)."""
    peak = m.prob.add_variable("peak_kw", lowBound=0)
    for e, kw in installed_kw(m).items():
        m.prob += (peak >= kw, f"peak_kw_{e}")
    return pulp.LpAffineExpression([(peak, 1.0)])


def cloud_work(m: Model) -> pulp.LpAffineExpression:
    """Reference-GPU-hours delivered by cloud units over the horizon."""
    inp = m.inputs
    hours = (inp.periods["slot_hours"].to_numpy() * inp.periods["n_months"].to_numpy()).tolist()
    work = inp.work.tolist()   # Python floats: no numpy scalar per term
    cloud = (inp.col("kind") != "card").tolist()
    return pulp.LpAffineExpression([(var, work[i][j] * hours[p]) for (i, j, p), var in m.y.items() if cloud[i]])


def cloud_share(m: Model) -> pulp.LpAffineExpression:
    """Share of all demanded work delivered by cloud units over the horizon."""
    return cloud_work(m) / max(m.inputs.total_demand(), 1e-12)


def usable_cards(inp: Inputs) -> np.ndarray:
    """A mask over the units: the cards a fleet may hold (owned, or buyable with a maximum above 0)."""
    units = inp.units
    can_buy = units["buyable"].astype(bool) & (units["max_units"].isna() | (units["max_units"] > 0))
    return ((units["kind"] == "card") & ((units["existing"] > 0) | can_buy)).to_numpy()


def cloud_only_work(inp: Inputs) -> tuple[float, list[str]]:
    """(share of the work demanded over the horizon that no usable card can serve, those workloads'
    names): the least cloud share of any fleet, whatever the cards."""
    periods, demand = (inp.periods, inp.demand) if inp.demand_low is None else (inp.periods_low, inp.demand_low)
    hours = (periods["slot_hours"] * periods["n_months"]).to_numpy()
    work = (demand * hours[:, None]).sum(axis=0)
    cards = usable_cards(inp)
    if inp.caps.get("unit_limits"):   # a card's min_units lets the model buy it though onprem.cards lacks it
        cards = cards | ((inp.col("kind") == "card") & (inp.col("min_units") > 0))
    only = ~(inp.work[cards] > 0).any(axis=0) & (work > 0)
    return float(work[only].sum() / max(work.sum(), 1e-12)), [n for n, o in zip(inp.workload_names, only) if o]


def below_least(limit: str, need: str, unproven: str = "", where: str = "") -> str:
    """How an infeasibility explanation states a cap's least: `limit` < `need` needed (`where`, e.g. " in some
    year") at the least. `unproven`: why `need` is not proved the least (a solve stopped by its time limit), then
    `need` is said as the most the least can be: the fleet found needs it, one needing less may exist."""
    if not unproven:
        return f"{limit} < {need} needed{where} at the least"
    return f"{limit} < the least needed{where}, at most {need} ({unproven})"


def _explain_cloud_share(limit: float, need: float, fleet: str, inp: Inputs, unproven: str) -> str:
    """Why max_cloud_share cannot be met: the work only the cloud can serve, when it alone exceeds the
    cap (the fleet found at the least share is then one of many that tie: naming it would mislead), else
    the fleet the other limits leave."""
    share, names = cloud_only_work(inp)
    head = below_least(f"max_cloud_share {limit:g}", f"{need:.3f}", unproven) + ": "
    if not names:
        return head + f"on-prem capacity is limited to {fleet}"
    needs = dict(zip(inp.workload_names, inp.workloads["needs"]))
    which = ", ".join(f"{name} ({needs[name]})" for name in names)
    only = f"{which} no on-prem card can serve: {100 * share:.1f} % of the work runs in the cloud whatever the fleet"
    if share >= need - 1e-9:
        return head + only
    return head + only + f"; beyond that, on-prem capacity is limited to {fleet}"


# ---------------------------------------------------------------------------------------------------
# Constraints


def _define_power(m: Model, limit: float) -> None:
    for e, kw in installed_kw(m).items():
        m.prob += (kw <= limit, f"power_cap_{e}")


def _define_capex(m: Model, limit: float) -> None:
    if m.buy:
        m.prob += (new_capex(m) <= limit, "capex_budget")


def _plan_years(m: Model) -> list[range]:
    return [range(1 + 12 * y, 13 + 12 * y) for y in range(-(-m.inputs.horizon_months // 12))]


def _define_capex_per_year(m: Model, limit: float) -> None:
    for y, months in enumerate(_plan_years(m), start=1):
        if m.buy:
            m.prob += (new_capex(m, months) <= limit, f"capex_budget_year_{y}")


def most_capex_in_a_year(m: Model) -> pulp.LpAffineExpression:
    """The most new capex in any plan year (a variable bounded below by each year's capex)."""
    most = m.prob.add_variable("most_capex_in_a_year", lowBound=0)
    for y, months in enumerate(_plan_years(m), start=1):
        m.prob += (most >= new_capex(m, months), f"most_capex_year_{y}")
    return pulp.LpAffineExpression([(most, 1.0)])


def _define_cloud_share(m: Model, limit: float) -> None:
    m.prob += (cloud_work(m) <= limit * m.inputs.total_demand(), "max_cloud_share")


def _define_unit_limits(m: Model, _on: bool) -> None:
    """min_units / max_units per card: cards in service in every epoch."""
    inp = m.inputs
    sku, lo, hi = inp.col("sku"), inp.col("min_units"), inp.col("max_units")
    for (i, e), n in m.installed.items():
        if lo[i] > 0:
            m.prob += (n >= int(lo[i]), f"min_units_{sku[i]}_{e}")
        if not math.isnan(hi[i]):
            m.prob += (n <= int(hi[i]), f"max_units_{sku[i]}_{e}")


def _owned_above_max(inp: Inputs) -> str | None:
    if "off" in inp.owned_choices:     # owned cards beyond the limit can be switched off
        return None
    units = inp.units
    for i, u in enumerate(units.itertuples()):
        if u.kind != "card" or inp.may_sell(i) or math.isnan(u.max_units) or u.existing <= u.max_units:
            continue
        why = ("owned cards may be neither sold nor switched off" if not inp.owned_choices else
               f"owned cards may not be switched off and {u.sku}'s are not sold: its resale value is unknown "
               f"(give onprem.card_overrides.{u.sku}.price to weigh a sale)")
        return f"max_units.{u.sku} = {u.max_units:g} < {u.existing} units already owned (onprem.existing), and {why}"
    return None


def _min_units_out_of_reach(inp: Inputs) -> str | None:
    """A card's min_units in months no card of it can serve: its life ends before its next purchase month."""
    v = inp.vintages
    serving, unit = in_service(v, inp.horizon_months), v["unit"].to_numpy()
    sku, lo = inp.col("sku"), inp.col("min_units")
    for i in np.flatnonzero((inp.col("kind") == "card") & (lo > 0)):
        mine = unit == i
        months = np.flatnonzero(~serving[mine].any(axis=0)) + 1
        if not len(months):
            continue
        life = int(v["life_months"].to_numpy()[mine][0])
        bought = v["first_service"].to_numpy()[mine & ~v["owned"].to_numpy()]
        gap, buys = _month_ranges(months), _month_ranges(bought)
        return (f"min_units.{sku[i]} = {lo[i]:g} cannot be met in month{'s' * (len(months) > 1)} {gap}: no "
                f"{sku[i]} can serve then (a life of {life} months, bought in month{'s' * (len(bought) > 1)} {buys}); "
                f"buy more often (onprem.purchase_every_months) or lower min_units.{sku[i]}")
    return None


def _month_ranges(months) -> str:
    """`4-7, 10` for months 4, 5, 6, 7, 10 (ascending)."""
    runs: list[list[int]] = []
    for month in (int(m) for m in months):
        if runs and month == runs[-1][1] + 1:
            runs[-1][1] = month
        else:
            runs.append([month, month])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs) or "none"


def _unit_limits_unmet(inp: Inputs) -> str | None:
    return _owned_above_max(inp) or _min_units_out_of_reach(inp)


CAPS: list[Cap] = [
    Cap("power_kw", lambda s: s.onprem.power_cap_kw, _define_power, in_baselines=True, met_without_cards=True,
        measure=peak_kw, field="onprem.power_cap_kw", unit="kW",
        explain=lambda limit, need, fleet, inp, unproven: (
            below_least(f"power cap {limit:g} kW", f"{need:.2f} kW", unproven) + f": {fleet}")),
    Cap("capex_budget", lambda s: s.onprem.capex_budget, _define_capex, in_baselines=False, met_without_cards=True,
        measure=new_capex, field="onprem.capex_budget", unit="currency",
        named=lambda limit, inp: f"the capex budget of {limit:,.0f} {inp.currency}",
        explain=lambda limit, need, fleet, inp, unproven: (
            below_least(f"capex budget {limit:,.0f} {inp.currency}", f"{need:,.0f} {inp.currency}", unproven)
            + f": {fleet}")),
    Cap("capex_budget_per_year", lambda s: s.onprem.capex_budget_per_year, _define_capex_per_year,
        in_baselines=False, met_without_cards=True, measure=most_capex_in_a_year,
        field="onprem.capex_budget_per_year", unit="currency",
        named=lambda limit, inp: f"the capex budget per year of {limit:,.0f} {inp.currency}",
        explain=lambda limit, need, fleet, inp, unproven: (
            below_least(f"capex budget per year {limit:,.0f} {inp.currency}", f"{need:,.0f} {inp.currency}",
                        unproven, " in some year") + f": {fleet}")),
    Cap("max_cloud_share", lambda s: s.constraints.max_cloud_share, _define_cloud_share, in_baselines=False,
        met_without_cards=False, measure=cloud_share, field="constraints.max_cloud_share", unit="share",
        named=lambda limit, inp: f"the cloud share cap of {limit * 100:g} %",
        explain=_explain_cloud_share),
    # its maxima bound cards from above; a minimum above 0 is no such bound (engine.baselines checks for one)
    Cap("unit_limits", lambda s: True, _define_unit_limits, in_baselines=False, met_without_cards=True,
        precheck=_unit_limits_unmet),
]


def read_caps(scenario) -> dict[str, Any]:
    """The limit of every cap as the scenario states it (None = not set)."""
    return {cap.name: cap.read(scenario) for cap in CAPS}


def met_without_cards(caps: dict[str, Any]) -> bool:
    """Whether a plan without cards meets every cap set in `caps` that the baselines drop (unit minimums
    apart: see Cap.met_without_cards)."""
    return all(cap.in_baselines or cap.met_without_cards or caps.get(cap.name) is None for cap in CAPS)


def dropped_in_baselines(inp: Inputs, cards: frozenset | None = None) -> list[str]:
    """The caps set in `inp` that the baselines drop (the preferences of the mix), each named with its limit,
    that can explain why a baseline that may buy `cards` (None: any) costs less than the plan (CapEntry.explains):
    the capex budgets, the cloud share cap, then the card minimums and the card maximums."""
    entries = [e for e in cap_entries(inp) if e.explains(cards)]
    return [e.named for e in sorted(entries, key=lambda e: e.field.startswith("constraints.max_units."))]


def baseline_caps(caps: dict[str, Any]) -> dict[str, Any]:
    """The caps a baseline keeps: the physical ones; preferences of the mix are dropped."""
    kept = {cap.name for cap in CAPS if cap.in_baselines}
    return {name: (limit if name in kept else None) for name, limit in caps.items()}


@dataclass(frozen=True)
class CapEntry:
    """One limit a scenario sets (a cap, or one card's min_units or max_units), and how to drop it: what
    engine.decisions re-solves without, to tell what the limit costs the plan."""

    field: str                              # where the scenario sets it: onprem.capex_budget, constraints.max_units.rtx-4090
    limit: float
    unit: str                               # kW, share, cards, or the scenario's currency
    dropped_in_baselines: bool              # a preference of the mix (the baselines drop it), not a physical cap
    met_without_cards: bool                 # a fleet without new cards meets it (Cap.met_without_cards)
    relax: Callable[[Inputs], Inputs]       # the inputs without this limit
    # the limit is also what lets the plan buy something: a min_units of a card not in onprem.cards (the
    # model buys such a card only as far as its minimum asks), so dropping it can cost more
    permits: bool = False
    card: str | None = None                 # the card of a min_units or max_units
    owned: float = 0.0                      # cards of `card` already owned (onprem.existing)
    named: str = ""                         # in a baseline's note (dropped_in_baselines): "the capex budget of …"

    def explains(self, cards: frozenset | None) -> bool:
        """Whether dropping this limit can make a baseline that may buy `cards` (None: any) cost less than the
        plan: the cloud share cap and card minimums always; the capex budgets when it may buy some card; a card's
        maximum when it may buy that card, or more of it are owned than the maximum (baselines keep owned cards)."""
        if not self.dropped_in_baselines:
            return False
        if not self.met_without_cards:     # the cloud share cap, a card minimum
            return True
        if self.card is None:              # a capex budget
            return cards is None or bool(cards)
        return cards is None or self.card in cards or self.owned > self.limit   # a card maximum


def _without_cap(name: str) -> Callable[[Inputs], Inputs]:
    return lambda inp: replace(inp, caps={**inp.caps, name: None})


def _without_unit_limit(sku: str, column: str, value: float) -> Callable[[Inputs], Inputs]:
    def relax(inp: Inputs) -> Inputs:
        units = inp.units.copy()
        units.loc[((units["kind"] == "card") & (units["sku"] == sku)).to_numpy(), column] = value
        return replace(inp, units=units)
    return relax


def cap_entries(inp: Inputs) -> list[CapEntry]:
    """Every limit set in `inp`, in CAPS order, the unit limits one per card and bound (min_units above 0,
    max_units set)."""
    out = []
    for cap in CAPS:
        limit = inp.caps.get(cap.name)
        if limit is None or limit is False:   # a limit of 0 is a cap (0 == False in Python, not `is`)
            continue
        if cap.name != "unit_limits":
            unit = inp.currency if cap.unit == "currency" else cap.unit
            out.append(CapEntry(cap.field, float(limit), unit, not cap.in_baselines, cap.met_without_cards,
                                _without_cap(cap.name), named=cap.named(limit, inp) if cap.named else cap.field))
            continue
        card = inp.col("kind") == "card"
        for sku, least, most, buyable, owned in zip(*(inp.col(c)[card] for c in ("sku", "min_units", "max_units",
                                                                                 "buyable", "existing"))):
            sku = str(sku)
            if least > 0:   # a minimum binds a fleet without new cards too
                out.append(CapEntry(f"constraints.min_units.{sku}", float(least), "cards", True, False,
                                    _without_unit_limit(sku, "min_units", 0), permits=not bool(buyable), card=sku,
                                    owned=float(owned), named=f"min_units.{sku} = {least:g}"))
            if not math.isnan(most):
                out.append(CapEntry(f"constraints.max_units.{sku}", float(most), "cards", True, True,
                                    _without_unit_limit(sku, "max_units", math.nan), card=sku, owned=float(owned),
                                    named=f"max_units.{sku} = {most:g}"))
    return out


def define_caps(m: Model) -> None:
    """Every cap whose limit is set."""
    for cap in CAPS:
        limit = m.inputs.caps.get(cap.name)
        if limit is not None:
            cap.define(m, limit)
