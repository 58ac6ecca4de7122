"""The help says what the options and the environment do (an audit, 2026-12-06): `plan --start` named only
focus.csv, though it dates the workbook's monthly, yearly and purchase schedule sheets too (docs/workbook.md);
`fleetplan --help`'s environment variables left out the three that `fleetplan dashboard` reads."""

from __future__ import annotations

import io
import re
from datetime import datetime
from pathlib import Path

from cli_run import run
from openpyxl import load_workbook

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


def shown(*args) -> str:
    """`fleetplan *args`'s stdout with its white space as single spaces (click wraps the help)."""
    result = run(*args)
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_start_help_names_the_workbook_sheets_it_dates(tmp_path):
    text = shown("plan", "--help")
    assert ("--start YYYY-MM month 1 of the plan, YYYY-MM (default: next month): dates the FOCUS rows and the "
            "workbook's monthly, yearly and purchase schedule sheets (--format focus or xlsx, and --out)") in text
    # … as it does: month 1 of each sheet is the month given
    out = tmp_path / "p.xlsx"
    result = run("plan", STARTUP, "--no-baselines", "--no-decisions", "--format", "xlsx", "-o", out, "--start", "2031-05")
    assert result.exit_code == 0, result.output
    wb = load_workbook(io.BytesIO(out.read_bytes()))
    first = datetime(2031, 5, 1)
    assert wb["monthly"]["B2"].value == first and wb["monthly"]["B1"].value == "month_start"
    assert wb["yearly"]["D2"].value == first and wb["yearly"]["D1"].value == "from"
    assert wb["purchase schedule"]["B2"].value == first and wb["purchase schedule"]["B1"].value == "month_start"


def test_the_help_names_every_variable_the_dashboard_reads():
    # the names as the dashboard's source reads them, not a list kept here
    read = set()
    for path in (ROOT / "fleetplan_dashboard").rglob("*.py"):
        read |= set(re.findall(r"os\.environ\.get\(\s*\"(FLEETPLAN_\w+)\"", path.read_text(encoding="utf-8")))
    assert read >= {"FLEETPLAN_DASHBOARD_TIME_LIMIT", "FLEETPLAN_DASHBOARD_WORKERS", "FLEETPLAN_DASHBOARD_TRACE"}
    text = shown("--help")
    environment = text.split("Environment variables:", 1)[1]
    for name in read:
        assert f"{name}: " in environment, name
