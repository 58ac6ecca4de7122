"""Why there is no fleet: first a workload no allowed unit can serve (none compatible, or the compatible cards held at
0 units: `unservable`), then which cap cannot be met, with the numbers. Each cap of `engine.constraints.CAPS` is
tried on its own: relaxed, its quantity minimised, and the fleet named at that least the one of least new capex,
then fewest cards (TIE_BREAKS). Under the plan's time limit these solves get what its own solves left of it
(engine.solve.TimeBudget); the caps it leaves unexamined are named. Where no cap alone is the cause, one more solve
without any cap tells the caps together from the unit limits. Where the on-prem capacity holds a cloud share, its
least is solved again without each limit on cards in turn, to name the limits that hold that capacity (where they
hold it only together, only those each needed); without the plan's time limit these re-solves have one of their own."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import pulp

from planner.catalog.gpus import CUSTOM_SOURCE
from planner.catalog.servable import held_reason, memory_elsewhere_text, reasons_text
from planner.engine import constraints
from planner.engine.inputs import Inputs
from planner.engine.model import ExtraConstraints, Model, build_model
from planner.engine.solve import DEFAULT_SOLVER, TimeBudget, solve
from planner.engine.vintages import in_service
from planner.errors import InfeasibleError
from planner.text import counted, number_text, series


def check_compatibility(inp: Inputs) -> None:
    """Raise when a workload has no unit at all that can serve it (`unservable_text`)."""
    for j in range(len(inp.workloads)):
        if not (inp.work[:, j] > 0).any():
            raise InfeasibleError(unservable_text(inp, j, _allowed(inp)))


def unservable(inp: Inputs) -> str | None:
    """Why no fleet can exist whatever the caps: a workload with demand that no unit the scenario allows can serve
    (none compatible, or the only compatible ones held at 0 units: `_allowed`), one text per such workload; None
    when each can be served by some unit."""
    allowed = _allowed(inp)
    served = (inp.work[allowed] > 0).any(axis=0)
    wanted = (inp.demand > 0).any(axis=0)
    texts = [unservable_text(inp, j, allowed) for j in np.flatnonzero(wanted & ~served)]
    return "; ".join(texts) or None


def _allowed(inp: Inputs) -> np.ndarray:
    """A mask over the units: those a fleet may use — every cloud offer, the cards a fleet may hold
    (constraints.usable_cards, and with the unit limits on a card min_units requires), none of a card whose
    max_units is 0 (no unit of it in service)."""
    card = inp.col("kind") == "card"
    usable = constraints.usable_cards(inp)
    if inp.caps.get("unit_limits"):
        usable = (usable | (card & (inp.col("min_units") > 0))) & ~(card & (inp.col("max_units") == 0))
    return ~card | usable


# engine.workloads._reason's words for a unit with too little memory: "24 GB per GPU < 48 GB needed"
_MEMORY_SHORT = re.compile(r"per GPU < ([0-9.]+) GB needed$")


def unservable_text(inp: Inputs, j: int, allowed: np.ndarray) -> str:
    """Why workload `j` has no unit among the `allowed` (a mask over the units, `_allowed`) that can serve it: the
    reasons the allowed offers and cards are not compatible (the most common five, counted), where too little memory
    is one the most memory an allowed card and cloud offer have, the compatible cards held at 0 units and why, and
    where offers with the memory it needs are listed outside the providers, regions and options allowed."""
    w = inp.workloads.iloc[j]
    name = str(w["name"])
    ex = inp.exclusions[inp.exclusions["workload"] == name]
    kind, sku, gpu = inp.col("kind"), inp.col("sku"), inp.col("gpu")
    card = kind == "card"
    cloud_ids = set(ex.loc[ex["kind"] != "card", "unit_id"]) | set(inp.col("unit_id")[~card])
    n_allowed = int((allowed & card).sum()) + len(cloud_ids)
    ex_allowed = ex[(ex["kind"] != "card") | ex["unit_id"].isin(set(inp.col("unit_id")[card & allowed]))]
    counts = ex_allowed.groupby("reason")["unit_id"].count().sort_values(ascending=False, kind="stable")
    parts = [reasons_text(dict(counts.items())) or "no offers or cards allowed"]
    needs = [float(m[1]) for m in map(_MEMORY_SHORT.search, counts.index) if m]
    need = max(needs) if needs else None
    if need is not None:
        parts.append(_most_memory(inp, allowed, cloud_ids, need, name))
    parts += [f"{sku[i]} ({gpu[i]}, {inp.col('gpu_memory_gb')[i]:g} GB) could serve it, but {_held_at_zero(inp, i)}"
              for i in np.flatnonzero(card & ~allowed & (inp.work[:, j] > 0))]
    if need is not None:
        parts.append(_memory_elsewhere(inp, cloud_ids, need))
    return (f"workload {name} ({w['needs']}) has no compatible offer among the {n_allowed} allowed offers and cards: "
            + "; ".join(p for p in parts if p))


def _most_memory(inp: Inputs, allowed: np.ndarray, cloud_ids: set, need: float, workload: str) -> str:
    """The most GPU memory of the allowed cards and of the allowed cloud offers with less than `need`: "too little GPU
    memory for workloads.NAME.min_gpu_memory_gb 48: at most rtx-5090 32 GB on-prem, aws g5.xlarge (A10G) 24 GB in
    eu-north-1 (and 7 more instance types of 24 GB)" (an offer of each the cheapest as listed)."""
    memory = inp.col("gpu_memory_gb")
    cards = [i for i in np.flatnonzero(allowed & (inp.col("kind") == "card")) if memory[i] < need]   # NaN: not
    said = []
    if cards:
        top = max(memory[i] for i in cards)
        ids = sorted(str(inp.col("sku")[i]) for i in cards if memory[i] == top)
        said.append(f"{', '.join(ids)} {top:g} GB on-prem")
    offers = _offers(inp, cloud_ids)
    offers = offers[offers["gpu_memory_gb"] < need] if offers is not None else None
    if offers is not None and len(offers):
        top = float(offers["gpu_memory_gb"].max())
        order = [c for c in ("hourly_price", "provider", "region", "sku") if c in offers]   # the cheapest first
        at_top = offers[offers["gpu_memory_gb"] == top].sort_values(order, kind="stable")
        first = at_top.iloc[0]
        types = at_top.drop_duplicates(["provider", "region", "sku"])
        more = f" (and {counted(len(types) - 1, 'more instance type')} of {top:g} GB)" if len(types) > 1 else ""
        said.append(f"{first['provider']} {first['sku']} ({first['gpu']}) {top:g} GB in {first['region']}{more}")
    if not said:
        return ""
    return f"too little GPU memory for workloads.{workload}.min_gpu_memory_gb {need:g}: at most {', '.join(said)}"


