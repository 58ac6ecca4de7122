"""Every file of `fleetplan plan --out DIR`, built in memory first, then written as one set: DIR holds
the whole previous set or the whole new one, never a mix (see `planner.fileio.write_folder_atomic`)."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

from planner.engine import Plan
from planner.errors import PlannerError
from planner.fileio import folder_problem, not_a_path, read_only_problem, write_folder_atomic
from planner.reports.excel import plan_to_excel
from planner.reports.focus import plan_to_focus
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import (
    check_not_an_input,
    csv_text,
    files_planned_from,
    generated_at,
    plan_start,
    plan_to_csv,
    plan_to_json,
    require_plan,
)

OUT_FILES = ("plan.json", "fleet.csv", "monthly.csv", "excluded_offers.csv", "plan.xlsx", "focus.csv", "summary.md")
# what an earlier version's per-file atomic writes could leave behind when killed
_OLD_TEMPORARY = re.compile(r"\.(" + "|".join(map(re.escape, OUT_FILES)) + r")\..+\.tmp")


def write_plan_files(plan: Plan, out_dir: str | Path, start: str | date | None = None, *,
                     option: str | None = None) -> list[Path]:
    """Write plan.json, fleet.csv, monthly.csv, excluded_offers.csv (each offer left out, with its reason),
    plan.xlsx, focus.csv and summary.md as the folder `out_dir` (a leading `~` is the home folder), replacing a
    previous plan's set as a whole; return the paths of the files. `start` (month 1, YYYY-MM) dates them all: the
    JSON's `start`, monthly.csv's calendar_month, the summary's period and years, the workbook's and FOCUS's months.

    Raises PlannerError when `out_dir` holds anything else (replacing the folder would delete it), one of its files
    would be a file the plan was made from (a profile CSV saved as fleet.csv in it: `check_not_an_input`), or the
    folder above it does not exist. Its messages name `out_dir` as given, after `option`, the command-line option
    that gave it ("--out"), where there is one: a notebook's user typed no --out."""
    require_plan(plan, "write_plan_files (write_files)")
    # checked again here, not only by the CLI before it solves: the folder may have changed meanwhile
    given = out_dir
    out_dir = check_plan_folder(out_dir, option)
    check_not_an_input([(f"{option} {Path(given) / name}" if option else str(Path(given) / name), out_dir / name)
                        for name in OUT_FILES], files_planned_from(plan))
    # the workbook and FOCUS date their months even without a start (default: the month after the plan's generated_at,
    # which stamps every file): each reading the clock for it gave them two months when the set was written across the
    # turn of a month
    dated = plan_start(start, plan.scenario, today=date.fromisoformat(generated_at(plan)[:10]))
    contents = {
        "plan.json": plan_to_json(plan, start=start),
        "fleet.csv": plan_to_csv(plan, table="fleet"),
        "monthly.csv": plan_to_csv(plan, table="monthly", start=start),
        "excluded_offers.csv": plan_to_csv(plan, table="excluded_offers"),
        "plan.xlsx": plan_to_excel(plan, start=dated),
        "focus.csv": csv_text(plan_to_focus(plan, start=dated)),
        "summary.md": plan_to_markdown(plan, start=start),
    }
    write_folder_atomic(out_dir, contents)
    return [out_dir / name for name in OUT_FILES]


def check_plan_folder(out_dir: str | Path, option: str | None = None) -> Path:
    """`out_dir` as the folder write_plan_files may replace with a plan's files (a leading `~` the home folder);
    PlannerError, naming it after `option` ("--out") where there is one, when it is no path, empty, holds anything
    but a plan's files, or the folder above it does not exist. The CLI checks so before solving: refused after
    the solves, a large plan's minutes of work were lost."""
    if wrong := not_a_path(out_dir, f"{option} " if option else "out_dir=", "the folder to write the plan's files into",
                           "review/"):   # write_files(p, 123) raised os.fspath's TypeError
        raise PlannerError(wrong)
    if os.fspath(out_dir) == "":   # Path("") is ".", the current folder
        raise PlannerError(f"{option}: no folder given; give the folder to write the plan's files into, e.g. review/"
                           if option else "write_files: no folder given; give the folder to write the plan's files "
                                          "into, e.g. review/")
    said = f"{option} {out_dir}" if option else str(out_dir)
    folder = Path(out_dir).expanduser()
    problem = folder_problem(folder)   # the folder itself is made, not a missing one above it
    if problem:
        raise PlannerError(f"{said}: {problem}")
    _check_replaceable(folder, said, option or "write_files")
    return folder


def _check_replaceable(out_dir: Path, said: str, writer: str) -> None:
    """Raise PlannerError, naming `out_dir` as `said`, unless it is absent or a folder holding only a plan's files
    (as `writer`, --out or write_files, writes them) that this user may replace: the folder and its files writable."""
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise PlannerError(f"{said}: not a folder")
    if out_dir.resolve() == Path.cwd().resolve():
        raise PlannerError(f"{said}: the export replaces the whole folder; give one other than the current folder")
    try:
        entries = list(out_dir.iterdir())
    except OSError as exc:   # a folder this user may enter but not list: what replacing it deletes is unknown
        raise PlannerError(f"{said}: cannot list the folder's files ({exc.strerror or exc}); the export replaces "
                           "the whole folder, so give a new or empty folder") from None
    other = sorted(f"{p.name}/" if p.is_dir() else p.name for p in entries if _not_exported(p))
    if other:
        raise PlannerError(f"{said}: the folder holds files that are not a plan's ({', '.join(other[:5])}"
                           f"{', …' if len(other) > 5 else ''}); the export replaces the whole folder, so give a "
                           f"new or empty folder, or one written by {writer}")
    if problem := read_only_problem(out_dir):   # fileio's write_folder_atomic refuses it too, after the solves
        raise PlannerError(f"{said}: {problem}")
    # a plan's files made read-only to keep them: the shell's `>` and cp would not replace them either
    kept = sorted(p.name for p in entries if not os.access(p, os.W_OK))
    if kept:
        raise PlannerError(f"{said}: the plan's files {', '.join(kept)} are read-only (you may not write them); "
                           "make them writable or give another folder")


def _not_exported(path: Path) -> bool:
    """Whether `path` in an --out folder is something no export wrote, which replacing the folder would delete:
    any other name, and a folder or link under a plan file's name (plan.xlsx/ and all it held went)."""
    ours = path.name in OUT_FILES or _OLD_TEMPORARY.fullmatch(path.name)
    return not ours or path.is_symlink() or not path.is_file()
