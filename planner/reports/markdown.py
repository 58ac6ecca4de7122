"""A one-page Markdown summary of a plan for a planning review."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from planner.engine import Plan
from planner.reports.tables import (
    grouping_line,
    maybe_write,
    present_money,
    present_value_basis,
    price_dates,
    require_plan,
    share_text,
    site_cost_note,
)
from planner.text import visible

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


def _md_table(df: pd.DataFrame, digits: int = 0) -> str:
    def fmt(v):
        if isinstance(v, (float, np.floating)):
            # inf (a card that never breaks even) blank, as JSON's null and the workbook's blank cell
            return "" if not math.isfinite(v) else f"{round(v, digits) + 0.0:,.{digits}f}"   # never "-0"
        return _text(v)
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "| " + " | ".join("---:" if pd.api.types.is_numeric_dtype(df[c]) else "---" for c in df.columns) + " |"
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


def _pct(pct: float | None) -> str:
    """An increase as a percentage of the plan's total, two decimals or two significant digits under 0.05 % (as the
    CLI: tables.share_text), "n/a" where there is none (a plan total of 0)."""
    return "n/a" if pct is None or not math.isfinite(pct) else f"{share_text(pct)}%"


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
             f"{abs(runner['increase']):,.0f} {cur} ({_pct(None if pct is None else abs(pct))}) {more}")
    if verdict == "not_best":   # the plan's own solve stopped unproven: neither a close call nor firm
        return (f"**Not the best plan:** {costs} than this plan, whose own solve stopped before it proved the least "
                "cost; plan with more time (a longer `--time-limit`, or none).")
    line = (f"**Close call:** {costs}: within the close-call threshold of {share} (`close_call_share`); "
            "weigh both fleets." if verdict == "close_call" else f"Firm: {costs}; a close call is within {share}.")
    return line + {"plan": " Not proven best: the plan's own solve stopped before it proved the least cost.",
                   "runner_up": " Not proven best: its solve stopped at the time limit, so a cheaper runner-up may exist.",
                   None: ""}[unproven]


def _fleet_columns(plan: Plan) -> list[str]:
    """The fleet's columns the summary shows; where the scenario owns cards, also how many it owns, sells and
    switches off, as the CLI's fleet table: without them a card sold reads 0 units at a negative cost, unexplained."""
    held = ["units", "new_units"]
    if len(plan.owned):
        held = ["units", "existing_units", "new_units", "sold_units", "switched_off_units"]
    return ["provider", "region", "sku", "gpu", "purchase_option", *held, "instance_hours", "cost"]


def _schedule_by_card(schedule: pd.DataFrame) -> pd.DataFrame:
    """The purchase schedule (engine.readback.purchase_schedule) in one row per card and action (buy, sell,
    switch off, retire), in the order they first happen: its units, in how many months, the first and last
    month, and the amount (nominal, credits negative). It fits a page: industrial.yaml's 88 cards, bought in
    15 months of the full schedule, are one row."""
    by_card = schedule.groupby(["card", "gpu", "action"], sort=False)
    return by_card.agg(units=("units", "sum"), months=("month", "nunique"), first_month=("month", "min"),
                       last_month=("month", "max"), amount=("amount", "sum")).reset_index()


