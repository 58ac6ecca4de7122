"""The serving table says which hours of the week each slot holds (`hours_of_week`): a reader of "slot 3" could not tell
Monday 09:00-17:00 from the night hours.

Facts used, worked out by hand from the profile written here (one weight a line, Monday 00:00 first, as README
"profile" and planner/scenario/profile_csv.py read it): weekday office hours, Monday to Friday 08:00-17:00, at weight 3
(9 h × 5 days = 45 h), Saturday 10:00-14:00 at weight 2 (4 h), the other 168 − 45 − 4 = 119 h at weight 1. The engine
scales a profile to mean 1: the raw weights sum to 45 × 3 + 4 × 2 + 119 = 262, so the office hours weigh 3 × 168/262,
Saturday's 2 × 168/262 and the rest 168/262; a workload of 2 reference GPUs asks 2 × those. The other 119 hours are
Monday to Friday 00:00-08:00 and 17:00-24:00 (15 h × 5 = 75), Saturday 00:00-10:00 and 14:00-24:00 (20) and all Sunday
(24): 75 + 20 + 24 = 119. The built-in business_hours profile is Monday to Friday 09:00-18:00 (README).
"""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from planner import load_scenario
from planner.cli import app
from planner.engine import inputs_for, plan
from planner.engine.week_hours import week_hours_text
from planner.reports import plan_to_csv, plan_to_excel
from planner.reports.tables import plan_to_dict
from tests.planner.test_serving import offer_row, write_offers

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
OFFICE = "Mon-Fri 08:00-17:00"
SATURDAY = "Sat 10:00-14:00"
REST = "Mon-Fri 00:00-08:00, 17:00-24:00; Sat 00:00-10:00, 14:00-24:00; Sun all day"
HOURS_BY_HAND = {OFFICE: 45, SATURDAY: 4, REST: 119}
WEIGHT_BY_HAND = {OFFICE: 3 * 168 / 262, SATURDAY: 2 * 168 / 262, REST: 168 / 262}
REFERENCE_GPUS = 2.0


def raw_weight(hour: int) -> float:
    """The weight written for weekly hour `hour` (0 = Monday 00:00)."""
    day, of_day = divmod(hour, 24)
    if day < 5 and 8 <= of_day < 17:
        return 3.0
    if day == 5 and 10 <= of_day < 14:
        return 2.0
    return 1.0


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("slot-labels")


def scenario_dict(folder, horizon: int = 1, profile_text: str | None = None) -> dict:
    profile = folder / "office.csv"
    profile.write_text(profile_text or "".join(f"{raw_weight(h):g}\n" for h in range(168)), encoding="utf-8")
    offers = write_offers(folder, [offer_row("T4", 1, 1.0, 16.0)])
    return {"name": "slot labels", "horizon_months": horizon,
            "prices": {"source": offers, "providers": ["aws"], "purchase_options": ["on_demand"]},
            "workloads": [
                {"name": "office", "serving": True, "reference_gpus": REFERENCE_GPUS, "reference_gpu": "T4",
                 "profile": str(profile)},
                # a flat workload beside it: the week's slots are those of the office profile, for both
                {"name": "steady", "serving": True, "reference_gpus": 1.0, "reference_gpu": "T4"}]}


# ---------------------------------------------------------------------------------------------------
# The words for a set of weekly hours


def hours_of(day_hours: dict[str, range]) -> list[int]:
    return [DAYS.index(day) * 24 + h for day, hours in day_hours.items() for h in hours]


def test_the_whole_week_reads_all_week():
    assert week_hours_text(range(168)) == "all week"


def test_business_hours_read_mon_fri_09_18_and_the_rest_by_day():
    working = hours_of({d: range(9, 18) for d in DAYS[:5]})
    assert week_hours_text(working) == "Mon-Fri 09:00-18:00"
    rest = sorted(set(range(168)) - set(working))
    assert week_hours_text(rest) == "Mon-Fri 00:00-09:00, 18:00-24:00; Sat-Sun all day"


def test_scattered_hours_read_as_a_compact_list_in_the_order_of_their_first_day():
    assert week_hours_text(hours_of({"Mon": range(7), "Sat": range(24), "Sun": range(24)})) == \
        "Mon 00:00-07:00; Sat-Sun all day"
    # days apart with the same hours are one group; an hour alone ends at the next one; the last hour ends at 24:00
    assert week_hours_text(hours_of({"Mon": [12], "Wed": [12], "Thu": [3, 4, 9]})) == \
        "Mon, Wed 12:00-13:00; Thu 03:00-05:00, 09:00-10:00"
    assert week_hours_text([167]) == "Sun 23:00-24:00"


# ---------------------------------------------------------------------------------------------------
# The plan's serving table


