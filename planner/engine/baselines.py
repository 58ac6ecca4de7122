"""Baselines solved the same way as the plan: all cloud, all on-prem, and the best single capacity type.

A baseline keeps some capacity types only, the units already owned, and the caps marked
`in_baselines` (the physical power cap); caps that express preferences of the mix (capex budget, cloud
share, min/max units) are dropped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from planner.engine.constraints import baseline_caps
from planner.engine.explain import check_compatibility, explain_infeasible, unserved, unserved_by
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


@dataclass(frozen=True)
class Variant:
    """A baseline: the cloud kinds it keeps, and which cards it may buy (all, one, or none)."""

    group: str                  # all_cloud | all_onprem | single
    label: str                  # in the table
    name: str                   # in messages ("all cloud: …")
    keep_kinds: frozenset
    only_card: str | None = None
    buy_cards: bool = True

    def masks(self, base: Inputs) -> tuple[np.ndarray, np.ndarray]:
        """(units kept, units buyable) over the base's units; owned cards are always kept."""
        kind, sku = base.col("kind"), base.col("sku")
        is_card = kind == "card"
        if not self.buy_cards:
            no_new = is_card
        elif self.only_card:
            no_new = is_card & (sku != self.only_card)
        else:
            no_new = np.zeros(len(kind), dtype=bool)
        return np.isin(kind, list(self.keep_kinds)) | is_card, base.col("buyable").astype(bool) & ~no_new

    def inputs(self, base: Inputs) -> Inputs:
        """The baseline's inputs: its units, owned cards kept, only the caps baselines keep."""
        keep, buyable = self.masks(base)
        units = base.units.copy()
        # min/max units are dropped with the other preferences; "no new hardware" is a card not buyable
        is_card = units["kind"] == "card"
        units.loc[is_card, "min_units"] = 0
        units.loc[is_card, "max_units"] = math.nan
        units.loc[~buyable, "buyable"] = False
        exclusions = base.exclusions[base.exclusions["kind"].isin(self.keep_kinds | {"card"})]
        inp = replace(base, units=units, label=self.name, caps=baseline_caps(base.caps),
                      exclusions=exclusions)
        return inp.keep(keep)


def baseline_variants(base: Inputs) -> list[Variant]:
    """All-cloud, all-on-prem and every single capacity type."""
    kinds = [k for k in ("on_demand", "spot", "reserved") if (base.col("kind") == k).any()]
    cards = list(base.col("sku")[base.col("kind") == "card"])
    out = [Variant("all_cloud", "all cloud (no new hardware)", "all cloud", frozenset(kinds), buy_cards=False),
           Variant("all_onprem", "all on-prem (no cloud)", "all on-prem", frozenset())]
    out += [Variant("single", f"only {card}", f"only {card}", frozenset(), only_card=card) for card in cards]
    out += [Variant("single", f"only {CLOUD_KIND_LABEL[kind]}", f"only {CLOUD_KIND_LABEL[kind]}", frozenset({kind}),
                    buy_cards=False) for kind in kinds]
    return out


def _solve_variant(base: Inputs, variant: Variant, solver: str,
                   time_limit: float | None) -> tuple[Inputs, Model, Solution] | InfeasibleError:
    """(reduced inputs, model, solution) of a baseline, or the InfeasibleError that says why it has none.
    A workload that nothing of the baseline's type may serve is found from the masks alone, before its
    inputs are made: no inputs, no reduction, no solve."""
    keep, buyable = variant.masks(base)
    usable = keep & ((base.col("kind") != "card") | (base.col("existing") > 0) | buyable)
    missing = unserved_by(base, usable)
    try:
        if missing:
            if unserved_by(base, keep):   # no unit at all: the explanation names the offers left out
                check_compatibility(variant.inputs(base))
            raise InfeasibleError(f"{variant.name}: no capacity of this type can serve {', '.join(missing)}")
        inp = variant.inputs(base)
        inp = reduce(inp) if inp.reduced else inp
        return (inp, *solve_inputs(inp, solver, time_limit, explain=False))
    except InfeasibleError as exc:
        return exc


def solve_baselines(base: Inputs, total: float, solver: str, time_limit: float | None,
                    scenario=None, plans: bool = True) -> tuple[pd.DataFrame, dict]:
    """Baselines table (baseline, label, status, total, savings, savings_pct, note) and their Plans
    (all_cloud, all_onprem, best_single; none with `plans=False`, for callers that show the table only).

    Baselines that are the same model (one cloud kind only: all cloud is the best cloud kind; one card
    only: all on-prem is that card) are solved once."""
    rows, singles = [], []
    solved: dict = {}
    outcomes = []
    for variant in baseline_variants(base):
        keep, buyable = variant.masks(base)
        key = (keep.tobytes(), (buyable & keep).tobytes())   # the same units and buyable cards: the same model
        if key not in solved:
            solved[key] = _solve_variant(base, variant, solver, time_limit)
        outcomes.append((variant.group, variant.label, solved[key]))
    readable = {}
    for group, label, outcome in outcomes:
        if isinstance(outcome, InfeasibleError):
            row = {"baseline": group, "label": label, "status": "infeasible", "total": math.nan,
                   "note": str(outcome).split(": ", 1)[-1]}
        else:
            _, _, solution = outcome
            row = {"baseline": group, "label": label, "status": solution.status, "total": solution.objective,
                   "note": ""}
            if group == "single":  # only the best single type is read back into a Plan
                singles.append((solution.objective, label, outcome))
            else:
                readable[group] = outcome
        if group != "single":
            rows.append(row)
    if singles:
        objective, label, outcome = min(singles, key=lambda t: (t[0], t[1]))
        readable["best_single"] = outcome
        rows.append({"baseline": "best_single", "label": label, "status": outcome[2].status, "total": objective,
                     "note": ""})
    else:
        rows.append({"baseline": "best_single", "label": "", "status": "infeasible", "total": math.nan,
                     "note": "no single capacity type can serve every workload"})
    read = {}   # a model read back once, however many baselines it is
    plans_out = {}
    if plans:
        for group, (inp, model, solution) in readable.items():
            if id(model) not in read:
                read[id(model)] = read_plan(inp, model, solution, scenario)
            plans_out[group] = read[id(model)]
    table = pd.DataFrame(rows)
    table["savings"] = table["total"] - total
    table["savings_pct"] = np.where(table["total"] > 0, table["savings"] / table["total"] * 100, np.nan)
    return table[["baseline", "label", "status", "total", "savings", "savings_pct", "note"]], plans_out
