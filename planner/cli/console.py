"""What every command shares: output formats, the stderr console, tables on stdout, and the one place
that turns a PlannerError into a message and an exit code (0 ok, 1 infeasible, 2 bad input)."""

from __future__ import annotations

import errno
import json
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from planner.errors import PlannerError
from planner.text import number_text, visible

if TYPE_CHECKING:   # the CLI imports pandas only in commands that print tables, and rich when it prints
    import pandas as pd
    from rich.console import Console


class _Stderr:
    """rich's Console on stderr, made at its first use: `fleetplan --help` imports no rich (its import and
    a Console's set-up are 0.05-0.07 s of a 0.2 s process on 2 cores, 2026-12-01). Its messages are text,
    not rich markup: they hold file names, scenario names, store rows and API errors, where "[…]" is no
    tag ("[/x]" made rich raise MarkupError); `labelled` gives a line its coloured label."""

    @cached_property
    def console(self) -> Console:
        # a message written to a file or a pipe is one line, however long: rich wrapped it at 80 columns
        # ("433 constraints, 0.044" / "s"), which a terminal does not need either way
        return _console_class()(stderr=True, highlight=False, markup=False, soft_wrap=not _isatty(sys.stderr))

    def print(self, *objects, **kwargs) -> None:
        self.console.print(*objects, **kwargs)

    def labelled(self, label: str, text: str, style: str) -> None:
        """`label text` on one line, the label in `style` on a terminal, `text` as it is. Where rich would
        print no colour (stderr no terminal, `_plain_stderr`) the line is written without it: the same
        characters, and no rich import, whose import and first print are 0.03-0.04 s of a `plan --format
        json` process that prints nothing else with rich (2026-12-02). Lines after the first are indented, so
        that no line of a message (a workload named "w\nerror: …") can pass for a label line of its own."""
        text = text.replace("\n", "\n  ")
        if _plain_stderr():
            sys.stderr.write(f"{label} {visible(text)}\n")
        else:
            self.console.print(f"[{style}]{escape(label)}[/] {escape(text)}", markup=True, soft_wrap=True)

    def warn(self, text: str, label: str = "warning") -> None:
        """`label: text`, the label yellow on a terminal."""
        self.labelled(f"{label}:", text, "yellow")


# A scenario's names, a price file's cells and file names are printed through `visible` (planner.text):
# their control characters would act on the terminal. JSON and CSV written to stdout keep the text as given.


@cache
def _console_class():
    """rich's Console, made to print every string through `visible`, and as written (no emoji codes): the one
    place where the tables and messages of every command (their cells, titles, markup lines) become terminal
    output. Made at first use: rich is imported only by a command that prints with it."""
    from rich.console import Console

    class VisibleConsole(Console):
        def __init__(self, *args, **kwargs):
            # no emoji codes: ":100:" in "file.yaml:100:3" became 💯, and a scenario named ":fire:" 🔥
            kwargs.setdefault("emoji", False)
            super().__init__(*args, **kwargs)

        def render_str(self, text: str, **kwargs):
            return super().render_str(visible(text), **kwargs)

    return VisibleConsole


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):   # no isatty, or a closed stream
        return False


def progress_bar(*columns, **kwargs):
    """A rich Progress on stderr, shown only where it can be redrawn (a terminal): elsewhere rich's Progress
    prints nothing while it runs and a blank line when it ends, which stood at the top of a sweep's stderr
    written to a file."""
    from rich.progress import Progress

    return Progress(*columns, console=err.console, disable=not err.console.is_interactive, **kwargs)


def _plain_stderr() -> bool:
    """rich would print on stderr without colour: not a terminal, and neither TTY_COMPATIBLE nor FORCE_COLOR
    says otherwise (as rich.console.Console.is_terminal decides)."""
    tty_compatible = os.environ.get("TTY_COMPATIBLE", "")
    if tty_compatible in ("0", "1"):
        return tty_compatible == "0"
    force_color = os.environ.get("FORCE_COLOR")
    if force_color is not None:
        return force_color == ""
    try:
        return not sys.stderr.isatty()
    except (AttributeError, ValueError):   # no isatty, or a closed stream
        return True


err = _Stderr()