def slots_of(serving: pd.DataFrame, workload: str) -> pd.DataFrame:
    """One row per slot of `workload` (a slot served by two units has two rows)."""
    return serving[serving["workload"] == workload].drop_duplicates("slot")


def test_each_serving_slot_names_the_hours_of_the_week_its_weight_holds(folder):
    p = plan(load_scenario(scenario_dict(folder)), baselines=False)
    for workload, scale in (("office", REFERENCE_GPUS), ("steady", None)):
        slots = slots_of(p.serving, workload)
        assert sorted(slots["hours_of_week"]) == sorted(HOURS_BY_HAND)
        assert slots["hours_per_week"].sum() == pytest.approx(168)
        for row in slots.itertuples():
            assert row.hours_per_week == pytest.approx(HOURS_BY_HAND[row.hours_of_week])
            # the words are those of the slot's own demand: the office hours ask the most
            expected = 1.0 if scale is None else scale * WEIGHT_BY_HAND[row.hours_of_week]
            assert row.demand == pytest.approx(expected)


def test_every_hour_on_its_own_reads_one_hour_each_with_its_own_weight(folder):
    # reduced=False plans every weekly hour as its own slot
    p = plan(load_scenario(scenario_dict(folder)), baselines=False, reduced=False)
    slots = slots_of(p.serving, "office")
    assert len(slots) == 168 and set(slots["hours_per_week"]) == {1.0}
    for row in slots.itertuples():
        day, _, span = row.hours_of_week.partition(" ")
        first = int(span[:2])
        assert span == f"{first:02d}:00-{first + 1:02d}:00"
        hour = DAYS.index(day) * 24 + first
        assert row.demand == pytest.approx(REFERENCE_GPUS * raw_weight(hour) * 168 / 262)
    assert sorted(DAYS.index(t[:3]) * 24 + int(t[4:6]) for t in slots["hours_of_week"]) == list(range(168))


def test_a_profile_changed_after_its_plan_read_it_gives_no_words_rather_than_wrong_ones(folder):
    s = load_scenario(scenario_dict(folder))
    inp = inputs_for(s)
    # another size than the file read (the profile cache knows a file by its size and time)
    (folder / "office.csv").write_text("".join(f"{4.0 if h < 100 else 1.0}\n" for h in range(168)), encoding="utf-8")
    p = plan(s, baselines=False, inputs=inp)
    assert p.serving["hours_of_week"].isna().all()
    assert sorted(slots_of(p.serving, "office")["hours_per_week"]) == [4.0, 45.0, 119.0]


# ---------------------------------------------------------------------------------------------------
# Where it is shown


@pytest.fixture(scope="module")
def office_plan(folder):
    return plan(load_scenario(scenario_dict(folder)), baselines=False)


def test_the_json_and_csv_carry_hours_of_week_as_a_last_column_beside_the_old_ones(office_plan):
    old = ["workload", "slot", "months", "hours_per_week", "demand_unit", "demand", "unit_id", "kind", "sku", "gpu",
           "instances", "capacity", "busy_units", "served"]
    rows = plan_to_dict(office_plan)["serving"]
    assert list(rows[0]) == [*old, "hours_of_week"]
    assert {r["hours_of_week"] for r in rows} == set(HOURS_BY_HAND)
    table = pd.read_csv(io.StringIO(plan_to_csv(office_plan, table="serving")))
    assert list(table.columns) == [*old, "hours_of_week"]
    assert set(table["hours_of_week"]) == set(HOURS_BY_HAND)


def test_the_workbook_has_a_serving_sheet_with_the_words_beside_the_hours(office_plan):
    wb = load_workbook(io.BytesIO(plan_to_excel(office_plan)))
    rows = list(wb["serving"].iter_rows(values_only=True))
    header = list(rows[0])
    assert header[header.index("hours_per_week") + 1] == "hours_of_week"
    read = {(r[header.index("workload")], r[header.index("hours_of_week")]): r[header.index("hours_per_week")]
            for r in rows[1:]}
    assert read == {(w, words): hours for w in ("office", "steady") for words, hours in HOURS_BY_HAND.items()}


def test_the_terminal_table_shows_the_words_of_each_slot(folder, tmp_path):
    path = tmp_path / "labels.yaml"   # JSON is YAML
    path.write_text(json.dumps(scenario_dict(folder)), encoding="utf-8")
    result = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", "--no-decisions"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    table = text[text.index("Serving:"):text.index("Cost by category")]
    header = next(line for line in table.splitlines() if line.startswith("┃"))
    names = [c.strip() for c in header.split("┃")[1:-1]]
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in table.splitlines() if line.startswith("│")]
    at, hours = names.index("hours_of_week"), names.index("hours_per_week")
    assert {(r[0], r[at], r[hours]) for r in rows} == {
        (w, words, str(h)) for w in ("office", "steady") for words, h in HOURS_BY_HAND.items()}
