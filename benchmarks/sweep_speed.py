"""Sweep throughput: plans per second for two 200-point sweeps of scenarios/startup-hybrid.yaml,
baselines off, on 2 local worker processes and one at a time in this process, per solver.

- `cached`: 20 electricity prices × 10 demand levels of `prototyping`. Neither field is in the key of
  the engine's cache of cloud offers and their work matrix (engine.inputs._cloud_part: price table,
  `prices`, currency, fx and each workload's capability fields), so every point after a worker's
  first reuses that part.
- `uncached`: 200 values of `workloads.prototyping.interruption_overhead` (0 to 0.5). It is one of the
  capability fields in that key (it scales the work of the spot offers), so every point rebuilds the
  cloud offers and their work matrix.

The parallel rate is measured in a fresh process per sweep, set up as `fleetplan sweep` sets up its own
(planner.process.configure_process), which loads the scenario and times its `sweep(...)` call, worker
start-up included (what a user of `fleetplan sweep` waits for): with workers forked from that process
(`forked`, where reports.sweep.fork_safe allows it, as in `fleetplan sweep`) and with fresh interpreters
as workers (`fresh`: what a threaded host, such as the dashboard or a notebook, gets). The one-at-a-time
rate runs in this process on a thinned grid after the price table is loaded, so it excludes the cold
price load.
CPU ms per plan (the sweeping process and its workers) depends much less on other load than wall time:
processes / CPU per plan estimates the rate with the cores to itself. Target: at least 20 plans per second
on 2 processes. Prints figures measured in this run; nothing here asserts a time.
Run: make bench   (or .venv/bin/python benchmarks/sweep_speed.py [--processes N] [--solvers highs,cbc]
                   [--sweeps cached,uncached] [--points N] [--workers forked,fresh])
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _machine import report

from planner import catalog, load_scenario, sweep
from planner.engine import build_model, inputs_for, reduce, solve
from planner.engine.readback import read_fleet

ROOT = Path(__file__).resolve().parents[1]
TARGET = 20.0          # plans per second on 2 processes (issue 11)
SERIAL_EVERY = 5       # the one-at-a-time run takes every 5th value of the first varied path
FRESH = itertools.count(1)   # interruption_overhead = 0.0007 × a number never used before: a cache miss


def grids(points: int) -> dict[str, dict[str, list]]:
    """The two sweeps, `points` points each (rounded down to whole rows for the 2-field grid)."""
    n_elec = min(20, points)
    n_demand = max(1, points // n_elec)
    return {
        "cached": {"onprem.electricity_per_kwh": [round(x, 4) for x in np.linspace(0.05, 0.40, n_elec)],
                   "workloads.prototyping.gpu_hours_per_month": [float(x) for x in np.linspace(1000, 4000, n_demand)]},
        "uncached": {"workloads.prototyping.interruption_overhead": [round(x, 5) for x in np.linspace(0, 0.5, points)]},
    }


def thinned(vary: dict[str, list]) -> dict[str, list]:
    """The grid with every SERIAL_EVERY-th value of its first path: the same spread, fewer points."""
    first = next(iter(vary))
    return {p: v[::SERIAL_EVERY] if p == first else v for p, v in vary.items()}


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and by its finished children (workers, CBC)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measured_sweep(scenario, vary: dict, processes: int, solver: str) -> tuple[float, float, int, int]:
    """(plans per second, CPU ms per plan, points, optimal points) of one sweep in this process."""
    n = int(np.prod([len(v) for v in vary.values()]))
    cpu0, start = cpu_seconds(), time.perf_counter()
    table = sweep(scenario, vary, processes=processes, baselines=False, solver=solver)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    return n / seconds, cpu / n * 1000, n, int((table["status"] == "optimal").sum())


# One sweep in a fresh process set up as `fleetplan sweep`'s (planner.process.configure_process: pyarrow kept
# out, OpenBLAS on one thread, which forked workers inherit): argv = this folder, scenario, vary (JSON), processes,
# solver, workers (forked | fresh); prints what measured_sweep returns, as JSON
FRESH_PROCESS = """
import json, sys
from planner.process import configure_process
configure_process()
sys.path.insert(0, sys.argv[1])
from sweep_speed import measured_sweep
from planner import load_scenario
sweep_module = sys.modules["planner.reports.sweep"]
path, vary, processes, solver, workers = sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
if workers == "fresh":
    sweep_module.fork_safe = lambda: False
elif not sweep_module.fork_safe():
    sys.exit("workers cannot be forked in this process")
