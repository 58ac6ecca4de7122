"""CBC's scratch folders (planner.scratch): a folder left by a planner killed outright is removed by the next
planner's first scratch folder in the same temporary directory; a folder in use, and anything that is not
a scratch folder this module made, is left alone.

The owners here are real processes, killed with SIGKILL as the OOM killer would; the end-to-end case runs
the planner with a stand-in CBC that sleeps (as test_cbc_dies_with_the_planner.py does)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_baseline_child import PARENT_OF_A_CBC_CHILD
from test_cbc_dies_with_the_planner import PLANNER_WITH_A_SLEEPING_CBC, WORKED

from planner import scratch

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(scratch.fcntl is None, reason="scratch folders are locked with flock (POSIX)")

# a process that makes a scratch folder with a file in it, prints its path and sleeps; with "fork" it forks
# first a child that shares the folder's lock (as the baselines child does), prints the child's pid, and sleeps
OWNER = """
import os, sys, time
from planner.scratch import ScratchFolder
folder = ScratchFolder("cbc")
with open(os.path.join(folder.path, "model-pulp.mps"), "w") as fh:
    fh.write("NAME model")
if sys.argv[1:] == ["fork"]:
    child = os.fork()
    if child == 0:
        time.sleep(300)
        os._exit(0)
    print(child, flush=True)
print(folder.path, flush=True)
time.sleep(300)
"""


def start_owner(temp: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", OWNER, *args], cwd=ROOT, env={**os.environ, "TMPDIR": str(temp)},
                            stdout=subprocess.PIPE, text=True)


def killed(proc: subprocess.Popen) -> None:
    proc.kill()
    proc.wait(timeout=60)
    proc.stdout.close()


@pytest.fixture
def temp(tmp_path, monkeypatch) -> Path:
    """A temporary directory of the test's own, not yet cleared by this process."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setattr(scratch, "_swept", set())
    return folder


def test_a_folder_whose_owner_was_killed_outright_is_removed_by_the_next_scratch_folder(temp):
    owner = start_owner(temp)
    try:
        left = Path(owner.stdout.readline().strip())
    finally:
        killed(owner)
    assert left.parent == temp and (left / "model-pulp.mps").exists()   # SIGKILL: nobody removed it
    with scratch.scratch_folder("cbc") as path:
        assert not left.exists()
        assert [p.name for p in temp.iterdir()] == [Path(path).name]
    assert list(temp.iterdir()) == []


def test_a_folder_in_use_is_left_alone_until_its_owner_ends(temp):
    owner = start_owner(temp)
    try:
        in_use = Path(owner.stdout.readline().strip())
        assert scratch.remove_abandoned(str(temp)) == []
        assert (in_use / "model-pulp.mps").exists()
    finally:
        killed(owner)
    assert scratch.remove_abandoned(str(temp)) == []   # once per process and directory
    scratch._swept.clear()
    assert scratch.remove_abandoned(str(temp)) == [str(in_use)]
    assert not in_use.exists()


def test_a_forked_child_keeps_the_folder_after_its_maker_is_killed(temp, process_ended):
    # the baselines child: its parent made the folder and was killed; the child still solves in it
    owner = start_owner(temp, "fork")
    child = int(owner.stdout.readline())
    try:
        folder = Path(owner.stdout.readline().strip())
        killed(owner)
        assert scratch.remove_abandoned(str(temp)) == []
        assert folder.exists()
    finally:
        os.kill(child, signal.SIGKILL)
    assert process_ended(child)
    scratch._swept.clear()
    assert scratch.remove_abandoned(str(temp)) == [str(folder)]


def test_what_is_not_an_abandoned_scratch_folder_is_left_alone(temp, tmp_path, monkeypatch):
    def unlocked_folder(path: Path) -> Path:
        path.mkdir()
        (path / scratch.OWNER).write_text("")   # an .owner file nobody locks
        (path / "data").write_text("keep")
        return path

    target = unlocked_folder(tmp_path / "elsewhere")
    (temp / "fleetplan-cbc-link").symlink_to(target, target_is_directory=True)   # a symlink to a folder
    no_owner = temp / "fleetplan-cbc-noowner"                                    # no .owner: an older planner's
    no_owner.mkdir()
    (no_owner / "data").write_text("keep")
    owner_link = temp / "fleetplan-cbc-ownerlink"                                # .owner is a symlink
    owner_link.mkdir()
    (owner_link / scratch.OWNER).symlink_to(target / scratch.OWNER)
    (temp / "fleetplan-cbc-file").write_text("keep")                             # a file, not a folder
    other_name = unlocked_folder(temp / "mine-not-fleetplan")                    # another name
    before = sorted(p.name for p in temp.iterdir())

    assert scratch.remove_abandoned(str(temp)) == []
    assert sorted(p.name for p in temp.iterdir()) == before
    assert (target / "data").read_text() == "keep" and (other_name / "data").read_text() == "keep"

    # another user's folder: the same unlocked folder, seen by a process of another uid
    theirs = unlocked_folder(temp / "fleetplan-cbc-theirs")
    scratch._swept.clear()
    monkeypatch.setattr(scratch.os, "getuid", lambda: os.stat(theirs).st_uid + 1)
    assert scratch.remove_abandoned(str(temp)) == []
    monkeypatch.undo()
    monkeypatch.setattr(scratch, "_swept", set())
    assert scratch.remove_abandoned(str(temp)) == [str(theirs)]   # its owner's own planner does remove it


