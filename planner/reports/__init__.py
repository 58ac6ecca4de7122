"""Views of a Plan for people and other tools: JSON, CSV, XLSX, FOCUS, Markdown, comparisons and
sweeps. Reports read a Plan (which carries its scenario, offers and cash flows); never the catalog or
a price source."""

from planner.lazy import lazy_names
from planner.reports.compare import Comparison, compare
from planner.reports.sweep import fleet_summary, sweep
from planner.reports.tables import plan_start, plan_to_csv, plan_to_dict, plan_to_json, prices_used, records, summary_table

# imported on first use: a JSON or CSV plan never loads the workbook, FOCUS and Markdown writers (nor, through
# the workbook's decision columns, engine.decisions). compare and sweep stay above: they name both a function
# here and a submodule, and a submodule imported later would take the function's place.
_LAZY = {"SHEETS": "planner.reports.excel", "plan_to_excel": "planner.reports.excel",
         "OUT_FILES": "planner.reports.files", "write_plan_files": "planner.reports.files",
         "plan_to_focus": "planner.reports.focus", "plan_to_markdown": "planner.reports.markdown"}

__getattr__, __dir__ = lazy_names(__name__, _LAZY)

__all__ = ["OUT_FILES", "SHEETS", "Comparison", "compare", "fleet_summary", "plan_start", "plan_to_csv",
           "plan_to_dict", "plan_to_excel", "plan_to_focus", "plan_to_json", "plan_to_markdown", "prices_used",
           "records", "summary_table", "sweep", "write_plan_files"]
