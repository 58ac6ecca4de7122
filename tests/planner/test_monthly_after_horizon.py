"""The monthly table outside the Plan (monthly.csv, the JSON's `monthly`) says what its money is and labels its
row H+1, which holds the payments after the horizon (docs/cost-model.md §13); `--format csv` is the fleet alone.

Oracle, by hand: an 18-month plan at 8 %/year whose only unit is one one-year reservation of g5.xlarge (no
upfront, 0.55 USD/h: 0.55 × 730 = 401.50 USD a month in each of the 24 months of its two terms). A g5.xlarge
does 0.8 of an A5000's work (the worked example's throughput table), so 584 A5000-hours a month are exactly one
instance's 730 hours, and renting them on demand costs 730 × 1.006 = 734.38 USD a month, more than the 401.50.
Row 19 (H+1) holds the fees of months 19-24: 6 × 401.50 = 2,409.00 USD nominal, each discounted in its own
month: Σ_{m=19..24} 401.50 / 1.08^((m−1)/12) = 2,112.34, not 2,409.00 × 1.08^(−18/12) = 2,146.35.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from cli_run import run
from openpyxl import load_workbook

from planner import load_scenario, plan
from planner.reports import plan_to_csv, plan_to_json, write_plan_files

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
MONTHLY_COLUMNS = ["month", "capex", "residual_value", "maintenance", "energy", "colocation", "fixed_onprem",
                   "cloud_reserved", "cloud_on_demand", "cloud_spot", "total", "discount_factor", "total_discounted"]
FLEET_COLUMNS = ["provider", "region", "sku", "gpu", "purchase_option", "kind", "units", "existing_units", "new_units",
                 "sold_units", "switched_off_units", "instance_hours", "cost", "unit_id"]
# the on-prem cards in service and their kW each month, added last (tests/planner/test_monthly_power.py)
CARDS_AND_KW = ["cards_in_service", "power_kw"]
FEE = 0.55 * 730                                            # 401.50 USD a month per reserved instance
BASIS = "nominal; total_discounted: present value at 8%/year"
YEARS = [1] * 12 + [2] * 6 + ["after horizon"]


def d(month: int) -> float:
    return 1.08 ** (-(month - 1) / 12)


@pytest.fixture(scope="module")
def reserved(tmp_path_factory):
    """The worked example without cards, 18 months at 8 %/year, 584 A5000-hours a month, and the g5.xlarge's
    on-demand offer plus a one-year reservation of it at 0.55 USD/h, no upfront."""
    lines = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text().splitlines()
    header, on_demand = lines[0], lines[1]
    reservation = (on_demand.replace("g5.xlarge:on_demand", "g5.xlarge:reserved_1y").replace(",on_demand,", ",reserved_1y,")
                   .replace(",1.006,0.0,USD,0,", ",0.55,0.0,USD,12,"))
    offers = tmp_path_factory.mktemp("offers") / "offers.csv"
    offers.write_text("\n".join([header, on_demand, reservation]) + "\n")
    return plan(load_scenario(WORKED), baselines=False, overrides={
        "prices.source": str(offers), "prices.purchase_options": ["on_demand", "reserved_1y"], "onprem.cards": [],
        "horizon_months": 18, "discount_rate": 0.08, "workloads.training.gpu_hours_per_month": 584})


def csv_rows(text: str) -> tuple[list[str], list[dict]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    return list(reader.fieldnames), list(reader)


def test_the_plan_is_one_reservation_paying_401_50_a_month_for_24_months(reserved):
    assert reserved.fleet[["purchase_option", "units"]].values.tolist() == [["reserved_1y", 1.0]]
    assert reserved.total == pytest.approx(sum(FEE * d(m) for m in range(1, 25)), rel=1e-9)


def test_monthly_csv_labels_row_19_after_horizon_with_the_last_six_fees_discounted_each_in_its_month(reserved):
    header, rows = csv_rows(plan_to_csv(reserved, table="monthly"))
    # the old columns keep their names and places; the new ones come after `currency`
    assert header == [*MONTHLY_COLUMNS, "currency", "money_basis", "plan_year", "calendar_month", *CARDS_AND_KW]
    assert [r["plan_year"] for r in rows] == [str(y) for y in YEARS]
    assert {(r["currency"], r["money_basis"]) for r in rows} == {("USD", BASIS)}
    assert [float(r["total"]) for r in rows] == pytest.approx([FEE] * 18 + [6 * FEE])
    last = rows[-1]
    assert int(last["month"]) == 19 and float(last["total"]) == pytest.approx(2409.00)
    assert float(last["discount_factor"]) == pytest.approx(d(19), rel=1e-12)
    assert float(last["total_discounted"]) == pytest.approx(sum(FEE * d(m) for m in range(19, 25)), rel=1e-9)
    assert float(last["total_discounted"]) == pytest.approx(2112.34, abs=0.005)
    assert float(last["total"]) * float(last["discount_factor"]) == pytest.approx(2146.35, abs=0.005)


def test_json_monthly_rows_carry_the_same_basis_and_plan_year(reserved):
    monthly = json.loads(plan_to_json(reserved))["monthly"]
    assert list(monthly[0]) == [*MONTHLY_COLUMNS, "money_basis", "plan_year", "calendar_month",   # currency: the JSON's top level
                                *CARDS_AND_KW]
    assert [r["plan_year"] for r in monthly] == YEARS
    assert {r["money_basis"] for r in monthly} == {BASIS}
    assert monthly[-1]["month"] == 19 and monthly[-1]["total"] == pytest.approx(6 * FEE)


def test_out_folders_monthly_csv_and_workbook_label_the_months_alike(reserved, tmp_path):
    write_plan_files(reserved, tmp_path / "out", start="2027-01")
    _, rows = csv_rows((tmp_path / "out" / "monthly.csv").read_text())
    sheet = load_workbook(tmp_path / "out" / "plan.xlsx")["monthly"]
    header = [c.value for c in sheet[1]]
    years = [row[header.index("plan_year")] for row in sheet.iter_rows(min_row=2, values_only=True)][:19]
    assert [r["plan_year"] for r in rows] == [str(y) for y in years] == [str(y) for y in YEARS]


def test_the_plans_monthly_frame_keeps_numbers_only_its_basis_in_attrs(reserved):
    monthly = reserved.monthly
    assert list(monthly.columns) == [*MONTHLY_COLUMNS, *CARDS_AND_KW]
    assert monthly.attrs["money_basis"] == BASIS
    assert monthly.sum()["total"] == pytest.approx(24 * FEE)   # a text column would make sum() raise
    assert monthly.loc[monthly["month"] > reserved.horizon_months, "total"].tolist() == pytest.approx([6 * FEE])


def test_plan_format_csv_prints_the_fleet_table_alone():
    result = run("plan", WORKED, "--format", "csv", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    header, rows = csv_rows(result.stdout)
    assert header == [*FLEET_COLUMNS, "currency", "money_basis"]
    # the worked example's fleet: one RTX A5000 and g5.xlarge on demand; no month, category or total row
    assert [(r["kind"], r["sku"]) for r in rows] == [("card", "rtx-a5000"), ("on_demand", "g5.xlarge")]
