"""Scratch folders for CBC's files (pulp's MPS and solution files): one per CBC solve (engine.solve), per
baselines child (engine.baselines) and per sweep (reports.sweep), removed when that ends.

A planner killed outright (SIGKILL, the OOM killer) cannot remove its folder, and nothing else knew to:
each folder therefore holds an `.owner` file locked (flock) by the processes using it — a forked child
shares the lock, and so does a process started with the descriptor (`lock_fd`, pass_fds) —, and the kernel
drops the lock when the last of them ends, however it ended. Making a scratch folder first removes, once
per process and temporary directory, the folders there whose lock is free: only this user's directories
named `fleetplan-*` that hold a regular `.owner` file. A symlink, another user's folder, a folder without
the file (one being made, or made by an older planner), a folder whose lock is held and one holding a
scratch folder whose lock is held (a CBC folder inside a sweep's) are left alone; the lock stays held while
a folder is removed, so two planners never remove one folder together. Without flock (Windows) folders are
made without the lock and none is removed.
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
# at most this many folders holding an `.owner` file are tried per process and directory: the lock of each
# is one system call, while folders without the file (an older planner's, another user's) cost a failed open
MOST_EXAMINED = 1000
_swept: set[str] = set()   # temporary directories this process has already cleared


class ScratchFolder:
    """A folder of this process's (and the processes it forks) in the temporary directory: `path`."""

    def __init__(self, kind: str):
        directory = tempfile.gettempdir()
        remove_abandoned(directory)
        self.path = tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-", dir=directory)
        self._lock = _lock_owner_file(self.path)

    @property
    def lock_fd(self) -> int | None:
        """The descriptor holding the folder's lock (None without flock): a process started with it (pass_fds)
        shares the lock, as a forked child does."""
        return self._lock

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
        tried = 0
        for entry in entries:
            if tried >= MOST_EXAMINED:
                break
            fd = _owner_file(entry)
            if fd is None:
                continue
            tried += 1
            try:
                if _locked(fd) and not _holds_a_folder_in_use(entry.path):
                    shutil.rmtree(entry.path, ignore_errors=True)
                    if not os.path.lexists(entry.path):
                        removed.append(entry.path)
            finally:
                os.close(fd)   # the lock held while the folder was removed goes with it
    return removed


def _owner_file(entry: os.DirEntry) -> int | None:
    """A descriptor of the `.owner` file of `entry` when it is one of this user's scratch folders (a real
    directory named fleetplan-*, holding a regular `.owner`), else None. Opened without following a
    symlink and without waiting (a FIFO would block a read-only open)."""
    if not entry.name.startswith(PREFIX):
        return None
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return None
    try:
        fd = os.open(os.path.join(entry.path, OWNER), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:   # no `.owner`: not a folder this module made and locked
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _locked(fd: int) -> bool:
    """Whether this process got the lock of `fd` (False: a process using the folder holds it)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _holds_a_folder_in_use(path: str) -> bool:
    """Whether a scratch folder inside `path` is locked: a process that shared no lock with the folder's
    owners (a sweep worker started, not forked, by a sweep since killed) may still solve in it."""
    try:
        entries = os.scandir(path)
    except OSError:
        return True   # unreadable: leave it
    with entries:
        for entry in entries:
            fd = _owner_file(entry)
            if fd is None:
                continue
            try:
                if not _locked(fd):
                    return True
            finally:
                os.close(fd)
    return False