def stdout_console(piped_width: int | None = None) -> Console:
    """A rich Console on stdout; `piped_width` columns when stdout is no terminal (a pipe has no width:
    wide tables are not squeezed into 80 characters), and there a line of text it prints is not wrapped
    (`emit` lays out its tables itself): compare's lines split at 80 columns in a file ("(present" / "values)")."""
    tty = _isatty(sys.stdout)
    return _console_class()(highlight=False, width=None if tty else piped_width, soft_wrap=not tty)


def escape(text: str) -> str:
    """Text shown as it is inside rich markup (rich.markup.escape)."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


# every typer app of the CLI: `-h` is `--help`
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
# Help and usage errors in click's plain text, not typer's rich panels: rich's option table cut help texts
# short at 80 columns ("all-cloud/all-on-prem/si…") and showed `<bool>` after every flag, and typer's
# rich_utils costs a third of `fleetplan --help` (its import, which brings rich.markdown and rich.traceback,
# and the render): 0.17-0.27 s against 0.28-0.44 s on 2 cores (2026-12-01, 7 runs each, alternated).
HELP_MARKUP = None

# Set (`skip_teardown()`, first thing) by each command whose process has nothing left to do at exit but
# free memory — its output written, its files closed, any child process it started reaped; not `prices`
# (its SQLite store) nor `dashboard`: the installed command then ends without the interpreter's teardown of
# every module and object (planner.cli.main) — 0.2-0.3 s of a process that imported pandas, 0.08 s of
# `validate`'s 0.48 s (2026-12-01, 6 runs each, alternated).
no_teardown_needed = False


def skip_teardown() -> None:
    global no_teardown_needed
    no_teardown_needed = True


def quiet_broken_pipe() -> None:
    """End the command with exit 0 after its reader closed stdout, as Python's documentation recommends
    (signal module, "Note on SIGPIPE"): point stdout at the null device, so the final flush at exit
    cannot fail again and print a traceback."""
    _stdout_to_null()
    raise typer.Exit(0)


def _stdout_to_null() -> None:
    """Point stdout's file descriptor at the null device: what its buffer still holds goes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):   # no file descriptor behind stdout (tests, notebooks)
        pass


# what a failed write says (ENOSPC: > /dev/full), as against a socket's or a timeout's OSError
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT})


def os_error(exc: OSError) -> None:
    """End a command that met an OSError nothing else caught — stdout on a full disk (`> /dev/full`), a
    file system gone — with one line and exit 2, not a traceback and exit 1 (`infeasible` for plan)."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename:
        fail(f"{exc.filename}: {reason}", 2)
    if exc.errno in _WRITE_ERRORS:   # a write naming no file: stdout (files are opened by name)
        _stdout_to_null()            # its buffer still holds what failed: the flush at exit must not fail again
        fail(f"cannot write the output: {reason}", 2)
    fail(reason, 2)


def seconds_within(low: float, high: float):
    """A typer `parser` of a number of seconds from `low` to `high`. typer's own range check (min, max) lets
    nan reach its upper-bound test, which said "should be less than or equal to 86400" of `--time-limit nan`;
    here nan, ±inf and words are refused in one message naming the range, with the seconds meant by a number
    given a unit ("60s", "5min": did you mean 300?)."""
    return number_within("a number of seconds", low, high, units=SECONDS_IN)


# the units a number of a numeric option may be typed with, by what it counts, and what one of them is in the
# option's own unit ("5min" of seconds: 300); a unit not listed is dropped ("24GB" of --min-memory: 24)
SECONDS_IN = {"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "m": 60, "min": 60, "mins": 60, "minute": 60,
              "minutes": 60, "h": 3600, "hr": 3600, "hour": 3600, "hours": 3600}
COUNT_IN = {"k": 1_000, "m": 1_000_000, "mio": 1_000_000}
# a number as it is typed with a unit or a currency: "24GB", "$2.5", "0.25 EUR", "1,000,000", "5min"
_NUMBER_TYPED = re.compile(r"\s*[$€£¥]?\s*([-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\W\d]*)\s*")


def _as_number(text: str, whole: bool) -> float | int | None:
    """`text` as Python reads a number of its kind (a whole number: an int, or a float that is whole, "1e6"), or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    if not whole:
        return value
    return int(value) if math.isfinite(value) and value.is_integer() else None


