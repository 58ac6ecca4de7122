"""Settings a short-lived planner process makes for itself: the installed `fleetplan` command
(planner.cli.main) and the sweep's worker processes (reports.sweep) — never a process the planner is
imported into (tests, notebooks, the dashboard).

- pyarrow is kept out: pandas imports it at its own import whenever it is installed (the dashboard extra
  brings it) and then backs its string columns with it, though nothing the planner does uses it: about
  0.1 s of a `fleetplan plan` process (its import, and its slower strings). pandas then uses its own
  string storage, as in a core install. It is refused by a finder at the front of `sys.meta_path`, so
  every `import pyarrow` fails as when it is not installed (`sys.modules["pyarrow"] = None` would not do:
  Cython modules such as pandas 2.2's `_libs.lib` take that None for the module).
- numpy's OpenBLAS gets one thread: at numpy's import it starts a worker per further core, which spins
  for about 0.1 s of CPU before it sleeps, though nothing the planner does calls BLAS on matrices large
  enough to share out. On 2 cores that spin competes with the forked child that solves the baselines
  (engine.baselines) and with the other sweep worker: 0.12-0.17 s less CPU per process (measured with
  `/usr/bin/time`, 2026-12-01). Set only when nothing has imported numpy yet and the variable is unset,
  so a user's own OPENBLAS_NUM_THREADS wins.
- pydantic's plugins are not looked for: at the first scenario model it reads the entry points of every
  installed distribution for plugins (observability hooks, none of them the planner's), about 0.01 s of a
  `fleetplan validate` (124 distributions; 0.241 → 0.232 s, medians of 8 runs, 2026-12-03). Set only when the
  variable is unset, so a user's own PYDANTIC_DISABLE_PLUGINS wins, and taken out again of the environment
  of the dashboard's Streamlit, which `fleetplan dashboard` runs in its place (`environment_for_programs`).
- garbage is collected every 50,000 allocations instead of 700: a plan makes tens of thousands of
  short-lived objects (model rows, table cells), nearly all freed by reference counting; 0.05-0.08 s less
  of a plan of industrial.yaml (benchmarks/plan_speed.py).

`kill_process_group` ends a process the planner started in a group of its own, with what it started.

`stop_solves_on_interrupt` makes Ctrl-C stop a solve in progress (the `fleetplan` process only): Python runs its
SIGINT handler between bytecodes, never inside HiGHS's C++, so a plan whose solve took minutes (industrial.yaml
with every catalog card bought monthly: 3 min, 2026-12-05) ran to its end after Ctrl-C, and every running
re-solve of the decision values did too. Its handler sets `stop_requested`, which each HiGHS run checks through
HiGHS's interrupt callbacks (branch and bound, simplex, interior point: engine.solve), and raises
KeyboardInterrupt as Python's own handler does — at once where this thread is not inside a solver run
(`solver_run` marks one), else when the run returns. SIGTERM (cron's `timeout`, a service stop) is handled alike but
raises Terminated (a SystemExit of status 143, as the signal's own death would give): the process had ended at once,
leaving a refresh's new store file and lock behind and saying nothing; now the `finally` clauses and cleanup on the way
out run, and a command can say in one line what the stop left (catching Terminated).
"""

from __future__ import annotations

import gc
import importlib
import importlib.machinery
import os
import signal
import sys
import threading
import types
from collections.abc import Iterator
from contextlib import contextmanager

KEPT_OUT = frozenset({"pyarrow"})
PLUGIN_LOADER = "pydantic.plugin._loader"
# the values of PYDANTIC_DISABLE_PLUGINS with which pydantic's get_plugins returns no plugins at all
ALL_PLUGINS_OFF = ("__all__", "1", "true")
_plugins_off_here = False   # configure_process set PYDANTIC_DISABLE_PLUGINS (the user had not)


class _KeepOut:
    """A meta path finder that refuses the packages in KEPT_OUT (and their submodules)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in KEPT_OUT:
            raise ModuleNotFoundError(f"No module named {fullname!r} (kept out of this process)", name=fullname)
        return None


def configure_process() -> None:
    """Keep pyarrow out (when nothing has imported pandas or pyarrow yet), give OpenBLAS one thread (when
    numpy is not imported yet), skip pydantic's plugin search and collect garbage less often."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    global _plugins_off_here
    if "PYDANTIC_DISABLE_PLUGINS" not in os.environ:
        os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
        _plugins_off_here = True
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in ALL_PLUGINS_OFF and PLUGIN_LOADER not in sys.modules:
        sys.modules[PLUGIN_LOADER] = _stand_in_plugin_loader()
    if not ({"pandas", *KEPT_OUT} & set(sys.modules)) and not any(isinstance(f, _KeepOut) for f in sys.meta_path):
        sys.meta_path.insert(0, _KeepOut())
    gc.set_threshold(50_000, 20, 20)


