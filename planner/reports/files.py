"""Every file of `fleetplan plan --out DIR`, each built in memory first and then written atomically."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from planner.engine import Plan
from planner.fileio import write_atomic
from planner.reports.excel import plan_to_excel
from planner.reports.focus import plan_to_focus
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import plan_to_csv, plan_to_json

OUT_FILES = ("plan.json", "fleet.csv", "monthly.csv", "plan.xlsx", "focus.csv", "summary.md")


def write_plan_files(plan: Plan, out_dir: str | Path, start: str | date | None = None) -> list[Path]:
    """Write plan.json, fleet.csv, monthly.csv, plan.xlsx, focus.csv and summary.md into `out_dir`."""
    out_dir = Path(out_dir)
    contents = {
        "plan.json": plan_to_json(plan),
        "fleet.csv": plan_to_csv(plan, table="fleet"),
        "monthly.csv": plan_to_csv(plan, table="monthly"),
        "plan.xlsx": plan_to_excel(plan, start=start),
        "focus.csv": plan_to_focus(plan, start=start).to_csv(index=False, lineterminator="\n"),
        "summary.md": plan_to_markdown(plan),
    }
    return [write_atomic(out_dir / name, contents[name]) for name in OUT_FILES]