def number_within(what: str, low: float | None = None, high: float | None = None, whole: bool = False,
                  units: dict[str, float] | None = None):
    """A typer `parser` of a number (`whole`: a whole number) from `low` to `high` (None: no bound), refusing any other
    value in one message in the CLI's words, naming `what` it counts and the range, with the number meant where the
    value is one typed with a unit or separators: "expected GB per GPU as a number, got '24GB'; did you mean 24?".
    typer's own check (pydantic's, since typer 0.29) said "Input should be a valid number, unable to parse string as
    a number" of --min-memory 24GB, and "Input should be greater than or equal to 1" of --max-variables 0.
    `units`: what a unit typed after the number is in `what`'s unit (SECONDS_IN, COUNT_IN). Without bounds any number
    is taken (nan and inf too): the caller checks its range, naming several options' at once."""
    kind = "a whole number" if whole else "a number"
    span = (f" from {low:g} to {high:g}" if low is not None and high is not None else f" ≥ {low:g}" if low is not None
            else f" ≤ {high:g}" if high is not None else "")
    expected = f"{what}{span}" if what.startswith(("a number", "a whole number")) else f"{what} as {kind}{span}"

    def within(value) -> bool:   # no bounds: any number, nan too, is the caller's to check (offers: _check_offer_numbers)
        if low is None and high is None:
            return True
        return math.isfinite(value) and (low is None or value >= low) and (high is None or value <= high)

    def number(text):
        if isinstance(text, (int, float)) and not isinstance(text, bool):   # the default
            return text
        text = str(text)
        value = _as_number(text, whole)
        if value is not None and within(value):
            return value
        hint = ""
        typed = _NUMBER_TYPED.fullmatch(text) if value is None else None
        for digits, why in number_readings(typed[1]) if typed else ():
            meant = _as_number(digits, whole=False)
            meant = None if meant is None else meant * (units or {}).get(typed[2].lower(), 1)
            if meant is not None and (not whole or float(meant).is_integer()) and within(meant):
                hint = f"; did you mean {int(meant) if float(meant).is_integer() else f'{meant:.12g}'}?{why}"
                break
        raise typer.BadParameter(f"expected {expected}, got {visible(text)!r}{hint}")
    return number


# a comma between digits that is no thousands separator: a decimal comma, as German or French write 0,25
_DECIMAL_COMMA = re.compile(r"[-+]?\d+,\d+")
_THOUSANDS = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?")


def number_readings(digits: str) -> list[tuple[str, str]]:
    """The numbers `digits` ("1,500", "0,25", "1_000") may be meant as, as (text Python reads, what to add to the
    hint), in the order to try them: its commas as thousands separators where they group by three ("1,500": 1500),
    then a lone comma as a decimal comma ("0,25": 0.25, "1,500" too where 1500 is out of range: a PUE of 1.5). Every
    comma was dropped: an electricity price typed 0,25 was told "did you mean 25?", 100 times the price meant."""
    readings = []
    if "," not in digits or _THOUSANDS.fullmatch(digits.replace("_", "")):
        readings.append((digits.replace(",", "").replace("_", ""), ""))
    if _DECIMAL_COMMA.fullmatch(digits):
        readings.append((digits.replace(",", "."), " (a decimal point, not a comma)"))
    return readings


def choice_option(default: Enum, *names: str, help: str | None = None):
    """A typer option taking one of the values of `default`'s Enum, shown as `<table|json|csv>`. typer's own check
    (pydantic's, since typer 0.29) said "Invalid value for '--format': Value error, 'xml' is not one of …",
    pydantic's prefix leaking, and offered no "did you mean"; `choice_of` says both."""
    values = [member.value for member in type(default)]
    return typer.Option(default, *names, parser=choice_of(type(default)), metavar=f"<{'|'.join(values)}>", help=help)


