"""The fleet MILP, built the PyPSA way: small `define_*` functions that each add one family of
variables or constraints; `build_model` calls them in order, so reading it tells what the model is.

Variables: integer cards bought in each purchase vintage (b), integer owned cards kept working (k) and
switched off (o) — the rest of them are sold in month 1 —, integer reserved instances r (committed from
month 1), continuous dispatch y[u,w,p] — how many units of u work on workload w in each hour of period
p — and, only with a fixed monthly site cost, a binary per fleet epoch that is 1 when any card is in service in
it, bought or owned and kept working (the cost is owed in those months; owned cards switched off are held but
not in service and owe none), and a binary z that is 1 when any card is in service at all (engine.solve splits
on it).
Cards in service in a fleet epoch: N[c,e] = Σ b + Σ k over the vintages serving in e — an integer
variable of its own, tied to them by one equality row, wherever two or more vintages serve in e.
The objective is the cost schedule discounted, times these variables (engine.schedule).

Serving workloads and placement (workloads[].serving, workloads[].placement), added only when some
workload asks for them — a scenario without either builds the model above unchanged:
- single_type placement: a binary x[w,g] per GPU type g that can serve w, Σ_g x[w,g] = 1, and
  y[u,w,p] ≤ (demand[p,w] / work[u,w]) × x[w,gpu(u)] — no more than the demand alone needs, so the bound
  never cuts an optimum — for cards, reservations and cloud offers alike;
- serving: whole instances. On-demand and spot offers that serve a serving workload get an integer
  q[u,p] per period (hour-of-week slot class × months): Σ_serving y[u,w,p] ≤ q[u,p]; the instance-hours
  are paid on q (hourly × slot hours × months, discounted, in cloud_on_demand / cloud_spot) and the
  dispatch y on such a unit carries no busy cost. Cards and reservations are integer counts held all
  month already: serving work on them is at most the count (× availability for cards).
- serving groups (workloads[].serving_group; default: each serving workload a group of its own): only the
  workloads of one group (request-size buckets of one model) share a GPU in a slot. Where two or more groups
  can use an on-demand or spot unit in a period, each gets an integer q[u,g,p] of GPUs (G = the instance's GPUs,
  where all their workloads run one-GPU replicas: gpus_to_share) or of whole instances (G = 1) with
  G × Σ_{w in g} y[u,w,p] ≤ q[u,g,p] and Σ_g q[u,g,p] ≤ G × q[u,p], the one paid (= where G = 1); where they can
  use a card or a reservation, each gets an integer share s[u,g,p] (of a reservation's GPUs alike) with
  G × Σ_{w in g} y ≤ s (× availability for cards) and Σ_g s ≤ the cards in service (less the k-GPU job
  groups' cards) or G × the units reserved; k-GPU serving
  workloads on cards get an integer count of the card's k-card job groups per group, Σ_g ≤ G_k
  (_define_serving_job_shares). A unit only one group can use gets nothing new (define_serving_shares).
- Batch work may fill the idle part of whole serving capacity, as it does on cards and reservations:
  on a unit with q, Σ_all y[u,w,p] ≤ q[u,p] + e[u,p], where e ≥ 0 (continuous) is the instance-hours
  per hour rented beyond the whole serving instances, priced like q. So the serving instances' idle share
  is free to batch work, and batch hours beyond it cost what they always did.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pulp

from planner.engine.constraints import affine, define_caps
from planner.engine.inputs import Inputs
from planner.engine.schedule import COST_CATEGORIES
from planner.engine.vintages import in_service

if TYPE_CHECKING:   # engine.solve imports this module
    from planner.engine.solve import TimeBudget


@dataclass
class Model:
    inputs: Inputs
    prob: pulp.LpProblem
    buy: dict = field(default_factory=dict)    # vintage index -> integer cards bought
    keep: dict = field(default_factory=dict)   # owned vintage index -> integer cards kept working
    off: dict = field(default_factory=dict)    # owned vintage index -> integer cards switched off
    installed: dict = field(default_factory=dict)  # (card unit, epoch) -> cards in service (expression)
    in_service: dict = field(default_factory=dict)  # vintages serving together -> integer N of their cards
    n: dict = field(default_factory=dict)      # card unit index -> cards held at some time (expression)
    r: dict = field(default_factory=dict)      # reserved unit index -> integer units
    y: dict = field(default_factory=dict)      # (unit, workload, period) -> units working
    z: pulp.LpVariable | None = None            # any on-prem card in service at some time
    site: dict = field(default_factory=dict)   # site epoch (schedule key) -> binary: any card in service in it
    place: dict = field(default_factory=dict)  # (workload, gpu) -> binary: single_type workload placed on gpu
    instances: dict = field(default_factory=dict)  # (on-demand/spot unit, period) -> integer serving instances
    # (on-demand/spot unit, serving group, period) -> integer instances of that group, where two or more groups
    # use the unit in the period (their sum is instances[unit, period]) — or its GPUs where group_gpus says so
    group_instances: dict = field(default_factory=dict)
    # (on-demand/spot or reserved unit, period) -> the GPUs of an instance that groups hold apart (gpus_to_share),
    # where above 1: group_instances and shares count GPUs, and the instances hold them all
    group_gpus: dict = field(default_factory=dict)
    # (card or reserved unit, serving group, period) -> integer units serving that group, where two or more
    # groups use the unit in the period (define_serving_shares)
    shares: dict = field(default_factory=dict)
    # (card unit, serving group, period, k) -> integer k-card job groups serving that group's k-GPU serving workloads,
    # where two or more groups' k-GPU serving workloads use the card in the period (define_whole_jobs)
    job_shares: dict = field(default_factory=dict)
    jobs: dict = field(default_factory=dict)   # (card unit, epoch, k) -> integer groups of k cards for k-GPU jobs
    servers: dict = field(default_factory=dict)  # (card unit, epoch) -> integer full servers (k ∤ cards_per_server)
    # (card unit, epoch, pattern index) -> full servers filled with that pattern; (card unit, epoch, "last", k)
    # -> k-GPU jobs in the last server (jobs of several sizes packed by pattern: _define_patterns)
    patterns: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)  # (unit, period) -> instances rented beyond them for batch work
    costs: dict = field(default_factory=dict)  # category -> affine expression (present value)
    build_seconds: float = 0.0
    columns: list | None = None                # the solver's columns (pulp variables), set by solve
    time_limit: float | None = None            # seconds the solve was given (solve), for the LPs that settle its work …
    budget: TimeBudget | None = None           # … unless its solve drew on a shared TimeBudget (baselines.solve_inputs):
                                               # then they get what is left of that (engine.dispatch)
    settled: bool | None = None                # its work settled (engine.dispatch); False: it could not be; None: no need
    # HiGHS's runs with z fixed (engine.solve): 0.0 / 1.0 -> (status, total); the run without cards
    # settles the all-cloud baseline (engine.baselines.settle_all_cloud)
    fixed_cost_runs: dict = field(default_factory=dict)
    # the columns' values of that run without cards (None: no such run, or it found no fleet): what the all-cloud
    # baseline it settles holds (readback.fleet_unit_ids), whose speeds the plan's speeds table lists (engine.run)
    no_card_values: np.ndarray | None = None

    def size(self) -> dict:
        ints = (len(self.buy) + len(self.keep) + len(self.off) + len(self.r) + len(self.place) + len(self.instances)
                + len(self.group_instances) + len(self.shares) + len(self.job_shares)
                + len(self.in_service) + len(self.jobs) + len(self.servers) + len(self.patterns)
                + (1 if self.z is not None else 0))
        columns = self.columns if self.columns is not None else self.prob.variables()
        return {"variables": len(columns), "integer_variables": ints,
                "constraints": self.prob.numConstraints()}

    def card(self, sku: str, missing_ok: bool = False) -> pulp.LpAffineExpression | None:
        """Cards of on-prem card `sku` held at some time in the plan (bought in any vintage, or owned and
        not sold), for extra constraints. Every card of the scenario has one, even a card that cannot be bought
        (no sourced price: the plan's warnings say so) and is not owned: an expression of no variable, 0. Any
        other `sku` is a PlannerError naming it, the model's cards and the closest ("did you mean"), or None with
        `missing_ok`: user code comparing None with a number raised a bare TypeError."""
        skus = self.inputs.col("sku")
        held = next((n for i, n in self.n.items() if skus[i] == sku), None)
        if held is None and not missing_ok:
            from planner.errors import PlannerError

            raise PlannerError(self._no_card_said(sku))
        return held

    def _no_card_said(self, sku) -> str:
        """Why model.card has no count of `sku`: a cloud offer, a catalog card the scenario does not list (and, when
        so, that the catalog has no price for it), or a name close to the model's cards or the catalog's."""
        from planner.catalog import card_rows, suggest
        from planner.catalog.gpus import card_name_hint, family_members

        skus = self.inputs.col("sku")
        cards = [str(skus[i]) for i in self.n]
        said, listed = f"model.card({sku!r})", f"the model's cards: {', '.join(cards) or 'none'}"
        if not isinstance(sku, str):
            return f"{said}: expected a card id, text such as {cards[0] if cards else 'rtx-4090'!r} ({listed})"
        if sku in set(skus.tolist()):
            return f"{said}: {sku} is a cloud offer, not an on-prem card; model.card counts on-prem cards ({listed})"
        catalog = card_rows()
        if sku in catalog:
            unpriced = ("; it has no sourced price in the catalog, so give onprem.card_overrides."
                        f"{sku}.price (and currency) from a quote" if not catalog[sku]["price"].strip() else "")
            return f"{said}: card {sku} is not among the scenario's cards ({listed}); list it in onprem.cards{unpriced}"
        # a GPU family's name (`A100`): every card of the family, priced or not, as a scenario's card ids are told
        # (catalog.card_name_hint); the nearest spelling was one card of the family, often unpriced
        if family_members(sku):
            return f"{said}: no card {sku} in this model{card_name_hint(sku)} ({listed})"
        close = suggest(str(sku), cards)
        if close:
            return f"{said}: no card {sku} in this model; did you mean {close[0]}? ({listed})"
        close = suggest(str(sku), list(catalog))
        if close:
            return (f"{said}: no card {sku} in this model; did you mean {close[0]}, a catalog card the scenario does "
                    f"not list (add it to onprem.cards)? ({listed})")
        return f"{said}: no card {sku} in this model ({listed})"

    @property
    def integers(self) -> bool:
        return bool(self.buy or self.keep or self.off or self.r or self.place or self.instances or self.shares
                    or self.job_shares)


# the caller's constraints of the model: added to model.prob, or returned (a pulp constraint, or an iterable of them)
ExtraConstraints = Callable[[Model], "pulp.LpConstraint | Iterable[pulp.LpConstraint] | None"]


def unit_bound(inp: Inputs, i: int) -> int:
    """Most units of `i` that can ever help: enough to serve all it can serve in the peak period (also with
    whole serving instances and single_type placement: these many units hold every workload's peak whole;
    a card's k-GPU jobs in whole groups of k)."""
    served = inp.work[i] > 0
    if not served.any():
        return 0
    group = _groups_among(inp, served)
    if inp.col("kind")[i] != "card":
        return int(math.ceil(_whole_per_group(inp.demand[:, served] / inp.work[i, served], group).max() - 1e-9))
    cards = inp.demand[:, served] / inp.work[i, served] / inp.availability   # [P × served workloads]
    k = inp.workloads["gpus_per_job"].to_numpy()[served]
    whole = k > 1
    # one-GPU work at its peak, on cards of its own …
    most = float(_whole_per_group(cards[:, ~whole], _part(group, ~whole)).max()) if (~whole).any() else 0.0
    # … and jobs of k cards in whole groups of k, held through a fleet epoch (define_whole_jobs): as many as
    # the busiest period needs, for all workloads of that k together — not the busiest period of the
    # workloads summed, which cuts the optimum when jobs of different sizes peak in different hours
    per_server = int(inp.col("cards_per_server")[i])
    sizes = sorted({int(size) for size in k[whole]})
    patterns = packed_by_pattern(sizes, per_server)
    for size in sizes:
        jobs = math.ceil(_whole_per_group(cards[:, k == size], _part(group, k == size), size).max() / size - 1e-9)
        fill = max(per_server // size, 1)   # k > c cannot serve (workloads.work_matrix)
        # each job in one server: ⌊c / k⌋ jobs fill a server and the last holds the rest, packed with the other
        # sizes' rest — or, where the sizes are packed by pattern, on servers of its own
        most += per_server * -(-jobs // fill) if patterns else per_server * (jobs // fill) + size * (jobs % fill)
    return int(math.ceil(most - 1e-9))


def _groups_among(inp: Inputs, served: np.ndarray) -> np.ndarray | None:
    """[served workloads] the serving groups (Inputs.serving_groups) of the workloads in the mask `served`; None when
    the scenario has fewer than two (nothing to tell apart: unit_bound then sums as it always did)."""
    groups = inp.serving_groups
    return groups[served] if groups.max(initial=-1) >= 1 else None


def _part(group: np.ndarray | None, mask: np.ndarray) -> np.ndarray | None:
    return None if group is None else group[mask]


def _whole_per_group(need: np.ndarray, group: np.ndarray | None, size: int = 1) -> np.ndarray:
    """[P] `need` [P × workloads] summed per period, each serving group's part (`group` [workloads]: Inputs.serving_groups;
    None: no groups) rounded up to whole units — groups of `size` cards for k-GPU jobs — where two or more groups
    share the unit: they never share one of its units (or job groups)."""
    labels = set() if group is None else set(group[group >= 0].tolist())
    if len(labels) < 2:
        return need.sum(axis=1)
    whole = sum(size * np.ceil(need[:, group == g].sum(axis=1) / size - 1e-9) for g in labels)
    return need[:, group < 0].sum(axis=1) + whole


def define_card_counts(m: Model) -> None:
    """Integer cards bought in each purchase vintage, owned cards kept or switched off (the rest are
    sold), and the expressions of cards in service per epoch and held over the plan."""
    inp = m.inputs
    v = inp.vintages
    sku = inp.col("sku")
    unit = v["unit"].to_numpy()
    owned, count = v["owned"].tolist(), v["count"].tolist()   # Python values: read once per vintage
    most = most_bought(inp)
    for k, i in enumerate(unit.tolist()):
        if owned[k]:
            c = int(count[k])
            keep = m.prob.add_variable(f"keep_{sku[i]}_{k}", lowBound=0, upBound=c, cat="Integer")
            m.keep[k] = keep
            if "off" in inp.owned_choices:
                m.off[k] = m.prob.add_variable(f"off_{sku[i]}_{k}", lowBound=0, upBound=c, cat="Integer")
            held = keep + m.off[k] if k in m.off else keep
            m.prob += (held <= c if inp.may_sell(i) else held == c, f"owned_{sku[i]}_{k}")
        elif most[i] > 0:
            m.buy[k] = m.prob.add_variable(f"buy_{sku[i]}_{k}", lowBound=0, upBound=most[i], cat="Integer")
            board = inp.board_gpus.get(sku[i], 1)
            if board > 1:   # sold only as whole boards: the GPUs bought are a whole number of boards
                boards = m.prob.add_variable(f"boards_{sku[i]}_{k}", lowBound=0, upBound=most[i] // board, cat="Integer")
                m.prob += (m.buy[k] == board * boards, f"whole_boards_{sku[i]}_{k}")
    serving_in_month = in_service(v, inp.horizon_months).T.tolist()   # [H][V]: True where vintage k serves
    first_month_of_epoch = {}
    for month, e in enumerate(inp.epoch_of_month, start=1):
        first_month_of_epoch.setdefault(int(e), month)
    working = m.buy | m.keep   # vintage -> cards in service (bought or owned and kept: never both)
    rows: dict = {}
    for i in np.flatnonzero(inp.col("kind") == "card"):
        mine = np.flatnonzero(unit == i).tolist()
        mine_working = [k for k in mine if k in working]
        for e, month in first_month_of_epoch.items():
            serving = serving_in_month[month - 1]
            m.installed[i, e] = _cards_in_service(m, rows, [k for k in mine_working if serving[k]], working)
        held = [(m.buy[k], 1.0) for k in mine if k in m.buy] + [(m.keep[k], 1.0) for k in mine if k in m.keep]
        held += [(m.off[k], 1.0) for k in mine if k in m.off]
        m.n[i] = pulp.LpAffineExpression(held)
    add_rows(m, rows)


def most_bought(inp: Inputs) -> dict[int, int]:
    """Card unit index -> the most cards of it one purchase month may buy (0: none, so its purchase vintages get
    no variable), for each card unit with a vintage."""
    return {i: purchase_bound(inp, i) for i in set(inp.vintages["unit"].tolist())}


def purchase_bound(inp: Inputs, i: int) -> int:
    """The most cards of card unit `i` one purchase month may buy: its unit bound if it is buyable, or its
    min_units (cards not listed in onprem.cards are only owned, or required by min_units: none beyond that),
    a buyable card's raised to its purchase_floor, and up to whole boards of a card sold only as such; 0: none."""
    buyable = bool(inp.col("buyable")[i])
    most = max(int(inp.col("min_units")[i]), unit_bound(inp, i) if buyable else 0)
    if most > 0 and buyable:
        most = max(most, inp.purchase_floor.get(str(inp.col("sku")[i]), 0))
    board = inp.board_gpus.get(str(inp.col("sku")[i]), 1)
    return -(-most // board) * board   # up to whole boards, so that the boards' count reaches the need


@dataclass(frozen=True)
class PurchaseVariables:
    """The integer variables of the fleet's choices that `build_model` makes of some inputs: one per card and
    purchase month it can be bought in (`purchases`: `cards` card types, each in the `months` purchase months),
    one per owned batch kept and one switched off where that is allowed (`owned`), one per reservation offer
    (`reservations`), and, where two or more serving groups can use a unit, one per group, unit and period for the
    group's share of it (`serving_shares`: Model.group_instances, shares and job_shares). Branch and bound's time and
    memory grow steeply with them (engine.run.check_size)."""

    purchases: int
    cards: int
    months: int
    owned: int
    reservations: int
    serving_shares: int = 0

    @property
    def total(self) -> int:
        return self.purchases + self.owned + self.reservations + self.serving_shares


def purchase_variables(inp: Inputs) -> PurchaseVariables:
    """The purchase variables `build_model(inp)` makes (its `buy`, `keep`, `off` and `r`, and the serving groups'
    shares), counted from the inputs without building it."""
    v = inp.vintages
    owned = v["owned"].to_numpy().astype(bool)
    most = most_bought(inp)
    units, months = v["unit"].to_numpy()[~owned], v["first_service"].to_numpy()[~owned]
    bought = np.array([most[i] > 0 for i in units.tolist()], dtype=bool)
    choices = 1 + ("off" in inp.owned_choices)
    return PurchaseVariables(int(bought.sum()), len(set(units[bought].tolist())), len(set(months[bought].tolist())),
                             int(owned.sum()) * choices, int((inp.col("kind") == "reserved").sum()),
                             serving_shares(inp, most))


def serving_shares(inp: Inputs, most: dict[int, int]) -> int:
    """The integer shares of units that `build_model(inp)` gives serving groups (`most`: most_bought(inp)): per period,
    one per group of each unit two or more groups can use — an on-demand or spot offer's or a reservation's serving
    workloads (define_serving_instances, define_serving_shares), a card's one-GPU ones, its k-GPU ones per k
    (_define_serving_job_shares). A card that can never be held (none owned, none bought) does no work (define_dispatch)."""
    group = inp.serving_groups
    if group.max(initial=-1) < 1:   # fewer than two groups
        return 0
    kind, k_of = inp.col("kind"), inp.workloads["gpus_per_job"].to_numpy()
    v = inp.vintages
    held = set(v["unit"].to_numpy()[v["owned"].to_numpy().astype(bool)].tolist()) | {i for i, n in most.items() if n > 0}
    shares = 0
    for i in np.flatnonzero((inp.work[:, group >= 0] > 0).any(axis=1)).tolist():
        if kind[i] == "card" and i not in held:
            continue
        served = (inp.work[i] > 0) & (group >= 0)
        # the workloads that hold shares of the unit apart: a card's one-GPU ones, and its k-GPU ones per k
        parts = [served & (k_of == k) for k in set(k_of[served].tolist())] if kind[i] == "card" else [served]
        for part in parts:
            groups = len(set(group[part].tolist()))
            shares += groups if groups > 1 else 0
    return shares * len(inp.periods)


def _cards_in_service(m: Model, rows: dict, vintages: list[int], working: dict) -> pulp.LpAffineExpression:
    """The cards of `vintages` (all of one card) in service together: their one variable when there is
    one, else an integer N of their own with the row Σ vintages − N = 0 in `rows` (one N per set of
    vintages). Every capacity, power and unit-limit row of the epoch then holds N, one column, instead
    of a column per vintage: the same optimum (N is the sum), proved much sooner, as the solvers' cuts and
    branches then work on the count in service. Measured 2026-12-02 on whole plans with baselines of the
    four shipped scenarios, purchases every 1, 3 and 12 months or once, over 36, 60 and 120 months (CPU
    time): the same totals and baselines in all 48; with monthly purchases over 120 months entry 17.5 →
    0.7 s, startup-hybrid 15.9 → 3.6 s, mid-research 6.4 → 0.6 s, industrial 1.06 → 0.81 s; the
    smallest models within the noise of one run to the next. `benchmarks/plan_speed.py --sections
    periods` (industrial.yaml, 60 months): HiGHS 0.32 → 0.25 s quarterly and 0.62 → 0.34 s monthly, CBC
    28 → 1.7 s quarterly."""
    if len(vintages) < 2:
        return pulp.LpAffineExpression([(working[k], 1.0) for k in vintages])
    key = tuple(vintages)
    if key not in m.in_service:
        name, most = f"in_service_{len(m.in_service)}", sum(working[k].upBound for k in vintages)
        n = m.in_service[key] = m.prob.add_variable(name, lowBound=0, upBound=most, cat="Integer")
        add_row(rows, [(working[k], 1.0) for k in vintages] + [(n, -1.0)], pulp.LpConstraintEQ, 0.0, name)
    return pulp.LpAffineExpression([(m.in_service[key], 1.0)])


def define_reservations(m: Model) -> None:
    """Integer reserved instances of each reservation offer, committed from month 1 (at most the peak's
    need, or the offer's Inputs.purchase_floor when that is more)."""
    inp = m.inputs
    offer = inp.col("unit_id")
    for i in np.flatnonzero(inp.col("kind") == "reserved"):
        most = max(unit_bound(inp, i), inp.purchase_floor.get(offer[i], 0))
        m.r[i] = m.prob.add_variable(f"r_{i}", lowBound=0, upBound=most, cat="Integer")


def define_dispatch(m: Model) -> None:
    """Continuous units working on each compatible workload in each period; none for a card that can
    never be held (not buyable, none owned: a baseline's cards fixed at zero), whose capacity is 0."""
    inp = m.inputs
    works = inp.work > 0
    works[[i for i, n in m.n.items() if not len(n)]] = False   # m.n: every card's cards held (expression)
    periods = range(len(inp.periods))
    units, workloads = np.nonzero(works)
    # keys of Python ints: every later pass over m.y indexes lists, formats names and hashes keys with them
    for i, j in zip(units.tolist(), workloads.tolist()):
        prefix = f"y_{i}_{j}_"
        for p in periods:
            m.y[i, j, p] = m.prob.add_variable(f"{prefix}{p}", lowBound=0)


def _dispatch_by_workload(m: Model, workloads: np.ndarray) -> dict:
    """workload -> [(unit, period, y)] for the workloads in the mask `workloads`."""
    out: dict = {}
    for (i, j, p), var in m.y.items():
        if workloads[j]:
            out.setdefault(j, []).append((i, p, var))
    return out


def define_placement(m: Model) -> None:
    """single_type workloads: a binary per GPU type that can serve the workload, exactly one chosen, and
    dispatch on a unit only when its GPU type is the chosen one (at most the demand alone needs)."""
    inp = m.inputs
    single = inp.workloads["single_type"].to_numpy(dtype=bool)
    if not single.any():
        return
    gpu = inp.col("gpu")
    rows: dict = {}
    for j, dispatch in _dispatch_by_workload(m, single).items():
        gpus = sorted({gpu[i] for i, _, _ in dispatch})
        if len(gpus) < 2:   # one GPU type can serve it: nothing to choose
            continue
        for g in gpus:
            m.place[j, g] = m.prob.add_variable(f"place_w{j}_{len(m.place)}", cat="Binary")
        add_row(rows, [(m.place[j, g], 1.0) for g in gpus], pulp.LpConstraintEQ, 1.0, f"placement_w{j}")
        for i, p, var in dispatch:
            most = float(inp.demand[p, j] / inp.work[i, j])
            add_row(rows, [(var, 1.0), (m.place[j, gpu[i]], -most)], pulp.LpConstraintLE, 0.0, f"placed_{i}_w{j}_{p}")
    add_rows(m, rows)


def define_serving_instances(m: Model) -> None:
    """Whole instances of the on-demand and spot offers that serve a serving workload, per period: its
    serving dispatch is at most them — each serving group's at most its own instances where two or more
    groups use the unit, the instances paid their sum —; batch dispatch on the unit fills their idle share,
    and beyond it rents continuous extra instance-hours (both priced in define_costs)."""
    inp = m.inputs
    serving = inp.workloads["serving"].to_numpy(dtype=bool)
    if not serving.any():
        return
    continuous = np.isin(inp.col("kind"), ("on_demand", "spot"))
    group = inp.serving_groups.tolist()
    serve: dict = {}
    batch: dict = {}
    for (i, j, p), var in m.y.items():
        if continuous[i]:
            (serve if serving[j] else batch).setdefault((i, p), []).append((var, 1.0, j))
    rows: dict = {}

    def whole(i: int, p: int, suffix: str, terms: list, per: int = 1) -> pulp.LpVariable:
        """An integer count of instances of unit i in period p — of its GPUs with `per` GPUs an instance — that the
        dispatch `terms` (instances busy) works within."""
        need = sum(inp.demand[p, j] / inp.work[i, j] for _, _, j in terms) * per
        q = m.prob.add_variable(f"q_{suffix}", lowBound=0, upBound=int(math.ceil(need - 1e-9)), cat="Integer")
        add_row(rows, [(var, c * per) for var, c, _ in terms] + [(q, -1.0)], pulp.LpConstraintLE, 0.0,
                f"serving_instances_{suffix}")
        return q

    for (i, p), terms in serve.items():
        by_group: dict = {}
        for term in terms:
            by_group.setdefault(group[term[2]], []).append(term)
        if len(by_group) == 1:
            q = m.instances[i, p] = whole(i, p, f"{i}_{p}", terms)
        else:   # no GPU serves two groups: each its own GPUs (or instances), the instances paid hold them all
            per = m.group_gpus[i, p] = gpus_to_share(inp, i, [j for _, _, j in terms])
            parts = {g: whole(i, p, f"{i}_{p}_g{g}", mine, per) for g, mine in by_group.items()}
            m.group_instances.update({(i, g, p): q for g, q in parts.items()})
            most = math.ceil(sum(q.upBound for q in parts.values()) / per)
            q = m.instances[i, p] = m.prob.add_variable(f"q_{i}_{p}", lowBound=0, upBound=most, cat="Integer")
            add_row(rows, [(part, 1.0) for part in parts.values()] + [(q, -per)],
                    pulp.LpConstraintEQ if per == 1 else pulp.LpConstraintLE, 0.0, f"serving_groups_instances_{i}_{p}")
        dispatch = [(var, c) for var, c, _ in terms]
        if (i, p) in batch:
            e = m.extra[i, p] = m.prob.add_variable(f"extra_{i}_{p}", lowBound=0)
            dispatch += [(var, c) for var, c, _ in batch[i, p]]
            add_row(rows, dispatch + [(q, -1.0), (e, -1.0)], pulp.LpConstraintLE, 0.0, f"instance_capacity_{i}_{p}")
    add_rows(m, rows)


def gpus_to_share(inp: Inputs, i: int, served: list[int]) -> int:
    """The GPUs of one instance of cloud unit `i` that serving groups can hold apart, each group its own GPUs: its
    whole GPU count where every workload in `served` runs one-GPU replicas (two models on separate GPUs of one
    4-GPU instance share no GPU's memory); else 1, each group whole instances of its own (a fractional GPU, or
    replicas of k GPUs, whose packing into instances the model does not follow: never fewer instances than needed)."""
    gpus = float(inp.col("gpu_count")[i])
    one_gpu = bool((inp.workloads["gpus_per_job"].to_numpy()[served] == 1).all())
    return int(gpus) if one_gpu and gpus >= 2 and gpus.is_integer() else 1


def define_serving_shares(m: Model) -> None:
    """Cards and reservations that two or more serving groups can use in a period: an integer share of the unit's
    count per group (m.shares), the group's dispatch at most its share (× availability on cards), and the shares
    together at most the cards in service or the units reserved (on cards with k-GPU job groups, also at most
    the cards those groups leave: _define_serving_beside_jobs). On cards only one-GPU serving workloads take a
    share; k-GPU ones are served by the job groups (define_whole_jobs). A unit that one group alone can use in a
    period gets nothing: its capacity row (define_card_capacity, define_reserved_capacity) holds it whole."""
    inp = m.inputs
    if inp.serving_groups.max(initial=-1) < 1:   # fewer than two groups
        return
    kind, epoch = inp.col("kind"), inp.periods["epoch"].to_numpy().tolist()
    one, group = (inp.workloads["gpus_per_job"].to_numpy() == 1).tolist(), inp.serving_groups.tolist()
    served: dict = {}
    for (i, j, p), var in m.y.items():
        if group[j] >= 0 and (kind[i] == "reserved" or (kind[i] == "card" and one[j])):
            served.setdefault((i, p), {}).setdefault(group[j], []).append((var, j))
    rows: dict = {}
    for (i, p), by_group in served.items():
        if len(by_group) < 2:
            continue
        card = kind[i] == "card"
        share = inp.availability if card else 1.0
        # a reserved instance of several GPUs: each group its own GPUs of it (cards are one GPU each)
        per = 1 if card else gpus_to_share(inp, i, [j for terms in by_group.values() for _, j in terms])
        if per > 1:
            m.group_gpus[i, p] = per
        count = m.installed[i, epoch[p]] if card else pulp.LpAffineExpression(m.r[i])
        shares = []
        for g, terms in by_group.items():
            need = sum(inp.demand[p, j] / inp.work[i, j] for _, j in terms) / share * per
            s = m.shares[i, g, p] = m.prob.add_variable(f"share_{i}_{g}_{p}", lowBound=0,
                                                         upBound=int(math.ceil(need - 1e-9)), cat="Integer")
            add_row(rows, [(var, float(per)) for var, _ in terms] + [(s, -share)], pulp.LpConstraintLE, 0.0,
                    f"serving_share_{i}_{g}_{p}")
            shares.append((s, 1.0))
        add_row(rows, shares + [(var, -c * per) for var, c in count.items()], pulp.LpConstraintLE,
                count.constant * per, f"serving_shares_{i}_{p}")
    add_rows(m, rows)


def define_fixed_onprem_switch(m: Model) -> None:
    """For the fixed monthly site cost: a binary z, 1 when any card is in service at some time (engine.solve
    splits on it), and per site epoch (schedule.site_epochs) a binary, 1 when any card is in service in it —
    bought, or owned and kept working. Owned cards switched off are still held but owe no site cost: they draw
    no power, pay no colocation and do no work, so a plan whose cards of unknown resale value (never sold) are
    all switched off is all cloud in what it pays. With one site epoch the two binaries are one variable."""
    inp = m.inputs
    first, last = inp.schedule.site_months
    if not m.n or not len(first):
        return
    m.z = m.prob.add_variable("any_onprem", cat="Binary")
    sku = inp.col("sku")
    working = m.buy | m.keep   # vintage -> cards in service (bought, or owned and kept working)
    unit = inp.vintages["unit"].to_numpy()
    for i in m.n:
        serving = pulp.LpAffineExpression([(working[k], 1.0) for k in np.flatnonzero(unit == i).tolist() if k in working])
        most = sum(var.upBound or 0 for var in serving.keys())
        if most:
            m.prob += (serving <= most * m.z, f"onprem_switch_{sku[i]}")
    if len(first) == 1:
        m.site[0] = m.z
        return
    epochs = inp.epoch_of_month[first - 1].tolist()   # the fleet epoch of each site epoch
    rows: dict = {}
    for key, e in enumerate(epochs):
        m.site[key] = m.prob.add_variable(f"site_epoch_{key}", cat="Binary")
        for i in m.n:
            installed = m.installed[i, e]   # the card's cards in service in the epoch
            most = sum((var.upBound or 0) * c for var, c in installed.items())
            if most:
                add_row(rows, [*installed.items(), (m.site[key], -most)], pulp.LpConstraintLE, 0.0,
                        f"site_epoch_{key}_{sku[i]}")
    _define_site_order(m, first, last, rows)
    _define_site_dispatch(m, epochs, rows)
    add_rows(m, rows)


def _define_site_order(m: Model, first_months: np.ndarray, last_months: np.ndarray, rows: dict) -> None:
    """Where one site epoch follows another, the cards in service can only grow when no vintage leaves at the
    boundary (s_next ≥ s_prev) and only shrink when none starts there (s_prev ≥ s_next). Valid rows that
    keep HiGHS from trying orders of the binaries no plan can have: the 19 purchase re-solves of
    industrial.yaml's decision values took 1.4× the CPU of one site binary without them, 1.0-1.15× with
    (2026-12-02)."""
    v = m.inputs.vintages
    leaves, starts = set(v["leave_month"].tolist()), set(v["first_service"].tolist())
    for key in range(1, len(first_months)):
        month = int(first_months[key])
        if month != int(last_months[key - 1]) + 1:   # months no card can serve in lie between them
            continue
        before, after = m.site[key - 1], m.site[key]
        if month not in leaves:
            add_row(rows, [(after, 1.0), (before, -1.0)], pulp.LpConstraintGE, 0.0, f"site_grows_{key}")
        if month not in starts:
            add_row(rows, [(before, 1.0), (after, -1.0)], pulp.LpConstraintGE, 0.0, f"site_shrinks_{key}")


def _define_site_dispatch(m: Model, epochs: list[int], rows: dict) -> None:
    """Per workload and period, the work cards do is at most its demand times the period's site binary
    (`epochs`: the fleet epoch of each site epoch, by key). The rows above alone leave the LP bound 28 %
    below the optimum on industrial.yaml (a card count over its bound pays that share of the site cost) and
    HiGHS took 4× the solve of one site binary to close it; with these 0.15 % (2026-12-02). Valid: work
    beyond the demand is never needed — a plan with some has a plan as cheap without it (busy costs are
    ≥ 0, and no constraint asks for more work than demanded)."""
    inp = m.inputs
    key_of_epoch = {e: key for key, e in enumerate(epochs)}
    card, epoch = inp.col("kind") == "card", inp.periods["epoch"].to_numpy()
    work, demand = inp.work.tolist(), inp.demand.tolist()
    terms: dict = {}
    for (i, j, p), var in m.y.items():
        if card[i]:
            terms.setdefault((j, p), []).append((var, work[i][j]))
    for (j, p), dispatch in terms.items():
        key = key_of_epoch.get(int(epoch[p]))
        if key is not None:
            add_row(rows, [*dispatch, (m.site[key], -demand[p][j])], pulp.LpConstraintLE, 0.0, f"site_work_w{j}_{p}")


def add_row(rows: dict, terms: list | pulp.LpAffineExpression, sense: int, rhs: float, name: str) -> None:
    """Put the constraint Σ coefficient × variable (sense) rhs, from (variable, coefficient) pairs with no
    variable twice (or an expression, used as it is), in `rows` (name -> constraint), which `add_rows` adds
    to the problem. Built directly: pulp's `<=` and `>=` copy the expression once or twice per row."""
    row = pulp.LpConstraint(terms, sense, name, rhs)
    rows[row.name] = row   # the name pulp keeps (illegal characters replaced), as addConstraint does


def add_rows(m: Model, rows: dict) -> None:
    """Add the constraints `rows` (name -> constraint, names unique in the problem) in their order, with
    pulp's `extend`: `addConstraint` would check each name and register each row's variables one by one,
    which `prob.variables()` does anyway when the solver asks for the columns."""
    m.prob.extend(rows)


def define_demand_balance(m: Model) -> None:
    """Work delivered to each workload covers its demand in every period."""
    inp = m.inputs
    work, demand = inp.work.tolist(), inp.demand.tolist()   # Python floats: no numpy scalar per term
    terms: dict = {}
    for (i, j, p), var in m.y.items():
        terms.setdefault((j, p), []).append((var, work[i][j]))
    # named by index: pulp turns spaces and dashes into "_", so workloads `a b` and `a-b` would clash
    rows: dict = {}
    for j in range(inp.work.shape[1]):
        for p in range(len(inp.periods)):
            if demand[p][j] <= 0:
                continue
            add_row(rows, terms.get((j, p), []), pulp.LpConstraintGE, demand[p][j], f"demand_w{j}_{p}")
    add_rows(m, rows)


def _define_capacity(m: Model, count_in: Callable, share: float, name: str) -> None:
    """Σ_w y[u,w,p] ≤ share × count_in(u, p) for every unit with a count and every period it works in."""
    busy: dict = {}
    for (i, _j, p), var in m.y.items():
        busy.setdefault((i, p), []).append((var, 1.0))
    # the count's terms moved to the left-hand side, and its right-hand side: once per count, not per
    # period; kept as a dict, so each row copies them with their hashes (see constraints.affine)
    moved: dict = {}
    rows: dict = {}
    for (i, p), terms in busy.items():
        count = count_in(i, p)
        if count is None:
            continue
        if id(count) not in moved:   # integer counts (a variable or an expression)
            expression = count if isinstance(count, pulp.LpAffineExpression) else pulp.LpAffineExpression(count)
            moved[id(count)] = ({var: -share * c for var, c in expression.items()}, share * expression.constant)
        count_terms, rhs = moved[id(count)]
        row = pulp.LpAffineExpression(terms)
        row.update(count_terms)
        add_row(rows, row, pulp.LpConstraintLE, rhs, f"{name}_{i}_{p}")
    add_rows(m, rows)


def define_card_capacity(m: Model) -> None:
    """Cards work at most `availability` of every hour, with the cards in service in the period's epoch."""
    epoch = m.inputs.periods["epoch"].to_numpy().tolist()
    _define_capacity(m, lambda i, p: m.installed.get((i, epoch[p])), m.inputs.availability, "card_capacity")


def define_whole_jobs(m: Model) -> None:
    """Cards do jobs of k > 1 GPUs in whole groups of k: per card, fleet epoch and k, an integer number of
    groups G with Σ_k k × G ≤ the cards in service, and in each period of the epoch the cards busy on
    k-GPU workloads ≤ availability × k × G. One-GPU work may use any card. A job runs in one server: where k
    does not divide cards_per_server c, the N cards in service fill F = ⌊N / c⌋ servers (an integer F with
    0 ≤ N − c·F ≤ c − 1), each holding ⌊c / k⌋ jobs, and the last server's N − c·F cards hold the rest:
    k × G ≤ k⌊c / k⌋ × F + N − c·F, which for integer G is G ≤ ⌊c / k⌋ F + ⌊(N − c·F) / k⌋, exact for one
    k per card. Jobs of several sizes that are no chain of divisors of c share servers by pattern instead
    (`packed_by_pattern`, `_define_patterns`): packed per size, 5- and 6-GPU jobs were each counted as fitting
    two 8-card servers, three of them together.
    (An instance's GPUs that whole jobs use are counted in engine.workloads.work_matrix.)"""
    inp = m.inputs
    k_of = inp.workloads["gpus_per_job"].to_numpy()
    if not (k_of > 1).any():
        return
    card, epoch, sku = inp.col("kind") == "card", inp.periods["epoch"].to_numpy().tolist(), inp.col("sku")
    busy: dict = {}
    for (i, j, p), var in m.y.items():
        if card[i] and k_of[j] > 1:
            busy.setdefault((i, epoch[p], int(k_of[j]), p), []).append((var, 1.0))
    rows: dict = {}
    groups_of: dict = {}   # (card, epoch) -> [(k, G)]
    for (i, e, k, p), terms in busy.items():
        key = (i, e, k)
        if key not in m.jobs:
            installed = m.installed.get((i, e))
            most = _most_cards(installed) // k if installed is not None else 0
            m.jobs[key] = m.prob.add_variable(f"jobs_{i}_{e}_{k}", lowBound=0, upBound=most, cat="Integer")
            groups_of.setdefault((i, e), []).append((k, m.jobs[key]))
        add_row(rows, [*terms, (m.jobs[key], -inp.availability * k)], pulp.LpConstraintLE, 0.0,
                f"whole_jobs_{i}_{p}_{k}")
    add_rows(m, rows)
    _define_serving_job_shares(m)
    _define_serving_beside_jobs(m, groups_of)
    per_server = inp.col("cards_per_server")
    for (i, e), groups in groups_of.items():
        installed = m.installed.get((i, e))
        in_service = installed if installed is not None else pulp.LpAffineExpression()
        m.prob += (pulp.lpSum(k * g for k, g in groups) <= in_service, f"job_groups_{sku[i]}_{e}")
        c = int(per_server[i])
        sizes = sorted(k for k, _ in groups)
        patterns = _most_filled(tuple(sizes), c) if packed_by_pattern(sizes, c) else None
        split = [(k, g) for k, g in groups if c % k]   # jobs of k that leave cards of a full server idle
        if not (split or patterns) or installed is None:
            continue
        full = m.servers[i, e] = m.prob.add_variable(f"servers_{i}_{e}", lowBound=0, upBound=_most_cards(installed) // c,
                                                     cat="Integer")
        m.prob += (in_service - c * full >= 0, f"servers_full_{sku[i]}_{e}")
        m.prob += (in_service - c * full <= c - 1, f"servers_rest_{sku[i]}_{e}")
        if patterns:
            _define_patterns(m, i, e, groups, patterns, full, in_service - c * full, c)
            continue
        for k, g in split:
            m.prob += (k * g <= k * (c // k) * full + in_service - c * full, f"job_servers_{sku[i]}_{e}_{k}")


def _define_serving_job_shares(m: Model) -> None:
    """k-GPU serving workloads of two or more serving groups on one card in a period: an integer count of the card's
    k-card job groups per serving group (m.job_shares), the group's dispatch ≤ availability × k × its count, and the
    counts together ≤ the job groups G_k of the epoch — no job group serves two groups (different models) in a slot.
    Batch k-GPU jobs still fill the groups' idle hours (whole_jobs rows)."""
    inp = m.inputs
    k_of, group = inp.workloads["gpus_per_job"].to_numpy(), inp.serving_groups
    if inp.serving_groups.max(initial=-1) < 1 or len(set(group[k_of > 1].tolist()) - {-1}) < 2:
        return
    card, epoch = inp.col("kind") == "card", inp.periods["epoch"].to_numpy().tolist()
    k_of, group = k_of.tolist(), group.tolist()
    served: dict = {}
    for (i, j, p), var in m.y.items():
        if card[i] and k_of[j] > 1 and group[j] >= 0:
            served.setdefault((i, k_of[j], p), {}).setdefault(group[j], []).append((var, j))
    rows: dict = {}
    for (i, k, p), by_group in served.items():
        if len(by_group) < 2:
            continue
        counts = []
        for g, terms in by_group.items():
            need = sum(inp.demand[p, j] / inp.work[i, j] for _, j in terms) / (inp.availability * k)
            c = m.job_shares[i, g, p, k] = m.prob.add_variable(f"job_share_{i}_{g}_{p}_{k}", lowBound=0,
                                                               upBound=int(math.ceil(need - 1e-9)), cat="Integer")
            add_row(rows, [(var, 1.0) for var, _ in terms] + [(c, -inp.availability * k)], pulp.LpConstraintLE, 0.0,
                    f"serving_job_share_{i}_{g}_{p}_{k}")
            counts.append((c, 1.0))
        add_row(rows, counts + [(m.jobs[i, epoch[p], k], -1.0)], pulp.LpConstraintLE, 0.0,
                f"serving_job_shares_{i}_{p}_{k}")
    add_rows(m, rows)


def _define_serving_beside_jobs(m: Model, groups_of: dict) -> None:
    """A serving workload answers requests all the time, so it cannot take turns with whole jobs on the same cards
    within an hour: per card and period, the dispatch of one-GPU serving workloads ≤ availability × the cards in
    service that no job group holds (N − Σ_k k × G_k). Batch one-GPU work may still use a group's idle hours.
    (Without this, an 8-GPU training job busy 60 % of each hour left the same 8 cards 40 % to an inference service:
    audit 2026-12-06.) Where serving groups hold shares of the cards (define_serving_shares), the shares are what
    the job groups leave: Σ_g share ≤ N − Σ_k k × G_k, which bounds their dispatch too."""
    inp = m.inputs
    # one-GPU serving: a serving workload of k-GPU replicas is itself served by the k-card groups
    serving = inp.workloads["serving"].to_numpy(dtype=bool) & (inp.workloads["gpus_per_job"].to_numpy() == 1)
    if not serving.any() or not groups_of:
        return
    epoch = inp.periods["epoch"].to_numpy().tolist()
    served: dict = {}
    for (i, j, p), var in m.y.items():
        if serving[j] and (i, epoch[p]) in groups_of:
            served.setdefault((i, p), []).append((var, 1.0))
    shared: dict = {}
    for (i, _g, p), share in m.shares.items():
        shared.setdefault((i, p), []).append((share, inp.availability))
    rows: dict = {}
    for (i, p), terms in served.items():
        e = epoch[p]
        terms = shared.get((i, p), terms)
        held = [(g, k * inp.availability) for k, g in groups_of[i, e]]
        installed = m.installed.get((i, e))
        free = [(v, -c * inp.availability) for v, c in installed.items()] if installed is not None else []
        constant = -(installed.constant if installed is not None else 0.0) * inp.availability
        add_row(rows, [*terms, *held, *free], pulp.LpConstraintLE, -constant, f"serving_beside_jobs_{i}_{p}")
    add_rows(m, rows)


def _define_patterns(m: Model, i: int, e, groups: list, patterns: tuple, full: pulp.LpVariable,
                     rest: pulp.LpAffineExpression, c: int) -> None:
    """Jobs of several sizes k (`groups`: [(k, G)]) on card `i` in epoch `e` that are no chain of divisors of
    the c cards of a server (packed_by_pattern): each of the F = `full` servers holds one of the `patterns` π
    (the most-filled multisets of sizes, Σ π ≤ c; an integer count P_π of servers each, Σ P_π ≤ F), and the
    last server's `rest` = N − c·F cards hold integer J_k jobs of each size with Σ k J_k ≤ rest (any multiset
    of that size fits one server). G_k ≤ Σ_π π_k P_π + J_k: exactly the groups the servers can hold at once."""
    sizes = [k for k, _ in groups]
    name = f"{m.inputs.col('sku')[i]}_{e}"
    counts = [m.prob.add_variable(f"servers_{i}_{e}_pattern_{n}", lowBound=0, upBound=full.upBound, cat="Integer")
              for n in range(len(patterns))]
    m.patterns.update({(i, e, n): count for n, count in enumerate(counts)})
    last = {k: m.prob.add_variable(f"jobs_{i}_{e}_{k}_last_server", lowBound=0, upBound=(c - 1) // k, cat="Integer")
            for k in sizes}
    m.patterns.update({(i, e, "last", k): count for k, count in last.items()})
    m.prob += (pulp.lpSum(counts) <= full, f"server_patterns_{name}")
    m.prob += (pulp.lpSum(k * last[k] for k in sizes) <= rest, f"last_server_{name}")
    for k, g in groups:
        held = [(count, pattern.count(k)) for count, pattern in zip(counts, patterns) if k in pattern]
        m.prob += (g <= pulp.LpAffineExpression(held) + last[k], f"job_patterns_{name}_{k}")


# Jobs of several sizes on one card are packed by pattern (define_whole_jobs) while one server has at most this
# many most-filled patterns: an 8-card server has at most 11 (all sizes 2-8), a 16-card one 31 (up to four
# sizes; 8 for {3, 5, 6}), a 64-card one 13 for {3, 5} but 590 for {2, 3, 5, 7}. Beyond it (an integer per
# pattern, card and epoch) the sizes are packed apart, a relaxation the plan warns of (engine.run.plan_notes).
MOST_SERVER_PATTERNS = 256


def packed_by_pattern(sizes: list[int], c: int) -> bool:
    """Whether jobs of these sizes (ascending, > 1) share servers of c cards by pattern (define_whole_jobs): two
    or more sizes that are no chain — each dividing the next and the largest dividing c, as 2, 4, 8 on 8-card
    servers, where jobs fit whenever their cards do (Σ k × G ≤ N). 2- and 3-GPU jobs on 6-card servers are
    no chain: one 3-GPU and two 2-GPU jobs need 8 cards, not 7."""
    if len(sizes) < 2:
        return False
    return bool(c % sizes[-1]) or any(big % small for small, big in zip(sizes, sizes[1:]))


def packed_apart(inp: Inputs, i: int) -> list[int]:
    """The job sizes of card `i` when define_whole_jobs packs them apart (too many patterns), else []."""
    k = inp.workloads["gpus_per_job"].to_numpy()[inp.work[i] > 0]
    sizes = sorted({int(size) for size in k if size > 1})
    c = int(inp.col("cards_per_server")[i])
    return sizes if packed_by_pattern(sizes, c) and _most_filled(tuple(sizes), c) is None else []


@functools.lru_cache(maxsize=64)
def _most_filled(sizes: tuple[int, ...], c: int) -> tuple[tuple[int, ...], ...] | None:
    """The multisets of `sizes` (ascending) with total at most c to which no size can be added — every way
    to fill one server of c cards that another does not contain (a server filled less is one of these with
    jobs left out) —, or None when there are more than MOST_SERVER_PATTERNS. Cached: the same for every
    fleet epoch of a card, and for the plan's warnings (packed_apart)."""
    out: list[tuple[int, ...]] = []
    # depth first over multisets in ascending order; a stack, not recursion: 64 cards of size 2 are 32 levels
    stack = [((), c, 0)]
    while stack:
        pattern, room, smallest = stack.pop()
        fits = [n for n in range(smallest, len(sizes)) if sizes[n] <= room]
        if not fits and room < sizes[0]:   # not even the smallest size fits: most filled
            out.append(pattern)
            if len(out) > MOST_SERVER_PATTERNS:
                return None
        stack.extend(((*pattern, sizes[n]), room - sizes[n], n) for n in reversed(fits))
    return tuple(out)


def _most_cards(installed: pulp.LpAffineExpression) -> int:
    """The most cards an expression of cards in service can hold: its variables at their upper bounds."""
    return int(sum((var.upBound or 0) * a for var, a in installed.items()))


def define_reserved_capacity(m: Model) -> None:
    """Reserved instances work at most every hour."""
    if not m.r:   # no reservation offers: no rows
        return
    _define_capacity(m, lambda i, p: m.r.get(i), 1.0, "reserved_capacity")


def define_costs(m: Model) -> None:
    """Present value of each cost category: the cost schedule discounted, times the decisions."""
    inp = m.inputs
    d, sched = inp.discount, inp.schedule
    terms: dict[str, list] = {c: [] for c in COST_CATEGORIES}
    const: dict[str, float] = dict.fromkeys(COST_CATEGORIES, 0.0)
    busy = {c: rate for c, rate in sched.busy_present_values(inp.periods, d).items() if rate.any()}
    count = inp.vintages["count"].to_numpy()
    priced = set(zip(sched.col("driver").tolist(), sched.col("category").tolist()))   # only these have a present value
    for c in COST_CATEGORIES:
        for driver, decisions in (("held", m.r), ("buy", m.buy), ("keep", m.keep), ("off", m.off)):
            if decisions and (driver, c) in priced:
                pv = sched.present_values(driver, d, c)
                terms[c] += [(var, pv[k]) for k, var in decisions.items() if pv[k]]
        # owned cards not kept or switched off are sold: count − keep − off of them, at the sale credit
        sell = sched.present_values("sell", d, c) if ("sell", c) in priced else np.zeros(len(count))
        for k, keep in m.keep.items():
            if sell[k]:
                const[c] += sell[k] * count[k]
                terms[c].append((keep, -sell[k]))
                if k in m.off:
                    terms[c].append((m.off[k], -sell[k]))
        if m.site and ("site", c) in priced:
            site = sched.present_values("site", d, c)
            terms[c] += [(var, site[key]) for key, var in m.site.items() if site[key]]
    # each unit's busy hours are priced in one or two categories: find them once, not per variable
    busy_priced = {i: [(c, rate[i].tolist()) for c, rate in busy.items() if rate[i].any()] for i in {k[0] for k in m.y}}
    for (i, _j, p), var in m.y.items():
        if m.instances and (i, p) in m.instances:   # paid on its whole instances (and extra hours) instead
            continue
        for c, rate in busy_priced[i]:
            terms[c].append((var, rate[p]))
    for decisions in (m.instances, m.extra):
        for (i, p), var in decisions.items():
            for c, rate in busy_priced[i]:
                terms[c].append((var, rate[p]))
    m.costs = {c: _summed(terms[c], const[c]) for c in COST_CATEGORIES}
    m.prob += _objective(m.costs.values())


def _objective(costs) -> pulp.LpAffineExpression:
    """pulp.lpSum(costs), the same coefficients and constant added in the same order, without pulp's
    call per term."""
    costs = list(costs)
    constant = 0.0
    for expression in costs:
        constant += expression.constant
    objective = pulp.LpAffineExpression(constant=constant)
    for expression in costs:
        for var, coefficient in expression.items():
            if var in objective:
                objective[var] += coefficient
            else:
                objective[var] = coefficient
    return objective


def _summed(terms: list, constant: float) -> pulp.LpAffineExpression:
    """Σ coefficient × variable with repeated variables added up: LpAffineExpression(pairs) keeps only the
    last coefficient of a variable named twice (an owned card's end credit and its sale credit)."""
    coefficients: dict = {}
    for var, coefficient in terms:
        coefficients[var] = coefficients.get(var, 0.0) + coefficient
    return affine(coefficients, constant)


def build_model(inp: Inputs, extra_constraints: ExtraConstraints | None = None) -> Model:
    """The MILP for `inp`; `extra_constraints(model)` may add constraints of its own at the end
    (add_extra_constraints)."""
    start = time.perf_counter()
    m = Model(inp, pulp.LpProblem("fleet", pulp.LpMinimize))
    define_card_counts(m)
    define_reservations(m)
    define_dispatch(m)
    define_placement(m)
    define_serving_instances(m)
    define_serving_shares(m)
    define_fixed_onprem_switch(m)
    define_demand_balance(m)
    define_card_capacity(m)
    define_whole_jobs(m)
    define_reserved_capacity(m)
    define_caps(m)
    define_costs(m)
    if extra_constraints is not None:
        add_extra_constraints(m, extra_constraints)
    m.build_seconds = time.perf_counter() - start
    return m


# how a caller adds a constraint of their own, for a message on one that is neither added nor returned
HOW_TO_ADD = ("add it to model.prob (model.prob += (model.card('rtx-4090') <= 2, 'at_most_2_4090')) and return None, "
              "or return the constraint itself (lambda m: m.card('rtx-4090') <= 2), or a list of them")


def add_extra_constraints(m: Model, extra_constraints: ExtraConstraints) -> None:
    """Call the caller's `extra_constraints(m)`, and add what it returns: a pulp constraint, or an iterable of
    them, each named extra_constraint_<k> unless it has a name (made unique: pulp refuses a name twice; one it
    also added itself is not added again).
    `lambda m: m.card("rtx-4090") <= 0` returns its constraint, which was dropped without a word: the plan bought
    the card the caller had capped. PlannerError for anything else returned but None (a number, an expression
    with no comparison, a bool of a comparison made outside pulp), naming it and how to add a constraint."""
    returned = extra_constraints(m)
    if returned is None:
        return
    constraints = _returned_constraints(returned)
    added = {id(c) for c in m.prob.constraints()}
    for k, constraint in enumerate(constraints, start=1):
        if id(constraint) in added:
            continue
        m.prob.addConstraint(constraint, _unused_name(m.prob, constraint.name or f"extra_constraint_{k}"))
        added.add(id(constraint))


def _returned_constraints(returned) -> list[pulp.LpConstraint]:
    """The pulp constraints `returned` by extra_constraints: itself, or the items of an iterable of them;
    PlannerError naming what else it is."""
    from planner.errors import PlannerError

    if isinstance(returned, pulp.LpConstraint):
        return [returned]
    items = None
    if not isinstance(returned, (str, bytes, Mapping, pulp.LpAffineExpression, pulp.LpProblem)):
        try:
            items = list(returned)
        except TypeError:   # not iterable
            pass
    if items is not None and all(isinstance(c, pulp.LpConstraint) for c in items):
        return items
    if items is not None:
        other = next(c for c in items if not isinstance(c, pulp.LpConstraint))
        what = f"a {type(returned).__name__} holding {_shown(other)}, not only pulp constraints"
    else:
        what = _shown(returned)
    raise PlannerError(f"extra_constraints returned {what}; expected None, a pulp constraint or a list of them: "
                       f"{HOW_TO_ADD}")


def _shown(value) -> str:
    """`value` and its type, for a message: an expression says it is no constraint, a problem is named (its
    repr is the whole model)."""
    from planner.text import shortened

    if isinstance(value, pulp.LpProblem):
        return f"the problem {shortened(repr(value.name))} (LpProblem)"
    kind = type(value).__name__
    if isinstance(value, (pulp.LpAffineExpression, pulp.LpVariable)):
        kind += ": an expression, not a constraint (compare it: <=, >= or ==)"
    return f"{shortened(repr(value))} ({kind})"


def _unused_name(prob: pulp.LpProblem, name: str) -> str:
    """`name`, or `name`_2, _3 … where a constraint of `prob` is named so already."""
    candidate, k = name, 1
    while prob.get_constraint_by_name(candidate) is not None:
        k += 1
        candidate = f"{name}_{k}"
    return candidate
