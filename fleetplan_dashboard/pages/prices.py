"""Prices page: the offers explorer — ranked by what an hour of a workload's reference GPU costs on each
offer (its speed taken into account), next to the raw price per GPU-hour, by GPU, provider, region and
purchase option. Prices in the scenario's currency, as on the Plan, Compare and Export pages: the engine's offers
table is in USD, converted at the scenario's fx.USD where the scenario is in another currency."""

from __future__ import annotations

import math

import streamlit as st

from fleetplan_dashboard import charts, links, state, tables
from fleetplan_dashboard.jobs import hide_store_path
from fleetplan_dashboard.layout import wide
from planner.catalog import price_table
from planner.catalog.offers import check_no_card_rows
from planner.engine.offer_costs import OfferFilter, offers_table
from planner.errors import PlannerError
from planner.text import counted

# the widest the offers table's note column gets (93 characters: a cloud offer's longest, "GPUs per instance not known | a
# share of one GPU, how large not known | GPU memory not known", 91); a longer note (a card's own figures, named field
# by field) is said in full under the table
NOTE_MAX_PX = 700
NOTE_MIN_PX = 60    # its header, "note", whole


@st.cache_data(show_spinner=False, max_entries=16)
def _offers(source: str, snapshot: int | None, stamp: str, fx_to_usd: tuple, electricity_usd: float, pue: float,
            cards_key: str, allowed_only: bool, _scenario):
    """`snapshot`: the store snapshot the scenario pins (prices.snapshot), as its plan reads the store; `cards_key`:
    the scenario's parts its card figures and its allowed offers come from (the scenario itself is not hashed);
    `allowed_only`: only the offers the scenario allows, and the warnings about those."""
    cloud, provenance = price_table(source, snapshot=snapshot)
    # an offers CSV's on-prem rows are refused, as `plan` and `validate` refuse them: they would be shown here beside
    # the scenario's own cards while its plan prices the cards from the catalog and the scenario only
    check_no_card_rows(cloud, provenance.get("source", source))
    # the scenario's cards at its own figures (overrides, custom cards), as its plan costs them
    table, warnings = offers_table(OfferFilter(), fx_to_usd=dict(fx_to_usd), electricity_usd_per_kwh=electricity_usd,
                                   pue=pue, cloud=cloud, scenario=_scenario, allowed_only=allowed_only)
    return table, warnings, provenance


def _in_currency(fig, currency: str):
    """charts.offers_chart's figure (its unit words in USD) with its prices' unit named `currency`: the page's view
    is in the scenario's currency (tables.offers_in_currency)."""
    if currency == "USD":
        return fig
    for trace in fig.data:
        trace.hovertemplate = trace.hovertemplate.replace("USD", currency)
    fig.layout.yaxis.title.text = fig.layout.yaxis.title.text.replace("USD", currency)
    fig.layout.title.subtitle.text = fig.layout.title.subtitle.text.replace("USD", currency)
    return fig


# The URL carries the scenario and its edits here too, as on the Compare and Export pages (links): opening this page
# from the menu dropped them from the address bar (an audit), so a bookmark or a copied link reopened the default file
links.open_shared_link()
cur = state.current()
links.write_link(cur)
s = cur.edited or cur.base
st.title("Prices")
if links.link_problems():
    st.warning(f"{links.IGNORED}\n\n" + tables.message_block(links.link_problems()))
if s is None:
    st.error("The scenario cannot be loaded:\n\n" + tables.message_block(cur.problems))
    st.stop()

# The engine's offers view prices in USD; the scenario's fx says scenario-currency units per unit of a currency. The
# page shows the prices in the scenario's currency (cc), converted back at its fx.USD (per_usd: cc per USD), and its
# electricity as the sidebar gives it.
cc = s.currency
usd = s.fx_rate("USD")
if usd is None:
    st.error(f"The scenario is in {cc} and has no USD rate (fx: {{USD: …}}): the offers' prices are in USD, and this "
             f"page shows them in {cc} at that rate ({cc} per USD).")
    st.stop()
fx_to_usd = tuple(sorted((cur_, rate / usd) for cur_, rate in s.fx.items() if cur_ != "USD"))
if s.currency != "USD":
    fx_to_usd += ((s.currency, 1 / usd),)
electricity_usd = s.onprem.electricity_per_kwh / usd
per_usd = 1.0 if cc == "USD" else usd
cards_key = s.model_dump_json(include={"name", "currency", "fx", "prices", "onprem", "constraints"})
# the toggle below, as it stands in this run (its default before it is drawn): the table and its warnings are of
# the offers it shows, so a card the scenario does not list is no warning while only its offers are shown
in_use = st.session_state.get("prices_in_use", True)
try:
    table, warnings, provenance = _offers(s.prices.source, s.prices.snapshot, state.prices_stamp(s.prices.source),
                                          fx_to_usd, electricity_usd, s.onprem.pue, cards_key, in_use, s)
