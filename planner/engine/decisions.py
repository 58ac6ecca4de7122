"""What each decision of a plan is worth, the runner-up plan, the close-call flag, the flip points and what
each limit costs (docs/decisions.md).

- decision values: each card purchase (one card in one purchase month), reservation and sale of owned
  cards in the plan is forbidden in turn and the plan solved again; the increase is what the decision saves;
- runner-up: the best plan whose fleet — cards held per card type (`Model.n`) and reserved units per
  offer — differs from the plan's in at least one count (a no-good cut); when its solve stopped unproven,
  never dearer than another fleet the same call found (known_cheaper);
- close call: the runner-up costs at most `close_call_share` more than the plan;
- flip points: per card bought, the demand of the workload it mainly serves just below which the optimal plan
  holds fewer of that card, by re-solves that narrow a bracket (where the totals' lines cross, else halving);
- cap costs: each limit the scenario sets (a cap, one card's min_units or max_units) dropped in turn and the
  plan solved again; the saving is what the limit costs the plan, and a baseline cheaper than the plan is
  then told apart by the limits that bind.

Every re-solve takes the plan's own path — same inputs and reductions, solver, time limit and extra
constraints — so forbidding a decision through `plan(..., extra_constraints=…)` gives the same total.

The re-solves are independent of one another (but for the steps of one flip search and the runner-up's
two), so they run on a pool of threads, one per usable core: HiGHS and CBC solve outside the GIL, each
model in its own thread (engine.solve). Every re-solve builds or owns its model, so the answers do not
depend on the number of threads.
"""

from __future__ import annotations

import math
import numbers
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pulp

from planner.engine.baselines import (
    MONEY_ROUNDING,
    baseline_variants,
    name_binding_caps,
    round_off,
    usable_cores,
)
from planner.engine.constraints import CAPS, Cap, CapEntry, cap_entries
from planner.engine.inputs import Inputs
from planner.engine.merged_hours import may_be_dearer
from planner.engine.model import ExtraConstraints, Model, build_model, purchase_bound, purchase_variables
from planner.engine.readback import CHEAPER_TO_SELL
from planner.engine.reductions import reduce, reduce_cheapest_cloud_fill
from planner.engine.result import Plan, _set_fresh
from planner.engine.run import (
    CHEAPER_REMEDY,
    check_keywords,
    check_limits,
    extra_constraints_of,
    inputs_of_plan,
    inputs_priced_as,
)
from planner.engine.solve import solve
from planner.errors import PlannerError, ScenarioError
from planner.scenario import apply_overrides
from planner.text import shortened

DECISION_COLUMNS = ["decision", "card_or_offer", "gpu", "month", "units", "status", "total_if_forbidden", "increase",
                    "increase_pct", "note"]
CAP_COST_COLUMNS = ["cap", "limit", "unit", "status", "total_without", "saving", "saving_pct", "binds", "note",
                    "dropped_in"]
FLIP_COLUMNS = ["card", "gpu", "units", "workload", "demand_today", "flip_demand", "flip_share_of_today", "unit",
                "precision_pct", "solves", "note"]
DEFAULT_CLOSE_CALL_SHARE = 0.02
# the field that carries a workload's demand, in the order looked for, and its unit
DEMAND_FIELDS = {"gpu_hours_per_month": "GPU-hours per month", "requests_per_second": "requests per second",
                 "reference_gpus": "reference GPUs"}
MAX_FLIP_SOLVES = 14           # per card: 12 to narrow [0, today] (bisection needs as many), 2 for the steps down from today
MAX_STEPS_DOWN = 7             # steps down from today (_below_today); each beyond the second adds a solve to the 14
MAX_SOLVES_ABOVE_TODAY = 6     # looking above today (doubling), when only min_units made the plan hold the card
# the first step down from today is at most this share of today; each next step doubles it (_below_today)
FIRST_STEP_SHARE = 0.1
FLIP_PRECISION = 1e-3          # stop narrowing when the flip demand is known within ± this share of itself
# a probe on either side of where the totals' lines cross (_crossing) lies this share of FLIP_PRECISION from it,
# so that a probe below that holds fewer and one above that holds the card end the search within precision
PROBE_SHARE = 0.9
# threads for the re-solves: one per usable core, up to this many (each holds a model; the Python part of
# a re-solve, building its model, takes the GIL, about a tenth of a solve on industrial.yaml)
MAX_THREADS = 8
# … and fewer for a large model: the purchase variables (engine.model.PurchaseVariables) of the re-solves running at
# once, summed over the threads, at most this many. Each re-solve's branch and bound holds memory that grows with
# them: 40 alike custom cards (518) held about 450 MB a solve, and on 2 threads its re-solves took the process from
# 511 MB after the plan to 1.41 GB; the shipped scenarios (12-38) keep every thread
PURCHASES_IN_FLIGHT = 1_000
SOLVED = ("optimal", "feasible")
# a re-solve stopped before proving its answer (a time limit): with a fleet it had not proved best, or none
UNPROVEN = ("feasible", "not_solved")
# why a re-solve has no answer when add_decisions' total_time_limit left it undone (or cut it short), then its
# seconds; as the time limit of one solve is worded (_no_answer)
NOT_COMPUTED = "not computed: the re-solves stopped at their time limit of"
# add_decisions' total_time_limit by default (default_total_time_limit; the CLI's): this many times the plan's own
# solve, and at least DEFAULT_TOTAL_TIME_LIMIT_S. All the re-solves took 25-60 times the plan's own solve on 2 cores
# (2026-12-05, busy host): industrial.yaml over 120 months with monthly purchases 145 s (39 re-solves, the plan 3.0 s),
# startup-hybrid.yaml with 10, 20 and 40 alike custom cards 80, 390 and 719 s (the plans 3.1, 6.8 and 17.9 s; 40,
# 59 and 75 re-solves), the shipped scenarios 2-10 s: ten minutes leave all of these up to 20 cards room to
# finish on a host half as fast, and past them the re-solves take at most 20 times the plan (60 alike cards:
# 48 s, then 16 minutes, where they had run past 7 minutes and 1.7 GB when the audit stopped them)
DEFAULT_TIME_PER_PLAN_SOLVE = 20
DEFAULT_TOTAL_TIME_LIMIT_S = 600.0
# MONEY_ROUNDING: totals closer than this are equal (a plan that costs 0 and a runner-up within it tie,
# increase_pct 0, where a percentage of 0 cannot be taken); round_off(total): how far a re-solve may come out
# below the plan (engine.baselines, whose best single type compares totals the same way)


# ---------------------------------------------------------------------------------------------------
# Re-solving one plan's scenario


class _Cancelled(Exception):
    """Raised by a re-solve once another re-solve failed or the caller was interrupted: the pool's other
    chains (a flip search, the runner-up) stop at their next solve instead of running to their end."""


@dataclass
class _Outcome:
    status: str                 # optimal | feasible | infeasible | not_solved | unbounded
    total: float                # nan without a fleet
    model: Model | None
    why: str = ""               # why it has no answer, where no solve said: not computed (_Resolver.not_computed)

    @classmethod
    def of(cls, solution, m: Model) -> _Outcome:
        return cls(solution.status, solution.objective if solution.status in SOLVED else math.nan, m)


@dataclass
class _Resolver:
    """Re-solves of one plan: its scenario, inputs (priced as the plan was), reductions, solver, time limit
    and extra constraints; counts the solves of each part."""

    scenario: object
    base: Inputs                # unreduced offers (periods merged when the plan was reduced)
    inp: Inputs                 # what the plan was solved from
    solver: str
    time_limit: float | None
    extra: ExtraConstraints | None
    bought: dict = field(default_factory=dict)          # (card, month) -> cards the plan buys then
    total: float = math.nan     # the plan's total when proven optimal (nan else): the optimum at today's demands
    solves: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)   # per part, summed over the threads
    cancelled: threading.Event = field(default_factory=threading.Event, repr=False)
    total_time_limit: float | None = None   # add_decisions' seconds for all the re-solves, from `began`
    began: float = field(default_factory=time.monotonic)
    skipped: int = 0            # tasks (_Tasks) with a re-solve `total_time_limit` left undone or cut short
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # .purchases: this thread's model; .short: its task met a re-solve not computed (not_computed)
    _own: threading.local = field(default_factory=threading.local, repr=False)

    def counted(self, part: str, solves: int = 0, seconds: float = 0.0) -> None:
        with self._lock:
            self.solves[part] += solves
            self.seconds[part] += seconds

    @property
    def reduced(self) -> bool:
        return self.inp.reduced

    def prepared(self, base: Inputs) -> Inputs:
        """`base` with the exact reductions when the plan had them."""
        return reduce(base) if self.reduced else base

    def solve(self, inp: Inputs, part: str, change: ExtraConstraints | None = None,
              start: dict | None = None) -> _Outcome:
        """The optimum of `inp` with the plan's extra constraints and `change`; `start`: purchases by (card,
        month) to start HiGHS from (`purchases`)."""

        def constraints(m: Model) -> None:
            if self.extra is not None:
                self.extra(m)
            if change is not None:
                change(m)

        if self.cancelled.is_set():
            raise _Cancelled
        if self.spent():
            return self.not_computed()
        m = build_model(inp, constraints)
        solution = solve(m, self.solver, self.limit(), start=None if start is None else start_of(m, start))
        if solution.status in UNPROVEN and self.spent():   # cut short by the limit in all: no answer
            return self.not_computed()
        self.counted(part, solves=1)
        return _Outcome.of(solution, m)

    def limit(self) -> float | None:
        """The time limit of the next solve: the plan's, or what is left of the budget when that is less."""
        if self.total_time_limit is None:
            return self.time_limit
        left = max(0.1, self.total_time_limit - (time.monotonic() - self.began))   # 0.1 s: the least a solve takes
        return left if self.time_limit is None else min(self.time_limit, left)

    def spent(self) -> bool:
        """Whether the re-solves have taken `total_time_limit` in all."""
        return self.total_time_limit is not None and time.monotonic() - self.began >= self.total_time_limit

    def not_computed(self) -> _Outcome:
        """The outcome of a re-solve `total_time_limit` left undone or cut short before it proved its answer:
        no answer, which its row reports (_no_answer), as it reports a solve stopped by the time limit; the
        re-solves done before keep theirs."""
        self._own.short = True
        return _Outcome("not_solved", math.nan, None, f"{NOT_COMPUTED} {self.total_time_limit:g} s in all")

    def solve_without_buy(self, card: str, month: int) -> _Outcome:
        """The optimum with no `card` bought in `month`: one model of the plan's inputs per thread (built at
        its first purchase) with that purchase's upper bound set to 0 for the solve. Building a model for
        each purchase instead took 1.1–1.6× as long (industrial.yaml, 19 purchases, busy machine;
        benchmarks/plan_speed.py --sections decisions)."""
        if self.cancelled.is_set():
            raise _Cancelled
        if self.spent():
            return self.not_computed()
        m = getattr(self._own, "purchases", None)
        if m is None:
            m = self._own.purchases = build_model(self.inp, self.extra)
        k = _vintage(self.inp, card, owned=False, month=month)
        var = m.buy.get(k)
        most = None if var is None else var.upBound
        if var is not None:
            var.upBound = 0
        try:
            start = None if var is None else self.start_without_buy(m, k)
            solution = solve(m, self.solver, self.limit(), start=start)
        finally:
            if var is not None:
                var.upBound = most
        if solution.status in UNPROVEN and self.spent():
            return self.not_computed()
        self.counted("decision_values", solves=1)
        return _Outcome.of(solution, m)

    def plan_purchases(self) -> dict[tuple[str, int], float]:
        """The plan's purchases by (card, month): a copy to change."""
        return dict(self.bought)

    def plan_with_one(self, card: str, more: bool) -> dict[tuple[str, int], float]:
        """The plan's purchases by (card, month) with one `card` more, bought in its first purchase month
        (more), or one fewer, from its last purchase: a start near the best fleet holding one card more or
        fewer (count_alternative). Unchanged when the plan buys no `card` to take one from."""
        bought = self.plan_purchases()
        if more:
            sku, v = self.inp.col("sku"), self.inp.vintages
            mine = (sku[v["unit"].to_numpy()] == card) & ~v["owned"].to_numpy().astype(bool)
            months = v["first_service"].to_numpy()[mine]
            if len(months):
                key = (card, int(months.min()))
                bought[key] = bought.get(key, 0.0) + 1
        else:
            held = [month for (name, month), units in bought.items() if name == card and units > 0]
            if held:
                bought[card, max(held)] -= 1
        return bought

    def start_without_buy(self, m: Model, k: int) -> dict:
        """A fleet near the optimum without purchase vintage `k`, for HiGHS to start from: the plan's
        purchases with those of `k` moved to the card's purchase month before it (after it, for the first),
        where that month's bound allows. HiGHS completes the rest (groups, dispatch) or, if the move breaks a
        cap, ignores it. On industrial.yaml's 15 purchases the re-solves took 2.4-2.7 s instead of 4.1-4.4 s
        (2026-12-03, one thread, same optima)."""
        key = vintage_keys(m.inputs)
        units = {j: self.bought.get(key[j], 0.0) for j in m.buy}
        moved, units[k] = units[k], 0.0
        months = sorted((j for j in m.buy if key[j][0] == key[k][0]), key=lambda j: key[j][1])
        i = months.index(k)
        near = months[i - 1] if i > 0 else months[i + 1] if i + 1 < len(months) else None
        if near is not None and (m.buy[near].upBound is None or units[near] + moved <= m.buy[near].upBound):
            units[near] += moved
        return {m.buy[j]: count for j, count in units.items()}

    def not_below_plan(self, outcome: _Outcome, what: str) -> None:
        """PlannerError when `outcome`, the optimum of the plan's model with one more restriction (a decision
        forbidden, a fleet cut off, a card count fixed), costs less than the proven optimal plan: it cannot,
        unless the plan was made with constraints or prices the re-solves lack (a library call of
        add_decisions without the plan's extra_constraints gave a runner-up 10 % cheaper than the plan)."""
        if outcome.status != "optimal" or not math.isfinite(self.total):
            return
        if outcome.total < self.total - round_off(self.total):
            raise PlannerError(f"{what} re-solved to {outcome.total:,.2f}, below the plan's {self.total:,.2f}: a plan "
                               "with one more restriction cannot cost less, so the plan was made with constraints "
                               "or prices these re-solves lack (pass add_decisions the plan's extra_constraints "
                               "and store)")

    def not_above_plan(self, outcome: _Outcome, what: str) -> None:
        """PlannerError when `outcome`, the optimum of the plan's model with one restriction fewer (a cap
        dropped), costs more than the proven optimal plan, which is one of its fleets: the re-solves then
        lack the plan's prices or hold constraints it had not."""
        if outcome.status != "optimal" or not math.isfinite(self.total):
            return
        if outcome.total > self.total + round_off(self.total):
            raise PlannerError(f"{what} re-solved to {outcome.total:,.2f}, above the plan's {self.total:,.2f}: a plan "
                               "with one restriction fewer cannot cost more, so the re-solves hold constraints the "
                               "plan was not made with, or other prices (pass add_decisions only the plan's own "
                               "extra_constraints, and its store)")

    def inputs_with(self, overrides: dict) -> Inputs:
        """The plan's inputs for its scenario with dotted `overrides` (ScenarioError when they are invalid)."""
        scenario = apply_overrides(self.scenario, overrides)
        return self.prepared(inputs_priced_as(scenario, self.base, merge_periods=self.reduced))