def plan_to_markdown(plan: Plan, path: str | Path | None = None) -> str:
    """A one-page summary for a planning review: headline (total, the bound of a grouped profile, the
    runner-up: close call or firm), baselines, warnings, fleet (with the owned cards' existing, sold and
    switched-off units), the purchase schedule by card (nominal), the cards already owned, cost by category,
    break-even, key assumptions, solver and prices."""
    require_plan(plan, "plan_to_markdown (to_markdown)")
    s = plan.scenario
    cur = plan.currency
    lines = [f"# {_heading(plan.scenario_name)}", ""]
    description = _paragraph(s.description) if s is not None and s.description else ""
    if description:   # the only user text that starts a line of its own
        lines += [description, ""]
    basis = present_value_basis(plan)
    money = present_money(plan)   # every sum of money below is a present value but the purchase schedule's (nominal)
    grouped = grouping_line(plan)   # the bound on the cost error of a grouped profile, as the table and JSON
    lines += [f"**Total: {plan.total:,.0f} {cur}** ({basis} over {plan.horizon_months} months; "
              f"status {plan.status}). Prices: {_text(plan.prices.get('source'))}, {_text(price_dates(plan.prices))}."
              + (f" {_text(grouped[:1].upper() + grouped[1:])}." if grouped else ""), ""]
    verdict = _verdict(plan)
    if verdict:
        lines += [verdict, ""]
    if len(plan.baselines):
        b = plan.baselines.set_index("baseline")
        bits = [f"{label}: {row.total:,.0f} {cur} (saves {round(row.savings):,}{_share(row.savings_pct)})"
                if not row.note else f"{label}: {row.total:,.0f} {cur} ({_text(row.note)})"
                for label, row in b.iterrows() if row.total == row.total]
        if bits:
            lines += ["Against the baselines — " + "; ".join(bits) + ".", ""]
    # what the plan rests on that needs a look (stale or undated prices, unpriced cards, estimated speeds …),
    # and where the prices came from when that is not what the scenario asked (prices["warning"]); each item
    # one paragraph of its text (`_paragraph`: "- # x" would be a heading inside the item)
    warned = ([f"prices: {plan.prices['warning']}"] if plan.prices.get("warning") else []) + list(plan.warnings)
    if warned:
        lines += ["## Warnings", "", *[f"- {_paragraph(w)}" for w in warned], ""]
    lines += [f"## Fleet (cost in {money})", "", _md_table(plan.fleet[_fleet_columns(plan)]), ""]
    site = site_cost_note(plan, field="`fixed_onprem_per_month`")   # without it the rows fall short of the total
    if site:
        lines += [site, ""]
    if len(plan.schedule):   # when the money goes out: the totals above are present values of it
        lines += [f"## Purchase schedule (amount in {cur}, nominal: as paid; credits negative)", "",
                  _md_table(_schedule_by_card(plan.schedule)), "",
                  "One row per card and action: `months` is in how many months, from `first_month` to `last_month` "
                  "(month by month: the workbook's purchase schedule sheet, the CLI's table).", ""]
    if len(plan.owned):
        lines += [f"## Cards already owned: keep, switch off or sell (fixed costs avoided plus a sale's credit over the "
                  f"end value, in {money}; not net of the work bought instead)", "", _md_table(plan.owned), ""]
    lines += [f"## Cost by category ({money})", "", _md_table(plan.costs[plan.costs["cost"] != 0]), ""]
    if len(plan.baselines):
        columns = ["baseline", "label", "status", "total", "savings"]
        columns += ["note"] if (plan.baselines["note"] != "").any() else []   # why none, or why cheaper
        lines += [f"## Baselines ({money})", "", _md_table(plan.baselines[columns]), ""]
    if len(plan.utilisation):
        held = (plan.utilisation[["card", "units", "utilisation", "energy_kwh"]]
                .assign(utilisation=lambda d: d["utilisation"] * 100).rename(columns={"utilisation": "utilisation_pct"}))
        lines += ["## Cards held: utilisation and energy", "", _md_table(held), ""]
    if len(plan.break_even):
        be = plan.break_even[["card", "workload", "break_even_utilisation", "note"]].copy()
        be["break_even_utilisation"] = be["break_even_utilisation"] * 100
        lines += ["## Break-even utilisation (%, owning vs the cheapest cloud offer)", "",
                  _md_table(be.rename(columns={"break_even_utilisation": "break_even_pct"}), digits=1), ""]
    if s is not None:
        key = [("horizon_months", s.horizon_months), ("discount_rate", s.discount_rate),
               ("onprem.electricity_per_kwh", s.onprem.electricity_per_kwh), ("onprem.pue", s.onprem.pue),
               ("onprem.power_cap_kw", s.onprem.power_cap_kw), ("onprem.capex_budget", s.onprem.capex_budget),
               ("constraints.max_cloud_share", s.constraints.max_cloud_share)]
        key += [(f"workloads.{w.name}.{w.demand_field}", w.demand_amount) for w in s.workloads]
        key += [(f"workloads.{w.name}.growth_per_month", w.growth_per_month) for w in s.workloads]
        lines += ["## Key assumptions", "", "| path | value |", "| --- | ---: |",
                  *[f"| {_text(p)} | {_number(v)} |" for p, v in key], ""]
    sv = plan.solver
    gap = sv.get("gap")   # None: a time limit stopped the solve before it proved any bound
    gap_text = "unknown (stopped before it proved any bound)" if gap is None else f"{gap:g}"
    lines += [f"Solver {sv.get('name')}: {sv.get('status')}, gap {gap_text}, {sv.get('seconds')} s.", ""]
    return maybe_write(path, "\n".join(lines), "summary.md")
