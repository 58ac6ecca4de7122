"""Layouts of a table for a terminal narrower than it (console.Narrower), made from a spec: which columns stack two to
a cell (a name over where it is: "sku" over "provider region"), the short headers, and which columns are left out
first. `fleetplan offers` (cli/offers_table.py) and the plan's Fleet table (cli/fleet_table.py) are drawn so.

Layouts come fewest left out first, and each leaves out a first part of `left_out_first`: `emit` draws the first
that fits, so a wider terminal, which fits every layout a narrower one fits, never leaves out more — it shows every
column a narrower one shows. Where as many are left out, one line a row comes before two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from planner.cli.console import Narrower

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class NarrowSpec:
    one_line: tuple[str, ...]            # the columns of a one-line layout, in order (names of the full table)
    two_lines: tuple[str, ...]           # … of a two-line layout: stacked headers (keys of `stacks`) among them
    stacks: dict[str, tuple[str, str]]   # stacked header -> (the column on top, the column below)
    left_out_first: tuple[str, ...]      # the columns least needed, first left out first
    one_line_leaves_out: int             # a one-line layout leaves out at most this many (then two lines a row)
    short_headers: dict[str, str]        # full name -> header drawn (a unit kept: usd_per_hour is USD/hr)


def stacked(top: pd.Series, below: pd.Series) -> list[str]:
    """Cells of two lines: `top` over `below`."""
    return [f"{a}\n{b}" for a, b in zip(top.astype(str), below.astype(str))]


def sku_over_where(table: pd.DataFrame) -> list[str]:
    """Cells of two lines: each row's sku over its provider and region, on-prem's "onprem", not "onprem onprem"."""
    where = [provider if region == provider else f"{provider} {region}"
             for provider, region in zip(table["provider"].astype(str), table["region"].astype(str))]
    return [f"{sku}\n{place}" for sku, place in zip(table["sku"].astype(str), where)]


def narrower(table: pd.DataFrame, spec: NarrowSpec, stacked_cells: dict[str, list[str]] | None = None) -> Narrower:
    """The layouts of `table` under `spec` for `emit`. `stacked_cells`: the cells of a stacked header where they are not
    simply its top over its below (on-prem's "onprem" where "onprem onprem" would repeat itself)."""
    given = stacked_cells or {}
    drawn_table = table.assign(**{header: given.get(header) or stacked(table[top], table[below])
                                  for header, (top, below) in spec.stacks.items()})
    present = [col for col in spec.left_out_first if col in table.columns]
    layouts = []
    for shape, most_left_out in ((spec.one_line, spec.one_line_leaves_out), (spec.two_lines, len(spec.left_out_first))):
        for left_out in dict.fromkeys(tuple(c for c in present if c in spec.left_out_first[:n])
                                      for n in range(most_left_out + 1)):
            drawn = tuple(spec.short_headers.get(c, c) for c in shape if c in drawn_table.columns and c not in left_out)
            layouts.append((drawn, left_out))
    layouts.sort(key=lambda layout: len(layout[1]))   # stable: one line before two where as many are left out
    return Narrower(drawn_table.rename(columns=spec.short_headers), tuple(layouts))
