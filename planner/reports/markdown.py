"""A one-page Markdown summary of a plan for a planning review."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from planner._version import __version__
from planner.engine import Plan
from planner.engine.result import held
from planner.reports.tables import (
    BOUND_UNKNOWN,
    BREAK_EVEN_NEVER,
    as_written,
    baselines_grouped,
    card_quotes,
    check_export_path,
    excluded_by_rule,
    fx_words,
    gap_text,
    generated_at,
    grouping_line,
    maybe_write,
    never_breaks_even,
    owned_end_value_words,
    present_money,
    present_value_basis,
    price_dates,
    price_source_text,
    prices_used,
    require_plan,
    share_text,
    site_cost_note,
    start_month,
    written_prices,
)
from planner.reports.yearly import calendar_span, yearly_note, yearly_view
from planner.text import counted, number_text, offer_words, visible
from pricing_adapters.shown import days_old

# The signs that start inline markup anywhere in a line: an image, a link, an autolink, HTML, a code span, a
# table cell, emphasis, a strikethrough or code fence (~), a character reference (&amp;). Backslash-escaped
# (CommonMark allows it before any ASCII punctuation), so a scenario's names and description are shown as
# typed and a viewer of the file fetches no image from them. `_` only at a word's edge: inside a word
# (gpu_hours_per_month) it never starts emphasis, and the paths of the assumptions stay readable.
_ACTIVE = re.compile(r"[\\`!\[\]<>|*~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|&(?=#?\w+;)")
# The signs that open a block only at the start of a line: a heading (#), a list item (- +, or 1. 1) before a
# space), a thematic break (-) or a setext underline (= -); the others (> < ` ~ * _ |) are `_ACTIVE` everywhere.
_BLOCK_START = re.compile(r"[#+=-]|\d{1,9}[.)](?=[ \t]|$)")
# A line break would end a table row or start a heading; Markdown shows one inside a paragraph as a space.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _text(value) -> str:
    """`value` as one line of Markdown text that renders as typed: line breaks as spaces, other control
    characters as \\xNN (`visible`), `_ACTIVE` signs backslash-escaped."""
    return _ACTIVE.sub(lambda sign: "\\" + sign[0], visible(_LINE_BREAK.sub(" ", str(value))))


def _paragraph(value) -> str:
    """`value` as a paragraph of its own that renders as typed (`_text`, so one line): its first sign
    escaped when it would open a block, and the spaces and tabs around it dropped (a paragraph shows none,
    and four spaces or a tab before it would make it a code block)."""
    text = _text(value).strip(" \t")
    start = _BLOCK_START.match(text)
    return text if start is None else text[:start.end() - 1] + "\\" + text[start.end() - 1:]


def _heading(value) -> str:
    """`value` as the text of an ATX heading that renders as typed (`_text`): a `#` at its end escaped,
    since Markdown would drop it as the heading's closing sequence ("# Fleet #" reads "Fleet")."""
    return re.sub(r"#(?=[ \t]*$)", r"\\#", _text(value))


def _md_table(df: pd.DataFrame, digits: int = 0, right: tuple[str, ...] = ()) -> str:
    """`df` as a Markdown table, floats to `digits` decimals; numeric columns, and those named in `right` (numbers
    with a word among them: "never"), right-aligned."""
    def fmt(v):
        if isinstance(v, (float, np.floating)):
            # inf (a card that never breaks even) blank, as JSON's null and the workbook's blank cell
            return "" if not math.isfinite(v) else f"{round(v, digits) + 0.0:,.{digits}f}"   # never "-0"
        return _text(v)
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "| " + " | ".join("---:" if pd.api.types.is_numeric_dtype(df[c]) or c in right else "---"
                            for c in df.columns) + " |"
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])


def _share(pct: float) -> str:
    """", 4.2%" of a baseline's saving, or nothing where it has none (a baseline total of 0 or less: "nan%" before)."""
    return f", {round(pct, 1) + 0.0:.1f}%" if pct == pct else ""


def _number(value) -> str:
    """An assumption's value as the scenario sets it, with thousands separators and no trailing ".0"
    (60,000, 0.12, 400), as the CLI's cap costs show a limit; blank for None (not set)."""
    if value is None:
        return ""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return f"{value:,.10g}"
    return _text(value)


