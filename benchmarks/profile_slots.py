"""Profile slots: time and cost-error bound of grouping 168-weight weekly profiles into K blocks.

scenarios/startup-hybrid.yaml over 36 months, its workloads shaped by CSV profiles of 168 distinct hourly
weights (seeded): --shape workday (default) shapes llm-finetune by a working-day curve with noise, noise by
uniform noise; audit shapes prototyping by uniform noise beside llm-finetune's business_hours (an audit's
case: 24 blocks cut along the load planned it 11.6 % above exact); unrelated shapes both (llm-finetune
workday, prototyping noise), which 24 blocks cannot keep within the tolerance.
For each K (set, so kept): `plan()` with its baselines, split into the plan, its lower-bound solve
(engine.profile_slots, part of every grouped plan) and the baselines, with the bound; then the plan with K
left to the planner (24, planned again on more blocks while the bound is above the tolerance: the blocks it
ended on and those it left); then — what a user waits for — whole `fleetplan plan FILE --format json
--no-decisions` processes at the default K (median of --runs; the baselines solve in a forked child there);
and — with --exact — the exact plan (profile_slots 168; 6.8 s with baselines on 2026-12-04, 30 s and 80 s
when the issue was filed) to check that the exact total lies in [lower, upper]. Prints times measured in
this run and their ratios; asserts nothing.
Run: .venv/bin/python benchmarks/profile_slots.py [--slots 4 8 16 24] [--exact] [--shape audit] [--runs 3]
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


# which workloads each --shape gives a CSV profile of which shape (the others keep the scenario's profile)
SHAPES = {"workday": {"llm-finetune": "workday"}, "noise": {"llm-finetune": "noise"},
          "audit": {"prototyping": "noise"}, "unrelated": {"llm-finetune": "workday", "prototyping": "noise"}}


def weekly_profile(shape: str, seed: int = 7) -> np.ndarray:
    """168 distinct positive weights: `workday` (busy 09–18 on weekdays, a slow night, noise) or `noise`."""
    rng = np.random.default_rng(seed)
    if shape == "noise":
        return rng.uniform(0.2, 3.0, 168)
    hour = np.arange(168)
    day, clock = hour // 24, hour % 24
    daytime = np.exp(-((clock - 13.5) / 4.0) ** 2)
    return (0.4 + 2.0 * daytime * np.where(day < 5, 1.0, 0.3)) * rng.uniform(0.85, 1.15, 168)


def write_profiles(shape: str, folder: Path) -> dict[str, str]:
    """workload -> the CSV written for it into `folder`, as --shape `shape` says."""
    out = {}
    for workload, kind in SHAPES[shape].items():
        csv = folder / f"{workload}.csv"
        csv.write_text("weight\n" + "\n".join(f"{w:.9f}" for w in weekly_profile(kind)) + "\n")
        out[workload] = str(csv)
    return out


def scenario_with(csvs: dict[str, str]):
    s = load_scenario_file(ROOT / "scenarios" / "startup-hybrid.yaml")
    return apply_overrides(s, {f"workloads.{w}.profile": csv for w, csv in csvs.items()})


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def scenario_file(csvs: dict[str, str], folder: Path) -> Path:
    """startup-hybrid.yaml with its workloads shaped by `csvs`, written into `folder` (comments dropped)."""
    data = yaml.safe_load((ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8"))
    for w in data["workloads"]:
        w["profile"] = csvs.get(w["name"], w["profile"])
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
    parser.add_argument("--shape", choices=list(SHAPES), default="workday")
    parser.add_argument("--solver", default="highs")
    parser.add_argument("--runs", type=int, default=3, help="whole processes at the default K (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        csvs = write_profiles(args.shape, Path(tmp))
        s = scenario_with(csvs)
        exact = exact_s = None
        if args.exact:
            p, exact_s = timed(plan, s, args.solver, overrides={"profile_slots": 168})
            exact = p.total
            print(f"exact: total {exact:,.2f}, {p.solver['variables']:,} "
                  f"variables, {exact_s:.2f} s with baselines")
        shaped = ", ".join(f"{w} on 168-weight '{kind}'" for w, kind in SHAPES[args.shape].items())
        print(f"startup-hybrid, 36 months, {shaped} (--shape {args.shape}), solver {args.solver}")
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
        default(s, args.solver, exact)
        processes(scenario_file(csvs, Path(tmp)), args.solver, args.runs)


def default(s, solver: str, exact: float | None) -> None:
    """The plan with K left to the planner: the blocks it ended on, those it left, the bound and the seconds."""
    p, seconds = timed(plan, s, solver)
    g = p.profile_grouping
    if g is None:
        print(f"default K: exact ({seconds:.2f} s with baselines)")
        return
    left = ", ".join(f"{t['slots']}: {t['error_bound_pct']:.2f} %" for t in g["refined_from"]) or "none"
    line = (f"default K: {g['slots']} blocks (left for a bound above {g['tolerance_pct']:g} %: {left}), total "
            f"{p.total:,.2f}, bound {g['error_bound_pct']:.3f} %, {seconds:.2f} s with baselines")
    if exact is not None:
        line += f", total − exact {p.total - exact:,.2f} ({100 * (p.total - exact) / exact:.3f} %)"
    print(line)


if __name__ == "__main__":
    main()
