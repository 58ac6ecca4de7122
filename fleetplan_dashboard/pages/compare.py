"""Compare page: two scenarios side by side (by default the saved file against the current edits)."""

from __future__ import annotations

import math

import streamlit as st

from fleetplan_dashboard import charts, compare_tables, links, state, tables
from fleetplan_dashboard.layout import wide
from planner.errors import PlannerError
from planner.reports import compare
from planner.reports.compare import check_currencies
from planner.reports.tables import present_value_basis, site_cost_note
from planner.text import counted

CURRENT = "current"
INPUT_MAX_PX = 260   # the inputs table's name column at most (34 characters): what a phone leaves two short sides
SIDE_MIN_PX = 48     # a side's column of the inputs table at least: its header, "A", and a short value
INPUT_WRAPPED_PX = 112   # the name column at least where the rows wrap (beside two 122 px columns of cards' ids)


def _text_px(texts) -> int:
    """The width that shows the longest of `texts` whole (tables.CHARS_PER_PX)."""
    return math.ceil(max((len(str(x)) for x in texts), default=0) / tables.CHARS_PER_PX) + 1
# Said when both sides hold the same scenario: the defaults before anything is edited, or one file picked twice
SAME_SIDES = "A ({a}) and B ({b}) are the same scenario, so nothing below differs"
NOTHING_EDITED = ": nothing is edited on the Plan page yet. Edit a value in its sidebar, or pick another scenario for B."
SAME_PICKED = ". Pick another scenario for A or B."

# A link to this page (a bookmark, a shared link) carries the scenario and its edits, as the Plan page's does: opened
# here as there, and the URL written back as the page shows it (links)
links.open_shared_link()
cur = state.current()
links.write_link(cur)
# "Current edits" only where there are some: the option read so before anything was edited (an audit, in a real
# browser), a scenario no one had edited
edited = cur.base is not None and state.edits_count(cur.base, state.current_values(cur.base)) > 0
st.title("Compare")
st.caption("Two scenarios side by side: the inputs that differ, the fleets and the costs (B − A)."
           + (" “Current edits” is the Plan page's scenario with its sliders as they are now." if edited else ""))
if links.link_problems():
    st.warning(f"{links.IGNORED}\n\n" + tables.message_block(links.link_problems()))

uploads = st.session_state.get("uploads", {})
options = [CURRENT] + [f"file:{n}" for n in state.scenario_files()] + list(uploads)


def label(option: str) -> str:
    """The option's name as plain text (`tables.plain` before it goes into Markdown: an upload's file
    name is anyone's text)."""
    if option != CURRENT:
        return state.base_label(option)
    return f"Current edits of {cur.label}" if edited else f"{cur.label} on the Plan page, not edited"


c1, c2 = st.columns(2)
default_a = options.index(cur.base_id) if cur.base_id in options else 1
a_id = c1.selectbox("Scenario A", options, index=default_a, format_func=label, key="compare_a")
b_id = c2.selectbox("Scenario B", options, index=0, format_func=label, key="compare_b")


def _sentence(note: str) -> str:
    """A planner's note as a sentence begins: its first letter a capital."""
    return note[:1].upper() + note[1:]


def resolve(option: str):
    if option == CURRENT:
        return cur.edited, cur.problems
    return state.load_base(option, uploads)


def no_plan(col, option: str, message: str) -> None:
    col.error(f"**No plan for {tables.plain(label(option))}.**\n\n" + tables.message_block([message]))


# Both sides loaded, their currencies compared, then both priced and their models' sizes checked before either is
# solved (as `fleetplan compare`): a side that cannot be planned, or two that cannot be compared, is said at once,
# not after a solve.
read = {}
for side, option, col in (("A", a_id, c1), ("B", b_id, c2)):
    scenario, problems = resolve(option)
    if scenario is None:
        col.error("Cannot load this scenario:\n\n" + tables.message_block(problems))
        continue
    read[side] = (option, scenario, col)
if len(read) < 2:
    st.stop()
# The defaults (the saved file against the current edits) are one scenario twice until something is edited. They
# stay: a user comes here mostly to see what an edit changed, and a B that were another file until the first edit would
# then have to switch itself to the edits (or silently not), under a user who picked nothing. Instead the page says
# plainly that nothing is edited yet, and how to get a comparison, rather than show an empty one as if it were one.
if read["A"][1] == read["B"][1]:
    st.info(SAME_SIDES.format(a=tables.plain(label(a_id)), b=tables.plain(label(b_id)))
            + (NOTHING_EDITED if CURRENT in (a_id, b_id) else SAME_PICKED), icon=":material/info:")
