"""A finance analyst's notebook audit of 2026-12-07: four names and units a notebook user met.

- A sweep's `vary` (a dotted path, as `overrides`) given plan()'s keyword spelling, `onprem__electricity_per_kwh`,
  was an unknown key with the scenario's keys listed and no word of the path meant.
- plan(s, workloads__llm_finetune__growth_per_month=…) was offered 'llm-finetune', a name no keyword can spell.
- to_csv(p, table="montly") listed the tables without the "did you mean" Plan.cost("enrgy") gives.
- The workbook's summary sheet said `%` beside the fraction 0.5 (resale_share_of_book): read with pandas, which drops
  the cell's percentage format, it was "0.5 %".
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook

from planner import apply_overrides, load_scenario, plan, sweep, to_csv, to_excel
from planner.errors import PlannerError, ScenarioError

ROOT = Path(__file__).resolve().parents[2]
FRACTION = "fraction (0.5 = 50 %)"


@pytest.fixture(scope="module")
def hybrid():
    return load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")   # workloads llm-finetune, prototyping


@pytest.fixture(scope="module")
def worked_plan():
    return plan(load_scenario(ROOT / "examples" / "worked-example.yaml"), baselines=False)


# ------------------------------------------------------------------ `__` in a dotted path

def test_a_sweep_over_the_keyword_spelling_is_offered_the_dotted_path(hybrid, nothing_solved):
    with pytest.raises(ScenarioError) as caught:
        sweep(hybrid, vary={"onprem__electricity_per_kwh": [0.1]}, processes=1)
    said = str(caught.value)
    assert "did you mean 'onprem.electricity_per_kwh'?" in said
    assert "'__' stands for '.' in plan()'s keyword arguments only" in said
    assert "allowed: name" not in said   # the scenario's keys are no help here


def test_the_dotted_path_offered_is_one_that_works(hybrid):
    with pytest.raises(ScenarioError, match=r"did you mean 'onprem\.electricity_per_kwh'\?"):
        apply_overrides(hybrid, {"onprem__electricity_per_kwh": 0.1})
    assert apply_overrides(hybrid, {"onprem.electricity_per_kwh": 0.1}).onprem.electricity_per_kwh == 0.1


def test_a_keyword_spelling_that_is_no_path_either_says_what_is_wrong_with_it(hybrid):
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(hybrid, {"workloads__llm_finetune__growth_per_month": 0.03})
    said = str(caught.value)
    assert "workloads.llm_finetune.growth_per_month is no path either" in said
    assert "no workload named 'llm_finetune' in workloads; did you mean 'llm-finetune'?" in said
    assert "did you mean 'workloads.llm_finetune" not in said   # a path that does not work is not offered


def test_an_unknown_key_without_underscores_keeps_its_own_did_you_mean(hybrid):
    with pytest.raises(ScenarioError, match=r"unknown key 'horizon_month' under \(top level\); did you mean "
                                            r"'horizon_months'\?"):
        apply_overrides(hybrid, {"horizon_month": 12})


# ------------------------------------------------------------------ a workload name no keyword can spell

def test_a_keyword_is_told_how_to_give_a_workload_name_holding_a_dash(hybrid):
    with pytest.raises(ScenarioError) as caught:
        plan(hybrid, workloads__llm_finetune__growth_per_month=0.03)
    said = str(caught.value)
    assert "did you mean 'llm-finetune'?" in said
    assert "overrides={'workloads.llm-finetune.growth_per_month': 0.03}" in said
    # llm-finetune is the scenario's first workload: index 0
    assert "workloads__0__growth_per_month=0.03" in said


def test_both_ways_offered_set_the_workload_meant(hybrid):
    by_mapping = apply_overrides(hybrid, overrides={"workloads.llm-finetune.growth_per_month": 0.03})
    by_index = apply_overrides(hybrid, workloads__0__growth_per_month=0.03)
    for changed in (by_mapping, by_index):
        assert {w.name: w.growth_per_month for w in changed.workloads}["llm-finetune"] == 0.03


def test_a_name_a_keyword_can_spell_gets_the_did_you_mean_alone(hybrid):
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(hybrid, workloads__prototypin__growth_per_month=0.03)
    said = str(caught.value)
    assert "did you mean 'prototyping'?" in said and "keyword argument cannot" not in said


def test_a_dotted_path_is_not_told_about_keywords(hybrid):
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(hybrid, {"workloads.llm_finetune.growth_per_month": 0.03})
    said = str(caught.value)
    assert "did you mean 'llm-finetune'?" in said and "keyword argument cannot" not in said


# ------------------------------------------------------------------ table names

@pytest.mark.parametrize("given, meant", [("montly", "monthly"), ("Fleet", "fleet"), ("baseline", "baselines"),
                                          ("excluded", "excluded_offers")])
def test_a_misspelt_table_is_offered_the_table_meant(worked_plan, given, meant):
    with pytest.raises(PlannerError, match=rf"^unknown table '{given}'; did you mean '{meant}'\? \(one of fleet, "):
        to_csv(worked_plan, table=given)


def test_a_table_name_like_none_lists_the_tables(worked_plan):
    with pytest.raises(PlannerError, match=r"^unknown table 'zzz' \(one of fleet, monthly, costs, "):
        to_csv(worked_plan, table="zzz")


# ------------------------------------------------------------------ the summary sheet's shares

def test_a_share_on_the_summary_sheet_reads_as_a_fraction_with_pandas(worked_plan, tmp_path):
    path = tmp_path / "plan.xlsx"
    to_excel(worked_plan, path, start="2027-01")
    summary = pd.read_excel(path, sheet_name="summary").set_index("field")
    # the scenario leaves resale.share_of_book at its default, half the book value
    assert summary.loc["assumption.resale_share_of_book", "value"] == 0.5
    assert summary.loc["assumption.resale_share_of_book", "unit"] == FRACTION
    assert summary.loc["solver.gap", "unit"] == FRACTION
    assert "%" not in set(summary["unit"].dropna())


def test_every_summary_cell_shown_as_a_percentage_says_it_holds_a_fraction(worked_plan):
    ws = load_workbook(io.BytesIO(to_excel(worked_plan, start="2027-01")))["summary"]
    shares = {field.value: unit.value for field, value, unit in ws.iter_rows(min_row=2) if "%" in value.number_format}
    assert set(shares) >= {"assumption.resale_share_of_book", "solver.gap"}
    assert set(shares.values()) == {FRACTION}


def test_no_keyword_advice_that_would_be_refused(hybrid):
    # the name's '-' written as '__' (a review, 2026-12-07): the suggested forms kept 'finetune' and were refused
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(hybrid, workloads__llm__finetune__gpu_hours_per_month=500)
    said = str(caught.value)
    assert "did you mean 'llm-finetune'?" in said
    assert "overrides=" not in said and "by its position" not in said
