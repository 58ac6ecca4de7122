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
(`offers --currency EUR --fx EUR=1.09`, or `--fx USD=0.92` as a scenario's fx says it: `ShownRate`), the columns named
for it (`eur_per_gpu_hour`, EUR/GPU-hr).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
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


@dataclass(frozen=True)
class ShownRate:
    """The rate `offers --currency` shows its prices at, as the --fx given says it (the key says which way it runs):
    `value` USD per 1 unit of `currency` (--fx EUR=1.087), or — `per_usd` — units of `currency` per 1 USD (--fx
    USD=0.92: a scenario's fx {USD: 0.92} in EUR, as written). `agreeing`: the other spelling of the same rate, given
    too ('USD=0.92'), that agrees with this one to its digits. --max-price and --electricity are in `currency`,
    taken to USD at this rate (`to_usd`)."""

    currency: str
    value: float
    per_usd: bool = False
    agreeing: str = ""

    @property
    def usd_per_unit(self) -> float:
        """USD per 1 unit of `currency` (the engine's fx_to_usd)."""
        return 1 / self.value if self.per_usd else self.value

    def to_usd(self, amount: float) -> float:
        """`amount` in `currency` → USD."""
        return amount / self.value if self.per_usd else amount * self.value

    def from_usd(self, amount):
        """`amount` (a number or a column) in USD → `currency`: × the rate given as `currency` per USD, / the rate
        given as USD per `currency` (32.77 USD at --fx USD=0.92 is 32.77 × 0.92 = 30.1484 EUR)."""
        return amount * self.value if self.per_usd else amount / self.value

    def reading(self) -> str:
        """'1 EUR = 1.087 USD (--fx EUR=1.087)' or '1 USD = 0.92 EUR (--fx USD=0.92)': the rate as read, so that one
        given the other way round (0.92 for 1.087: 18% off) shows."""
        value = f"{self.value:.15g}"
        said = (f"1 USD = {value} {self.currency} (--fx USD={value}" if self.per_usd
                else f"1 {self.currency} = {value} USD (--fx {self.currency}={value}")
        return said + (f"; --fx {self.agreeing} agrees to its digits)" if self.agreeing else ")")


def rate_note(rate: ShownRate, default_electricity_usd: float | None = None) -> str:
    """What the prices in `rate.currency` are: the USD prices at `rate`, read back in words (ShownRate.reading);
    --max-price and --electricity are read in that currency. `default_electricity_usd`: the default tariff (USD per
    kWh), where on-prem rows were priced at it, said in the currency shown too."""
    cur = rate.currency
    how = f"× {rate.value:.15g}" if rate.per_usd else f"/ {rate.value:.15g}"
    note = f"prices in {cur} at {rate.reading()}: the USD prices {how}; --max-price and --electricity are in {cur}"
    if default_electricity_usd is not None:
        note += (f"; the default electricity, {default_electricity_usd:g} USD a kWh (an assumption with no source), is "
                 f"{rate.from_usd(default_electricity_usd):.4g} {cur} a kWh")
    return note


# The decimals a converted price keeps in CSV and JSON: a product of binary floats wrote 21.95764 × 0.92 as
# 20.201028800000003. Six are the finest the packaged snapshot writes a USD price to (21.957642, 0.143517), so a
# converted price is resolved as finely as any source price; what rounding moves, under 0.0000005 an hour, is far
# below what the rate's own digits leave open (0.92 is 0.915-0.925: ±0.5 %). The USD prices are never rounded, nor
# the table's figures: drawn to four decimals, a product rounded twice would draw 3.76855 (4.09625 × 0.92) as 3.7685.
CONVERTED_DECIMALS = 6


def in_currency(table: pd.DataFrame, rate: ShownRate | None, decimals: int | None = None) -> pd.DataFrame:
    """The offers `table` with its USD price columns as `rate.currency` ones (ShownRate.from_usd, rounded to
    `decimals` if given: CONVERTED_DECIMALS for CSV and JSON), the columns renamed (price_columns); `table` itself
    for no rate (USD)."""
    if rate is None or rate.currency == "USD":
        return table
    usd = price_columns("USD")
    converted = table.assign(**{col: rate.from_usd(table[col]) for col in usd})
    if decimals is not None:
        converted = converted.round(dict.fromkeys(usd, decimals))
    return converted.rename(columns=dict(zip(usd, price_columns(rate.currency))))
