"""The fleet MILP (DESIGN sections 5 and 6), built the PyPSA way: prepare inputs, then small `define_*`
functions that each add one family of variables or constraints, then solve, then read back (result.py).

Units are the ways of getting capacity: on-prem cards (integer count n ≥ owned), cloud reservations
(integer count r, committed from month 1 and renewed while the horizon runs), and on-demand / spot
instances (continuous). Dispatch y[u,w,p] is how many units of u work on workload w in period p.

Exact reductions (`reduced=True`; the unreduced model stays callable to check them):
- load-duration periods: weekly hours with equal weights for every workload merge into one slot
  class; months with equal demand merge into one group (capacity is constant, dispatch is linear);
- cheapest cloud fill: with no caps on cloud capacity, continuous offers reduce to the cheapest one
  per unit of delivered work for each workload (the cloud-share cap counts work, not offers);
- reservations pruned when one unit could never save more on-demand spend than it costs, or when
  another reservation delivers at least as much work to every workload for no more money.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import pulp

from planner import catalog
from planner.costs import HOURS_PER_MONTH
from planner.errors import InfeasibleError, PlannerError
from planner.workloads import check_reference_metrics, demand_periods, discount_factors, work_matrix

CLOUD_KINDS = ("on_demand", "spot", "reserved")
KIND_OF_OPTION = {"on_demand": "on_demand", "spot": "spot", "reserved_1y": "reserved", "reserved_3y": "reserved",
                  "savings_plan_1y": "reserved", "savings_plan_3y": "reserved"}
SOLVERS = ("cbc", "highs")
GAP_REL = 1e-9


@dataclass(frozen=True)
class Caps:
    """The scenario's caps; baselines drop some of them."""

    power_kw: float | None
    capex_budget: float | None
    max_cloud_share: float | None
    unit_limits: bool = True  # min_units / max_units


@dataclass
class Inputs:
    """Everything the model needs, in the scenario currency, one row per unit."""

    scenario: object
    units: pd.DataFrame          # see prepare_inputs
    work: np.ndarray             # [U × W] reference-GPU-hours per unit-hour
    periods: pd.DataFrame        # months, slot_hours, n_months, discount_sum
    demand: np.ndarray           # [P × W] reference-GPU-hours per hour
    exclusions: pd.DataFrame     # workload, unit_id, provider, sku, gpu, reason
    caps: Caps
    reduced: bool
    pruned: dict = field(default_factory=dict)   # reduction -> units removed
    label: str = "recommended"
    prices: dict = field(default_factory=dict)   # provenance of the prices (catalog.price_table)

    def col(self, name: str) -> np.ndarray:
        """A column of `units` as an array (row lookups in hot loops without pandas overhead)."""
        # Inputs are never changed in place (`replace` makes a new one), so the cache cannot go stale.
        cache = self.__dict__.setdefault("_cols", {})
        if name not in cache:
            cache[name] = self.units[name].to_numpy()
        return cache[name]

    @property
    def workload_names(self) -> list[str]:
        return [w.name for w in self.scenario.workloads]


# ---------------------------------------------------------------------------------------------------
# Inputs


def _reservation_pv(scenario, hourly: float, upfront: float, term_months: int) -> float:
    """Present value of one reserved instance over the horizon: each term paid in full, renewed while
    the horizon runs; upfront at each term's start, hourly × 730 in each month of the term."""
    terms = math.ceil(scenario.horizon_months / term_months)
    d = discount_factors(scenario, terms * term_months + 1)
    pv = 0.0
    for k in range(terms):
        start = k * term_months
        pv += upfront * d[start] + hourly * HOURS_PER_MONTH * d[start:start + term_months].sum()
    return pv


UNIT_COLUMNS = ["unit_id", "kind", "provider", "region", "sku", "purchase_option", "gpu", "gpu_known",
                "accelerator_name", "gpu_count", "gpu_memory_gb", "cards_per_server", "hourly", "upfront",
                "term_months", "commit_pv", "capex", "residual_share", "maintenance_per_month",
                "idle_energy_per_month", "busy_energy_per_hour", "colocation_per_month", "busy_watts",
                "idle_watts", "existing", "min_units", "max_units", "buyable", "as_of", "source"]


