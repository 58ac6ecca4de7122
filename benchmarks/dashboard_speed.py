"""Dashboard speed: the time from a slider change to a new plan for the default scenario, engine side.

A slider change is what the Plan page does on a rerun: the widget values are applied to the file's
scenario (`fleetplan_dashboard.state.apply_edits`, pydantic `model_copy`); the page draws the new total as
soon as the recommended plan is there (`state.recommended`, no baselines), then waits for the baselines
from a worker process (`state.plan_for`: the plan and its three baselines). Both are timed.

- cold: a slider value never seen before, so the engine plans it (cache miss);
- warm: a value seen before (moving the slider back), so the cache answers.

Drawing the page (tables, plotly figures, the browser) is not included. Prints the times measured in
this run against the targets (cold < 300 ms, warm < 50 ms); nothing here asserts a time.
Run: make bench   (or .venv/bin/python benchmarks/dashboard_speed.py [--moves N] [--solver highs])
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import streamlit.logger  # noqa: E402

# Outside `streamlit run` the cache warns that there is no runtime; that is expected here.
streamlit.logger.set_log_level("error")

from fleetplan_dashboard import state  # noqa: E402
from planner.engine import plan  # noqa: E402

TARGET_COLD, TARGET_WARM = 0.300, 0.050


def _slider_change(base, values: dict, solver: str):
    t0 = time.perf_counter()
    scenario = state.apply_edits(base, values)
    outcome = state.plan_for(scenario, solver=solver)
    seconds = time.perf_counter() - t0
    assert outcome.kind == "ok", outcome.message
    return outcome.plan, seconds


def _total_only(base, values: dict, solver: str) -> float:
    """Seconds to the recommended plan only: what the page's total waits for."""
    t0 = time.perf_counter()
    outcome = state.recommended(state.apply_edits(base, values), solver=solver)
    seconds = time.perf_counter() - t0
    assert outcome.kind == "ok", outcome.message
    return seconds


def _summary(label: str, seconds: list[float], target: float) -> str:
    med = statistics.median(seconds)
    return (f"{label:<34} median {med * 1000:7.1f} ms   min {min(seconds) * 1000:7.1f}   "
            f"max {max(seconds) * 1000:7.1f}   median/target {med / target:5.2f}  "
            f"({'meets' if med < target else 'misses'} < {target * 1000:.0f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=8, help="slider positions to try (default 8)")
    parser.add_argument("--solver", default="highs", choices=("cbc", "highs"))
    args = parser.parse_args()

    base, _ = state.load_file(state.DEFAULT_SCENARIO)
    defaults = state.default_edits(base)
    state.clear_plan_cache()

    # The running app has planned the file once before any slider moves: do the same here, so the
    # catalog and price snapshot are loaded (a first plan in a fresh process also pays for that).
    t0 = time.perf_counter()
    first, _ = _slider_change(base, defaults, args.solver)
    t_first = time.perf_counter() - t0

    moves = [{**defaults, "demand:prototyping": defaults["demand:prototyping"] + 20.0 * (i + 1)}
             for i in range(args.moves)]
    moves += [{**defaults, "electricity_per_kwh": round(defaults["electricity_per_kwh"] + 0.01 * (i + 1), 2)}
              for i in range(args.moves)]
    # the total alone first, on slider values no cache has seen (moved further than the runs below)
    total_only = [_total_only(base, {**values, "demand:prototyping": values["demand:prototyping"] + 5000.0}, args.solver)
                  for values in moves]
    cold, warm, totals = [], [], []
    for values in moves:
        p, seconds = _slider_change(base, values, args.solver)
        cold.append(seconds)
        totals.append(p.total)
    for values in moves:
        p, seconds = _slider_change(base, values, args.solver)
        warm.append(seconds)

    # Where the cold time goes: the engine's own timings of the last cold plan, and a plan without baselines.
    engine = plan(state.apply_edits(base, moves[0]), solver=args.solver)
    t = engine.solver["timings_seconds"]
    t0 = time.perf_counter()
    plan(state.apply_edits(base, moves[0]), solver=args.solver, baselines=False)
    no_baselines = time.perf_counter() - t0

    print(f"Dashboard: slider change -> new plan, {base.name} ({state.DEFAULT_SCENARIO}), solver {args.solver}, "
          f"{len(moves)} slider positions (demand of 'prototyping', electricity price)")
    print(f"{'first plan in this process':<34} {t_first * 1000:7.1f} ms (loads the catalog and the snapshot)")
    print(_summary("cold, total only (state.recommended)", total_only, TARGET_COLD))
    print(_summary("cold (cache miss: engine plans)", cold, TARGET_COLD))
    print(_summary("warm (cache hit)", warm, TARGET_WARM))
    print(f"{'cold / warm':<34} {statistics.median(cold) / statistics.median(warm):7.0f}x")
    print(f"engine split of one cold plan: prepare {t['prepare'] * 1000:.0f} ms, reduce {t['reduce'] * 1000:.0f} ms, "
          f"build+solve+read {t['build_solve_read'] * 1000:.0f} ms, baselines {t['baselines'] * 1000:.0f} ms; "
          f"without baselines the plan takes {no_baselines * 1000:.0f} ms")
    print(f"totals moved with the sliders: {min(totals):,.0f} .. {max(totals):,.0f} {first.currency} "
          f"(file: {first.total:,.0f})")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
