"""Plan page: pick or upload a scenario, move the assumptions, see the recommended fleet and its cost."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from fleetplan_dashboard import charts, state, tables
from planner.reports.tables import assumption_line

st.session_state.setdefault("uploads", {})


def _nice(x: float) -> float:
    """The smallest 1-2-5 × 10^k at or above x."""
    if x <= 0:
        return 1.0
    base = 10 ** math.floor(math.log10(x))
    return float(next(m * base for m in (1, 2, 5, 10) if m * base >= x - 1e-12))


def _on_upload() -> None:
    f = st.session_state.get("upload_file")
    if f is None:
        st.session_state.pop("upload_problems", None)
        return
    scenario, problems, text = state.read_upload(f.name, f.getvalue())
    if problems:
        st.session_state["upload_problems"] = (f.name, problems)
        return
    st.session_state.pop("upload_problems", None)
    bid = state.upload_id(f.name, text)
    st.session_state["uploads"][bid] = text
    st.session_state["base"] = bid
    state.clear_edits()


# ---------------------------------------------------------------------------------------------------
# Sidebar: scenario and assumptions

with st.sidebar:
    st.header("Scenario")
    options = [f"file:{n}" for n in state.scenario_files()] + list(st.session_state["uploads"])
    if st.session_state.get("base") not in options:
        st.session_state["base"] = state.default_base_id()
    st.selectbox("Scenario", options, key="base", format_func=state.base_label, on_change=state.clear_edits,
                 help="The files in scenarios/ and the files you uploaded in this session.")
    st.file_uploader(f"Or upload a scenario YAML (at most {state.MAX_UPLOAD_BYTES // 1024} KB)",
                     type=["yaml", "yml"], key="upload_file", on_change=_on_upload, max_upload_size=1,
                     help="Validated like `fleetplan validate`: read with YAML's safe loader, nothing executed.")

cur = state.current()
rejected = st.session_state.get("upload_problems")
if rejected:
    name, problems = rejected
    st.error(f"**{tables.plain(name)}** was not loaded — {len(problems)} problem{'s' if len(problems) != 1 else ''} "
             "(file:line:column: field: message):\n\n" + tables.code_block(problems))
if cur.base is None:
    st.error("This scenario cannot be loaded:\n\n" + tables.code_block(cur.problems))
    st.stop()

base = cur.base
state.ensure_edit_state(base)
k = state.edit_key

with st.sidebar:
    st.header("Assumptions")
    st.button("Reset to the file's values", on_click=state.clear_edits, icon=":material/restart_alt:")
    st.subheader("Demand")
    for w in base.workloads:
        hi = _nice(max(4 * w.gpu_hours_per_month, 100.0))
        st.slider(f"{tables.plain(w.name)}: GPU-hours per month", 0.0, hi, step=_nice(hi / 400), key=k(f"demand:{w.name}"),
                  format="%.0f", help=f"Hours of work per month measured on {w.reference_gpu} (month 1).")
        g = w.growth_per_month * 100
        st.slider(f"{tables.plain(w.name)}: growth, % per month", min(-5.0, math.floor(g)), max(10.0, math.ceil(g)), step=0.5,
                  key=k(f"growth:{w.name}"), format="%.1f%%")
    st.subheader("Horizon and site")
    st.slider("Horizon, months", 1, 120, key=k("horizon_months"))
    st.slider(f"Electricity, {base.currency} per kWh", 0.0, max(1.0, base.onprem.electricity_per_kwh), step=0.01,
              key=k("electricity_per_kwh"), format="%.2f")
    st.slider("PUE (site power ÷ IT power)", 1.0, 3.0, step=0.05, key=k("pue"), format="%.2f")
    st.subheader("Caps")
    st.number_input(f"Capex budget for new hardware, {base.currency} (empty: no cap)", min_value=0.0,
                    step=5000.0, value=None, key=k("capex_budget"), format="%.0f")
    st.number_input("Power cap, kW of installed IT power (empty: no cap)", min_value=0.0, step=0.5, value=None,
                    key=k("power_cap_kw"), format="%.1f")
    st.subheader("Cloud")
    st.multiselect("Allowed providers", state.PROVIDERS, key=k("providers"))
    st.multiselect("Allowed purchase options", state.PURCHASE_OPTIONS, key=k("purchase_options"),
                   format_func=lambda o: o.replace("_", " "))

# ---------------------------------------------------------------------------------------------------
# Main area

cur = state.current()
# The name, description and file name are the scenario author's text: shown as typed (tables.plain).
st.title(f"Plan — {tables.plain(base.name)}")
st.caption(tables.plain(cur.label) + (f" · {tables.plain(base.description)}" if base.description else ""))
if cur.edited is None:
    st.error("These inputs do not make a valid scenario:\n\n" + tables.code_block(cur.problems))
    st.stop()
s = cur.edited
if s != base:
    st.caption(":material/edit: Edited in the dashboard — the Compare page shows what differs from the file; "
               "the Export page downloads the edited scenario.")

outcome = state.plan_for(s)
if outcome.kind == "infeasible":
    # the explanation names workloads: verbatim in a code block, never read as Markdown
    st.error("**No fleet meets this scenario.**\n\n" + tables.code_block([outcome.message]), icon=":material/block:")
    st.stop()
if outcome.kind != "ok":
    st.error("**The plan could not be made.**\n\n" + tables.code_block([outcome.message]))
    st.stop()
p = outcome.plan
cc = p.currency

level, text = tables.price_banner(p.prices, stale_after_days=state.STALE_AFTER_DAYS)
(st.warning if level == "warning" else st.info)(text, icon=":material/sell:")
if p.warnings:
    # the warnings name cards and workloads from the scenario: verbatim in a code block, never Markdown
    with st.expander(f"{len(p.warnings)} warning{'s' if len(p.warnings) != 1 else ''}: what this plan rests on "
                     "that needs a look (unpriced cards, missing purchase options, old or undated prices, "
                     "estimated speeds)", icon=":material/warning:"):
        st.code("\n".join(p.warnings), language=None, wrap_lines=True)


def money(x: float) -> str:
    return f"{x:,.0f} {cc}"


# Totals and savings
cols = st.columns(4)
cols[0].metric(f"Total cost, {p.horizon_months} months", money(p.total), border=True,
               help="Present value of every cost over the horizon, residual value of owned cards credited.")
for col, (key, label) in zip(cols[1:], (("all_cloud", "All cloud"), ("all_onprem", "All on-prem"),
                                         ("best_single", "Best single type"))):
    row = tables.baseline_row(p, key)
    if row is None:
        col.metric(label, "—", border=True)
    elif row["status"] == "infeasible" or not (row["total"] == row["total"]):
        col.metric(label, "infeasible", border=True, help=tables.plain(row["note"]) if row.get("note") else None)
    else:
        saving = row["savings"]
        delta = (f"saves {money(saving)} ({row['savings_pct']:.0f}%)" if saving >= 0
                 else f"-{money(-saving)}: cheaper, ignoring the capex budget and mix caps")
        name = row["label"].capitalize() if key == "best_single" and row["label"] else label
        col.metric(name, money(row["total"]), delta, border=True,
                   help=("The best single capacity type: the " if key == "best_single" else "The ")
                + "same scenario solved with this kind of capacity only (the capex budget and mix caps "
                  "dropped, the power cap kept); the delta is what the recommended plan saves against it.")

# The fleet
st.subheader("Recommended fleet")
cols = st.columns(4)
for col, card in zip(cols, tables.fleet_cards(p)):
    col.metric(card.label, card.value, border=True)
    col.caption(tables.plain(card.detail))
st.dataframe(
    tables.fleet_table(p), hide_index=True, width="stretch", key="fleet_table",
    column_config={
        "action": st.column_config.TextColumn("action"),
        "units": st.column_config.NumberColumn("units", format="%g"),
        "existing_units": st.column_config.NumberColumn("already owned", format="%g"),
        "new_units": st.column_config.NumberColumn("new", format="%g"),
        "instance_hours": st.column_config.NumberColumn("hours used", format="%,.0f"),
        "cost": st.column_config.NumberColumn(f"cost, {cc} (PV)", format="%,.0f"),
    })

st.caption(tables.plain(assumption_line(p)) + " (scenario `onprem.purchase_every_months`, `onprem.resale`, "
           "`onprem.sell_owned`, `onprem.switch_off_owned`).")

# Purchases over time
if len(p.installed):
    st.subheader("Purchases over time")
    st.plotly_chart(charts.installed_chart(p.installed, p.schedule, p.horizon_months), key="installed_chart")
    left, right = st.columns([3, 2])
    left.dataframe(p.schedule, hide_index=True, width="stretch", key="schedule_table", column_config={
        "units": st.column_config.NumberColumn("units", format="%g"),
        "amount": st.column_config.NumberColumn(f"amount, {cc} (nominal)", format="%,.0f")})
    if len(p.owned):
        right.dataframe(p.owned, hide_index=True, width="stretch", key="owned_table")
        right.caption("What happens to the cards already owned, and what that saves against keeping them running.")

# Charts
cum = tables.cumulative(p, {k2: p.baseline_plans.get(k2) for k2 in ("all_cloud", "all_onprem")})
be = tables.break_even_month(cum, "all_cloud")
if be is None:
    be_text = "The recommended plan never stays below all-cloud" if "all_cloud" in cum else "No all-cloud plan"
else:
    be_text = ("Break-even against all cloud: from month "
               f"{be}" if be <= p.horizon_months else "Break-even against all cloud: only with the residual value")
st.plotly_chart(charts.cumulative_chart(cum, cc, be, p.horizon_months), key="cumulative_chart")
st.caption(be_text + " (the first month from which the recommended plan's cumulative cost stays below "
           "all-cloud's). The end point adds the residual value of owned cards and payments after the horizon.")

left, right = st.columns(2)
with left:
    st.plotly_chart(charts.monthly_chart(p.monthly, cc, p.horizon_months), key="monthly_chart")
with right:
    if len(p.utilisation):
        st.plotly_chart(charts.utilisation_chart(p.utilisation, s.onprem.availability), key="utilisation_chart")
    else:
        st.info("The recommended fleet owns no cards.")

# Break-even utilisation per card
st.subheader("Break-even utilisation per card")
st.caption("The share of hours a card must work for owning it to cost no more than renting the same work "
           "from the cheapest compatible cloud offer (undiscounted). Compare with its utilisation in this plan.")
be_table = p.break_even.copy()
used = dict(zip(p.utilisation["card"], p.utilisation["utilisation"])) if len(p.utilisation) else {}
be_table.insert(be_table.columns.get_loc("break_even_utilisation") + 1, "utilisation_in_plan",
                be_table["card"].map(used))
be_table[["break_even_utilisation", "utilisation_in_plan"]] *= 100
be_table = be_table[["card", "workload", "break_even_utilisation", "utilisation_in_plan", "cloud_offer",
                     "cloud_cost_per_reference_hour", "card_fixed_cost_per_month", "note"]]
st.dataframe(be_table, hide_index=True, width="stretch", key="break_even_table", column_config={
    "cloud_cost_per_reference_hour": st.column_config.NumberColumn(f"cloud {cc} per reference-GPU-h", format="%.3f"),
    "card_fixed_cost_per_month": st.column_config.NumberColumn(f"card fixed {cc}/month", format="%,.0f"),
    "break_even_utilisation": st.column_config.NumberColumn("break-even utilisation", format="%.0f%%"),
    "utilisation_in_plan": st.column_config.NumberColumn("utilisation in plan", format="%.0f%%"),
})

with st.expander("Cost by category, baselines and solver"):
    c1, c2 = st.columns(2)
    costs = pd.concat([p.costs, pd.DataFrame([{"category": "total", "cost": p.total}])], ignore_index=True)
    c1.dataframe(costs, hide_index=True, key="costs_table",
                 column_config={"cost": st.column_config.NumberColumn(f"cost, {cc} (PV)", format="%,.2f")})
    c2.dataframe(p.baselines, hide_index=True, key="baselines_table", column_config={
        "total": st.column_config.NumberColumn(format="%,.0f"), "savings": st.column_config.NumberColumn(format="%,.0f"),
        "savings_pct": st.column_config.NumberColumn("savings %", format="%.1f")})
    sv = p.solver
    st.caption(f"Solver {sv.get('name')} · {sv.get('status')} · gap {sv.get('gap')} · {sv.get('variables')} variables, "
               f"{sv.get('constraints')} constraints · {sv.get('seconds')} s (plan and baselines: "
               f"{sum((sv.get('timings_seconds') or {}).values()):.2f} s)")
    if len(p.exclusions):
        st.caption("Offers left out, and why")
        st.dataframe(p.exclusions, hide_index=True, key="exclusions_table")