try:   # the sides in the page's names, A and B
    check_currencies(read["A"][1], read["B"][1], (label(a_id), label(b_id)), sides=("A", "B"))
except PlannerError as exc:
    st.error(tables.plain(exc))
    st.stop()

loaded = {}
for side, (option, scenario, col) in read.items():
    inputs, problem = state.prepared(scenario)   # None where its plan is made or under way already
    if problem:
        no_plan(col, option, problem)
        continue
    loaded[side] = (option, scenario, col, inputs)
if len(loaded) < 2:
    st.stop()

sides = {}
for side, (option, scenario, col, inputs) in loaded.items():
    outcome = state.recommended(scenario, inputs=inputs)   # the comparison needs no baselines
    if outcome.kind != "ok":
        said = tables.infeasible_words(outcome.message, scenario) if outcome.kind == "infeasible" else outcome.message
        no_plan(col, option, said)
        continue
    sides[side] = (option, scenario, outcome.plan)

if len(sides) < 2:
    st.stop()

(_, sa, pa), (_, sb, pb) = sides["A"], sides["B"]
try:
    comp = compare(pa, pb)
except PlannerError as exc:
    st.error(tables.plain(exc))
    st.stop()
cc = comp.currency

m1, m2, m3 = st.columns(3)
m1.metric(f"A: total, {counted(pa.horizon_months, 'month')}", f"{comp.total_a:,.0f} {cc}", border=True)
m2.metric(f"B: total, {counted(pb.horizon_months, 'month')}", f"{comp.total_b:,.0f} {cc}", border=True)
t = comp.totals
m3.metric("B − A", f"{t['delta']:+,.0f} {cc}",
          f"{t['delta_pct']:+.1f}%" if t["delta_pct"] == t["delta_pct"] and abs(t["delta"]) >= 0.5 else None,
          delta_color="inverse", border=True)
# what the totals are: present values, at each side's own rate over its own horizon
basis_a, basis_b = present_value_basis(pa), present_value_basis(pb)
if comp.basis_note is None:
    basis = basis_a
    st.caption(f"Totals and costs: {cc}, {basis}.")
else:
    basis = basis_a if basis_a == basis_b else "present value, each at its own rate"
    # the planner's own statement, as `fleetplan compare` prints it, said once (it is one of comp.notes too);
    # numbers and the planner's words, no scenario text: not escaped, so no backslash shows
    st.warning(f"{_sentence(tables.page_sides(comp.basis_note))}.")
# the comparison's other notes, each once, as `fleetplan compare` prints them: a side not proven optimal (its solve
# stopped at the dashboard's time limit) as a warning; what could not be compared (a file compared by its path alone)
# as a note. Their "a" and "b" open the sentence, so read as the page's A and B.
unproven = comp.not_proven_notes
for note in unproven:   # the planner's words and numbers, no scenario text: not escaped
    st.warning(f"Not proven optimal: {_sentence(note)}.")
for note in comp.notes:
    if note not in unproven and note != comp.basis_note:   # a note may name a workload (its profile file): as typed
        st.info(f"Note: {tables.plain(_sentence(note))}.")

# The tables: on a phone (356 px inside the page's margins) each shows its rows' names, pinned, and their values or
# money beside them; under each a line says the rest is a swipe away (layout.wide). A side's column is narrow there,
# its header ("A: " and the side's name) cut short: the boxes at the top name the sides.
side_a, side_b = f"A: {label(a_id)}", f"B: {label(b_id)}"
st.subheader("Inputs that differ")
if comp.inputs.empty:
    st.info("The two scenarios state the same assumptions.")
