"""Plan page: pick or upload a scenario, move the assumptions, see the recommended fleet and its cost.

Drawn in the order a user reads it and the engine answers: the recommended plan (no baselines; usually
planned ahead) and its total first; then, after a pause in which the browser paints that total, the
plans of the values the sliders will probably take next are started in the background
(`state.plan_ahead`) and the baselines in a worker process, while the fleet, the tables and the charts
are drawn; the baselines fill their cards, the cumulative chart and the break-even caption when they
arrive, and the warnings are drawn again with any on estimated speeds only the baselines' totals rest on.
A slider change stops this run at its next element or pause, so a new value never waits for the old one's
charts or baselines. Once all that is drawn, what each decision is worth (some thirty
re-solves: seconds) is started in a worker at the lowest priority (`state.decisions_future`): at once on
the session's first plan, otherwise when no new run has come for two seconds (a user stepping a slider is
not slowed by it); a placeholder stands next to the total and in its section until a later run, started
when they are made, draws the close-call badge and the tables, and the baselines' cards and table again
with the notes the cap costs tell (which limit makes a baseline cheaper than the plan). The URL carries the scenario file and the
edits (`state.share_params`): a link reopens the same plan.
"""

from __future__ import annotations

import contextlib
import functools
import math
import time

import pandas as pd
import streamlit as st

from fleetplan_dashboard import charts, links, state, tables, trace
from fleetplan_dashboard.layout import wide as _wide
from planner.catalog.gpus import board_gpus
from planner.engine.baselines import CHEAPER_BY_CAPS, round_off
from planner.errors import PlannerError
from planner.reports.tables import (
    assumption_line,
    baselines_grouped,
    binds_words,
    break_even_shown_as,
    gap_text,
    grouping_line,
    present_money,
    present_value_basis,
    site_cost_note,
    written_prices,
)
from planner.reports.yearly import yearly_note, yearly_view
from planner.scenario.loading import plausibility_warnings
from planner.text import counted

st.session_state.setdefault("uploads", {})

# The tables' columns fit a laptop's page (1366 px, the sidebar open: 904 px, 870 inside an expander, in
# Chromium), the columns they leave out in the table's own column menu (its eye icon); a phone (390 px) shows their
# first columns, the name and the money, and under each table wider than its screen (`_wide`) a line saying the rest
# is a swipe away: a phone shows no scroll bar.
# Where the inputs are, for a message asking to change one: on a phone the sidebar is hidden behind a button (it
# closes again once a page is picked in it: layout.close_sidebar_on_pick).
SIDEBAR = "the sidebar (on a phone: the » button at the top left)"
INPUTS_WHERE = (f"The inputs this page can change are in {SIDEBAR}: *Demand*, *Horizon and site*, *Caps* (capex "
                "budget, power cap) and *On-prem cards* (the cards the plan may buy, a quote for each, the allowed "
                "providers and purchase options), with *Reset to the file's values*; the other fields are the scenario "
                "file's.")

# Metric values and deltas wrap instead of being cut ("11,370,975 …") and take a size that fits four
# cards across at 1400 px; so do the verbatim lines in a message box (why no fleet meets the scenario, an upload's
# problems), which a phone cut at its edge.
st.html("""<style>
[data-testid="stMetricValue"] { font-size: 1.55rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] *, [data-testid="stMetricDelta"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
[data-testid="stAlert"] [data-testid="stMarkdownPre"] pre, [data-testid="stAlert"] [data-testid="stMarkdownPre"] code {
  white-space: pre-wrap !important; overflow-wrap: anywhere; }
</style>""")


def _on_upload() -> None:
    """An upload read: made the scenario, or its problems shown in the main area in place of any before; the
    uploader emptied either way (`_uploader_types`). The problems stay until the user acts on something else
    (state.forget_rejected: another scenario opened, an edit made or reset)."""
    f = st.session_state.get("upload_file")
    if f is None:
        state.forget_rejected()
        return
    st.session_state["uploads_read"] = st.session_state.get("uploads_read", 0) + 1
    scenario, problems, text = state.read_upload(f.name, f.getvalue())
    if problems:
        st.session_state[state.REJECTED_UPLOAD] = (f.name, problems)
        return
    bid = state.upload_id(f.name, text)
    state.keep_upload(st.session_state["uploads"], bid, text)
    state.open_instead(bid)   # the edits of the scenario left noted, as a pick notes them


def _uploader_types() -> list | None:
    """The uploader's `type`: any file (the name is checked by state.read_upload, so a notes.txt is answered in the
    main area, not refused in the browser), as None and [] in turn after each upload read. Streamlit empties an
    uploader whose `type` changes (its element id holds it) and keeps its key, "upload_file": its list held each
    file uploaded, the rejected ones among them."""
    return None if st.session_state.get("uploads_read", 0) % 2 == 0 else []


