"""How `fleetplan plan` draws its Fleet table on a terminal narrower than it: with every column it is some 150-190
columns wide (unit_id alone is up to 60), and rich squeezed it at 80-140 into fragments — "pr…", "Sta…", and numbers
cut ("40,7…" for 40,747 card-hours).

Narrower, the headers are short and each row takes one line or two: the sku over its provider and region, the GPU over
its purchase option, as `fleetplan offers` draws its offers (cli/narrow.py). Left out first, as few as the terminal
allows: unit_id (the key that joins the plan's other tables; JSON and CSV have it), kind (the purchase option again, or
"card"), the counts of owned, sold and switched-off cards where every row's is 0, instance_hours, then those counts
where some row's is not, and new_units last: units and cost always show.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from planner.cli.console import Narrower
from planner.cli.narrow import NarrowSpec, narrower, sku_over_where
from planner.cli.offers_table import GPU_AND_OPTION, SKU_AND_WHERE

if TYPE_CHECKING:
    import pandas as pd

OWNED_COUNTS = ("existing_units", "sold_units", "switched_off_units")   # of cards held before the plan
# the header of the fleet's `units` (its JSON key): the most in service at once, where the decision tables count the
# cards held over the plan (plan_views.HELD) — 2 owned cards retired in month 6 and 2 bought in month 7 are 2 here, 4
# held there; narrower, on two lines of at most 6 cells (7 left the sold count out at 80 columns)
MOST_IN_SERVICE = "most in service"   # (wider, "units (most in service)", sent startup-hybrid's piped table narrow)
MOST_IN_SERVICE_SHORT = "units\n(most)"
FLEET = NarrowSpec(
    one_line=("provider", "region", "sku", "gpu", "purchase_option", "kind", "units", "existing_units", "new_units",
              "sold_units", "switched_off_units", "instance_hours", "cost", "unit_id"),
    two_lines=(SKU_AND_WHERE, GPU_AND_OPTION, "units", "existing_units", "new_units", "sold_units",
               "switched_off_units", "instance_hours", "cost", "kind", "unit_id"),
    stacks={SKU_AND_WHERE: ("sku", "region"), GPU_AND_OPTION: ("gpu", "purchase_option")},
    left_out_first=("unit_id", "kind", "instance_hours", "switched_off_units", "sold_units", "existing_units",
                    "new_units"),
    one_line_leaves_out=2,
    short_headers={"units": MOST_IN_SERVICE_SHORT, "purchase_option": "option", "existing_units": "owned", "new_units": "bought",
                   "sold_units": "sold", "switched_off_units": "off", "instance_hours": "hours"},
)


def fleet_shown(fleet: pd.DataFrame) -> pd.DataFrame:
    """The fleet table as the terminal heads it: `units` as MOST_IN_SERVICE (JSON and CSV keep `units`)."""
    return fleet.rename(columns={"units": MOST_IN_SERVICE})


def fleet_narrower(fleet: pd.DataFrame) -> Narrower:
    """The layouts of a plan's `fleet` table for `emit`: FLEET, with the owned-card counts that are 0 in every row
    left out right after unit_id and kind (they say nothing in this plan), on one line as on two."""
    idle = tuple(col for col in OWNED_COUNTS if col in fleet.columns and not fleet[col].fillna(0).any())
    first = ("unit_id", "kind", *idle)
    spec = replace(FLEET, left_out_first=(*first, *(c for c in FLEET.left_out_first if c not in first)),
                   one_line_leaves_out=len(first))
    return narrower(fleet, spec, {SKU_AND_WHERE: sku_over_where(fleet)})
