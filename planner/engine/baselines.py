"""Baselines solved the same way as the plan: all cloud, all on-prem, and the best single capacity type.

A baseline keeps some capacity types only, the units already owned, and the caps marked
`in_baselines` (the physical power cap); caps that express preferences of the mix (capex budget, cloud
share, min/max units) are dropped.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd

from planner.engine.constraints import baseline_caps
from planner.engine.explain import check_compatibility, explain_infeasible, unserved
from planner.engine.inputs import Inputs
from planner.engine.model import ExtraConstraints, Model, build_model
from planner.engine.readback import read_plan
from planner.engine.reductions import reduce
from planner.engine.solve import Solution, solve
from planner.errors import InfeasibleError, SolverError

CLOUD_KIND_LABEL = {"on_demand": "cloud on-demand", "spot": "cloud spot", "reserved": "cloud reserved"}


def solve_inputs(inp: Inputs, solver: str, time_limit: float | None, explain: bool = True,
                 extra_constraints: ExtraConstraints | None = None) -> tuple[Model, Solution]:
    """(model, solution) of `inp`; InfeasibleError with the reason when no fleet exists."""
    check_compatibility(inp)
    if not explain:
        missing = unserved(inp)
        if missing:  # a baseline whose capacity type cannot hold some workload: no solve needed
            raise InfeasibleError(f"{inp.label}: no capacity of this type can serve {', '.join(missing)}")
    model = build_model(inp, extra_constraints)
    solution = solve(model, solver, time_limit)
    if solution.status == "not_solved":
        limit = f" within the time limit of {time_limit:g} s" if time_limit else ""
        raise SolverError(f"{inp.label}: solver {solver} found no fleet{limit} ({solution.seconds:.1f} s) and did not "
                          "prove that none exists; allow more time or try the other solver (--solver cbc or highs)")
    if solution.status not in ("optimal", "feasible"):
        # the explanation re-solves once per cap; baselines only say that the caps cannot be met
        why = explain_infeasible(inp, solver, extra_constraints) if explain else _baseline_reason(inp)
        raise InfeasibleError(f"{inp.label}: {why}")
    return model, solution


def _baseline_reason(inp: Inputs) -> str:
    """Why a baseline has no fleet: a workload nothing of this type may serve, else the caps it keeps."""
    missing = unserved(inp)
    if missing:
        return f"no capacity of this type can serve {', '.join(missing)}"
    if inp.caps.get("power_kw") is not None:
        return f"the power cap of {inp.caps['power_kw']:g} kW cannot be met with this capacity type"
    return "no fleet of this capacity type meets the scenario"


def _variant(base: Inputs, label: str, keep_kinds: set[str], only_card: str | None = None,
             buy_cards: bool = True) -> Inputs:
    """A baseline: some capacity types only, owned cards kept, only the caps baselines keep."""
    units = base.units.copy()
    is_card = units["kind"] == "card"
    if not buy_cards:
        no_new = is_card
    elif only_card:
        no_new = is_card & (units["sku"] != only_card)
    else:
        no_new = is_card & False
    # min/max units are dropped with the other preferences; "no new hardware" is a card not buyable
    units.loc[is_card, "min_units"] = 0
    units.loc[is_card, "max_units"] = math.nan
    units.loc[no_new, "buyable"] = False
    keep = (units["kind"].isin(keep_kinds) | is_card).to_numpy()
    exclusions = base.exclusions[base.exclusions["kind"].isin(keep_kinds | {"card"})]
    inp = replace(base, units=units, label=label, caps=baseline_caps(base.caps), exclusions=exclusions)
    inp = inp.keep(keep)
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


def solve_baselines(base: Inputs, total: float, solver: str, time_limit: float | None,
                    scenario=None) -> tuple[pd.DataFrame, dict]:
    """Baselines table (baseline, label, status, total, savings, savings_pct, note) and their Plans."""
    rows, plans, singles = [], {}, []
    variants = baseline_variants(base)
    outcomes = []
    for _, _, inp in variants:
        try:
            outcomes.append(solve_inputs(inp, solver, time_limit, explain=False))
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
                plans[group] = read_plan(inp, model, solution, scenario)
        if group != "single":
            rows.append(row)
    if singles:
        _, label, inp, model, solution = min(singles, key=lambda t: (t[0], t[1]))
        p = plans["best_single"] = read_plan(inp, model, solution, scenario)
        rows.append({"baseline": "best_single", "label": label, "status": p.status, "total": p.total, "note": ""})
    else:
        rows.append({"baseline": "best_single", "label": "", "status": "infeasible", "total": math.nan,
                     "note": "no single capacity type can serve every workload"})
    table = pd.DataFrame(rows)
    table["savings"] = table["total"] - total
    table["savings_pct"] = np.where(table["total"] > 0, table["savings"] / table["total"] * 100, np.nan)
    return table[["baseline", "label", "status", "total", "savings", "savings_pct", "note"]], plans
