"""What the Export page offers for download: the edited scenario as YAML and the plan as JSON, CSV,
XLSX, FinOps FOCUS 1.0 cost rows (CSV) and a Markdown summary. The plan files come from `planner.reports`;
this module only names them. `start` (month 1 of the plan, YYYY-MM, the page's box; None: not given) dates them as
`fleetplan plan --start` dates the files of --out: the JSON's start, monthly.csv's calendar_month, the summary's
months and years, the workbook's and the FOCUS rows' months (those two from next month where it is not given)."""

from __future__ import annotations

import io
import zipfile
from datetime import datetime

from planner import reports
from planner.catalog.prices import utc_today
from planner.engine import Plan
from planner.errors import PlannerError
from planner.reports.markdown import Edited
from planner.reports.tables import PLAN_TABLES, csv_text, generated_at, start_month
from planner.scenario import Scenario
from planner.scenario.model import defaults_left_out
from planner.scenario.yaml_core import dump_yaml
from planner.text import one_line


def scenario_yaml(s: Scenario, origin: str = "", edited: bool = False) -> str:
    """The scenario as a YAML file that `fleetplan validate` accepts and that loads back equal to `s`: written whole,
    without a file's comments (the Export page's download where the dashboard has not the file's text: otherwise it
    offers state.edited_text's, the file's own lines). No editor schema line: the examples' `../schema/…` path leads
    nowhere from a download folder, and the schema has no address of its own to name."""
    head = []
    if origin:   # on the comment's one line: an uploaded file's name may hold a line break and YAML after it
        head.append(f"# {'Edited in the dashboard from' if edited else 'Exported from'} {one_line(origin)} on "
                    f"{utc_today().isoformat()} (UTC).")
    # the default purchase options and onprem site figures left out, as the file left them: listed, they would read
    # as the user's choice (catalog.option_gaps warns of a listed option without prices, not of the default's;
    # scenario.model.assumed_site_figures of a site figure left to its default, not of one given)
    body = dump_yaml(defaults_left_out(s, s.model_dump(mode="json", exclude_none=True)), sort_keys=False,
                     allow_unicode=True, width=100)
    return "".join(line + "\n" for line in head) + body


def slug(name: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in name.lower())
    return "-".join(part for part in out.split("-") if part) or "scenario"


def start_given(text: str | None) -> tuple[str | None, str | None]:
    """(month 1 as YYYY-MM, None) from the Export page's box as typed ("2027-04", "2027-4"); (None, None) when it is
    empty; (None, what is wrong) when it is no month, as `fleetplan plan --start` is checked (reports.tables.plan_start)."""
    text = (text or "").strip()
    if not text:
        return None, None
    try:
        return start_month(text), None
    except PlannerError as exc:
        return None, str(exc)


def plan_json(plan: Plan, start: str | None = None) -> str:
    return reports.plan_to_json(plan, start=start)


def plan_csv(plan: Plan, table: str = "fleet", start: str | None = None) -> str:
    return reports.plan_to_csv(plan, table=table, start=start)


def plan_csv_zip(plan: Plan, start: str | None = None) -> bytes:
    """Every table of the plan (reports.tables.PLAN_TABLES) as CSV files in one ZIP; baselines only when the
    plan has them (a plan solved without them has no such table, plan_to_csv says)."""
    has_baselines = "baseline" in plan.baselines.columns
    # each file dated when the plan was made (UTC), not by the server's local clock: the same plan, the same zip
    made = datetime.strptime(generated_at(plan), "%Y-%m-%dT%H:%M:%SZ").timetuple()[:6]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for table in PLAN_TABLES:
            if table != "baselines" or has_baselines:
                zf.writestr(zipfile.ZipInfo(f"{table}.csv", date_time=made), plan_csv(plan, table, start),
                            compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def plan_xlsx(plan: Plan, start: str | None = None) -> bytes:
    return reports.plan_to_excel(plan, start=start)


def plan_focus(plan: Plan, start: str | None = None) -> str:
    """The plan's FOCUS 1.0 cost rows as CSV (docs/focus.md), the file `fleetplan plan --format focus` writes."""
    return csv_text(reports.plan_to_focus(plan, start=start))


def plan_markdown(plan: Plan, start: str | None = None, edited: Edited | None = None) -> str:
    """The plan's summary (summary.md), with `edited`, the note that its scenario was edited from its file and how
    (state.summary_edits)."""
    return reports.plan_to_markdown(plan, start=start, edited=edited)
