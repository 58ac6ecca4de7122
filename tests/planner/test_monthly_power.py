"""The monthly table's cards in service and power (a procurement audit, 2026-12-07: "monthly.csv has no units or kW
column, so the power cap can't be checked month by month from it"): cards_in_service and power_kw each month, the
figure onprem.power_cap_kw bounds (busy watts of the cards in service, no PUE, no idle watts), in Plan.monthly,
plan.json, monthly.csv and the workbook's monthly sheet, never summed into a money total."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from planner import plan
from planner.engine.schedule import COST_CATEGORIES
from planner.reports.compare import compare
from planner.reports.excel import monthly_sheet
from planner.reports.tables import plan_start, plan_to_csv, plan_to_json
from planner.reports.yearly import yearly_amounts

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def grown(tmp_path_factory):
    """The worked example (RTX A5000: 400 W busy, 100 W idle; 800 reference hours a month, flat) without its budget,
    all work on-prem, a card buyable every month, one A5000 owned, two RTX 3060 12GB owned that cannot serve the
    16 GB workload and may not be sold (switched off), demand growing 3 % a month, a 1.2 kW cap (three A5000s).
    One card gives 0.9 × 730 = 657 hours: 800 needs two (the owned one and one bought in month 1) until
    800 × 1.03^(m−1) > 1,314, first in month 18 (800 × 1.03^17 = 1,322.5; month 17: 1,284.0); month 24 needs
    800 × 1.03^23 = 1,579.5 ≤ 1,971, three cards."""
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    del doc["onprem"]["capex_budget"]
    doc["fx"] = {"CNY": 0.13749}   # the RTX 3060's catalog price is in CNY
    doc["onprem"].update(existing={"rtx-a5000": 1, "rtx-3060-12gb": 2}, sell_owned=False, purchase_every_months=1,
                         power_cap_kw=1.2)
    doc["workloads"][0]["growth_per_month"] = 0.03
    doc["constraints"] = {"max_cloud_share": 0}
    path = tmp_path_factory.mktemp("power") / "grown.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return plan(str(path), baselines=False)


TWO, THREE = 17, 7   # months 1-17 two A5000s in service, 18-24 three


def test_cards_in_service_and_power_each_month_are_the_hand_worked_ones(grown):
    monthly = grown.monthly
    assert list(monthly["month"]) == list(range(1, 26))
    # the switched-off RTX 3060s are neither counted nor drawing power, as the power cap leaves them out
    owned = grown.owned.set_index("card")
    assert (owned.loc["rtx-3060-12gb", "switched_off"], owned.loc["rtx-a5000", "kept"]) == (2, 1)
    assert list(monthly["cards_in_service"]) == [2] * TWO + [3] * THREE + [0]   # row 25: after the horizon, none
    assert monthly["cards_in_service"].dtype == np.int64
    assert monthly["power_kw"].to_numpy() == pytest.approx([0.8] * TWO + [1.2] * THREE + [0.0], abs=1e-12)
    assert (monthly["power_kw"] <= 1.2 + 1e-9).all()


def test_the_money_columns_still_add_up_to_the_total(grown):
    monthly = grown.monthly
    assert monthly[list(COST_CATEGORIES)].sum(axis=1).to_numpy() == pytest.approx(monthly["total"].to_numpy(), abs=1e-6)
    assert monthly["total_discounted"].sum() == pytest.approx(grown.total, abs=1e-6)   # undiscounted: 0 %/year
    years = yearly_amounts(grown)
    assert years["total_nominal"].sum() == pytest.approx(monthly["total"].sum(), abs=1e-6)
    assert years["total_present_value"].sum() == pytest.approx(grown.total, abs=1e-6)


def test_plan_json_and_monthly_csv_carry_them_last(grown):
    rows = json.loads(plan_to_json(grown))["monthly"]
    assert list(rows[0])[-5:] == ["money_basis", "plan_year", "calendar_month", "cards_in_service", "power_kw"]
    assert [r["cards_in_service"] for r in rows] == [2] * TWO + [3] * THREE + [0]
    assert [r["power_kw"] for r in rows] == pytest.approx([0.8] * TWO + [1.2] * THREE + [0.0], abs=1e-12)
    table = list(csv.DictReader(io.StringIO(plan_to_csv(grown, table="monthly"))))
    assert list(table[0])[-6:] == ["currency", "money_basis", "plan_year", "calendar_month", "cards_in_service",
                                   "power_kw"]
    assert [int(r["cards_in_service"]) for r in table] == [2] * TWO + [3] * THREE + [0]
    assert [float(r["power_kw"]) for r in table] == pytest.approx([0.8] * TWO + [1.2] * THREE + [0.0], abs=1e-12)


def test_the_workbook_monthly_sheet_shows_them_outside_its_money_totals(grown):
    sheet = monthly_sheet(grown, plan_start("2027-01"), " (USD)")
    assert list(sheet.frame.columns)[-2:] == ["cards_in_service", "power_kw"]
    assert list(sheet.frame["cards_in_service"]) == [2] * TWO + [3] * THREE + [0]
    assert "cards_in_service" not in sheet.totals and "power_kw" not in sheet.totals
    assert sheet.formats["power_kw"] == "#,##0.000"


@pytest.mark.parametrize("name", ["startup-hybrid.yaml", "industrial.yaml"])
def test_power_never_exceeds_the_cap_and_is_the_busy_watts_of_the_cards_installed(name):
    scenario = yaml.safe_load((ROOT / "scenarios" / name).read_text(encoding="utf-8"))
    cap = float(scenario["onprem"]["power_cap_kw"])
    p = plan(str(ROOT / "scenarios" / name), baselines=False)
    monthly = p.monthly.set_index("month")
    H = int(p.horizon_months)
    assert (monthly["power_kw"] <= cap + 1e-9).all()
    # the same figure from the installed table and each card's busy watts (the plan's offers)
    watts = p.offers.loc[p.offers["kind"] == "card"].set_index("sku")["busy_watts"]
    installed = p.installed.assign(kw=lambda t: t["units"] * t["card"].map(watts).fillna(0.0) / 1000.0)
    by_month = installed.groupby("month")[["units", "kw"]].sum()
    assert monthly.loc[1:H, "cards_in_service"].to_numpy() == pytest.approx(by_month["units"].to_numpy())
    assert monthly.loc[1:H, "power_kw"].to_numpy() == pytest.approx(by_month["kw"].to_numpy(), abs=1e-9)
    assert monthly["power_kw"].max() > 0   # the plan holds cards, so the check above is not about an empty fleet


def test_a_plan_saved_before_them_still_compares_with_one_that_has_them(grown):
    doc = json.loads(plan_to_json(grown))
    old = json.loads(plan_to_json(grown))
    old["monthly"] = [{k: v for k, v in row.items() if k not in ("cards_in_service", "power_kw")} for row in old["monthly"]]
    c = compare(old, doc)
    assert c.total_a == pytest.approx(c.total_b) == pytest.approx(grown.total)
