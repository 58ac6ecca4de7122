"""Views of a Plan for people and other tools: JSON, CSV, XLSX, FOCUS, Markdown, comparisons and
sweeps. Reports read a Plan (which carries its scenario, offers and cash flows); never the catalog or
a price source."""

from planner.reports.compare import Comparison, compare
from planner.reports.excel import SHEETS, plan_to_excel
from planner.reports.files import OUT_FILES, write_plan_files
from planner.reports.focus import plan_to_focus
from planner.reports.markdown import plan_to_markdown
from planner.reports.sweep import fleet_summary, sweep
from planner.reports.tables import plan_start, plan_to_csv, plan_to_dict, plan_to_json, prices_used, records, summary_table

__all__ = ["OUT_FILES", "SHEETS", "Comparison", "compare", "fleet_summary", "plan_start", "plan_to_csv",
           "plan_to_dict", "plan_to_excel", "plan_to_focus", "plan_to_json", "plan_to_markdown", "prices_used",
           "records", "summary_table", "sweep", "write_plan_files"]
