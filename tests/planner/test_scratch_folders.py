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

from planner import scratch

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"

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


# a planner solving the worked example with CBC, whose CBC is a stand-in that writes its pid and sleeps
PLANNER_WITH_A_SLEEPING_CBC = """
import sys
from pathlib import Path
import pulp
from planner import load_scenario, plan

report = Path(sys.argv[2])
stand_in = report.with_name("cbc-stand-in")
stand_in.write_text(f"#!/bin/sh\\necho $$ > '{report}.part'\\nmv '{report}.part' '{report}'\\nexec sleep 300\\n")
stand_in.chmod(0o700)
pulp.PULP_CBC_CMD.pulp_cbc_path = str(stand_in)
plan(load_scenario(sys.argv[1]), solver="cbc", baselines=False)
"""


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