def percent_text(pct: float | None) -> str:
    """A share of the plan's total as the CLI's runner-up lines and this summary's verdict both show it: one decimal
    from 1 % ("2.4 %"), two significant digits under it ("0.056 %", "0.58 %", "0.0045 %": a close call of 38 EUR
    in 68,559 read "0.1 %" in the CLI and "0.06%" here), "0 %"; "n/a" where there is none (a plan total of 0)."""
    if pct is None or not math.isfinite(pct):
        return "n/a"
    small = float(f"{pct:.2g}")
    if abs(small) < 1:
        return f"{np.format_float_positional(small + 0.0, trim='-')} %"
    return f"{round(pct, 1) + 0.0:.1f} %"


def _verdict(plan: Plan) -> str:
    """The runner-up's line (engine.add_decisions): a close call or firm, with the runner-up's total and how
    much more it costs; why there is none; empty when the decisions were not made (close_call None)."""
    runner = plan.runner_up
    if plan.close_call is None or runner is None:
        return ""
    from planner.engine.decisions import runner_up_verdict  # here: a summary without decisions never loads them

    cur = plan.currency
    verdict, unproven = runner_up_verdict(runner, plan)
    if verdict == "none":
        return f"No runner-up: {_text(runner.get('note') or runner.get('status') or 'none found')}."
    share = f"{100 * float(runner.get('close_call_share') or 0):g}%"
    changes = _text("; ".join(runner.get("differences") or []))
    pct = runner.get("increase_pct")
    # below the plan only where the plan's own solve stopped unproven (engine.decisions.cheaper_found warns)
    more = "less" if runner["increase"] < 0 else "more"
    costs = (f"the runner-up fleet ({changes}) costs {runner['total']:,.0f} {cur}, "
             f"{abs(runner['increase']):,.0f} {cur} ({percent_text(None if pct is None else abs(pct))}) {more}")
    if verdict == "not_best":   # the plan's own solve stopped unproven: neither a close call nor firm
        return (f"**Not the best plan:** {costs} than this plan, whose own solve stopped before it proved the least "
                "cost; plan with more time (a longer `--time-limit`, or none).")
    line = (f"**Close call:** {costs}: within the close-call threshold of {share} (`close_call_share`); "
            "weigh both fleets." if verdict == "close_call" else f"Firm: {costs}; a close call is within {share}.")
    return line + {"plan": " Not proven best: the plan's own solve stopped before it proved the least cost.",
                   "runner_up": " Not proven best: its solve stopped at the time limit, so a cheaper runner-up may exist.",
                   None: ""}[unproven]


# the CLI's titles of its decision values and flip points tables (cli.commands._print_decisions), said the same here
DECISIONS_TITLE = "What each decision is worth ({money}): the total when it is forbidden, and the increase"
FLIPS_TITLE = "Flip points: the demand of the workload a card mainly serves just below which the plan holds fewer of it"


def _pct_cells(pcts, statuses) -> list[str]:
    """A column of percentages of the plan's total as the CLI's tables show them: one decimal, two significant digits
    under 0.05 % but not 0 (share_text), "n/a" for a solved row without one (a plan total of 0), blank unsolved."""
    out = []
    for pct, status in zip(pcts, statuses):
        if pct is None or pct != pct:
            out.append("n/a" if status in ("optimal", "feasible") else "")
        else:
            out.append(share_text(pct, 1))
    return out


def _without_empty_note(table: pd.DataFrame) -> pd.DataFrame:
    """`table` without its note column where no row has a note (an empty column says nothing)."""
    if "note" in table.columns and not table["note"].fillna("").astype(str).str.strip().any():
        return table.drop(columns=["note"])
    return table


def _decision_sections(plan: Plan) -> list[str]:
    """What each decision is worth and the flip points (engine.add_decisions), as the CLI's tables show them (their
    titles, their columns but the GPU and the solves, a note column only where some row has one); none where the
    decisions were not computed or the plan has none."""
    lines = []
    decisions, flips = getattr(plan, "decisions", None), getattr(plan, "flip_points", None)
    if decisions is not None and len(decisions):
        table = decisions.drop(columns=["gpu"], errors="ignore")
        table = table.assign(increase_pct=_pct_cells(table["increase_pct"], table["status"]))
        table = _without_empty_note(table)
        lines += [f"## {DECISIONS_TITLE.format(money=present_money(plan))}", "",
                  _md_table(table, digits=1, right=("increase_pct",)), ""]
    if flips is not None and len(flips):
        table = flips.drop(columns=["gpu", "solves"], errors="ignore")
        # a share, as the JSON names it; one that three decimals show as 0 with two significant digits
        # the figures to three decimals without trailing zeros, as the CLI's table (800, 94.597, 0.09); a share that
        # three decimals show as 0 with two significant digits
        figures = {c: [number_text(v, 3) if v == v else "" for v in table[c]]
                   for c in ("demand_today", "flip_demand", "precision_pct") if c in table.columns}
        table = table.assign(**figures, flip_share_of_today=[share_text(v, 3).rstrip("0").rstrip(".") if v == v else ""
                                                             for v in table["flip_share_of_today"]])
        table = _without_empty_note(table)
        lines += [f"## {FLIPS_TITLE}", "", _md_table(table, right=(*figures, "flip_share_of_today")), ""]
    return lines


