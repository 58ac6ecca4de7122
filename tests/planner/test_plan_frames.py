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

from pathlib import Path

import pytest

from planner import plan
from planner.errors import PlannerError

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


def test_startup_hybrids_two_owned_cards_are_whole_numbers(plans):
    owned = plans["startup-hybrid"].owned.iloc[0]
    assert owned["card"] == "rtx-3060-12gb" and owned["owned_units"] == 2
    assert owned["kept"] + owned["switched_off"] + owned["sold"] == 2
    row = plans["startup-hybrid"].fleet.set_index("sku").loc["rtx-3060-12gb"]
    assert row["existing_units"] == 2 and row["sold_units"] == owned["sold"]
    assert row["switched_off_units"] == owned["switched_off"]


# --- 2. Plan.cost of an unknown category ----------------------------------------------------------------------

def test_cost_of_a_misspelt_category_names_the_categories_and_the_near_one(mid):
    with pytest.raises(PlannerError) as caught:
        mid.cost("enrgy")
    assert str(caught.value) == (f"Plan.cost: unknown cost category 'enrgy'; did you mean 'energy'? "
                                 f"(categories: {CATEGORIES})")
    with pytest.raises(KeyError):   # what a notebook caught before: the table's KeyError
        mid.cost("hardware")
    assert mid.cost("energy") == pytest.approx(5962.53, abs=0.005)


