"""Demand periods: the hours the model balances supply and demand in.

`D(w,m) = gpu_hours_per_month × (1 + growth)^(m−1)` reference-GPU-hours in month m, shaped within the
month by the workload's weekly profile. A period is a set of months with one weekly-hour class: the
model's dispatch is the same in each of its hours.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from planner.engine.profiles import weekly_weights
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK, discount_factors


def monthly_demand(scenario) -> np.ndarray:
    """[H × W] reference-GPU-hours per month."""
    months = np.arange(scenario.horizon_months)[:, None]
    base = np.array([w.gpu_hours_per_month for w in scenario.workloads])[None, :]
    growth = np.array([w.growth_per_month for w in scenario.workloads])[None, :]
    return base * (1.0 + growth) ** months


def demand_periods(scenario, epoch_of_month: np.ndarray, merge: bool = True) -> tuple[pd.DataFrame, np.ndarray]:
    """(periods, demand_rate).

    periods: one row per period with `months` (tuple of month numbers), `epoch` (the fleet epoch of its
    months), `slot_hours` (hours per month the period covers), `n_months`, `discount_sum` (Σ d(m) over
    its months). demand_rate: [P × W] reference-GPU-hours per hour. With `merge`, weekly hours with equal
    weights for every workload are one slot class, and months with equal demand in the same fleet epoch
    are one group: the load-duration view, exact because capacity is the same in every month of an
    epoch and dispatch is linear.
    """
    weights = np.column_stack([weekly_weights(w.profile) for w in scenario.workloads])  # [168 × W]
    if merge:
        classes, counts = np.unique(np.round(weights, 12), axis=0, return_counts=True)
    else:
        classes, counts = weights, np.ones(HOURS_PER_WEEK, dtype=int)
    monthly = monthly_demand(scenario)
    d = discount_factors(scenario.discount_rate, scenario.horizon_months)
    groups: dict = {}
    for m in range(scenario.horizon_months):
        key = (int(epoch_of_month[m]), tuple(np.round(monthly[m], 9))) if merge else m
        groups.setdefault(key, []).append(m + 1)
    rows, rates = [], []
    for months in groups.values():
        for k in range(len(classes)):
            rows.append({"months": tuple(months), "epoch": int(epoch_of_month[months[0] - 1]),
                         "slot_hours": counts[k] * HOURS_PER_MONTH / HOURS_PER_WEEK,
                         "n_months": len(months), "discount_sum": float(sum(d[m - 1] for m in months))})
            rates.append(monthly[months[0] - 1] / HOURS_PER_MONTH * classes[k])
    return pd.DataFrame(rows), np.array(rates)