def _card_units(scenario) -> pd.DataFrame:
    """The scenario's cards as units, with the per-unit cost coefficients of the model."""
    o = scenario.onprem
    cards = catalog.site_cards(scenario)
    gpus = catalog.load_gpus()
    H = scenario.horizon_months
    rows = []
    for c in cards.itertuples(index=False):
        residual_share = max(0.0, 1.0 - H / (12.0 * c.life_years))
        rows.append({
            "unit_id": f"onprem:onprem:{c.card_id}:purchase", "kind": "card", "provider": "onprem",
            "region": "onprem", "sku": c.card_id, "purchase_option": "purchase", "gpu": c.gpu,
            "gpu_known": True, "accelerator_name": c.gpu, "gpu_count": 1.0,
            "gpu_memory_gb": float(gpus.loc[c.gpu, "memory_gb"]), "cards_per_server": c.cards_per_server,
            "hourly": 0.0, "upfront": 0.0, "term_months": 0, "commit_pv": 0.0,
            "capex": c.capex, "residual_share": residual_share,
            "maintenance_per_month": c.capex * c.maintenance_rate_per_year / 12.0,
            "idle_energy_per_month": c.idle_watts / 1000.0 * HOURS_PER_MONTH * o.pue * o.electricity_per_kwh,
            "busy_energy_per_hour": (c.busy_watts - c.idle_watts) / 1000.0 * o.pue * o.electricity_per_kwh,
            "colocation_per_month": c.busy_watts / 1000.0 * o.colocation_per_kw_month,
            "busy_watts": c.busy_watts, "idle_watts": c.idle_watts,
            "existing": c.existing, "min_units": c.min_units, "max_units": c.max_units, "buyable": c.buyable,
            "as_of": c.as_of, "source": c.source,
        })
    return pd.DataFrame(rows, columns=UNIT_COLUMNS)


def _cloud_units(scenario, prices: pd.DataFrame) -> pd.DataFrame:
    """The scenario's allowed cloud offers as units (money in the scenario currency)."""
    cloud = catalog.cloud_offers(scenario, prices)
    cloud = cloud[cloud["purchase_option"].isin(KIND_OF_OPTION)]
    kind = cloud["purchase_option"].map(KIND_OF_OPTION).to_numpy(dtype=object)
    reserved = kind == "reserved"
    default_term = np.where(cloud["purchase_option"].str.endswith("1y").to_numpy(dtype=bool), 12, 36)
    given = cloud["term_months"].to_numpy()
    term = np.where(reserved, np.where(given > 0, given, default_term), 0).astype(int)
    hourly, upfront = cloud["hourly_price"].to_numpy(), cloud["upfront_price"].to_numpy()
    commit_pv = np.zeros(len(cloud))
    for i in np.nonzero(reserved)[0]:
        commit_pv[i] = _reservation_pv(scenario, hourly[i], upfront[i], int(term[i]))
    zeros = np.zeros(len(cloud))
    offers = pd.DataFrame({
        "unit_id": cloud["offer_id"].to_numpy(dtype=object), "kind": kind,
        **{c: cloud[c].to_numpy(dtype=object) for c in ("provider", "region", "sku", "purchase_option", "gpu")},
        "gpu_known": cloud["gpu_known"].to_numpy(dtype=bool),
        "accelerator_name": cloud["accelerator_name"].to_numpy(dtype=object),
        "gpu_count": cloud["gpu_count"].to_numpy(dtype=float), "gpu_memory_gb": cloud["gpu_memory_gb"].to_numpy(dtype=float),
        "cards_per_server": np.nan, "hourly": hourly, "upfront": upfront, "term_months": term,
        "commit_pv": commit_pv, "capex": zeros, "residual_share": zeros, "maintenance_per_month": zeros,
        "idle_energy_per_month": zeros, "busy_energy_per_hour": zeros, "colocation_per_month": zeros,
        "busy_watts": zeros, "idle_watts": zeros, "existing": 0, "min_units": 0, "max_units": np.nan,
        "buyable": False,
        "as_of": cloud["as_of"].to_numpy(dtype=object), "source": cloud["source"].to_numpy(dtype=object),
    })
    return offers[UNIT_COLUMNS]


_CLOUD_CACHE: dict = {}
_CLOUD_CACHE_SIZE = 16