def vintage_keys(inp: Inputs) -> list[tuple[str, int]]:
    """(card, month it enters service) of each vintage: what names a purchase across models whose vintage
    indices differ (another demand, other reductions)."""
    sku, v = inp.col("sku"), inp.vintages
    return list(zip(map(str, sku[v["unit"].to_numpy()]), map(int, v["first_service"].to_numpy())))


def purchases(m: Model) -> dict[tuple[str, int], float]:
    """The cards solved model `m` buys, by (card, purchase month)."""
    key = vintage_keys(m.inputs)
    return {key[k]: round(var.varValue or 0.0) for k, var in m.buy.items()}


def start_of(m: Model, bought: dict[tuple[str, int], float]) -> dict:
    """A MIP start for `m` (engine.solve): each purchase variable set from `bought` (by card and month), 0
    where it has none."""
    key = vintage_keys(m.inputs)
    return {var: bought.get(key[k], 0.0) for k, var in m.buy.items()}


def _resolver(result: Plan, solver: str | None, time_limit: float | None, store: str | Path | None,
              extra: ExtraConstraints | None) -> _Resolver:
    if result.scenario is None:
        raise PlannerError("add_decisions needs the plan's scenario (a Plan made by planner.plan)")
    reduced = bool(result.solver.get("reduced", True))
    base = inputs_of_plan(result, store)   # the plan's own prices, though a refresh changed the store since
    inp = reduce(base) if reduced else base
    bought = Counter()
    for d in plan_decisions(result):
        if d.kind == "buy":
            bought[d.name, d.month] += d.units
    # the plan's total is today's point of the flip searches only when it is a proven optimum
    total = float(result.total) if result.status == "optimal" else math.nan
    return _Resolver(result.scenario, base, inp, solver or result.solver["name"], time_limit, extra, dict(bought), total)


# ---------------------------------------------------------------------------------------------------
# The decisions of a plan and how to forbid each


@dataclass(frozen=True)
class _Decision:
    kind: str                   # buy | reserve | sell
    name: str                   # card id or offer id
    gpu: str
    month: int
    units: int                  # cards bought or sold, or instances reserved: whole counts


def plan_decisions(result: Plan) -> list[_Decision]:
    """The plan's card purchases (one per card and purchase month), reservations and sales of owned cards."""
    out = []
    schedule = result.schedule
    if len(schedule):
        for r in schedule[schedule["action"].isin(["buy", "sell"])].itertuples(index=False):
            out.append(_Decision(str(r.action), str(r.card), str(r.gpu), int(r.month), int(round(r.units))))
    fleet = result.fleet
    for r in fleet[(fleet["kind"] == "reserved") & (fleet["units"] > 0)].itertuples(index=False):
        out.append(_Decision("reserve", str(r.unit_id), str(r.gpu), 1, int(round(r.units))))
    return out


def _vintage(inp: Inputs, card: str, owned: bool, month: int | None = None) -> int:
    """The vintage index of `card` bought in `month` (owned=False) or its owned batch (owned=True)."""
    v = inp.vintages
    sku = inp.col("sku")[v["unit"].to_numpy()]
    match = (sku == card) & (v["owned"].to_numpy() == owned)
    if month is not None:
        match &= v["first_service"].to_numpy() == month
    found = np.flatnonzero(match)
    if not len(found):
        raise PlannerError(f"the plan's {card} {'owned batch' if owned else f'purchase in month {month}'} is not in "
                           "the scenario's inputs")
    return int(found[0])


def forbid_buy(card: str, month: int) -> ExtraConstraints:
    """No card `card` bought in purchase month `month`."""
    def change(m: Model) -> None:
        k = _vintage(m.inputs, card, owned=False, month=month)
        if k in m.buy:
            m.buy[k].upBound = 0
    return change


def forbid_sale(card: str) -> ExtraConstraints:
    """Every owned card `card` kept or switched off: none sold."""
    def change(m: Model) -> None:
        k = _vintage(m.inputs, card, owned=True)
        count = int(m.inputs.vintages["count"].iloc[k])
        held = m.keep[k] + m.off[k] if k in m.off else m.keep[k]
        m.prob += (held == count, f"forbid_sale_{k}")
    return change


def without_offer(base: Inputs, offer_id: str) -> Inputs:
    """`base` without the offer: the reductions run again without it, since they drop reservations that
    another one (perhaps this one) dominates."""
    return base.keep(base.col("unit_id") != offer_id)


# ---------------------------------------------------------------------------------------------------
# Why forbidding a decision leaves no fleet


def _cap_words(name: str, limit, inp: Inputs, card: str) -> str:
    cur = inp.currency
    if name == "unit_limits":
        lo = dict(zip(inp.col("sku"), inp.col("min_units")))
        if lo.get(card, 0) > 0:
            return f"constraints.min_units.{card} = {int(lo[card])} cannot be met"
        # with `card` forbidden, what can leave no fleet is a maximum on the other cards: named (a review's note
        # said "the scenario's min_units / max_units" where one max_units blocked)
        hi = dict(zip(inp.col("sku"), inp.col("max_units")))
        limits = [f"constraints.max_units.{c} = {int(n)}" for c, n in hi.items() if c != card and n == n]   # not NaN
        if limits:
            return f"{', '.join(limits)} cannot be met" + (" together" if len(limits) > 1 else "")
        return "the scenario's min_units / max_units cannot be met"
    return {"power_kw": f"the power cap of {limit:g} kW cannot be met",
            "capex_budget": f"the capex budget of {limit:,.0f} {cur} cannot be met",
            "capex_budget_per_year": f"the capex budget per year of {limit:,.0f} {cur} cannot be met",
            "max_cloud_share": f"max_cloud_share {limit:g} cannot be met"}.get(name, f"{name} {limit} cannot be met")


def _cap_on(limit) -> bool:
    return limit is not None and limit is not False


def why_infeasible(r: _Resolver, inp: Inputs, change: ExtraConstraints | None, card: str) -> str:
    """The cap that leaves no fleet once a decision is forbidden: each cap relaxed in turn (unit limits
    first, the usual culprit), the first that lets a fleet exist is named."""
    # a cap is off when its limit is None (or False); a limit of 0 is a cap (0 == False in Python)
    caps = sorted((c for c in CAPS if _cap_on(inp.caps.get(c.name))), key=lambda c: c.name != "unit_limits")
    cap, why = _first_cap_lifted(r, inp, change, "decision_values", caps)
    if cap is not None:
        return _cap_words(cap.name, inp.caps[cap.name], inp, card)
    if why:   # not computed: the caps not yet relaxed may be the cause
        return f"which cap leaves none is {why}"
    return "the demand cannot be met any other way"


def _first_cap_lifted(r: _Resolver, inp: Inputs, change: ExtraConstraints | None, part: str,
                      caps: list[Cap]) -> tuple[Cap | None, str]:
    """(the first of `caps` without which `inp` with `change` has a fleet, each lifted alone in turn, ""); (None, why)
    where a re-solve was not computed (the caps not yet lifted may be the cause); (None, "") where none alone does."""
    for cap in caps:
        outcome = r.solve(replace(inp, caps={**inp.caps, cap.name: None}), part, change)
        if outcome.status in SOLVED:
            return cap, ""
        if outcome.why:
            return None, outcome.why
    return None, ""


# ---------------------------------------------------------------------------------------------------
# Decision values


def decision_value(r: _Resolver, result: Plan, d: _Decision) -> tuple:
    """The row of decision `d` (DECISION_COLUMNS): the total when it is forbidden and the increase over the
    plan's total (money and percent), or the status and reason when no fleet is left."""
    if d.kind == "reserve":
        inp, change = r.prepared(without_offer(r.base, d.name)), None
    else:
        inp, change = r.inp, forbid_buy(d.name, d.month) if d.kind == "buy" else forbid_sale(d.name)
    outcome = r.solve_without_buy(d.name, d.month) if d.kind == "buy" else r.solve(inp, "decision_values", change)
    r.not_below_plan(outcome, f"the plan without {d.kind} {d.name}" + (f" in month {d.month}" if d.kind == "buy" else ""))
    note = ""
    if outcome.status in SOLVED:
        increase = money_difference(outcome.total, result.total)
        pct = increase_pct(increase, result.total)
        pct = math.nan if pct is None else pct
    else:
        increase = pct = math.nan
        if outcome.status == "infeasible":
            note = f"no fleet without it: {why_infeasible(r, inp, change, d.name)}"
        else:   # not_solved (the time limit reached before any fleet was found) or unbounded
            note = f"no value: {_no_answer(r, outcome.status, outcome.why)}"
    return (d.kind, d.name, d.gpu, d.month, d.units, outcome.status, outcome.total, increase, pct, note)


