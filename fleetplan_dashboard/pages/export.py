"""Export page: the edited scenario as YAML, the plan as JSON, CSV, XLSX, FOCUS cost rows and a Markdown
summary."""

from __future__ import annotations

import streamlit as st

from fleetplan_dashboard import exports, links, state, tables
from planner.errors import PlannerError
from planner.reports.tables import present_value_basis
from planner.text import counted, one_line


def decisions_words(made: bool, under_way: bool) -> str:
    """What the caption says of what each decision is worth: in the JSON and the workbook, being made (the Plan page
    shows "Computing what each decision is worth…"), or failed."""
    if made:
        return "The JSON and the workbook include what each decision is worth and the runner-up."
    if under_way:
        return ("What each decision is worth and the runner-up are being computed: once done, they will be in the JSON "
                "and the workbook (this page updates itself).")
    # this page starts them when they are not made: not made and not under way, their computation failed
    return ("What each decision is worth is not included: it could not be computed (the Plan page's section "
            "*What each decision is worth* says why).")


# A link to this page (a bookmark, a shared link) carries the scenario and its edits, as the Plan page's does: opened
# here as there, and the URL written back as the page shows it (links)
links.open_shared_link()
cur = state.current()
links.write_link(cur)
st.title("Export")
if links.link_problems():
    st.warning(f"{links.IGNORED}\n\n" + tables.message_block(links.link_problems()))
if cur.edited is None:
    st.error("Nothing to export: the scenario is not valid.\n\n" + tables.message_block(cur.problems))
    st.stop()
s = cur.edited
edited = s != cur.base
name = exports.slug(s.name) + ("-edited" if edited else "")
st.caption(f"Scenario “{tables.plain(one_line(s.name))}” from {tables.plain(one_line(cur.label))}"
           + (", with the Plan page's edits." if edited else ", as saved."))

st.subheader("Scenario")
# the one scenario download, as the Plan page's sidebar offers it: the file's own text, the edits written in; written
# whole only where the file's text cannot be read
download = state.scenario_download(cur.base_id, cur.base, state.current_values(cur.base))
yaml_text = download.text if download else exports.scenario_yaml(s, cur.label, edited)
yaml_name = download.file_name if download else f"{name}.yaml"
st.download_button("Scenario (YAML)", yaml_text, file_name=yaml_name, mime="application/x-yaml",
                   icon=":material/description:", key="dl_yaml", on_click="ignore",
                   help=state.DOWNLOAD_HELP + (": its comments kept." if download and download.kept else
                                               ": written whole, without the file's comments."))
with st.expander("Show the YAML"):
    st.code(yaml_text, language="yaml")

st.subheader("Plan")
try:
    outcome = state.plan_for(s)
except PlannerError as exc:   # its baselines have no answer (a solve stopped by the time limit): said, not a traceback
    st.error("**No plan to export**: its baselines could not be made.\n\n" + tables.message_block([str(exc)]))
    st.stop()
if outcome.kind != "ok":
    said = tables.infeasible_words(outcome.message, s) if outcome.kind == "infeasible" else outcome.message
    st.error("**No plan to export.**\n\n" + tables.message_block([said]))
    st.stop()
# what each decision is worth: started here when not made yet, at the lowest priority, as the Plan page starts them
# (which waits until it has been left alone for two seconds: a user who opened this page sooner got files without
# them for good, said to be "made on the Plan page": an audit); this page updates itself when they are made. Asked
# whether they are under way before whether they are made, so that one made in between is included, not missing
if state.decisions_of(s) is None:
    state.decisions_future(s, state.recommended(s))   # the Plan page's outcome (no baselines): the same job
under_way = state.decisions_under_way(s)
made = state.decisions_of(s)
p = state.with_decisions(outcome, made).plan
# month 1 of the plan, as `fleetplan plan --start` gives it: the scenario file has no field for it (the planner's
# months are counted, not dated), so the box is the only way to date the files as the command line's are
# empty, the reports number the JSON's, the zip's and the summary's months only but date the workbook's and the cost
# rows' from next month (reports.tables.plan_start): the label said "numbered only" of all of them (an audit)
typed = st.text_input("Month 1 of the plan (YYYY-MM; empty: the workbook and the cost rows count from next month, the "
                      "other files number the months only)", key="export_start",
                      placeholder="YYYY-MM, e.g. 2027-04",
                      help="Dates the files below as `fleetplan plan --start` does: the JSON's start, monthly.csv's "
                           "calendar_month (in the zip), the summary's months and years, and the months of the workbook "
                           "and the cost rows. Empty: the JSON's start is null, calendar_month is empty and the summary "
                           "gives plan months only, while the workbook and the cost rows date month 1 as next month.")
start, wrong = exports.start_given(typed)
if wrong:
    st.error(f"Month 1 of the plan: {tables.plain(wrong)}. The files below are made without it.",
             icon=":material/error:")
c1, c2, c3, c4 = st.columns(4)
c1.download_button("Plan (JSON)", exports.plan_json(p, start), file_name=f"{name}-plan.json", mime="application/json",
                   icon=":material/data_object:", key="dl_json", on_click="ignore")
c2.download_button("Fleet (CSV)", exports.plan_csv(tables.fleet_for_reading(p), "fleet"), file_name=f"{name}-fleet.csv",
                   mime="text/csv", icon=":material/table:", key="dl_csv", on_click="ignore",
                   help="Money to the cent, hours to the hundredth; the zip's tables are unrounded, for other tools.")
c3.download_button("All tables (CSV, zip)", lambda: exports.plan_csv_zip(p, start), file_name=f"{name}-tables.zip",
                   mime="application/zip", icon=":material/folder_zip:", key="dl_zip", on_click="ignore")
c4.download_button("Workbook (XLSX)", lambda: exports.plan_xlsx(p, start), file_name=f"{name}-plan.xlsx",
                   mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                   icon=":material/grid_on:", key="dl_xlsx", on_click="ignore")
c5, c6 = st.columns(2)
c5.download_button("Summary for a planning review (Markdown)", exports.plan_markdown(p, start, state.summary_edits(cur)),
                   file_name=f"{name}-summary.md", mime="text/markdown", icon=":material/article:", key="dl_md",
                   on_click="ignore")
c6.download_button("Cost rows (FinOps FOCUS 1.0, CSV)", lambda: exports.plan_focus(p, start), file_name=f"{name}-focus.csv",
                   mime="text/csv", icon=":material/receipt_long:", key="dl_focus", on_click="ignore",
                   help="One row per offer, kind of charge and month, in the FinOps FOCUS 1.0 columns: "
                        "billed, amortised (effective) and list cost; reservations as purchases plus "
                        "committed usage. `x_PresentValue` sums to the plan total.")
under_way = under_way and p.decisions is None
st.caption(f"Total {p.total:,.0f} {p.currency} over {counted(p.horizon_months, 'month')} ({present_value_basis(p)}). "
           "The JSON holds the whole plan, as the command-line planner writes it; the workbook holds the summary, fleet, "
           "the yearly sheet (what is paid in each plan year, nominal, and its present value), monthly costs, "
           "baselines, break-even, assumptions and the prices used; the cost rows are for FinOps tools (FOCUS 1.0). "
           + decisions_words(p.decisions is not None, under_way))


@st.fragment(run_every=1.0)
def _rerun_when_decisions_are_made(scenario) -> None:
    """Run again every second while what each decision is worth is being made, and the whole page once it is: its
    files then include them, as the caption said they would."""
    if not state.decisions_under_way(scenario):
        st.rerun()


if under_way:
    _rerun_when_decisions_are_made(s)
