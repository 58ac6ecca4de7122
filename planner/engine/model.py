"""The fleet MILP, built the PyPSA way: small `define_*` functions that each add one family of
variables or constraints; `build_model` calls them in order, so reading it tells what the model is.

Variables: integer card counts n (≥ owned), integer reserved instances r (committed from month 1),
continuous dispatch y[u,w,p] — how many units of u work on workload w in each hour of period p — and
a binary z that is 1 when any on-prem unit exists (only with a fixed monthly site cost).
The objective is the cost schedule discounted, times these variables (engine.schedule).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pulp

from planner.engine.constraints import define_caps
from planner.engine.inputs import Inputs
from planner.engine.schedule import COST_CATEGORIES


@dataclass
class Model:
    inputs: Inputs
    prob: pulp.LpProblem
    n: dict = field(default_factory=dict)      # card unit index -> integer units
    r: dict = field(default_factory=dict)      # reserved unit index -> integer units
    y: dict = field(default_factory=dict)      # (unit, workload, period) -> units working
    z: pulp.LpVariable | None = None            # any on-prem unit exists
    costs: dict = field(default_factory=dict)  # category -> affine expression (present value)
    build_seconds: float = 0.0

    def size(self) -> dict:
        ints = len(self.n) + len(self.r) + (1 if self.z is not None else 0)
        return {"variables": len(self.prob.variables()), "integer_variables": ints,
                "constraints": self.prob.numConstraints()}

    def card(self, sku: str) -> pulp.LpVariable | None:
        """The unit count of on-prem card `sku` (for extra constraints), or None when it is no candidate."""
        skus = self.inputs.col("sku")
        return next((n for i, n in self.n.items() if skus[i] == sku), None)


ExtraConstraints = Callable[[Model], None]


def _unit_bound(inp: Inputs, i: int) -> int:
    """Most units of `i` that can ever help: enough to serve all it can serve in the peak period."""
    served = inp.work[i] > 0
    if not served.any():
        return 0
    need = (inp.demand[:, served] / inp.work[i, served]).sum(axis=1).max()
    avail = inp.availability if inp.col("kind")[i] == "card" else 1.0
    return int(math.ceil(need / avail - 1e-9))


def define_card_counts(m: Model) -> None:
    """Integer units of each on-prem card, at least the units already owned."""
    inp = m.inputs
    kind, sku, existing, lo_units, buyable = (inp.col(c) for c in ("kind", "sku", "existing", "min_units", "buyable"))
    for i in np.flatnonzero(kind == "card"):
        lo = int(existing[i])
        # cards not listed in onprem.cards are only owned (or required by min_units): none are bought
        hi = max(lo, int(lo_units[i]), _unit_bound(inp, i) if buyable[i] else 0)
        m.n[i] = m.prob.add_variable(f"n_{sku[i]}", lowBound=lo, upBound=hi, cat="Integer")


def define_reservations(m: Model) -> None:
    """Integer reserved instances of each reservation offer, committed from month 1."""
    for i in np.flatnonzero(m.inputs.col("kind") == "reserved"):
        m.r[i] = m.prob.add_variable(f"r_{i}", lowBound=0, upBound=_unit_bound(m.inputs, i), cat="Integer")


def define_dispatch(m: Model) -> None:
    """Continuous units working on each compatible workload in each period."""
    inp = m.inputs
    for i, j in zip(*np.nonzero(inp.work > 0)):
        for p in range(len(inp.periods)):
            m.y[i, j, p] = m.prob.add_variable(f"y_{i}_{j}_{p}", lowBound=0)


def define_fixed_onprem_switch(m: Model) -> None:
    """A binary that is 1 whenever any on-prem unit exists (for the fixed monthly site cost)."""
    if not m.n or not (m.inputs.schedule.rows["driver"] == "site").any():
        return
    m.z = m.prob.add_variable("any_onprem", cat="Binary")
    for i, n in m.n.items():
        m.prob += (n <= (n.upBound or 0) * m.z, f"onprem_switch_{m.inputs.col('sku')[i]}")


def define_demand_balance(m: Model) -> None:
    """Work delivered to each workload covers its demand in every period."""
    inp = m.inputs
    terms: dict = {}
    for (i, j, p), var in m.y.items():
        terms.setdefault((j, p), []).append((var, inp.work[i, j]))
    # named by index: pulp turns spaces and dashes into "_", so workloads `a b` and `a-b` would clash
    for j in range(inp.work.shape[1]):
        for p in range(len(inp.periods)):
            if inp.demand[p, j] <= 0:
                continue
            m.prob += (pulp.LpAffineExpression(terms.get((j, p), [])) >= inp.demand[p, j],
                       f"demand_w{j}_{p}")


def _define_capacity(m: Model, counts: dict, share: float, name: str) -> None:
    busy: dict = {}
    for (i, _j, p), var in m.y.items():
        if i in counts:
            busy.setdefault((i, p), []).append((var, 1.0))
    for (i, p), terms in busy.items():
        m.prob += (pulp.LpAffineExpression(terms) <= share * counts[i], f"{name}_{i}_{p}")


def define_card_capacity(m: Model) -> None:
    """Cards work at most `availability` of every hour."""
    _define_capacity(m, m.n, m.inputs.availability, "card_capacity")


def define_reserved_capacity(m: Model) -> None:
    """Reserved instances work at most every hour."""
    _define_capacity(m, m.r, 1.0, "reserved_capacity")


def define_costs(m: Model) -> None:
    """Present value of each cost category: the cost schedule discounted, times the decisions."""
    inp = m.inputs
    d, sched = inp.discount, inp.schedule
    existing = inp.col("existing")
    terms: dict[str, list] = {c: [] for c in COST_CATEGORIES}
    const: dict[str, float] = dict.fromkeys(COST_CATEGORIES, 0.0)
    counts = list(m.n.items()) + list(m.r.items())
    busy = {c: rate for c, rate in sched.busy_present_values(inp.periods, d).items() if rate.any()}
    for c in COST_CATEGORIES:
        held = sched.unit_present_values("held", d, c)
        new = sched.unit_present_values("new", d, c)
        for i, n in counts:
            if held[i]:
                terms[c].append((n, held[i]))
            if new[i]:
                terms[c].append((n, new[i]))
                const[c] -= new[i] * existing[i]
        site = sched.site_present_value(d, c)
        if site and m.z is not None:
            terms[c].append((m.z, site))
    # each unit's busy hours are priced in one or two categories: find them once, not per variable
    priced = {i: [(c, rate[i]) for c, rate in busy.items() if rate[i].any()] for i in {k[0] for k in m.y}}
    for (i, _j, p), var in m.y.items():
        for c, rate in priced[i]:
            terms[c].append((var, rate[p]))
    m.costs = {c: pulp.LpAffineExpression(terms[c], constant=const[c]) for c in COST_CATEGORIES}
    m.prob += pulp.lpSum(m.costs.values())


def build_model(inp: Inputs, extra_constraints: ExtraConstraints | None = None) -> Model:
    """The MILP for `inp`; `extra_constraints(model)` may add constraints of its own at the end."""
    start = time.perf_counter()
    m = Model(inp, pulp.LpProblem("fleet", pulp.LpMinimize))
    define_card_counts(m)
    define_reservations(m)
    define_dispatch(m)
    define_fixed_onprem_switch(m)
    define_demand_balance(m)
    define_card_capacity(m)
    define_reserved_capacity(m)
    define_caps(m)
    define_costs(m)
    if extra_constraints is not None:
        extra_constraints(m)
    m.build_seconds = time.perf_counter() - start
    return m