print(json.dumps(measured_sweep(load_scenario(path), vary, processes, solver)))
"""


def fresh_process_sweep(vary: dict, processes: int, solver: str, workers: str) -> list:
    """`measured_sweep` of one sweep of startup-hybrid.yaml in a fresh process, its workers `forked` or
    `fresh` interpreters."""
    done = subprocess.run([sys.executable, "-c", FRESH_PROCESS, str(Path(__file__).resolve().parent),
                           str(ROOT / "scenarios" / "startup-hybrid.yaml"), json.dumps(vary), str(processes), solver,
                           workers], capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the sweep process failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


HEADER = (f"  {'sweep':9s} {'solver':6s} {'workers':7s} {'points':>6s} {'plans/s':>8s} {'CPU ms':>7s} {'free':>6s} | "
          f"{'points':>6s} {'plans/s':>8s} {'CPU ms':>7s} | {'speed-up':>8s}")


def compare(scenario, name: str, vary: dict, processes: int, solver: str, kinds: list[str]) -> None:
    """One sweep on `processes` workers of each kind, each in a fresh process, then its thinned grid one at
    a time in this process."""
    parallel = {kind: fresh_process_sweep(vary, processes, solver, kind) for kind in kinds}
    serial, serial_cpu, n_serial, ok_serial = measured_sweep(scenario, thinned(vary), 1, solver)
    for kind, (rate, cpu, n, ok) in parallel.items():
        notes = [] if rate >= TARGET else ["target NOT met"]
        if ok < n or ok_serial < n_serial:
            notes.append(f"NOT all optimal: {ok}/{n}, {ok_serial}/{n_serial}")
        print(f"  {name:9s} {solver:6s} {kind:7s} {n:6d} {rate:8.1f} {cpu:7.0f} {processes / cpu * 1000:6.1f} | "
              f"{n_serial:6d} {serial:8.1f} {serial_cpu:7.0f} | {rate / serial:7.2f}×  {'; '.join(notes)}")


def start_up(processes: int, solver: str, kinds: list[str]) -> None:
    """Seconds for `processes` points on `processes` workers of each kind, in a fresh process: the workers'
    start (importing the planner, for fresh interpreters), their cold price load and one plan each."""
    vary = {"onprem.electricity_per_kwh": [round(0.1 + 0.01 * k, 4) for k in range(processes)]}
    took = {}
    for kind in kinds:
        rate, _, n, _ = fresh_process_sweep(vary, processes, solver, kind)
        took[kind] = n / rate
    print(f"  worker start-up, {solver}: {processes} points on {processes} workers take "
          + ", ".join(f"{s:.2f} s {kind}" for kind, s in took.items())
          + " (the workers' start, cold price load, one plan each)")


def steps(scenario, solver: str, repeat: int = 10) -> None:
    """Where one sweep point's time goes, in this process after a warm-up: with the cached cloud part reused,
    and with it rebuilt (each run a new interruption_overhead, a field of the cache key)."""
    names = ["prepare (offers, work matrix, demand)", "reduce", "build model", "solve", "read total and fleet"]
    misses = [scenario.model_copy(update={"workloads": tuple(
        w.model_copy(update={"interruption_overhead": 0.0007 * next(FRESH)}) if w.name == "prototyping" else w
        for w in scenario.workloads)}) for _ in range(repeat)]
    columns = {"cache hit": _step_times(scenario, [scenario] * repeat, solver),
               "cache missed": _step_times(scenario, misses, solver)}
    print(f"  one plan, {solver}, mean of {repeat} (this process):  {'cache hit':>10s}  {'cache missed':>12s}")
    for k, name in enumerate(names):
        print(f"    {name:40s} {columns['cache hit'][k] * 1000:7.1f} ms  {columns['cache missed'][k] * 1000:9.1f} ms")
    totals = {c: sum(v) for c, v in columns.items()}
    print(f"    {'total':40s} {totals['cache hit'] * 1000:7.1f} ms  {totals['cache missed'] * 1000:9.1f} ms"
          f"  → {1 / totals['cache hit']:.1f} and {1 / totals['cache missed']:.1f} plans/s per process")


def _step_times(warm_up, scenarios: list, solver: str) -> list[float]:
    """Mean seconds of each step over `scenarios`, after one plan of `warm_up`."""
    sums = [0.0] * 5
    for k, s in enumerate([warm_up, *scenarios]):
        t = [time.perf_counter()]
        base = inputs_for(s)
        t.append(time.perf_counter())
        inp = reduce(base)
        t.append(time.perf_counter())
        model = build_model(inp)
        t.append(time.perf_counter())
        solve(model, solver)
        t.append(time.perf_counter())
        read_fleet(inp, model)   # what a sweep point reads back (engine.plan_summary), not the whole Plan
        t.append(time.perf_counter())
        if k:
            for i in range(5):
                sums[i] += (t[i + 1] - t[i]) / len(scenarios)
    return sums


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--points", type=int, default=200, help="points per sweep (default 200)")
    ap.add_argument("--solvers", default="highs,cbc", help="comma-separated: highs,cbc (default both)")
    ap.add_argument("--sweeps", default="cached,uncached", help="comma-separated: cached,uncached (default both)")
    ap.add_argument("--workers", default="forked,fresh",
                    help="comma-separated: forked,fresh — how the parallel sweeps start their workers (default both)")
    args = ap.parse_args()
    solvers = [s for s in args.solvers.split(",") if s]
    kinds = [k for k in args.workers.split(",") if k]
    chosen = grids(args.points)
    names = [s for s in args.sweeps.split(",") if s]
    unknown = ([s for s in names if s not in chosen] + [s for s in solvers if s not in ("highs", "cbc")]
               + [k for k in kinds if k not in ("forked", "fresh")])
    if unknown:
        ap.error(f"unknown sweep or solver: {', '.join(unknown)}")
    report("before")
    scenario = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    catalog.price_table(scenario.prices.source)   # the one-at-a-time runs exclude the cold price load
    print(f"sweeps of startup-hybrid.yaml, baselines off (target ≥ {TARGET:.0f} plans/s on 2 processes):\n"
          f"  on {args.processes} worker processes, forked or fresh interpreters, in a fresh process (start-up "
          f"included) | one at a time in this process (prices loaded before) | ratio of the rates;\n  CPU ms: "
          f"per plan, the sweeping process and its workers; free: {args.processes} / CPU per plan, the rate with "
          f"{args.processes} cores to itself")
    print(HEADER)
    for solver in solvers:
        for name in names:
            compare(scenario, name, chosen[name], args.processes, solver, kinds)
    for solver in solvers:
        start_up(args.processes, solver, kinds)
        steps(scenario, solver)
    report("after")


if __name__ == "__main__":
    main()