def _no_answer(r: _Resolver, status: str, why: str = "") -> str:
    """Why a re-solve that ended `status` (neither solved nor infeasible) gives no answer: a time-out is not
    "no fleet". `why`: the outcome's own reason, where it was not computed (_Resolver.not_computed)."""
    if why:
        return why
    if status == "not_solved":
        if r.time_limit is not None:
            return f"the solver stopped at the time limit ({r.time_limit:g} s) without an answer"
        return "the solver stopped without an answer"
    if status == "feasible":
        if r.time_limit is not None:
            return f"the solver stopped at the time limit ({r.time_limit:g} s) with a fleet it had not proved best"
        # no time limit: HiGHS's answer failed the checks on it (engine.solve) and the fleet kept is not proved best
        return "the solver ended with a fleet it had not proved best"
    return f"the re-solve is {status}"


def money_difference(total: float, plan_total: float) -> float:
    """`total` − `plan_total`, 0 when within MONEY_ROUNDING: an exact tie solved to −9e-13 printed "-0"."""
    increase = total - plan_total
    return 0.0 if abs(increase) < MONEY_ROUNDING else increase


def increase_pct(increase: float, total: float) -> float | None:
    """`increase` as a percentage of the plan's `total`; for a total of 0 (within MONEY_ROUNDING), 0 when the
    increase is 0 too (within MONEY_ROUNDING), else None: no percentage of 0 says how much more."""
    if abs(total) >= MONEY_ROUNDING:
        return 100.0 * increase / abs(total)
    return 0.0 if abs(increase) < MONEY_ROUNDING else None


# ---------------------------------------------------------------------------------------------------
# What each cap costs: the plan solved again without it


def cap_cost(r: _Resolver, result: Plan, entry: CapEntry) -> tuple:
    """The row of limit `entry` (CAP_COST_COLUMNS): the total without it and the saving over the plan's
    total. The limit binds where the saving exceeds the solves' agreement: the plan would cost that much
    less without it (what raising a budget or a power feed, or lifting a card limit, is worth at most)."""
    inp = r.prepared(entry.relax(r.base))   # from the unreduced inputs: a cap on the cloud changes what reduces
    # the plan is a fleet of the model without the limit: HiGHS starts from its purchases
    outcome = r.solve(inp, "cap_costs", start=None if entry.permits else r.plan_purchases())
    if not entry.permits:
        r.not_above_plan(outcome, f"the plan without {entry.field}")
    # the baselines (by label) that drop the limit where it can make them cheaper than the plan
    dropped_in = [v.label for v in baseline_variants(r.base) if entry.explains(v.cards(r.base))]
    row = {"cap": entry.field, "limit": entry.limit, "unit": entry.unit, "status": outcome.status,
           "total_without": outcome.total, "saving": math.nan, "saving_pct": math.nan, "binds": None, "note": "",
           "dropped_in": dropped_in}
    card = entry.field.rsplit(".", 1)[-1]
    why, fix, _ = _not_bought(r.scenario, card)
    permits = (f"{why}: this minimum is what lets the plan buy it, and without it the plan {{}}; {fix} to let the plan "
               "choose how many")
    if entry.permits and outcome.status == "infeasible":
        return tuple((row | {"binds": False, "note": permits.format("has no fleet")}).values())
    if outcome.status not in SOLVED:
        row["note"] = f"no value: {_no_answer(r, outcome.status, outcome.why)}"
        return tuple(row.values())
    saving = money_difference(result.total, outcome.total)
    pct = increase_pct(saving, result.total)
    row.update(saving=saving, saving_pct=math.nan if pct is None else pct)
    agreement = round_off(result.total)
    if saving > agreement:
        # the re-solve found a fleet that cheap without the limit: it binds, by at least this much (by this
        # much, where both solves proved their optimum)
        row["binds"] = result.status == "optimal"
        if outcome.status != "optimal":
            row["note"] = "saves at least this: the re-solve stopped at the time limit before proving its optimum"
    elif outcome.status == "optimal":
        row["binds"] = False
    else:
        row["note"] = _no_answer(r, outcome.status, outcome.why)
    if entry.permits and saving < -agreement:
        row["binds"] = False
        row["note"] = permits.format(f"costs {-saving:,.0f} {result.currency} more")
    if entry.field == "constraints.max_cloud_share" and row["binds"] and may_be_dearer(result.warnings):
        # the plan's merged hours may cost more than the best plan under the cap; its re-solve without the cap
        # is exact (engine.merged_hours): the saving may hold that excess
        row["note"] = "; ".join(filter(None, [row["note"], (
            "may be less by this plan's merged-hours excess: its hours share instance mixes that may cost more than "
            "the best plan under the cap (its warning; `--unreduced` plans every hour), while without the cap they "
            "are exact")]))
    if result.status != "optimal":
        row["binds"] = None
        row["note"] = (f"the plan's own solve stopped before proving the least cost (status {result.status}): "
                       "a saving may be the plan's own gap")
    return tuple(row.values())


def baseline_notes(result: Plan, extra_constraints: bool = False) -> pd.DataFrame:
    """The baselines table of `result` with the notes of the baselines that cost less than the plan told from
    its cap costs (engine.baselines.name_binding_caps); as it was when either is missing or the plan is not a
    proven optimum."""
    table, caps = result.baselines, getattr(result, "cap_costs", None)
    if caps is None or not len(caps) or not len(table) or result.status != "optimal":
        return table
    agreement = round_off(result.total)
    return name_binding_caps(table, caps, float(result.total), result.currency, agreement, extra_constraints)


# ---------------------------------------------------------------------------------------------------
# Runner-up: the best plan with a different fleet


def plan_fleet(result: Plan) -> dict[str, int]:
    """The plan's fleet as counts: cards held per card type (bought in any month, or owned and not sold;
    Model.n) and reserved units per offer id."""
    fleet = result.fleet
    out = {}
    for r in fleet[fleet["kind"] == "card"].itertuples(index=False):
        out[str(r.sku)] = int(round(r.existing_units + r.new_units - r.sold_units))
    for r in fleet[fleet["kind"] == "reserved"].itertuples(index=False):
        out[str(r.unit_id)] = int(round(r.units))
    return out


def fleet_counts(m: Model) -> dict[str, tuple[pulp.LpAffineExpression, int]]:
    """Every count of a fleet in model `m`: name (card id or offer id) → (its expression, its most units
    from the variables' upper bounds); counts that can only be 0 are left out."""
    out = {}
    sku, offer = m.inputs.col("sku"), m.inputs.col("unit_id")
    for items, names in ((m.n, sku), (m.r, offer)):
        for i, expr in items.items():
            expr = pulp.LpAffineExpression(expr)
            most = int(sum((var.upBound or 0) * coefficient for var, coefficient in expr.items()))
            if most > 0:
                out[str(names[i])] = (expr, most)
    return out


def no_good_cut(fleet: dict[str, int]) -> ExtraConstraints:
    """A fleet that differs from `fleet` in at least one count: per count a binary `more` with
    count ≥ (now + 1) × more and a binary `fewer` with count ≤ now − 1 + (most − now + 1)(1 − fewer),
    at least one of them 1."""
    def change(m: Model) -> None:
        switches = []
        for j, (name, (expr, most)) in enumerate(sorted(fleet_counts(m).items())):
            now = fleet.get(name, 0)
            if now + 1 <= most:
                more = m.prob.add_variable(f"runner_up_more_{j}", cat="Binary")
                m.prob += (expr - (now + 1) * more >= 0, f"runner_up_more_{j}")
                switches.append(more)
            if now >= 1:
                fewer = m.prob.add_variable(f"runner_up_fewer_{j}", cat="Binary")
                m.prob += (expr + (most - now + 1) * fewer <= most, f"runner_up_fewer_{j}")
                switches.append(fewer)
        m.prob += (pulp.lpSum(switches) >= 1, "runner_up_differs")
    return change


def type_cut(fleet: dict[str, int]) -> ExtraConstraints:
    """A fleet with a different set of card types and reservation offers than `fleet` (the issue's no-good
    cut): per count a binary `held` with count ≤ most × held and count ≥ held, and
    Σ over names held now (1 − held) + Σ over the others held ≥ 1."""
    def change(m: Model) -> None:
        differs = []
        for j, (name, (expr, most)) in enumerate(sorted(fleet_counts(m).items())):
            held = m.prob.add_variable(f"runner_up_held_{j}", cat="Binary")
            m.prob += (expr - most * held <= 0, f"runner_up_held_most_{j}")
            m.prob += (expr - held >= 0, f"runner_up_held_least_{j}")
            differs.append((1 - held) if fleet.get(name, 0) > 0 else held)
        m.prob += (pulp.lpSum(differs) >= 1, "runner_up_other_types")
    return change


def other_types_kinds(plan: dict[str, int] | None, other: dict[str, int] | None) -> str:
    """What sets fleet `other` apart from the plan's fleet `plan` in kind (type_cut's: a name held in one and not in
    the other): "card types", "reservations" or "card types and reservations"; "card types" where a fleet is not
    known. A runner-up that only adds a reservation offer read as "with other card types"."""
    if plan is None or other is None:
        return "card types"
    changed = {name for name in set(plan) | set(other) if bool(plan.get(name)) != bool(other.get(name))}
    # a reservation is counted under its offer id, provider:region:sku:option (pricing_adapters.schema.offer_id), a
    # card under its card id (plan_fleet, fleet_counts: Model.r by unit_id, Model.n by sku), which has no colon (the
    # catalog's have none; a custom card's is refused one, scenario.model._no_colon)
    reservations = {name for name in changed if ":" in name}
    kinds = [kind for kind, names in (("card types", changed - reservations), ("reservations", reservations)) if names]
    return " and ".join(kinds) or "card types"


def fleet_differences(plan: dict[str, int], other: dict[str, int], plan_off: dict[str, int] | None = None,
                      other_off: dict[str, int] | None = None, plan_sold: dict[str, int] | None = None,
                      other_sold: dict[str, int] | None = None, plan_bought: dict[str, dict[int, int]] | None = None,
                      other_bought: dict[str, dict[int, int]] | None = None,
                      owned: dict[str, int] | None = None) -> list[str]:
    """What differs between the plan's fleet `plan` and `other` (name → units held), "a100-80gb-pcie 1 → 2" each, with
    the owned cards held switched off on either side (`plan_off`, `other_off`: card → units) after its count:
    "rtx-a5000 2 → 3 (1 switched off)" — 3 held, 2 at work (an audit read a runner-up that switched the working owned
    card off and bought two, under a power cap that runs only two, as one card more). Where either side sells owned
    cards of it (`plan_sold`, `other_sold`), both sides say their sales and, where the cards owned are known (`owned`:
    card → units), the cards bought (in which plan year, where the purchases are known and fall in one): "rtx-a5000
    1 → 0 (1 owned sold)", "rtx-3060-12gb 0 (2 owned sold) → 1 (1 bought in year 3, 2 owned sold)" (the 1 read as an
    owned card kept);
    a card held as often on both sides whose sales differ is named too. A card whose count, switched-off and sold
    cards are the same but whose purchases fall in other plan years (`plan_bought`, `other_bought`: card → {plan year:
    cards bought}, where known) says when: "rtx-4090 1 (bought in year 1) → 1 (bought in year 2)"."""
    plan_off, other_off, plan_sold, other_sold = plan_off or {}, other_off or {}, plan_sold or {}, other_sold or {}
    known = plan_bought is not None and other_bought is not None

    def years(bought: dict[int, int]) -> str:
        if len(bought) == 1:
            return f"bought in year {next(iter(bought))}"
        return "bought " + ", ".join(f"{units:,} in year {year}" for year, units in sorted(bought.items()))

    def held(fleet: dict[str, int], off: dict[str, int], sold: dict[str, int], bought: dict[str, dict[int, int]] | None,
             name: str, sales: bool, moved: bool) -> str:
        parts = [f"{off[name]:,} switched off"] if off.get(name) else []
        # held = owned cards kept or switched off (owned − sold) + cards bought
        new = fleet.get(name, 0) - (owned.get(name, 0) - sold.get(name, 0)) if owned is not None else 0
        if sales and new > 0 and not moved:   # beside a sale, what is held is not all owned cards kept
            years_bought = (bought or {}).get(name, {})
            parts.append(f"{new:,} bought" + (f" in year {next(iter(years_bought))}" if len(years_bought) == 1
                                               and sum(years_bought.values()) == new else ""))
        if sales and sold.get(name):
            parts.append(f"{sold[name]:,} owned sold")
        if moved:
            parts.append(years((bought or {}).get(name, {})) if (bought or {}).get(name) else "none bought")
        return f"{fleet.get(name, 0)}" + (f" ({', '.join(parts)})" if parts else "")

    out = []
    for name in sorted(set(plan) | set(other) | set(plan_sold) | set(other_sold)):
        counts = plan.get(name, 0) != other.get(name, 0) or plan_off.get(name, 0) != other_off.get(name, 0)
        sales = bool(plan_sold.get(name) or other_sold.get(name))
        moved = (known and not counts and plan_sold.get(name, 0) == other_sold.get(name, 0)
                 and plan_bought.get(name, {}) != other_bought.get(name, {}))
        if counts or moved or plan_sold.get(name, 0) != other_sold.get(name, 0):
            out.append(f"{name} {held(plan, plan_off, plan_sold, plan_bought, name, sales, moved)} → "
                       f"{held(other, other_off, other_sold, other_bought, name, sales, moved)}")
    return out


