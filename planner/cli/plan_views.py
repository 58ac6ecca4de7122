"""What `fleetplan plan` draws of some of the plan's tables, shaped for a terminal: the serving table with the months
that read the same on one row, the break-even table with the cloud offer behind its rate (narrower: the offer's sku and
option over its provider and region, short headers), and the estimated rows of the speeds table that the plan's
warnings point to. Display only: every figure is the plan's (the JSON, the CSVs and the workbook hold them all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.cli.console import Narrower
from planner.cli.narrow import NarrowSpec, narrower
from planner.text import offer_words

if TYPE_CHECKING:
    import pandas as pd

# the serving table's columns that say what a row is, besides its months (slot: a period's number, one per month;
# hours_of_week says which hours of the week it is)
SERVING_SHOWN = ("workload", "hours_per_week", "hours_of_week", "demand_unit", "demand", "kind", "sku", "gpu",
                 "instances", "capacity", "busy_units", "served")
SERVING_FLOATS = ("hours_per_week", "demand", "capacity", "busy_units", "served")


def _months_of(text: str) -> list[int]:
    """The months a period covers, from the serving table's `months` ("3", "1-12", "1, 3")."""
    out: list[int] = []
    for part in str(text).split(","):
        first, _, last = part.strip().partition("-")
        out += list(range(int(first), int(last or first) + 1))
    return out


def months_text(months: list[int]) -> str:
    """"1–36" for a run of months, "7" for one, "1, 3" otherwise."""
    if len(months) > 1 and months[-1] - months[0] == len(months) - 1:
        return f"{months[0]}–{months[-1]}"
    return ", ".join(map(str, months))


def serving_by_months(serving: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """The plan's serving table (one row per workload, slot — a period: an hour-of-week class in some months — and
    unit) with the rows of consecutive months that read the same at `digits` decimals on one row, `in_months` saying
    which ("1–36"): a constant workload is one row per hour-of-week class and unit, not one per month. The rows in the
    order their first month comes in the table (by month, then by unit: engine.readback.serving_table). The columns of
    SERVING_SHOWN the table has."""
    import pandas as pd

    shown = tuple(c for c in SERVING_SHOWN if c in serving.columns)
    runs: dict[tuple, int] = {}         # (what the row reads, its copy within the months) -> its row in `rows`
    rows: list[dict] = []
    copies: dict[tuple, int] = {}       # (what the row reads, months) -> copies so far: two slots that read the same
    for record in serving.to_dict("records"):
        months = _months_of(record["months"])
        reads = tuple(round(float(record[c]), digits) if c in SERVING_FLOATS else record[c]
                      for c in (*shown, "unit_id"))
        copy = copies[(reads, record["months"])] = copies.get((reads, record["months"]), -1) + 1
        key = (reads, copy)
        at = runs.get(key)
        if at is not None and rows[at]["months"][-1] + 1 == months[0] and months == list(range(months[0], months[-1] + 1)):
            rows[at]["months"] += months
            continue
        runs[key] = len(rows)
        rows.append({"months": months, **{c: record[c] for c in shown}})
    table = pd.DataFrame(rows, columns=["months", *shown])
    table.insert(2, "in_months", [months_text(m) for m in table["months"]])
    return table.drop(columns=["months"])


OFFER = "cloud_offer "   # the stacked header: the offer over where it is (a space: no column of the table is named so)
BREAK_EVEN = NarrowSpec(
    one_line=("card", "workload", "cloud_offer", "cloud_cost_per_reference_hour", "card_fixed_cost_per_month",
              "break_even_utilisation", "note"),
    two_lines=("card", "workload", OFFER, "cloud_cost_per_reference_hour", "card_fixed_cost_per_month",
               "break_even_utilisation", "note"),
    stacks={OFFER: ("cloud_offer", "cloud_offer")},
    left_out_first=("note",),
    one_line_leaves_out=1,
    short_headers={"cloud_cost_per_reference_hour": "cloud_per_ref_hour", "card_fixed_cost_per_month": "fixed_per_month",
                   "break_even_utilisation": "break_even", OFFER: "cloud offer"},
)


def break_even_shown(break_even: pd.DataFrame) -> tuple[pd.DataFrame, Narrower]:
    """The break-even table with its cloud offer in words ("g5.xlarge spot (aws eu-west-1)", the offer whose rate is
    cloud_cost_per_reference_hour; its note where some row has one), and its layouts for a narrower terminal: short
    headers, the offer over where it is, the note left out first. A utilisation no card reaches (above 1, or inf: cloud
    work costs less than its energy) reads "never", as on the dashboard (reports.tables.break_even_shown_as): the
    note that says so is the first column a narrow terminal leaves out."""
    from planner.reports.tables import break_even_shown_as

    words = [offer_words(o) for o in break_even["cloud_offer"]]
    if "note" in break_even.columns and not break_even["note"].fillna("").astype(str).str.strip().any():
        break_even = break_even.drop(columns=["note"])   # an empty column says nothing
    table = break_even.assign(cloud_offer=[f"{what} ({where})" if where else what for what, where in words])
    if "break_even_utilisation" in table.columns:
        table = table.assign(break_even_utilisation=[break_even_shown_as(u) for u in table["break_even_utilisation"]])
    return table, narrower(table, BREAK_EVEN, {OFFER: [f"{what}\n{where}" for what, where in words]})


# the header of a decision table's `units` (count alternatives, flip points): cards held over the plan — owned and not
# sold, and bought in any month —, where the fleet table's are the most in service at once (fleet_table.MOST_IN_SERVICE)
HELD = "held"


def held_headers(table: pd.DataFrame) -> pd.DataFrame:
    """A decision table as the terminal heads it: its `units` as HELD (JSON, CSV and the workbook keep `units`)."""
    return table.rename(columns={"units": HELD})


def other_types_words(other_types: dict | None, plan_fleet: dict | None = None) -> str:
    """How the runner-up's line names the best plan with other card types (engine.decisions' `other_types`): "with no
    cards (all cloud)" where its fleet holds no reservation and no card at work (cloud hours on demand or spot only —
    "with other card types: … rtx-4090 3 → 0" read as another card bought), saying what it does with the owned cards
    — "with no cards (1 owned card sold, all cloud)" (engine.decisions.all_cloud_words) —, else what differs from the
    plan's fleet `plan_fleet` (the runner-up's): "with other card types", "with other reservations" or "with other card
    types and reservations" (engine.decisions.other_types_kinds)."""
    from planner.engine.decisions import all_cloud_words, other_types_kinds  # here: the CLI loads the engine only to plan

    cloud = all_cloud_words(other_types)
    if cloud is not None:
        return f"with no cards ({cloud})"
    return f"with other {other_types_kinds(plan_fleet, (other_types or {}).get('fleet'))}"


def estimated_speeds(speeds: pd.DataFrame | None) -> pd.DataFrame:
    """The rows of the plan's speeds table estimated from datasheet figures (source "estimated"), those its warnings
    on estimated speeds name: workload, gpu, relative_speed (four significant digits), used_by (the plan, the
    baselines) and how it was estimated; empty where none is."""
    import pandas as pd

    if speeds is None or not len(speeds) or "source" not in speeds.columns:
        return pd.DataFrame()
    rows = speeds[speeds["source"] == "estimated"]
    shown = rows[[c for c in ("workload", "gpu", "relative_speed", "used_by", "detail") if c in rows.columns]].copy()
    shown["relative_speed"] = [f"{v:.4g}" for v in shown["relative_speed"]]
    return shown.rename(columns={"detail": "estimated_from"}).reset_index(drop=True)