def choice_of(choices: type[Enum]):
    """A typer `parser` of one of `choices`' values (as written: `JSON` is refused, as typer refused it), refusing
    any other with the values and the nearest of them: "expected one of table, json, csv, got 'jsn'; did you mean
    'json'?"."""
    values = [member.value for member in choices]

    def choice(text) -> Enum:
        if isinstance(text, choices):   # the default
            return text
        if str(text) in values:
            return choices(str(text))
        import difflib

        near = difflib.get_close_matches(str(text).lower(), values, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise typer.BadParameter(f"expected one of {', '.join(values)}, got {visible(str(text))!r}{hint}")
    return choice


# a solve shows a progress line on a terminal once it has run this long (most plans end well within it)
PROGRESS_AFTER_S = 2.0
PROGRESS_EVERY_S = 0.5


@contextmanager
def solve_progress_line(what: str) -> Iterator[None]:
    """Within the block, a long solve of this thread shows on a terminal's stderr one line, rewritten in place
    — `solving the plan: 12 s, gap 1.54 % (Ctrl-C stops)` — and the line is cleared at the end. A plan that
    allows every catalog card solved for minutes with nothing on the screen. Nothing where stderr is no
    terminal (a pipe, a file, a test) or no colour is wanted (`_plain_stderr`)."""
    if _plain_stderr():
        yield
        return
    from planner.engine.solve import progress_reported

    shown = {"at": -math.inf, "any": False}

    def report(seconds: float, gap: float) -> None:
        if seconds < PROGRESS_AFTER_S or seconds - shown["at"] < PROGRESS_EVERY_S:
            return
        shown["at"], shown["any"] = seconds, True
        gap_text = f"gap {gap:.2%}" if math.isfinite(gap) else "no fleet found yet"
        sys.stderr.write(f"\r\x1b[K{what}: {seconds:.0f} s, {gap_text} (Ctrl-C stops)")
        sys.stderr.flush()

    try:
        with progress_reported(report):
            yield
    finally:
        if shown["any"]:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def path_given(names: str):
    """A typer `parser` of a path option that names `names` ("a file" or "a folder"): an empty value (an unset
    `$OUT`) became ".", and the message named "." instead of what was given; a file's name ending in "/" lost
    the "/" and wrote a file where a folder was meant."""
    def path(text) -> Path:
        text = str(text)
        if not text.strip():
            raise typer.BadParameter(f"empty; expected the path of {names}")
        if names == "a file" and text.endswith(("/", os.sep)):
            raise typer.BadParameter(f"{visible(text)!r} ends in '/', which names a folder; expected the path of a file")
        return Path(text)
    return path


# what --store means where a scenario reads it (`prices.source: store`); the `prices` commands say more
SCENARIO_STORE_HELP = "price store for `prices.source: store` (default: $FLEETPLAN_STORE or the data directory)"


def store_option(help: str = SCENARIO_STORE_HELP):
    """The `--store FILE` option of every command that reads or writes the price store: one declaration."""
    return typer.Option(None, "--store", metavar="FILE", parser=path_given("a file"), help=help)


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def infeasible(exc: PlannerError, fmt: Format, known: dict | None = None) -> None:
    """Exit 1 with the optimiser's explanation; in json mode a JSON object on stdout too: status, reason and `known`,
    what the command knows without a plan (the scenario's name, currency, horizon, the solver)."""
    if fmt is Format.json:
        sys.stdout.write(infeasible_text(exc, known))
    err.labelled("infeasible:", str(exc), "bold red")
    raise typer.Exit(1)


def infeasible_text(exc: PlannerError, known: dict | None = None) -> str:
    """The JSON object of a command that found no fleet, as `infeasible` writes it on stdout and `-o` gets it."""
    return json.dumps({"status": "infeasible", "reason": str(exc), **(known or {})}, indent=2) + "\n"


def fail(exc: PlannerError | str, code: int | None = None) -> None:
    """One clear message on stderr, the error's exit code (or `code`), no traceback."""
    err.labelled("error:", str(exc), "bold red")
    raise typer.Exit(code if code is not None else getattr(exc, "exit_code", 2))


# Rows of a table drawn on the terminal (rich lays out every row before it prints one): a saved plan of 20,000
# fleet rows took `compare` 24 s and one of 200,000 over 120 s and 1.2 GB, a store snapshot of 300,000 offers
# `prices diff` as long. JSON carries every row of every table (a command's CSV may hold only one of them).
TABLE_ROWS = 5_000


# words a table shows in place of a number, which keep its column right-aligned
NUMBER_WORDS = ("n/a", "null", "never")


def _numbers_column(column) -> bool:
    """Whether a table column holds numbers, right-aligned: a numeric dtype, or numbers mixed with the text a
    table gives some of them ("n/a" for no percentage, "0.0091" for a share one decimal would show as 0,
    "null" for a sweep's value of no cap, "never" for a break-even utilisation no card reaches)."""
    import pandas as pd

    if pd.api.types.is_numeric_dtype(column):
        return True
    shown = [v for v in column if not (v is None or (isinstance(v, float) and math.isnan(v)))]
    return bool(shown) and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                               or (isinstance(v, str) and (v in NUMBER_WORDS or _is_number_text(v))) for v in shown)