def _held_at_zero(inp: Inputs, i: int) -> str:
    """Why card unit `i` cannot be in the fleet (it is not `_allowed`): its max_units 0, or no sourced price and none
    owned, or a custom card whose buyable is false and none owned, or neither listed in onprem.cards nor owned (as
    catalog.servable.site_units says it to validate)."""
    sku = str(inp.col("sku")[i])
    return held_reason(sku, bool(inp.caps.get("unit_limits")) and inp.col("max_units")[i] == 0,
                       sku in inp.resale_unknown, str(inp.col("source")[i]).startswith(CUSTOM_SOURCE))


def _offers(inp: Inputs, ids: set) -> pd.DataFrame | None:
    """The rows of the price table the inputs were priced from with these offer ids (None without that table)."""
    table = inp.price_table
    if table is None or "offer_id" not in table:
        return None
    return table[table["offer_id"].isin(ids)]


def _memory_elsewhere(inp: Inputs, cloud_ids: set, need: float) -> str:
    """Where the price table lists offers of a known GPU with at least `need` GB per GPU outside the allowed offers
    (`cloud_ids`): "offers with ≥ 48 GB per GPU are listed outside the providers, regions and purchase options
    allowed (prices): aws in eu-central-1, us-east-1; azure in 47 regions"; that none is, where none is."""
    table = inp.price_table
    if table is None or not {"offer_id", "gpu_memory_gb", "provider", "region"} <= set(table.columns):
        return ""
    known = table["gpu_known"].astype(bool) if "gpu_known" in table else True
    big = table[known & (table["gpu_memory_gb"] >= need)]
    if not len(big):
        return f"no offer in the prices has ≥ {need:g} GB per GPU"
    outside = big[~big["offer_id"].isin(cloud_ids)]
    if not len(outside):
        return ""
    regions: dict = {}
    for provider, region in zip(outside["provider"].tolist(), outside["region"].tolist()):
        regions.setdefault(provider, set()).add(region)
    return memory_elsewhere_text(regions, need)


