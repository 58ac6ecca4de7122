"""Plan exports: the JSON object of `fleetplan plan --format json` (DESIGN section 8)."""

from __future__ import annotations

import math

import pandas as pd

from planner.result import Plan


def _clean(value):
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if hasattr(value, "item"):
        return _clean(value.item())
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def records(df: pd.DataFrame) -> list[dict]:
    """DataFrame rows as JSON-ready dicts (NaN and inf → null)."""
    return [_clean(row) for row in df.to_dict(orient="records")]


def plan_to_dict(plan: Plan) -> dict:
    """One JSON-ready object: status, currency, horizon, total, costs by category (credits negative,
    summing to total), fleet, monthly, baselines, break_even, utilisation, energy, solver, prices."""
    return _clean({
        "scenario": plan.scenario_name,
        "status": plan.status,
        "currency": plan.currency,
        "horizon_months": plan.horizon_months,
        "total": plan.total,
        "costs": dict(zip(plan.costs["category"], plan.costs["cost"])),
        "fleet": records(plan.fleet),
        "monthly": records(plan.monthly),
        "baselines": records(plan.baselines),
        "break_even": records(plan.break_even),
        "utilisation": records(plan.utilisation),
        "energy_kwh": plan.energy_kwh,
        "excluded_offers": records(plan.exclusions),
        "solver": plan.solver,
        "prices": plan.prices,
    })