def _pause(seconds: float) -> None:
    """Sleep, letting Streamlit stop this run for a new widget value meanwhile: reading the session state
    is a point where it may, without a message to the browser (as each element written would be)."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, 0.005))
        _ = state.SCENARIO_KEY in st.session_state


links.open_shared_link()

# ---------------------------------------------------------------------------------------------------
# Sidebar: scenario and assumptions

with st.sidebar:
    st.header("Scenario")
    options = state.base_options()
    if state.base_id() not in options:
        st.session_state[state.SCENARIO_KEY] = state.default_base_id()
    state.show_base_in_picker()
    st.selectbox("Scenario", options, key=state.BASE_WIDGET, format_func=state.base_label, on_change=state.pick_base,
                 help=f"The files in scenarios/ and the last {state.MAX_UPLOADS} files you uploaded in this session.")
    # max_upload_size: the widget's own limit, in whole MB, as the label and state.read_upload say it
    st.file_uploader(f"Or upload a scenario YAML (at most {state.upload_limit_text()} and "
                     f"{state.MAX_UPLOAD_WORKLOADS} workloads)",
                     type=_uploader_types(), key="upload_file", on_change=_on_upload,
                     max_upload_size=round(state.MAX_UPLOAD_BYTES / 1e6),
                     help="A .yaml or .yml file, validated like `fleetplan validate`: read with YAML's safe loader, "
                          "nothing executed.")
    # A larger file is refused in the browser by the widget, which tells the app nothing (Streamlit 1.67: no new value,
    # no run, no on_change): the page cannot take back what it says of the file read before, so this says why.
    st.caption(f"A file over {state.upload_limit_text()} is refused by this box before the dashboard sees it: the box "
               "says so under the file's name, and the page stays as it was.")

cur = state.current()
rejected = st.session_state.get(state.REJECTED_UPLOAD)
if rejected:
    name, problems = rejected
    # "the last file read": a file the upload box refused since (over the size limit) never reached this page
    # the box shows a refused file under its own name with its error, beside this message: which file is which is said
    not_this_one = (f"A file the upload box marks with an error (over {state.upload_limit_text()}) was not read: this "
                    "message is not about it.")
    if state.placed(name, problems):
        st.error(f"The last file read, **{tables.plain(name)}**, was not loaded — {counted(len(problems), 'problem')} "
                 "(file:line:column: field: message):\n\n" + tables.message_block(problems)
                 + f"\n\nFix these lines in **{tables.plain(name)}** and upload it again, or pick another scenario. "
                 + not_this_one)
    else:   # the file as a whole (an image, a workbook, another kind of file, too large): it has no lines to fix
        st.error(f"The last file read, **{tables.plain(name)}**, was not loaded:\n\n" + tables.message_block(problems)
                 + f"\n\nA scenario is a YAML text file, named .yaml or .yml, of at most {state.upload_limit_text()}: "
                 "upload one, or pick another scenario. " + not_this_one)
dropped = state.dropped_edits()
if dropped:
    # each scenario opens with its file's values: the edits of the one left are said, with the way back to them
    left_id, _, count = dropped
    left = tables.plain(state.base_label(left_id))
    st.info(f"Your {counted(count, 'edit')} of **{left}** {'was' if count == 1 else 'were'} dropped when "
            f"**{tables.plain(cur.label)}** was opened: a scenario opens with its file's values.",
            icon=":material/undo:")
    st.button(f"Back to {tables.label_text(state.base_label(left_id))} with its {counted(count, 'edit')}",
              on_click=state.back_to_dropped, icon=":material/undo:", key="back_to_dropped")
if links.link_problems():
    st.warning(f"{links.IGNORED}\n\n" + tables.message_block(links.link_problems()))
if cur.base is None:
    st.error("This scenario cannot be loaded:\n\n" + tables.message_block(cur.problems)
             + f"\n\nPick another scenario, or upload one, in {SIDEBAR}.")
    st.stop()

base = cur.base
state.show_edits_in_widgets(base)
k = state.edit_key
specs = {spec.name: spec for spec in state.slider_specs(base)}


def _number_format(step: float) -> str:
    """A printf format showing the digits a slider of this step needs."""
    return f"%.{max(0, -math.floor(math.log10(step) + 1e-9))}f"


def _demand_help(w) -> str:
    """What a workload's demand slider holds, in the unit of its demand field (month 1, before growth)."""
    ref = tables.plain(w.reference_gpu)
    return {"gpu_hours_per_month": f"Hours of work per month measured on {ref} (month 1).",
            "requests_per_second": "Requests per second, the weekly mean in month 1 (each GPU's requests/s are in the "
                                   "workload's throughput table).",
            "reference_gpus": f"{ref} GPUs busy on average in month 1 (GPU-hours per month ÷ 730)."}[w.demand_field]


def _slider(name: str, label: str | tables.WidgetLabel, fmt: str | None = None, help: str | None = None) -> None:
    """The slider of edit `name`. A label naming a workload (tables.widget_label) is drawn above the slider as text,
    with the help, where Markdown would act on the name, the slider's own label collapsed: its accessible name."""
    spec = specs[name]
    named = label if isinstance(label, tables.WidgetLabel) else tables.WidgetLabel(label, None)
    with st.container(gap="xxsmall") if named.shown else contextlib.nullcontext():
        if named.shown:
            st.markdown(named.shown, help=help)
            help = None
        shown = {"key": k(name), "help": help, "label_visibility": named.visibility, "on_change": state.keep_edit,
                 "args": (name,)}
        if name == "horizon_months":
            st.slider(named.label, int(spec.low), int(spec.high), step=int(spec.step), **shown)
        else:
            st.slider(named.label, spec.low, spec.high, step=spec.step, format=fmt, **shown)


NO_SOURCED_PRICE = "no sourced price: give a quote"
# The decisions table's note column: what the expander (870 px) leaves its other columns, each as wide as its header
DECISION_NOTE_PX = 154


def _price_box(card: str, currency: str, catalog: tuple[float, str, str] | None) -> None:
    """The box of a quote for `card`, in `currency`: empty, the catalog's price (its figure the box's placeholder, its
    date in the help: the sidebar's box shows some 20 characters), or, where the catalog has none, a label saying
    NO_SOURCED_PRICE (the plan then does not buy the card)."""
    board = board_gpus(card)
    # a card sold only as whole boards is priced per GPU: a board's price typed there read as one GPU's (an audit)
    per = "per card" if board <= 1 else f"per GPU (sold as {board}-GPU boards)"
    if catalog is None:
        label, empty, said = f"{card}, {NO_SOURCED_PRICE}, {currency} {per}", "none: not bought", NO_SOURCED_PRICE
    else:
        price, cat_currency, as_of = catalog
        # the catalog's figure in the box's currency, converted as the plan converts it (scenario.fx): "catalog 2,500
        # CNY" in a box of USD read as a figure to type in USD (an audit); its own currency stays in the help
        from_rate, to_rate = base.fx_rate(cat_currency), base.fx_rate(currency)
        shown = (price * from_rate / to_rate, currency) if cat_currency != currency and from_rate and to_rate else None
        label = f"{card}: your quote, {currency} {per}"
        empty = f"catalog {shown[0]:,.0f} {shown[1]}" if shown else f"catalog {price:,.0f} {cat_currency}"
        said = (f"the catalog's price, {price:,.0f} {cat_currency}" + (f" as of {as_of}" if as_of else " (undated)")
                + (f"; {shown[0]:,.0f} {shown[1]} at the scenario's fx rate" if shown else ""))
    # No min_value: the browser would keep a negative figure in the box under its own range error and send nothing, the
    # plan made with the price before (an audit); sent, it is refused in the page's words under the box and in the main
    # area, and not planned with (state.refused_quote), as the scenario loader refuses a negative price in a file.
    quote = st.number_input(label, step=100.0, value=None, key=k(state.PRICE_PREFIX + card), format="%.2f",
                            placeholder=empty, on_change=state.keep_edit, args=(state.PRICE_PREFIX + card,),
                            help=f"Empty: {said}. A quote replaces the card's price, not its host share.")
    refused = state.refused_quote(base, card, quote)
    if refused:
        st.error(tables.message_block([refused]), icon=":material/error:")