def unserved(inp: Inputs) -> list[str]:
    """Workloads that no unit may serve once unit limits are applied (cards capped at zero units)."""
    return unserved_by(inp, (inp.col("kind") != "card") | constraints.usable_cards(inp))


def unserved_by(inp: Inputs, usable: np.ndarray) -> list[str]:
    """Workloads that no unit in `usable` (a mask over the units) can serve."""
    served = (inp.work[usable] > 0).any(axis=0)
    return [name for name, ok in zip(inp.workload_names, served) if not ok]


def fleet_text(inp: Inputs, counts: dict, bought: dict | None = None, watts: bool = True) -> str:
    """`2 × A100-80GB-PCIE (300 W, 16,500 USD each)` for each card with units in `counts` (index -> units
    held at some time), named as card_text names it (a custom card: `2 × c0 (A10G, 400 W, …)`); units already
    owned are said to be, without a price: they cost no capex. `bought` (index -> units bought, from the model):
    the others are owned ones kept; without it, as many as are owned (units owned or required). `watts` False:
    without the busy watts, which say nothing of a capex budget or a cloud share (an audit: "1 × a100-80gb-pcie
    (300 W, 16,500 USD)" under a budget)."""
    busy_watts, capex, existing = inp.col("busy_watts"), inp.col("capex"), inp.col("existing")
    parts = []
    for i, v in counts.items():
        held = int(round(v))
        if held <= 0:
            continue
        new = min(held, int(round(bought.get(i, 0)))) if bought is not None else held - min(held, int(existing[i]))
        owned = held - new
        price = f"{capex[i]:,.0f} {inp.currency}" + (" each" if new > 1 else "")
        if owned == held:
            what = "owned"
        elif owned:
            what = f"{owned} owned, {price} for the others"
        else:
            what = price
        facts = f"{busy_watts[i]:g} W, {what}" if watts else what
        parts.append(f"{held} × {card_text(inp, i, facts)}")
    return " + ".join(parts) or "no on-prem units"


def card_text(inp: Inputs, i: int, facts: str = "") -> str:
    """Card unit `i` as the explanation names it, `facts` in brackets after it: a catalog card whose id is its GPU's
    by that GPU ("A100-80GB-PCIE (300 W)"), any other (a custom card, a board) by its own id, its GPU first in the
    brackets ("c0 (A10G, 400 W)"; without facts "c0 (A10G)")."""
    sku, gpu = str(inp.col("sku")[i]), str(inp.col("gpu")[i])
    by_gpu = sku.lower() == gpu.lower()
    inside = ", ".join(([] if by_gpu else [gpu]) + ([facts] if facts else []))
    name = gpu if by_gpu else sku
    return f"{name} ({inside})" if inside else name


def _minimums_held(inp: Inputs, held: dict) -> str:
    """" (constraints.min_units.a100-80gb-pcie = 6)" for the cards of the fleet named at a cap's least (`held`: index ->
    units) that the scenario requires a least number of, which may be all the cap is spent on: an audit's budget
    "< 77,280 EUR needed at the least: 6 × A100-80GB-PCIE" named no field but the budget; "" where none is."""
    sku, least = inp.col("sku"), inp.col("min_units")
    required = [f"constraints.min_units.{sku[i]} = {least[i]:g}" for i, units in held.items()
                if least[i] > 0 and round(units) > 0]
    return f" ({'; '.join(required)})" if required else ""