def test_two_planners_clearing_at_once_remove_a_folder_once(temp):
    owner = start_owner(temp)
    try:
        left = Path(owner.stdout.readline().strip())
    finally:
        killed(owner)
    # the other planner holds the lock of the folder it is removing: this one leaves it to it
    fd = os.open(left / scratch.OWNER, os.O_RDONLY)
    try:
        scratch.fcntl.flock(fd, scratch.fcntl.LOCK_EX | scratch.fcntl.LOCK_NB)
        assert scratch.remove_abandoned(str(temp)) == []
        assert left.exists()
    finally:
        os.close(fd)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CBC dies with the planner on Linux only")
def test_the_next_cbc_plan_removes_the_folder_of_a_planner_killed_outright(tmp_path, process_ended):
    if os.statvfs(tmp_path).f_flag & os.ST_NOEXEC:
        pytest.skip("the stand-in CBC is a script in the temporary folder, mounted noexec here")
    temp, report = tmp_path / "temp", tmp_path / "cbc.pid"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    planner = subprocess.Popen([sys.executable, "-c", PLANNER_WITH_A_SLEEPING_CBC, str(WORKED), str(report)],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cbc = None
    try:
        deadline = time.monotonic() + 60
        while not report.exists() and time.monotonic() < deadline and planner.poll() is None:
            time.sleep(0.05)
        assert report.exists(), "the planner never started its CBC"
        cbc = int(report.read_text())
        planner.kill()
        planner.wait(timeout=60)
        assert process_ended(cbc)
    finally:
        planner.kill()
        planner.wait(timeout=60)
        if cbc is not None and not process_ended(cbc, seconds=0):
            os.kill(cbc, signal.SIGKILL)
    [left] = temp.iterdir()
    assert left.name.startswith("fleetplan-cbc-") and list(left.glob("*-pulp.mps"))

    fleetplan = Path(sys.executable).with_name("fleetplan")
    done = subprocess.run([str(fleetplan), "plan", str(WORKED), "--solver", "cbc", "--no-baselines",
                           "--no-decisions", "--format", "json"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list(temp.iterdir()) == []


def test_a_folder_whose_owner_file_cannot_be_made_still_works_and_is_left_to_its_maker(temp, monkeypatch):
    # no room for the .owner file (a full disk): the folder is made and used as before, and removed by its
    # maker; unlocked and without .owner, no other planner's sweep would take it
    real_open = os.open

    def full(path, *args, **kwargs):
        if str(path).endswith(scratch.OWNER + ".part"):
            raise OSError(28, "No space left on device")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(scratch.os, "open", full)
    folder = scratch.ScratchFolder("cbc")
    monkeypatch.undo()
    monkeypatch.setattr(scratch, "_swept", set())
    assert Path(folder.path).is_dir() and list(Path(folder.path).iterdir()) == []
    assert scratch.remove_abandoned(str(temp)) == []
    folder.remove()
    assert list(temp.iterdir()) == []


def test_an_owner_file_that_is_a_fifo_is_left_alone_without_waiting(temp):
    # a read-only open of a FIFO waits for a writer: the sweep must neither hang nor take the folder
    folder = temp / "fleetplan-cbc-fifo"
    folder.mkdir()
    os.mkfifo(folder / scratch.OWNER)
    swept = subprocess.run([sys.executable, "-c", "import sys; from planner import scratch; "
                            "print(scratch.remove_abandoned(sys.argv[1]))", str(temp)],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert swept.returncode == 0 and swept.stdout.strip() == "[]", swept.stderr
    assert folder.is_dir()


def test_folders_that_cannot_be_removed_do_not_use_up_the_sweep(temp, monkeypatch):
    # 1,500 folders of an older planner (no .owner: left alone) and 20 abandoned ones, more folders than the
    # sweep tries: every abandoned one goes in one sweep, whatever order the directory lists them in
    monkeypatch.setattr(scratch, "MOST_EXAMINED", 50)
    for n in range(1500):
        (temp / f"fleetplan-cbc-old{n}").mkdir()
    abandoned = []
    for n in range(20):
        folder = temp / f"fleetplan-cbc-gone{n}"
        folder.mkdir()
        (folder / scratch.OWNER).write_text("")   # its owners ended: nobody holds the lock
        abandoned.append(str(folder))
    assert sorted(scratch.remove_abandoned(str(temp))) == sorted(abandoned)
    assert len(list(temp.iterdir())) == 1500


def test_a_folder_holding_a_scratch_folder_in_use_is_left_alone(temp):
    # a sweep killed outright whose worker (started, not forked: it shared no lock) still solves in a CBC
    # folder inside the sweep's: the sweep's folder stays until that worker's folder is free
    outer = temp / "fleetplan-sweep-gone"
    outer.mkdir()
    (outer / scratch.OWNER).write_text("")
    worker = start_owner(outer)
    try:
        inner = Path(worker.stdout.readline().strip())
        assert inner.parent == outer
        assert scratch.remove_abandoned(str(temp)) == []
        assert (inner / "model-pulp.mps").exists()
    finally:
        killed(worker)
    scratch._swept.clear()
    assert scratch.remove_abandoned(str(temp)) == [str(outer)]


# A parent that forks the baselines' child with CBC (its CBC a stand-in that sleeps), then lets go of its own
# copy of the folder's lock, as if it had ended while the child solves on; prints the folder's path.
PARENT_LETTING_GO = PARENT_OF_A_CBC_CHILD.split("p = plan(")[0] + """
from planner.engine import inputs_for
from planner.engine.baselines import start_baseline_child

child = start_baseline_child(inputs_for(load_scenario(sys.argv[1])), "cbc", None)
assert child is not None, "no child forked"
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
os.close(child.folder.lock_fd)
child.folder._lock = None
print(child.folder.path, flush=True)
time.sleep(300)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child dies with its parent on Linux only")
def test_the_baselines_child_shares_its_folders_lock(tmp_path, process_ended):
    from planner.engine.baselines import usable_cores

    if usable_cores() < 2:
        pytest.skip("one usable core: no child is started")
    temp, report = tmp_path / "temp", tmp_path / "cbc.pid"
    temp.mkdir()
    parent = subprocess.Popen([sys.executable, "-c", PARENT_LETTING_GO, str(WORKED), str(report)], cwd=ROOT,
                              env={**os.environ, "TMPDIR": str(temp)}, stdout=subprocess.PIPE, text=True)
    cbc = None
    try:
        folder = Path(parent.stdout.readline().strip())
        cbc = int(report.read_text())
        assert folder.name.startswith("fleetplan-baselines-") and folder.is_dir()
        fd = os.open(folder / scratch.OWNER, os.O_RDONLY)
        try:   # the folder's own lock, not only its CBC folder's: the child holds it between its solves too
            with pytest.raises(BlockingIOError):
                scratch.fcntl.flock(fd, scratch.fcntl.LOCK_EX | scratch.fcntl.LOCK_NB)
        finally:
            os.close(fd)
        assert scratch.remove_abandoned(str(temp)) == []   # the child holds the lock: its folder stays
        assert folder.is_dir()
    finally:
        killed(parent)   # the child, told by the kernel, ends its CBC and removes its folder itself
        if cbc is not None:
            assert process_ended(cbc)


# A sweep's worker started as a new process (not forked) with the sweep folder's lock, whose sweep then lets go
# of its own copy; prints the worker's pid and the folder's path.
SWEEP_LETTING_GO = """
import os, sys, time
from planner.reports.sweep import _start_worker
from planner.scratch import ScratchFolder

folder = ScratchFolder("sweep")
worker = _start_worker({**os.environ, "TMPDIR": folder.path}, (folder.lock_fd,))
os.close(folder.lock_fd)
folder._lock = None
print(worker.pid, flush=True)
print(folder.path, flush=True)
time.sleep(300)
"""


def test_a_started_sweep_worker_shares_the_sweep_folders_lock(temp, process_ended):
    sweep = subprocess.Popen([sys.executable, "-c", SWEEP_LETTING_GO], cwd=ROOT, env={**os.environ, "TMPDIR": str(temp)},
                             stdout=subprocess.PIPE, text=True)
    worker = None
    try:
        worker = int(sweep.stdout.readline())
        folder = Path(sweep.stdout.readline().strip())
        assert scratch.remove_abandoned(str(temp)) == []   # the worker holds the lock
        assert folder.is_dir()
    finally:
        killed(sweep)   # the worker's stdin closes with it: the worker ends
        if worker is not None and not process_ended(worker):
            os.kill(worker, signal.SIGKILL)
    scratch._swept.clear()
    assert scratch.remove_abandoned(str(temp)) == [str(folder)]
