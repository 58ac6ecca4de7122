"""What every command shares: output formats, the stderr console, tables on stdout, and the one place
that turns a PlannerError into a message and an exit code (0 ok, 1 infeasible, 2 bad input)."""

from __future__ import annotations

import json
import math
import os
import sys
from enum import Enum
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape

from planner.errors import PlannerError

if TYPE_CHECKING:   # the CLI imports pandas only in commands that print tables: `fleetplan --help` stays light
    import pandas as pd

err = Console(stderr=True, highlight=False)

# every typer app of the CLI: `-h` is `--help`
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}

# Set by a command whose process has nothing left to do at exit but free memory (`plan`: its output written
# and closed, its forked child reaped or never started): the installed command then ends without the
# interpreter's teardown of every module and object, about 0.04 s of a plan (planner.cli.main).
no_teardown_needed = False


def skip_teardown() -> None:
    global no_teardown_needed
    no_teardown_needed = True


def quiet_broken_pipe() -> None:
    """End the command with exit 0 after its reader closed stdout, as Python's documentation recommends
    (signal module, "Note on SIGPIPE"): point stdout at the null device, so the final flush at exit
    cannot fail again and print a traceback."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):   # no file descriptor behind stdout (tests, notebooks)
        pass
    raise typer.Exit(0)


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def infeasible(exc: PlannerError, fmt: Format) -> None:
    """Exit 1 with the optimiser's explanation (and a JSON object on stdout in json mode)."""
    if fmt is Format.json:
        sys.stdout.write(json.dumps({"status": "infeasible", "reason": str(exc)}, indent=2) + "\n")
    err.print(f"[bold red]infeasible:[/] {exc}", markup=True, soft_wrap=True)
    raise typer.Exit(1)


def fail(exc: PlannerError | str, code: int | None = None) -> None:
    """One clear message on stderr, the error's exit code (or `code`), no traceback."""
    err.print(f"[bold red]error:[/] {escape(str(exc))}", markup=True, soft_wrap=True)
    raise typer.Exit(code if code is not None else getattr(exc, "exit_code", 2))


def emit(df: pd.DataFrame, fmt: Format, title: str = "", float_digits: int = 4) -> None:
    """Write a table to stdout as a rich table, JSON records or CSV."""
    if fmt is Format.json:
        from planner.reports.tables import records

        sys.stdout.write(json.dumps(records(df), indent=2) + "\n")
    elif fmt is Format.csv:
        from planner.reports.tables import csv_text  # no field a spreadsheet would run as a formula

        sys.stdout.write(csv_text(df))
    else:
        import pandas as pd
        from rich.table import Table

        table = Table(title=title or None, show_lines=False)
        for col in df.columns:
            table.add_column(str(col), justify="right" if pd.api.types.is_numeric_dtype(df[col]) else "left")
        for row in df.itertuples(index=False):
            cells = []
            for v in row:
                if isinstance(v, float):
                    text = "" if math.isnan(v) else f"{v:,.{float_digits}f}"
                    cells.append(text.rstrip("0").rstrip(".") if "." in text else text)
                else:
                    cells.append(escape(str(v)))  # "[aws, azure]" is text, not rich markup
            table.add_row(*cells)
        # Piped output has no terminal width; do not squeeze columns into 80 characters.
        Console(highlight=False, width=None if sys.stdout.isatty() else 240).print(table)