with st.sidebar:
    st.header("Assumptions")
    st.button("Reset to the file's values", on_click=state.clear_edits, icon=":material/restart_alt:")
    st.subheader("Demand")
    for w in base.workloads:
        _slider(f"demand:{w.name}", tables.widget_label(w.name, f": {state.DEMAND_UNITS[w.demand_field]}"),
                _number_format(specs[f"demand:{w.name}"].step), _demand_help(w))
        _slider(f"growth:{w.name}", tables.widget_label(w.name, ": growth, % per month"), "%.1f%%")
    st.subheader("Horizon and site")
    _slider("horizon_months", "Horizon, months")
    _slider("electricity_per_kwh", f"Electricity, {base.currency} per kWh", "%.2f")
    _slider("pue", "PUE (site power ÷ IT power)", "%.2f")
    st.subheader("Caps")
    # No min_value, as for the quotes: a negative cap is sent and refused in the page's words (state.refused_cap)
    budget = st.number_input(f"Capex budget for new hardware, {base.currency} as paid (empty: no cap)",
                             step=5000.0, value=None, key=k("capex_budget"), format="%.0f", on_change=state.keep_edit,
                             args=("capex_budget",),
                             help="Caps the sum of the purchase schedule's buys over the horizon: capex as paid, nominal "
                                  "(not discounted).")
    if refused := state.refused_cap(base, "capex_budget", budget):
        st.error(tables.message_block([refused]), icon=":material/error:")
    power = st.number_input("Power cap, kW of installed IT power (empty: no cap)", step=0.5, value=None,
                            key=k("power_cap_kw"), format="%.1f", on_change=state.keep_edit, args=("power_cap_kw",))
    if refused := state.refused_cap(base, "power_cap_kw", power):
        st.error(tables.message_block([refused]), icon=":material/error:")
    st.subheader("On-prem cards")
    # The cards the plan may buy (onprem.cards) and a quote per card (onprem.card_overrides.CARD.price): a card the
    # catalog has no sourced price for says so in the picker and in its box; an empty box is the catalog's price.
    st.multiselect("Cards the plan may buy", state.card_choices(base), key=k("cards"), on_change=state.keep_edit,
                   # the picker's chip shows some 20 characters: "(no sourced pri…)" was cut; its box says it whole
                   args=("cards",), format_func=lambda c: c if state.catalog_price(c) else f"{c} (no price)",
                   help="Catalog cards (onprem_cards.csv). Cards you own or quoted as custom cards in the file are "
                        "planned as the file says.")
    for card in state.current_values(base)["cards"]:
        catalog = state.catalog_price(card)
        _price_box(card, state.price_currency(base, card), catalog)
    st.multiselect("Allowed providers", state.PROVIDERS, key=k("providers"), on_change=state.keep_edit,
                   args=("providers",))
    st.multiselect("Allowed purchase options", state.PURCHASE_OPTIONS, key=k("purchase_options"),
                   format_func=lambda o: o.replace("_", " "), on_change=state.keep_edit, args=("purchase_options",))

# ---------------------------------------------------------------------------------------------------
# Main area

values = state.current_values(base)
cur = state.current()
# The URL says which file and which edits: copying it shares this plan (an upload cannot be shared so). Written
# where the browser's differs, and where the last written does: that one may not have reached the browser (a run
# cut short by the next edit), or reach it after this run's request left with an older one.
shared = state.share_params(cur.base_id, base, values)
if shared != st.query_params.to_dict() or shared != st.session_state.get("url_written"):
    st.query_params.from_dict(shared)
st.session_state["url_written"] = shared
state.know_link(shared)

# The name, description and file name are the scenario author's text: shown as typed (tables.plain).
st.title(f"Plan — {tables.plain(base.name)}")
# edited, the description is marked as the file's: it may state what the edits changed ("3-year view", 48 months)
described = "the file's description: " if state.edits_count(base, values) else ""
st.caption(tables.plain(cur.label) + (f" · {described}{tables.plain(base.description)}" if base.description else ""))
if cur.edited is None:
    st.error("These inputs do not make a valid scenario:\n\n" + tables.message_block(cur.problems) + "\n\n" + INPUTS_WHERE)
    st.stop()
s = cur.edited
if s != base:
    st.caption(f":material/edit: {state.edited_words()} — the Compare page shows what differs from the file; "
               + ("this page's link carries the edits; " if shared else "")
               + f"the download button in {SIDEBAR} writes them into the scenario file, comments kept.")

# The scenario text with the edits written in: drawn after the total (the text is loaded back to check it)
download_slot = st.sidebar.empty()


def _download_edited() -> None:
    download = state.scenario_download(cur.base_id, base, values)
    if download is None:
        return
    download_slot.download_button(
        "Download this scenario with the edits (YAML)", download.text, file_name=download.file_name,
        mime="application/x-yaml", icon=":material/download:", key="dl_scenario_text", on_click="ignore",
        help=f"{state.DOWNLOAD_HELP}; its comments kept, an edited value's saying so"
        + ("." if download.kept else " (not this time: the file's layout needs a full rewrite)."))


# Values that look mistaken (cents for dollars, watts for kilowatts), shown before the plan is made and placed in the
# file as `fleetplan validate` places them: an upload shows them at once, not as a line among the plan's warnings in
# a closed box (which leaves them out: implausible_texts).
implausible_texts = {message for _, message in plausibility_warnings(s)}
if implausible_texts:
    implausible = state.implausible_values(s, base, state.scenario_text(cur.base_id),
                                           state.origin_name(cur.base_id))
    one = len(implausible) == 1
    st.warning(f"**{counted(len(implausible), 'value')} of this scenario {'looks' if one else 'look'} mistaken** — "
               f"the plan below takes {'it' if one else 'them'} as written (file:line:column: field: message):\n\n"
               + tables.message_block(implausible), icon=":material/warning:")

if cur.base_id.startswith("upload:"):
    st.sidebar.caption("An uploaded scenario lives in this session only: its link cannot carry it. Download it "
                       "with the edits above to keep or share it.")

trace.mark("p:page")
outcome = state.recommended(s)
trace.mark("p:plan")
if outcome.kind == "infeasible":
    # the explanation names workloads: as typed (tables.message_block), never read as Markdown
    st.error("**No fleet meets this scenario.**\n\n" + tables.message_block([tables.infeasible_words(outcome.message, s)])
             + "\n\n" + INPUTS_WHERE,
             icon=":material/block:")
    _download_edited()
    st.stop()
if outcome.kind != "ok":
    st.error("**The plan could not be made.**\n\n" + tables.message_block([outcome.message]))
    _download_edited()
    st.stop()
p = outcome.plan
cc = p.currency
# what the plan's totals are: "USD, present value at 8%/year" (the purchase schedule and monthly chart are nominal)
pv_money = present_money(p)


def money(x: float) -> str:
    return f"{x:,.0f} {cc}"


# Totals first (what the user waits for), the baselines' cards filled when they arrive
cols = st.columns(4)
cols[0].metric(f"Total cost, {counted(p.horizon_months, 'month')}", money(p.total), border=True,
               help=f"Every cost over the horizon, {present_value_basis(p)}, residual value of owned cards credited.")
st.caption(f"Totals and savings: {pv_money}.")
grouped = grouping_line(p)   # a grouped profile's bound on the cost error, under the total as the CLI prints it
if grouped:
    st.caption(tables.plain(grouped[:1].upper() + grouped[1:] + "."))
trace.mark("total")
# The browser paints the total while this process waits, rather than while it builds the charts below and
# starts the worker processes: on two cores that work would delay the paint. The first draw of a session
# gets longer (the browser lays out the whole app, and the workers start); a new slider value cuts it short.
first_run = "values_before" not in st.session_state     # the session's first plan
_pause(0.3 if first_run else 0.1)
BASELINE_CARDS = (("all_cloud", "All cloud"), ("all_onprem", "All on-prem"), ("best_single", "Best single type"))
baseline_slots = [col.empty() for col in cols[1:]]
for slot, (_, label) in zip(baseline_slots, BASELINE_CARDS):
    slot.metric(label, "…", border=True, help="Being solved: the same scenario with this kind of capacity only.")
# Next to the total: close call or firm, once what each decision is worth is made (after this page is drawn)
decisions_made = state.decisions_of(s)
verdict_slot = st.empty()
DECISIONS_PENDING = ":material/hourglass_top: Computing what each decision is worth…"
if decisions_made is None:
    verdict_slot.caption(DECISIONS_PENDING)
