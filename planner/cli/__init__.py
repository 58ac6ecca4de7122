"""The `fleetplan` command line (typer): console helpers, the plan commands, the prices commands and
`fleetplan dashboard` (which starts the dashboard by its file path, never importing it).

`main` is the installed `fleetplan` command; `app` is the typer app (tests call it in-process)."""

import codecs
import os
import sys

from planner.cli import console
from planner.cli.commands import app
from planner.cli.dashboard import dashboard
from planner.cli.prices import prices_app
from planner.process import configure_process, stop_solves_on_interrupt

app.add_typer(prices_app, name="prices")
app.command("dashboard")(dashboard)


def main() -> None:
    """Run the CLI as its own process, set up as planner.process says (pyarrow kept out, garbage collected
    less often, Ctrl-C stopping a solve in progress). Calling `app` in-process (tests, notebooks) changes nothing."""
    configure_process()
    stop_solves_on_interrupt()   # Ctrl-C ends a long solve at once, not when it is done
    # a stream closed before start (`fleetplan offers >&-`) is None here: what goes to it is dropped, as
    # for a reader that stopped early, instead of an AttributeError at the first write
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:   # its descriptor is free: the null device takes that number
            null = os.open(os.devnull, os.O_WRONLY)
            if null != fd:   # stdin closed too took the lowest number
                os.dup2(null, fd)
                os.close(null)
            setattr(sys, name, open(fd, "w", encoding="utf-8", closefd=False))   # noqa: SIM115 — lives as the process does
    _escape_what_cannot_be_written()
    try:
        app()
    except SystemExit as exc:
        if console.no_teardown_needed:
            _exit_now(exc.code)
        raise


def _escape_what_cannot_be_written() -> None:
    """Where stdout or stderr is in an encoding that lacks characters the CLI writes (PYTHONIOENCODING=ascii or
    latin-1, a C locale's ASCII): each such character as a backslash escape (— as \\u2014, which JSON reads back as
    the character), where the table's title made a traceback and exit 1, the code of a plan with no fleet."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if not encoding or not hasattr(stream, "reconfigure"):   # a test's stream: nothing to do
            continue
        try:
            unicode = codecs.lookup(encoding).name.startswith("utf")
        except LookupError:
            unicode = False
        if not unicode:   # cp1252 has — and € but not → or ≥, which the CLI writes too
            stream.reconfigure(errors="backslashreplace")


def _exit_now(code) -> None:
    """End the process with `code` (SystemExit's) once stdout and stderr are flushed, skipping the
    interpreter's teardown (console.skip_teardown); with the usual exit when a flush fails."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):   # a closed pipe: the usual exit reports or quiets it
        return
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


__all__ = ["app", "main"]
