"""The `fleetplan` command line (typer): console helpers, the plan commands, the prices commands and
`fleetplan dashboard` (which starts the dashboard by its file path, never importing it).

`main` is the installed `fleetplan` command; `app` is the typer app (tests call it in-process)."""

import gc
import os
import sys

from planner.cli import console
from planner.cli.commands import app
from planner.cli.dashboard import dashboard
from planner.cli.prices import prices_app

app.add_typer(prices_app, name="prices")
app.command("dashboard")(dashboard)


def main() -> None:
    """Run the CLI as its own process. pandas imports pyarrow at its own import whenever pyarrow is
    installed (the dashboard extra brings it), though no command uses it: about 0.1 s of a `fleetplan plan`
    process, its import plus its slower string columns (benchmarks/plan_speed.py). So this process keeps
    pyarrow out, and pandas uses its own string storage, as in a core install. `fleetplan dashboard` runs
    Streamlit as a separate process, which imports pyarrow as usual. Only the command's own process:
    calling `app` in-process (tests, notebooks) changes nothing.

    It also collects garbage every 50,000 allocations instead of 700: a plan makes tens of thousands of
    short-lived objects (model rows, table cells), nearly all freed by reference counting, and a command is
    a short process; 0.05-0.08 s less of a plan of industrial.yaml (15 runs each, round-robin)."""
    if "pandas" not in sys.modules:
        sys.modules.setdefault("pyarrow", None)   # None in sys.modules: `import pyarrow` raises ImportError
    gc.set_threshold(50_000, 20, 20)
    try:
        app()
    except SystemExit as exc:
        if console.no_teardown_needed:
            _exit_now(exc.code)
        raise


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
