"""planner.fileio.write_atomic on paths that are not plain files: a symlink is written through to its
target and stays a link; a FIFO is written to as a stream and stays a FIFO (it was once replaced by a
regular file, leaving its reader waiting for ever)."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from planner import fileio
from planner.fileio import write_atomic, write_folder_atomic


def test_a_symlink_is_kept_and_its_target_gets_the_new_text(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "target.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert write_atomic(link, "new") == link
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["target.json"]   # no temporary file left


def test_a_dangling_symlink_gets_its_target_created(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    write_atomic(link, "made")
    assert link.is_symlink() and (tmp_path / "later.json").read_text() == "made"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_written_as_a_stream_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomic(fifo, b"through the pipe")
    reader.join(10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_a_regular_file_is_still_replaced_whole(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("old")
    inode = path.stat().st_ino
    write_atomic(path, "new")
    assert path.read_text() == "new" and path.stat().st_ino != inode   # a new file renamed into place


def test_a_write_removes_the_temporary_files_killed_writers_left_and_only_those(tmp_path):
    import subprocess
    import sys

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    dead_pid = int(dead.stdout)   # exited: no process has this id now (ids are not reused this soon)
    target = tmp_path / "plan.json"
    left = tmp_path / f".plan.json.tmp-{dead_pid}-k1x2.tmp"            # a writer killed mid-write
    running = tmp_path / f".plan.json.tmp-{os.getpid()}-a9b8.tmp"     # a writer still running (this process)
    other = tmp_path / f".other.json.tmp-{dead_pid}-zz.tmp"            # another file's: not this write's to judge
    for f in (left, running, other):
        f.write_text("half")
    write_atomic(target, "{}")
    assert target.read_text() == "{}"
    assert not left.exists() and running.exists() and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, running.name, other.name])


# ---------------------------------------------------------------------------------------------------
# A folder that cannot be swapped: a mount point (a Docker volume given as --out), a parent not writable

def _refuse(code: int):
    def refused(*args, **kwargs):
        raise OSError(code, os.strerror(code), "refused here as the system refuses it there")
    return refused


@pytest.mark.parametrize("where, code", [("_swap", errno.EBUSY), ("_swap", errno.EPERM),
                                         ("mkdtemp", errno.EACCES), ("mkdtemp", errno.EROFS)],
                         ids=["mount point", "immutable parent", "parent not writable", "parent read-only mount"])
def test_a_folder_that_cannot_be_swapped_gets_each_file_replaced_whole(tmp_path, monkeypatch, where, code):
    # was: "cannot write: Device or resource busy" (mount point) or "Operation not permitted" (parent folder)
    out = tmp_path / "volume"
    out.mkdir()
    (out / "fleet.csv").write_text("old fleet")
    (out / "notes.txt").write_text("the user's own file")
    if where == "_swap":
        monkeypatch.setattr(fileio, "_swap", _refuse(code))
    else:
        monkeypatch.setattr(fileio.tempfile, "mkdtemp", _refuse(code))
    assert write_folder_atomic(out, {"fleet.csv": "new fleet", "plan.json": b"{}"}) == out
    assert (out / "fleet.csv").read_text() == "new fleet" and (out / "plan.json").read_bytes() == b"{}"
    assert (out / "notes.txt").read_text() == "the user's own file"   # not the set's: left as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == ["volume"]     # no temporary folder left beside it
    assert sorted(p.name for p in out.iterdir()) == ["fleet.csv", "notes.txt", "plan.json"]   # nor in it


def test_a_folder_that_does_not_exist_and_cannot_be_made_by_a_swap_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(fileio, "_swap", _refuse(errno.EBUSY))
    with pytest.raises(OSError, match="Device or resource busy"):
        write_folder_atomic(tmp_path / "new", {"fleet.csv": "x"})
    assert list(tmp_path.iterdir()) == []


def test_plan_out_into_a_mount_point_writes_the_files(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from planner.cli import app

    monkeypatch.setattr(fileio, "_swap", _refuse(errno.EBUSY))
    out = tmp_path / "volume"
    out.mkdir()
    worked = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"
    result = CliRunner().invoke(app, ["plan", str(worked), "--no-decisions", "--no-baselines", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "plan.json").is_file() and (out / "fleet.csv").is_file()


def test_a_failure_while_writing_into_a_folder_that_cannot_be_swapped_leaves_the_previous_set(tmp_path, monkeypatch):
    # each file was replaced as it was written: a full disk at the third left two new files beside old ones
    out = tmp_path / "volume"
    out.mkdir()
    old = {"plan.json": "old plan", "fleet.csv": "old fleet", "monthly.csv": "old monthly"}
    for name, text in old.items():
        (out / name).write_text(text)
    monkeypatch.setattr(fileio, "_swap", _refuse(errno.EBUSY))
    real, calls = fileio._write_fd, []

    def full_at_the_third(fd, data, sync=True):
        calls.append(fd)
        if len(calls) == 3:
            os.close(fd)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data, sync)

    monkeypatch.setattr(fileio, "_write_fd", full_at_the_third)
    with pytest.raises(OSError, match="No space left on device"):
        write_folder_atomic(out, dict.fromkeys(old, "new"))
    assert {p.name: p.read_text() for p in out.iterdir()} == old   # the previous set, and no temporary file
