"""Sweep throughput: plans per second for a 200-point sweep of scenarios/startup-hybrid.yaml
(20 electricity prices × 10 demand levels) on 2 local worker processes, baselines off.

Prints figures measured in this run (target: at least 20 plans per second) and where one plan's time
goes; nothing here asserts a time.
Run: make bench   (or .venv/bin/python benchmarks/sweep_speed.py [--processes N] [--solver highs] [--points N])
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from planner import load_scenario, sweep
from planner.engine import build_model, inputs_for, read_plan, reduce, solve

ROOT = Path(__file__).resolve().parents[1]
TARGET = 20.0


def grid(points: int) -> dict:
    n_elec = 20 if points >= 20 else points
    n_demand = max(1, points // n_elec)
    return {"onprem.electricity_per_kwh": [round(x, 4) for x in np.linspace(0.05, 0.40, n_elec)],
            "workloads.prototyping.gpu_hours_per_month": [float(x) for x in np.linspace(1000, 4000, n_demand)]}


def steps(scenario, solver: str, repeat: int = 10) -> None:
    """Where one plan's time goes (in this process, after a warm-up)."""
    times = {"prepare (offers, work matrix, demand)": 0.0, "reduce": 0.0, "build model": 0.0,
             "solve": 0.0, "read plan": 0.0}
    for k in range(repeat + 1):
        t0 = time.perf_counter()
        base = inputs_for(scenario)
        t1 = time.perf_counter()
        inp = reduce(base)
        t2 = time.perf_counter()
        model = build_model(inp)
        t3 = time.perf_counter()
        solution = solve(model, solver)
        t4 = time.perf_counter()
        read_plan(inp, model, solution)
        t5 = time.perf_counter()
        if k:   # the first run warms the price cache
            for name, dt in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
                times[name] += dt / repeat
    total = sum(times.values())
    print(f"one plan, {solver}, mean of {repeat} (this process):")
    for name, t in times.items():
        print(f"  {name:40s} {t * 1000:7.1f} ms  {t / total:5.1%}")
    print(f"  {'total':40s} {total * 1000:7.1f} ms  → {1 / total:.1f} plans/s per process")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--points", type=int, default=200)
    ap.add_argument("--solver", default="highs", choices=["cbc", "highs"])
    args = ap.parse_args()
    scenario = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    vary = grid(args.points)
    n = int(np.prod([len(v) for v in vary.values()]))

    start = time.perf_counter()
    table = sweep(scenario, vary, processes=args.processes, baselines=False, solver=args.solver)
    seconds = time.perf_counter() - start
    rate = n / seconds
    ok = int((table["status"] == "optimal").sum())
    print(f"sweep of startup-hybrid.yaml: {n} points ({ok} optimal), {args.processes} processes, "
          f"solver {args.solver}, baselines off")
    print(f"  {seconds:.2f} s → {rate:.1f} plans/s (target ≥ {TARGET:.0f}: "
          f"{'met' if rate >= TARGET else 'NOT met'})")

    few = {k: v[:2] for k, v in vary.items()}
    start = time.perf_counter()
    sweep(scenario, few, processes=1, baselines=False, solver=args.solver)
    serial = 4 / (time.perf_counter() - start)
    print(f"  in-process, one at a time: {serial:.1f} plans/s → parallel speed-up {rate / serial:.2f}×")
    steps(scenario, args.solver)


if __name__ == "__main__":
    main()