except PlannerError as exc:   # an unreadable price store or offers CSV: what is wrong, not where the server keeps it
    st.error("The prices cannot be read:\n\n" + tables.message_block([hide_store_path(str(exc))]))
    st.stop()
# the notes in words: a card's as the caption names its fields, a cloud offer's without field names or files (the
# cached table keeps the engine's)
table = table.assign(note=table["note"].map(tables.offer_note_words))
table = tables.offers_in_currency(table, per_usd)   # the engine's USD in the scenario's currency
rate_words = tables.offers_rate_words(cc, per_usd)
# the prices read, as their provenance says: the packaged snapshot's where `prices.source: store` found no store
source_read = provenance.get("source", s.prices.source)
source = {"snapshot": "the packaged price snapshot", "store": "the price store"}.get(source_read, source_read)
if source_read == "store" and provenance.get("pinned_snapshot") is not None:   # as it stood at that snapshot
    source += tables.pinned_words(provenance["pinned_snapshot"])
st.caption(f"Offers of {tables.plain(source)} (scenario “{tables.plain(s.name)}”), in {cc} per hour"
           + (f" ({rate_words})" if rate_words else "") + ", undiscounted (a "
           "reservation's upfront spread over its term). On-prem cards: owned "
           "and busy every hour of their "
           f"life (capex over the life, maintenance, busy watts × PUE {s.onprem.pue:g} × electricity "
           f"{s.onprem.electricity_per_kwh:g} {cc}/kWh). The scenario's own cards are priced as its plan prices them, with "
           f"{tables.scenario_fields('onprem.card_overrides', 'onprem.custom_cards', whose='its')}; other cards at the catalog's "
           "figures — the note column says which. “Price as of” is the date each price was read.")
# the warnings name offers, SKUs and store rows as the price source spells them: as typed, never Markdown; the
# scenario's fields they name in the page's words
for w in warnings:
    st.warning(tables.plain(tables.in_page_words(w)))
if provenance.get("warning"):
    st.warning(tables.plain(hide_store_path(provenance["warning"])))

st.toggle("Only the offers this scenario allows (providers, regions, purchase options, cards)", value=True,
          key="prices_in_use")
view = table

c1, c2, c3, c4, c5 = st.columns(5)
gpus = c1.multiselect("GPU", sorted(view["gpu"].dropna().unique()), key="prices_gpu")
providers = c2.multiselect("Provider", sorted(view["provider"].unique()), key="prices_provider")
regions = c3.multiselect("Region", sorted(view["region"].unique()), key="prices_region")
options = c4.multiselect("Purchase option", sorted(view["purchase_option"].unique()), key="prices_option")
min_memory = c5.number_input("Least GB per GPU", value=0.0, min_value=0.0, step=8.0, key="prices_memory")
view = view[view["gpu_memory_gb"].fillna(0) >= min_memory]
for column, chosen in (("gpu", gpus), ("provider", providers), ("region", regions), ("purchase_option", options)):
    if chosen:
        view = view[view[column].isin(chosen)]

NO_WORKLOAD = "(none: raw USD per GPU-hour)"
workloads = {w.name: w for w in s.workloads}
# the option's value stays the same in every currency (a currency's own would be a new option when the scenario
# changes); it is shown in the scenario's currency
chosen = st.selectbox("Rank for the work of", [*workloads, NO_WORKLOAD], key="prices_workload",
                      format_func=lambda o: f"(none: raw {cc} per GPU-hour)" if o == NO_WORKLOAD else o,
                      help=f"Cost per hour of this workload's reference GPU's work: the offer's {cc} per GPU-hour "
                           "divided by the reference-GPU-hours an hour of its GPU delivers, as the plan counts them "
                           "(the speed model or the workload's own throughput table, a multi-GPU job's efficiency, "
                           "spot's interruption overhead). Offers the plan cannot use for this workload (spot for "
                           "work that cannot be interrupted, too little memory, a GPU its framework does not "
                           "support …) are left out; the switch below lists them under the table, with the reason.")
workload = workloads.get(chosen)
unusable, unusable_note, reasons = 0, "", None
if workload is not None:
    view = tables.per_reference_hour(view, workload, s)
    unusable = int((view["cannot_serve"] != "").sum())
    # the engine's rule (engine.workloads): an offer it would not use for this work is no price for it
    # not named in the label, which would be its accessible name too (tables.widget_label): the box above names it
    shown_unusable = st.toggle("Show the offers this workload cannot use, with the reason",
                               value=False, key="prices_unusable", disabled=not unusable)
    # the table keeps the offers it can use, their price beside their name: a reason column there pushed the price
    # off a phone's screen and cut most reasons; the reasons are listed whole under the table instead
    if shown_unusable and unusable:
        reasons = tables.unusable_reasons(view)
    view = view[view["cannot_serve"] == ""].drop(columns="cannot_serve")
    if unusable:
        unusable_note = f"; {counted(unusable, 'offer')} it cannot use " + ("listed under the table" if reasons is not None
                                                                          else "left out")

