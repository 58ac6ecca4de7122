"""How `fleetplan plan` draws its serving table (plan_views.serving_by_months) on a terminal narrower than it: with every
column it is some 200 columns wide (hours_of_week alone is up to 50: "Mon-Fri 00:00-09:00, 18:00-24:00; Sat-Sun all
day"), and narrower than that it was drawn a row at a time, one field a line.

Narrower, each row takes two lines or more, as cli/narrow.py lays a table out: the workload over the unit its demand is
in (in words, "requests per second", which fold between them), the slot's hours of the week (a line for each group of
days) over how many they are, the sku over its kind (card, on_demand, spot, reserved: the same sku on demand and spot
are two units). Those and the months and the instances always show: which workload, which slot, which unit and how
many. Left out first, as few as the terminal allows: gpu (the sku names it), busy_units, served (the demand, where one
unit serves the slot), capacity, demand; `emit` names them in a line under the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.cli.console import Narrower
from planner.cli.narrow import NarrowSpec, narrower
from planner.text import number_text

if TYPE_CHECKING:
    import pandas as pd

# the two-line layout's stacked columns: a header and its cells of two lines or more each
WORKLOAD_AND_UNIT = "workload\ndemand unit"
HOURS = "hours_of_week\nh/week"
SKU_AND_KIND = "sku\nkind"
SERVING = NarrowSpec(
    one_line=("workload", "in_months", "hours_per_week", "hours_of_week", "demand_unit", "demand", "kind", "sku", "gpu",
              "instances", "capacity", "busy_units", "served"),
    two_lines=(WORKLOAD_AND_UNIT, "in_months", HOURS, SKU_AND_KIND, "gpu", "instances", "demand", "capacity", "served",
               "busy_units"),
    stacks={WORKLOAD_AND_UNIT: ("workload", "demand_unit"), HOURS: ("hours_of_week", "hours_per_week"),
            SKU_AND_KIND: ("sku", "kind")},
    left_out_first=("gpu", "busy_units", "served", "capacity", "demand"),
    # one line a row is as wide as the whole table less its long headers: two lines come first where they leave out as
    # many, so one line leaving any out would never be drawn
    one_line_leaves_out=0,
    short_headers={"in_months": "months", "hours_per_week": "h/week", "demand_unit": "demand unit",
                   "busy_units": "busy units"},
)


def _hours(value: float) -> str:
    """A number of hours as the table draws a number: two decimals at most, no trailing zeros ("45", "4.5")."""
    return number_text(float(value))


def hours_cells(table: pd.DataFrame) -> list[str]:
    """Each row's hours of the week, a line for each group of days ("Mon-Fri 00:00-09:00, 18:00-24:00" over "Sat-Sun
    all day"), over how many hours a week they are ("123 h/week"); the number alone where the words are not known."""
    import pandas as pd

    cells = []
    for words, hours in zip(table["hours_of_week"], table["hours_per_week"]):
        lines = [] if pd.isna(words) else str(words).split("; ")
        cells.append("\n".join([*lines, f"{_hours(hours)} h/week"]))
    return cells


def serving_narrower(table: pd.DataFrame) -> Narrower | None:
    """The layouts of the serving table as `fleetplan plan` draws it (plan_views.serving_by_months) for `emit`; None
    where it lacks a column a stacked cell is made of (a plan written before hours_of_week)."""
    if not {c for pair in SERVING.stacks.values() for c in pair} <= set(table.columns):
        return None
    # the unit in words ("requests per second"), which a narrow column folds between them, not within a word
    units = [f"{w}\n{str(u).replace('_', ' ')}" for w, u in zip(table["workload"].astype(str), table["demand_unit"])]
    return narrower(table, SERVING, {WORKLOAD_AND_UNIT: units, HOURS: hours_cells(table)})
