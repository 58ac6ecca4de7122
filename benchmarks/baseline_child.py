"""Baselines solved in a forked child while the plan is solved (`plan(..., prefetch_baselines=True)`), against
solved after it in the same process: whole processes that plan a scenario and add its baselines table, as
`fleetplan plan --format json` does, run round-robin; medians of wall and CPU seconds (CPU counts the
child too) and the ratio of the walls. The gain needs a free core: on a busy machine both sides share
the same cores and the ratio tends to 1. Prints the load average before and after; nothing here asserts
a time.
Run: .venv/bin/python benchmarks/baseline_child.py [--runs 7] [--scenario scenarios/industrial.yaml] [--solver highs]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _machine import report

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = """
import sys
from planner.engine import add_baselines, plan
from planner.reports import plan_to_json
from planner.scenario import load_scenario_file
p = plan(load_scenario_file(sys.argv[1]), solver=sys.argv[2], baselines=False, prefetch_baselines=sys.argv[3] == "1")
add_baselines(p, plans=False)
plan_to_json(p)
print(repr(p.total), repr(float(p.baselines["total"].sum())))
"""


def run(scenario: Path, solver: str, prefetch: bool) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, the totals it printed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(scenario), solver, "1" if prefetch else "0"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--scenario", type=Path, default=ROOT / "scenarios" / "industrial.yaml")
    ap.add_argument("--solver", default="highs", choices=["highs", "cbc"])
    args = ap.parse_args()
    report("before")
    results: dict[bool, list[tuple[float, float, str]]] = {False: [], True: []}
    for _ in range(args.runs):   # alternate, so a load spike hits both sides
        for prefetch in (False, True):
            results[prefetch].append(run(args.scenario, args.solver, prefetch))
    print(f"{args.scenario.name}, solver {args.solver}, {args.runs} whole processes each (plan, then its baselines table)")
    walls = {}
    for prefetch, rows in results.items():
        walls[prefetch] = statistics.median(r[0] for r in rows)
        label = "baselines in a forked child" if prefetch else "baselines after the plan"
        print(f"  {label:30s} wall {walls[prefetch]:.3f} s (min {min(r[0] for r in rows):.3f})  "
              f"CPU {statistics.median(r[1] for r in rows):.3f} s")
    same = len({r[2] for rows in results.values() for r in rows}) == 1
    print(f"  wall ratio child / after: {walls[True] / walls[False]:.2f}; totals {'equal' if same else 'DIFFER'}")
    report("after")


if __name__ == "__main__":
    main()
