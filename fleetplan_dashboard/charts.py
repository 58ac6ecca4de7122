"""Plotly figures of the dashboard, built from Plan tables (no cost arithmetic here)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from fleetplan_dashboard.tables import category_words
from planner.engine.schedule import COST_CATEGORIES
from pricing_adapters import registry

SERIES = {  # column of `tables.cumulative` -> (legend name, colour, dash)
    "recommended": ("Recommended (hybrid)", "#2563eb", "solid"),
    "all_cloud": ("All cloud", "#f97316", "dash"),
    "all_onprem": ("All on-prem", "#16a34a", "dot"),
    "best_single": ("Best single type", "#9333ea", "dashdot"),
}
CATEGORY_COLOURS = {
    "capex": "#1d4ed8", "residual_value": "#93c5fd", "maintenance": "#0891b2", "energy": "#eab308",
    "colocation": "#a16207", "fixed_onprem": "#78716c", "cloud_reserved": "#c2410c",
    "cloud_on_demand": "#f97316", "cloud_spot": "#fdba74",
}


def _layout(fig: go.Figure, title: str, y_title: str, height: int = 380) -> go.Figure:
    fig.update_layout(title=title, height=height, margin=dict(l=10, r=10, t=50, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.22, xanchor="left", x=0),
                      yaxis_title=y_title, hovermode="x unified", template="plotly_white")
    return fig


def _month_ticks(fig: go.Figure, horizon: int) -> None:
    step = 1 if horizon <= 12 else (3 if horizon <= 36 else (6 if horizon <= 72 else 12))
    vals = list(range(step, horizon + 1, step)) + [horizon + 1]
    fig.update_xaxes(tickmode="array", tickvals=vals,
                     ticktext=[str(v) for v in vals[:-1]] + ["end"], title="month (end: residual value)")


def cumulative_chart(cum: pd.DataFrame, currency: str, break_even: int | None, horizon: int | None,
                     names: dict[str, str] | None = None, basis: str = "present value") -> go.Figure:
    """Cumulative present-value cost per plan, with the break-even month marked; `basis` says what its money is in
    the axis title and the hover ("present value at 8%/year": reports.tables.present_value_basis)."""
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
    else:
        fig.update_xaxes(title="month (each plan's last point: residual value)")
    return _layout(fig, "Cumulative cost", f"{currency}, {basis}")


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


def monthly_chart(monthly: pd.DataFrame, currency: str, horizon: int) -> go.Figure:
    """Monthly cost stacked by category (nominal: as paid; the last bar holds the residual value credit and
    payments after the horizon). Months far above the others (the capex of month 1) are cut at the top
    of the running costs' scale and labelled with their amount, so the running costs stay readable."""
    fig = go.Figure()
    for cat in COST_CATEGORIES:
        if cat in monthly and (monthly[cat].abs() > 1e-9).any():
            fig.add_trace(go.Bar(x=monthly["month"], y=monthly[cat], name=category_words(cat),
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
        for month, amount in zip(monthly["month"], up):
            if amount > high:
                fig.add_annotation(x=month, y=high, yanchor="top", showarrow=False, font=dict(size=10, color="#111827"),
                                   bgcolor="rgba(255,255,255,0.85)", text=f"↑ {amount:,.0f} {currency}")
        for month, amount in zip(monthly["month"], down):
            if amount < low:
                fig.add_annotation(x=month, y=low, yanchor="bottom", showarrow=False, font=dict(size=10, color="#111827"),
                                   bgcolor="rgba(255,255,255,0.85)", text=f"↓ {amount:,.0f} {currency}")
    title = "Monthly cost by category" + (" (tall bars cut, amount shown)" if limits else "")
    return _layout(fig, title, f"{currency} per month, nominal: as paid")


def installed_chart(installed: pd.DataFrame, schedule: pd.DataFrame, horizon: int) -> go.Figure:
    """Cards in service each month, stacked by card, with the months cards are bought marked: the
    purchase schedule as a picture (vintages added, owned cards sold, retirements at end of life)."""
    fig = go.Figure()
    palette = ("#2563eb", "#16a34a", "#f97316", "#9333ea", "#0891b2", "#eab308", "#dc2626", "#78716c")
    for i, (card, g) in enumerate(installed.groupby("card", sort=True)):
        fig.add_trace(go.Scatter(x=g["month"], y=g["units"], name=card, mode="lines", stackgroup="cards",
                                 line=dict(shape="hv", width=1.5, color=palette[i % len(palette)]),
                                 hovertemplate="%{y:g} in service<extra>" + card + "</extra>"))
    bought = schedule[schedule["action"] == "buy"] if len(schedule) else schedule
    for month, g in bought.groupby("month") if len(bought) else ():
        text = ", ".join(f"{u:g} × {c}" for c, u in zip(g["card"], g["units"]))
        fig.add_vline(x=month, line=dict(color="#9ca3af", dash="dot", width=1))
        fig.add_annotation(x=month, y=1, yref="paper", showarrow=False, yanchor="bottom", text="buy",
                           hovertext=f"month {month}: buy {text}", font=dict(size=9, color="#6b7280"))
    _month_ticks(fig, horizon)
    fig.update_xaxes(range=[0.5, horizon + 0.5], title="month")
    fig.update_yaxes(rangemode="tozero")
    return _layout(fig, "Cards in service by month (dotted: purchases)", "cards in service", height=340)


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
    fig = _layout(fig, f"{unit} by GPU (log scale)", unit, height=420)
    fig.update_layout(hovermode="closest")
    return fig
