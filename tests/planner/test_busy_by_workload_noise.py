"""Plan.busy_by_workload lists work, not a solver's round-off: a new-user audit (2026-12-06) found the row
`a100-80gb-pcie inference 5.893419e-12` for a card the plan never bought."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from planner.engine import readback


def test_round_off_hours_are_left_out_and_real_hours_kept(monkeypatch):
    units = pd.DataFrame({"kind": ["card", "card", "on_demand"], "sku": ["a100", "l40s", "g5"]})
    inp = SimpleNamespace(units=units, col=lambda name: units[name].to_numpy(), workload_names=["train", "api"],
                          periods=pd.DataFrame({"slot_hours": [730.0], "n_months": [12]}))
    # (unit, workload, period) and units busy per hour: a100 on api 6.7e-16 an hour = 5.9e-12 hours over 8,760
    keys = np.array([[0, 1, 0], [1, 0, 0], [2, 0, 0]])
    rates = np.array([5.893419e-12 / 8760, 0.5, 3.0])
    monkeypatch.setattr(readback, "_dispatch", lambda m: (keys, rates))
    busy = readback.busy_by_workload(inp, SimpleNamespace(y={"any": None}))
    # l40s: 0.5 of a card every hour of 730 × 12 = 4,380 hours; the instance row is no card's
    assert busy.to_dict("records") == [{"card": "l40s", "workload": "train", "busy_hours": 4380.0}]
