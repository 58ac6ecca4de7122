"""`plan()`: scenario → offers → model → solution → Plan, with the baselines solved the same way."""

from __future__ import annotations

import math
import time
from dataclasses import replace

import numpy as np
import pandas as pd

from planner.errors import InfeasibleError
from planner.optimize import (Inputs, base_inputs, build_model, check_compatibility, explain_infeasible,
                              reduce, solve)
from planner.result import Plan, read_plan

CLOUD_KIND_LABEL = {"on_demand": "cloud on-demand", "spot": "cloud spot", "reserved": "cloud reserved"}


def _solve_model(inp: Inputs, solver: str, time_limit: float | None, explain: bool = True):
    """(model, solution) of `inp`; InfeasibleError with the reason when no fleet exists."""
    check_compatibility(inp)
    if not explain:
        unserved = _unserved(inp)
        if unserved:  # a baseline whose capacity type cannot hold some workload: no solve needed
            raise InfeasibleError(f"{inp.label}: no capacity of this type can serve {', '.join(unserved)}")
    model = build_model(inp)
    solution = solve(model, solver, time_limit)
    if solution.status not in ("optimal", "feasible"):
        # the explanation re-solves once per cap; baselines only say that the caps cannot be met
        why = explain_infeasible(inp, solver) if explain else _baseline_reason(inp)
        raise InfeasibleError(f"{inp.label}: {why}")
    return model, solution


def _unserved(inp: Inputs) -> list[str]:
    """Workloads that no unit may serve once unit limits are applied (cards capped at zero units)."""
    units = inp.units
    can_buy = units["buyable"].astype(bool) & (units["max_units"].isna() | (units["max_units"] > 0))
    usable = (units["kind"] != "card") | (units["existing"] > 0) | can_buy
    served = (inp.work[usable.to_numpy()] > 0).any(axis=0)
    return [name for name, ok in zip(inp.workload_names, served) if not ok]


def _baseline_reason(inp: Inputs) -> str:
    """Why a baseline has no fleet: a workload nothing of this type may serve, else the power cap
    (the only cap baselines keep)."""
    missing = _unserved(inp)
    if missing:
        return f"no capacity of this type can serve {', '.join(missing)}"
    if inp.caps.power_kw is not None:
        return f"the power cap of {inp.caps.power_kw:g} kW cannot be met with this capacity type"
    return "no fleet of this capacity type meets the scenario"


def _solve_inputs(inp: Inputs, solver: str, time_limit: float | None, explain: bool = True) -> Plan:
    model, solution = _solve_model(inp, solver, time_limit, explain)
    return read_plan(inp, model, solution)


def _variant(base: Inputs, label: str, keep_kinds: set[str], only_card: str | None = None,
             buy_cards: bool = True) -> Inputs:
    """A baseline: some capacity types only; caps that express preferences of the mix are dropped
    (capex budget, cloud share, min/max units) while the physical power cap stays. Owned cards stay."""
    units = base.units.copy()
    is_card = units["kind"] == "card"
    keep = units["kind"].isin(keep_kinds) | is_card
    if not buy_cards:
        no_new = is_card
    elif only_card:
        no_new = is_card & (units["sku"] != only_card)
    else:
        no_new = is_card & False
    units.loc[is_card, "min_units"] = 0
    units.loc[no_new, "max_units"] = units.loc[no_new, "existing"]
    units.loc[is_card & ~no_new, "max_units"] = math.nan
    inp = replace(base, units=units, label=label,
                  caps=replace(base.caps, capex_budget=None, max_cloud_share=None, unit_limits=True))
    mask = keep.to_numpy()
    exclusions = base.exclusions[base.exclusions["kind"].isin(keep_kinds | {"card"})]
    inp = replace(inp, units=inp.units[mask].reset_index(drop=True), work=inp.work[mask], exclusions=exclusions)
    return reduce(inp) if base.reduced else inp


def baseline_variants(base: Inputs) -> list[tuple[str, str, Inputs]]:
    """(group, label, inputs) for all-cloud, all-on-prem and every single capacity type."""
    kinds = [k for k in ("on_demand", "spot", "reserved") if (base.units["kind"] == k).any()]
    cards = list(base.units.loc[base.units["kind"] == "card", "sku"])
    out = [("all_cloud", "all cloud (no new hardware)", _variant(base, "all cloud", set(kinds), buy_cards=False)),
           ("all_onprem", "all on-prem (no cloud)", _variant(base, "all on-prem", set()))]
    for card in cards:
        out.append(("single", f"only {card}", _variant(base, f"only {card}", set(), only_card=card)))
    for kind in kinds:
        out.append(("single", f"only {CLOUD_KIND_LABEL[kind]}",
                    _variant(base, f"only {CLOUD_KIND_LABEL[kind]}", {kind}, buy_cards=False)))
    return out


def solve_baselines(base: Inputs, total: float, solver: str, time_limit: float | None) -> tuple[pd.DataFrame, dict]:
    """Baselines table (baseline, label, status, total, savings, savings_pct, note) and their Plans."""
    rows, plans, singles = [], {}, []
    variants = baseline_variants(base)
    outcomes = []
    for _, _, inp in variants:
        try:
            outcomes.append(_solve_model(inp, solver, time_limit, explain=False))
        except InfeasibleError as exc:
            outcomes.append(exc)
    for (group, label, inp), outcome in zip(variants, outcomes):
        if isinstance(outcome, InfeasibleError):
            row = {"baseline": group, "label": label, "status": "infeasible", "total": math.nan,
                   "note": str(outcome).split(": ", 1)[-1]}
        else:
            model, solution = outcome
            row = {"baseline": group, "label": label, "status": solution.status, "total": solution.objective,
                   "note": ""}
            if group == "single":  # only the best single type is read back into a Plan
                singles.append((solution.objective, label, inp, model, solution))
            else:
                plans[group] = read_plan(inp, model, solution)
        if group != "single":
            rows.append(row)
    if singles:
        best_total, label, inp, model, solution = min(singles, key=lambda t: (t[0], t[1]))
        p = plans["best_single"] = read_plan(inp, model, solution)
        best_total = p.total
        rows.append({"baseline": "best_single", "label": label, "status": p.status, "total": best_total, "note": ""})
    else:
        rows.append({"baseline": "best_single", "label": "", "status": "infeasible", "total": math.nan,
                     "note": "no single capacity type can serve every workload"})
    table = pd.DataFrame(rows)
    table["savings"] = table["total"] - total
    table["savings_pct"] = np.where(table["total"] > 0, table["savings"] / table["total"] * 100, np.nan)
    return table[["baseline", "label", "status", "total", "savings", "savings_pct", "note"]], plans


def plan(scenario, solver: str = "cbc", reduced: bool = True, baselines: bool = True,
         time_limit: float | None = None) -> Plan:
    """The cheapest fleet for `scenario`; raises InfeasibleError with the reason and the numbers."""
    t0 = time.perf_counter()
    base = base_inputs(scenario, merge_periods=reduced)
    t1 = time.perf_counter()
    inp = reduce(base) if reduced else base
    t2 = time.perf_counter()
    result = _solve_inputs(inp, solver, time_limit)
    result.scenario = scenario
    t3 = time.perf_counter()
    if baselines:
        result.baselines, result.baseline_plans = solve_baselines(base, result.total, solver, time_limit)
    result.solver["timings_seconds"] = {"prepare": round(t1 - t0, 4), "reduce": round(t2 - t1, 4),
                                        "build_solve_read": round(t3 - t2, 4),
                                        "baselines": round(time.perf_counter() - t3, 4)}
    return result