# What the user will probably ask next: the slider just moved one and two steps further (at normal
# priority), a third step, the sliders a step either way (`state.MAX_AHEAD` values in all), the other
# scenario files (in the background at a low priority). Each scenario is made when its turn comes, in a
# background thread.
last = state.moved(st.session_state.get("values_before"), values)
st.session_state["values_before"] = values
ahead = [functools.partial(state.apply_edits, base, v) for v in state.next_values(base, values, last)]
ahead += [state.load_file(name)[0] for name in state.scenario_files() if f"file:{name}" != cur.base_id]
soon = ahead[:2] if last is not None else []    # two steps further: one new plan per step keeps them made
state.plan_ahead(ahead[len(soon):], soon=soon)
baselines_future = state.baselines_future(s, outcome)

_download_edited()

level, text = tables.price_banner(written_prices(p), scenario=p.scenario, offers=p.offers)
(st.warning if level == "warning" else st.info)(text, icon=":material/sell:")
warnings_slot = st.empty()


def _draw_warnings(plan) -> None:
    """The plan's warnings; drawn again once the baselines are solved, with those on estimated speeds only the
    baselines' totals rest on (engine.run.baseline_speeds), as plan() gives them; not the values that look
    mistaken, shown above the total, nor where the prices came from when not as asked, said in the price banner;
    those a time limit cut short told how to give them more time, and where a card's price goes, in the page's words
    (tables.in_page_words)."""
    # The price source's warning (no price store, so the packaged snapshot) is said once, in the banner: always open,
    # yellow for it, right above this box, and where a budget holder reads about the prices; this box is closed.
    said = implausible_texts | tables.said_in_banner(plan.prices)
    boxed = [tables.in_page_words(w) for w in plan.warnings if w not in said]
    if not boxed:
        return
    # the warnings name cards and workloads from the scenario: verbatim in a code block, never Markdown
    with warnings_slot.container(), st.expander(
            f"{counted(len(boxed), 'warning')}: what this plan rests on that needs a look", icon=":material/warning:"):
        st.code("\n".join(boxed), language=None, wrap_lines=True)


_draw_warnings(p)

# The fleet
st.subheader("Recommended fleet")
cols = st.columns(4)
for col, card in zip(cols, tables.fleet_cards(p)):
    col.metric(card.label, card.value, border=True)
    col.caption(tables.plain(card.detail))
# The name and the cost first (all a phone shows without a swipe), the name pinned; the columns fit 1366 px.
_wide("fleet_table").dataframe(
    tables.fleet_table(p), hide_index=True, width="stretch", key="fleet_table", placeholder="",
    column_order=["sku", "cost", "action", "units", "instance_hours", "existing_units", "new_units", "provider",
                  "region", "purchase_option"],
    column_config={
        "sku": st.column_config.TextColumn("card or instance", width=175, pinned=True),
        "cost": st.column_config.NumberColumn(f"cost, {cc} (PV)", format="%,.0f", width=110, help=pv_money),
        "action": st.column_config.TextColumn("action", width=110),
        "units": st.column_config.NumberColumn("units", format="%g", width=55),
        "instance_hours": st.column_config.NumberColumn("hours used", format="%,.0f", width=85),
        "existing_units": st.column_config.NumberColumn("owned", format="%g", help="units already owned", width=55),
        "new_units": st.column_config.NumberColumn("new", format="%g", help="units bought", width=50),
        "provider": st.column_config.TextColumn("provider", width=65),
        "region": st.column_config.TextColumn("region", width=90),
        "purchase_option": st.column_config.TextColumn("option", width=105),
    })
# the site's fixed cost belongs to no row: where there is one, the rows fall short of the total by it
st.caption(" ".join(filter(None, [f"Cost in {pv_money}.", site_cost_note(p, field=tables.SITE_COST_FIELD)])))
# the assumptions line holds numbers and the engine's words, no scenario text: not escaped, so no backslash shows;
# the fields that set them in the page's words (tables.FIELD_WORDS), as Compare names them
assumptions = assumption_line(p)
ASSUMED_BY = tables.scenario_fields("onprem.purchase_every_months", "onprem.resale", "onprem.sell_owned",
                                    "onprem.switch_off_owned")
st.caption("Units apply to cards and reservations; rented capacity is counted in hours used. "
           + assumptions[:1].upper() + assumptions[1:] + f" ({ASSUMED_BY}).")

# Serving workloads: whole instances (or cards) in every hour-of-week slot
if len(p.serving):
    st.subheader("Serving: whole instances per slot")
    # the slot's hours of the week in words beside its instances; the slot's number, hours per week, busy units, kind
    # and GPU hidden to fit 1366 px: the table's column menu (its eye icon) shows them
    _wide("serving_table").dataframe(
        p.serving.drop(columns=["unit_id"]), hide_index=True, width="stretch", key="serving_table", placeholder="",
        column_order=["workload", "sku", "instances", "hours_of_week", "demand", "capacity", "served", "demand_unit",
                      "months"],
        column_config={
            "workload": st.column_config.TextColumn(width=125, pinned=True),
            "sku": st.column_config.TextColumn("card or instance", width=150),
            "instances": st.column_config.NumberColumn(format="%g", width=70),
            "hours_of_week": st.column_config.TextColumn("hours of the week", width=150),
            "demand": st.column_config.NumberColumn(format="%.4g", width=70),
            "capacity": st.column_config.NumberColumn(format="%.4g", width=70),
            "served": st.column_config.NumberColumn(format="%.4g", width=65),
            "demand_unit": st.column_config.TextColumn("unit", width=140),
            "slot": st.column_config.NumberColumn(width=45),
            "months": st.column_config.Column(width=60),
            "hours_per_week": st.column_config.NumberColumn("hours/week", format="%g", width=80),
            "busy_units": st.column_config.NumberColumn("busy units", format="%.3g")})
    st.caption("Per serving workload and hour-of-week slot: the whole instances or cards held, the capacity they give "
               "and the demand served (demand, capacity and served in the workload's unit: requests per second or "
               "reference GPUs) in the slot's hours of the week; `months` are the months the slot's row stands for. "
               "The slot's number and hours per week, the busy units, kind and GPU: the table's eye icon.")

# A fixed key: without it an edit that changed the layout above made the browser see a new expander and close it
# after every edit (an audit). The key alone keeps it open in the browser (tests/app/test_browser_decisions_expander.py);
# no on_change="rerun": opening it would run the whole page again.
decisions_box = st.expander("What each decision is worth: decision values, the runner-up fleet, flip points, cap costs",
                            icon=":material/balance:", key="decisions_box")
decisions_body = decisions_box.empty()
if decisions_made is None:
    decisions_body.caption(DECISIONS_PENDING + " (re-solves of this scenario: each purchase, reservation and sale "
                           "forbidden in turn, the best other fleet, the demand at which each purchase flips).")

def _held(installed: pd.DataFrame) -> pd.DataFrame:
    """`installed` (Plan.installed: cards in service per month, every card of the site) without the cards never in
    service: the chart's legend named cards the plan never holds (startup-hybrid.yaml's rtx-a5000)."""
    held = installed.groupby("card")["units"].max()
    return installed[installed["card"].isin(held.index[held > 0])]


