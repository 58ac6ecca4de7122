"""Baselines solved in a forked child while the plan is solved (`plan(..., prefetch_baselines=True)`, then
`add_baselines`): the hand-worked baselines of the README's worked example, however the child ends —
and no child process is ever left behind (none to reap: `os.waitpid` finds no such child).

The child tests solve with CBC: this test process has run HiGHS already, and a child forked after that
does not use HiGHS (engine.baselines.can_fork); the HiGHS path runs in a fresh interpreter."""

import contextlib
import gc
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from planner import load_scenario
from planner.engine import add_baselines, plan
from planner.engine import baselines as baselines_module
from planner.engine import run as run_module
from planner.errors import InfeasibleError, SolverError
from planner.scenario import apply_overrides

solve_module = sys.modules["planner.engine.solve"]   # planner.engine.solve is also the name of a function

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
# test_plan.py works these out: the plan (one RTX A5000 + g5.xlarge on-demand) 8,385.46; all cloud
# 1,000 h × 1.006 × 24 = 24,144; all on-prem and the best single type: two A5000s, 7,029.2
WITH_CARD, ALL_CLOUD, TWO_CARDS = 8385.46, 24144.0, 7029.2
TWO_CORES = baselines_module.usable_cores() >= 2


def worked(**overrides):
    return apply_overrides(load_scenario(WORKED), overrides)


@pytest.fixture
def forks(monkeypatch):
    """The pids of the children forked during a test (os.fork spied on). Threads that earlier tests of the
    session leave idle (dask's) would stop `can_fork`: they are not counted here (the guard has its own test)."""
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    pids, real = [], os.fork

    def spy():
        pid = real()
        pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", spy)
    return pids


