"""The engine work the dashboard hands to its worker processes: a recommended plan, the baselines, what
each decision of a plan is worth.

Kept apart from `state` so that a worker process imports the engine only, not Streamlit: a worker is
started with the `spawn` method, which imports the functions it runs by their module's name.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import pandas as pd

from planner.engine import Inputs, Plan
from planner.errors import InfeasibleError, ModelTooLarge, PlannerError, PriceStoreLocked, SolverError
from planner.scenario import Scenario

# What one plan of the dashboard may take: anyone with the page open can upload a scenario. The plan's solves
# stop after TIME_LIMIT_S in all (engine.solve.TimeBudget; each baseline's solve has its own): a 900-byte upload
# of two serving workloads over 120 months ran 135 s. A model larger than MAX_DISPATCH_VARIABLES is refused
# before it is built (50 workloads in every region took 2 GB). The packaged scenarios hold at most 2,880
# dispatch variables and plan in about a second.
TIME_LIMIT_S = float(os.environ.get("FLEETPLAN_DASHBOARD_TIME_LIMIT", "60"))
MAX_DISPATCH_VARIABLES = 100_000
# What each decision is worth takes one re-solve per decision, card and limit (282 for 25 custom cards), each up
# to TIME_LIMIT_S: all of them together stop after DECISIONS_TIME_LIMIT_S, and those left are reported as not
# computed (the packaged scenarios take 1-10 s).
DECISIONS_TIME_LIMIT_S = 5 * TIME_LIMIT_S
# how the warning of those left undone tells the reader to allow more time (add_decisions' more_time): the page
# has no option for it, the command line does
MORE_TIME = "planning the scenario's file on the command line, `fleetplan plan FILE`, allows them more time"
_CLI = ("; the dashboard stops the plan's solves after {limit:g} s in all — plan it with the CLI, `fleetplan plan FILE` "
        "(no time limit unless --time-limit)")


@dataclass
class Outcome:
    """A plan, or why there is none: kind is `ok`, `infeasible` (the optimiser's explanation) or `error`.
    `seconds`: how long the engine took to make it."""

    kind: str
    plan: Plan | None = None
    message: str = ""
    seconds: float = 0.0
    # a failure that passes (a price store another process keeps locked: a refresh saving): not kept in the
    # plan cache, so the next page run plans again (state.recommended)
    passes: bool = False


def _too_large(exc: ModelTooLarge) -> str:
    return f"{exc} — or plan it with the CLI, `fleetplan plan FILE` (which allows more with --max-variables)"


def prepared_job(scenario: Scenario) -> tuple[Inputs | None, str]:
    """What `recommended_job` does of `scenario` before it solves, done alone: its prices read, its inputs built
    and its model's size checked (engine.run.checked_inputs). (the inputs, to plan from, "") or (None, the message
    its plan would fail with)."""
    from planner.engine.run import checked_inputs

    try:
        return checked_inputs(scenario, None, MAX_DISPATCH_VARIABLES), ""
    except ModelTooLarge as exc:
        return None, hide_store_path(_too_large(exc))
    except PlannerError as exc:
        return None, hide_store_path(str(exc))


def recommended_job(scenario: Scenario, solver: str, inputs: Inputs | None = None) -> Outcome:
    """The recommended plan of `scenario` without baselines (the engine's `plan(…, baselines=False)`), from
    `inputs` where `prepared_job` built them."""
    from planner.engine import plan

    t0 = time.perf_counter()
    try:
        outcome = Outcome("ok", plan=plan(scenario, solver=solver, baselines=False, time_limit=TIME_LIMIT_S,
                                          max_dispatch_variables=MAX_DISPATCH_VARIABLES, inputs=inputs))
    except InfeasibleError as exc:
        outcome = Outcome("infeasible", message=str(exc))
    except SolverError as exc:
        outcome = Outcome("error", message=str(exc) + _CLI.format(limit=TIME_LIMIT_S))
    except ModelTooLarge as exc:
        outcome = Outcome("error", message=_too_large(exc))
    except PriceStoreLocked as exc:
        outcome = Outcome("error", message=str(exc), passes=True)
    except PlannerError as exc:
        outcome = Outcome("error", message=str(exc))
    outcome.seconds = time.perf_counter() - t0
    if outcome.plan is not None:
        outcome.plan = replace(outcome.plan, prices=hide_store_path(outcome.plan.prices),
                               warnings=hide_store_path(outcome.plan.warnings))
    outcome.message = hide_store_path(outcome.message)
    return outcome


def hide_store_path(value):
    """`value` (text, or dicts and lists of it) with the path of the server's price store (`prices.source:
    store`, which an upload may name) shown as …/ and its file name: what the dashboard shows and offers for
    download says that the store is missing or empty, not where the server keeps its files."""
    from planner.catalog import resolve_store

    store = resolve_store()
    # one pass, so the shorter spelling is not found again inside the replacement of the longer
    spelled = re.compile("|".join(re.escape(p) for p in sorted({str(store), str(store.resolve())}, key=len, reverse=True)))

    def hide(v):
        if isinstance(v, str):
            return spelled.sub(f"…/{store.name}", v)
        if isinstance(v, dict):
            return {k: hide(x) for k, x in v.items()}
        if isinstance(v, list):
            return [hide(x) for x in v]
        return v

    return hide(value)


def baselines_job(scenario: Scenario, total: float, solver: str, plan_status: str = "optimal") -> tuple:
    """(baselines table, baseline plans, the (workload, gpu) pairs of each baseline's fleet) of `scenario`,
    solved as `plan()` solves them; `total` and `plan_status` are the recommended plan's. The pairs join the
    plan's speeds table and warnings (state.with_baselines), as plan() adds them."""
    from planner.engine.baselines import baseline_pairs, baseline_rows, baseline_table
    from planner.engine.run import inputs_for

    base = inputs_for(scenario)
    rows, plans = baseline_rows(base, solver, TIME_LIMIT_S, scenario)
    return baseline_table(rows, total, base, plan_status), plans, baseline_pairs(rows)


@dataclass
class Decisions:
    """What `planner.add_decisions` sets on a plan (decisions, runner_up, close_call, flip_points, cap_costs,
    and the solves and seconds it took, `solver["decisions"]`), or why they could not be made (`error`)."""

    decisions: pd.DataFrame | None = None
    runner_up: dict | None = None
    close_call: bool | None = None
    flip_points: pd.DataFrame | None = None
    work: dict | None = None
    error: str = ""
    cap_costs: pd.DataFrame | None = None
    warnings: list | None = None   # the plan's warnings as add_decisions leaves them (engine.decisions.cheaper_found)


def decisions_job(plan: Plan, solver: str) -> Decisions:
    """What each decision of `plan` (a recommended plan of the dashboard) is worth, its runner-up, close call
    and flip points: `planner.add_decisions` on a copy, so the caller's plan stays as it was. Those its time limit
    in all left undone say so in their notes, and its warnings say how many."""
    from planner.engine import add_decisions

    try:
        done = add_decisions(replace(plan, solver=dict(plan.solver)), solver=solver, time_limit=TIME_LIMIT_S,
                             total_time_limit=DECISIONS_TIME_LIMIT_S, more_time=MORE_TIME)
    except PlannerError as exc:
        return Decisions(error=str(exc))
    return Decisions(done.decisions, done.runner_up, done.close_call, done.flip_points, done.solver.get("decisions"),
                     cap_costs=done.cap_costs, warnings=done.warnings)


def pickled(job: Callable, *args) -> bytes:
    """`job(*args)`, pickled: what the dashboard caches (bytes hold no objects for the garbage collector to
    walk, so hundreds of cached plans do not slow down the collections of the server's process)."""
    return pickle.dumps(job(*args), protocol=pickle.HIGHEST_PROTOCOL)


# How often a worker checks that the server that started it still runs.
PARENT_CHECK_S = 1.0


def worker_start(niceness: int) -> None:
    """A worker process: end with the server that started it, lower its priority (speculative work yields to
    the page) and warm the engine. It leads a process group of its own, which the solver it runs (CBC, a child
    process) joins: the server ends the group at its exit (state.stop_workers), the solver with the worker, and a
    Ctrl-C in the server's terminal reaches the server alone, not each worker in the middle of a job."""
    with contextlib.suppress(OSError, AttributeError):   # AttributeError: no process groups (Windows)
        os.setpgid(0, 0)
    _end_with_parent(os.getppid())
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    from planner import catalog

    with contextlib.suppress(Exception):
        catalog.price_table("snapshot")


def _end_with_parent(parent: int) -> None:
    """End this process once `parent` is gone. A worker of a server that was killed is adopted and would
    wait for jobs for ever: it holds both ends of its job queue's pipe, so it never reads an end of file
    (and went on solving a stale job at full speed first)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="fleetplan-parent-watch", daemon=True).start()


def end_worker(pid: int) -> None:
    """End the worker process `pid` and what it runs (its solver): its process group (worker_start makes one of
    it), or the process alone where it has none of its own."""
    import signal

    with contextlib.suppress(OSError, AttributeError):
        if os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGTERM)
            return
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGTERM)