def _capacity_held_by(inp: Inputs, cap, least: _Least, solver: str, budget: TimeBudget, ran_out: str) -> str:
    """", held there by the power cap of 1 kW (without it the least cloud share is 44.6 %) and the capex budget per
    year of 2,500 USD (without it 50.0 %)": the limits on cards (constraints.cap_entries that a fleet without cards
    meets: the power cap, the capex budgets, each card's max_units) without which, one at a time, the least of `cap`
    (the cloud share: `least`, the fleet named at it) is lower, each re-solved as `_least` finds a least (its
    tie-breaks apart: only the least is said); where none alone lowers it and dropping them all does, those of
    them needed to hold it together (_held_together). An audit's "on-prem capacity is limited to 2 × RTX-A5000" named no
    limit, and arithmetic on the fleet named (one card more) misread whole boards, the other cards, owned cards
    retiring and the epochs. The re-solves draw on `budget`; the limits it leaves unchecked are said to be, with
    `ran_out`, its words for that (_not_checked). "" where `least` is not proved (a lower least without a limit then
    shows nothing), and where no limit lowers it."""
    if not least.proved:
        return ""
    # a card's max_units bounds its cards in service in each epoch, never more than it holds: one the fleet named holds
    # fewer of can hold nothing, and is not solved again (a scenario may set one for each of dozens of cards)
    held = {str(inp.col("sku")[i]): units for i, units in least.fleet[0].items()}
    entries = [e for e in constraints.cap_entries(inp) if e.met_without_cards
               and (e.card is None or held.get(e.card, 0.0) >= e.limit - 1e-6)]
    said, unknown = [], []
    for entry in entries:
        found = _least_without(entry.relax(inp), cap, solver, budget)
        if found is not None and _lower(found, least.need):
            about = "the least cloud share is " * (not said)
            said.append(f"{_limit_named(inp, entry)} (without it {about}{_share_text(found)})")
        elif found is None or not found[1]:   # not proved no lower
            unknown.append(_limit_named(inp, entry))
    named = [_limit_named(inp, e) for e in entries]
    if said or unknown or len(entries) < 2:
        whether = f"; whether {series(unknown, 'or')} holds it{' too' * bool(said)}" if unknown else ""
        if unknown and not said and len(entries) > 1:   # nor was the solve without them all made
            whether += f" alone, or {series(named)} together,"
        return (f", held there by {series(said)}" if said else "") + _not_checked(whether, budget, ran_out)
    found = _least_without(_relaxed(inp, entries), cap, solver, budget)
    if found is None or (not found[1] and not _lower(found, least.need)):
        return _not_checked(f"; whether {series(named)} hold it together", budget, ran_out)
    if not _lower(found, least.need):
        return ""
    return _held_together(inp, cap, least, entries, found, solver, budget, ran_out)


def _held_together(inp: Inputs, cap, least: _Least, entries: list, found: tuple[float, bool], solver: str,
                   budget: TimeBudget, ran_out: str) -> str:
    """", held there by the power cap of 1 kW and constraints.max_units.rtx-a5000 = 2 together (without them all the
    least cloud share is 44.6 %; with any one of them kept it is no less)": of the limits `entries`, none of which
    alone lowers `least` and which all dropped together do (to `found`), those still dropped once each in turn is
    kept where the least with it kept and the others left dropped is still lower: none of those named can be kept
    (a minimal set, not always the smallest). Naming them all named a yearly budget beside a max_units and a power
    cap whose dropping alone frees the capacity. Those whose solve `budget` leaves unmade (or the solver unproved)
    stay named, and are said not checked (_not_checked)."""
    needed, unknown = list(entries), []
    for entry in entries:
        others = [e for e in needed if e is not entry]
        if len(others) < 2:   # one limit dropped alone is proved no lower (_capacity_held_by)
            continue
        without = _least_without(_relaxed(inp, others), cap, solver, budget)
        if without is not None and _lower(without, least.need):
            needed, found = others, without
        elif without is None or not without[1]:   # not proved no lower: it may not be needed
            unknown.append(_limit_named(inp, entry))
    held_by = (f", held there by {series([_limit_named(inp, e) for e in needed])} together (without them all the "
               f"least cloud share is {_share_text(found)}")
    if not unknown:
        return f"{held_by}; with any one of them kept it is no less)"
    each = "each of " * (len(unknown) > 1)
    return f"{held_by})" + _not_checked(f"; whether {each}{series(unknown)} is needed", budget, ran_out)


def _relaxed(inp: Inputs, entries: list) -> Inputs:
    """`inp` without each of the limits `entries` (constraints.CapEntry)."""
    for entry in entries:
        inp = entry.relax(inp)
    return inp


def _not_checked(whether: str, budget: TimeBudget, ran_out: str) -> str:
    """`whether` ("; whether the power cap of 1 kW holds it") "is not checked", and why: `budget` ran out (`ran_out`,
    its words), or the solver did not prove a least; "" where `whether` is."""
    if not whether:
        return ""
    why = f"{ran_out} first" if budget.spent() else "the solver did not prove the least"
    return f"{whether} is not checked: {why}"


