"""The Plan: the recommended fleet and what it costs, as DataFrames with units in their column names.

A Plan carries everything its reports need — the scenario it was solved for, the offers and prices it
used (`offers`), and every cash flow (`flows`) — so no report reads a price source or the catalog again.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import pandas as pd

from planner.errors import PlannerError


class UnknownCostCategory(PlannerError, KeyError):
    """`Plan.cost` of a category that is not one: a KeyError too, as the table lookup it replaces raised."""

    def __str__(self) -> str:   # KeyError's would show the message quoted
        return str(self.args[0])


@dataclass
class Plan:
    """Money in `currency`; totals are present values."""

    scenario_name: str
    currency: str
    horizon_months: int
    status: str
    total: float
    costs: pd.DataFrame          # category, cost (present value; credits negative; sums to total)
    fleet: pd.DataFrame          # one row per unit bought, owned, reserved or rented (see read_plan)
    monthly: pd.DataFrame        # one row per month 1..H+1 (H+1: residual credit, payments after the horizon)
    utilisation: pd.DataFrame    # owned cards: units, busy_hours, owned_hours, utilisation, energy_kwh
    break_even: pd.DataFrame     # card × workload: utilisation at which owning beats the cheapest cloud
    exclusions: pd.DataFrame     # workload, provider, gpu, reason, offers (count)
    solver: dict
    prices: dict                 # source, as_of (newest), as_of_oldest, store snapshots, warning
    flows: pd.DataFrame          # every cash flow: unit, category, month, cost, present_value, pricing_quantity …
    offers: pd.DataFrame         # the units of the fleet with the prices used (scenario currency), as_of, source
    schedule: pd.DataFrame = field(default_factory=pd.DataFrame)   # month, card, action (buy|sell|switch off|retire) …
    installed: pd.DataFrame = field(default_factory=pd.DataFrame)  # month, card, gpu, units in service
    owned: pd.DataFrame = field(default_factory=pd.DataFrame)      # owned batches: kept, switched off, sold, saving
    # workload × GPU a unit of the plan's fleet or of a baseline's can serve: speed, source, used_by (plan, all_cloud …)
    speeds: pd.DataFrame = field(default_factory=pd.DataFrame)
    warnings: list = field(default_factory=list)                   # what the plan rests on that needs a look
    scenario: object = None      # the Scenario solved
    baselines: pd.DataFrame = field(default_factory=pd.DataFrame)
    baseline_plans: dict = field(default_factory=dict)
    # weekly hours grouped into load-duration blocks (engine.profile_slots): slots, weight_classes,
    # lower_bound, upper_bound (= total), error_bound (total − exact optimum is at most this),
    # error_bound_pct; None when the plan's periods are exact
    profile_grouping: dict | None = None
    # serving workloads (workloads[].serving): whole instances or cards per hour-of-week slot class — workload,
    # slot, hours_per_week, demand, unit_id, kind, sku, gpu, instances, capacity; empty without serving work
    serving: pd.DataFrame = field(default_factory=pd.DataFrame)
    # card, workload, busy_hours: hours each card type works for each workload over the horizon, in the
    # plan's dispatch (rows with hours only)
    busy_by_workload: pd.DataFrame = field(default_factory=pd.DataFrame)
    # what each decision is worth (engine.decisions, set by add_decisions): one row per purchase, reservation
    # and sale with the cost increase when it is forbidden; the runner-up (the best plan with a different
    # fleet: fleet, total, increase, increase_pct); close_call when the runner-up is within close_call_share;
    # flip_points: per card bought, the demand of the workload it mainly serves just below which not buying wins
    decisions: pd.DataFrame | None = None
    runner_up: dict | None = None
    close_call: bool | None = None
    flip_points: pd.DataFrame | None = None
    # what each limit the scenario sets costs the plan (engine.decisions' cap costs, set by add_decisions):
    # cap (the scenario field), limit, unit, the total without it, the saving, and whether it binds
    cap_costs: pd.DataFrame | None = None

    @property
    def energy_kwh(self) -> float:
        return float(self.utilisation["energy_kwh"].sum()) if len(self.utilisation) else 0.0

    def cost(self, category: str) -> float:
        """The present value of cost category `category` (one of COST_CATEGORIES; credits negative)."""
        costs = self.costs
        found = costs["category"] == category
        if not found.any():
            known = [str(c) for c in costs["category"]]
            near = difflib.get_close_matches(str(category), known, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            raise UnknownCostCategory(f"Plan.cost: unknown cost category {category!r}{hint} (categories: "
                                      f"{', '.join(known)})")
        return float(costs.loc[found, "cost"].iloc[0])
