"""The Compare page's tables as a reader reads them: list values as lists ("a100-80gb-pcie, rtx-4090", wrapped in
their cells rather than cut), and the prices that differ named by their offer, with their currency, unit, source and
date (an audit, 2026-12-07: "[a100-80gb-pc" and "capex_per_unit 16500 17500").

Layout and words only: every figure is the comparison's (`planner.reports.compare`) or the plans' own
(`prices_used`)."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import yaml

from fleetplan_dashboard.tables import CHARS_PER_PX
from planner.catalog.gpus import board_gpus
from planner.reports.compare import FLEET_KEY
from planner.reports.tables import prices_used
from planner.scenario.overrides import scenario_leaves

# A grid cell wraps its text only in rows taller than 4rem (64 px: Streamlit 1.67's grid, `rowHeight > 4rem`); a
# wrapped line of its 14 px font takes some 20 px, the cell's padding 8 px above and below and 8.5 px each side. A text
# on one line fits as the page's other tables count (tables.CHARS_PER_PX, the side padding counted in); wrapped, each
# line is counted at 7.5 px a character inside the padding, which short words need (Chromium, 2026-12-07: at 106 px
# "a100-80gb-pcie" broke before its last letter).
WRAP_MIN_PX = 65
LINE_PX = 20
ROW_PAD_PX = 16
CELL_PAD_PX = 17
MAX_LINES = 6            # a row at most this many lines high (136 px); a value longer is said in full under the table
WORD_MAX_PX = 160        # a value's column at least as wide as its longest word, up to this (a word is not wrapped)
EMPTY_LIST = "(empty list)"


# ---------------------------------------------------------------------------------------------------
# Inputs that differ: list values


def list_paths(*scenarios) -> set[str]:
    """The paths (as `flatten_scenario` names them, workloads by name) whose value is a list in any of `scenarios`."""
    return {path for s in scenarios for path, value in scenario_leaves(s) if isinstance(value, (list, tuple))}


def _item_text(item: Any) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, (dict, list)):
        return yaml.safe_dump(item, default_flow_style=True, width=10_000, sort_keys=False).strip()
    return str(item)


def list_text(text: Any) -> Any:
    """A list value as the comparison says it (YAML flow text, "[a100-80gb-pcie, rtx-4090]") as a reader reads it:
    its items, comma-separated ("a100-80gb-pcie, rtx-4090"); an empty list `EMPTY_LIST`. Anything else (the words
    of a side that does not set the field: "(not set)", "none") as it is."""
    if not isinstance(text, str) or not text.startswith("["):
        return text
    try:
        items = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if not isinstance(items, list):
        return text
    return ", ".join(_item_text(item) for item in items) if items else EMPTY_LIST


def readable_lists(shown: pd.DataFrame, paths: set[str]) -> pd.DataFrame:
    """`shown` (path, a, b: Comparison.inputs_shown) with the values of the list `paths` as `list_text` says them."""
    lists = shown["path"].isin(paths)
    out = shown.copy()
    for col in ("a", "b"):
        out[col] = [list_text(v) if is_list else v for v, is_list in zip(shown[col], lists)]
    return out


# ---------------------------------------------------------------------------------------------------
# Wrapping in a grid's cells


def _fits(width_px: int) -> int:
    """The characters a wrapped line of a cell `width_px` wide holds (inside its padding)."""
    return max(1, int((width_px - CELL_PAD_PX) * CHARS_PER_PX))


def word_px(texts) -> int:
    """The width a column needs to show the longest word of `texts` on one line (a word is not wrapped), at most
    WORD_MAX_PX."""
    longest = max((len(w) for t in texts for w in str(t).split()), default=0)
    return min(WORD_MAX_PX, math.ceil(longest / CHARS_PER_PX) + CELL_PAD_PX)


def wrapped_lines(text: Any, width_px: int) -> int:
    """The lines `text` takes in a cell `width_px` wide: one where it shows whole on one (tables.CHARS_PER_PX), else
    wrapped at its spaces (a word longer than a line over as many lines as it needs)."""
    if len(str(text)) <= int(width_px * CHARS_PER_PX):
        return 1
    fits, lines, used = _fits(width_px), 1, 0
    for word in str(text).split():
        need = len(word) if used == 0 else used + 1 + len(word)
        if used and need > fits:
            lines, used = lines + 1, len(word)
        else:
            used = need
        while used > fits:
            lines, used = lines + 1, used - fits
    return lines


def row_height(lines: int) -> int | None:
    """The row height (px) that shows `lines` wrapped lines of a cell (at most MAX_LINES); None for one line: the
    grid's own height, which does not wrap."""
    if lines <= 1:
        return None
    return max(WRAP_MIN_PX, min(lines, MAX_LINES) * LINE_PX + ROW_PAD_PX)