else:
    # a list as its items, "a100-80gb-pcie, rtx-4090" (the comparison's YAML flow text, "[a100-80gb-pcie, rtx-4090]",
    # was cut to "[a100-80gb-pc" at 90 px: an audit, 2026-12-07)
    shown_inputs = tables.inputs_table(
        compare_tables.readable_lists(comp.inputs_shown, compare_tables.list_paths(sa, sb)), cc)
    # The sides' headers are "A" and "B", the scenarios' names in their help ("B: Current edits of startup-hybrid.yaml"
    # was cut to a third at 90 px: an audit, 2026-12-06), each column as wide as its values (tables.CHARS_PER_PX), at
    # most 90 px, or as its longest word (a card's id, which is not wrapped) up to 160; the inputs' names take what a
    # phone leaves beside them (356 px: the values stay in view), at least 176 px, and on a laptop up to INPUT_MAX_PX.
    side_px = {side: max(SIDE_MIN_PX, min(max(90, compare_tables.word_px(shown_inputs[col])), _text_px(shown_inputs[col])))
               for side, col in ((side_a, "a"), (side_b, "b"))}
    # A value longer than its column (a list of cards) wraps in its cell: the rows as high as the longest needs, up to
    # compare_tables.MAX_LINES lines (the grid wraps only rows higher than one line), the names wrapped alike, in
    # at least INPUT_WRAPPED_PX: on a phone two columns of cards' ids beside them
    value_px = {"a": side_px[side_a], "b": side_px[side_b]}
    lines = compare_tables.lines_needed(shown_inputs, value_px)
    input_px = max(INPUT_WRAPPED_PX if lines > 1 else 176,
                   min(_text_px(shown_inputs["input"]), INPUT_MAX_PX, 356 - sum(side_px.values())))
    path_px = 904 - input_px - sum(side_px.values())   # the rest of the 904 px a 1366 px screen holds, the sidebar open
    if lines > 1:
        lines = max(lines, compare_tables.lines_needed(shown_inputs, {"input": input_px, "path": path_px}))
    wide("compare_inputs").dataframe(
        shown_inputs.rename(columns={"a": side_a, "b": side_b}), hide_index=True,
        width="stretch", key="compare_inputs", row_height=compare_tables.row_height(lines), column_config={
            "input": st.column_config.TextColumn(width=input_px, pinned=True),
            side_a: st.column_config.TextColumn("A", width=side_px[side_a], help=side_a),
            side_b: st.column_config.TextColumn("B", width=side_px[side_b], help=side_b),
            "path": st.column_config.TextColumn("in the scenario file", width=path_px)})
    # A name or value still cut (one line: no value wraps; or more lines than a row shows) is said in full under it
    shown_lines = min(lines, compare_tables.MAX_LINES)
    if lines > 1:
        cut = [name for name in shown_inputs["input"] if compare_tables.wrapped_lines(name, input_px) > shown_lines]
    else:
        cut = [name for name in shown_inputs["input"] if len(name) > int(input_px * tables.CHARS_PER_PX)]
    if cut:
        st.caption("Inputs in full: " + "; ".join(tables.plain(name) for name in cut) + ".")
    long_values = [f"{row.input}: A {row.a}, B {row.b}" for row in shown_inputs.itertuples()
                   if max(compare_tables.wrapped_lines(row.a, value_px["a"]),
                          compare_tables.wrapped_lines(row.b, value_px["b"])) > shown_lines]
    if long_values:
        st.caption("Values in full: " + "; ".join(tables.plain(v) for v in long_values) + ".")

if len(comp.prices):   # the same offer priced differently (an edited offers file, a price override on one side)
    st.subheader("Prices that differ")
    # what each price is in words: the offer (card, or instance, option, provider and region), which of its prices,
    # A's and B's with their currency and unit ("16,500 USD per card"), and where each plan's price came from and its
    # date (an audit, 2026-12-07: the section showed "capex_per_unit" and bare amounts)
    shown_prices = compare_tables.prices_table(comp.prices, pa, pb, cc)
    # on a phone (356 px) the offer and both amounts show, what the price is a swipe away: "instance-hour" whole
    price_px = {"offer": 126, "a": 115, "b": 115, "price": 130}
    price_px["source"] = 904 - sum(price_px.values())   # the rest of a 1366 px screen, the sidebar open
    price_lines = compare_tables.lines_needed(shown_prices, price_px)
    wide("compare_prices").dataframe(
        shown_prices.rename(columns={"a": side_a, "b": side_b}), hide_index=True, width="stretch", key="compare_prices",
        column_order=["offer", side_a, side_b, "price", "source", "gpu"],
        row_height=compare_tables.row_height(price_lines), column_config={
            "offer": st.column_config.TextColumn("card or offer", width=price_px["offer"], pinned=True),
            side_a: st.column_config.TextColumn("A", width=price_px["a"], help=side_a),
            side_b: st.column_config.TextColumn("B", width=price_px["b"], help=side_b),
            "price": st.column_config.TextColumn(width=price_px["price"]),
            "source": st.column_config.TextColumn("source and date", width=price_px["source"]),
            "gpu": st.column_config.TextColumn("GPU")})
    long_prices = [f"{row.offer}, {row.price}: {row.source}" for row in shown_prices.itertuples()
                   if compare_tables.wrapped_lines(row.source, price_px["source"]) > min(price_lines, compare_tables.MAX_LINES)]
    if long_prices:
        st.caption("Sources in full: " + "; ".join(tables.plain(v) for v in long_prices) + ".")