def reaped(pid: int) -> bool:
    """True when `pid` is no child of this process any more: ended and waited for (no zombie)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def assert_hand_worked(p, savings=True):
    b = p.baselines.set_index("baseline")
    assert b.loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD, rel=1e-6)
    assert b.loc["all_onprem", "total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    assert b.loc["best_single", "label"] == "only rtx-a5000"
    assert b.loc["best_single", "total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    if savings:
        assert b.loc["all_cloud", "savings"] == pytest.approx(ALL_CLOUD - WITH_CARD, rel=1e-6)
        assert b.loc["all_onprem", "savings_pct"] == pytest.approx((TWO_CARDS - WITH_CARD) / TWO_CARDS * 100, rel=1e-6)


def not_here(*args, **kwargs):
    raise AssertionError("the baselines were solved in the parent, not taken from the child")


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_the_child_s_baselines_are_the_hand_worked_ones_and_it_is_reaped(forks, monkeypatch):
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    assert p.total == pytest.approx(WITH_CARD, rel=1e-6) and p.baselines.empty
    assert len(forks) == 1
    monkeypatch.setattr(run_module, "baseline_rows", not_here)   # only the child's table can fill it now
    assert add_baselines(p, plans=False) is p
    assert_hand_worked(p)
    assert p.baseline_plans == {}
    assert reaped(forks[0])


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_child_that_dies_leaves_the_baselines_to_the_parent(forks, monkeypatch):
    parent, real = os.getpid(), baselines_module.baseline_rows

    def dies_in_the_child(*args, **kwargs):
        if os.getpid() != parent:
            os._exit(7)
        return real(*args, **kwargs)

    monkeypatch.setattr(baselines_module, "baseline_rows", dies_in_the_child)
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    add_baselines(p, plans=False)
    assert_hand_worked(p)
    assert len(forks) == 1 and reaped(forks[0])


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_stuck_child_is_killed_after_the_wait_and_the_parent_solves(forks, monkeypatch):
    parent, real = os.getpid(), baselines_module.baseline_rows

    def stuck_in_the_child(*args, **kwargs):
        if os.getpid() != parent:
            time.sleep(600)            # as a child waiting on a lock held at the fork would
        return real(*args, **kwargs)

    monkeypatch.setattr(baselines_module, "baseline_rows", stuck_in_the_child)
    monkeypatch.setattr(baselines_module, "CHILD_WAIT_S", 0.5)
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    add_baselines(p, plans=False)
    assert_hand_worked(p)
    assert len(forks) == 1 and reaped(forks[0])


def test_the_wait_for_a_child_grows_with_a_time_limit():
    # six baseline solves at most, each allowed the time limit, and a minute more
    assert baselines_module.child_wait_seconds(None) == baselines_module.CHILD_WAIT_S
    assert baselines_module.child_wait_seconds(200.0) == max(baselines_module.CHILD_WAIT_S, 1260.0)


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_solver_error_in_the_child_is_raised_in_the_parent(forks, monkeypatch):
    parent, real = os.getpid(), baselines_module.baseline_rows
    message = "all cloud: solver cbc found no fleet within the time limit of 1 s (1.0 s)"

    def stops_in_the_child(*args, **kwargs):
        if os.getpid() != parent:
            raise SolverError(message)
        return real(*args, **kwargs)

    monkeypatch.setattr(baselines_module, "baseline_rows", stops_in_the_child)
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    with pytest.raises(SolverError, match="^all cloud: solver cbc found no fleet within the time limit"):
        add_baselines(p, plans=False)
    assert len(forks) == 1 and reaped(forks[0])


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
@pytest.mark.parametrize("ask", [{"plans": True}, {"solver": "highs"}, {"time_limit": 30.0}])
def test_baselines_the_child_does_not_solve_are_solved_here(forks, ask):
    # the child solves the table alone, with the plan's solver and time limit: asked for more or other,
    # add_baselines ends it and solves them itself
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    add_baselines(p, **{"plans": False, **ask})
    assert_hand_worked(p)
    assert set(p.baseline_plans) == ({"all_cloud", "all_onprem", "best_single"} if ask.get("plans") else set())
    assert len(forks) == 1 and reaped(forks[0])


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_plan_dropped_without_its_baselines_leaves_no_child(forks):
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    assert len(forks) == 1
    del p
    gc.collect()
    assert reaped(forks[0])


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_plan_that_fails_after_the_fork_leaves_no_child(forks):
    # no budget for a card and no cloud allowed: the inputs resolve, the solve proves no fleet exists
    s = worked(**{"onprem.capex_budget": 0, "constraints.max_cloud_share": 0})
    with pytest.raises(InfeasibleError):
        plan(s, solver="cbc", baselines=False, prefetch_baselines=True)
    assert len(forks) == 1 and reaped(forks[0])


def _one_core(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)


def _highs_has_run(monkeypatch):
    monkeypatch.setattr(solve_module, "_highs_started", True)
    return "highs"


@pytest.mark.parametrize("setup", ["one core", "HiGHS has run here", "another thread runs", "no fork here"])
def test_no_child_where_forking_is_unsafe_or_useless(setup, monkeypatch):
    solver = "cbc"
    stop = threading.Event()
    if setup == "one core":
        _one_core(monkeypatch)
    elif setup == "HiGHS has run here":
        solver = _highs_has_run(monkeypatch)
    elif setup == "another thread runs":
        threading.Thread(target=stop.wait, daemon=True).start()
    else:
        monkeypatch.delattr(os, "fork")
    try:
        if hasattr(os, "fork"):
            monkeypatch.setattr(os, "fork", not_here)
        p = plan(worked(), solver=solver, baselines=False, prefetch_baselines=True)
        add_baselines(p, plans=False)
    finally:
        stop.set()
    assert_hand_worked(p)


HIGHS_CHILD = """
import json, os, sys
from planner.engine import add_baselines, plan, run
from planner.engine.baselines import can_fork
from planner.scenario import load_scenario_file
assert can_fork("highs"), "a fresh process with two cores may fork"
p = plan(load_scenario_file(sys.argv[1]), solver="highs", baselines=False, prefetch_baselines=True)
run.baseline_rows = None   # solving the baselines here would fail: the child's table must be used
add_baselines(p, plans=False)
try:
    os.waitpid(-1, os.WNOHANG)
    children = "left"
except ChildProcessError:
    children = "none"
print(json.dumps({"total": p.total, "children": children,
                  "baselines": p.baselines.set_index("baseline")[["label", "total", "savings"]].to_dict("index")}))
"""


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_highs_child_in_a_fresh_process_gives_the_hand_worked_baselines():
    done = subprocess.run([sys.executable, "-c", HIGHS_CHILD, str(WORKED)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)   # the child wrote nothing to stdout
    assert out["children"] == "none"
    assert out["total"] == pytest.approx(WITH_CARD, rel=1e-6)
    b = out["baselines"]
    assert b["all_cloud"]["total"] == pytest.approx(ALL_CLOUD, rel=1e-6)
    assert b["all_onprem"]["total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    assert b["best_single"]["label"] == "only rtx-a5000"
    assert b["all_cloud"]["savings"] == pytest.approx(ALL_CLOUD - WITH_CARD, rel=1e-6)


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_child_ended_mid_solve_ends_its_cbc_and_leaves_no_files(forks, monkeypatch, tmp_path, process_ended):
    # In the child, pulp writes the model file and starts CBC, which here never finishes (a stand-in that
    # sleeps). The parent, asked for the baselines' plans, ends the child: CBC must end with it (killed with
    # the child alone it would solve on as an orphan) and the child's files must go (it cannot delete them).
    import subprocess
    import tempfile

    temp, report = tmp_path / "temp", tmp_path / "cbc.pid"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    parent, real = os.getpid(), subprocess.Popen

    def endless_cbc_in_the_child(args, **kwargs):
        if os.getpid() == parent:
            return real(args, **kwargs)
        cbc = real([sys.executable, "-c", "import time; time.sleep(300)"], **kwargs)
        report.write_text(str(cbc.pid))
        return cbc

    monkeypatch.setattr(subprocess, "Popen", endless_cbc_in_the_child)
    p = plan(worked(), solver="cbc", baselines=False, prefetch_baselines=True)
    deadline = time.monotonic() + 60
    while not report.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    cbc = int(report.read_text())
    assert not process_ended(cbc, seconds=0) and [f.name for f in temp.rglob("*-pulp.mps")]   # it runs, its model written
    add_baselines(p, plans=True)   # more than the child solves: the parent ends it and solves them itself
    assert_hand_worked(p)
    assert len(forks) == 1 and reaped(forks[0])
    assert process_ended(cbc)
    assert list(temp.iterdir()) == []


# A plan whose baselines a forked child solves with CBC; in the child, CBC is a stand-in that never finishes
# and writes its pid to argv[2]. The parent prints "waiting" once the stand-in runs and then waits.
PARENT_OF_A_CBC_CHILD = """
import os, subprocess, sys, time
from planner import load_scenario
from planner.engine import plan