def _is_number_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Narrower:
    """What `emit` draws instead of a table wider than the terminal: the first of `layouts` that fits it, else
    the last. Each layout is some columns of `table`, named as drawn (short headers; a cell of two lines makes
    its row two lines high), and the columns of the full table it leaves out, named in a line under it with the width
    of the narrowest layout that leaves none of them out (the least width that shows them, when the layouts leaving
    out fewer come first)."""
    table: pd.DataFrame
    layouts: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]   # (columns drawn, columns left out)


def emit(df: pd.DataFrame, fmt: Format, title: str = "", float_digits: int = 4, whole_title: bool = False,
         narrower: Narrower | None = None, same_decimals: bool = False) -> tuple[str, ...]:
    """Write a table to stdout as a rich table (its first TABLE_ROWS rows, and a line saying how many there
    are), JSON records or CSV. `whole_title`: the rich table at least as wide as its title, which rich otherwise
    wraps to a narrow table's width (a title longer than the console still wraps). `narrower`: what to draw
    where the table is wider than the terminal, rather than squeeze its columns into fragments ("usd_…",
    "0.0…"). A table wider than the terminal keeps its numbers and words whole (text folds between words); where
    even that does not fit, each row is drawn as a list of its fields, one a line, as psql's expanded display does:
    rich cut a workload's name to "hyperparam…" and the break-even table's numbers off the edge at 80 columns. Gives
    the columns left out of the table drawn (none for JSON and CSV, which carry them all). `same_decimals`: each
    column's numbers to one number of decimals (_CellTexts), for tables of money."""
    left_out: tuple[str, ...] = ()
    if fmt is Format.json:
        from planner.reports.tables import records

        sys.stdout.write(json.dumps(records(df), indent=2) + "\n")
    elif fmt is Format.csv:
        from planner.reports.tables import csv_text  # no field a spreadsheet would run as a formula

        sys.stdout.write(csv_text(df))
    else:
        from rich.text import Text

        out = stdout_console(piped_width=240)
        cells, positions = _CellTexts(df, float_digits, same_decimals), range(len(df.columns))
        too_wide = (full_width := _natural_width(out, cells, positions)) > out.width
        if narrower is not None and too_wide:
            cells = _CellTexts(narrower.table, float_digits, same_decimals)
            layouts = [([narrower.table.columns.get_loc(c) for c in drawn], left) for drawn, left in narrower.layouts]
            widths = [_natural_width(out, cells, drawn) for drawn, _ in layouts]
            positions, left_out = next((layout for layout, width in zip(layouts, widths) if width <= out.width),
                                       layouts[-1])
            # the least width that shows them: the narrowest layout that leaves none of them out, not the full table
            # with its long headers (the p4de's two offers: 156 columns, where two lines an offer show every one at 94)
            shown_from = min((width for (_, left), width in zip(layouts, widths) if not set(left) & set(left_out)),
                             default=full_width)
        if too_wide and _least_width(cells, positions) > out.width:
            out.print(_records_table(_CellTexts(df, float_digits, same_decimals), title), soft_wrap=False)
            left_out = ()   # every column is drawn
        else:
            # a row some cell of which folds onto more lines is ruled apart from the next, as a stacked one is
            folds = too_wide and _natural_width(out, cells, positions) > out.width
            out.print(_rich_table(cells, positions, title, whole_title, whole_cells=too_wide, ruled=folds,
                                  fit_to=out.width), soft_wrap=False)
        if left_out:   # under the table, on a line of its own, as the TABLE_ROWS line
            out.print(Text(f"not shown: {', '.join(left_out)} (needs {shown_from} columns; "
                           f"--format csv or json has every column)"))
        if len(df) > TABLE_ROWS:   # under the table, on a line of its own (a caption wraps to the table's width)
            out.print(Text(f"the first {TABLE_ROWS:,} of {len(df):,} rows: --format json writes them all"))
    return left_out