def bought_by_year(bought: dict[tuple[str, int], float]) -> dict[str, dict[int, int]]:
    """Purchases by (card, purchase month) as card → {plan year: cards bought} (nonzero)."""
    out: dict[str, dict[int, int]] = {}
    for (card, month), units in bought.items():
        if round(units):
            year = (int(month) - 1) // 12 + 1
            out.setdefault(card, {})
            out[card][year] = out[card].get(year, 0) + int(round(units))
    return out


def plan_owned_cards(result: Plan) -> tuple[dict[str, int], dict[str, int]]:
    """(owned, sold): the cards owned before the plan and those the plan sells, per card id (nonzero; its fleet's
    existing_units and sold_units); empty for a plan without a fleet table."""
    fleet = getattr(result, "fleet", None)
    if fleet is None or "sold_units" not in fleet.columns:
        return {}, {}
    cards = fleet[fleet["kind"] == "card"]
    return tuple({str(sku): int(round(units)) for sku, units in zip(cards["sku"], cards[column]) if round(units)}
                 for column in ("existing_units", "sold_units"))


def owned_cards_left(m: Model) -> tuple[dict[str, int], dict[str, int]]:
    """(switched off, sold): the owned cards solved model `m` holds switched off, and those it sells, per card id
    (nonzero); as engine.readback reads a plan's (sold: owned − kept − switched off)."""
    inp = m.inputs
    sku, unit, count = inp.col("sku"), inp.vintages["unit"].to_numpy(), inp.vintages["count"].to_numpy()
    off: Counter = Counter()
    sold: Counter = Counter()
    for k, keep in m.keep.items():
        name = str(sku[unit[k]])
        units_off = int(round(pulp.value(m.off[k]) or 0)) if k in m.off else 0
        off[name] += units_off
        sold[name] += int(round(count[k])) - int(round(pulp.value(keep) or 0)) - units_off
    return {n: u for n, u in off.items() if u}, {n: u for n, u in sold.items() if u}


def plan_switched_off(result: Plan) -> dict[str, int]:
    """The owned cards the plan holds switched off, per card id (nonzero; its fleet's switched_off_units)."""
    fleet = result.fleet
    cards = fleet[fleet["kind"] == "card"]
    if "switched_off_units" not in cards.columns:
        return {}
    return {str(sku): int(off) for sku, off in zip(cards["sku"], cards["switched_off_units"]) if off}


def all_cloud_words(other: dict | None) -> str | None:
    """Where fleet `other` (the runner-up's, its `other_types`, a count alternative: fleet, switched_off, sold) holds
    no reservation and no card at work: "all cloud", after what it does with the owned cards — "1 owned card sold,
    all cloud", "2 owned cards switched off, all cloud", "1 owned card sold and 1 switched off, all cloud" (the
    baselines' "all cloud (no new hardware)" keeps them: an audit read the two as one plan at two totals); else
    None. The front ends' one wording of such a fleet: the CLI's "with no cards (…)", the dashboard's "With no
    cards, …"."""
    fleet = (other or {}).get("fleet")
    if fleet is None:
        return None
    off = other.get("switched_off") or {}
    if any(units > off.get(name, 0) for name, units in fleet.items()):
        return None
    sold, switched = sum((other.get("sold") or {}).values()), sum(off.values())

    def owned(units: int) -> str:
        return f"{units:,} owned card{'' if units == 1 else 's'}"

    if sold and switched:
        return f"{owned(sold)} sold and {switched:,} switched off, all cloud"
    if sold or switched:
        return f"{owned(sold or switched)} {'sold' if sold else 'switched off'}, all cloud"
    return "all cloud"


# under the cap costs table in every front end: each row drops one limit, the others kept (cap_cost)
CAPS_LIFTED_ALONE = ("Each limit is lifted alone, the others kept: limits can bind together, so lifting several at "
                     "once can save more than the sum of their savings (a limit that saves nothing alone may save "
                     "once another is lifted too).")


def runner_up(r: _Resolver, result: Plan) -> dict:
    """The runner-up: status, fleet (name → units, nonzero counts), switched_off and sold (its owned cards held
    switched off, and sold: card → units, nonzero), plan_fleet, plan_switched_off, total, increase, increase_pct,
    differences (e.g. "a100-80gb-pcie 1 → 2", "rtx-a5000 2 → 3 (1 switched off)"), a note, and other_types: the best
    plan with a different set of card types and reservation offers (the same keys but note and the plan's), which is
    the runner-up itself when that already differs in types.

    Solved on the inputs with every reservation (only the cloud fill reduced): a reservation the exact
    reductions drop never beats the one that dominates it, but may be in the second-best fleet."""
    mine = plan_fleet(result)
    inp = with_room(reduce_cheapest_cloud_fill(r.base) if r.reduced else r.base, mine)
    plan_side = {name: units for name, units in mine.items() if units}
    empty = {"status": "none", "fleet": None, "switched_off": None, "sold": None, "plan_fleet": plan_side,
             "plan_switched_off": plan_switched_off(result), "total": None, "increase": None, "increase_pct": None,
             "differences": [], "other_types": None}
    if not len(inp.vintages) and not (inp.col("kind") == "reserved").any():
        return {**empty, "note": "no other fleet: the scenario has no cards or reservations to change"}
    # (no start here: one card more of the first card bought, as count_alternative starts from, made the
    # runner-up of industrial.yaml slower, 0.46 → 0.68 s: HiGHS's completion of the cut's binaries costs more
    # than the start saves)
    best = _other_fleet(r, inp, result, mine, no_good_cut(mine), "no other fleet")
    if best["status"] not in SOLVED:
        return {**empty, "status": best["status"], "note": best["note"], "other_types": None}
    # the best fleet with another set of card types (and reservation offers): the same when the
    # runner-up already differs in types; with a large fleet the runner-up is often one card more or less
    if set(best["fleet"]) != set(plan_side):
        other_types = {key: best[key] for key in ("status", "fleet", "switched_off", "sold", "total", "increase",
                                                  "increase_pct", "differences")}
    else:
        other_types = _other_fleet(r, inp, result, mine, type_cut(mine), "no fleet with other card types")
        other_types.pop("note", None)
    return {**best, "plan_fleet": plan_side, "plan_switched_off": empty["plan_switched_off"], "other_types": other_types}


def _other_fleet(r: _Resolver, inp: Inputs, result: Plan, mine: dict[str, int], cut: ExtraConstraints,
                 nothing: str) -> dict:
    """The best plan under `cut`: status, fleet, switched_off, sold, total, increase, increase_pct, differences, note."""
    outcome = r.solve(inp, "runner_up", cut)
    r.not_below_plan(outcome, "the best plan with another fleet")
    if outcome.status not in SOLVED:
        why = (f"{nothing} meets the scenario" if outcome.status == "infeasible"
               else _no_answer(r, outcome.status, outcome.why))
        if outcome.status == "infeasible" and not fleet_counts(outcome.model):
            # every count's most is 0 (no demand a card or reservation could serve): the cut had nothing
            # to change, which is not "no fleet meets the scenario" — any other fleet only adds cost
            return {"status": "none", "fleet": None, "switched_off": None, "sold": None, "total": None, "increase": None,
                    "increase_pct": None, "differences": [],
                    "note": f"{nothing}: no card or reservation could do any of this work (no demand, or none it fits), "
                            "so any other fleet only adds cost"}
        return {"status": outcome.status, "fleet": None, "switched_off": None, "sold": None, "total": None,
                "increase": None, "increase_pct": None, "differences": [], "note": why}
    return {"status": outcome.status, **_fleet_answer(result, mine, plan_switched_off(result), solved_fleet(outcome.model),
                                                      outcome.total, *owned_cards_left(outcome.model),
                                                      bought=(bought_by_year(r.bought),
                                                              bought_by_year(purchases(outcome.model)))),
            "note": ""}


def solved_fleet(m: Model) -> dict[str, int]:
    """The fleet of solved model `m`: name (card id or offer id) → units, nonzero counts only."""
    counts = {name: int(round(pulp.value(expr) or 0)) for name, (expr, _) in fleet_counts(m).items()}
    return {name: units for name, units in counts.items() if units}


def alternative_counts(r: _Resolver, result: Plan) -> list[tuple[str, int, int]]:
    """(card, the plan's units, the other count) for each on-prem card type the plan holds (or owns): one
    more of it (if the model can hold that many: `most_held`), and one fewer (if the plan holds any); of a card
    sold only as whole boards, one board more or fewer (one GPU more of an 8-GPU board is the next board)."""
    out = []
    fleet = result.fleet
    for row in fleet[fleet["kind"] == "card"].itertuples(index=False):
        now = int(round(row.existing_units + row.new_units - row.sold_units))
        most = most_held(with_room(r.inp, {str(row.sku): now}), str(row.sku))
        step = r.inp.board_gpus.get(str(row.sku), 1)
        for units in (now + step, now - step):
            if units < 0 or (units > now and units > most):
                continue
            out.append((str(row.sku), now, units))
    return out


def with_room(inp: Inputs, fleet: dict[str, int]) -> Inputs:
    """`inp` in whose model each purchase month may buy one card more of each card type than `fleet` holds,
    and one more unit of each reservation offer it holds (Inputs.purchase_floor): the best fleet holding
    one more may buy a spare beyond the peak's need (a plan at the peak's need had no "one more" to try)."""
    kind = inp.col("kind")
    names = set(inp.col("sku")[kind == "card"].tolist()) | set(inp.col("unit_id")[kind == "reserved"].tolist())
    return replace(inp, purchase_floor={name: units + 1 for name, units in fleet.items() if name in names})


def most_held(inp: Inputs, card: str) -> int:
    """The most cards of `card` the model can hold, from its variables' bounds (engine.model
    define_card_counts): the owned ones, and per purchase month what the model lets it buy then
    (engine.model.purchase_bound, as its buy variables are bounded)."""
    found = np.flatnonzero((inp.col("sku") == card) & (inp.col("kind") == "card"))
    if not len(found):
        return 0
    i = int(found[0])
    v = inp.vintages
    mine = v["unit"].to_numpy() == i
    owned = v["owned"].to_numpy().astype(bool)
    return int(v["count"].to_numpy()[mine & owned].sum()) + int((mine & ~owned).sum()) * purchase_bound(inp, i)