def _cloud_part(scenario, prices: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame, int]:
    """(cloud units that serve some workload, their work matrix, exclusions, offers dropped).

    Cached on everything it depends on — the price table, allowed offers, currency, horizon, discount
    rate and the workloads' capability fields — so a sweep over demand or site costs reuses it.
    """
    capability = [w.model_dump_json(exclude={"gpu_hours_per_month", "growth_per_month", "profile"})
                  for w in scenario.workloads]
    key = (id(prices), scenario.prices.model_dump_json(), scenario.currency, tuple(sorted(scenario.fx.items())),
           scenario.horizon_months, scenario.discount_rate, tuple(capability))
    hit = _CLOUD_CACHE.get(key)
    if hit is not None and hit[0] is prices:  # the table object itself: its id cannot have been reused
        return hit[1]
    units = _cloud_units(scenario, prices)
    work, exclusions = work_matrix(scenario, units)
    useful = (work > 0).any(axis=1)
    value = (units[useful].reset_index(drop=True), work[useful], exclusions, int((~useful).sum()))
    if len(_CLOUD_CACHE) >= _CLOUD_CACHE_SIZE:
        _CLOUD_CACHE.pop(next(iter(_CLOUD_CACHE)))
    _CLOUD_CACHE[key] = (prices, value)
    return value


