"""How `fleetplan offers` draws its table on a terminal narrower than the table: with every column and the
packaged snapshot's longest names (a 37-character Azure sku, "germanywestcentral") it is some 220 columns wide,
and rich squeezed it at 80-150 into fragments ("usd…", "0.0…", "Sta…").

Narrower, the headers are short and keep their unit (`usd_per_gpu_hour` is USD/GPU-hr), and each offer takes one
line while the columns that identify and price it fit on one: provider, region, sku, purchase option, GPU, GPU
count, USD per instance-hour and per GPU-hour. Else two: the sku over its provider and region, the GPU over its
purchase option. Either way the columns least needed to choose are left out first, until the table fits:
as_of (the price's date), note (the footnote numbers), gpu_memory_gb (most GPU ids name it), usd_per_hour
(the GPU-hour price times the count); `emit` names them in a line under the table.
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
# the one-line layout keeps the price per instance-hour: two lines an offer come before leaving it out
ONE_LINE_LEAVES_OUT = 3


def offers_narrower(table: pd.DataFrame) -> Narrower:
    """The layouts of the offers `table` (commands.TABLE_COLUMNS and maybe `note`) for `emit`, widest first: one
    line an offer, leaving out none of LEFT_OUT_FIRST, then the first one, two, three; then two lines an offer,
    leaving out none, one, … all four."""
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
    return Narrower(stacked.rename(columns=SHORT_HEADERS), tuple(layouts))
