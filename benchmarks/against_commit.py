"""This tree against another commit, measured in one run: whole processes that plan each shipped
scenario (with baselines), alternating between the two trees, medians and their ratio.

The other commit is checked out with `git worktree` into a temporary folder and imported ahead of
this tree's installed package (PYTHONPATH), in the same virtual environment. Both trees must offer
`planner.engine.plan` and `planner.scenario.load_scenario_file`. Prints the load average before and
after, since a busy machine stretches both sides; nothing here asserts a time.
Run: .venv/bin/python benchmarks/against_commit.py [--rev 7bbc3c9] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ["entry.yaml", "mid-research.yaml", "startup-hybrid.yaml", "industrial.yaml"]
PROGRAM = """
import sys, time
t0 = time.perf_counter()
from planner.engine import plan
from planner.scenario import load_scenario_file
p = plan(load_scenario_file(sys.argv[1]))
print(repr(p.total), time.perf_counter() - t0)
"""


def run(tree: Path, scenario: Path) -> tuple[float, float, float]:
    """(wall seconds of the whole process, seconds inside it, plan total)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(scenario)], cwd=tree, env=env,
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    total, inside = done.stdout.split()
    return wall, float(inside), float(total)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="7bbc3c9", help="the commit to compare against (default: before the "
                                                     "engine was split into layers)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), args.rev],
                       check=True, capture_output=True)
        try:
            print(f"{'scenario':22s} {'this tree s':>12s} {args.rev + ' s':>14s} {'ratio':>7s}  totals equal (1e-6)")
            for name in SCENARIOS:
                here, there = [], []
                for _ in range(args.runs):   # alternate, so a load spike hits both sides
                    here.append(run(ROOT, ROOT / "scenarios" / name))
                    there.append(run(other, other / "scenarios" / name))
                a = statistics.median(w for w, _, _ in here)
                b = statistics.median(w for w, _, _ in there)
                same = abs(here[0][2] - there[0][2]) <= 1e-6 * max(abs(there[0][2]), 1.0)
                print(f"{name:22s} {a:12.3f} {b:14.3f} {a / b:7.2f}  {same} ({here[0][2]:,.2f} vs {there[0][2]:,.2f})")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)],
                           check=False, capture_output=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
