"""How `fleetplan offers` draws its table on a terminal narrower than the table: with every column and the
packaged snapshot's longest names (a 37-character Azure sku, "germanywestcentral") it is some 220 columns wide,
and rich squeezed it at 80-150 into fragments ("usd…", "0.0…", "Sta…").

Narrower, the headers are short and keep their unit (`usd_per_gpu_hour` is USD/GPU-hr), and each offer takes one
line or two: the sku over its provider and region, the GPU over its purchase option. The columns least needed to
choose are left out first, as few as the terminal allows: as_of (the price's date), note (the footnote numbers),
gpu_memory_gb (most GPU ids name it), usd_per_hour (the GPU-hour price times the count); one line an offer where
it fits with as many columns as two. `emit` names the columns left out in a line under the table, with the least
width that shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.cli.console import Narrower

if TYPE_CHECKING:
    import pandas as pd

SHORT_HEADERS = {"purchase_option": "option", "gpu_count": "GPUs", "gpu_memory_gb": "GB/GPU",
                 "usd_per_hour": "USD/hr", "usd_per_gpu_hour": "USD/GPU-hr"}
LEFT_OUT_FIRST = ("as_of", "note", "gpu_memory_gb", "usd_per_hour")
# the two-line layout's stacked columns: a header and its cells of two lines each
SKU_AND_WHERE = "sku\nprovider region"
GPU_AND_OPTION = "gpu\noption"
ONE_LINE = ("provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb", "usd_per_hour",
            "usd_per_gpu_hour", "as_of", "note")
TWO_LINES = (SKU_AND_WHERE, GPU_AND_OPTION, "gpu_count", "gpu_memory_gb", "usd_per_hour", "usd_per_gpu_hour",
             "as_of", "note")
# one line an offer leaves out at most three: without usd_per_hour as well, the offer takes two lines (the narrowest
# layout, drawn where none fits)
ONE_LINE_LEAVES_OUT = 3


def offers_narrower(table: pd.DataFrame) -> Narrower:
    """The layouts of the offers `table` (commands.TABLE_COLUMNS and maybe `note`) for `emit`, by how many of
    LEFT_OUT_FIRST they leave out (none, the first, the first two, …), one line an offer before two where they leave
    out as many."""
    where = [provider if region == provider else f"{provider} {region}"   # on-prem: "onprem", not "onprem onprem"
             for provider, region in zip(table["provider"].astype(str), table["region"].astype(str))]
    stacked = table.assign(**{
        SKU_AND_WHERE: [f"{sku}\n{place}" for sku, place in zip(table["sku"].astype(str), where)],
        GPU_AND_OPTION: table["gpu"].astype(str) + "\n" + table["purchase_option"].astype(str),
    })
    present = [col for col in LEFT_OUT_FIRST if col in table.columns]
    layouts = []
    for shape, most_left_out in ((ONE_LINE, ONE_LINE_LEAVES_OUT), (TWO_LINES, len(LEFT_OUT_FIRST))):
        for left_out in dict.fromkeys(tuple(c for c in present if c in LEFT_OUT_FIRST[:n]) for n in range(most_left_out + 1)):
            drawn = tuple(SHORT_HEADERS.get(c, c) for c in shape if c in stacked.columns and c not in left_out)
            layouts.append((drawn, left_out))
    # Fewest left out first: `emit` draws the first layout that fits, so a wider terminal, which fits every layout
    # a narrower one fits, never leaves out more (each leaves out a first part of LEFT_OUT_FIRST: it shows every
    # column a narrower one shows). All one-line layouts before the two-line ones did: at 100 columns the one-line
    # layout without as_of, note and gpu_memory_gb fitted before two lines with every column, shown at 94.
    layouts.sort(key=lambda layout: len(layout[1]))   # stable: one line before two where as many are left out
    return Narrower(stacked.rename(columns=SHORT_HEADERS), tuple(layouts))