# Purchases over time
if len(p.installed):
    st.subheader("Purchases over time")
    in_service = _held(p.installed)
    if len(in_service):
        st.plotly_chart(charts.installed_chart(in_service, p.schedule, p.horizon_months), key="installed_chart")
    else:
        st.caption("No card is in service in any month of this plan.")
    # month, card and amount first: what a phone shows; the GPU hidden (the card names it; the eye icon shows it) for
    # the note to fit 1366 px, and a note longer than its column shows said in full under the table
    schedule_note_px = 429
    _wide("schedule_table").dataframe(
        p.schedule, hide_index=True, width="stretch", key="schedule_table", placeholder="",
        column_order=["month", "card", "amount", "action", "units", "note"], column_config={
            "month": st.column_config.NumberColumn(width=60), "card": st.column_config.TextColumn(width=130),
            "amount": st.column_config.NumberColumn(f"amount, {cc} (as paid)", format="%,.0f", width=160),
            "action": st.column_config.TextColumn(width=70),
            "units": st.column_config.NumberColumn("units", format="%g", width=55),
            "gpu": st.column_config.TextColumn("GPU"), "note": st.column_config.TextColumn(width=schedule_note_px)})
    st.caption(f"Amounts in {cc}, nominal: as paid in that month (credits negative), where the fleet's costs are "
               "present values.")
    in_full = tables.notes_in_full([f"month {m}, {c}" for m, c in zip(p.schedule["month"], p.schedule["card"])],
                                   p.schedule["note"], schedule_note_px)
    if in_full:
        st.caption(in_full)
    if len(p.owned):
        # the GPU hidden (the card names it; the eye icon shows it) for the note to fit 1366 px; each header within its
        # column (tables.CHARS_PER_PX), what it stands for in its help, and a note longer than its column in full below
        owned_note_px = 199
        _wide("owned_table").dataframe(
            p.owned, hide_index=True, width="stretch", key="owned_table", placeholder="",
            column_order=["card", "fixed_costs_avoided", "end_value", "owned_units", "kept", "switched_off", "sold",
                          "age_months", "note"],
            column_config={
                "card": st.column_config.TextColumn(width=130, pinned=True),
                "fixed_costs_avoided": st.column_config.NumberColumn(
                    f"avoided, {cc} (PV)", format="%,.0f", width=130,
                    help=f"{pv_money}: fixed costs that switching off or selling avoids, plus a sale's credit over the "
                         "value kept cards would have at the end; the site's fixed monthly cost left out (it ends only "
                         "when no on-prem unit is left); not net of the work bought instead"),
                "end_value": st.column_config.NumberColumn(
                    f"end value, {cc} (PV)", format="%,.0f", width=145,
                    help=f"{pv_money}: what the batch's cards held to the end (kept or switched off) are worth then, "
                         "credited in the total; 0 where they are sold or retired before the end"),
                "owned_units": st.column_config.NumberColumn("owned", width=55, help="cards of this batch owned"),
                "kept": st.column_config.NumberColumn(width=50, help="cards kept in service"),
                "switched_off": st.column_config.NumberColumn("switched off", width=90,
                                                              help="cards kept but switched off"),
                "sold": st.column_config.NumberColumn(width=45, help="cards sold"),
                "age_months": st.column_config.NumberColumn("age (mo)", width=60,
                                                            help="age in months: how old the cards are at month 1"),
                "note": st.column_config.TextColumn(width=owned_note_px)})
        st.caption(f"What happens to the cards already owned, and the fixed costs that avoids, in {pv_money} (plus a "
                   "sale's credit over the value they would have at the end) — not net of the work bought instead of theirs.")
        in_full = tables.notes_in_full(p.owned["card"], p.owned["note"], owned_note_px)
        if in_full:
            st.caption(in_full)

cumulative_slot = st.empty()
cumulative_caption = st.empty()
left, right = st.columns(2)
with left:
    st.plotly_chart(charts.monthly_chart(p.monthly, cc, p.horizon_months), key="monthly_chart")
with right:
    if len(p.utilisation):
        st.plotly_chart(charts.utilisation_chart(p.utilisation, s.onprem.availability), key="utilisation_chart")
    else:
        st.info("The recommended fleet owns no cards.")

# What is paid in each plan year and its present value: the engine's one computation (reports.yearly), as the CLI,
# summary.md and the workbook's yearly sheet show it. The year and what is paid first (what a phone shows), each header
# within its column (tables.CHARS_PER_PX): 1366 px.
st.subheader("By plan year")
yearly = yearly_view(p)
_wide("yearly_table").dataframe(
    yearly, hide_index=True, width="stretch", key="yearly_table", placeholder="",
    column_order=[c for c in ("year", "months", "paid", "present_value", "capex", "credits", "opex") if c in yearly],
    column_config={
        "year": st.column_config.TextColumn(width=95, pinned=True),
        "months": st.column_config.TextColumn(width=55, help="the plan's months the row sums"),
        "paid": st.column_config.NumberColumn(f"paid, {cc} (nominal)", format="%,.0f", width=145,
                                              help=f"{cc}, nominal: what is paid in those months, not discounted"),
        "present_value": st.column_config.NumberColumn(f"present value, {cc}", format="%,.0f", width=135,
                                                       help=pv_money),
        "capex": st.column_config.NumberColumn(f"capex, {cc} (nominal)", format="%,.0f", width=150,
                                               help=f"{cc}, nominal: cards bought, as paid"),
        "credits": st.column_config.NumberColumn(f"credits, {cc} (nominal)", format="%,.0f", width=165,
                                                 help=f"{cc}, nominal: cards sold, and the end value of those held at "
                                                      "the end (negative)"),
        "opex": st.column_config.NumberColumn(f"opex, {cc} (nominal)", format="%,.0f", width=145,
                                              help=f"{cc}, nominal: energy, maintenance, colocation, the site's fixed "
                                                   "cost and cloud, as paid"),
    })
note = yearly_note(p).replace("present_value:", "present value:")
st.caption(tables.plain(note[:1].upper() + note[1:]))

# Break-even utilisation per card
st.subheader("Break-even utilisation per card")
st.caption("The share of hours a card must work for owning it to cost no more than renting the same work "
           "from the cheapest compatible cloud offer. Compare with its utilisation in this plan. Costs in "
           f"{cc} per hour and per month, nominal: undiscounted.")
be_table, be_notes = tables.break_even_table(p)


def _break_even_shown(share_pct: float) -> str:
    """A break-even utilisation as the column shows it: "57%", or "never" where no utilisation pays the card off
    (inf: cloud work costs less than its energy), as the notes below say."""
    if share_pct != share_pct:   # NaN
        return ""
    shown = break_even_shown_as(share_pct / 100)   # the CLI's table shows it so too
    return shown if isinstance(shown, str) else f"{share_pct:.0f}%"