st.subheader("Fleets")
# half the page wide (443 px at 1366): the cost comes right after what is bought or rented, so it is never cut off; on a
# phone what, its cost and the action show, the hours a swipe away. What and the action wrap in their cells, both
# sides' rows as high as the longest needs ("1 × a100-80gb-pcie purchase" and "rent on-demand" were cut at 165 and
# 85 px: an audit, 2026-12-07; at 85 px a phone broke "on-demand" before its last letter); one longer than the rows
# hold is said in full under its table
FLEET_PX = {"what": 158, "cost": 106, "action": 92, "instance_hours": 87}
fleets = {}
for side, plan in (("A", pa), ("B", pb)):
    fleet = tables.fleet_table(plan)
    units = [f"{u:g} × " if u == u and u else "" for u in fleet["units"]]
    fleets[side] = fleet.assign(what=[f"{n}{sku} {o.replace('_', '-')}"
                                      for n, sku, o in zip(units, fleet["sku"], fleet["purchase_option"])])
wrapped = {"what": FLEET_PX["what"], "action": FLEET_PX["action"]}
fleet_lines = max(compare_tables.lines_needed(fleet, wrapped) for fleet in fleets.values())
left, right = st.columns(2)
for col, name, p in ((left, f"A: {label(a_id)}", pa), (right, f"B: {label(b_id)}", pb)):
    with col:
        st.markdown(f"**{tables.plain(name)}**")
        for card in tables.fleet_cards(p):
            st.caption(f"**{card.label}**: {tables.plain(card.value)} — {tables.plain(card.detail)}")
        fleet = fleets[name[0]]
        wide(f"compare_fleet_{name[0]}").dataframe(
            fleet[["what", "cost", "action", "instance_hours"]], hide_index=True, width="stretch",
            key=f"compare_fleet_{name[0]}", placeholder="", row_height=compare_tables.row_height(fleet_lines),
            column_config={
                "what": st.column_config.TextColumn("units × card or offer", width=FLEET_PX["what"], pinned=True),
                "cost": st.column_config.NumberColumn(f"cost, {cc} (PV)", format="%,.0f", width=FLEET_PX["cost"],
                                                      help=f"{cc}, {present_value_basis(p)}"),
                "action": st.column_config.TextColumn(width=FLEET_PX["action"]),
                "instance_hours": st.column_config.NumberColumn("hours used", format="%,.0f",
                                                                width=FLEET_PX["instance_hours"])})
        cut = [what for what in fleet["what"]
               if compare_tables.wrapped_lines(what, FLEET_PX["what"]) > min(fleet_lines, compare_tables.MAX_LINES)]
        if cut:
            st.caption("In full: " + "; ".join(tables.plain(what) for what in cut) + ".")
        # the site's fixed cost is no row's (as the Plan page's fleet says)
        note = site_cost_note(p, field=tables.SITE_COST_FIELD)
        if note:
            st.caption(note)

st.subheader("Costs by category")
# the categories in words (the comparison's JSON and CSV keep their names)
# on a phone the category and A's and B's costs show, B − A a swipe away: the money columns size to their figures,
# millions over ten years
wide("compare_costs").dataframe(
    comp.costs.assign(category=comp.costs["category"].map(tables.category_words)), hide_index=True, width="stretch",
    key="compare_costs", column_config={
        "category": st.column_config.TextColumn(pinned=True),
        **{c: st.column_config.NumberColumn(f"{side}, {cc} (PV)", format="%,.0f", help=f"{cc}, {basis}")
           for c, side in (("cost_a", "A"), ("cost_b", "B"), ("cost_delta", "B − A"))}})
cum = tables.cumulative_of({"A": pa, "B": pb})
st.plotly_chart(charts.cumulative_chart(cum, cc, None, None, names={"A": f"A: {label(a_id)}", "B": f"B: {label(b_id)}"},
                                        basis=basis), key="compare_chart")