def _baseline_rows(plan: Plan) -> pd.DataFrame:
    """The baselines table in the JSON's and the CLI's column order: savings_pct with one decimal, as the CLI's; on a
    grouped profile (`baselines_grouped`, even where no bound is known) each one's error_bound and error_bound_pct
    (two decimals, as the CLI's line and the warning give it: 0.47 read as 0), "unknown" where its bound solve gave
    none; the notes where any baseline has one (why none, or why cheaper)."""
    table = held(plan, "baselines")
    columns = ["baseline", "label", "status", "total", "savings", "savings_pct"]
    table = table.assign(savings_pct=[f"{round(v, 1) + 0.0:.1f}" if v == v else "" for v in table["savings_pct"]])
    if baselines_grouped(plan):
        columns += ["error_bound", "error_bound_pct"]
        known = table["total"].notna()   # a baseline without a total has no bound to know

        def shown(values, fmt):
            return [fmt.format(v) if v == v else BOUND_UNKNOWN if has else "" for v, has in zip(values, known)]

        table = table.assign(error_bound=shown(table["error_bound"], "{:,.0f}"),
                             error_bound_pct=shown(table["error_bound_pct"], "{:.2f}"))
    columns += ["note"] if (table["note"] != "").any() else []
    return table[columns]


def _fleet_columns(plan: Plan) -> list[str]:
    """The fleet's columns the summary shows; where the scenario owns cards, also how many it owns, sells and
    switches off, as the CLI's fleet table: without them a card sold reads 0 units at a negative cost, unexplained."""
    counts = ["units", "new_units"]
    if len(held(plan, "owned")):
        counts = ["units", "existing_units", "new_units", "sold_units", "switched_off_units"]
    return ["provider", "region", "sku", "gpu", "purchase_option", *counts, "instance_hours", "cost"]


def _schedule_by_card(schedule: pd.DataFrame) -> pd.DataFrame:
    """The purchase schedule (engine.readback.purchase_schedule) in one row per card and action (buy, sell,
    switch off, retire, end value), in the order they first happen: its units, in how many months, the first and last
    month, and the amount (nominal, credits negative). It fits a page: industrial.yaml's 88 cards, bought in
    15 months of the full schedule, are one row."""
    by_card = schedule.groupby(["card", "gpu", "action"], sort=False)
    return by_card.agg(units=("units", "sum"), months=("month", "nunique"), first_month=("month", "min"),
                       last_month=("month", "max"), amount=("amount", "sum")).reset_index()


# ---------------------------------------------------------------------------------------------------
# What the plan rests on: the scenario's assumptions, its workloads, the prices and speeds used (all read from
# the Plan: its scenario, prices, offers and speeds; never the catalog or a price source again)


# What the note of a scenario changed from the one given says of its name and description (a "3-year view" may now
# plan 48 months): one source for the dashboard's (fleetplan_dashboard.state: a download's first comment, its summary's
# note) and the note of a plan made with overrides (`OVERRIDES_NOTE`)
FILE_OWN = "the name and description are the file's own and may not describe the edits"
# who changed the scenario of a plan made with overrides (Plan.overrides_changed), and from what: plan()'s overrides,
# or `fleetplan plan --profile-slots`, which plans with one
OVERRIDES_NOTE = ("Changed with overrides", "the scenario given")


@dataclass(frozen=True)
class Edited:
    """How the scenario planned differs from its file, for the summary of a plan made from an edited one (the
    dashboard's edits, or a plan's overrides: `Edited.of`): `said`, the caller's words of who edited it and from which
    file, and `changes`, (field path, the file's value, the value planned) of each field changed, as text."""

    said: str
    changes: tuple[tuple[str, str, str], ...]

    @classmethod
    def of(cls, how: str, given: str, changes: Iterable[tuple[str, Any, Any]]) -> Edited:
        """The note of a scenario changed `how` ("Edited in the dashboard from startup-hybrid.yaml") from `given`
        ("the file"): that its name and description are the file's (FILE_OWN), and each of `changes` (path, the value
        given, the value planned: scenario.diff_inputs' rows) as the Compare page's "Inputs that differ" says them
        (reports.compare.input_text)."""
        # imported here: a summary without a note needs none of a comparison's code
        from planner.reports.compare import input_text

        return cls(f"{how}: {FILE_OWN}. Changed from {given}:",
                   tuple((path, input_text(path, old), input_text(path, new)) for path, old, new in changes))


