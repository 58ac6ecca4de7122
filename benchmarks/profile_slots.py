"""Profile slots: time and cost-error bound of grouping a 168-weight weekly profile into K blocks.

scenarios/startup-hybrid.yaml over 36 months, its llm-finetune workload shaped by a CSV profile of 168
distinct hourly weights (seeded: a working-day curve with noise, or uniform noise with --shape noise).
For each K: `plan()` with its baselines, split into the plan, its lower-bound solve (engine.profile_slots,
part of every grouped plan) and the baselines, with the bound; then — what a user waits for — whole
`fleetplan plan FILE --format json --no-decisions` processes at the default K (median of --runs; the
baselines solve in a forked child there); and — with --exact — the exact plan (profile_slots 168; 6.8 s
with baselines on 2026-12-04, 30 s and 80 s when the issue was filed) to check that the exact total lies
in [lower, upper]. Prints times measured in this run and their ratios; asserts nothing.
Run: .venv/bin/python benchmarks/profile_slots.py [--slots 4 8 16 24] [--exact] [--shape noise] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

from planner.engine import plan
from planner.scenario import apply_overrides, load_scenario_file

ROOT = Path(__file__).resolve().parents[1]


def weekly_profile(shape: str, seed: int = 7) -> np.ndarray:
    """168 distinct positive weights: `workday` (busy 09–18 on weekdays, a slow night, noise) or `noise`."""
    rng = np.random.default_rng(seed)
    if shape == "noise":
        return rng.uniform(0.2, 3.0, 168)
    hour = np.arange(168)
    day, clock = hour // 24, hour % 24
    daytime = np.exp(-((clock - 13.5) / 4.0) ** 2)
    return (0.4 + 2.0 * daytime * np.where(day < 5, 1.0, 0.3)) * rng.uniform(0.85, 1.15, 168)


def scenario_with(csv: Path):
    s = load_scenario_file(ROOT / "scenarios" / "startup-hybrid.yaml")
    return apply_overrides(s, {"workloads.llm-finetune.profile": str(csv)})


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def scenario_file(csv: Path, folder: Path) -> Path:
    """startup-hybrid.yaml with llm-finetune shaped by `csv`, written into `folder` (comments dropped)."""
    data = yaml.safe_load((ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8"))
    next(w for w in data["workloads"] if w["name"] == "llm-finetune")["profile"] = str(csv)
    path = folder / "startup-hybrid-weekly.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def processes(path: Path, solver: str, runs: int) -> None:
    """Whole `fleetplan plan` processes at the default K: median and min seconds."""
    fleetplan = str(Path(sys.executable).with_name("fleetplan"))
    argv = [fleetplan, "plan", str(path), "--format", "json", "--no-decisions", "--solver", solver]
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds.append(time.perf_counter() - start)
    print(f"whole process, default K: `fleetplan plan {path.name} --format json --no-decisions` "
          f"median {statistics.median(seconds):.2f} s, min {min(seconds):.2f} s ({runs} runs; target < 5 s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slots", type=int, nargs="+", default=[4, 8, 12, 16, 24, 32, 48])
    parser.add_argument("--exact", action="store_true", help="also solve the exact plan (slow)")
    parser.add_argument("--shape", choices=["workday", "noise"], default="workday")
    parser.add_argument("--solver", default="highs")
    parser.add_argument("--runs", type=int, default=3, help="whole processes at the default K (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "week.csv"
        csv.write_text("weight\n" + "\n".join(f"{w:.9f}" for w in weekly_profile(args.shape)) + "\n")
        s = scenario_with(csv)
        exact = exact_s = None
        if args.exact:
            p, exact_s = timed(plan, s, args.solver, overrides={"profile_slots": 168})
            exact = p.total
            print(f"exact: total {exact:,.2f}, {p.solver['variables']:,} "
                  f"variables, {exact_s:.2f} s with baselines")
        print(f"startup-hybrid, 36 months, llm-finetune on a 168-weight '{args.shape}' profile, solver {args.solver}")
        print(f"{'K':>4s} {'periods':>8s} {'plan s':>7s} {'bound s':>8s} {'baselines s':>12s} {'total s':>8s} "
              f"{'total':>12s} {'lower':>12s} {'bound':>9s} {'bound %':>8s}" + ("  exact in bounds" if exact else ""))
        for k in args.slots:
            sk = apply_overrides(s, {"profile_slots": k})
            p, t_plan = timed(plan, sk, args.solver)   # the plan, its bound and its baselines
            g = p.profile_grouping
            if g is None:
                print(f"{k:4d}  exact (≤ {k} distinct weights)")
                continue
            t_base, t_bound = p.solver["timings_seconds"]["baselines"], p.solver["timings_seconds"]["profile_bound"]
            line = (f"{k:4d} {p.solver.get('periods', 0):8d} {t_plan - t_base - t_bound:7.2f} {t_bound:8.2f} "
                    f"{t_base:12.2f} {t_plan:8.2f} "
                    f"{p.total:12,.2f} {g['lower_bound']:12,.2f} {g['error_bound']:9,.2f} {g['error_bound_pct']:8.3f}")
            if exact is not None:
                inside = g["lower_bound"] - 1e-6 * exact <= exact <= p.total + 1e-6 * exact
                ratio = exact_s / t_plan
                line += f"  {inside} (total − exact {p.total - exact:,.2f}; exact time / this {ratio:.1f}×)"
            print(line)
        processes(scenario_file(csv, Path(tmp)), args.solver, args.runs)


if __name__ == "__main__":
    main()
