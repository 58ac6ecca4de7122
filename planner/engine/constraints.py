"""The caps on a fleet, one record each. A record reads its limit from the scenario, adds its
constraint to a model, names the quantity it caps (minimised to explain an infeasible plan), words
that explanation, and says whether baselines keep it.

Adding a cap is adding a record to `CAPS` (and its field to the scenario model): the model builder,
the infeasibility explanation and the baselines all loop over this list.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulp

if TYPE_CHECKING:
    from planner.engine.inputs import Inputs
    from planner.engine.model import Model


@dataclass(frozen=True)
class Cap:
    name: str                                          # key in Inputs.caps
    read: Callable[[Any], Any]                         # the limit stated by a scenario; None = not set
    define: Callable[[Model, Any], None]               # add the constraint for a limit that is set
    in_baselines: bool                                 # True: physical, baselines keep it; False: a preference
    measure: Callable[[Model], pulp.LpAffineExpression] | None = None   # the capped quantity
    explain: Callable[[Any, float, str, Inputs], str] | None = None     # (limit, least needed, fleet, inputs)
    precheck: Callable[[Inputs], str | None] | None = None              # a reason found without solving


# ---------------------------------------------------------------------------------------------------
# The capped quantities


def new_capex(m: Model) -> pulp.LpAffineExpression:
    """New capex in the scenario currency: capex per unit bought × (n − owned), from the cost schedule."""
    capex = m.inputs.schedule.unit_totals("new", "capex")
    existing = m.inputs.col("existing")
    return pulp.lpSum(capex[i] * (n - int(existing[i])) for i, n in m.n.items())


def installed_kw(m: Model) -> pulp.LpAffineExpression:
    """Installed IT power in kW: Σ n × busy watts / 1000."""
    watts = m.inputs.col("busy_watts")
    return pulp.lpSum(watts[i] / 1000.0 * n for i, n in m.n.items())


def cloud_work(m: Model) -> pulp.LpAffineExpression:
    """Reference-GPU-hours delivered by cloud units over the horizon."""
    inp = m.inputs
    hours = (inp.periods["slot_hours"] * inp.periods["n_months"]).to_numpy()
    kind = inp.col("kind")
    return pulp.LpAffineExpression([(var, inp.work[i, j] * hours[p]) for (i, j, p), var in m.y.items()
                                    if kind[i] != "card"])


def cloud_share(m: Model) -> pulp.LpAffineExpression:
    """Share of all demanded work delivered by cloud units over the horizon."""
    return cloud_work(m) / max(m.inputs.total_demand(), 1e-12)


# ---------------------------------------------------------------------------------------------------
# Constraints


def _define_power(m: Model, limit: float) -> None:
    if m.n:
        m.prob += (installed_kw(m) <= limit, "power_cap")


def _define_capex(m: Model, limit: float) -> None:
    if m.n:
        m.prob += (new_capex(m) <= limit, "capex_budget")


def _define_cloud_share(m: Model, limit: float) -> None:
    m.prob += (cloud_work(m) <= limit * m.inputs.total_demand(), "max_cloud_share")


def _define_unit_limits(m: Model, _on: bool) -> None:
    """min_units / max_units per card."""
    inp = m.inputs
    sku, lo, hi = inp.col("sku"), inp.col("min_units"), inp.col("max_units")
    for i, n in m.n.items():
        if lo[i] > 0:
            m.prob += (n >= int(lo[i]), f"min_units_{sku[i]}")
        if not math.isnan(hi[i]):
            m.prob += (n <= int(hi[i]), f"max_units_{sku[i]}")


def _owned_above_max(inp: Inputs) -> str | None:
    units = inp.units
    for u in units[units["kind"] == "card"].itertuples():
        if not math.isnan(u.max_units) and u.existing > u.max_units:
            return f"max_units.{u.sku} = {u.max_units:g} < {u.existing} units already owned (onprem.existing)"
    return None


CAPS: list[Cap] = [
    Cap("power_kw", lambda s: s.onprem.power_cap_kw, _define_power, in_baselines=True, measure=installed_kw,
        explain=lambda limit, need, fleet, inp: f"power cap {limit:g} kW < {need:.2f} kW needed at the least: {fleet}"),
    Cap("capex_budget", lambda s: s.onprem.capex_budget, _define_capex, in_baselines=False, measure=new_capex,
        explain=lambda limit, need, fleet, inp: (f"capex budget {limit:,.0f} {inp.currency} < {need:,.0f} "
                                                 f"{inp.currency} needed at the least: {fleet}")),
    Cap("max_cloud_share", lambda s: s.constraints.max_cloud_share, _define_cloud_share, in_baselines=False,
        measure=cloud_share,
        explain=lambda limit, need, fleet, inp: (f"max_cloud_share {limit:g} < {need:.3f} needed at the least: "
                                                 f"on-prem capacity is limited to {fleet}")),
    Cap("unit_limits", lambda s: True, _define_unit_limits, in_baselines=False, precheck=_owned_above_max),
]


def read_caps(scenario) -> dict[str, Any]:
    """The limit of every cap as the scenario states it (None = not set)."""
    return {cap.name: cap.read(scenario) for cap in CAPS}


def baseline_caps(caps: dict[str, Any]) -> dict[str, Any]:
    """The caps a baseline keeps: the physical ones; preferences of the mix are dropped."""
    kept = {cap.name for cap in CAPS if cap.in_baselines}
    return {name: (limit if name in kept else None) for name, limit in caps.items()}


def define_caps(m: Model) -> None:
    """Every cap whose limit is set."""
    for cap in CAPS:
        limit = m.inputs.caps.get(cap.name)
        if limit is not None:
            cap.define(m, limit)
