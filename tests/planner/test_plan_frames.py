"""The DataFrames a finance notebook reads from a Plan (an audit, working in a notebook): each money table says its
currency and basis in `attrs` — the column names do not, and `cost` is a present value in costs and fleet but
nominal in flows —, `Plan.cost` of a misspelt category names the categories, a count column has one dtype in every
plan, and compare's fleet gives a row absent on one side 0 hours as it gives it 0 cost.

Oracles, from the scenario files: mid-research.yaml is in USD at a discount rate of 0.05/year, so month m's money is
worth 1 / 1.05^((m − 1) / 12) of it at month 1 (docs/cost-model.md §10): its monthly energy, 6,407.20 USD as paid,
is 5,962.53 USD of present value; startup-hybrid.yaml is undiscounted (0.0) and owns 2 RTX 3060 12 GB cards
(`existing: {rtx-3060-12gb: 2}`); entry.yaml and mid-research.yaml rent T4 spot in different regions (eastus,
westus2), so no row of their fleets is on both sides."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pandas as pd
import pytest

from planner import add_decisions, compare, plan
from planner.errors import PlannerError
from planner.reports.tables import plan_to_csv, present_value_basis

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ("entry", "mid-research", "industrial", "startup-hybrid")
MID_BASIS = "present value at 5%/year"
CATEGORIES = ("capex, residual_value, maintenance, energy, colocation, fixed_onprem, cloud_reserved, cloud_on_demand, "
              "cloud_spot")


@pytest.fixture(scope="module")
def plans() -> dict:
    return {name: plan(ROOT / "scenarios" / f"{name}.yaml", baselines=name == "mid-research") for name in SCENARIOS}


@pytest.fixture(scope="module")
def mid(plans):
    return plans["mid-research"]


# --- 1. currency and money basis in attrs --------------------------------------------------------------------

def test_mid_research_present_value_tables_say_usd_at_5_percent_a_year(mid):
    for name, columns in (("costs", ["cost"]), ("fleet", ["cost"]), ("owned", ["fixed_costs_avoided", "end_value"]),
                          ("baselines", ["total", "savings", "error_bound"])):
        attrs = getattr(mid, name).attrs
        assert attrs["currency"] == "USD" and attrs["money_basis"] == MID_BASIS, name
        assert attrs["money_columns"] == dict.fromkeys(columns, MID_BASIS), name


def test_mid_research_monthly_and_schedule_say_nominal_and_which_monthly_column_is_a_present_value(mid):
    assert mid.schedule.attrs == {"currency": "USD", "money_basis": "nominal", "money_columns": {"amount": "nominal"}}
    monthly = mid.monthly.attrs
    assert monthly["currency"] == "USD"
    assert monthly["money_basis"] == f"nominal; total_discounted: {MID_BASIS}"
    assert monthly["money_columns"]["energy"] == monthly["money_columns"]["total"] == "nominal"
    assert monthly["money_columns"]["total_discounted"] == MID_BASIS
    assert "month" not in monthly["money_columns"] and "discount_factor" not in monthly["money_columns"]
    # flows' `cost` is nominal, the same name as the present value of costs and fleet
    assert mid.flows.attrs["money_columns"] == {"cost": "nominal", "present_value": MID_BASIS}


def test_monthly_energy_as_paid_discounted_month_by_month_is_the_present_value_cost_energy(mid):
    rows = mid.monthly
    factor = 1 / 1.05 ** ((rows["month"] - 1) / 12)          # d(m), worked here, not read from the table
    assert rows["energy"].sum() == pytest.approx(6407.20, abs=0.005)
    assert mid.cost("energy") == pytest.approx(5962.53, abs=0.005)
    assert (rows["energy"] * factor).sum() == pytest.approx(mid.cost("energy"), rel=1e-12)
    # the whole month's total alike, in months 1 … H (H+1 folds the payments after the horizon, each discounted
    # in its own month)
    inside = rows["month"] <= 36
    assert (rows["total"] * factor)[inside].tolist() == pytest.approx(rows["total_discounted"][inside].tolist(), rel=1e-12)


def test_the_attrs_basis_is_the_words_of_the_csv_exports_money_basis(plans):
    for name, p in plans.items():
        csv = pd.read_csv(io.StringIO(plan_to_csv(p, table="fleet")))
        assert set(csv["money_basis"]) == {p.fleet.attrs["money_basis"]} == {present_value_basis(p)}, name
        assert set(csv["currency"]) == {p.fleet.attrs["currency"]}, name
    assert plans["startup-hybrid"].costs.attrs["money_basis"] == "present value at 0%/year, undiscounted"


def test_a_table_set_after_the_plan_is_made_is_labelled_and_a_plan_without_its_scenario_says_present_value(mid):
    p = dataclasses.replace(mid)   # the same frames: setting a table of the copy changes none of mid's
    p.decisions = pd.DataFrame({"decision": ["buy"], "total_if_forbidden": [10.0], "increase": [1.0]})
    assert p.decisions.attrs["money_columns"] == {"total_if_forbidden": MID_BASIS, "increase": MID_BASIS}
    p.scenario = None
    assert p.costs.attrs["money_basis"] == "present value"
    p.scenario = mid.scenario
    assert p.costs.attrs["money_basis"] == MID_BASIS


def test_pandas_keeps_attrs_through_copy_head_and_selection_and_drops_them_through_merge_and_csv(mid):
    """The facts the README's library section states about pandas 3."""
    fleet = mid.fleet
    kept = {"copy": fleet.copy(), "head": fleet.head(2), "columns": fleet[["sku", "cost"]], "column": fleet["cost"],
            "filter": fleet[fleet["cost"] > 100], "sort": fleet.sort_values("cost"),
            "groupby": fleet.groupby("kind")[["cost"]].sum(), "concat of one plan": pd.concat([fleet, fleet])}
    for name, table in kept.items():
        assert table.attrs["money_basis"] == MID_BASIS, name
    dropped = {"merge": fleet.merge(mid.offers[["unit_id", "hourly_price"]], on="unit_id"),
               "concat with another table": pd.concat([fleet, mid.schedule]),
               "csv": pd.read_csv(io.StringIO(fleet.to_csv(index=False)))}
    for name, table in dropped.items():
        assert table.attrs == {}, name
    assert not hasattr(fleet["cost"].sum(), "attrs")   # a number is only a number


