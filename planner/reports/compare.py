"""Two plans side by side: the inputs that differ, the fleets, the costs by category (b − a)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from planner.engine import Plan, plan
from planner.errors import PlannerError
from planner.reports.tables import clean, records
from planner.scenario import diff_inputs

FLEET_KEY = ["provider", "region", "sku", "gpu", "purchase_option"]


@dataclass
class Comparison:
    """Two plans side by side. Money in the plans' currency, present values; delta = b − a."""

    label_a: str
    label_b: str
    currency: str
    inputs: pd.DataFrame      # path, a, b — the assumptions that differ
    fleet: pd.DataFrame       # provider, region, sku, gpu, purchase_option, units_a/b, instance_hours_a/b,
                              # cost_a/b, cost_delta
    costs: pd.DataFrame       # category, cost_a, cost_b, cost_delta (credits negative)
    total_a: float
    total_b: float
    plan_a: Plan = field(repr=False)
    plan_b: Plan = field(repr=False)

    @property
    def total_delta(self) -> float:
        return self.total_b - self.total_a

    @property
    def totals(self) -> dict:
        pct = self.total_delta / self.total_a * 100 if self.total_a else math.nan
        return {"a": self.total_a, "b": self.total_b, "delta": self.total_delta, "delta_pct": pct}

    def to_dict(self) -> dict:
        return clean({"a": self.label_a, "b": self.label_b, "currency": self.currency,
                       "inputs": records(self.inputs), "fleet": records(self.fleet),
                       "costs": records(self.costs), "totals": self.totals})


def _as_plan(x: Any, solver: str, baselines: bool) -> Plan:
    if isinstance(x, Plan):
        if getattr(x, "scenario", None) is None:
            raise PlannerError("compare needs plans made by planner.plan() (they carry their scenario), "
                               "or scenarios")
        return x
    return plan(x, solver=solver, baselines=baselines)


def compare(a: Any, b: Any, solver: str = "cbc", baselines: bool = False) -> Comparison:
    """Compare two scenarios (Scenario, path, dict, YAML text) or two Plans from `plan()`.

    Reports the inputs that differ, the fleets side by side and the cost deltas by category (b − a).
    """
    pa, pb = _as_plan(a, solver, baselines), _as_plan(b, solver, baselines)
    if pa.currency != pb.currency:
        raise PlannerError(f"cannot compare plans in {pa.currency} and {pb.currency}; set the same currency")
    cols = FLEET_KEY + ["units", "instance_hours", "cost"]
    fa, fb = pa.fleet[cols], pb.fleet[cols]
    fleet = fa.merge(fb, on=FLEET_KEY, how="outer", suffixes=("_a", "_b"))
    order = list(dict.fromkeys([*map(tuple, fa[FLEET_KEY].to_numpy()), *map(tuple, fb[FLEET_KEY].to_numpy())]))
    fleet = fleet.set_index(FLEET_KEY).loc[order].reset_index()      # a's rows first, then b's new ones
    fleet[["cost_a", "cost_b"]] = fleet[["cost_a", "cost_b"]].fillna(0.0)
    fleet["cost_delta"] = fleet["cost_b"] - fleet["cost_a"]
    fleet = fleet[FLEET_KEY + ["units_a", "units_b", "instance_hours_a", "instance_hours_b",
                               "cost_a", "cost_b", "cost_delta"]].reset_index(drop=True)
    costs = pa.costs.merge(pb.costs, on="category", how="outer", suffixes=("_a", "_b")).fillna(0.0)
    cats = list(dict.fromkeys([*pa.costs["category"], *pb.costs["category"]]))
    costs = costs.set_index("category").loc[cats].reset_index()
    costs["cost_delta"] = costs["cost_b"] - costs["cost_a"]
    label_a, label_b = pa.scenario_name, pb.scenario_name
    if label_a == label_b:
        label_a, label_b = f"{label_a} (a)", f"{label_b} (b)"
    return Comparison(label_a, label_b, pa.currency, diff_inputs(pa.scenario, pb.scenario), fleet, costs,
                      pa.total, pb.total, pa, pb)
