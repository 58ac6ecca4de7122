"""How `fleetplan offers` draws its table on a terminal narrower than the table: with every column and the
packaged snapshot's longest names (a 37-character Azure sku, "germanywestcentral") it is some 220 columns wide,
and rich squeezed it at 80-150 into fragments ("usd…", "0.0…", "Sta…").

Narrower, the headers are short and keep their unit (`usd_per_gpu_hour` is USD/GPU-hr), and each offer takes one
line or two: the sku over its provider and region, the GPU over its purchase option. The columns least needed to
choose are left out first, as few as the terminal allows: as_of (the price's date), note (the footnote numbers),
gpu_memory_gb (most GPU ids name it), usd_per_hour (the GPU-hour price times the count); one line an offer where
it fits with as many columns as two. `emit` names the columns left out in a line under the table, with the least
width that shows them. The layouts are made as cli/narrow.py says (at 100 columns the one-line layout without
as_of, note and gpu_memory_gb fitted before two lines with every column, shown at 94: one line comes first only
where it leaves out as many).

What a row's price leaves unsaid is said in its note, first (`caveated`): an on-prem card whose catalog price is a
lower bound (its `price_leaves_out`: the HGX H200 row leaves out its host) and a price with no date ("undated", as
the README promises; the table's `as_of` cell says it too). `in_currency` gives the prices in another currency
(`offers --currency EUR --fx EUR=1.09`), the columns named for it (`eur_per_gpu_hour`, EUR/GPU-hr).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from planner.cli.console import Narrower
from planner.cli.narrow import NarrowSpec, narrower, sku_over_where

if TYPE_CHECKING:
    import pandas as pd

# the two-line layout's stacked columns: a header and its cells of two lines each
SKU_AND_WHERE = "sku\nprovider region"
GPU_AND_OPTION = "gpu\noption"
OFFERS = NarrowSpec(
    one_line=("provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb", "usd_per_hour",
              "usd_per_gpu_hour", "as_of", "note"),
    two_lines=(SKU_AND_WHERE, GPU_AND_OPTION, "gpu_count", "gpu_memory_gb", "usd_per_hour", "usd_per_gpu_hour",
               "as_of", "note"),
    stacks={SKU_AND_WHERE: ("sku", "region"), GPU_AND_OPTION: ("gpu", "purchase_option")},
    left_out_first=("as_of", "note", "gpu_memory_gb", "usd_per_hour"),
    # one line an offer leaves out at most three: without usd_per_hour as well, the offer takes two lines (the
    # narrowest layout, drawn where none fits)
    one_line_leaves_out=3,
    short_headers={"purchase_option": "option", "gpu_count": "GPUs", "gpu_memory_gb": "GB/GPU",
                   "usd_per_hour": "USD/hr", "usd_per_gpu_hour": "USD/GPU-hr"},
)


def offers_narrower(table: pd.DataFrame, currency: str = "USD") -> Narrower:
    """The layouts of the offers `table` (commands.TABLE_COLUMNS and maybe `note`, its prices in `currency`: the
    columns `price_columns` names) for `emit`."""
    spec = OFFERS
    if currency != "USD":
        named = dict(zip(price_columns("USD"), price_columns(currency)))

        def renamed(cols: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(named.get(c, c) for c in cols)

        spec = replace(OFFERS, one_line=renamed(OFFERS.one_line), two_lines=renamed(OFFERS.two_lines),
                       left_out_first=renamed(OFFERS.left_out_first),
                       short_headers={**OFFERS.short_headers, named["usd_per_hour"]: f"{currency}/hr",
                                      named["usd_per_gpu_hour"]: f"{currency}/GPU-hr"})
    return narrower(table, spec, {SKU_AND_WHERE: sku_over_where(table)})


UNDATED = "undated"   # the README's word for a price with no date (an empty as_of: docs/offers-contract.md)


def _first(caveat: str, note: str) -> str:
    return f"{caveat} | {note}" if note else caveat


def lower_bound_note(card: str, leaves_out: str) -> str:
    """The note of an on-prem card whose catalog price leaves out `leaves_out` (its `price_leaves_out`), in the words
    of a plan's warning (scenario.cost_basis.lower_bound_prices)."""
    return (f"lower bound: the catalog price of {card} leaves out {leaves_out}, so its hourly figure is understated; "
            f"a scenario can give a quote in onprem.card_overrides.{card} (price and host_cost_per_card) — "
            "docs/data-sources.md")


def whole_boards_note(size: int) -> str:
    """The note of an on-prem card sold only as whole boards of `size` GPUs (catalog `sold_in_units_of`)."""
    return f"sold only as whole {size}-GPU boards, priced here per GPU: a plan buys it {size} at a time"


def caveated(table: pd.DataFrame, leaves_out: dict[str, str], boards: dict[str, int] | None = None) -> pd.DataFrame:
    """The offers `table` (offer_costs.VIEW_COLUMNS) with each row's caveat first in its `note`: an on-prem card of
    `leaves_out` (card id -> what its catalog price leaves out: catalog `price_leaves_out`) a lower bound, one of
    `boards` (card id -> GPUs a board: catalog `sold_in_units_of`) sold as whole boards, a price with an empty
    `as_of` "undated". Its `as_of` stays as it is (empty: machine-readable for CSV and JSON)."""
    boards = boards or {}
    notes = table["note"].fillna("").astype(str).tolist()
    undated = table["as_of"].fillna("").astype(str).str.strip().eq("").tolist()
    onprem = table["provider"].eq("onprem").tolist()
    for i, (sku, no_date) in enumerate(zip(table["sku"].astype(str), undated)):
        if no_date:
            notes[i] = _first(UNDATED, notes[i])
        if onprem[i] and boards.get(sku):
            notes[i] = _first(whole_boards_note(boards[sku]), notes[i])
        if onprem[i] and leaves_out.get(sku):
            notes[i] = _first(lower_bound_note(sku, leaves_out[sku]), notes[i])
    return table.assign(note=notes)


def price_columns(currency: str) -> tuple[str, str]:
    """The two price columns of the offers table in `currency`: usd_per_hour, usd_per_gpu_hour for USD."""
    code = currency.lower()
    return f"{code}_per_hour", f"{code}_per_gpu_hour"


def rate_note(currency: str, usd_per_unit: float) -> str:
    """What the prices in `currency` are: the USD prices at `usd_per_unit` (--fx)."""
    return (f"prices in {currency}: the USD prices / {usd_per_unit:g} (--fx {currency}={usd_per_unit:g}: USD per 1 "
            f"{currency}); --max-price and --electricity are in USD")


def in_currency(table: pd.DataFrame, currency: str, usd_per_unit: float) -> pd.DataFrame:
    """The offers `table` with its USD price columns as `currency` ones: each price / `usd_per_unit` (USD per 1
    unit of `currency`, as --fx gives it), the columns renamed (price_columns)."""
    if currency == "USD":
        return table
    usd = price_columns("USD")
    converted = table.assign(**{col: table[col] / usd_per_unit for col in usd})
    return converted.rename(columns=dict(zip(usd, price_columns(currency))))