class _CellTexts:
    """The text of each drawn cell of a table (its first TABLE_ROWS rows), made once per column, a column given by
    its position (names may repeat): a float to `float_digits` decimals without trailing zeros (NaN empty), anything
    else as str; with `same_decimals`, the floats of a column all to as many decimals as the one that needs most
    shows: a column of money to the tenth read ragged cell by cell — 69,768.5 over 47,581 — and harder to compare
    down the column."""

    def __init__(self, df: pd.DataFrame, float_digits: int, same_decimals: bool = False):
        self.df, self.float_digits, self.same_decimals, self._texts = df, float_digits, same_decimals, {}

    def __getitem__(self, position: int) -> list[str]:
        if position not in self._texts:
            values = self.df.iloc[:TABLE_ROWS, position].tolist()
            places = None
            if self.same_decimals:
                places = max((_decimals(number_text(v, self.float_digits)) for v in values
                              if isinstance(v, float) and not math.isnan(v)), default=0)
            self._texts[position] = [self._text(v, places) for v in values]
        return self._texts[position]

    def name(self, position: int) -> str:
        return str(self.df.columns[position])

    def _text(self, v, places: int | None) -> str:
        if not isinstance(v, float):
            return str(v)
        if math.isnan(v):
            return ""
        # + 0.0 turns the -0.0 that a small negative rounds to into 0: no "-0" in a table
        return number_text(v, self.float_digits) if places is None else f"{round(v, places) + 0.0:,.{places}f}"


def _decimals(text: str) -> int:
    """The decimals a number's text shows ("1,512.5": 1)."""
    return len(text.partition(".")[2])


def _text_width(text: str) -> int:
    """Terminal cells of the widest line of `text` as a table draws it (through `visible`)."""
    from rich.cells import cell_len

    return max(cell_len(line) for line in visible(text).split("\n"))


def _natural_width(console: Console, cells: _CellTexts, positions: Iterable[int]) -> int:
    """Terminal cells a table of the columns at `positions` takes when none is squeezed: measured by rich on a
    table of one row holding each column's widest cell, so that borders and padding count as rich draws them."""
    from rich.measure import Measurement
    from rich.table import Table

    probe, widest = Table(), []
    for i in positions:
        probe.add_column(cells.name(i))
        widest.append("x" * max((_text_width(t) for t in cells[i]), default=0))
    probe.add_row(*widest)
    return Measurement.get(console, console.options.update_width(1_000_000), probe).maximum


# A word longer than this may fold within itself in a table wider than the terminal: skus and unit ids (a 37-character
# Azure sku) fold and keep every character; shorter words — card ids, headers, statuses — stay whole. Narrower than
# this, the decision table's words folded a letter a line at 80 columns.
WORD_FOLDS_FROM = 16


def _least_widths(cells: _CellTexts, positions: Iterable[int]) -> list[int]:
    """The fewest terminal cells each column at `positions` takes with nothing cut: a number column its widest cell or
    header, a text column its longest word up to WORD_FOLDS_FROM (text folds between words, a longer word within
    itself, every character kept)."""
    widths = []
    for i in positions:
        texts = [cells.name(i), *cells[i]]
        if _numbers_column(cells.df.iloc[:, i]):
            widths.append(max(map(_text_width, texts)))
        else:
            longest = max((_text_width(word) for text in texts for word in text.split()), default=0)
            widths.append(min(longest, WORD_FOLDS_FROM))
    return widths


def _least_width(cells: _CellTexts, positions: Iterable[int]) -> int:
    """Terminal cells of a table of the columns at `positions` at their least widths, with rich's borders and padding
    (three cells a column and one more)."""
    widths = _least_widths(cells, positions)
    return sum(widths) + 3 * len(widths) + 1