def _continuous_cost_per_work(inp: Inputs) -> np.ndarray:
    """[U × W] cost of one reference-GPU-hour of work from each continuous unit (inf where it cannot)."""
    units = inp.units
    cont = units["kind"].isin(["on_demand", "spot"]).to_numpy()[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = units["hourly"].to_numpy()[:, None] / inp.work
    return np.where(cont & (inp.work > 0), cost, np.inf)


def _keep(inp: Inputs, mask: np.ndarray, reduction: str) -> Inputs:
    removed = int((~mask).sum())
    pruned = dict(inp.pruned)
    if removed:
        pruned[reduction] = pruned.get(reduction, 0) + removed
    return replace(inp, units=inp.units[mask].reset_index(drop=True), work=inp.work[mask], pruned=pruned)


def reduce_cheapest_cloud_fill(inp: Inputs) -> Inputs:
    """Keep, per workload, only the continuous offer with the lowest cost per delivered work."""
    cost = _continuous_cost_per_work(inp)
    cont = inp.units["kind"].isin(["on_demand", "spot"]).to_numpy()
    keep = ~cont
    order = np.lexsort((inp.units["unit_id"].to_numpy(),))  # ties: lowest unit_id wins
    for j in range(inp.work.shape[1]):
        col = cost[order, j]
        if np.isfinite(col).any():
            keep[order[int(np.argmin(col))]] = True
    return _keep(inp, keep, "cloud offers beaten by a cheaper fill")


def reduce_reservations(inp: Inputs) -> Inputs:
    """Drop reservations that can never pay for themselves, then those dominated by another."""
    units = inp.units
    res = (units["kind"] == "reserved").to_numpy()
    if not res.any():
        return inp
    best = _continuous_cost_per_work(inp).min(axis=0)          # [W]
    period_weight = (inp.periods["slot_hours"] * inp.periods["discount_sum"]).sum()
    with np.errstate(invalid="ignore"):
        best_value_per_hour = np.nanmax(np.where(inp.work > 0, inp.work * best[None, :], 0.0), axis=1)
    value = best_value_per_hour * period_weight
    keep = ~res | (units["commit_pv"].to_numpy() < value)
    inp = _keep(inp, keep, "reservations never cheaper than on-demand")
    units, work = inp.units, inp.work
    res_idx = [i for i in np.argsort(units["commit_pv"].to_numpy(), kind="stable") if inp.col("kind")[i] == "reserved"]
    kept: list[int] = []
    keep = np.ones(len(units), dtype=bool)
    for i in res_idx:
        if any((work[k] >= work[i]).all() and inp.col("commit_pv")[k] <= inp.col("commit_pv")[i] for k in kept):
            keep[i] = False
        else:
            kept.append(i)
    return _keep(inp, keep, "reservations dominated by another")


def base_inputs(scenario, merge_periods: bool = True) -> Inputs:
    """Units, work matrix, periods and demand for `scenario`, before any offer is pruned."""
    check_reference_metrics(scenario)
    cards = _card_units(scenario)
    card_work, card_exclusions = work_matrix(scenario, cards)
    # Cloud units that serve no workload add nothing to any model: the cached part has dropped them.
    # Prices are read once per plan: the provenance (which snapshot, its age) describes these rows.
    prices, provenance = catalog.price_table(scenario.prices.source)
    cloud, cloud_work, cloud_exclusions, dropped = _cloud_part(scenario, prices)
    units = pd.concat([cards, cloud], ignore_index=True) if len(cards) else cloud
    work = np.vstack([card_work, cloud_work])
    exclusions = pd.concat([card_exclusions, cloud_exclusions], ignore_index=True)
    periods, demand = demand_periods(scenario, merge=merge_periods)
    o, c = scenario.onprem, scenario.constraints
    pruned = {"cloud offers that serve no workload": dropped} if dropped else {}
    return Inputs(scenario, units, work, periods, demand, exclusions,
                  Caps(o.power_cap_kw, o.capex_budget, c.max_cloud_share), merge_periods, pruned,
                  prices=provenance)


def reduce(inp: Inputs) -> Inputs:
    """The exact offer reductions (periods are merged in `base_inputs`)."""
    return reduce_reservations(reduce_cheapest_cloud_fill(inp))


def prepare_inputs(scenario, reduced: bool = True) -> Inputs:
    """Inputs of the reduced model, or of the unreduced one (every offer, every month × weekly hour)."""
    inp = base_inputs(scenario, merge_periods=reduced)
    return reduce(inp) if reduced else inp


# ---------------------------------------------------------------------------------------------------
# Model


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


def _unit_bound(inp: Inputs, i: int) -> int:
    """Most units of `i` that can ever help: enough to serve all it can serve in the peak period."""
    served = inp.work[i] > 0
    if not served.any():
        return 0
    need = (inp.demand[:, served] / inp.work[i, served]).sum(axis=1).max()
    avail = inp.scenario.onprem.availability if inp.col("kind")[i] == "card" else 1.0
    return int(math.ceil(need / avail - 1e-9))


def define_card_counts(m: Model) -> None:
    """Integer units of each on-prem card, at least the units already owned."""
    for i, u in m.inputs.units.iterrows():
        if u.kind != "card":
            continue
        lo = int(u.existing)
        # cards not listed in onprem.cards are only owned (or required by min_units): none are bought
        hi = max(lo, int(u.min_units), _unit_bound(m.inputs, i) if u.buyable else 0)
        m.n[i] = m.prob.add_variable(f"n_{u.sku}", lowBound=lo, upBound=hi, cat="Integer")


def define_reservations(m: Model) -> None:
    """Integer reserved instances of each reservation offer, committed from month 1."""
    for i, u in m.inputs.units.iterrows():
        if u.kind == "reserved":
            m.r[i] = m.prob.add_variable(f"r_{i}", lowBound=0, upBound=_unit_bound(m.inputs, i), cat="Integer")


def define_dispatch(m: Model) -> None:
    """Continuous units working on each compatible workload in each period."""
    inp = m.inputs
    for i, j in zip(*np.nonzero(inp.work > 0)):
        for p in range(len(inp.periods)):
            m.y[i, j, p] = m.prob.add_variable(f"y_{i}_{j}_{p}", lowBound=0)


def define_fixed_onprem_switch(m: Model) -> None:
    """A binary that is 1 whenever any on-prem unit exists (for the fixed monthly site cost)."""
    if m.inputs.scenario.onprem.fixed_onprem_per_month <= 0 or not m.n:
        return
    m.z = m.prob.add_variable("any_onprem", cat="Binary")
    for i, n in m.n.items():
        m.prob += (n <= (n.upBound or 0) * m.z, f"onprem_switch_{m.inputs.units.at[i, 'sku']}")


def define_demand_balance(m: Model) -> None:
    """Work delivered to each workload covers its demand in every period."""
    inp = m.inputs
    terms: dict = {}
    for (i, j, p), var in m.y.items():
        terms.setdefault((j, p), []).append((var, inp.work[i, j]))
    names = inp.workload_names
    for j in range(inp.work.shape[1]):
        for p in range(len(inp.periods)):
            if inp.demand[p, j] <= 0:
                continue
            m.prob += (pulp.LpAffineExpression(terms.get((j, p), [])) >= inp.demand[p, j],
                       f"demand_{names[j]}_{p}")


def define_card_capacity(m: Model) -> None:
    """Cards work at most `availability` of every hour."""
    _define_capacity(m, m.n, m.inputs.scenario.onprem.availability, "card_capacity")


def define_reserved_capacity(m: Model) -> None:
    """Reserved instances work at most every hour."""
    _define_capacity(m, m.r, 1.0, "reserved_capacity")


def _define_capacity(m: Model, counts: dict, share: float, name: str) -> None:
    busy: dict = {}
    for (i, j, p), var in m.y.items():
        if i in counts:
            busy.setdefault((i, p), []).append((var, 1.0))
    for (i, p), terms in busy.items():
        m.prob += (pulp.LpAffineExpression(terms) <= share * counts[i], f"{name}_{i}_{p}")


def capex_expression(m: Model) -> pulp.LpAffineExpression:
    """New capex: Σ capex × (n − owned)."""
    inp = m.inputs
    return pulp.lpSum(inp.col("capex")[i] * (n - int(inp.col("existing")[i])) for i, n in m.n.items())


def power_expression(m: Model) -> pulp.LpAffineExpression:
    """Installed IT power in kW: Σ n × busy watts / 1000."""
    inp = m.inputs
    return pulp.lpSum(inp.col("busy_watts")[i] / 1000.0 * n for i, n in m.n.items())


def cloud_work_expression(m: Model) -> pulp.LpAffineExpression:
    """Reference-GPU-hours delivered by cloud units over the horizon."""
    inp = m.inputs
    hours = (inp.periods["slot_hours"] * inp.periods["n_months"]).to_numpy()
    return pulp.LpAffineExpression([(var, inp.work[i, j] * hours[p]) for (i, j, p), var in m.y.items()
                                    if inp.col("kind")[i] in CLOUD_KINDS])


def total_demand(inp: Inputs) -> float:
    """Reference-GPU-hours demanded over the horizon."""
    hours = (inp.periods["slot_hours"] * inp.periods["n_months"]).to_numpy()
    return float((inp.demand * hours[:, None]).sum())


def define_capex_budget(m: Model) -> None:
    """New capex within the budget."""
    if m.inputs.caps.capex_budget is not None and m.n:
        m.prob += (capex_expression(m) <= m.inputs.caps.capex_budget, "capex_budget")


def define_power_cap(m: Model) -> None:
    """Installed IT power within the cap."""
    if m.inputs.caps.power_kw is not None and m.n:
        m.prob += (power_expression(m) <= m.inputs.caps.power_kw, "power_cap")


def define_unit_limits(m: Model) -> None:
    """min_units / max_units per card."""
    if not m.inputs.caps.unit_limits:
        return
    inp = m.inputs
    for i, n in m.n.items():
        sku = inp.col("sku")[i]
        if inp.col("min_units")[i] > 0:
            m.prob += (n >= int(inp.col("min_units")[i]), f"min_units_{sku}")
        if not math.isnan(inp.col("max_units")[i]):
            m.prob += (n <= int(inp.col("max_units")[i]), f"max_units_{sku}")


def define_cloud_share(m: Model) -> None:
    """Cloud work at most the allowed share of all demand."""
    share = m.inputs.caps.max_cloud_share
    if share is not None:
        m.prob += (cloud_work_expression(m) <= share * total_demand(m.inputs), "max_cloud_share")


def define_costs(m: Model) -> None:
    """Present value of each cost category (DESIGN section 5); the objective is their sum."""
    inp = m.inputs
    s, units, periods = inp.scenario, inp.units, inp.periods
    H = s.horizon_months
    d = discount_factors(s)
    months_pv = float(d[:H].sum())
    residual_pv = float(d[H])
    per_hour = (periods["slot_hours"] * periods["discount_sum"]).to_numpy()
    cat: dict[str, list] = {k: [] for k in ("capex", "residual_value", "maintenance", "energy", "colocation",
                                            "fixed_onprem", "cloud_reserved", "cloud_on_demand", "cloud_spot")}
    const: dict[str, float] = {k: 0.0 for k in cat}
    for i, n in m.n.items():
        u = units.loc[i]
        cat["capex"].append((n, u.capex))
        const["capex"] -= u.capex * u.existing
        cat["residual_value"].append((n, -u.capex * u.residual_share * residual_pv))
        const["residual_value"] += u.capex * u.residual_share * residual_pv * u.existing
        cat["maintenance"].append((n, u.maintenance_per_month * months_pv))
        cat["energy"].append((n, u.idle_energy_per_month * months_pv))
        cat["colocation"].append((n, u.colocation_per_month * months_pv))
    if m.z is not None:
        cat["fixed_onprem"].append((m.z, s.onprem.fixed_onprem_per_month * months_pv))
    for i, r in m.r.items():
        cat["cloud_reserved"].append((r, inp.col("commit_pv")[i]))
    for (i, j, p), var in m.y.items():
        kind = inp.col("kind")[i]
        if kind == "card":
            cat["energy"].append((var, inp.col("busy_energy_per_hour")[i] * per_hour[p]))
        elif kind in ("on_demand", "spot"):
            cat[f"cloud_{kind}"].append((var, inp.col("hourly")[i] * per_hour[p]))
    m.costs = {k: pulp.LpAffineExpression(v, constant=const[k]) for k, v in cat.items()}
    m.prob += pulp.lpSum(m.costs.values())


def build_model(inp: Inputs) -> Model:
    """The MILP for `inp`; reading the calls below tells what the model is."""
    start = time.perf_counter()
    m = Model(inp, pulp.LpProblem("fleet", pulp.LpMinimize))
    define_card_counts(m)
    define_reservations(m)
    define_dispatch(m)
    define_fixed_onprem_switch(m)
    define_demand_balance(m)
    define_card_capacity(m)
    define_reserved_capacity(m)
    define_capex_budget(m)
    define_power_cap(m)
    define_unit_limits(m)
    define_cloud_share(m)
    define_costs(m)
    m.build_seconds = time.perf_counter() - start
    return m


# ---------------------------------------------------------------------------------------------------
# Solve


@dataclass(frozen=True)
class Solution:
    status: str          # optimal | feasible (limit reached) | infeasible | unbounded | not_solved
    objective: float
    solver: str
    seconds: float
    gap: float | None


def _solver(name: str, time_limit: float | None):
    if name == "cbc":
        # The models hold a few dozen integers at most (cards, reservations) over a large LP: CBC's cut
        # generation costs 5× the solve there and branch and bound still proves the optimum without it.
        return pulp.PULP_CBC_CMD(msg=False, gapRel=GAP_REL, timeLimit=time_limit, options=["cuts off"])
    if name == "highs":
        return pulp.HiGHS(msg=False, gapRel=GAP_REL, timeLimit=time_limit)
    raise PlannerError(f"unknown solver {name!r}; expected one of {', '.join(SOLVERS)}")


@contextlib.contextmanager
def _stdout_to_stderr():
    """Native solver libraries write banners to file descriptor 1; JSON and CSV on stdout stay clean."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no real stdout (embedded hosts)
        yield
        return
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def solve(m: Model, solver: str = "cbc", time_limit: float | None = None) -> Solution:
    """Solve the model in place; the status says whether the values are a proven optimum."""
    start = time.perf_counter()
    with _stdout_to_stderr():
        m.prob.solve(_solver(solver, time_limit))
    seconds = time.perf_counter() - start
    status = {1: "optimal", 2: "feasible", 0: "not_solved", -1: "infeasible", -2: "unbounded", -3: "not_solved"
              }.get(m.prob.sol_status, "not_solved")
    if status == "optimal" and pulp.LpStatus[m.prob.status] != "Optimal":
        status = "infeasible"
    gap = None
    if solver == "highs" and getattr(m.prob, "solverModel", None) is not None:
        try:
            gap = float(m.prob.solverModel.getInfo().mip_gap)
            gap = 0.0 if not math.isfinite(gap) or (status == "optimal" and not m.n and not m.r) else gap
        except Exception:  # noqa: BLE001 - gap is informative only
            gap = None
    if gap is None and status == "optimal":
        gap = 0.0  # proven within GAP_REL
    objective = float(pulp.value(m.prob.objective) or 0.0) if status in ("optimal", "feasible") else math.nan
    return Solution(status, objective, solver, seconds, gap)


# ---------------------------------------------------------------------------------------------------
# Infeasibility: say which workload or cap, with the numbers


def check_compatibility(inp: Inputs) -> None:
    """Raise when a workload has no unit at all that can serve it."""
    for j, name in enumerate(inp.workload_names):
        if (inp.work[:, j] > 0).any():
            continue
        w = inp.scenario.workloads[j]
        ex = inp.exclusions[inp.exclusions["workload"] == name]
        counts = ex.groupby("reason")["unit_id"].count().sort_values(ascending=False)
        reasons = "; ".join(f"{reason} ({n} offer{'s' if n != 1 else ''})" for reason, n in counts.head(5).items())
        needs = [f"≥ {w.min_gpu_memory_gb:g} GB", f"{w.gpus_per_job} GPU(s) per job"]
        if w.framework:
            needs.append(w.framework)
        if w.min_compute_capability:
            needs.append(f"compute capability ≥ {w.min_compute_capability:g}")
        raise InfeasibleError(f"workload {name} ({', '.join(needs)}) has no compatible offer among the "
                              f"{ex['unit_id'].nunique()} allowed offers and cards: "
                              f"{reasons or 'no offers or cards allowed'}")


def _fleet_text(m: Model, values: dict) -> str:
    units = m.inputs.units
    parts = [f"{int(round(v))} × {units.at[i, 'gpu']} ({units.at[i, 'busy_watts']:g} W, "
             f"{units.at[i, 'capex']:,.0f} {m.inputs.scenario.currency})"
             for i, v in values.items() if round(v) > 0]
    return " + ".join(parts) or "no on-prem units"


def _minimum_of(inp: Inputs, cap: str, solver: str) -> tuple[float, Model] | None:
    """The least value of a capped quantity over fleets meeting every other constraint."""
    relaxed = replace(inp, caps=replace(inp.caps, **{cap: None}))
    m = build_model(relaxed)
    expr = {"power_kw": power_expression, "capex_budget": capex_expression,
            "max_cloud_share": lambda mm: cloud_work_expression(mm) / max(total_demand(inp), 1e-12)}[cap](m)
    m.prob.setObjective(expr)
    sol = solve(m, solver)
    if sol.status not in ("optimal", "feasible"):
        return None
    return float(pulp.value(expr) or 0.0), m


def explain_infeasible(inp: Inputs, solver: str = "cbc") -> str:
    """Which cap cannot be met, with the numbers; tried one cap at a time."""
    c = inp.caps
    s = inp.scenario
    units = inp.units
    owned = {i: max(int(u.existing), int(u.min_units) if c.unit_limits else 0)
             for i, u in units.iterrows() if u.kind == "card"}
    if c.unit_limits:
        for i, u in units.iterrows():
            if u.kind == "card" and not math.isnan(u.max_units) and u.existing > u.max_units:
                return (f"max_units.{u.sku} = {u.max_units:g} < {u.existing} units already owned "
                        f"(onprem.existing)")
    messages = []
    for cap, label in (("power_kw", "power cap"), ("capex_budget", "capex budget"),
                       ("max_cloud_share", "max_cloud_share")):
        limit = getattr(c, cap)
        if limit is None:
            continue
        found = _minimum_of(inp, cap, solver)
        if found is None:
            continue
        need, m = found
        fleet = _fleet_text(m, {i: n.varValue or 0 for i, n in m.n.items()})
        if cap == "power_kw":
            messages.append(f"power cap {limit:g} kW < {need:.2f} kW needed at the least: {fleet}")
        elif cap == "capex_budget":
            messages.append(f"capex budget {limit:,.0f} {s.currency} < {need:,.0f} {s.currency} needed at "
                            f"the least: {fleet}")
        else:
            messages.append(f"max_cloud_share {limit:g} < {need:.3f} needed at the least: on-prem capacity "
                            f"is limited to {fleet}")
    if messages:
        return "; or ".join(messages)
    fixed = _fleet_text(Model(inp, None), owned) if owned else "none"
    return (f"no fleet meets all caps together (power {c.power_kw} kW, budget {c.capex_budget}, cloud share "
            f"{c.max_cloud_share}; units owned or required: {fixed}); relax one or more of them")