def count_alternative(r: _Resolver, result: Plan, card: str, now: int, units: int) -> dict:
    """The best plan holding at least `units` of `card` (units > now, the plan's count) or at most `units`
    (units < now): card, units, alternative_units (that bound), held_units (what its fleet holds, which may
    pass the bound: the best plan holding at most 1 may hold none; None without a fleet), status, total,
    increase, increase_pct, fleet (name → units, nonzero; None without one), switched_off and sold (its owned cards
    held switched off, and sold: card → units, nonzero; None without a fleet), note (why it has no total, e.g.
    not computed; None with one) — the "one or two A100s?" question, answered with both totals even when it is
    no close call. Its fleet differs from the plan's, so the runner-up is never dearer than it
    (known_cheaper)."""
    def change(m: Model) -> None:
        held = m.card(card, missing_ok=True)
        if held is not None:
            m.prob += ((held >= units) if units > now else (held <= units), "count_alternative")

    inp = with_room(r.inp, {card: now}) if units > now else r.inp
    outcome = r.solve(inp, "runner_up", change, start=r.plan_with_one(card, more=units > now))
    r.not_below_plan(outcome, f"the best plan holding {count_bound(now, units)} {card}")
    solved = outcome.status in SOLVED
    increase = money_difference(outcome.total, result.total) if solved else math.nan
    fleet = solved_fleet(outcome.model) if solved else None
    off, sold = owned_cards_left(outcome.model) if solved else (None, None)
    return {"card": card, "units": now, "alternative_units": units,
            "held_units": None if fleet is None else fleet.get(card, 0), "status": outcome.status,
            "total": outcome.total if solved else None, "increase": increase if solved else None,
            "increase_pct": increase_pct(increase, result.total) if solved else None,
            "fleet": fleet, "switched_off": off, "sold": sold,
            "note": None if solved else _count_note(r, outcome, card, units, inp, change)}


def count_bound(now: int, units: int) -> str:
    """What a count alternative asks of the plan's `now` cards: "at least 3" (units above now) or "at most 1"."""
    return f"at least {units}" if units > now else f"at most {units}"


def _count_note(r: _Resolver, outcome: _Outcome, card: str, units: int, inp: Inputs | None = None,
                change: ExtraConstraints | None = None) -> str:
    """Why a count alternative has no total: the scenario's own rule that forbids `units` of `card` (a
    min_units, a max_units, owned cards it may not sell or whose resale value is unknown), the capex budget its new
    cards alone pass, the cap without which a plan holding that many exists (`inp` and `change`: the re-solve's
    inputs and its count; _cap_forbidding), else no plan meeting its demand and caps with that many; or why its
    re-solve gave no answer."""
    if outcome.status in ("infeasible", "unbounded"):
        return (_count_rule(r.scenario, card, units, r.inp.resale_unknown) or _over_capex_budget(r, card, units)
                or (_cap_forbidding(r, inp, change) if inp is not None else None)
                or "no plan meets the scenario's demand and caps with that many")
    return _no_answer(r, outcome.status, outcome.why)


def _cap_forbidding(r: _Resolver, inp: Inputs, change: ExtraConstraints | None) -> str | None:
    """The cap (power, capex budgets, cloud share) that forbids a count alternative: each set in turn lifted alone
    and the count re-solved without it, the first that lets a plan hold that many named with its limit —
    "no plan with that many meets onprem.power_cap_kw (1 kW): one does without it" (an audit read "no plan meets the
    scenario's demand and caps" where a 1 kW cap ran no more cards, while a budget was named). None where none
    alone does (the unit limits are _count_rule's), or a re-solve gave no answer."""
    caps = [c for c in CAPS if c.name != "unit_limits" and _cap_on(inp.caps.get(c.name))]
    cap, _ = _first_cap_lifted(r, inp, change, "runner_up", caps)   # not computed: which cap forbids it is not known
    if cap is None:
        return None
    limit = inp.caps[cap.name]
    shown = {"kW": f"{limit:g} kW", "currency": f"{limit:,.0f} {inp.currency}"}.get(cap.unit, f"{limit:g}")
    return f"no plan with that many meets {cap.field} ({shown}): one does without it"


def _over_capex_budget(r: _Resolver, card: str, units: int) -> str | None:
    """Where holding `units` of `card` needs more capex than onprem.capex_budget allows on its own (the cards
    beyond those owned, each at least at the card's cheapest purchase month's capex): the cap that forbids it, with
    its figures (an audit read "at least 9 …: no plan meets the scenario's demand and caps" where one more board
    broke the budget). None where the budget alone does not forbid it."""
    budget = r.scenario.onprem.capex_budget
    inp = r.inp
    if not budget:
        return None
    v = inp.vintages
    unit = np.flatnonzero((inp.col("sku") == card) & (inp.col("kind") == "card"))
    mine = np.isin(v["unit"].to_numpy(), unit) & ~v["owned"].to_numpy().astype(bool)
    if not mine.any():
        return None
    cheapest = float(np.min(inp.schedule.totals("buy", "capex")[mine]))
    new = max(units - r.scenario.onprem.owned_count(card), 0)
    if new * cheapest <= budget:
        return None
    cur = inp.currency
    return (f"{new:,} new at {cheapest:,.0f} {cur} or more each, {new * cheapest:,.0f} {cur} of capex, is above "
            f"onprem.capex_budget ({budget:,.0f} {cur})")


def _count_rule(scenario, card: str, units: int, resale_unknown: frozenset = frozenset()) -> str | None:
    """The scenario's rule that forbids holding `units` of `card` (the infeasible "at most 0" of startup-hybrid.yaml's
    one A100 required read as if no such fleet could exist), or None when none does. `resale_unknown`: the cards
    with no sourced price (Inputs.resale_unknown), whose owned units are never sold."""
    limits = scenario.constraints
    if units < limits.min_units.get(card, 0):
        return f"below constraints.min_units ({limits.min_units[card]})"
    if card in limits.max_units and units > limits.max_units[card]:
        return f"above constraints.max_units ({limits.max_units[card]})"
    owned = scenario.onprem.owned_count(card)
    if not scenario.onprem.sell_owned and units < owned:
        return f"below the {owned} owned, which onprem.sell_owned: false keeps"
    if card in resale_unknown and units < owned:
        return (f"below the {owned} owned, which cannot be sold: its resale value is unknown (give "
                f"onprem.card_overrides.{card}.price to weigh a sale)")
    return None


def counts_left_out(alternatives: list[dict]) -> str | None:
    """A line for the count alternatives without a total, which a table of those with one leaves out: how many,
    and per reason the rows it holds by card and count asked ("at most 0 a100-80gb-pcie: below
    constraints.min_units (1)"); None when every one has a total. (A row from before notes were kept says its
    status.)"""
    left = [a for a in alternatives if a.get("total") is None]
    if not left:
        return None
    why: dict[str, list[str]] = {}
    for a in left:
        why.setdefault(a.get("note") or a.get("status") or "no answer", []).append(
            f"{count_bound(a['units'], a['alternative_units'])} {a['card']}")
    reasons = "; ".join(f"{', '.join(rows)}: {reason}" for reason, rows in why.items())
    return f"one card more or fewer: {len(left):,} of {len(alternatives):,} not shown: {reasons}"


def known_cheaper(r: _Resolver, result: Plan, runner: dict, alternatives: list[dict]) -> dict:
    """`runner` (runner_up's answer), or, where its own solve stopped before proving its answer (UNPROVEN) with
    a dearer fleet or none, the cheapest fleet another re-solve of this add_decisions found: a count
    alternative (one card more or fewer) and the best plan with other card types hold fleets that differ
    from the plan's, so the best plan that does costs no more than either (under a time limit the runner-up
    was reported dearer than a count alternative, and the close call judged on that). The fleet taken is
    `feasible`: not proved the best other fleet; the note says which re-solve found it.
    `other_types` likewise takes a cheaper count alternative whose set of card types differs from the plan's.
    A proven answer (optimal, or no other fleet) is kept: nothing found can be cheaper."""
    mine, mine_off = runner.get("plan_fleet") or {}, runner.get("plan_switched_off") or {}
    known = []   # (the re-solve that found it, fleet, total, switched off, sold): fleets that differ from the plan's
    for a in alternatives:
        if a.get("fleet") is not None and a["total"] is not None and a["fleet"] != mine:
            more = "at least one more" if a["alternative_units"] > a["units"] else "at most one fewer"
            held = a["fleet"].get(a["card"], 0)   # what it holds: at most one fewer may hold none
            known.append((f"the best plan holding {more} {a['card']} ({a['units']} → {held})", a["fleet"], a["total"],
                          a.get("switched_off"), a.get("sold")))
    types = runner.get("other_types")
    if (types is None and runner["status"] in UNPROVEN) or (types is not None and types["status"] in UNPROVEN):
        # (a count alternative that takes a card type's last card, or a first one of a type, is another set)
        better = _cheaper([k for k in known if set(k[1]) != set(mine)], None if types is None else types["total"])
        if better is not None:
            types = {"status": "feasible", **_fleet_answer(result, mine, mine_off, *better[1:])}
    if types is not None and types.get("total") is not None:
        known.append(("the best plan with other card types", types["fleet"], types["total"], types.get("switched_off"),
                      types.get("sold")))
    better = _cheaper(known, runner["total"]) if runner["status"] in UNPROVEN else None
    if better is None:
        return {**runner, "other_types": types}
    found = "only a dearer fleet" if runner["total"] is not None else "none"
    return {**runner, "status": "feasible", **_fleet_answer(result, mine, mine_off, *better[1:]), "other_types": types,
            "note": f"found by {better[0]}; the runner-up's own re-solve found {found}: "
                    f"{runner.get('note') or _no_answer(r, runner['status'])}"}


def _cheaper(known: list[tuple], total: float | None) -> tuple | None:
    """The cheapest of `known` (label, fleet, total, switched off, sold) when it costs less than `total` (by more than
    MONEY_ROUNDING; anything, when `total` is None), else None."""
    best = min(known, key=lambda k: k[2], default=None)
    if best is None or (total is not None and money_difference(best[2], total) >= 0):
        return None
    return best


def _fleet_answer(result: Plan, mine: dict[str, int], mine_off: dict[str, int], fleet: dict[str, int], total: float,
                  off: dict[str, int] | None, sold: dict[str, int] | None,
                  bought: tuple[dict, dict] | None = None) -> dict:
    """Another fleet as the runner-up's keys: fleet, switched_off, sold (owned cards: `off`, `sold`), total, increase,
    increase_pct and differences from the plan's fleet `mine` (`mine_off` switched off, the cards owned and the plan's
    sales from its fleet; `bought`: the plan's and the other fleet's purchases by card and plan year, bought_by_year, where known;
    status: the caller's)."""
    increase = money_difference(total, result.total)
    owned, mine_sold = plan_owned_cards(result)
    return {"fleet": dict(fleet), "switched_off": dict(off or {}), "sold": dict(sold or {}), "total": total,
            "increase": increase, "increase_pct": increase_pct(increase, result.total),
            "differences": fleet_differences(mine, fleet, mine_off, off, mine_sold, sold, *(bought or (None, None)),
                                             owned=owned)}


def is_close_call(runner: dict | None, share: float, plan: Plan | None = None) -> bool:
    """True when the runner-up costs at most `share` (a fraction) more than the plan: its increase_pct at most
    100 × share; with a plan total of 0 (no percentage), when it costs no more than the plan (within
    MONEY_ROUNDING). A runner-up that costs less than `plan` where its own solve stopped unproven is no close
    call: the plan is not the best there is (`beats_the_plan`; cheaper_found warns)."""
    runner = runner or {}
    pct, increase = runner.get("increase_pct"), runner.get("increase")
    if plan is not None and beats_the_plan(runner, plan):
        return False
    if pct is not None:
        return pct <= 100.0 * share
    total = runner.get("total")
    # no percentage: a plan total of 0, where share × 0 = 0 leaves only a runner-up that costs no more
    return (increase is not None and total is not None and abs(total - increase) < MONEY_ROUNDING
            and increase < MONEY_ROUNDING)