def _held_budget(budget: TimeBudget, plan_seconds: float | None) -> tuple[TimeBudget, str]:
    """(the budget of the re-solves that name the limits holding the on-prem capacity, its words where it runs out):
    the plan's, shared with its solves and the explanation's (RAN_OUT), where it has a time limit; else one of
    their own, decisions.resolves_time_limit of the plan's solve (`plan_seconds`; HELD_RAN_OUT). They are one a
    limit on cards and a few more: with a max_units for each of dozens of cards, dozens of solves as long as the
    plan's could run on for minutes after it failed."""
    if budget.seconds is not None:
        return budget, RAN_OUT.format(budget.seconds)
    from planner.engine import decisions  # which imports this module (through engine.baselines)

    seconds = decisions.resolves_time_limit(plan_seconds)
    return TimeBudget(seconds), HELD_RAN_OUT.format(seconds, decisions.DEFAULT_TIME_PER_PLAN_SOLVE,
                                                    decisions.DEFAULT_TOTAL_TIME_LIMIT_S)


def _least_without(inp: Inputs, cap, solver: str, budget: TimeBudget) -> tuple[float, bool] | None:
    """The least of `cap`'s quantity over the fleets of `inp` (`cap` dropped), as `_minimise` gives it; None where
    `budget` is spent or the solver stops without a fleet."""
    if budget.spent():
        return None
    m = build_model(replace(inp, caps={**inp.caps, cap.name: None}))
    try:
        return _minimise(m, cap.measure(m), solver, cap.name, budget)
    except _OutOfTime:
        return None


def _lower(found: tuple[float, bool], least: float) -> bool:
    """Whether the value `found` (a fleet's, proved the least or not) is below the proved `least`, beyond the
    solver's tolerances."""
    return found[0] < least - TIE_TOLERANCE * max(1.0, abs(least))


def _share_text(found: tuple[float, bool]) -> str:
    """"44.6 %", or "at most 44.6 %" for a share the solver did not prove the least."""
    return f"{'at most ' * (not found[1])}{100 * found[0]:.1f} %"


def _limit_named(inp: Inputs, entry: constraints.CapEntry) -> str:
    """A limit on cards as the explanation names it: "the power cap of 1 kW", "the capex budget of 2,500 USD",
    "constraints.max_units.rtx-a5000 = 2"."""
    if entry.card is not None:
        return f"{entry.field} = {entry.limit:g}"
    if entry.unit == "kW":
        return f"the power cap of {figure(entry.limit)} kW"
    return entry.named


def _owned_over_power(inp: Inputs, limit: float) -> str:
    """"; the owned cards alone, 1 × RTX-A5000 (400 W), draw 0.40 kW, and onprem.sell_owned and
    onprem.switch_off_owned are false: allow either to take them out of service" where the owned cards the plan
    must keep working (not switched off, and not sold: onprem.sell_owned false, or a card with no resale price,
    Inputs.may_sell) pass the power cap of `limit` kW in some month: an audit's "power cap 0.3 kW < 0.40 kW needed
    at the least: 1 × RTX-A5000 (400 W, owned)" left the rule it forbade unsaid. Where the owned cards with no
    resale price pass it alone, selling takes them out of service no more than keeping: only switching off does.
    "" where they fit, or where the scenario lets the plan switch off owned cards."""
    if "off" in inp.owned_choices:
        return ""
    owned = inp.vintages["owned"].to_numpy().astype(bool)
    unit = inp.vintages["unit"].to_numpy()
    unpriced = owned & np.isin(inp.col("sku")[unit], list(inp.resale_unknown))
    kw, cards = _owned_kw(inp, unpriced)
    if kw > limit + 1e-9:   # never sold, whatever onprem.sell_owned says
        them = "it" if len(cards) == 1 and sum(cards.values()) == 1 else "them"
        return (f"; the owned cards with no resale price alone, {_watts_text(inp, cards)}, draw {kw:.2f} kW, and are "
                f"never sold: only switching {them} off (onprem.switch_off_owned, false) takes {them} out of service")
    if "sell" in inp.owned_choices:
        return ""
    kw, cards = _owned_kw(inp, owned)
    if kw <= limit + 1e-9:
        return ""
    unpriced_ids = [card_text(inp, i) for i in cards if inp.col("sku")[i] in inp.resale_unknown]
    never = f" (selling, those with a resale price only: not {series(unpriced_ids)})" if unpriced_ids else ""
    return (f"; the owned cards alone, {_watts_text(inp, cards)}, draw {kw:.2f} kW, and onprem.sell_owned and "
            f"onprem.switch_off_owned are false: allow either to take them out of service{never}")