def _records_table(cells: _CellTexts, title: str):
    """The rich Table of every row of `cells` as a list of its fields, one a line (the column's name, then the cell),
    rows ruled apart: for a table too wide for the terminal even with nothing cut."""
    from rich.markup import escape as rich_escape
    from rich.table import Table
    from rich.text import Text

    shown = Text(visible(title)) if title else None
    # as wide as its title where the terminal allows: the fields' table is narrow, and rich wraps a title to it
    table = Table(title=shown, show_header=False, min_width=shown.cell_len if shown else None)
    table.add_column("field", no_wrap=True)
    table.add_column("value", overflow="fold")
    names = [cells.name(i) for i in range(len(cells.df.columns))]
    columns = [cells[i] for i in range(len(names))]
    for row, values in enumerate(zip(*columns)):
        if row:
            table.add_section()
        for name, value in zip(names, values):
            table.add_row(rich_escape(name), rich_escape(value))
    return table


def _fitted_widths(cells: _CellTexts, positions: Iterable[int], width: int) -> list[int]:
    """Each column's width in a table of `width` cells (borders and padding included) whose columns fit it at their
    least widths (`_least_widths`): the least, and of the cells to spare a share of what each lacks of its natural
    width (its widest cell or header), in proportion to that. Set as the columns' widths, since rich's own sharing
    out does not keep to their min_width: it drew the purchase schedule 81-87 cells wide on a terminal of 80-87, and
    the terminal cut its notes."""
    positions = list(positions)
    least = _least_widths(cells, positions)
    natural = [max(_text_width(t) for t in [cells.name(i), *cells[i]]) for i in positions]
    spare = width - (sum(least) + 3 * len(least) + 1)
    lacks = [max(0, n - m) for n, m in zip(natural, least)]
    if sum(lacks) <= spare:
        return [max(n, m) for n, m in zip(natural, least)]
    shares = [lack * spare // sum(lacks) for lack in lacks]
    left = spare - sum(shares)
    for i in sorted(range(len(lacks)), key=lambda i: lacks[i] - shares[i], reverse=True)[:left]:
        shares[i] += 1   # the cells the rounding down left, one each to the columns lacking most
    return [m + share for m, share in zip(least, shares)]


def _rich_table(cells: _CellTexts, positions: Iterable[int], title: str, whole_title: bool, whole_cells: bool,
                ruled: bool = False, fit_to: int | None = None):
    """The rich Table of the columns of `cells` at `positions`, numbers right-aligned. `whole_cells` (a table wider
    than the terminal that fits it at its least widths): a number or a word is never cut ("0.0…"), a text too long
    for its column folds onto more lines rather than lose its end, and rows of more than one line are ruled apart
    (`ruled`: some cell folds); its columns share out `fit_to` cells (`_fitted_widths`)."""
    from rich.markup import escape as rich_escape  # once, not per cell as escape() would import it
    from rich.table import Table
    from rich.text import Text

    # the title as text, not markup: it holds file names and store paths ("m/[/x]/p.sqlite" raised MarkupError)
    shown = Text(visible(title)) if title else None   # (Text skips render_str)
    columns = [(cells.name(i), cells.df.iloc[:, i], cells[i]) for i in positions]
    tall_rows = ruled or whole_cells and any("\n" in text for _, _, texts in columns for text in texts)
    table = Table(title=shown, show_lines=tall_rows, min_width=shown.cell_len if shown and whole_title else None)
    fitted = _fitted_widths(cells, positions, fit_to) if whole_cells and fit_to else [None] * len(columns)
    for (name, column, _), fitted_width in zip(columns, fitted):
        if not _numbers_column(column):
            table.add_column(name, justify="left", overflow="fold" if whole_cells else "ellipsis", width=fitted_width)
        elif whole_cells:
            table.add_column(name, justify="right", no_wrap=True, width=fitted_width)
        else:
            table.add_column(name, justify="right")
    for row in zip(*(texts for _, _, texts in columns)):
        table.add_row(*map(rich_escape, row))  # "[aws, azure]" is text, not rich markup
    return table