def plan_edits(plan: Plan) -> Edited | None:
    """The note of what `plan`'s overrides changed of the scenario given (Plan.overrides_changed); None where it was
    made with none, or with none that changed a value (a plan pickled before plans kept them too)."""
    changes = getattr(plan, "overrides_changed", ())
    return Edited.of(*OVERRIDES_NOTE, changes) if changes else None


def _edited_note(edited: Edited | None) -> list[str]:
    """The lines that say the scenario was edited from its file and each field changed, "horizon_months: 36 → 48"
    (as typed: `_text`); none where it was not."""
    if edited is None:
        return []
    return [f"**{_text(edited.said).strip()}**", "",
            *[f"- {_text(path)}: {_text(old)} → {_text(new)}" for path, old, new in edited.changes], ""]


def _header(plan: Plan) -> str:
    """The line under the title: the planner's version, when the plan was made (UTC) and where its prices came from
    (the packaged snapshot, the store's snapshots by number and fetch time, or an offers CSV)."""
    return (f"Planned with fleetplan {__version__} at {generated_at(plan)} (UTC), "
            f"prices from {_price_provenance(plan)}.")


def _age(snapshot: dict) -> str:
    """", 339 days old": a store snapshot's age in calendar days, as the command line says it (shown.days_old); "" where
    its time is not readable."""
    try:
        return f", {days_old(snapshot['fetched_at'])}"
    except (KeyError, TypeError, ValueError):
        return ""


def _price_provenance(plan: Plan) -> str:
    """Where the prices came from, for the header line: "the packaged price snapshot", "the price store: azure snapshot
    #1 (eastus) fetched 2026-12-06T10:00:00+00:00, 0.0 days old" ("the price store as it stood when snapshot #1 was
    saved (pinned: prices.snapshot): …" where the scenario pins one), "the offers CSV x.csv" (as its scenario file
    wrote it: `as_written`); and the source the scenario asked for where another served (the Warnings say why)."""
    prices = written_prices(plan)
    source = prices.get("source")
    if source == "snapshot":
        text = "the packaged price snapshot"
    elif source == "store":
        snaps = [f"{s.get('provider')} snapshot #{s.get('id')} ({', '.join(s.get('regions') or [])}) fetched "
                 f"{s.get('fetched_at')}" + _age(s)
                 for s in prices.get("snapshots") or []]
        pinned = prices.get("pinned_snapshot")
        text = "the price store" + ("" if pinned is None else
                                    f" as it stood when snapshot #{pinned} was saved (pinned: prices.snapshot)")
        text += ": " + "; ".join(snaps) if snaps else ""
    else:
        text = f"the offers CSV {source}"
    asked = prices.get("requested_source")
    return _text(text + (f" (the scenario asked for {asked}; see the warnings)" if asked and asked != source else ""))


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _units_by_card(units: dict) -> str:
    return ", ".join(f"{card} {_number(n)}" for card, n in units.items())