def _owned_kw(inp: Inputs, kept: np.ndarray) -> tuple[float, dict]:
    """(the most kW the owned cards of the vintages `kept` (a mask) draw busy in a month, card unit -> those of
    them in service in that month)."""
    v = inp.vintages
    unit, count = v["unit"].to_numpy(), np.where(kept, v["count"].to_numpy(), 0)
    watts = inp.col("busy_watts")
    serving = in_service(v, inp.horizon_months) & kept[:, None]
    kw = (serving * (count * watts[unit] / 1000)[:, None]).sum(axis=0)
    if not len(kw) or not kept.any():
        return 0.0, {}
    month = int(np.argmax(kw))
    cards: dict = {}
    for k in np.flatnonzero(serving[:, month]):
        cards[int(unit[k])] = cards.get(int(unit[k]), 0) + int(count[k])
    return float(kw[month]), cards


def _watts_text(inp: Inputs, cards: dict) -> str:
    """"1 × RTX-A5000 (400 W)", "2 × c0 (A10G, 400 W)" for card unit -> cards, as fleet_text names them."""
    watts = inp.col("busy_watts")
    return " + ".join(f"{n} × {card_text(inp, i, f'{watts[i]:g} W')}" for i, n in cards.items())


def _held_and_bought(m: Model) -> tuple[dict, dict]:
    """(card unit -> units held at some time, card unit -> units bought) of a solved model."""
    unit = m.inputs.vintages["unit"].to_numpy()
    bought: dict = {}
    for k, var in m.buy.items():
        bought[int(unit[k])] = bought.get(int(unit[k]), 0.0) + (pulp.value(var) or 0.0)
    return {i: pulp.value(n) or 0.0 for i, n in m.n.items()}, bought


def cards_held(m: Model) -> pulp.LpAffineExpression:
    """Cards held at some time in the plan, of every card (bought, or owned and not sold)."""
    return pulp.lpSum(m.n.values())


# Of the fleets at a cap's least, the one named: the least new capex over the plan, then the fewest cards. The
# least alone leaves ties the solver breaks at will: a year's capex or an epoch's power below the most of any
# year or epoch leaves room for cards the least does not need (an audit's: 1 × RTX-4090 + 1 × A100 named as
# 16,500 USD in some year, 18,849 USD in all, where the A100 alone is that least), and owned cards cost no capex.
TIE_BREAKS = (constraints.new_capex, cards_held)
# a least is held within this share of it (at least this much of its unit) while the ties are broken: the
# solver's own tolerances, far below any price, watt or card
TIE_TOLERANCE = 1e-6


# why the caps named after it were not examined: the plan's time limit, which its own solves drew on before the
# explanation's (engine.solve.TimeBudget), ran out; as engine.decisions words the re-solves its total_time_limit
# leaves undone (NOT_COMPUTED)
RAN_OUT = "the time limit of {:g} s (the plan's solves and the explanation's in all) ran out"
# why limits on cards were not checked where the plan has no time limit: _held_budget's own for those re-solves ran out
HELD_RAN_OUT = ("the time limit of {:,.0f} s for solving the least cloud share again without these limits (the plan has "
                "none: {:g} times its solve, at least {:g} s) ran out")
# named among the caps not examined where the solve without the caller's extra constraints was not made in time
EXTRA_CONSTRAINTS = "extra_constraints"


class _OutOfTime(Exception):
    """Raised by a solve of the explanation that its time limit left undone, or stopped before it found a
    fleet: the cap it was for is not examined."""


