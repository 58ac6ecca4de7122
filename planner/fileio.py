"""Atomic file writes. One file: a temporary file in the same folder, then a rename. A set of files:
a temporary sibling folder, then one swap of folders. A failure leaves no half file and no mixed set."""

from __future__ import annotations

import ctypes
import errno
import glob
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def file_stamp(path: str | Path) -> tuple | None:
    """What changes whenever the file at `path` is written or replaced, for a cache key; None when it
    cannot be read. mtime and size alone miss a rewrite of the same size whose old mtime was put back
    (`touch -r`, `cp -p`, `rsync -t`, a tar extracted with fixed times); the change time cannot be set back
    (utime itself sets it to now) and the inode changes when the file is replaced by a rename."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def not_a_path(value: object, given_as: str, what: str, example: str = "") -> str | None:
    """Why `value`, given to the library as `given_as` ("store=") for the path of `what` ("the price store file"),
    names no file: "store=123: expected the path of the price store file (a str or Path), not int"; None for what
    open() takes as a path (text, bytes, a pathlib path or any os.PathLike). Checked where the library is given a
    path: None or 123 raised os.fspath's "expected str, bytes or os.PathLike object, not int" from deep inside,
    naming neither the argument nor what it is for."""
    if isinstance(value, (str, bytes, os.PathLike)):
        return None
    shown = repr(value) if len(repr(value)) <= 60 else f"{repr(value)[:60]}…"
    e_g = f", e.g. {example}" if example else ""
    return f"{given_as}{shown}: expected the path of {what} (a str or Path{e_g}), not {type(value).__name__}"


def file_problem(path: str | Path) -> str | None:
    """Why `path` cannot be read as an input file, in a few words ("file not found", "not a regular file",
    "cannot open: File name too long"); None when it is a regular file. Path.is_file raises for a name too
    long or a folder it may not search, and says True of nothing a FIFO would block on."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "file not found"
    except OSError as exc:
        return f"cannot open: {exc.strerror or exc}"
    except ValueError:   # a NUL character: no file can have that name
        return "file not found (the name holds a NUL character)"
    return None if stat.S_ISREG(st.st_mode) else "not a regular file"