def _scenario_assumptions(plan: Plan) -> pd.DataFrame:
    """assumption (the scenario's path, as an override names it), value (with its unit): money, prices (an offers CSV
    as the scenario file wrote it, `as_written`; a pinned store snapshot), the site and its cards, the caps. Caps and
    site costs not set are one row, "not set"."""
    s, cur = plan.scenario, plan.currency
    o, c = s.onprem, s.constraints
    rate = f"{_number(s.discount_rate)} per year" + (" (undiscounted)" if s.discount_rate == 0 else "")
    rows = [("currency", cur), ("horizon_months", counted(s.horizon_months, "month")), ("discount_rate", rate)]
    if s.fx:   # a rate for the scenario's own currency is ignored (the plan warns)
        rows.append(("fx", fx_words(plan)))
    p = s.prices
    rows.append(("prices.source", as_written(plan, p.source)))   # snapshot and store as they are
    if p.snapshot is not None:   # the store as it stood then: what makes the plan reproducible
        rows.append(("prices.snapshot", f"#{p.snapshot} (pinned)"))
    rows += [("prices.providers", ", ".join(p.providers)),
             ("prices.regions", ", ".join(p.regions) if p.regions is not None else "all of the providers'"),
             ("prices.purchase_options", ", ".join(p.purchase_options)),
             ("onprem.cards", ", ".join(o.cards) or "none")]
    if o.existing:
        rows.append(("onprem.existing", ", ".join(f"{card} {_number(e.count)} ({counted(e.age_months, 'month')} old)"
                                                  for card, e in o.existing.items())))
    resale = ("none (worth nothing)" if o.resale.method == "none"
              else f"{o.resale.method}, {_number(o.resale.share_of_book)} × book value")
    rows += [("onprem.electricity_per_kwh", f"{_number(o.electricity_per_kwh)} {cur}/kWh"), ("onprem.pue", _number(o.pue)),
             ("onprem.availability", f"{_number(o.availability)} of the 730 h of a month"),
             ("onprem.purchase_every_months", counted(o.purchase_every_months, "month")), ("onprem.resale", resale)]
    if o.existing:   # what owned cards may do matters only where there are some
        rows += [("onprem.sell_owned", _yes(o.sell_owned)), ("onprem.switch_off_owned", _yes(o.switch_off_owned)),
                 ("onprem.maintenance_when_off", _yes(o.maintenance_when_off))]
    limits = [("onprem.colocation_per_kw_month", o.colocation_per_kw_month or None, f"{cur} per kW and month"),
              ("onprem.fixed_onprem_per_month", o.fixed_onprem_per_month or None, f"{cur} a month"),
              ("onprem.power_cap_kw", o.power_cap_kw, "kW"), ("onprem.capex_budget", o.capex_budget, cur),
              ("onprem.capex_budget_per_year", o.capex_budget_per_year, f"{cur} each plan year"),
              ("constraints.max_cloud_share", c.max_cloud_share, "of the work delivered")]
    rows += [(path, f"{_number(value)} {unit}") for path, value, unit in limits if value is not None]
    rows += [(f"constraints.{name}", _units_by_card(units)) for name, units in
             (("min_units", c.min_units), ("max_units", c.max_units)) if units]
    if s.profile_slots is not None:
        rows.append(("profile_slots", _number(s.profile_slots)))
    unset = [path for path, value, _ in limits if value is None]
    if unset:
        rows.append(("not set (no cost, no cap)", ", ".join(unset)))
    return pd.DataFrame(rows, columns=["assumption", "value"])


# the unit each demand field is stated in
_DEMAND_UNITS = {"gpu_hours_per_month": "reference-GPU-hours a month", "reference_gpus": "reference GPUs",
                 "requests_per_second": "requests/s"}


def _speeds_from(w) -> str:
    """How a workload's GPUs compare: its throughput_metric, and its own throughput table where it gives one."""
    if not w.throughput:
        return w.throughput_metric
    table = ", ".join(f"{gpu} {_number(v)}" for gpu, v in w.throughput.items())
    if w.throughput_unit == "requests_per_second":
        return f"throughput (requests/s per GPU): {table}"
    return f"{w.throughput_metric}; throughput: {table}"


def _workload_rows(plan: Plan) -> pd.DataFrame:
    """One row per workload: its demand in month 1 (and unit), growth, reference GPU, the GPUs it can use
    (min_gpu_memory_gb, gpus_per_job, and the other requirements it states), profile (a CSV as the scenario file
    wrote it, `as_written`), spot use and speeds."""
    s, rows = plan.scenario, []
    for w in s.workloads:
        other = [f"min_compute_capability {_number(w.min_compute_capability)}" if w.min_compute_capability else "",
                 f"framework {w.framework}" if w.framework else "", "serving" if w.serving else "",
                 f"placement {w.placement}" if w.placement != "split" else ""]
        spot = f"yes, overhead {_number(w.interruption_overhead)}" if w.interruptible else "no"
        rows.append((w.name, f"{_number(w.demand_amount)} {_DEMAND_UNITS[w.demand_field]}", _number(w.growth_per_month),
                     w.reference_gpu, _number(w.min_gpu_memory_gb), str(w.gpus_per_job),
                     as_written(plan, w.profile, f"workloads.{w.name}.profile"), spot,
                     _speeds_from(w), ", ".join(x for x in other if x)))
    return pd.DataFrame(rows, columns=["workload", "demand (month 1)", "growth_per_month", "reference_gpu",
                                       "min_gpu_memory_gb", "gpus_per_job", "profile", "interruptible",
                                       "speeds from", "also"])


def _amount(value) -> str:
    """A unit price: thousands separators, up to four decimals, no trailing zeros (55.04, 16,500, 3.3792); blank for
    NaN."""
    if value is None or value != value:
        return ""
    return number_text(value, 4)