def _minimise(m: Model, expr: pulp.LpAffineExpression, solver: str, name: str,
              budget: TimeBudget) -> tuple[float, bool] | None:
    """Minimise `expr` over `m` within what is left of `budget`: (its least value, whether the solver proved
    it), then held by a row (within TIE_TOLERANCE) under the objectives that follow; None when no fleet is
    found. _OutOfTime when the budget is spent before the solve, or stops it before it finds a fleet."""
    limit = budget.left()
    if limit == 0.0:
        raise _OutOfTime
    m.prob.setObjective(expr)
    status = solve(m, solver, limit).status
    if status == "not_solved" and budget.spent():
        raise _OutOfTime
    if status not in ("optimal", "feasible"):
        return None
    least = float(pulp.value(expr) or 0.0)
    m.prob += (expr <= least + TIE_TOLERANCE * max(1.0, abs(least)), f"least_{name}")
    return least, status == "optimal"


@dataclass
class _Least:
    """A cap's least value over fleets meeting every other constraint, whether the solver proved it, and the
    fleet named at it ((held, bought): _held_and_bought)."""

    need: float
    proved: bool
    fleet: tuple[dict, dict]


def _least(inp: Inputs, cap, solver: str, budget: TimeBudget) -> _Least | None:
    """The least value of a cap's quantity over fleets meeting every other constraint, and the fleet named
    at it: of those fleets, the first by TIE_BREAKS. None when no fleet meets the others; _OutOfTime when
    `budget` leaves the least unfound (a tie-break it leaves undone keeps the fleet found before it)."""
    if budget.spent():   # no model built for a solve that would not start
        raise _OutOfTime
    m = build_model(replace(inp, caps={**inp.caps, cap.name: None}))
    found = _minimise(m, cap.measure(m), solver, cap.name, budget)
    if found is None:
        return None
    least = _Least(*found, _held_and_bought(m))
    for tie_break in TIE_BREAKS:
        if tie_break is cap.measure:   # the capex budget's least is the least capex already
            continue
        # the fleet found so far meets the rows held: a solver that fails, or stops at its time limit with a
        # fleet it did not prove better (it may be worse than the one found), leaves that fleet named
        try:
            broken = _minimise(m, tie_break(m), solver, tie_break.__name__, budget)
        except _OutOfTime:
            break
        if broken is None or not broken[1]:
            break
        least.fleet = _held_and_bought(m)
    return least


def _has_fleet_without_extra(inp: Inputs, solver: str, budget: TimeBudget) -> bool:
    """Whether `inp` has a fleet without the caller's extra constraints; _OutOfTime when `budget` leaves that
    unknown (spent before the solve, or it stops without an answer)."""
    if budget.spent():
        raise _OutOfTime
    status = solve(build_model(inp), solver, budget.left()).status
    if status == "not_solved" and budget.spent():
        raise _OutOfTime
    return status in ("optimal", "feasible")


def _unproven(least: _Least, time_limit: float | None) -> str:
    """Why `least` is not proved the least ("" when it is): a time limit, or (without one) HiGHS's answer
    failed the checks on it (engine.solve)."""
    if least.proved:
        return ""
    if time_limit is not None:
        return "the solver stopped at the time limit before it proved the least"
    return "the solver did not prove it the least"