# --- 2. Plan.cost of an unknown category ----------------------------------------------------------------------

def test_cost_of_a_misspelt_category_names_the_categories_and_the_near_one(mid):
    with pytest.raises(PlannerError) as caught:
        mid.cost("enrgy")
    assert str(caught.value) == (f"Plan.cost: unknown cost category 'enrgy'; did you mean 'energy'? "
                                 f"(categories: {CATEGORIES})")
    with pytest.raises(KeyError):   # what a notebook caught before: the table's KeyError
        mid.cost("hardware")
    assert mid.cost("energy") == pytest.approx(5962.53, abs=0.005)


# --- 3. one dtype per column in every plan ---------------------------------------------------------------------

COUNT_COLUMNS = {"fleet": ["existing_units", "sold_units", "switched_off_units"], "schedule": ["units"],
                 "owned": ["owned_units", "kept", "switched_off", "sold"], "installed": ["units"],
                 "utilisation": ["units"], "serving": ["instances"], "exclusions": ["offers"]}


@pytest.mark.parametrize("name", SCENARIOS)
def test_count_columns_are_int64_in_every_shipped_plan(plans, name):
    p = plans[name]
    for table, columns in COUNT_COLUMNS.items():
        for column in columns:
            assert getattr(p, table)[column].dtype == "int64", (table, column)
    # units and new_units stay float: NaN for an offer rented by the hour, which has no count
    assert p.fleet["units"].dtype == p.fleet["new_units"].dtype == "float64"


def test_the_decisions_units_are_whole_counts(plans):
    # a card bought, sold or an instance reserved is a whole count: the decisions table had them as float64 (3.0)
    p = add_decisions(dataclasses.replace(plans["startup-hybrid"]), total_time_limit=600)
    bought_or_sold = p.schedule[p.schedule["action"].isin(["buy", "sell"])]
    assert p.decisions["units"].dtype == "int64"
    assert sorted(p.decisions["units"]) == sorted(int(u) for u in bought_or_sold["units"])


def test_startup_hybrids_two_owned_cards_are_whole_numbers(plans):
    owned = plans["startup-hybrid"].owned.iloc[0]
    assert owned["card"] == "rtx-3060-12gb" and owned["owned_units"] == 2
    assert owned["kept"] + owned["switched_off"] + owned["sold"] == 2
    row = plans["startup-hybrid"].fleet.set_index("sku").loc["rtx-3060-12gb"]
    assert row["existing_units"] == 2 and row["sold_units"] == owned["sold"]
    assert row["switched_off_units"] == owned["switched_off"]


# --- compare: a row absent on one side ------------------------------------------------------------------------

def test_compare_gives_a_row_absent_on_one_side_zero_units_hours_and_cost_there(plans):
    entry, mid = plans["entry"], plans["mid-research"]
    c = compare(entry, mid)
    assert len(c.fleet) == len(entry.fleet) + len(mid.fleet)   # no row on both sides
    t4 = c.fleet[c.fleet["region"] == "eastus"].iloc[0]        # entry's T4 spot in eastus
    own = entry.fleet.iloc[0]
    assert t4["instance_hours_a"] == own["instance_hours"] and t4["cost_a"] == own["cost"]
    assert (t4["instance_hours_b"], t4["cost_b"]) == (0, 0)
    assert pd.isna(t4["units_a"]) and pd.isna(t4["units_b"])   # rented by the hour: no count on either side
    card = c.fleet[c.fleet["sku"] == "rtx-4090"].iloc[0]       # mid-research's cards, none on entry's side
    assert (card["units_a"], card["instance_hours_a"], card["cost_a"]) == (0, 0, 0)
    assert card["units_b"] == mid.fleet.set_index("sku").loc["rtx-4090", "units"]
    hours = c.fleet["instance_hours_b"] - c.fleet["instance_hours_a"]
    assert hours.notna().all() and hours.sum() == pytest.approx(mid.fleet["instance_hours"].sum()
                                                                 - entry.fleet["instance_hours"].sum())