def _quoted_text(q, cur: str) -> str:
    """A card's price and host share as the scenario quotes them (a row of card_quotes or prices_used), with the fx
    rate applied: "2,500 + host 500 CNY at 0.13 EUR per CNY"; "" where the quote gives neither."""
    parts = [f"{_amount(q.quoted_price)}" if q.quoted_price == q.quoted_price else "",
             f"host {_amount(q.quoted_host_cost_per_card)}" if q.quoted_host_cost_per_card == q.quoted_host_cost_per_card else ""]
    amounts = " + ".join(p for p in parts if p)
    if not amounts:
        return ""
    if q.quoted_currency == cur:
        return f"{amounts} {cur}"
    return f"{amounts} {q.quoted_currency} at {_number(q.fx_rate)} {cur} per {q.quoted_currency}"


def _price_text(row, cur: str) -> str:
    """What one unit costs as the plan used it, in the scenario currency."""
    if row.provider == "onprem":
        return f"{_amount(row.capex_per_unit)} per card with its host share"
    text = f"{_amount(row.hourly_price)} per hour"
    if pd.notna(row.upfront_price) and row.upfront_price:
        text += f" + {_amount(row.upfront_price)} upfront"
    if pd.notna(row.term_months) and row.term_months:   # NA (Int64) where a unit has no term
        text += f", {int(row.term_months)}-month term"
    return text


def _prices_used_rows(plan: Plan) -> pd.DataFrame:
    """One row per unit of the fleet: its price in the scenario currency; for a card the scenario quotes, the quote
    in its own currency with the fx rate; for a card its watts, life and maintenance; as_of and source."""
    cur = plan.currency
    rows = []
    for r in prices_used(plan).itertuples(index=False):
        card = r.provider == "onprem"
        quoted = _quoted_text(r, cur) if card else ""
        facts = (f"{_number(r.busy_watts)} W busy, {_number(r.idle_watts)} W idle, {_number(r.life_years)}-year life, "
                 f"maintenance {_number(r.maintenance_rate_per_year)} a year" if card else "")
        where = "onprem" if card else f"{r.provider} {r.region}"
        dated = r.as_of if isinstance(r.as_of, str) and r.as_of.strip() else "undated"
        rows.append((r.sku, r.gpu, where, r.purchase_option, _price_text(r, cur), quoted, facts, dated, r.source))
    table = pd.DataFrame(rows, columns=["unit", "gpu", "where", "purchase_option", f"price ({cur})", "as quoted",
                                        "card figures", "as_of", "source"])
    return table if (table["as quoted"] != "").any() else table.drop(columns=["as quoted"])


def _quotes_rows(plan: Plan) -> pd.DataFrame:
    """The cards the scenario prices or describes itself (card_overrides, custom_cards), used or not: the quote in its
    own currency with the fx rate applied, its date (a custom card has no as_of field), source and other figures."""
    rows = []
    for q in card_quotes(plan).itertuples(index=False):
        quoted = _quoted_text(q, plan.currency)
        # (a cell the scenario leaves out is None or NaN, as pandas keeps it)
        dated = (q.as_of if isinstance(q.as_of, str) else "" if not quoted
                 else "undated" if q.quote == "override" else "undated (no as_of field)")
        rows.append((q.card, q.quote, quoted, dated, q.source if isinstance(q.source, str) else "no source given", q.other))
    return pd.DataFrame(rows, columns=["card", "quote", "price as quoted", "as_of", "source", "figures given"])


def _speed_rows(plan: Plan) -> pd.DataFrame:
    """The plan's speeds table (workload × GPU: relative speed, where it comes from, which plan uses it), the scaling
    efficiency shown where a job spans more than one GPU."""
    sp = held(plan, "speeds")
    if not len(sp):
        return sp
    columns = ["workload", "gpu", "relative_speed", "source", "detail", "used_by"]
    if "gpus_per_job" in sp.columns and (sp["gpus_per_job"] > 1).any():
        columns[3:3] = ["gpus_per_job", "scaling_efficiency"]
    out = sp[[c for c in columns if c in sp.columns]].copy()
    out["relative_speed"] = [f"{v:.4g}" for v in out["relative_speed"]]
    if "scaling_efficiency" in out.columns:
        out["scaling_efficiency"] = [f"{v:.3g}" for v in out["scaling_efficiency"]]
    return out


