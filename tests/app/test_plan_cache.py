"""How the dashboard keeps a slider step fast: plans cached as pickles, plans under way waited for rather
than made twice, worker lanes that drop the work a new page run no longer wants, worker processes that
neither draw the app nor import Streamlit, and the garbage collector kept off the cached objects.

Facts from outside the code: Python's `spawn` start method runs the parent's main file in the child as
`__mp_main__` (multiprocessing docs, "Safe importing of main module"); `gc.freeze` moves every tracked
object to the permanent generation (`gc.get_freeze_count`); the library's `plan()` on the same scenario.
No timing is asserted: the waits below only bound how long a broken lane may hang the test.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from fleetplan_dashboard import jobs, state
from planner import load_scenario
from planner.engine import plan
from planner.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
WAIT_S = 60   # generous: only a broken lane waits this long


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.parametrize("main_file", ["app.py", "fleetplan_dashboard/app.py"])
def test_a_spawned_worker_running_the_apps_main_file_draws_nothing_and_imports_no_streamlit(main_file):
    # what a `spawn` worker does with the server's main file before it runs a job
    out = _python(f"import runpy, sys; runpy.run_path({main_file!r}, run_name='__mp_main__'); "
                  "print(sorted(m for m in ('streamlit', 'fleetplan_dashboard.state', 'planner') if m in sys.modules))")
    assert out == "[]"


def test_the_worker_jobs_import_the_engine_but_not_streamlit():
    out = _python("import sys, fleetplan_dashboard.jobs; print('streamlit' in sys.modules, 'planner.engine' in sys.modules)")
    assert out == "False True"


def test_settling_the_heap_freezes_what_is_alive_and_turns_the_collector_back_on():
    out = _python("import gc; import fleetplan_dashboard.state as s; gc.disable(); s.settle_heap(); "
                  "print(gc.isenabled(), gc.get_freeze_count() > 10_000)")
    assert out == "True True"


@pytest.fixture()
def entry():
    state.clear_plan_cache()
    yield load_scenario(ENTRY)
    state.clear_plan_cache()


def test_the_cache_holds_a_pickle_and_gives_each_caller_its_own_copy_of_the_librarys_plan(entry):
    first = state.recommended(entry)
    again = state.recommended(entry)
    assert first.kind == again.kind == "ok"
    assert again.plan is not first.plan                       # a copy: no caller can change the cached plan
    assert again.plan.total == pytest.approx(plan(entry, baselines=False).total, rel=1e-9)
    cached = state._plans[state._key("plan", entry, state.DEFAULT_SOLVER)].result()
    assert isinstance(cached, bytes) and pickle.loads(cached).plan.total == again.plan.total


def test_a_plan_under_way_elsewhere_is_waited_for_not_made_again(entry):
    key = state._key("plan", entry, state.DEFAULT_SOLVER)
    under_way = Future()
    under_way.set_running_or_notify_cancel()
    state._remember(key, under_way)
    state._plan_seconds[entry.name] = WAIT_S        # planning it here would take long: wait for the worker
    made_elsewhere = jobs.Outcome("ok", plan=plan(entry, baselines=False), message="made by a worker")
    threading.Timer(0.2, under_way.set_result, [pickle.dumps(made_elsewhere)]).start()
    try:
        assert state.recommended(entry).message == "made by a worker"
    finally:
        state._plan_seconds.pop(entry.name, None)


# ---------------------------------------------------------------------------------------------------
# Lanes: one job at a time, the waiting ones replaced by the next page run

def _job(name: str, ran: list, gate: threading.Event | None = None, proxy: Future | None = None) -> state._Job:
    key = ("test", name)

    def work() -> str:
        if gate is not None:
            gate.wait(WAIT_S)
        ran.append(name)
        return name

    if proxy is not None:
        state._remember(key, proxy)
    return state._Job(lambda: (key, work, ()), key if proxy is not None else None, proxy)


def _submitted(key: tuple) -> Future:
    """The Future a lane has put in the cache for `key`, once it has (polled; bounded by WAIT_S)."""
    pause = threading.Event()
    for _ in range(WAIT_S * 20):
        future = state._plans.get(key)
        if future is not None:
            return future
        pause.wait(0.05)
    raise AssertionError(f"{key} was never submitted")


def _refused() -> tuple:
    raise ScenarioError(["workloads.a.gpu_hours_per_month: must be >= 0"])


@pytest.fixture()
def lane(monkeypatch):
    lane = state._Lane(0)
    pool = ThreadPoolExecutor(1)            # the same lane, with a thread for the worker process
    monkeypatch.setattr(lane, "_executor", lambda: pool)
    yield lane
    pool.shutdown(wait=True, cancel_futures=True)
    state.clear_plan_cache()


def test_a_new_list_replaces_the_waiting_jobs_and_the_job_under_way_finishes(lane):
    ran: list[str] = []
    gate = threading.Event()
    lane.replace([_job("a", ran, gate)])
    _submitted(("test", "a"))                       # a is under way (held at the gate)
    dropped = Future()
    lane.replace([_job("b", ran, proxy=dropped), _job("c", ran)])
    lane.replace([state._Job(_refused), _job("d", ran)])   # b and c are no longer wanted; the refused one is skipped
    assert dropped.cancelled() and ("test", "b") not in state._plans
    gate.set()
    assert pickle.loads(_submitted(("test", "d")).result(timeout=WAIT_S)) == "d"
    assert ran == ["a", "d"]
    assert pickle.loads(state._plans[("test", "a")].result()) == "a"   # the job under way was kept, and cached


def test_a_job_whose_result_is_cached_is_not_run_again(lane):
    ran: list[str] = []
    lane.replace([_job("a", ran)])
    _submitted(("test", "a")).result(timeout=WAIT_S)
    waiting = Future()
    lane.replace([_job("a", ran), _job("b", ran, proxy=waiting)])
    assert pickle.loads(waiting.result(timeout=WAIT_S)) == "b"
    assert ran == ["a", "b"]


def test_a_dead_worker_fails_the_job_the_page_waits_for_instead_of_leaving_it_pending(monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    class DeadPool:
        def submit(self, *args):
            raise BrokenProcessPool("A child process terminated abruptly")

    lane = state._Lane(0)
    lane.pool = DeadPool()
    waited_for, behind = Future(), Future()
    state._remember(("test", "waited"), waited_for)
    state._remember(("test", "behind"), behind)
    try:
        lane.replace([state._Job(lambda: (("test", "waited"), str, ()), ("test", "waited"), waited_for),
                      state._Job(lambda: (("test", "behind"), str, ()), ("test", "behind"), behind)])
        with pytest.raises(BrokenProcessPool):
            waited_for.result(timeout=WAIT_S)
        assert behind.cancelled()
        assert lane.pool is None          # the next job starts a new worker
    finally:
        state.clear_plan_cache()


def test_the_main_sliders_are_planned_ahead_before_growth_and_pue(entry):
    values = state.default_edits(entry)
    moved = [next(k for k, v in values.items() if k.startswith("demand:")), 1]
    after = {**values, moved[0]: values[moved[0]] + 10}
    ahead = state.next_values(entry, after, tuple(moved))
    changed = [next(k for k in v if v[k] != after[k]) for v in ahead]
    first_minor = min(i for i, k in enumerate(changed) if k.startswith("growth:") or k == "pue")
    assert {"horizon_months", "electricity_per_kwh"} <= set(changed[:first_minor])
    assert all(k.startswith("growth:") or k == "pue" for k in changed[first_minor:])