def lines_needed(table: pd.DataFrame, widths: dict[str, int]) -> int:
    """The most lines a cell of `table`'s columns `widths` (column → px) takes, wrapped."""
    return max((wrapped_lines(v, px) for col, px in widths.items() for v in table[col]), default=1)


# ---------------------------------------------------------------------------------------------------
# Prices that differ

OPTION_WORDS = {"on_demand": "on demand", "spot": "spot", "low_priority": "low priority", "purchase": "bought",
                "reserved_1y": "reserved 1 year", "reserved_3y": "reserved 3 years",
                "savings_plan_1y": "savings plan 1 year", "savings_plan_3y": "savings plan 3 years"}
# What each price of `Comparison.prices` is (planner.reports.compare.PRICE_FIELDS; docs/offers-contract.md)
PRICE_WORDS = {"capex_per_unit": "new card with its host share", "hourly_price": "hourly rate",
               "upfront_price": "upfront fee, each term", "term_months": "term"}


def offer_name(row) -> str:
    """The offer a price is of: an on-prem card by its id, a cloud offer by its instance, how it is bought (on
    demand, reserved 1 year …), its provider and region."""
    option = OPTION_WORDS.get(row["purchase_option"], str(row["purchase_option"]).replace("_", " "))
    if row["provider"] == "onprem":
        return f"{row['sku']}, on-prem card"
    return f"{row['sku']} {option}, {row['provider']} {row['region']}"


def price_name(row) -> str:
    """What the price is, in words: a reservation's hourly price is its recurring fee, not a rate of use."""
    if row["price"] == "hourly_price" and str(row["purchase_option"]).startswith(("reserved", "savings_plan")):
        return "hourly fee of the reservation"
    return PRICE_WORDS.get(row["price"], str(row["price"]).replace("_", " "))


def price_unit(row, currency: str) -> str:
    """The unit of the price in `row`: `currency` per card (per GPU of a card sold only as whole boards, which the
    catalog prices per GPU), per hour of one instance, per instance and term; months for a term."""
    field, onprem = row["price"], row["provider"] == "onprem"
    if field == "term_months":
        return "months"
    if onprem:
        board = board_gpus(str(row["sku"]))
        each = "card" if board <= 1 else f"GPU (sold as {board}-GPU boards)"
        return f"{currency} per {each}" + (" and hour" if field == "hourly_price" else "")
    return f"{currency} per instance" + ("-hour" if field == "hourly_price" else "")


def amount_text(value: Any) -> str:
    """An amount as a reader reads it: thousands separated, to the cent (16,500; 55.04; 1,086.17), four significant
    digits below one (0.0058); "no price" where the plan has none."""
    if value is None or pd.isna(value):
        return "no price"
    value = float(value)
    if abs(value) < 1:
        return f"{value:.4g}"
    text = f"{value:,.2f}"
    return text[:-3] if text.endswith(".00") else text


def source_text(source: Any, as_of: Any) -> str:
    """Where a price came from and its date, as the plan records them ("Dell quote 4711, as of 2026-11-30"; the
    source alone where it has no date)."""
    source = "" if source is None or pd.isna(source) else str(source).strip()
    as_of = "" if as_of is None or pd.isna(as_of) else str(as_of).strip()
    said = [source or "source not recorded"] + ([f"as of {as_of}"] if as_of else [])
    return ", ".join(said)


def _sources(plan) -> dict[tuple, str]:
    """FLEET_KEY → the source and date plan `plan` records for that offer (the first of two zones)."""
    used = prices_used(plan).drop_duplicates(FLEET_KEY)
    return {tuple(row[k] for k in FLEET_KEY): source_text(row["source"], row["as_of"]) for _, row in used.iterrows()}


def prices_table(prices: pd.DataFrame, plan_a, plan_b, currency: str) -> pd.DataFrame:
    """`prices` (Comparison.prices: FLEET_KEY, price, a, b) as "Prices that differ" shows it: offer (`offer_name`),
    price (`price_name`), a and b with their unit ("16,500 USD per card"), source (each side's where they differ:
    "A: …; B: …"), gpu. `plan_a`, `plan_b` the plans compared (Plan objects, whose `prices_used` say each offer's
    source and date)."""
    src_a, src_b = _sources(plan_a), _sources(plan_b)
    rows = []
    for _, row in prices.iterrows():
        unit = price_unit(row, currency)
        key = tuple(row[k] for k in FLEET_KEY)
        sa, sb = src_a.get(key, "source not recorded"), src_b.get(key, "source not recorded")
        said = [f"{amount_text(row[side])} {unit}" if not pd.isna(row[side]) else "no price" for side in ("a", "b")]
        rows.append({"offer": offer_name(row), "price": price_name(row), "a": said[0], "b": said[1],
                     "source": sa if sa == sb else f"A: {sa}; B: {sb}", "gpu": row["gpu"]})
    return pd.DataFrame(rows, columns=["offer", "price", "a", "b", "source", "gpu"])
