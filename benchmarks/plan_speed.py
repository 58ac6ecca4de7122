"""Plan speed: each step of planning scenarios/industrial.yaml on the full packaged snapshot, then a
ladder of smaller versions solved with the reduced and the unreduced model side by side.

Prints times measured in this run and their ratios; nothing here asserts a time.
Run: make bench   (or .venv/bin/python benchmarks/plan_speed.py [--solver highs] [--max-vars N])
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from planner import catalog
from planner.engine import build_model, inputs_for, read_plan, reduce, solve, solve_baselines
from planner.scenario import load_scenario_file

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def steps(path: Path, solver: str) -> None:
    catalog.prices._read_prices.cache_clear()
    scenario, t_load = timed(load_scenario_file, path)
    _, t_prices = timed(catalog.price_table, scenario.prices.source)
    base, t_prepare = timed(inputs_for, scenario)
    inp, t_reduce = timed(reduce, base)
    model, t_build = timed(build_model, inp)
    solution, t_solve = timed(solve, model, solver)
    plan, t_report = timed(read_plan, inp, model, solution)
    (plan.baselines, _), t_base = timed(solve_baselines, base, plan.total, solver, None)
    total = t_load + t_prices + t_prepare + t_reduce + t_build + t_solve + t_report
    print(f"{path.name} on the full packaged snapshot ({len(base.units)} usable units, "
          f"{len(inp.units)} after reduction, {len(inp.periods)} periods), solver {solver}")
    for name, t in [("load scenario", t_load), ("load prices", t_prices), ("prepare (offers, work, demand)", t_prepare),
                    ("reduce", t_reduce), ("build", t_build), ("solve", t_solve), ("report", t_report)]:
        print(f"  {name:32s} {t * 1000:8.1f} ms")
    print(f"  {'end-to-end plan':32s} {total * 1000:8.1f} ms   (target < 1000 ms on 2 cores)")
    print(f"  {'+ baselines (' + str(len(plan.baselines)) + ' rows)':32s} {t_base * 1000:8.1f} ms")
    print(f"  model: {model.size()}, status {solution.status}, total {plan.total:,.0f} {plan.currency}")


def ladder(path: Path, solver: str, max_vars: int) -> None:
    full = load_scenario_file(path)
    regions = ["us-east-1", "eastus"]
    rungs = [(["us-east-1"], 3), (regions, 3), (regions, 6), (regions, 12), (None, 12), (None, 24), (None, 60)]
    print("\nladder: reduced vs unreduced (unreduced = every offer, every month × 168 weekly hours)")
    print(f"  {'regions':>10s} {'months':>6s} {'red. vars':>10s} {'red. s':>8s} {'unred. vars':>12s} "
          f"{'unred. s':>9s} {'ratio':>7s}  objectives")
    for regs, months in rungs:
        s = full.model_copy(update={"horizon_months": months,
                                    "prices": full.prices.model_copy(update={"regions": tuple(regs) if regs else None})})
        start = time.perf_counter()
        inp = reduce(inputs_for(s))
        m = build_model(inp)
        sol = solve(m, solver)
        t_red = time.perf_counter() - start
        unreduced = inputs_for(s, merge_periods=False)
        est_vars = int((unreduced.work > 0).sum()) * len(unreduced.periods)
        label = "all" if regs is None else str(len(regs))
        if est_vars > max_vars:
            print(f"  {label:>10s} {months:6d} {m.size()['variables']:10d} {t_red:8.2f} {est_vars:12d} "
                  f"{'—':>9s} {'—':>7s}  {sol.objective:,.2f} (unreduced skipped: about {est_vars:,} variables "
                  f"> --max-vars {max_vars:,})")
            continue
        start = time.perf_counter()
        mu = build_model(unreduced)
        solu = solve(mu, solver)
        t_unred = time.perf_counter() - start
        print(f"  {label:>10s} {months:6d} {m.size()['variables']:10d} {t_red:8.2f} {mu.size()['variables']:12d} "
              f"{t_unred:9.2f} {t_unred / t_red:7.1f}  {sol.objective:,.2f} vs {solu.objective:,.2f}")


def purchase_periods(path: Path, solver: str, time_limit: float) -> None:
    """The plan with cards bought only in month 1 (purchase_every_months = horizon) next to purchases every
    12, 3 and 1 months, in one run: time, variables, integer variables, status and the ratio to month 1 only."""
    from planner.engine import plan

    scenario = load_scenario_file(path)
    H = scenario.horizon_months
    print(f"\npurchase periods ({path.name}, {H} months, {solver}, time limit {time_limit:g} s; baselines off)")
    print(f"{'every':>6} {'seconds':>8} {'ratio':>6} {'variables':>9} {'integers':>8}  status       total")
    first = None
    for every in (H, 12, 3, 1):
        p, t = timed(plan, scenario, solver=solver, baselines=False, time_limit=time_limit,
                     overrides={"onprem.purchase_every_months": every})
        first = first or t
        s = p.solver
        print(f"{every:>6} {t:>8.2f} {t / first:>6.2f} {s['variables']:>9} {s['integer_variables']:>8}  "
              f"{s['status']:<11} {p.total:,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--solver", default="highs", choices=["cbc", "highs"])
    parser.add_argument("--max-vars", type=int, default=400_000,
                        help="skip the unreduced model above this many variables")
    parser.add_argument("--time-limit", type=float, default=300, help="seconds per purchase-period solve")
    args = parser.parse_args()
    path = ROOT / "scenarios" / "industrial.yaml"
    steps(path, args.solver)
    ladder(path, args.solver, args.max_vars)
    purchase_periods(path, args.solver, args.time_limit)


if __name__ == "__main__":
    main()