def beats_the_plan(runner: dict | None, plan) -> bool:
    """Whether the runner-up costs less than `plan` (a Plan: status, total), where the plan's own solve stopped
    before it proved the least cost (status not optimal), by more than the solvers' round-off (as cheaper_found,
    whose warning then says so): the front ends say the plan is not the best, not "firm". Below a proven plan
    by round-off it is a tie (engine.decisions' re-solves allow that much: _Resolver.not_below_plan)."""
    increase = (runner or {}).get("increase")
    return (plan.status != "optimal" and increase is not None
            and -increase >= round_off(plan.total))


def runner_up_verdict(runner: dict | None, plan) -> tuple[str, str | None]:
    """(verdict, unproven) the front ends word the runner-up by (`plan`: status, total, close_call): verdict
    `none` (no runner-up), `not_best` (beats_the_plan), `close_call` or `firm`; unproven, what makes a close
    call or firm not proven: "plan" (the plan's own solve stopped before it proved the least cost), "runner_up"
    (the runner-up's solve stopped at the time limit: a cheaper runner-up may exist) or None."""
    runner = runner or {}
    if runner.get("total") is None:
        return "none", None
    if beats_the_plan(runner, plan):
        return "not_best", None
    verdict = "close_call" if plan.close_call else "firm"
    if plan.status != "optimal":
        return verdict, "plan"
    return verdict, "runner_up" if runner.get("status") == "feasible" else None


# how the warning of cheaper_found begins (add_decisions run again replaces it)
NOT_CHEAPEST = "not the cheapest plan: "


def cheaper_found(result: Plan) -> str | None:
    """A warning when the plan's own solve stopped before it proved the least cost (status not optimal: the time
    limit) and a re-solve with one more restriction — a decision forbidden, the runner-up, one card more or
    fewer — found a fleet that costs less: a restriction cannot make a proven optimum cheaper, so this plan is
    not the best there is (its decision values and runner-up then read as negative increases)."""
    if result.status == "optimal" or not math.isfinite(result.total):
        return None
    found = []   # (total, the re-solve that found it)
    if result.decisions is not None:
        for row in result.decisions.itertuples(index=False):
            if row.status in SOLVED:
                found.append((row.total_if_forbidden, f"the re-solve without the {row.decision} of "
                                                      f"{row.card_or_offer} in month {row.month}"))
    runner = result.runner_up or {}
    if runner.get("total") is not None:
        found.append((runner["total"], "the runner-up"))
    for a in runner.get("count_alternatives") or []:
        if a.get("total") is not None:
            found.append((a["total"], f"the best plan holding {count_bound(a['units'], a['alternative_units'])} {a['card']}"))
    if not found:
        return None
    total, what = min(found, key=lambda f: f[0])
    less = result.total - total
    if less < round_off(result.total):
        return None
    share = f" ({100 * less / result.total:.1f} %)" if result.total > 0 else ""
    return (f"{NOT_CHEAPEST}its solve stopped before it proved the least cost (status {result.status}), and {what} "
            f"found a fleet costing {total:,.0f} {result.currency}, {less:,.0f} {result.currency}{share} less; "
            f"{CHEAPER_REMEDY}")


# ---------------------------------------------------------------------------------------------------
# Flip points


def main_workload(r: _Resolver, card: str, busy: pd.DataFrame) -> str | None:
    """The workload the card works most hours on in the plan: the only one it can serve, else the one of
    the plan's dispatch (`busy`: Plan.busy_by_workload) it works most for; ties, and a card that worked no
    hours, go to the first such workload of the scenario."""
    inp = r.inp
    i = int(np.flatnonzero(inp.col("sku") == card)[0])
    names = inp.workload_names
    demanded = inp.demand.sum(axis=0) > 0
    serves = [j for j in range(len(names)) if inp.work[i, j] > 0 and demanded[j]]
    if len(serves) <= 1:
        return names[serves[0]] if serves else None
    mine = busy[busy["card"] == card] if len(busy) else busy
    hours = dict(zip(mine["workload"], mine["busy_hours"])) if len(mine) else {}
    return names[max(serves, key=lambda j: (hours.get(names[j], 0.0), -j))]


@dataclass
class _FlipSearch:
    """The search on one workload's demand for the level below which the plan holds fewer of a card."""

    r: _Resolver
    card: str
    units: int
    path: str                   # dotted override path of the demand field
    relax: dict                 # overrides that stay on (min_units of the card relaxed)
    solves: int = 0
    budget: int = MAX_FLIP_SOLVES   # solves allowed; _below_today adds one per step down beyond the second
    stopped: str | None = None  # why the last holds() gave no answer though the solver ran: _no_answer
    no_fleet: bool = False      # the last holds() gave no answer because that demand has no fleet (or is invalid)
    fewer: dict = field(default_factory=dict)   # demand -> cards held there, where fewer than `units`
    fleets: dict = field(default_factory=dict)  # demand -> purchases by (card, month) of its optimum
    totals: dict = field(default_factory=dict)  # demand -> the optimum's total (proven optima only)
    tried: dict = field(default_factory=dict)   # demand -> True where the units were held, False where fewer or no fleet

    def start(self, demand: float) -> dict | None:
        """The purchases solved at the nearest demand above `demand` (enough cards there; the cloud fills
        the rest), else at the nearest below: a start for HiGHS close to the optimum at `demand`."""
        above = [d for d in self.fleets if d >= demand]
        nearest = min(above) if above else max(self.fleets, default=None)
        return None if nearest is None else self.fleets[nearest]

    def ask(self, demand: float) -> bool | None:
        """holds(demand), its answer kept in `tried` (an answer, or no fleet there): the demands solved, whose
        steps the note names (_widest_step)."""
        found = self.holds(demand)
        if found is not None or self.no_fleet:
            self.tried[demand] = bool(found)
        return found

    def holds(self, demand: float) -> bool | None:
        """True when the optimal plan at `demand` holds at least the plan's units of the card; None when
        the solves are spent, when the demand has no fleet or is no valid scenario (then `no_fleet`), or
        when the solver stopped without an answer (then `stopped` says why: a time-out tells nothing of the
        card)."""
        self.stopped, self.no_fleet = None, False
        if self.solves >= self.budget:
            return None
        try:
            inp = self.r.inputs_with({**self.relax, self.path: demand})
        except ScenarioError:
            self.no_fleet = True
            return None
        outcome = self.r.solve(inp, "flip_points", start=self.start(demand))
        if not outcome.why:   # the solver ran (one the time limit in all left undone or cut short is no solve)
            self.solves += 1
        # only a proven optimum tells how many cards the best plan holds: a fleet found before the time limit
        # (status feasible) is often the start itself, from a demand where the card is held
        if outcome.status != "optimal":
            if outcome.status in ("infeasible", "unbounded"):
                self.no_fleet = True
            else:
                self.stopped = _no_answer(self.r, outcome.status, outcome.why)
            return None
        self.fleets[demand] = purchases(outcome.model)
        self.totals[demand] = outcome.total
        held = outcome.model.card(self.card, missing_ok=True)
        count = int(round(pulp.value(held) or 0)) if held is not None else 0
        if count < self.units:
            self.fewer[demand] = count
        return count >= self.units


def flip_point(r: _Resolver, card: str, units: int, workload: str) -> dict:
    """The flip point of `card` (held `units` in the plan) on `workload`'s demand (FLIP_COLUMNS). A card its
    min_units forces is searched with the minimum relaxed. One the plan holds more of than its minimum is searched
    first as the scenario is: relaxed, a plan holding 5 against a minimum of 1 was searched as if today's demand did
    not buy them, above today (1,607 where 700 holds 5 and 505 holds 4; an audit, 2026-12-07). Only where the
    minimum still holds all of them at zero demand (replacements of a card of short life) is it relaxed then."""
    least = int(dict(zip(r.inp.col("sku"), r.inp.col("min_units"))).get(card, 0))
    spent = 0
    if least > 0 and units > least:
        row = _flip_search(r, card, units, workload, least, relax_minimum=False)
        if not row.get(HELD_AT_ZERO):
            return row
        spent = row["solves"]
    row = _flip_search(r, card, units, workload, least, relax_minimum=least > 0)
    return {**row, "solves": row["solves"] + spent}


HELD_AT_ZERO = "held_at_zero"   # _flip_search's row (only "solves" beside it) of a card held at zero demand, minimum kept


def _flip_search(r: _Resolver, card: str, units: int, workload: str, least: int, relax_minimum: bool) -> dict:
    """flip_point's row, searched with `card`'s min_units (`least`) relaxed or kept; kept, {HELD_AT_ZERO: True,
    "solves": …} where the card is still held `units` times at zero demand."""
    w = next(w for w in r.scenario.workloads if w.name == workload)
    name, today = w.demand_field, w.demand_amount   # the field the scenario states its demand in
    relax = {f"constraints.min_units.{card}": 0} if relax_minimum else {}
    notes = [f"min_units {least} relaxed for this search"] if relax else []
    if relax and _bought_by_min_units_alone(r, card):
        # the minimum is what lets the plan buy it (cap_cost's `permits`): relaxed alone, no demand could buy it
        _, _, let_buy = _not_bought(r.scenario, card)
        relax.update(let_buy)
        allowed = (f"custom_cards.{card}.buyable set to true" if card in r.scenario.onprem.custom_cards
                   else f"{card} listed in onprem.cards")
        notes = [f"min_units {least} relaxed and {allowed} for this search (the minimum was what let the plan buy it)"]
    search = _FlipSearch(r, card, units, f"workloads.{workload}.{name}", relax)
    search.fleets[today] = r.plan_purchases()
    if not relax and math.isfinite(r.total):
        search.totals[today] = r.total   # the plan itself: the optimum at today's demand, holding `units`
    row = {"demand_today": today, "flip_demand": math.nan, "unit": DEMAND_FIELDS[name], "precision_pct": math.nan}
    unit = DEMAND_FIELDS[name]

    def ended(note: str) -> dict:
        """No flip point: `note` says why."""
        return {**row, "solves": search.solves, "note": "; ".join(notes + [note])}

    def no_answer(demand: float) -> dict:
        """No flip point: the solver stopped without an answer at `demand`, an end of the search's interval
        (or the re-solves' time limit in all left the search undone there)."""
        if search.stopped.startswith(NOT_COMPUTED):
            return ended(f"no flip point: {search.stopped}")
        return ended(f"no flip point: {search.stopped} at {demand:,.6g} {unit}")

    if today <= 0:
        return ended("the workload has no demand today")
    at_today = search.ask(today) if relax else True
    if at_today is None:
        return no_answer(today) if search.stopped else ended("no fleet at today's demand")
    if at_today:
        low, high = _below_today(search, today)
        if low is None and not search.stopped and least > 0 and not relax_minimum:
            return {HELD_AT_ZERO: True, "solves": search.solves}   # by the minimum, or for other workloads
        if low is None:
            return no_answer(0.0) if search.stopped else ended(
                f"still holds {units} at zero demand of {workload} (it serves other workloads)")
    else:
        # without min_units, today's demand buys fewer: look above today for the level that pays for it
        low, high, beyond = today, None, ""
        while high is None and search.solves < MAX_SOLVES_ABOVE_TODAY:
            found = search.ask(low * 2)
            if found is None:
                if search.stopped:
                    return no_answer(low * 2)
                # (a cap such as max_cloud_share or the power cap leaves no fleet there: the doubling ends early)
                beyond = f" (no fleet at {low * 2:,.6g})"
                break
            low, high = (low, low * 2) if found else (low * 2, None)
        if high is None:
            return ended(f"not held even at {low:,.6g} {unit} without min_units{beyond}")
    # [low, high] is known now (fewer held at low, or no fleet there; the plan's units at high): a step the
    # solver could not answer ends the search there, as the solve limit does, and precision_pct says how
    # far it got; a demand without a fleet counts with the ones below the flip (see below)
    bisect, slow = False, 0   # slow: probes in a row that left more than half the interval
    while (high - low) / 2 > FLIP_PRECISION * (high + low) / 2:
        width = high - low
        middle, crossing = _next_demand(search, low, high, bisect)
        found = search.ask(middle)
        if found is None and not search.no_fleet:
            if search.stopped:
                notes.append(f"search ended at {middle:,.6g} {unit}: {search.stopped}")
            break
        low, high = (low, middle) if found else (middle, high)   # no fleet counts below the flip
        # where the lines mislead, a halving follows: after a probe that lands on the other side of the
        # crossing than they said and leaves more than half the interval, and after two probes in a row
        # that leave more than half (lines bent the same way creep along one side, as false position does)
        slow = slow + 1 if crossing is not None and high - low > width / 2 else 0
        missed = crossing is not None and bool(found) != (middle > crossing)
        bisect = slow >= 2 or (slow == 1 and missed)
        if bisect:
            slow = 0
    if low not in search.fewer:
        # the step at `low` is to no fleet at all, not to fewer cards: no level below which the plan holds
        # fewer (a zero demand without a fleet once read as "not bought below it")
        said = f"no flip point: no fleet at {low:,.6g} {unit}, {units} held at {high:,.6g} {unit}"
        return ended(said + ("; fewer held at no demand tried" if not search.fewer else ""))
    flip = (low + high) / 2
    # what the plan holds at the highest demand seen below the flip: the size of the step (24 → 0 is not 24 → 23).
    # "Just below": the count can rise again further down (a cheaper card may take over, then lose to this one
    # again), and the search does not solve every lower demand, so "at most N held below it" could be false
    below = f"{search.fewer[low]} held at {low:,.6g} {unit}" if units > 1 else None
    notes.append(("fewer held just below it" if units > 1 else "not bought just below it")
                 + (f" ({below})" if below else ""))
    step = _widest_step(search, today, low, high)
    if step is not None:
        # no search of a few solves rules such a band out (_widest_step says why): the note says where it can hide
        if high <= today:
            other = "fewer may be held" if units > 1 else "it may not be bought"
        else:
            other = f"{units} may be held" if units > 1 else "it may be bought"
        side = "above" if high <= today else "below"
        notes.append(f"bands narrower than the steps are not searched: {other} between two demands solved {side} the "
                     f"flip; the widest step was {step[0]:,.6g} to {step[1]:,.6g} {unit} "
                     f"({100 * (step[1] - step[0]) / today:.3g} % of today's)")
    return {**row, "flip_demand": flip, "flip_share_of_today": flip / today, "precision_pct": 100.0 * (high - low) / 2 / flip,
            "solves": search.solves, "note": "; ".join(notes)}