def explain_infeasible(inp: Inputs, solver: str = DEFAULT_SOLVER, extra_constraints: ExtraConstraints | None = None,
                       time_limit: float | TimeBudget | None = None, plan_seconds: float | None = None) -> str:
    """Why no fleet meets the scenario, with the numbers: first a workload no allowed unit can serve (`unservable`:
    no cap is then the cause), then which cap cannot be met, tried one cap at a time, up to three solves a cap (its
    least, then TIE_BREAKS; for the cloud share, one more for each limit on cards and a few to tell which hold it
    together: _capacity_held_by), and where none alone is the cause, whether a fleet exists without any cap.
    `time_limit`: seconds for all the solves together (None: no limit), or the plan's TimeBudget, which its own
    solves drew on first; each solve is given what is left, and the caps not examined within it are named (RAN_OUT).
    Without one, the re-solves for the limits on cards share a default of their own, a multiple of the plan's solve
    (`plan_seconds`: _held_budget), and the limits they leave unchecked are named."""
    why = unservable(inp)
    if why:
        return why
    for cap in constraints.CAPS:
        if cap.precheck is not None and inp.caps.get(cap.name) is not None:
            why = cap.precheck(inp)
            if why:
                return why
    budget = TimeBudget.of(time_limit)
    messages, unexamined = [], []
    if extra_constraints is not None:
        try:
            if _has_fleet_without_extra(inp, solver, budget):
                return "the extra constraints leave no feasible fleet (the scenario without them has one)"
        except _OutOfTime:
            unexamined.append(EXTRA_CONSTRAINTS)
    for cap in constraints.CAPS:
        limit = inp.caps.get(cap.name)
        if limit is None or cap.measure is None:
            continue
        try:
            found = _least(inp, cap, solver, budget)
        except _OutOfTime:
            unexamined.append(cap.field)
            continue
        if found is not None:
            # the watts of its cards for the power cap alone
            fleet = fleet_text(inp, *found.fleet, watts=cap.name == "power_kw")
            text = cap.explain(limit, found.need, fleet, inp, _unproven(found, budget.seconds))
            held_by = ""
            if cap.name == "max_cloud_share" and text.endswith(fleet):   # it names the fleet as the capacity limit
                held_by = _capacity_held_by(inp, cap, found, solver, *_held_budget(budget, plan_seconds))
            elif cap.name == "power_kw":
                held_by = _owned_over_power(inp, limit)
            messages.append(text + _minimums_held(inp, found.fleet[0]) + held_by)
    if unexamined:
        ran_out = RAN_OUT.format(budget.seconds)
        if messages:
            return f"{'; or '.join(messages)}; {series(unexamined)} not examined: {ran_out} first"
        # the caps examined may not be why alone: "no fleet meets all caps together" is not known either
        return f"which cap leaves no fleet is not computed: {ran_out} before the explanation examined {series(unexamined)}"
    if messages:
        return "; or ".join(messages)
    return _none_alone(inp, solver, budget)


def figure(x: float) -> str:
    """A limit as a scenario field states it, with thousands separators: 1,250,000; 0.3; 7.5."""
    return number_text(x, 6)


def caps_set(inp: Inputs) -> list[str]:
    """The caps `inp` sets (unit limits apart), each by its scenario field with its limit and unit:
    "onprem.power_cap_kw 8 kW", "onprem.capex_budget 1,250,000 EUR", "constraints.max_cloud_share 0.3"."""
    out = []
    for cap in constraints.CAPS:
        limit = inp.caps.get(cap.name)
        if cap.name == "unit_limits" or limit is None:
            continue
        unit = {"currency": f" {inp.currency}", "share": ""}.get(cap.unit, f" {cap.unit}" if cap.unit else "")
        out.append(f"{cap.field or cap.name} {figure(float(limit))}{unit}")
    return out


def _none_alone(inp: Inputs, solver: str, budget: TimeBudget) -> str:
    """Why no fleet meets the scenario where no cap alone is the cause: the caps together (a fleet exists without
    them), or the demand with the units allowed (none exists even without the caps: a solve of the scenario without
    them, unless only one is set, which `_least` has relaxed already)."""
    lo = inp.col("min_units") if inp.caps.get("unit_limits") else inp.col("existing") * 0
    owned = {i: max(int(inp.col("existing")[i]), int(lo[i])) for i in range(len(inp.units))
             if inp.col("kind")[i] == "card"}
    units = f"units owned or required: {fleet_text(inp, owned) if owned else 'none'}"
    caps = caps_set(inp)   # only the caps the scenario sets: "power_cap_kw None" would read as a limit
    limits = [e.named for e in constraints.cap_entries(inp) if e.card is not None]
    limited = f"; unit limits: {', '.join(limits)}" if limits else ""
    allowed = f"no fleet meets the demand with the units allowed ({units}{limited})"
    if not caps:
        return f"{allowed}; check unit limits and offers"
    if len(caps) > 1:
        uncapped = replace(inp, caps={name: (limit if name == "unit_limits" else None) for name, limit in inp.caps.items()})
        try:
            feasible = _has_fleet_without_extra(uncapped, solver, budget)
        except _OutOfTime:
            return (f"no fleet meets all caps together ({', '.join(caps)}; {units}); whether a fleet exists without "
                    f"them is not computed: {RAN_OUT.format(budget.seconds)} first")
        if feasible:
            return f"no fleet meets all caps together ({', '.join(caps)}; {units}); relax one or more of them"
    return f"{allowed}, even without {'any of ' * (len(caps) > 1)}{series(caps)}; check unit limits and offers"