# The shares stay numbers (the column sorts by them) and the Styler gives the text shown: a format of the column's own
# would take precedence over it, and draws inf as "inf%".
# the two rates before the offer, under short headers (their help says what they are), the offer last: 1366 px
_wide("break_even_table").dataframe(
    be_table.style.format({"break_even_utilisation": _break_even_shown}), hide_index=True, width="stretch",
    key="break_even_table", placeholder="",
    column_order=["card", "workload", "break_even_utilisation", "utilisation_in_plan", "cloud_cost_per_reference_hour",
                  "card_fixed_cost_per_month", "cloud_offer"],
    column_config={
        "card": st.column_config.TextColumn(width=115, pinned=True), "workload": st.column_config.TextColumn(width=130),
        "break_even_utilisation": st.column_config.NumberColumn("break-even", width=80),
        "utilisation_in_plan": st.column_config.NumberColumn("in plan", format="%.0f%%", width=65),
        "cloud_cost_per_reference_hour": st.column_config.NumberColumn(
            f"cloud {cc}/ref-h", format="%.3f", width=113,
            help=f"What an hour of the reference GPU's work costs on the cheapest compatible cloud offer, {cc}, "
                 "undiscounted"),
        "card_fixed_cost_per_month": st.column_config.NumberColumn(
            f"card {cc}/month", format="%,.0f", width=105,
            help=f"What one card bought in month 1 costs per month in service, busy or idle (its payments, resale "
                 f"credit included, over its months in service), {cc}, undiscounted"),
        "cloud_offer": st.column_config.TextColumn("cheapest cloud offer", width=290),
    })
for note in be_notes:
    st.caption(tables.plain(note))

costs_expander = st.expander(tables.COSTS_BOX)

# The baselines: waited for here, where a slider change can still stop this run (`_pause`), then their
# cards, the cumulative chart and the break-even caption.
cumulative_caption.caption("Solving the all-cloud, all-on-prem and single-type baselines …")
while not baselines_future.done():
    _pause(0.05)
try:
    full = state.with_baselines(outcome, state.baselines_of(s, outcome))
except PlannerError as exc:   # a baseline's solve stopped at the time limit without a fleet: said, not a traceback
    cumulative_caption.empty()
    st.error("**The baselines could not be made** (the plan above stands).\n\n"
             + tables.message_block([str(exc)]))
    st.stop()
# the notes of baselines cheaper than the plan, told from the cap costs once those are made (as add_decisions
# tells them); else the notes the baselines came with, and the cards and table are drawn again when they are
told = state.with_decisions(full, decisions_made) if decisions_made is not None else full
p = full.plan
# the baselines' warnings, and the one the decisions add (engine.decisions.cheaper_found: a cheaper fleet found)
if told.plan.warnings != outcome.plan.warnings:
    _draw_warnings(told.plan)


def _draw_baseline_cards(plan) -> None:
    """The baselines' cards next to the total (their slots are filled again when the cap costs are made in this
    run)."""
    for slot, (key, label) in zip(baseline_slots, BASELINE_CARDS):
        row = tables.baseline_row(plan, key)
        if row is None:
            slot.metric(label, "—", border=True)
        elif row["status"] == "infeasible" or not (row["total"] == row["total"]):
            # not_solved: the time limit stopped its solve before a fleet (the note says so)
            shown = "not solved" if row["status"] == "not_solved" else "infeasible"
            slot.metric(label, shown, border=True, help=tables.plain(row["note"]) if row.get("note") else None)
        else:
            saving = row["savings"]
            delta, colour = _saving_delta(saving, row["savings_pct"], p.total)
            name = row["label"].capitalize() if key == "best_single" and row["label"] else label
            slot.metric(name, money(row["total"]), delta, delta_color=colour, delta_arrow="off" if colour == "off" else
                        "auto", border=True,
                        help=("The best single capacity type: the " if key == "best_single" else "The ")
                        + "same scenario solved with this kind of capacity only (the capex budget and mix caps "
                          "dropped, the power cap kept); the delta is what the recommended plan saves against it."
                        + (f" It {tables.plain(row['note'])}." if colour != "off" and saving < 0 and row.get("note")
                           else ""))


def _saving_delta(saving: float, saving_pct: float, total: float) -> tuple[str, str]:
    """(the delta of a baseline's card, its colour: `normal` or `off`): what the plan saves against the baseline, or
    that it costs the same — equal within the solves' round-off (engine.baselines.round_off: half a cent, or a
    millionth of the total), in grey: an all on-prem plan tied with the plan at -5e-11 read "-0 USD: cheaper than
    the plan" in red. A difference that rounds to no whole unit is shown in cents."""
    if abs(saving) <= round_off(total):
        return "same as the plan", "off"
    amount = f"{abs(saving):,.0f} {cc}" if abs(saving) >= 0.5 else f"{abs(saving):,.2f} {cc}"
    # whose saving it is said: a bare "saves 33,347 USD" under "All cloud" read as all-cloud saving it (an audit); the
    # minus sign stays first, where Streamlit reads the arrow and its red from
    if saving < 0:
        return f"-{amount}: the plan costs more (its help says why)", "normal"
    return f"the plan saves {amount}" + (f" ({saving_pct:.0f}%)" if saving_pct == saving_pct else ""), "normal"   # not NaN


def _baselines_shown(table: pd.DataFrame, total: float) -> pd.DataFrame:
    """`table` (Plan.baselines) with the savings within the solves' round-off of none as 0, not "-0" (as the cards
    say "same as the plan")."""
    tied = (table["savings"].abs() <= round_off(total)).to_numpy()
    return table.assign(savings=table["savings"].mask(tied, 0.0), savings_pct=table["savings_pct"].mask(tied, 0.0))


def _plan_kind(plan) -> str:
    """What the recommended fleet is, for the cumulative chart's legend: "all cloud" (it holds no card), "all on-prem"
    (it rents no cloud hour and reserves nothing), else "hybrid"; the legend said "hybrid" of every plan."""
    f = plan.fleet
    onprem = f["provider"] == "onprem"
    cards = (onprem & (f["units"].fillna(0) > 0)).any()
    cloud = (~onprem & ((f["units"].fillna(0) > 0) | (f["instance_hours"].fillna(0) > 0))).any()
    return "hybrid" if cards and cloud else ("all on-prem" if cards else "all cloud" if cloud else "nothing held")