def _bought_by_min_units_alone(r: _Resolver, card: str) -> bool:
    """Whether `card` is one plans may not buy (a catalog card not in onprem.cards, a custom card whose buyable is
    false), which only its min_units lets the plan buy."""
    buyable = dict(zip(r.inp.col("sku"), r.inp.col("buyable")))
    return not bool(buyable.get(card, True))


def _not_bought(scenario, card: str) -> tuple[str, str, dict]:
    """(why plans of `scenario` may not buy `card`, what lets them, the dotted override that does)."""
    if card in scenario.onprem.custom_cards:
        path = f"onprem.custom_cards.{card}.buyable"
        return f"custom_cards.{card}.buyable is false", f"set {path} to true", {path: True}
    return f"{card} is not in onprem.cards", "list it in onprem.cards", {"onprem.cards": [*scenario.onprem.cards, card]}


def _below_today(search: _FlipSearch, today: float) -> tuple[float | None, float]:
    """(low, high) below today's demand, where the plan holds its units: `high` a demand that holds them,
    `low` one that holds fewer or has no fleet; low None when the card is still held at zero demand or the
    solver stopped there (`search.stopped`).

    A card held `units` times for one workload is mostly sized to its demand, so the flip is usually within a
    few cards' share of today: the search steps down from today by one card's share (today / units), then by
    twice and four times that and so on, doubling, and tries zero demand only when the steps reach it. The
    first step is at most FIRST_STEP_SHARE of today, and each step at most doubles the last: the flip found is
    then the one nearest today unless a band of demands holding fewer lies wholly between two steps. At most
    MAX_STEPS_DOWN steps; each beyond the second adds a solve to the search's budget, so the narrowing after
    them has the solves it had (a card held 88 times missed ±0.1 % on 19 of 400 made-up curves without). Before
    (2026-12-05) a card held once stepped to zero at once, and two steps of one and three shares left wide gaps:
    where a cheaper card took the card's place just below today and lost it further down, the narrowing found a
    flip far below today (a review's card reported held down to 16 % of today's demand, and not held at 87 %)."""
    share, high = min(1 / search.units, FIRST_STEP_SHARE), today
    for step in range(1, MAX_STEPS_DOWN + 1):
        if share >= 1:
            break
        if step > 2:   # the narrowing keeps the solves it had after the two steps of before (14 in all)
            search.budget += 1
        demand = today * (1 - share)
        found = search.ask(demand)
        if found is None and not search.no_fleet:
            break   # the solver stopped (or the solves are spent): narrow from zero instead
        if not found:
            return demand, high
        high, share = demand, 2 * share
    at_zero = search.ask(0.0)
    if at_zero is None and search.stopped:
        return None, high
    return (None, high) if at_zero else (0.0, high)


def _widest_step(search: _FlipSearch, today: float, low: float, high: float) -> tuple[float, float] | None:
    """(lower, upper) of the widest interval between two demands solved next to each other from today's demand to
    the flip's bracket [low, high] (below today: all holding the card, above it: all holding fewer), None where
    the bracket starts at today. A band of the other answer that lies wholly inside one is not seen: the search
    solves only the demands it needs. Ruling one out would take more than a few solves. Each fleet's cost is
    convex in the demand but the best of them is neither convex nor concave, so a total on the line between two
    steps proves nothing; where the cost only grows with the demand, the best plan holding fewer at the lower
    step costing at least the best at the upper rules a band out, but near the flip that needs steps shrinking to
    nothing (docs/decisions.md, "Flip points")."""
    if high <= today:
        points = {d for d, held in search.tried.items() if held and high <= d <= today} | {high, today}
    else:
        points = {d for d, held in search.tried.items() if not held and today <= d <= low} | {today, low}
    steps = list(zip(sorted(points), sorted(points)[1:]))
    return max(steps, key=lambda step: step[1] - step[0], default=None)


def _next_demand(search: _FlipSearch, low: float, high: float, bisect: bool) -> tuple[float, float | None]:
    """(the demand to solve next inside (low, high), the crossing it probes or None): a probe beside where the
    totals' lines cross (_crossing), so placed that it and one on the crossing's other side leave an
    interval within FLIP_PRECISION; the middle when `bisect`, when the lines do not cross inside, or when no
    probe fits."""
    middle = (low + high) / 2
    crossing = None if bisect else _crossing(search, low, high)
    if crossing is None:
        return middle, None
    near = PROBE_SHARE * FLIP_PRECISION * crossing
    # (1.5 × near: a crossing recomputed after the probe below moves by rounding, and must not ask for a probe
    # a hair above that one)
    if crossing - low <= 1.5 * near:        # the interval's lower end is close already: probe above
        probe = low + 2 * near
    elif high - crossing <= 1.5 * near:     # its upper end is
        probe = high - 2 * near
    else:
        probe = crossing - near
    return (probe, crossing) if low < probe < high else (middle, None)


def _crossing(search: _FlipSearch, low: float, high: float) -> float | None:
    """Where the best plan holding the card and the best holding fewer cost alike, if the totals solved so
    far say: a plain solve at a demand that holds the card gives the first's total there, one that holds
    fewer the second's. Each is a piecewise-linear function of the demand (a cloud bill proportional to
    it, card costs fixed by their count), so the line through the two solved demands of each side nearest
    the interval, crossed with the other's, finds the flip in one step when both lie on straight pieces —
    the worked example's card stops paying at 2,650.60 / (24 × 1.1675) GPU-hours a month, where two such
    lines cross. None until each side has two totals, or when the lines cross outside (low, high)."""
    t = search.totals
    held = _apart(sorted(d for d in t if d >= high and d not in search.fewer))     # lowest first
    fewer = _apart(sorted((d for d in t if d <= low and d in search.fewer), reverse=True))   # highest first
    if held is None or fewer is None:
        return None
    slope_held = (t[held[1]] - t[held[0]]) / (held[1] - held[0])
    slope_fewer = (t[fewer[1]] - t[fewer[0]]) / (fewer[1] - fewer[0])
    if slope_fewer <= slope_held:       # fewer cards cost no more per hour of demand: no crossing above
        return None
    crossing = (t[held[0]] - slope_held * held[0] - t[fewer[0]] + slope_fewer * fewer[0]) / (slope_fewer - slope_held)
    return crossing if low < crossing < high else None


def _apart(demands: list[float]) -> list[float] | None:
    """The first of `demands` and the next one at least FLIP_PRECISION of it away (a slope between two
    demands a rounding apart is noise), else None."""
    for d in demands[1:]:
        if abs(d - demands[0]) > FLIP_PRECISION * abs(demands[0]):
            return [demands[0], d]
    return None


def bought_cards(result: Plan) -> list[str]:
    """The cards the plan buys, in the order of its schedule."""
    schedule = result.schedule
    return [] if not len(schedule) else list(dict.fromkeys(schedule.loc[schedule["action"] == "buy", "card"]))


def flip_row(r: _Resolver, card: str, gpu: str, units: int, workload: str | None) -> dict:
    """The flip point of a card bought in the plan, which holds `units` of it (a FLIP_COLUMNS row), on the
    `workload` it mainly serves (main_workload): the demand of that workload just below which the optimal plan
    holds fewer of the card than the plan does."""
    base = {"card": card, "gpu": gpu, "units": units, "workload": workload or ""}
    if workload is None:
        return {**base, "solves": 0, "note": "it serves no workload with demand"}
    return {**base, **flip_point(r, card, units, workload)}


# ---------------------------------------------------------------------------------------------------
# Entry point


# how the warning of not_computed_warning begins (add_decisions run again replaces it)
LEFT_UNDONE = "what each decision is worth: "
# how it ends for a library caller: how to allow more time (the CLI and the dashboard say it in their own words)
LIBRARY_MORE_TIME = "a larger `total_time_limit` of add_decisions allows more time"