def open_for_reading(path: str | Path):
    """`path` opened to read bytes, as open(path, "rb") does, except that a FIFO no process writes to reads as
    empty instead of blocking for ever (opened non-blocking, then read blocking: a pipe whose writer is there,
    such as bash's `<(…)`, reads as usual)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write `data` to `path` so that readers see the old file or the whole new one, never a part;
    return `path`. A symlink is followed: the file it points to is replaced and the link stays. A path
    that is no regular file (a FIFO, a terminal, /dev/stdout) is written through as a stream, never
    replaced by a file. PermissionError ("the file is read-only …") for a file this user may not write
    (read_only_problem)."""
    given = Path(path)
    if given.exists() and not given.is_file() and not given.is_dir():   # each follows symlinks
        _write_fd(os.open(given, os.O_WRONLY | os.O_APPEND), data, sync=False)
        return given
    path = Path(os.path.realpath(given))   # a symlinked file is replaced at its target, the link kept
    # the rename below needs only the folder's permission: a file the user may not write is refused, as by `>`
    if not path.is_dir() and (problem := read_only_problem(given)):
        raise PermissionError(errno.EACCES, f"the file {problem}", str(given))
    _make_folder(path.parent)
    mode = _file_mode(path)
    _remove_file_leftovers(path)
    # the writer's pid in the name: a later write removes what a killed writer left (_remove_file_leftovers)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.tmp-{os.getpid()}-", suffix=".tmp", dir=path.parent)
    try:
        _write_fd(fd, data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return given


def _make_folder(folder: Path) -> None:
    """Make `folder` and its missing parents. Where a file stands in the way, NotADirectoryError names it:
    mkdir said only "File exists"."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):   # the folder, or one of its parents, is a file
        raise NotADirectoryError(errno.ENOTDIR, why_not_a_folder(folder), str(folder)) from None


def write_problem(path: Path, what: str, example: str) -> str | None:
    """Why no file `what` can be written at `path`, in a few words ("is a folder; give a file name, e.g. …",
    "folder x does not exist"); None when it can: `path` is no folder and its folder exists (a symbolic link's
    target's folder for a link) — no folder is made for it (a typo's would be). The CLI's -o, --store and
    schema --out and the library's exports check so."""
    if path.is_dir():
        return f"is a folder; give {what}, e.g. {path / example}"
    return folder_problem(path)


def read_only_problem(path: Path) -> str | None:
    """Why this user may not replace what stands at `path` (a symbolic link's target), as the shell's `>` would
    not write it: "is read-only …" for a file it may not write, "is a read-only folder …" for a folder it may not
    write into (its files could not be replaced); None when nothing stands there or it may. A rename goes around a
    file's permissions (it needs only the folder's): `-o` replaced a read-only file. Root may write any file, as
    os.access says and as `>` does. The advice names `chmod` only to the file's owner: no one else may run it."""
    if path.is_dir():
        if os.access(path, os.W_OK | os.X_OK):
            return None
        what, then = "is a read-only folder (you may not replace its files)", "another folder"
    elif not path.exists() or os.access(path, os.W_OK):
        return None
    else:
        what, then = "is read-only (you may not write it)", "another file name"
    owned = hasattr(os, "geteuid") and path.stat().st_uid == os.geteuid()
    return f"{what}; make it writable{f' (chmod u+w {path})' if owned else ''} or give {then}"


def folder_problem(path: Path) -> str | None:
    """Why the folder a file at `path` is written into cannot take it (for a symbolic link, its target's folder):
    it does not exist, or a file stands in its way; None when it exists. `--out` makes its own folder, but none
    above it."""
    folder = Path(os.path.realpath(path)).parent if path.is_symlink() else path.parent
    return None if folder.is_dir() else why_not_a_folder(folder)


def why_not_a_folder(folder: Path) -> str:
    """Why no file can be written into `folder`: the file (or link to nothing) standing where it or one of its
    parents should be, else that it does not exist."""
    blocking = next((f for f in (folder, *folder.parents) if (f.exists() or f.is_symlink()) and not f.is_dir()), None)
    if blocking is None:
        return f"folder {folder} does not exist"
    what = "a symbolic link to nothing" if blocking.is_symlink() and not blocking.exists() else "a file"
    return f"{blocking} is {what}, not a folder"


def _file_mode(path: Path) -> int:
    """The permissions a file written at `path` gets: those of the file it replaces (a private 0600 file
    stays private), else the usual 0666 less the umask (mkstemp would leave 0600). Set-id and sticky bits
    are not carried over: they were given to the old content, not to what replaces it."""
    try:
        return os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _write_fd(fd: int, data: str | bytes, sync: bool = True) -> None:
    """Write `data` to the open descriptor `fd`, flush it (to the disk with `sync`) and close it."""
    mode = "wb" if isinstance(data, bytes) else "w"
    with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": ""})) as fh:
        fh.write(data)
        fh.flush()
        if sync:
            os.fsync(fh.fileno())


def _fsync_dir(path: Path) -> None:
    """Flush a folder's entries to the disk (where the system allows opening a folder)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------------
# A folder of files as one set


def write_folder_atomic(path: str | Path, files: dict[str, str | bytes]) -> Path:
    """Make the folder `path` hold exactly `files` (name → text or bytes); return `path`.

    The files are written into a temporary sibling folder `NAME.tmp-PID-XXXX`, which then takes the
    place of `path` in one rename (an exchange where the system has one), so a reader, a failure or a
    killed process sees the whole previous folder or the whole new one. On failure the temporary folder
    is removed and `path` is left as it was; temporary folders of killed writers are removed next time.
    Where `path` is a folder that cannot be swapped but takes files (a mount point, or its parent not
    writable), each file is replaced whole in it instead (`_write_each`): "cannot write: Device or resource
    busy" before, for a Docker volume given as `--out`.
    """
    given, path = Path(path), Path(os.path.realpath(path))   # a symlinked folder is replaced at its target
    _make_folder(path.parent)
    _remove_leftovers(path)
    _check_writable(path)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f"{path.name}.tmp-{os.getpid()}-", dir=path.parent))
    except OSError as exc:
        if _swap_refused(exc, path):
            return _write_each(path, files, given)
        raise
    try:
        for name, data in files.items():
            _write_fd(os.open(tmp / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), data)
        os.chmod(tmp, path.stat().st_mode & 0o7777 if path.is_dir() else 0o777 & ~_umask())
        _fsync_dir(tmp)
        old = _swap(tmp, path)
    except OSError as exc:
        _remove_folder(tmp)
        if _swap_refused(exc, path):
            return _write_each(path, files, given)
        raise
    except BaseException:
        _remove_folder(tmp)
        raise
    if old is not None:
        _remove_previous(old)
    _fsync_dir(path.parent)
    return given


# How the swap of folders fails where the folder itself still takes files: a mount point (EBUSY: a Docker
# volume, a tmpfs), or a parent folder this user may not write, that is immutable or on a read-only mount
_SWAP_REFUSED = frozenset({errno.EBUSY, errno.EACCES, errno.EPERM, errno.EROFS, errno.EXDEV})


def _swap_refused(exc: OSError, path: Path) -> bool:
    """Whether `exc` stopped the swap of folders at `path` while `path` is a folder this user can write into."""
    return exc.errno in _SWAP_REFUSED and path.is_dir() and os.access(path, os.W_OK | os.X_OK)


def _write_each(path: Path, files: dict[str, str | bytes], given: Path) -> Path:
    """write_folder_atomic where the folder cannot be swapped: every new file is first written in full beside
    its old one (a temporary file in the folder, as write_atomic's), and only then does each replace its old
    one, one rename each. A failure while writing (a full disk) removes the new files and leaves the previous
    set; between the renames a reader may see some files old and some new. Files of the folder that are not
    in `files` are left as they are (it may be a user's mounted volume)."""
    written: list[tuple[str, Path]] = []
    try:
        for name, data in files.items():
            target = path / name
            _remove_file_leftovers(target)
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.tmp-{os.getpid()}-", suffix=".tmp", dir=path)
            written.append((tmp, target))
            _write_fd(fd, data)
            os.chmod(tmp, _file_mode(target))
    except BaseException:
        for tmp, _ in written:
            Path(tmp).unlink(missing_ok=True)
        raise
    for tmp, target in written:
        os.replace(tmp, target)
    _fsync_dir(path)
    return given


def _check_writable(path: Path) -> None:
    """Raise PermissionError when `path` is a folder whose files this user may not replace (no write or
    search permission on it: a read-only folder). The swap of folders needs only the parent's permission,
    but would override the folder's own, and its previous files could not be removed after it."""
    if path.is_dir() and not os.access(path, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, "read-only folder: its files cannot be replaced", str(path))


def _remove_previous(old: Path) -> None:
    """Remove the previous folder, now at `old` after the swap. `_check_writable` let its files be removed;
    one that still cannot be (a read-only file on Windows) is an error naming where the old files stay."""
    try:
        shutil.rmtree(old)
    except OSError as exc:
        raise OSError(exc.errno, f"the new files are written, but the previous ones stay in {old} "
                                 f"({exc.strerror or exc})") from exc


def _remove_folder(folder: Path) -> None:
    """Remove a temporary folder of these writes (this one's after a failure, or a killed writer's), even
    one given a read-only folder's mode; quietly: the failure is reported already, or the folder is another
    user's to remove."""
    try:
        os.chmod(folder, 0o700)
    except OSError:
        pass
    shutil.rmtree(folder, ignore_errors=True)


def _swap(new: Path, path: Path) -> Path | None:
    """Put folder `new` at `path`; return where the previous folder at `path` now is (None if none)."""
    if not path.exists():
        os.rename(new, path)
        return None
    if _exchange(new, path):
        return new
    # No exchange on this system: move the old folder aside, then the new one in; undo on failure.
    aside = new.with_name(new.name + ".old")
    os.rename(path, aside)
    try:
        os.rename(new, path)
    except BaseException:
        os.rename(aside, path)
        raise
    return aside


def _exchange(a: Path, b: Path) -> bool:
    """Swap paths `a` and `b` in one step (Linux renameat2 RENAME_EXCHANGE); False where the system or
    the file system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove_leftovers(path: Path) -> None:
    """Remove the temporary folders of `path` left by writers that no longer run (killed mid-write)."""
    for entry in _of_dead_writers(path.parent, f"{path.name}.tmp-"):
        if entry.is_dir():
            _remove_folder(entry)


def _remove_file_leftovers(path: Path) -> None:
    """Remove the temporary files of `path` left by writers that no longer run (killed mid-write): hidden
    `.NAME.tmp-PID-XXXX.tmp` files that would otherwise pile up beside it."""
    for entry in _of_dead_writers(path.parent, f".{path.name}.tmp-", suffix=".tmp"):
        if entry.is_file():
            entry.unlink(missing_ok=True)


def _of_dead_writers(folder: Path, prefix: str, suffix: str = ""):
    """The entries of `folder` named `prefix` + PID + "-…" + `suffix` (no symlinks) whose PID no longer runs."""
    for entry in folder.glob(f"{glob.escape(prefix)}*{suffix}"):
        pid = entry.name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)) and not entry.is_symlink():
            yield entry


def _running(pid: int) -> bool:
    """Whether a process with this id runs (this process counts: another of its threads may be writing)."""
    if os.name != "posix":
        return True   # os.kill(pid, 0) would end the process on Windows: keep the folder
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:   # exists but belongs to another user, or the system cannot tell
        return True
    return True


def written_path(path: str, folder: Path | None) -> str:
    """`path` (absolute, as a scenario loaded from a file holds it) as that file names it: relative to `folder`,
    with "/" between its parts; as given when the folder is unknown or shares only the root with it (a CSV in
    /data, which the scenario named so, not as ../../../data)."""
    if folder is None or not os.path.isabs(path):
        return path
    base = os.path.realpath(folder)   # the loader resolved the scenario's paths (Path.resolve)
    try:
        shared = os.path.commonpath([base, path])
    except ValueError:   # another drive (Windows)
        return path
    if os.path.dirname(shared) == shared:   # the root alone
        return path
    return Path(os.path.relpath(path, base)).as_posix()


# ---------------------------------------------------------------------------------------------------
# How a scenario names its files: here, below the catalog, whose messages name an offers CSV as its scenario does
# (the loader, scenario.loading, sets these attributes; the scenario module imports these from here)


def file_folder(scenario: Any) -> Path | None:
    """The folder the file `scenario` was loaded from names its files (profile and offers CSVs) against, absolute and
    resolved as its paths are: a plan of it names them as that file wrote them (relative to it),
    however it was loaded and wherever the plan is made; None for a scenario made otherwise (a dict, YAML text with
    no folder, apply_overrides' copy)."""
    return getattr(scenario, "_folder", None)


def files_as_written(scenario: Any) -> dict[str, tuple[str, str]]:
    """Each field of `scenario` that names a file (`workloads.NAME.profile`, `prices.source`: scenario.loading's
    file_fields) → (the path it holds, that file as the scenario's file wrote it: relative to its folder, or absolute
    as written); {} for a scenario made otherwise (a dict, YAML text with no folder). By field, not by path: resolved,
    /…/plans/w.csv and w.csv beside the scenario read alike, and one scenario may name one file both ways."""
    return getattr(scenario, "_files_as_written", None) or {}


def named_as_written(scenario: Any, path: str, folder: Path | None = None, field: str | None = None) -> str:
    """A file `scenario` names (`path`, as it holds it: resolved once loaded from a file) as its file wrote it
    (files_as_written): as `field` names it where given (`workloads.NAME.profile`, `prices.source`), else as the
    first field holding `path` does; a path no field of its file holds (a scenario made otherwise) relative to
    `folder` (default the scenario's own, file_folder; written_path); a word that names no file ('snapshot') as it
    is. The reports, a plan's warnings and errors and validate all name files so."""
    named = files_as_written(scenario)
    if field is not None:
        candidates = [named[field]] if field in named else []
    else:
        candidates = list(named.values())
    written = next((shown for held, shown in candidates if held == path), None)
    if written is not None:
        return written
    return written_path(path, folder if folder is not None else file_folder(scenario))
