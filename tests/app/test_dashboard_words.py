"""The dashboard says the engine's names in words (display only; the downloads keep the names): cost categories
read "residual_value", "fixed_onprem"; the baselines table "all_cloud"; Compare's "Inputs that differ" the path
"onprem.electricity_per_kwh"; a baseline's help "constraints.max_cloud_share = 0.6"; the break-even table "481%";
the all-cloud baseline without a plan was "no capacity of this type can serve llm-finetune" when the user had
removed every provider; the Export caption named CLI commands; the fleet CSV held the solver's float noise.

Oracles: the words written here, startup-hybrid.yaml's inputs, break-even shares and notes made up by hand."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import charts, exports, tables
from planner import load_scenario
from planner.engine import plan

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def startup():
    return load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")


@pytest.mark.parametrize(("category", "words"), [
    ("residual_value", "Residual value (resale)"), ("cloud_on_demand", "Cloud on demand"),
    ("fixed_onprem", "Fixed on-prem (site)"), ("capex", "Capex (cards bought)"), ("total", "Total")])
def test_cost_categories_in_words(category, words):
    assert tables.category_words(category) == words


def test_the_monthly_charts_legend_names_categories_in_words():
    monthly = pd.DataFrame({"month": [1, 2, 3], "capex": [100.0, 0, 0], "residual_value": [0.0, 0, -40.0],
                            "cloud_on_demand": [5.0, 5, 0]})
    names = [trace.name for trace in charts.monthly_chart(monthly, "USD", 2).data]
    assert names == ["Capex", "Residual value", "Cloud on demand"]   # short: two a row on a phone


@pytest.mark.parametrize(("path", "words"), [
    ("onprem.electricity_per_kwh", "Electricity price, per kWh"),
    ("constraints.max_cloud_share", "Cloud share cap (of the work)"),
    ("workloads.llm-finetune.gpu_hours_per_month", "llm-finetune: GPU-hours per month"),
    ("workloads.v1.2 jobs.growth_per_month", "v1.2 jobs: growth per month"),          # a name with a dot
    ("workloads.llm-finetune.throughput.H100-SXM", "llm-finetune: throughput H100-SXM"),
    ("constraints.min_units.rtx-4090", "rtx-4090: least cards"),
    ("onprem.card_overrides.a100-80gb-pcie.price", "On-prem: card overrides: a100-80gb-pcie: price"),
    ("onprem.resale", "Resale value of cards"), ("onprem.resale.share_of_book", "Resale: share of book value paid"),
    ("onprem.custom_cards", "Custom cards (cards the catalog lacks)"),
])
def test_scenario_fields_in_words(path, words):
    assert tables.field_name(path) == words


def test_a_notes_limits_in_words():
    note = ("costs less than the plan: it drops constraints.max_cloud_share = 0.6, which alone costs the plan "
            "1,310,367 USD; constraints.min_units.a100-80gb-pcie = 1, which alone costs the plan 97,884 USD")
    assert tables.note_words(note) == (
        "costs less than the plan: it drops the cloud share cap of 60 %, which alone costs the plan 1,310,367 USD; "
        "the least of 1 × a100-80gb-pcie, which alone costs the plan 97,884 USD")
    assert tables.note_words("it drops onprem.capex_budget = 60,000 USD, which the plan keeps") == \
        "it drops the capex budget of 60,000 USD, which the plan keeps"


def test_a_break_even_above_every_hour_is_never_with_the_share_in_its_note():
    be = pd.DataFrame({"card": ["a100", "a100", "t4"], "workload": ["proto", "train", "proto"],
                       "cloud_offer": ["aws:r:x:spot"] * 3, "cloud_cost_per_reference_hour": [0.24, 2.9, 0.24],
                       "card_fixed_cost_per_month": [441.5, 441.5, 30.0],
                       "break_even_utilisation": [4.81143, 0.214, math.inf],
                       "note": ["above availability: cloud is cheaper", "",
                                "never: cloud work costs less than the card's energy"]})
    shown, notes = tables.break_even_table(SimpleNamespace(break_even=be, utilisation=pd.DataFrame()))
    assert shown["break_even_utilisation"].tolist()[1] == pytest.approx(21.4)
    assert math.isinf(shown["break_even_utilisation"][0]) and math.isinf(shown["break_even_utilisation"][2])
    assert notes == ["a100 for proto: it would have to work 481 % of its hours, more than there are: renting this "
                     "work costs less at any utilisation",
                     "t4 for proto: never: cloud work costs less than the card's energy"]


def test_with_no_provider_allowed_all_cloud_says_so(startup):
    none = startup.model_copy(update={"prices": startup.prices.model_copy(update={"providers": ()})})
    p = plan(none)
    said = "no cloud offer is allowed: the scenario allows no provider (Allowed providers is empty)"
    assert tables.baseline_row(p, "all_cloud")["note"] == said
    assert tables.break_even_text(p, tables.cumulative(p), None) == f"No all-cloud plan to compare with: {said}."
    table = tables.baselines_table(p)
    assert table["baseline"].tolist() == ["All cloud", "All on-prem", "Best single type"]
    assert table["note"].tolist()[0] == said
    assert p.baselines["baseline"].tolist() == ["all_cloud", "all_onprem", "best_single"]   # the plan's own: names


def test_the_plan_pages_cost_table_names_categories_in_words(startup):
    p = plan(startup, baselines=False)
    costs = tables.cost_table(p)
    assert costs["category"].tolist()[-1] == "Total" and "Residual value (resale)" in costs["category"].tolist()
    assert costs["cost"].iloc[-1] == p.total
    assert "residual_value" in p.costs["category"].tolist()


def test_the_fleet_csv_is_rounded_for_reading_and_the_plan_kept_exact(startup):
    p = plan(startup, baselines=False)
    exact = exports.plan_csv(p, "fleet")
    # the two owned RTX 3060s sold: 2 × 0.5 × (2,500 + 5,400) CNY × 0.13749 USD/CNY = 1,086.171 USD, kept to the mill
    assert ",-1086.171," in exact                               # kept where the plan is exact
    shown = pd.read_csv(pd.io.common.StringIO(exports.plan_csv(tables.fleet_for_reading(p), "fleet")))
    for column in ("cost", "instance_hours"):
        assert (shown[column].dropna() == shown[column].dropna().round(2)).all(), column
    assert shown["cost"].tolist()[0] == -1086.17                                    # to the cent
    assert shown["cost"].sum() == pytest.approx(p.total, abs=0.03)                 # four rows, each within half a cent
    assert exports.plan_csv(p, "fleet") == exact                                    # the plan itself unchanged


def test_compare_names_inputs_and_categories_in_words_and_export_names_no_command():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.slider(key="edit:electricity_per_kwh").set_value(0.2).run()
    at.switch_page("fleetplan_dashboard/pages/compare.py").run()
    assert not at.exception, [e.value for e in at.exception]
    inputs = next(d.value for d in at.dataframe if "path" in d.value.columns)
    assert inputs["input"].tolist() == ["Electricity price, USD per kWh"]   # the currency, as the sidebar says it
    assert inputs["path"].tolist() == ["onprem.electricity_per_kwh"]
    costs = next(d.value for d in at.dataframe if "cost_delta" in d.value.columns)
    assert "Residual value (resale)" in costs["category"].tolist()
    assert not [c for c in costs["category"] if "_" in c]
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [c.value for c in at.caption if "fleetplan " in c.value]