parent, real = os.getpid(), subprocess.Popen

def endless_cbc_in_the_child(args, **kwargs):
    if os.getpid() == parent:
        return real(args, **kwargs)
    cbc = real([sys.executable, "-c", "import time; time.sleep(300)"], **kwargs)
    with open(sys.argv[2] + ".part", "w") as f:
        f.write(str(cbc.pid))
    os.replace(sys.argv[2] + ".part", sys.argv[2])
    return cbc

subprocess.Popen = endless_cbc_in_the_child
p = plan(load_scenario(sys.argv[1]), solver="cbc", baselines=False, prefetch_baselines=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
print("waiting", flush=True)
time.sleep(300)
"""


# A plan whose baselines a forked child solves with CBC, to its end; the parent prints "waiting" once the child
# has exited (a zombie it has not reaped) and then waits.
PARENT_OF_A_FINISHED_CBC_CHILD = """
import os, sys, time
from pathlib import Path
from planner import load_scenario
from planner.engine import plan

p = plan(load_scenario(sys.argv[1]), solver="cbc", baselines=False, prefetch_baselines=True)
[child] = Path(f"/proc/self/task/{os.getpid()}/children").read_text().split()
while Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
    time.sleep(0.05)
print("waiting", flush=True)
time.sleep(300)
"""


@contextlib.contextmanager
def waiting_parent(script: str, temp: Path, *args: str):
    """A fresh interpreter running `script` (TMPDIR=`temp`), once it has printed "waiting"; killed at the end."""
    parent = subprocess.Popen([sys.executable, "-c", script, *args], cwd=ROOT, env={**os.environ, "TMPDIR": str(temp)},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline() == "waiting\n", parent.stderr.read()
        yield parent
    finally:
        parent.kill()
        parent.wait(timeout=60)
        parent.stdout.close()
        parent.stderr.close()


@pytest.mark.skipif(not TWO_CORES or not Path("/proc/self/task").exists(),
                    reason="one usable core: no child is started; reads the child's state in Linux's /proc")
def test_a_parent_killed_outright_after_its_child_finished_leaves_no_files(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    with waiting_parent(PARENT_OF_A_FINISHED_CBC_CHILD, temp, str(WORKED)) as parent:
        parent.kill()
        parent.wait(timeout=60)
        # the child removed its CBC folder itself once its solves were over: nobody is left to remove it
        assert list(temp.iterdir()) == []


@pytest.mark.skipif(not TWO_CORES, reason="one usable core: no child is started")
def test_a_parent_killed_outright_leaves_no_cbc_and_no_files(tmp_path, process_ended):
    # SIGKILL gives the parent no chance to end its child: the child, told by the kernel that its parent died
    # (PR_SET_PDEATHSIG), must end its CBC and remove the files itself
    import signal

    temp, report = tmp_path / "temp", tmp_path / "cbc.pid"
    temp.mkdir()
    cbc = None
    try:
        with waiting_parent(PARENT_OF_A_CBC_CHILD, temp, str(WORKED), str(report)) as parent:
            cbc = int(report.read_text())
            [folder] = temp.iterdir()   # the child's CBC folder, with the model pulp wrote for CBC
            assert folder.name.startswith("fleetplan-baselines-") and list(folder.rglob("*-pulp.mps"))
            assert not process_ended(cbc, seconds=0)
            parent.kill()
            parent.wait(timeout=60)
            assert process_ended(cbc)
            deadline = time.monotonic() + 10
            while list(temp.iterdir()) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert list(temp.iterdir()) == []
    finally:
        if cbc is not None and not process_ended(cbc, seconds=0):
            os.kill(cbc, signal.SIGKILL)
