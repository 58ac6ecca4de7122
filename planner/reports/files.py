"""Every file of `fleetplan plan --out DIR`, built in memory first, then written as one set: DIR holds
the whole previous set or the whole new one, never a mix (see `planner.fileio.write_folder_atomic`)."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

from planner.engine import Plan
from planner.errors import PlannerError
from planner.fileio import folder_problem, not_a_path, write_folder_atomic
from planner.reports.excel import plan_to_excel
from planner.reports.focus import plan_to_focus
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import csv_text, plan_to_csv, plan_to_json, require_plan

OUT_FILES = ("plan.json", "fleet.csv", "monthly.csv", "plan.xlsx", "focus.csv", "summary.md")
# what an earlier version's per-file atomic writes could leave behind when killed
_OLD_TEMPORARY = re.compile(r"\.(" + "|".join(map(re.escape, OUT_FILES)) + r")\..+\.tmp")


def write_plan_files(plan: Plan, out_dir: str | Path, start: str | date | None = None, *,
                     option: str | None = None) -> list[Path]:
    """Write plan.json, fleet.csv, monthly.csv, plan.xlsx, focus.csv and summary.md as the folder
    `out_dir` (a leading `~` is the home folder), replacing a previous plan's set as a whole; return the paths
    of the files.

    Raises PlannerError when `out_dir` holds anything else (replacing the folder would delete it), or the folder
    above it does not exist. Its messages name `out_dir` as given, after `option`, the command-line option that
    gave it ("--out"), where there is one: a notebook's user typed no --out."""
    require_plan(plan, "write_plan_files (write_files)")
    if wrong := not_a_path(out_dir, f"{option} " if option else "out_dir=", "the folder to write the plan's files into",
                           "review/"):   # write_files(p, 123) raised os.fspath's TypeError
        raise PlannerError(wrong)
    if os.fspath(out_dir) == "":   # Path("") is ".", the current folder
        raise PlannerError(f"{option}: no folder given; give the folder to write the plan's files into, e.g. review/"
                           if option else "write_files: no folder given; give the folder to write the plan's files "
                                          "into, e.g. review/")
    said = f"{option} {out_dir}" if option else str(out_dir)
    out_dir = Path(out_dir).expanduser()
    problem = folder_problem(out_dir)   # the folder itself is made, not a missing one above it
    if problem:
        raise PlannerError(f"{said}: {problem}")
    _check_replaceable(out_dir, said, option or "write_files")
    contents = {
        "plan.json": plan_to_json(plan),
        "fleet.csv": plan_to_csv(plan, table="fleet"),
        "monthly.csv": plan_to_csv(plan, table="monthly"),
        "plan.xlsx": plan_to_excel(plan, start=start),
        "focus.csv": csv_text(plan_to_focus(plan, start=start)),
        "summary.md": plan_to_markdown(plan),
    }
    write_folder_atomic(out_dir, contents)
    return [out_dir / name for name in OUT_FILES]


def _check_replaceable(out_dir: Path, said: str, writer: str) -> None:
    """Raise PlannerError, naming `out_dir` as `said`, unless it is absent or a folder holding only a plan's files
    (as `writer`, --out or write_files, writes them)."""
    if not out_dir.exists():
        return
    if not out_dir.is_dir():
        raise PlannerError(f"{said}: not a folder")
    if out_dir.resolve() == Path.cwd().resolve():
        raise PlannerError(f"{said}: the export replaces the whole folder; give one other than the current folder")
    other = sorted(f"{p.name}/" if p.is_dir() else p.name for p in out_dir.iterdir() if _not_exported(p))
    if other:
        raise PlannerError(f"{said}: the folder holds files that are not a plan's ({', '.join(other[:5])}"
                           f"{', …' if len(other) > 5 else ''}); the export replaces the whole folder, so give a "
                           f"new or empty folder, or one written by {writer}")


def _not_exported(path: Path) -> bool:
    """Whether `path` in an --out folder is something no export wrote, which replacing the folder would delete:
    any other name, and a folder or link under a plan file's name (plan.xlsx/ and all it held went)."""
    ours = path.name in OUT_FILES or _OLD_TEMPORARY.fullmatch(path.name)
    return not ours or path.is_symlink() or not path.is_file()