def _draw_baselines_table(plan, key: str = "baselines_table") -> None:
    """The baselines at the expander's full width: label, total and savings first (what a phone shows), the note
    last; the `baseline` id hidden (the label says it), and a grouped profile's error bound in % (the eye icon)."""
    table = _baselines_shown(tables.baselines_table(plan), plan.total)   # its notes in words
    bounded = baselines_grouped(plan)   # by the plan's grouping, as every report: a bound unknown is an empty cell
    shown = ["label", "total", "savings", "savings_pct", "status"] + (["error_bound"] if bounded else []) + ["note"]
    note_px = 121 if bounded else 274   # what the expander (870 px) leaves
    # the slot holds the table's box and, after it, the notes in full: in the box they came before the phone's
    # "swipe sideways" line, which then read as the next table's
    holder = baselines_table_slot.container()
    box = _wide(key, holder)
    box.dataframe(
        table if bounded else table.drop(columns=["error_bound", "error_bound_pct"], errors="ignore"),
        hide_index=True, width="stretch", key=key, placeholder="", column_order=shown, column_config={
            "label": st.column_config.TextColumn("baseline", width=190, pinned=True),
            "total": st.column_config.NumberColumn(f"total, {cc} (PV)", format="%,.0f", help=pv_money, width=113),
            "savings": st.column_config.NumberColumn(f"savings, {cc} (PV)", format="%,.0f", help=pv_money, width=128),
            "savings_pct": st.column_config.NumberColumn("savings %", format="%.1f", width=80),
            "status": st.column_config.TextColumn(width=80),
            # a grouped profile's bound on each baseline's cost error (engine.baselines): empty where it is exact
            "error_bound": st.column_config.NumberColumn(f"error bound, {cc} (PV)", format="%,.0f", width=158,
                                                         help="its exact optimum is at most this much below its total "
                                                              "(the profile is planned on blocks of hours); empty: "
                                                              "unknown, its bound's solve gave none"),
            "error_bound_pct": st.column_config.NumberColumn("error bound %", format="%.2f"),
            "note": st.column_config.TextColumn(width=note_px)})
    in_full = tables.notes_in_full(table["label"], table["note"], note_px)   # what the column cuts short
    if in_full:
        holder.caption(in_full)


_draw_baseline_cards(told.plan)

cum = tables.cumulative(p, {k2: p.baseline_plans.get(k2) for k2 in ("all_cloud", "all_onprem")})
be = tables.break_even_month(cum, "all_cloud")
cumulative_slot.plotly_chart(charts.cumulative_chart(cum, cc, be, p.horizon_months, basis=present_value_basis(p),
                                                     names={"recommended": f"Recommended ({_plan_kind(p)})"}),
                             key="cumulative_chart")
cumulative_caption.caption(tables.break_even_text(p, cum, be))

with costs_expander:
    # the cost by category beside its captions; the baselines below at full width (a half held only their label)
    c1, c2 = st.columns(2)
    costs = tables.cost_table(p)
    c1.dataframe(costs, hide_index=True, key="costs_table",
                 column_config={"cost": st.column_config.NumberColumn(f"cost, {cc} (PV)", format="%,.0f", help=pv_money)})
    c2.caption(f"Costs, totals and savings in {pv_money}.")
    sv = p.solver
    # the gap in percent, as the CLI's solver line and summary.md say it (the JSON's fraction read as a percentage)
    c2.caption(f"Solver {sv.get('name')} · {sv.get('status')} · gap {gap_text(sv.get('gap'))} · "
               f"{sv.get('variables')} variables, {sv.get('constraints')} constraints · {sv.get('seconds')} s (recommended plan: "
               f"{sum((sv.get('timings_seconds') or {}).values()):.2f} s; baselines solved apart)")
    baselines_table_slot = st.empty()
    _draw_baselines_table(told.plan)
    if len(p.exclusions):
        st.caption("Offers left out, and why")
        # what is left out and how many offers first (what a phone shows), the reason last: 1366 px; a reason longer
        # than its column shows is said in full under the table, once, with the offers it covers
        reason_px = 480
        _wide("exclusions_table").dataframe(
            p.exclusions, hide_index=True, width="stretch", key="exclusions_table", placeholder="",
            column_order=["workload", "provider", "gpu", "offers", "reason"],
            column_config={
                "workload": st.column_config.TextColumn(width=140, pinned=True),
                "provider": st.column_config.TextColumn(width=60),
                "gpu": st.column_config.TextColumn("GPU", width=120),
                "offers": st.column_config.NumberColumn(width=60),
                "reason": st.column_config.TextColumn(width=reason_px)})
        in_full = tables.reasons_in_full(p.exclusions, reason_px)
        if in_full:
            st.caption(in_full)


