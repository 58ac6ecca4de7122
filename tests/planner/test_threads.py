"""Solving in threads (a Dask worker runs several plans at once) leaves the process's stdout alone.

The plans run in a child process whose stdout and stderr are pipes read here: what the child prints
after the threads are done must arrive on its stdout, and no solver banner may arrive there.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"

CHILD = textwrap.dedent("""
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from planner import load_scenario, plan

    scenario = load_scenario(sys.argv[1])

    def one(i):
        return plan(scenario, solver=("cbc", "highs")[i % 2], baselines=False).total

    with ThreadPoolExecutor(max_workers=4) as pool:
        totals = list(pool.map(one, range(40)))
    print(f"after the threads: {len(totals)} plans, totals {min(totals):.2f} to {max(totals):.2f}", flush=True)
""")
BANNERS = ("Running HiGHS", "Copyright", "Welcome to the CBC", "Result - Optimal", "Coin0")


def test_forty_plans_on_four_threads_leave_stdout_on_stdout_and_print_no_banner():
    done = subprocess.run([sys.executable, "-c", CHILD, str(WORKED)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    # the worked example costs 7,760.46 by hand (README), with either solver
    assert "after the threads: 40 plans, totals 8385.46 to 8385.46" in done.stdout, (done.stdout, done.stderr)
    assert "after the threads" not in done.stderr
    for banner in BANNERS:
        assert banner not in done.stdout, done.stdout
