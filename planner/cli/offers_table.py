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
"""

from __future__ import annotations

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


def offers_narrower(table: pd.DataFrame) -> Narrower:
    """The layouts of the offers `table` (commands.TABLE_COLUMNS and maybe `note`) for `emit`."""
    return narrower(table, OFFERS, {SKU_AND_WHERE: sku_over_where(table)})