def add_decisions(result: Plan, solver: str | None = None, time_limit: float | None = None,
                  store: str | Path | None = None, extra_constraints: ExtraConstraints | None = None,
                  close_call_share: float | None = None, threads: int | None = None,
                  progress: Callable[[int, int], None] | None = None, total_time_limit: float | None = None,
                  more_time: str = LIBRARY_MORE_TIME, **kwargs: Any) -> Plan:
    """Set `result.decisions` (what each purchase, reservation and sale is worth: the total when it is
    forbidden), `result.runner_up` (the best plan with a different fleet), `result.close_call`,
    `result.flip_points` and `result.cap_costs` (what each limit costs: the total without it), and the notes
    of `result.baselines` that cost less than the plan (baseline_notes); returns `result`, changed in place.
    Call it after showing the plan.

    `solver` defaults to the plan's; `time_limit` applies to each re-solve; `store` is the price store the
    plan used, needed only for a Plan not made by `plan()` in this process (one made here is re-solved at
    the prices it was made with, though a refresh changed the store since); `extra_constraints` the ones
    the plan was made with (applied to every re-solve; by default those `plan()` was given, for a Plan it
    made in this process). A re-solve with one more restriction that costs less than the plan raises
    PlannerError: the plan had constraints or prices the re-solves lack;
    `close_call_share` defaults to the scenario's (2 %); `threads` re-solves run side by side (a whole number
    from 1, else PlannerError; default: the usable cores, at most MAX_THREADS; one, in this thread, when
    `extra_constraints` is given, since the threads would call it at once — pass `threads` if it is safe to).
    The solves and seconds of each part are in `result.solver["decisions"]`: a part's seconds are summed over
    the threads, `total_seconds` is the wait. When a re-solve fails, the others stop at their next solve and its error is raised.
    `progress(done, total)` is called as each task (a decision, the runner-up, a one-more/one-fewer count, a
    card's flip point, a limit's cap cost) ends, from the thread that ran it. `total_time_limit`: seconds for
    all the re-solves together (the number of re-solves grows with the cards, 282 for 25 custom cards, and each
    takes about as long as the plan's own solve; `default_total_time_limit` is the CLI's): past it the running
    ones stop and those left are not computed — each row, flip point, cap cost or runner-up without an answer
    says so in its note (NOT_COMPUTED), as one stopped by `time_limit` says that; those done keep theirs, and
    `result.solver["decisions"]["not_computed"]` counts the answers (a decision's, the runner-up's, a count
    alternative's, a flip point's, a cap cost's) that miss one or more re-solves, and a warning says how many;
    `more_time` ends it, telling how to allow the re-solves more time where the caller sets it (the CLI names its
    options, the dashboard the command line). A keyword argument it does not take is an UnknownKeyword (a
    PlannerError and a TypeError) with "did you mean" (`time_limt=3`: time_limit=…)."""
    check_keywords("add_decisions", add_decisions, kwargs)
    _check_share(close_call_share)
    if not isinstance(result, Plan):
        raise PlannerError(f"add_decisions: expected a Plan from planner.plan(), got {type(result).__name__}")
    check_limits(time_limit)
    if total_time_limit is not None and (isinstance(total_time_limit, bool) or not isinstance(total_time_limit, numbers.Real)
                                         or not math.isfinite(total_time_limit) or total_time_limit <= 0):
        raise PlannerError(f"total_time_limit: expected seconds above 0 (or None: no limit), got {total_time_limit!r}")
    _check_threads(threads)
    start = time.perf_counter()
    if extra_constraints is None:
        extra_constraints = extra_constraints_of(result)
    r = _resolver(result, solver, time_limit, store, extra_constraints)
    r.total_time_limit, r.began = total_time_limit, time.monotonic()
    r.counted("prepare", seconds=time.perf_counter() - start)
    if threads is None:
        threads = 1 if extra_constraints is not None else default_threads(r.inp)
    cards, decided, cases = bought_cards(result), plan_decisions(result), alternative_counts(r, result)
    limits = cap_entries(r.base)
    with _pool(threads, r.cancelled) as pool:
        tasks = _Tasks(r, pool, len(cards) + 1 + len(decided) + len(cases) + len(limits), progress)
        # the chains of dependent solves first (each card's flip search, the runner-up and its other
        # types), then the single solves fill the threads as they free up
        held, gpu_of = plan_fleet(result), dict(zip(result.fleet["sku"], result.fleet["gpu"]))
        # (a Plan pickled before Plan.busy_by_workload has none: ties go to the first workload the card serves)
        busy = getattr(result, "busy_by_workload", pd.DataFrame())
        # (the runner-up first: under total_time_limit, the close call is the answer most wanted)
        runner = tasks.submit("runner_up", runner_up, r, result)
        flips = [tasks.submit("flip_points", flip_row, r, card, gpu_of.get(card, ""), held.get(card, 0),
                              main_workload(r, card, busy)) for card in cards]
        values = [tasks.submit("decision_values", decision_value, r, result, d) for d in decided]
        counts = [tasks.submit("count_alternatives", count_alternative, r, result, *case) for case in cases]
        caps = [tasks.submit("cap_costs", cap_cost, r, result, entry) for entry in limits]
        tasks.wait()
        # each value made here for the plan alone: set as it is (result._set_fresh), not copied
        _set_fresh(result, decisions=pd.DataFrame([f.result() for f in values], columns=DECISION_COLUMNS))
        alternatives = [f.result() for f in counts]
        share = close_call_share if close_call_share is not None else getattr(
            result.scenario, "close_call_share", DEFAULT_CLOSE_CALL_SHARE)
        # set whole: the plan gives out copies of its dicts (engine.result.CONTAINERS)
        _set_fresh(result, runner_up={**known_cheaper(r, result, runner.result(), alternatives),
                                      "close_call_share": share, "count_alternatives": alternatives},
                   flip_points=pd.DataFrame([f.result() for f in flips], columns=FLIP_COLUMNS),
                   cap_costs=pd.DataFrame([f.result() for f in caps], columns=CAP_COST_COLUMNS))
    result.close_call = is_close_call(result.runner_up, share, result)
    owned = owned_ties(result.owned, result.decisions)
    if owned is not None:
        _set_fresh(result, owned=owned)
    _set_fresh(result, baselines=baseline_notes(result, extra_constraints is not None))
    cheaper = cheaper_found(result)
    left = not_computed_warning(r.skipped, tasks.total, total_time_limit, more_time)
    _set_fresh(result, warnings=[w for w in result.warnings if not w.startswith((NOT_CHEAPEST, LEFT_UNDONE))]
               + [w for w in (cheaper, left) if w])
    parts = ("decision_values", "runner_up", "flip_points", "cap_costs")
    seconds = ("prepare", "decision_values", "runner_up", "count_alternatives", "flip_points", "cap_costs")
    _set_fresh(result, solver={**result.solver,
                               "decisions": {"solves": {p: r.solves[p] for p in parts},
                                             "seconds": {p: round(r.seconds[p], 4) for p in seconds},
                                             "threads": threads, "total_seconds": round(time.perf_counter() - start, 4),
                                             "total_time_limit": total_time_limit, "not_computed": r.skipped}})
    return result


# a sale's decision value at or below this (in the plan's currency): keeping the cards costs the same, to the cent
TIE = 0.005
SOLD_AT_A_TIE = "selling and keeping cost the same (the sale's decision value is 0)"


def owned_ties(owned: pd.DataFrame | None, decisions: pd.DataFrame | None) -> pd.DataFrame | None:
    """The owned table with "cheaper to sell" said as a tie where the sale's decision value is 0 (forbidding it costs
    nothing: the plan could keep them at the same total, and which it picked is the solver's choice), else None
    (nothing to change). An audit's four owned A100s sold in month 1 and four bought, 33,600 USD either way, read
    "cheaper to sell" beside a sale worth 0."""
    if owned is None or decisions is None or owned.empty or decisions.empty:
        return None
    sales = decisions[(decisions["decision"] == "sell") & (decisions["status"] == "optimal")]
    tied = {str(card) for card, increase in zip(sales["card_or_offer"], sales["increase"]) if abs(increase) <= TIE}
    # only the note of a batch all sold ("cheaper to sell", perhaps with more after "; "): one also switched off or
    # split says more than the sale's decision value answers
    notes = [SOLD_AT_A_TIE + note[len(CHEAPER_TO_SELL):] if card in tied and (note == CHEAPER_TO_SELL or
                                                                                note.startswith(CHEAPER_TO_SELL + ";"))
             else note for card, note in zip(owned["card"], owned["note"])]
    return None if notes == owned["note"].tolist() else owned.assign(note=notes)


def _check_threads(threads: Any) -> None:
    """PlannerError for a `threads` of add_decisions that is not a whole number from 1 (None: the default):
    `threads=0` (or -2, 2.5, "2") was taken without a word, as one thread (or two)."""
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1):
        raise PlannerError(f"add_decisions: threads: expected a whole number from 1 (or None: one per usable core, at "
                           f"most {MAX_THREADS}), got {shortened(repr(threads))}")


def not_computed_warning(skipped: int, total: int, total_time_limit: float | None, more_time: str) -> str | None:
    """A warning when `skipped` of the `total` answers of add_decisions miss a re-solve its `total_time_limit`
    left undone, else None; `more_time`: how the reader allows more time, in the caller's words."""
    if not skipped:
        return None
    return (f"{LEFT_UNDONE}{skipped:,} of {total:,} answers are not computed, or not to the end: the re-solves "
            f"stopped at their time limit of {total_time_limit:g} s in all; the notes of those decision values, "
            f"runner-up, count alternatives, flip points and cap costs say so ({more_time})")


def default_threads(inp: Inputs) -> int:
    """Re-solves run side by side by default: one per usable core, at most MAX_THREADS, and at most as many
    as hold PURCHASES_IN_FLIGHT purchase variables of `inp` together (one at least)."""
    per_solve = max(1, purchase_variables(inp).total)
    return max(1, min(usable_cores(), MAX_THREADS, PURCHASES_IN_FLIGHT // per_solve))


def default_total_time_limit(result: Plan) -> float:
    """Seconds for all the re-solves of `result` together, by default (the CLI's): resolves_time_limit of the
    plan's own solve."""
    return resolves_time_limit(result.solver.get("seconds"))


def resolves_time_limit(plan_seconds: object) -> float:
    """Seconds for a plan's re-solves together, by default: DEFAULT_TIME_PER_PLAN_SOLVE times its own solve of
    `plan_seconds` (0 where that is no finite number), and at least DEFAULT_TOTAL_TIME_LIMIT_S. Also the default
    of an infeasible plan's re-solves that name the limits holding its on-prem capacity (engine.explain)."""
    finite = isinstance(plan_seconds, numbers.Real) and math.isfinite(plan_seconds)
    plan_solve = float(plan_seconds) if finite else 0.0
    return max(DEFAULT_TOTAL_TIME_LIMIT_S, DEFAULT_TIME_PER_PLAN_SOLVE * plan_solve)


def _check_share(share: object) -> None:
    """ScenarioError unless `share` is None or a number in [0, 1), as the scenario's `close_call_share`:
    checked before any re-solve, so that 5 meant as 5 % is refused instead of flagging every plan."""
    if share is None:
        return
    if isinstance(share, bool) or not isinstance(share, numbers.Real) or not 0 <= share < 1:
        raise ScenarioError([f"close_call_share: expected a share from 0 to below 1 (0.02 = 2 %), got {share!r}"],
                            origin="add_decisions")


class _Tasks:
    """The re-solve tasks of one add_decisions on `pool`: each timed into its part of `r.seconds`; a task that
    fails sets `r.cancelled`, so the others stop at their next solve; `progress(done, total)` as each ends
    (from the thread that ran it)."""

    def __init__(self, r: _Resolver, pool, total: int, progress: Callable[[int, int], None] | None):
        self.r, self.pool, self.total, self.progress = r, pool, total, progress
        self.futures: list[Future] = []
        self._done, self._lock = 0, threading.Lock()
        if progress is not None:
            progress(0, total)

    def submit(self, part: str, fn: Callable, *args) -> Future:
        def timed():
            begin = time.perf_counter()
            self.r._own.short = False
            try:
                return fn(*args)
            except Exception:
                self.r.cancelled.set()
                raise
            finally:
                self.r.counted(part, seconds=time.perf_counter() - begin)
                if self.r._own.short:
                    with self.r._lock:
                        self.r.skipped += 1

        future = self.pool.submit(timed)
        self.futures.append(future)
        future.add_done_callback(self._tick)
        return future

    def _tick(self, _: Future) -> None:
        with self._lock:
            self._done += 1
            done = self._done
        if self.progress is not None:
            self.progress(done, self.total)

    def wait(self) -> None:
        """Wait for every task; when one failed, raise the error of the first task, in submission order,
        that failed of its own accord (not stopped by another's failure)."""
        finished, _ = wait(self.futures, return_when=FIRST_EXCEPTION)
        if not any(f.exception() is not None for f in finished):
            return
        self.r.cancelled.set()
        wait(self.futures)
        errors = [f.exception() for f in self.futures]
        raise next(e for e in errors if e is not None and not isinstance(e, _Cancelled))


class _InThisThread:
    """A pool of one: `submit` runs the task at once; an error is kept in its Future, as a thread's would be
    (`_Tasks.wait` raises it)."""

    def submit(self, fn: Callable) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn())
        except Exception as exc:   # noqa: BLE001 - raised by _Tasks.wait
            future.set_exception(exc)
        return future


@contextmanager
def _pool(threads: int, cancelled: threading.Event):
    """`threads` threads for the re-solves. On an error or Ctrl-C in the caller, `cancelled` is set, so the
    running tasks stop at their next solve, and the tasks not yet started are dropped."""
    if threads <= 1:
        yield _InThisThread()
        return
    pool = ThreadPoolExecutor(threads, thread_name_prefix="fleetplan-decisions")
    try:
        yield pool
    except BaseException:
        cancelled.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
