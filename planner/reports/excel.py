"""The plan as an XLSX workbook, built in memory first so a failure never leaves a half-written file."""

from __future__ import annotations

import io
import json
import math
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from planner.engine import Plan
from planner.reports.tables import assumptions, clean, maybe_write, plan_start, prices_used, spreadsheet_text, summary_table

SHEETS = ("summary", "fleet", "purchase schedule", "owned cards", "monthly", "baselines", "break-even", "speeds",
          "assumptions", "prices used")


def plan_to_excel(plan: Plan, path: str | Path | None = None, start: str | date | None = None) -> bytes:
    """The plan as an XLSX workbook (bytes) with the sheets of `SHEETS`; written atomically when
    `path` is given."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    tables = {
        "summary": summary_table(plan, plan_start(start, plan.scenario)),
        "fleet": plan.fleet, "purchase schedule": plan.schedule, "owned cards": plan.owned, "speeds": plan.speeds,
        "monthly": plan.monthly, "baselines": plan.baselines,
        "break-even": plan.break_even, "assumptions": assumptions(plan), "prices used": prices_used(plan),
    }
    wb = Workbook()
    wb.remove(wb.active)
    for name in SHEETS:
        _sheet(wb.create_sheet(name), tables[name], Font(bold=True))
    buf = io.BytesIO()
    wb.save(buf)
    return maybe_write(path, buf.getvalue())


def _cell(v):
    """`v` as an openpyxl cell value: NaN and inf empty, numpy scalars as Python ones, containers as
    JSON, text through `spreadsheet_text` (so openpyxl never writes it as a formula)."""
    if v is None:
        return None
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) or math.isinf(v) else float(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (dict, list, tuple)):
        return spreadsheet_text(json.dumps(clean(v)))
    return spreadsheet_text(v)


def _sheet(ws, df: pd.DataFrame, bold) -> None:
    ws.append([spreadsheet_text(str(c)) for c in df.columns])
    for cell in ws[1]:
        cell.font = bold
    for row in df.itertuples(index=False):
        ws.append([_cell(v) for v in row])
    for i, col in enumerate(df.columns, start=1):
        width = max([len(str(col))] + [len(str(v)) for v in df[col].head(200)]) if len(df) else len(str(col))
        ws.column_dimensions[ws.cell(1, i).column_letter].width = min(60, max(8, width + 2))
    ws.freeze_panes = "A2"
