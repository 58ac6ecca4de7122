"""The break-even table says where its cloud rate rests on an estimated speed (a new-user audit, 2026-12-06: every
break-even row was held against the ND MI300X, whose speed is extrapolated from NVIDIA datasheets, with an empty note).

From industrial.yaml's plan and its speeds table: pretraining has no measured MI300X speed (the fit's estimate), so
its break-even against the MI300X offer is noted; evaluation's MI300X speed is the ratio of its reference metric
(source 'datasheet', the workload's own rule, not an estimate), so that row stays as it was.
"""

from __future__ import annotations

from pathlib import Path

from planner import plan

INDUSTRIAL = Path(__file__).resolve().parents[2] / "scenarios" / "industrial.yaml"


def test_a_break_even_held_against_an_estimated_speed_says_so_and_others_do_not():
    p = plan(INDUSTRIAL, baselines=False)
    sources = {(w, g): s for w, g, s in zip(p.speeds["workload"], p.speeds["gpu"], p.speeds["source"])}
    assert sources[("pretraining", "MI300X")] == "estimated" and sources[("evaluation", "MI300X")] == "datasheet"
    rows = {r["workload"]: r for r in p.break_even.to_dict("records")}
    assert rows["pretraining"]["cloud_offer"].endswith("Standard_ND96is_MI300X_v5:on_demand")   # the premise
    assert rows["pretraining"]["note"] == "MI300X's speed here is an estimate, not a measurement (speeds table)"
    assert rows["evaluation"]["cloud_offer"].endswith("Standard_ND96is_MI300X_v5:on_demand")
    assert rows["evaluation"]["note"] == ""