def _stand_in_plugin_loader() -> types.ModuleType:
    """A module in place of pydantic's plugin loader whose get_plugins returns (), as the real one does
    with every plugin turned off, without the real one's import of importlib.metadata. Any other name
    is looked up in the real module, imported then in its place (a later pydantic's new use of it)."""
    stand_in = types.ModuleType(PLUGIN_LOADER, "pydantic's plugin loader with every plugin off (planner.process)")
    stand_in.__spec__ = importlib.machinery.ModuleSpec(PLUGIN_LOADER, None)   # find_spec needs one

    def real_attribute(name: str):
        if name.startswith("__"):   # the import system asks a module for __path__, __file__ …: not the loader's
            raise AttributeError(name)
        if sys.modules.get(PLUGIN_LOADER) is stand_in:
            del sys.modules[PLUGIN_LOADER]
        return getattr(importlib.import_module(PLUGIN_LOADER), name)

    def get_plugins():
        # read at every call, as the real loader does: plugins turned on again later are looked for there
        if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in ALL_PLUGINS_OFF:
            return ()
        return real_attribute("get_plugins")()

    stand_in.get_plugins = get_plugins
    stand_in.__getattr__ = real_attribute
    return stand_in


def environment_for_programs() -> dict[str, str]:
    """This process's environment for a program it runs in its place (the dashboard's Streamlit), without
    what configure_process set for this process alone: pydantic's plugins stay on there unless the user
    turned them off."""
    env = dict(os.environ)
    if _plugins_off_here:
        env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    return env


def kill_process_group(pid: int) -> bool:
    """SIGKILL the process group that `pid` leads — a process the planner started in a group or session of
    its own (the baselines' child, a sweep worker) and the CBC processes it started — and say whether there
    was one to kill; False where the platform has no process groups or `pid` leads none."""
    if not hasattr(os, "killpg"):
        return False
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class Terminated(SystemExit):
    """SIGTERM came (stop_solves_on_interrupt's handler): exits with status 143; its text, "stopped by SIGTERM"."""

    def __init__(self, signum: int = signal.SIGTERM):
        super().__init__(128 + signum)
        self.signal_name = signal.Signals(signum).name

    def __str__(self) -> str:
        return f"stopped by {self.signal_name}"


stop_requested = threading.Event()   # Ctrl-C came while stop_solves_on_interrupt's handler was installed
_terminated = threading.Event()      # … and it was SIGTERM: the stop raises Terminated, not KeyboardInterrupt
_solver_state = threading.local()    # .running: this thread is inside a solver run (solver_run)
_stopping_solves = False             # stop_solves_on_interrupt installed its handler


def stop_solves_on_interrupt() -> None:
    """Make Ctrl-C (SIGINT) stop the solver runs in progress, in every thread, and raise KeyboardInterrupt:
    at once where the main thread runs no solver, else as soon as its run returns. For the `fleetplan`
    process (planner.cli.main), which Ctrl-C ends; not where SIGINT is ignored (a background job). SIGTERM alike,
    raising Terminated, unless it is ignored."""
    global _stopping_solves
    # each where it is not ignored; the solves check for a stop where either is handled (a background job ignores
    # SIGINT: its SIGTERM must still stop a solve at once, as the signal's own death did)
    for signum in (signal.SIGTERM, signal.SIGINT):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_interrupt)
            _stopping_solves = True


def default_stop_signals() -> None:
    """In a process forked from one that handles them (a baselines child, a sweep worker): SIGTERM's default back,
    which ends it at once, silently, as before the `fleetplan` process handled it (a SIGINT its fork sets itself)."""
    if signal.getsignal(signal.SIGTERM) is _on_interrupt:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stopping_solves() -> bool:
    """Whether solver runs should watch `stop_requested` (stop_solves_on_interrupt was called)."""
    return _stopping_solves


def _on_interrupt(signum, frame) -> None:
    if signum == signal.SIGTERM:
        _terminated.set()
    stop_requested.set()
    # inside a solver run this handler runs from a callback HiGHS makes into Python: an exception raised
    # there would cross HiGHS's C++; the run stops at its next check and solver_run raises it instead
    if not getattr(_solver_state, "running", False):
        raise _stop()


def _stop() -> BaseException:
    """What stops the process: Terminated after SIGTERM, else KeyboardInterrupt."""
    return Terminated() if _terminated.is_set() else KeyboardInterrupt()


@contextmanager
def solver_run() -> Iterator[None]:
    """Around one solver run in this thread: KeyboardInterrupt, before it or when it returns, once Ctrl-C asked
    every run to stop (stop_solves_on_interrupt)."""
    if stop_requested.is_set():
        raise _stop()
    _solver_state.running = True
    try:
        yield
    finally:
        _solver_state.running = False
    if stop_requested.is_set():
        raise _stop()