def plan_to_markdown(plan: Plan, path: str | Path | None = None, start: str | date | None = None,
                     edited: Edited | None = None) -> str:
    """A one-page summary for a planning review: headline (total, the bound of a grouped profile, the
    runner-up: close call or firm), baselines, warnings, fleet (with the owned cards' existing, sold and
    switched-off units), the purchase schedule by card (nominal), the cards already owned, cost by category, the
    money by plan year (paid, nominal, and present value), break-even, then what the plan rests on: the scenario's
    assumptions, its workloads, the cards it quotes, the prices and speeds used, the offers left out (counted by the
    rule they fail); the solver. Under the title: the planner's version, when the plan was made and where its prices
    came from. With `start` (month 1, YYYY-MM: --start) the total's period and each plan year say their calendar
    months ("months 1–36 = 2027-04 to 2030-03"). Under that line, for a plan made with overrides
    (`plan(s, horizon_months=48)`), a note says so and lists each field they changed, the value given → the value
    planned: the title and description are the file's ("3-year view" beside a total over 48 months); `edited` (a
    scenario edited from its file: the dashboard's) is the note said instead."""
    require_plan(plan, "plan_to_markdown (to_markdown)")
    target = check_export_path(plan, path, "summary.md", "plan_to_markdown (to_markdown)")
    s = plan.scenario
    cur = plan.currency
    lines = [f"# {_heading(plan.scenario_name)}", ""]
    description = _paragraph(s.description) if s is not None and s.description else ""
    if description:   # the only user text that starts a line of its own
        lines += [description, ""]
    # after the header, not before: a summary is told by its "Planned with fleetplan" line within its first 8 lines
    # (scenario.loading.summary_header)
    lines += [_header(plan), "", *_edited_note(edited if edited is not None else plan_edits(plan))]
    basis = present_value_basis(plan)
    money = present_money(plan)   # every sum of money below is a present value but the purchase schedule's (nominal)
    grouped = grouping_line(plan)   # the bound on the cost error of a grouped profile, as the table and JSON
    owned_end = owned_end_value_words(plan)   # a credit that takes the total below the bills paid
    first = start_month(start, s)
    # dated where month 1 is given: "over 24 months, months 1–24 = 2027-04 to 2029-03"
    period = (f", months 1–{plan.horizon_months} = {calendar_span(first, 1, int(plan.horizon_months))}"
              if first is not None and int(plan.horizon_months) > 1 else
              f", month 1 = {calendar_span(first, 1, 1)}" if first is not None else "")
    lines += [f"**Total: {plan.total:,.0f} {cur}** ({basis} over {counted(plan.horizon_months, 'month')}{period}; "
              f"status {plan.status}{'; ' + owned_end if owned_end else ''}). "
              f"Prices: {_text(price_source_text(plan))}, {_text(price_dates(plan.prices, cur))}."
              + (f" {_text(grouped[:1].upper() + grouped[1:])}." if grouped else ""), ""]
    verdict = _verdict(plan)
    if verdict:
        lines += [verdict, ""]
    baselines = held(plan, "baselines")
    if len(baselines):
        # each by its label, as the CLI's table and the dashboard's cards name it ("only cloud on-demand", not
        # best_single); one with no total (infeasible, not solved) says so and why, rather than being left out
        labels = baselines["label"] if "label" in baselines else baselines["baseline"]
        bits = [f"{_text(str(label))}: {row.total:,.0f} {cur} (saves {round(row.savings):,}{_share(row.savings_pct)})"
                if row.total == row.total and not row.note else
                f"{_text(str(label))}: {row.total:,.0f} {cur} ({_text(row.note)})" if row.total == row.total else
                f"{_text(str(label))}: {_text(str(row.status)).replace('_', ' ')}" + (f" ({_text(row.note)})" if row.note else "")
                for label, row in zip(labels, baselines.itertuples(index=False))]
        if bits:
            lines += ["Against the baselines — " + "; ".join(bits) + ".", ""]
    # what the plan rests on that needs a look (stale or undated prices, unpriced cards, estimated speeds …),
    # and where the prices came from when that is not what the scenario asked (prices["warning"]: the first of a
    # plan's warnings now, not among those of a plan's JSON written before, so said once either way); each item
    # one paragraph of its text (`_paragraph`: "- # x" would be a heading inside the item)
    source = [f"prices: {plan.prices['warning']}"] if plan.prices.get("warning") else []
    warned = list(dict.fromkeys(source + list(plan.warnings)))
    if warned:
        lines += ["## Warnings", "", *[f"- {_paragraph(w)}" for w in warned], ""]
    lines += [f"## Fleet (cost in {money})", "", _md_table(held(plan, "fleet")[_fleet_columns(plan)]), ""]
    site = site_cost_note(plan, field="`fixed_onprem_per_month`")   # without it the rows fall short of the total
    if site:
        lines += [site, ""]
    schedule, owned, costs = held(plan, "schedule"), held(plan, "owned"), held(plan, "costs")
    if len(schedule):   # when the money goes out: the totals above are present values of it
        lines += [f"## Purchase schedule (amount in {cur}, nominal: as paid; credits negative)", "",
                  _md_table(_schedule_by_card(schedule)), "",
                  "One row per card and action: `months` is in how many months, from `first_month` to `last_month` "
                  "(month by month: the workbook's purchase schedule sheet, the CLI's table).", ""]
    if len(owned):
        lines += [f"## Cards already owned: keep, switch off or sell (fixed costs avoided plus a sale's credit over the "
                  f"end value, in {money}; the site's fixed monthly cost left out; not net of the work bought instead)",
                  "", _md_table(owned), ""]
    lines += [f"## Cost by category ({money})", "", _md_table(costs[costs["cost"] != 0]), ""]
    # what is paid each year, as the workbook's yearly sheet (reports.yearly): the totals above are present values
    note = yearly_note(plan)
    lines += [f"## By plan year ({cur}): paid (nominal) and present value", "", _md_table(yearly_view(plan, first)), "",
              _text(note[:1].upper() + note[1:]), ""]
    if len(baselines):
        lines += [f"## Baselines ({money})", "", _md_table(_baseline_rows(plan)), ""]
    lines += _decision_sections(plan)
    utilisation, break_even = held(plan, "utilisation"), held(plan, "break_even")
    if len(utilisation):
        cards = (utilisation[["card", "units", "utilisation", "energy_kwh"]]
                 .assign(utilisation=lambda d: d["utilisation"] * 100).rename(columns={"utilisation": "utilisation_pct"}))
        lines += ["## Cards held: utilisation and energy", "", _md_table(cards), ""]
    if len(break_even):
        be = break_even[["card", "workload", "cloud_offer", "break_even_utilisation", "note"]].copy()
        # "never" above 100 % (more hours than there are), as the terminal and the dashboard say it
        be["break_even_utilisation"] = pd.Series([BREAK_EVEN_NEVER if never_breaks_even(u) else u * 100
                                                  for u in be["break_even_utilisation"]], index=be.index, dtype=object)
        # the offer whose rate the card is weighed against, in words ("g5.xlarge spot (aws eu-west-1)"), as the CLI
        be["cloud_offer"] = [f"{what} ({where})" if where else what for what, where in map(offer_words, be["cloud_offer"])]
        lines += ["## Break-even utilisation (%, owning vs the cheapest cloud offer)", "",
                  _md_table(be.rename(columns={"break_even_utilisation": "break_even_pct"}), digits=1,
                            right=("break_even_pct",)), ""]
    if s is not None:
        lines += ["## Scenario assumptions", "", _md_table(_scenario_assumptions(plan)), "",
                  "## Workloads", "", _md_table(_workload_rows(plan)), ""]
        quotes = _quotes_rows(plan)
        if len(quotes):
            lines += [f"## Cards quoted in the scenario (card_overrides, custom_cards; fx rates in {cur} per unit)", "",
                      _md_table(quotes), ""]
    if len(held(plan, "offers")):
        lines += [f"## Prices used ({cur}, nominal: per unit, as the plan priced each fleet row)", "",
                  _md_table(_prices_used_rows(plan)), ""]
        if s is not None and any(k != cur for k in s.fx):   # what the table cannot show (see prices_used)
            lines += [f"Cloud and catalog prices in another currency were converted to {cur} at the `fx` rates above "
                      "when the plan was made; the plan keeps them in its own currency only (the scenario's quotes "
                      "show theirs).", ""]
    speeds = _speed_rows(plan)
    if len(speeds):
        lines += ["## Speeds (relative to each workload's reference GPU)", "", _md_table(speeds), ""]
    left_out = excluded_by_rule(plan)
    if len(left_out):   # each row, with its reason in full, in the files that can hold them all
        lines += ["## Offers left out, by the rule they fail (an offer counts once for each workload it cannot serve)",
                  "", _md_table(left_out), "",
                  f"Each of the {len(held(plan, 'exclusions')):,} rows (workload, provider, GPU, reason, offers, rule): "
                  "`excluded_offers.csv` and the workbook's excluded offers sheet (`--out`), the JSON's "
                  "`excluded_offers` (docs/cost-model.md §4 lists the rules).", ""]
    sv = plan.solver
    lines += [f"Solver {sv.get('name')}: {sv.get('status')}, gap {gap_text(sv.get('gap'))}, {sv.get('seconds')} s.", ""]
    return maybe_write(target, "\n".join(lines), "summary.md")