def _draw_decisions(made) -> None:
    """The close-call badge (or the firm note) next to the total, and the section's tables."""
    if made.error:
        verdict_slot.caption("What each decision is worth could not be computed.")
        decisions_body.error("What each decision is worth could not be computed:\n\n" + tables.message_block([made.error]))
        return
    kind, text = tables.verdict(p.total, cc, made, p.status)
    (verdict_slot.markdown if kind in ("close_call", "not_best") else verdict_slot.caption)(text)
    with decisions_body.container():
        runner = made.runner_up or {}
        st.markdown(f"**Runner-up** — the best plan with a different fleet (units held per card or reservation; totals in "
                    f"{pv_money})")
        if runner.get("total") is not None:
            # the fleets' counts side by side, under the page's words (tables.runner_up_fleets: its columns)
            held_help = ("units held: cards of this type bought in any month or owned and not sold (kept or switched "
                         "off); for a reservation offer, the units reserved")
            st.dataframe(tables.runner_up_fleets(runner), hide_index=True, key="runner_up_table", placeholder="",
                         column_config={
                             "card_or_offer": st.column_config.TextColumn(
                                 "card or offer", width=200, help="a card type, or a cloud reservation offer"),
                             "recommended": st.column_config.NumberColumn(
                                 "recommended", width=95, help=f"the recommended plan's {held_help}"),
                             "runner_up": st.column_config.NumberColumn(
                                 "runner-up", width=80, help=f"the runner-up fleet's {held_help}"),
                             "other_card_types": st.column_config.NumberColumn(
                                 "other types", width=125,
                                 help=f"the best fleet with another set of card types or reservation offers (the line "
                                      f"below says which): its {held_help}")})
            st.caption(f"Recommended {p.total:,.0f} {cc}; runner-up {runner['total']:,.0f} {cc} "
                       f"({tables.pct_text(runner.get('increase_pct'))}). Close call when within "
                       f"{100 * runner['close_call_share']:g} % ({tables.scenario_fields('close_call_share')}).")
        else:
            st.caption(text)
        other = tables.other_types_text(runner, cc)
        if other:
            st.caption(other)
        counts = tables.count_alternatives(runner)
        if len(counts):   # the "one or two A100s?" question, answered with both totals (as the CLI's table)
            st.markdown(f"**One card more or fewer** — the best plan holding at most one fewer or at least one more of "
                        f"each card type the plan holds or owned, and how many it holds ({pv_money})")
            # the shares rounded as the CLI shows them, for the column's default format (tables.shares_shown); the
            # count asked as "≤ 87" and the count held next to the card, then the total: a phone (322 px in the
            # expander) tells two rows of one card apart without swiping
            _wide("count_alternatives_table").dataframe(
                tables.shares_shown(counts, "increase_pct"), hide_index=True, width="stretch",
                key="count_alternatives_table", placeholder="",
                column_order=["card", "asked", "held_units", "total", "increase", "increase_pct", "units", "status"],
                column_config={"card": st.column_config.TextColumn(width=115, pinned=True),
                               "asked": st.column_config.TextColumn(
                                   width=60, help="the count the re-solve asked for: at most one fewer than the plan "
                                                  "holds (≤) or at least one more (≥)"),
                               "held_units": st.column_config.NumberColumn(
                                   "held", width=50, help="how many the alternative's fleet holds (owned and not "
                                                          "sold, kept or switched off, and bought in any month)"),
                               "total": st.column_config.NumberColumn(format="%,.0f", width=90),
                               "increase": st.column_config.NumberColumn(format="%,.0f", width=90),
                               "increase_pct": st.column_config.NumberColumn("increase %", width=90),
                               "units": st.column_config.NumberColumn(
                                   "plan holds", width=80, help="how many of this card the recommended plan holds: "
                                                                "the count asked is one fewer or one more"),
                               "status": st.column_config.TextColumn(width=80)})
        left_out = tables.count_alternatives_left_out(runner)
        if left_out:   # the rows without a total (the table shows those with one)
            st.caption(left_out)
        if made.decisions is not None and len(made.decisions):
            st.markdown(f"**What each decision is worth** — the total when it is forbidden ({pv_money}), and "
                        "the increase: what the decision saves")
            decisions = tables.shares_shown(made.decisions.drop(columns=["gpu"]), "increase_pct")
            # what is decided and its worth first (what a phone shows), the note last: 1366 px
            _wide("decisions_table").dataframe(
                decisions, hide_index=True, width="stretch", key="decisions_table", placeholder="",
                column_order=["decision", "card_or_offer", "increase", "increase_pct", "total_if_forbidden", "month",
                              "units", "status", "note"],
                column_config={
                    "decision": st.column_config.TextColumn(width=70),
                    "card_or_offer": st.column_config.TextColumn("card or offer", width=150),
                    "increase": st.column_config.NumberColumn(format="%,.0f", width=85),
                    "increase_pct": st.column_config.NumberColumn("increase %", width=85),
                    "total_if_forbidden": st.column_config.NumberColumn("total if forbidden", format="%,.0f", width=136),
                    "month": st.column_config.NumberColumn(width=55),
                    "units": st.column_config.NumberColumn(format="%g", width=50),
                    "status": st.column_config.TextColumn(width=80),
                    "note": st.column_config.TextColumn(width=DECISION_NOTE_PX)})
            in_full = tables.notes_in_full([f"{d} {c}" for d, c in zip(decisions["decision"], decisions["card_or_offer"])],
                                           decisions["note"], DECISION_NOTE_PX)
            if in_full:
                st.caption(in_full)
        if made.flip_points is not None and len(made.flip_points):
            st.markdown("**Flip points** — the demand of the workload a card mainly serves just below which the plan holds "
                        "fewer of it")
            # today's demand (the slider's), the precision and the solves hidden for the note to fit 1366 px: the
            # table's eye icon shows them
            _wide("flip_points_table").dataframe(
                made.flip_points.drop(columns=["gpu"]), hide_index=True, width="stretch", key="flip_points_table",
                placeholder="",
                column_order=["card", "flip_demand", "flip_share_of_today", "unit", "workload", "units", "note"],
                column_config={
                    "card": st.column_config.TextColumn(width=120, pinned=True),
                    "flip_demand": st.column_config.NumberColumn("flip demand", format="%,.4g", width=95),
                    "flip_share_of_today": st.column_config.NumberColumn("share of today", format="percent", width=105),
                    "unit": st.column_config.TextColumn(width=145),
                    "workload": st.column_config.TextColumn(width=125),
                    "units": st.column_config.NumberColumn(width=50),
                    "note": st.column_config.TextColumn(width=225),
                    "demand_today": st.column_config.NumberColumn("demand today", format="%,.4g"),
                    "precision_pct": st.column_config.NumberColumn("± %", format="%.2f")})
            in_full = tables.notes_in_full(made.flip_points["card"], made.flip_points["note"], 225)
            if in_full:
                st.caption(in_full)
        caps = getattr(made, "cap_costs", None)   # (None in a Decisions pickled before cap costs existed)
        if caps is not None and len(caps):
            st.markdown(f"**What each limit costs** — the total without it ({pv_money}), and the saving: a limit "
                        "binds when the plan would cost less without it")
            readable = tables.cap_costs_table(caps).drop(columns=["status", "dropped_in"], errors="ignore")
            shown = tables.shares_shown(readable.assign(binds=binds_words(caps["binds"])), "saving_pct")
            _wide("cap_costs_table").dataframe(
                shown, hide_index=True, width="stretch", key="cap_costs_table", placeholder="",
                column_order=["cap", "saving", "saving_pct", "total_without", "binds", "limit", "unit", "note"],
                column_config={
                    "cap": st.column_config.TextColumn(width=215, pinned=True),
                    "saving": st.column_config.NumberColumn(format="%,.0f", width=85),
                    "saving_pct": st.column_config.NumberColumn("saving %", width=80),
                    "total_without": st.column_config.NumberColumn("total without it", format="%,.0f", width=120),
                    "binds": st.column_config.TextColumn(width=55),
                    "limit": st.column_config.NumberColumn(format="%,.10g", width=85, help=(
                        "The scenario's value, in the unit column's unit; a capex budget caps the purchase "
                        "schedule's buys as paid (nominal)")),
                    "unit": st.column_config.TextColumn(width=55),
                    "note": st.column_config.TextColumn(width=170)})
            in_full = tables.notes_in_full(readable["cap"], readable["note"], 170)
            if in_full:
                st.caption(in_full)
            st.caption(tables.binding_text(caps, cc))
            noted_plan = state.with_decisions(full, made).plan
            if told is full:   # the cards and table above were drawn before the cap costs were made: again, told
                _draw_baseline_cards(noted_plan)
                _draw_baselines_table(noted_plan, key="baselines_table_told")
            noted = noted_plan.baselines
            for label, note in zip(noted["label"], noted["note"]):
                if note.startswith(CHEAPER_BY_CAPS):
                    st.caption(f"{tables.plain(label.capitalize())} {tables.plain(tables.note_words(note))}.")
        work = made.work or {}
        if work:
            solves = sum(work.get("solves", {}).values())
            st.caption(f"{solves} re-solves of this scenario, {work.get('total_seconds', 0):.1f} s, made in the background "
                       "after the plan was shown.")


# After a later run (a slider step, another scenario) what each decision is worth is started only once the page
# has been left alone this long: a user stepping a slider is not slowed by seconds of re-solves in the background.
DECISIONS_IDLE_S = 2.0


@st.fragment(run_every=0.5)
def _decisions_when_idle(scenario, recommended, drawn_at: float) -> None:
    """Drawn with the page (nothing to show), then run again every half second until what each decision of the plan
    is worth is made: starts it once no new run has come for DECISIONS_IDLE_S (a new run draws this anew, which
    restarts the count), and when it is made, or was dropped, runs the whole page again, which draws it."""
    if time.monotonic() - drawn_at < DECISIONS_IDLE_S:
        return
    if state.decisions_future(scenario, recommended).done():
        st.rerun()


# What each decision is worth: on the session's first plan, started once the rest is drawn (the user reads the
# page); after a later run, when the page has been left alone (`_decisions_when_idle`).
if decisions_made is None:
    drawn_at = time.monotonic()
    if first_run:
        state.decisions_future(s, outcome)
        decisions_made = state.decisions_of(s)      # made here when there are no worker processes
        drawn_at -= DECISIONS_IDLE_S
if decisions_made is None:
    _decisions_when_idle(s, outcome, drawn_at)
else:
    _draw_decisions(decisions_made)

state.settle_heap()
trace.mark("end")