dates = sorted(d for d in view["as_of"].dropna().astype(str) if d)
if not len(view):
    st.info("No offers match your filters" + (f" ({counted(unusable, 'offer')} that "
                                               f"{tables.plain(workload.name)} cannot use "
                                               + ("listed below)" if reasons is not None else "left out)")
                                               if unusable_note else "") + ".")
else:
    st.caption(f"{counted(len(view), 'offer')}, "
               + (f"cheapest per hour of {tables.plain(workload.reference_gpu)} work for {tables.plain(workload.name)} "
                  "first" if workload is not None else "cheapest per GPU-hour first") + unusable_note
               + "; prices as of " + (f"{dates[0]} to {dates[-1]}." if dates else "an unknown date.")
               + (f" Each row's {cc} per hour of work is that offer's own: for an on-prem card, owning it and keeping "
                  "it busy every hour. The Plan page's break-even table gives, on a card's row, the cheapest "
                  f"compatible on-demand or spot cloud offer's {cc} per reference-GPU hour, the work the card would "
                  "replace: compare it with that cloud offer's row here, not with the card's."
                  if workload is not None else ""))
if len(view):
    st.plotly_chart(_in_currency(charts.offers_chart(view, per_reference=workload.reference_gpu if workload else None),
                                 cc), key="offers_chart")
    ref = workload.reference_gpu if workload is not None else "reference GPU"
    # The notes (where an offer's figures come from) whole on one line, up to NOTE_MAX_PX: the last column, past the
    # table's sideways scroll on any screen. It was as wide as the grid chose and cut them ("your fig…", "GPUs per
    # instance not known | a share of…": an audit, 2026-12-07).
    longest = max((len(n) for n in view["note"].dropna().astype(str)), default=0)
    note_px = max(NOTE_MIN_PX, min(NOTE_MAX_PX, math.ceil(longest / tables.CHARS_PER_PX) + 2))
    # On a phone (356 px) the offer's name, pinned, and the price it is ranked by show whole, short headers saying what
    # their help says in full; the other prices, its option and the rest a swipe away (layout.wide). With the offers
    # the workload cannot use shown, they are listed under the table, each reason once (tables.unusable_reasons)
    wide("offers_table").dataframe(
        view, hide_index=True, width="stretch", key="offers_table", placeholder="",
        column_order=tables.offers_column_order(list(view.columns)), column_config={
            **{column: st.column_config.Column(header, help=help) for column, (header, help) in tables.OFFER_HEADERS.items()},
            "sku": st.column_config.TextColumn("card or instance", width=185, pinned=True),
            "usd_per_reference_gpu_hour": st.column_config.NumberColumn(
                f"{cc} per hour of work", format="%.4f", width=150,
                help=f"{cc} per {ref}-hour of work: what an hour of one {ref}'s work costs on this offer (an "
                     "on-prem card's: owned and busy every hour)"),
            "speed_vs_reference": st.column_config.NumberColumn(f"speed vs {ref}", format="%.2f",
                                                                help=f"{ref}-hours of work an hour of one of its GPUs "
                                                                     "delivers, as the plan counts them"),
            "usd_per_hour": st.column_config.NumberColumn(f"{cc} per hour", format="%.4f", width=95,
                                                          help=f"{cc} per hour of the instance or card, all its GPUs"),
            "usd_per_gpu_hour": st.column_config.NumberColumn(f"{cc} per GPU-hour", format="%.4f", width=125),
            "note": st.column_config.TextColumn("note", width=note_px),
        })
    # the notes say where an offer's figures come from (a card's: your figures or the catalog's); one longer than
    # its column is said in full under the table, after its offer
    in_full = tables.notes_in_full(view["sku"], view["note"], note_px)
    if in_full:
        st.caption(in_full)
if reasons is not None:
    # each reason whole, as text that wraps on any screen, once for all the offers it covers; the reasons and the
    # names as the engine and the price source spell them (a GPU name from an offers CSV): escaped, never Markdown
    st.subheader(f"Offers {tables.plain(workload.name)} cannot use ({unusable:,})")
    st.caption("Why the plan cannot use them for this workload's work (the engine's rule), each reason once with how "
               "many offers it covers and their cards or instances, most offers first; the filters above apply.")
    st.markdown("\n".join(tables.unusable_reason_line(r.reason, r.offers, r.names) for r in reasons.itertuples()))
