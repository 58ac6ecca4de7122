"""Plotly figures of the dashboard, built from Plan tables (no cost arithmetic here)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from fleetplan_dashboard.tables import category_words
from planner.engine.schedule import COST_CATEGORIES
from pricing_adapters import registry

SERIES = {  # column of `tables.cumulative` -> (legend name, colour, dash)
    "recommended": ("Recommended", "#2563eb", "solid"),
    "all_cloud": ("All cloud", "#f97316", "dash"),
    "all_onprem": ("All on-prem", "#16a34a", "dot"),
    "best_single": ("Best single type", "#9333ea", "dashdot"),
}
CATEGORY_COLOURS = {
    "capex": "#1d4ed8", "residual_value": "#93c5fd", "maintenance": "#0891b2", "energy": "#eab308",
    "colocation": "#a16207", "fixed_onprem": "#78716c", "cloud_reserved": "#c2410c",
    "cloud_on_demand": "#f97316", "cloud_spot": "#fdba74",
}


# The chart's toolbar (plotly's modebar) is drawn over the top right of a chart while the pointer is on it: the title
# starts below it (TOOLBAR_PX), else on a phone the toolbar covered the title. A title stays short; what qualifies it
# (the money's basis, cut bars) is its subtitle, and the axis titles a word or two, which a phone's 380 px keep whole.
TOOLBAR_PX = 30


def _layout(fig: go.Figure, title: str, y_title: str, height: int = 380, subtitle: str | None = None) -> go.Figure:
    top = TOOLBAR_PX + (58 if subtitle else 36)
    fig.update_layout(
        title=dict(text=title, subtitle=dict(text=subtitle or ""), x=0, xanchor="left", xref="container", y=1,
                   yanchor="top", yref="container", pad=dict(t=TOOLBAR_PX, l=10)),
        height=height, margin=dict(l=10, r=10, t=top, b=10),
        # at the chart's bottom edge, under the plot and its axis title wherever they end: placed by the plot's height
        # (y=-0.22) it ran into the axis title once the month labels turned
        legend=dict(orientation="h", xanchor="left", x=0, xref="container", yanchor="bottom", y=0, yref="container",
                    font=dict(size=11)),
        yaxis_title=y_title, hovermode="x unified", template="plotly_white")
    fig.update_xaxes(automargin=True)
    return fig


def month_ticks(horizon: int) -> tuple[list[int], list[str]]:
    """(tick months, their labels) of a month axis 1..horizon+1: at most 7 labelled months, a multiple of 1, 2, 3,
    6, 12 or 24 apart, and `end` (month horizon+1) — the last month's label left out where it would touch `end`
    (`60` and `end` ran into one)."""
    step = next(s for s in (1, 2, 3, 6, 12, 24) if horizon / s <= 7)   # horizons are at most 120 months
    months = list(range(step, horizon + 1, step))
    if months and step > 1 and horizon + 1 - months[-1] < step * 0.6:
        months.pop()
    return months + [horizon + 1], [str(m) for m in months] + ["end"]


def _month_ticks(fig: go.Figure, horizon: int) -> None:
    values, labels = month_ticks(horizon)
    fig.update_xaxes(tickmode="array", tickvals=values, ticktext=labels, tickangle=0, title="month")


def cumulative_chart(cum: pd.DataFrame, currency: str, break_even: int | None, horizon: int | None,
                     names: dict[str, str] | None = None, basis: str = "present value") -> go.Figure:
    """Cumulative present-value cost per plan, with the break-even month marked; `basis` says what its money is in
    the subtitle and the hover ("present value at 8%/year": reports.tables.present_value_basis)."""
    fig = go.Figure()
    for col in cum.columns:
        if col == "month":
            continue
        name, colour, dash = SERIES.get(col, (col, None, "solid"))
        if col not in SERIES:   # plans named by the caller (Compare): A solid blue, B dashed orange, …
            i = list(cum.columns).index(col) - 1
            colour, dash = ("#2563eb", "#f97316", "#16a34a")[i % 3], ("solid", "dash", "dot")[i % 3]
        name = (names or {}).get(col, name)
        fig.add_trace(go.Scatter(x=cum["month"], y=cum[col], name=name, mode="lines",
                                 line=dict(color=colour, dash=dash, width=3 if col == "recommended" else 2),
                                 hovertemplate=f"%{{y:,.0f}} {currency}, {basis}"))
    if break_even is not None:
        label = "end" if break_even > horizon else f"month {break_even}"
        # grey line, dark text on a light box: readable on the light and the dark theme alike
        fig.add_vline(x=break_even, line=dict(color="#6b7280", dash="dot", width=1))
        fig.add_annotation(x=break_even, y=1, yref="paper", showarrow=False, xanchor="left", yanchor="top",
                           text=f"break-even vs all cloud: {label}", font=dict(color="#111827"),
                           bgcolor="rgba(255,255,255,0.85)", bordercolor="#6b7280", borderwidth=1)
    if horizon is not None:
        _month_ticks(fig, horizon)
        end = "end: residual value"
    else:
        fig.update_xaxes(title="month")
        end = "each plan's last point: residual value"
    return _layout(fig, "Cumulative cost", currency, subtitle=f"{basis}; {end}")


def monthly_range(monthly: pd.DataFrame, spike: float = 3.0) -> tuple[float, float] | None:
    """The y range that shows the running costs when a few months (capex in month 1, the residual
    credit at the end) are more than `spike` × the typical month: (low, high), else None (no clipping)."""
    cats = [c for c in COST_CATEGORIES if c in monthly]
    if not cats or len(monthly) < 3:
        return None
    up = monthly[cats].clip(lower=0).sum(axis=1)
    down = monthly[cats].clip(upper=0).sum(axis=1)
    typical_up, typical_down = float(up.median()), float(down.median())
    scale = max(typical_up, -typical_down, 1e-9)
    if up.max() <= spike * scale and -down.min() <= spike * scale:
        return None
    high = max(float(up[up <= spike * scale].max()) if (up <= spike * scale).any() else 0.0, typical_up) * 1.25
    low = min(float(down[down >= -spike * scale].min()) if (down >= -spike * scale).any() else 0.0, 0.0) * 1.25
    return low, max(high, scale)


PHONE_PLOT_PX = 260   # the plot area of a chart on a phone (390 px wide, less the axis labels): the narrowest a label must fit
LABEL_CHAR_PX = 6.5   # one character of a bar label (10 px font)
# Two rows of cut bars' labels, the second under the first: a purchase every few months left most bars unlabelled in
# one row. Both within the fifth of the plot above the running costs' tallest bar (monthly_range's 1.25), about 45 px.
LABEL_ROWS = 2
LABEL_ROW_PX = 16     # from one row of labels to the next
# The chart is drawn once, its labels spaced for a phone's plot: the server does not know the width it is shown at, and
# a version per width (drawn, then shown by a CSS container query on its box) cost about 50 ms more a figure on each
# rerun of the Plan page (industrial.yaml, 2026-12-07); the second row labels five of industrial's nine cut months
# where one row labelled three, and hovering a bar gives any amount.


def spaced_labels(amounts: dict[int, float], horizon: int, text_of, plot_px: float = PHONE_PLOT_PX,
                  rows: int = LABEL_ROWS) -> dict[int, tuple[str, int]]:
    """{month: (label, row)} of the cut bars whose amount fits above them: the largest first, then each in the first of
    `rows` rows of labels (0: the one at the plot's edge) where it keeps clear of the labels placed in that row already,
    on a plot `plot_px` wide for months 1..horizon+1 (a phone's: PHONE_PLOT_PX). On long horizons the amounts of
    neighbouring cut bars ran into one line ("↑352,740 USD ↑88,199 U↑103,675 …"); the others are read on hover."""
    month_px = plot_px / (horizon + 1)
    placed: dict[int, tuple[str, int]] = {}
    for month in sorted(amounts, key=lambda m: -abs(amounts[m])):
        text = text_of(amounts[month])
        half = len(text) * LABEL_CHAR_PX / 2
        row = next((r for r in range(rows) if all(
            abs(month - other) * month_px >= half + len(said) * LABEL_CHAR_PX / 2 + 4
            for other, (said, in_row) in placed.items() if in_row == r)), None)
        if row is not None:
            placed[month] = (text, row)
    return placed


def monthly_chart(monthly: pd.DataFrame, currency: str, horizon: int, plot_px: float = PHONE_PLOT_PX) -> go.Figure:
    """Monthly cost stacked by category (nominal: as paid; the last bar holds the residual value credit and
    payments after the horizon). Months far above the others (the capex of month 1) are cut at the top
    of the running costs' scale and labelled with their amount where the label has room on a plot `plot_px` wide
    (spaced_labels), so the running costs stay readable."""
    fig = go.Figure()
    for cat in COST_CATEGORIES:
        if cat in monthly and (monthly[cat].abs() > 1e-9).any():
            fig.add_trace(go.Bar(x=monthly["month"], y=monthly[cat], name=category_words(cat, short=True),
                                 marker_color=CATEGORY_COLOURS.get(cat),
                                 hovertemplate=f"%{{y:,.0f}} {currency}, nominal"))
    fig.update_layout(barmode="relative")
    _month_ticks(fig, horizon)
    limits = monthly_range(monthly)
    if limits is not None:
        low, high = limits
        fig.update_yaxes(range=[low, high])
        cats = [c for c in COST_CATEGORIES if c in monthly]
        up, down = monthly[cats].clip(lower=0).sum(axis=1), monthly[cats].clip(upper=0).sum(axis=1)
        for sign, y, anchor, sums, cut in (("↑", high, "top", up, lambda a: a > high),
                                           ("↓", low, "bottom", down, lambda a: a < low)):
            amounts = {int(m): float(a) for m, a in zip(monthly["month"], sums) if cut(a)}
            # the arrow says the bar runs off the chart up or down: its amount is said without a sign of its own
            # ("↓ -3,300" said down twice); a credit's hover keeps its sign
            labels = spaced_labels(amounts, horizon, lambda a, s=sign: f"{s} {abs(a):,.0f} {currency}", plot_px)
            for month, (text, row) in labels.items():
                fig.add_annotation(x=month, y=y, yanchor=anchor, showarrow=False, font=dict(size=10, color="#111827"),
                                   bgcolor="rgba(255,255,255,0.85)", text=text,
                                   yshift=row * LABEL_ROW_PX * (-1 if anchor == "top" else 1))
    subtitle = "as paid; end: residual value" + ("; tall bars cut" if limits else "")
    fig = _layout(fig, "Monthly cost by category", f"{currency} per month", height=440, subtitle=subtitle)
    # 80 px of text an entry (the longest short name, "Cloud on demand", at 10 px): two entries a row on a phone,
    # where plotly's own width (the widest entry's, more than half the plot) made one a row
    fig.update_layout(legend=dict(entrywidth=80, font=dict(size=10)))
    return fig


# A purchase month's tag on the cards-in-service chart, 9 px text, on a phone's plot (PHONE_PLOT_PX for its months):
# "buy" is about 15 px wide, a merged tag ("21 buys") about 35. Monthly purchases over 120 months put 120 "buy" tags
# 2 px apart, one grey smear.
BUY_TAG_PX = 20      # the least distance between two "buy" tags: each purchase month has its own
MERGED_TAG_PX = 44   # … else from the first month of a merged tag to the next tag
HOVER_MONTHS = 12    # the purchase months a merged tag's hover lists; the schedule table below lists them all


def buy_tag_groups(months, horizon: int) -> list[list[int]]:
    """The purchase months (any order, repeats allowed) grouped one tag a group, in month order: each month its own
    when every two of them are BUY_TAG_PX apart on a phone's plot of months 1..horizon; else, from the earliest, the
    months less than MERGED_TAG_PX after a group's first month join it (its tag stands on that first month)."""
    month_px = PHONE_PLOT_PX / horizon
    months = sorted({int(m) for m in months})
    if all((later - month) * month_px >= BUY_TAG_PX for month, later in zip(months, months[1:])):
        return [[month] for month in months]
    groups: list[list[int]] = []
    for month in months:
        if groups and (month - groups[-1][0]) * month_px < MERGED_TAG_PX:
            groups[-1].append(month)
        else:
            groups.append([month])
    return groups


def _buy_tag(group: list[int], bought_in: dict[int, str]) -> tuple[str, str]:
    """(text, hover text) of the tag of `group` (buy_tag_groups'); `bought_in`: month -> "2 × rtx-4090, …"."""
    lines = [f"month {month}: buy {bought_in[month]}" for month in group[:HOVER_MONTHS]]
    if len(group) == 1:
        return "buy", lines[0]
    more = len(group) - HOVER_MONTHS
    tail = [f"… {more} more: the purchase schedule below"] if more > 0 else []
    return f"{len(group)} buys", "<br>".join([f"months {group[0]} to {group[-1]}: {len(group)} purchase months",
                                              *lines, *tail])


def installed_chart(installed: pd.DataFrame, schedule: pd.DataFrame, horizon: int) -> go.Figure:
    """Cards in service each month, stacked by card, with the months cards are bought marked: the
    purchase schedule as a picture (vintages added, owned cards sold, retirements at end of life). Each purchase
    month has its dotted line; their tags are merged where they would overlap on a phone (buy_tag_groups)."""
    fig = go.Figure()
    palette = ("#2563eb", "#16a34a", "#f97316", "#9333ea", "#0891b2", "#eab308", "#dc2626", "#78716c")
    for i, (card, g) in enumerate(installed.groupby("card", sort=True)):
        fig.add_trace(go.Scatter(x=g["month"], y=g["units"], name=card, mode="lines", stackgroup="cards",
                                 line=dict(shape="hv", width=1.5, color=palette[i % len(palette)]),
                                 hovertemplate="%{y:g} in service<extra>" + card + "</extra>"))
    bought = schedule[schedule["action"] == "buy"] if len(schedule) else schedule
    bought_in = {int(month): ", ".join(f"{u:g} × {c}" for c, u in zip(g["card"], g["units"]))
                 for month, g in (bought.groupby("month") if len(bought) else ())}
    for month in bought_in:
        fig.add_vline(x=month, line=dict(color="#9ca3af", dash="dot", width=1))
    for group in buy_tag_groups(bought_in, horizon):
        text, hover = _buy_tag(group, bought_in)
        fig.add_annotation(x=group[0], y=1, yref="paper", showarrow=False, yanchor="bottom", text=text,
                           hovertext=hover, font=dict(size=9, color="#6b7280"))
    _month_ticks(fig, horizon)
    fig.update_xaxes(range=[0.5, horizon + 0.5], title="month")
    fig.update_yaxes(rangemode="tozero")
    return _layout(fig, "Cards in service by month", "cards in service", height=340, subtitle="dotted: purchases")


def utilisation_chart(util: pd.DataFrame, availability: float) -> go.Figure:
    """Busy share of the owned hours of each owned card type, against the site's availability."""
    labels = [f"{r.card} × {r.units:g}" for r in util.itertuples()]
    fig = go.Figure(go.Bar(x=labels, y=util["utilisation"] * 100, marker_color="#2563eb",
                           text=[f"{u:.0%}" for u in util["utilisation"]], textposition="outside",
                           hovertemplate="%{y:.1f}% busy<extra></extra>"))
    fig.add_hline(y=availability * 100, line=dict(color="#dc2626", dash="dash"),
                  annotation_text=f"availability {availability:.0%}", annotation_position="top left")
    fig.update_yaxes(range=[0, 105], title="% of owned hours busy")
    return _layout(fig, "Utilisation of owned cards", "% of owned hours busy", height=320)


def _price_date(as_of) -> str:
    """When an offer's price was read, for its hover: "as of 2026-07-20", or "undated" where its source gives no date
    (an empty `as_of`: the packaged spot prices; it read "as of " with nothing after it)."""
    shown = "" if as_of is None or pd.isna(as_of) else str(as_of).strip()
    return f"as of {shown}" if shown else "undated"


def offers_chart(view: pd.DataFrame, per_reference: str | None = None) -> go.Figure:
    """USD per GPU-hour of each offer by GPU — or, with `per_reference` (a reference GPU), USD per hour
    of that GPU's work (`usd_per_reference_gpu_hour`) — coloured by provider, shaped by purchase option."""
    column = "usd_per_reference_gpu_hour" if per_reference else "usd_per_gpu_hour"
    unit = f"USD per {per_reference}-hour of work" if per_reference else "USD per GPU-hour"
    v = view.dropna(subset=[column])
    order = (v.groupby("gpu")[column].min().sort_values().index.tolist())
    symbols = {"on_demand": "circle", "spot": "diamond", "reserved_1y": "square", "reserved_3y": "square-open",
               "savings_plan_1y": "triangle-up", "savings_plan_3y": "triangle-up-open", "purchase": "star"}
    colours = {p.name: p.colour for p in registry.providers()}
    fig = go.Figure()
    for (provider, option), g in v.groupby(["provider", "purchase_option"], sort=True):
        fig.add_trace(go.Scatter(
            x=g["gpu"], y=g[column], mode="markers", name=f"{provider} {option}",
            marker=dict(color=colours.get(provider), symbol=symbols.get(option, "circle"), size=8, opacity=0.75),
            customdata=g[["sku", "region"]].astype(str).assign(dated=g["as_of"].map(_price_date)).to_numpy(),
            hovertemplate="%{customdata[0]} (%{customdata[1]})<br>%{y:.3f} " + unit + "<br>%{customdata[2]}"
                          "<extra></extra>"))
    fig.update_xaxes(categoryorder="array", categoryarray=order)
    ticks = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200]
    fig.update_yaxes(type="log", tickvals=ticks, ticktext=[f"{t:g}" for t in ticks])
    # the axis short (a phone's chart cut "USD per A100-80GB-PCIE-hour of work"), the subtitle whole
    fig = _layout(fig, "Prices by GPU", "USD per hour of work" if per_reference else unit, height=420,
                  subtitle=f"{unit}, log scale")
    fig.update_layout(hovermode="closest")
    return fig
