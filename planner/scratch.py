"""Scratch folders for CBC's files (pulp's MPS and solution files): one per CBC solve (engine.solve), per
baselines child (engine.baselines) and per sweep (reports.sweep), removed when that ends.

A planner killed outright (SIGKILL, the OOM killer) cannot remove its folder, and nothing else knew to:
each folder therefore holds an `.owner` file locked (flock) by the processes using it — a forked child
shares the lock —, and the kernel drops the lock when the last of them ends, however it ended. Making a
scratch folder first removes, once per process and temporary directory, the folders there whose lock is
free: only this user's directories named `fleetplan-*` that hold an `.owner` file. A symlink, another
user's folder, a folder without the file (one being made, or made by an older planner) and a folder whose
lock is held are left alone; the lock stays held while a folder is removed, so two planners never remove
one folder together. Without flock (Windows) folders are made without the lock and none is removed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator

try:
    import fcntl
except ImportError:   # Windows
    fcntl = None

PREFIX = "fleetplan-"
OWNER = ".owner"
# a temporary directory holds many entries; at most this many fleetplan-* folders are looked into per process
MOST_EXAMINED = 1000
_swept: set[str] = set()   # temporary directories this process has already cleared


class ScratchFolder:
    """A folder of this process's (and the processes it forks) in the temporary directory: `path`."""

    def __init__(self, kind: str):
        directory = tempfile.gettempdir()
        remove_abandoned(directory)
        self.path = tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-", dir=directory)
        self._lock = _lock_owner_file(self.path)

    def remove(self) -> None:
        """Remove the folder and its files (the lock held meanwhile), then let the lock go."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


@contextlib.contextmanager
def scratch_folder(kind: str) -> Iterator[str]:
    """The path of a new scratch folder named fleetplan-`kind`-…, removed when the block ends."""
    folder = ScratchFolder(kind)
    try:
        yield folder.path
    finally:
        folder.remove()


def _lock_owner_file(path: str) -> int | None:
    """The descriptor holding the lock of `path`'s `.owner` file, or None without flock. The file is locked
    under another name, then renamed: a sweep never finds it unlocked while its folder is in use."""
    if fcntl is None:
        return None
    part = os.path.join(path, OWNER + ".part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError:   # no room for one more file: the solve says so when pulp writes the model
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(part, os.path.join(path, OWNER))
    except OSError:   # a file system without flock: a folder without `.owner`, never removed by a sweep
        os.close(fd)
        return None
    return fd


def remove_abandoned(directory: str) -> list[str]:
    """Remove the scratch folders in `directory` whose owners have all ended (once per process and
    directory); the paths removed."""
    if fcntl is None or directory in _swept:
        return []
    _swept.add(directory)
    removed = []
    try:
        entries = os.scandir(directory)
    except OSError:
        return []
    with entries:
        examined = 0
        for entry in entries:
            if not entry.name.startswith(PREFIX):
                continue
            examined += 1
            if examined > MOST_EXAMINED:
                break
            if _remove_if_abandoned(entry):
                removed.append(entry.path)
    return removed


def _remove_if_abandoned(entry: os.DirEntry) -> bool:
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return False
    try:
        fd = os.open(os.path.join(entry.path, OWNER), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:   # no `.owner`: not a folder this module made and locked
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:   # held: a process using the folder is running
            return False
        shutil.rmtree(entry.path, ignore_errors=True)
        return not os.path.lexists(entry.path)
    finally:
        os.close(fd)
