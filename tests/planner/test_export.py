"""Exports: `fleetplan plan --out DIR`, the XLSX sheets, FOCUS rows that sum to the plan total, the
Markdown summary, and atomic writes. Figures by hand from the README's worked example."""

import csv
import json
import os
from datetime import date
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

import planner.fileio
from planner import load_scenario, plan
from planner.cli import app
from planner.reports import (
    OUT_FILES,
    SHEETS,
    plan_start,
    plan_to_csv,
    plan_to_excel,
    plan_to_focus,
    plan_to_json,
    plan_to_markdown,
    write_plan_files,
)

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
FOCUS_REQUIRED = ["BilledCost", "EffectiveCost", "ListCost", "BillingCurrency", "ChargePeriodStart",
                  "ChargePeriodEnd", "ChargeCategory", "PricingCategory", "ServiceProviderName", "RegionId",
                  "SkuId", "PricingUnit", "PricingQuantity", "ServiceCategory", "x_Scenario", "x_PriceAsOf"]


def read_focus(path: Path) -> list[dict]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def test_plan_out_writes_every_file_and_xlsx_total_equals_json_total(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["plan", str(HYBRID), "--out", str(out), "--start", "2027-01",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(OUT_FILES)
    stdout_total = json.loads(result.stdout)["total"]
    data = json.loads((out / "plan.json").read_text())
    assert data["total"] == stdout_total

    wb = load_workbook(out / "plan.xlsx")
    assert wb.sheetnames == list(SHEETS) == ["summary", "fleet", "purchase schedule", "owned cards", "monthly",
                                             "baselines", "break-even", "speeds", "assumptions", "prices used"]
    summary = {r[0]: r[1] for r in wb["summary"].iter_rows(min_row=2, values_only=True)}
    # openpyxl writes numbers with 16 significant digits ("%.16g"; Excel keeps 15): equal to that precision
    assert summary["total"] == pytest.approx(data["total"], rel=1e-15)
    assert float(f"{data['total']:.16g}") == summary["total"]
    assert summary["currency"] == "USD" and summary["plan_start"] == "2027-01-01"
    # costs by category sum to the total in the sheet too
    assert sum(v for k, v in summary.items() if k.startswith("cost.")) == pytest.approx(data["total"], rel=1e-12)
    monthly = list(wb["monthly"].iter_rows(values_only=True))
    assert monthly[0][0] == "month" and len(monthly) - 1 == 36 + 1
    assumptions = {r[0]: r[1] for r in wb["assumptions"].iter_rows(min_row=2, values_only=True)}
    assert assumptions["onprem.electricity_per_kwh"] == 0.12
    assert assumptions["workloads.prototyping.gpu_hours_per_month"] == 1500
    fleet_header = [c.value for c in wb["fleet"][1]]
    assert {"provider", "sku", "units", "instance_hours", "cost"} <= set(fleet_header)
    prices = list(wb["prices used"].iter_rows(values_only=True))
    assert len(prices) - 1 == len(data["fleet"])                 # one price row per fleet row
    assert len(list(wb["baselines"].iter_rows())) - 1 == len(data["baselines"])

    rows = read_focus(out / "focus.csv")
    assert set(FOCUS_REQUIRED) <= set(rows[0])
    assert sum(float(r["EffectiveCost"]) for r in rows) == pytest.approx(data["total"], rel=1e-9)
    assert rows[0]["ChargePeriodStart"] == "2027-01-01T00:00:00Z"
    summary_md = (out / "summary.md").read_text()
    assert summary_md.startswith("# Start-up hybrid fleet") and f"{data['total']:,.0f} USD" in summary_md


def test_focus_of_the_worked_example_by_hand():
    p = plan(load_scenario(WORKED))
    f = plan_to_focus(p, start="2026-03")
    assert f["EffectiveCost"].sum() == pytest.approx(8385.46, rel=1e-6)
    assert f["EffectiveCost"].sum() == pytest.approx(p.total, rel=1e-9)
    card = f[f["SkuId"] == "rtx-a5000"]
    capex = card[card["x_CostCategory"] == "capex"]
    # one card bought in month 1: 2,000 + 500 host; a Purchase
    assert len(capex) == 1 and capex["BilledCost"].iloc[0] == pytest.approx(2500)
    assert capex["ChargeCategory"].iloc[0] == "Purchase"
    assert capex["ChargePeriodStart"].iloc[0] == "2026-03-01T00:00:00Z"
    # resale credit −0.5 × 2,500 × (1 − 24/48) in month 25 (2028-03)
    residual = card[card["x_CostCategory"] == "residual_value"]
    assert residual["BilledCost"].tolist() == [pytest.approx(-625)]
    assert residual["ChargeCategory"].iloc[0] == "Credit" and residual["x_PlanMonth"].iloc[0] == 25
    assert residual["ChargePeriodStart"].iloc[0] == "2028-03-01T00:00:00Z"
    # maintenance 2,500 × 0.05 / 12 a month; energy (0.1 × 730 + 0.3 × 657) × 1.5 = 405.15 kWh a month
    maint = card[card["x_CostCategory"] == "maintenance"]
    assert len(maint) == 24 and maint["BilledCost"].tolist() == pytest.approx([2500 * 0.05 / 12] * 24)
    energy = card[card["x_CostCategory"] == "energy"]
    assert energy["PricingUnit"].unique().tolist() == ["kWh"]
    assert energy["PricingQuantity"].tolist() == pytest.approx([405.15] * 24)
    assert energy["BilledCost"].tolist() == pytest.approx([405.15 * 0.20] * 24)
    # cloud: 178.75 g5.xlarge hours a month at 1.006, AWS, Standard usage
    cloud = f[f["SkuId"] == "g5.xlarge"]
    assert cloud["PricingQuantity"].tolist() == pytest.approx([178.75] * 24)
    assert cloud["BilledCost"].tolist() == pytest.approx([178.75 * 1.006] * 24)
    assert set(cloud["ServiceProviderName"]) == {"AWS"} and set(cloud["PricingCategory"]) == {"Standard"}
    assert set(cloud["ChargeCategory"]) == {"Usage"} and set(cloud["RegionId"]) == {"us-east-1"}
    assert set(f["x_PriceAsOf"].dropna()) >= {"2026-07-20"}
    assert (f["ListCost"] == f["BilledCost"]).all() and set(f["ServiceCategory"]) == {"Compute"}


def test_focus_with_discounting_is_present_value_by_hand():
    r = 0.10
    p = plan(load_scenario(WORKED), overrides={"discount_rate": r}, baselines=False)
    f = plan_to_focus(p, start="2026-01")
    d = [(1 + r) ** (-(m - 1) / 12) for m in range(1, 26)]
    monthly = 2500 * 0.05 / 12 + 405.15 * 0.20 + 178.75 * 1.006
    by_hand = 2500 + monthly * sum(d[:24]) - 625 * d[24]
    assert p.total == pytest.approx(by_hand, rel=1e-6)
    assert f["EffectiveCost"].sum() == pytest.approx(p.total, rel=1e-9)
    # billed money is nominal: Σ BilledCost = 2,500 + 24 × monthly − 625
    assert f["BilledCost"].sum() == pytest.approx(2500 + 24 * monthly - 625, rel=1e-6)
    m25 = f[f["x_PlanMonth"] == 25]
    assert m25["EffectiveCost"].sum() == pytest.approx(-625 * d[24], rel=1e-6)


def _offers_csv(tmp_path: Path) -> Path:
    base = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text().splitlines()
    header, od = base[0], base[1]
    spot = (od.replace("g5.xlarge:on_demand", "g5.xlarge:spot").replace(",on_demand,", ",spot,")
              .replace(",1.006,", ",0.45,"))
    res = (od.replace("g5.xlarge:on_demand", "g5.xlarge:reserved_1y").replace(",on_demand,", ",reserved_1y,")
             .replace(",1.006,0.0,USD,0,", ",0.55,1200.0,USD,12,"))
    path = tmp_path / "offers.csv"
    path.write_text("\n".join([header, od, spot, res]) + "\n")
    return path


def test_focus_sums_to_total_with_site_costs_spot_and_reservations_past_the_horizon(tmp_path):
    offers = _offers_csv(tmp_path)
    s = load_scenario(WORKED)
    p = plan(s, baselines=False, overrides={
        "prices.source": str(offers), "prices.purchase_options": ["on_demand", "spot", "reserved_1y"],
        "horizon_months": 18, "discount_rate": 0.08,
        "onprem.fixed_onprem_per_month": 50, "onprem.colocation_per_kw_month": 20,
        "workloads.training.gpu_hours_per_month": 3000})
    cats = set(p.costs.loc[p.costs["cost"] != 0, "category"])
    assert {"cloud_reserved", "fixed_onprem", "colocation", "capex", "residual_value"} <= cats, p.costs
    f = plan_to_focus(p, start="2026-01", path=tmp_path / "focus.csv")
    assert f["EffectiveCost"].sum() == pytest.approx(p.total, rel=1e-9)
    by_cat = f.groupby("x_CostCategory")["EffectiveCost"].sum()
    for c, v in zip(p.costs["category"], p.costs["cost"]):
        assert by_cat.get(c, 0.0) == pytest.approx(v, rel=1e-9, abs=1e-6)
    # 18 months of a 12-month term: the second term's last 6 payments fall after the horizon (month 19)
    res = f[f["x_CostCategory"] == "cloud_reserved"]
    assert set(res["PricingCategory"]) == {"Committed"} and set(res["ChargeCategory"]) == {"Purchase"}
    assert res["x_PlanMonth"].max() == 19
    units = float(p.fleet.loc[p.fleet["purchase_option"] == "reserved_1y", "units"].iloc[0])
    assert res.loc[res["x_PlanMonth"] == 19, "BilledCost"].sum() == pytest.approx(units * 0.55 * 730 * 6)
    assert res.loc[res["x_PlanMonth"] == 13, "BilledCost"].sum() == pytest.approx(units * (1200 + 0.55 * 730))
    site = f[f["SkuId"] == "site"]
    assert len(site) == 18 and site["BilledCost"].tolist() == pytest.approx([50] * 18)
    if (p.fleet["purchase_option"] == "spot").any():
        assert set(f.loc[f["x_CostCategory"] == "cloud_spot", "PricingCategory"]) == {"Dynamic"}
    rows = read_focus(tmp_path / "focus.csv")
    assert sum(float(r["EffectiveCost"]) for r in rows) == pytest.approx(p.total, rel=1e-9)


def test_export_functions_return_text_and_bytes(tmp_path):
    p = plan(WORKED, baselines=False)
    assert json.loads(plan_to_json(p))["total"] == p.total
    assert plan_to_csv(p).splitlines()[0].startswith("provider,region,sku")
    assert plan_to_csv(p, table="monthly").splitlines()[0].startswith("month,")
    assert plan_to_excel(p)[:2] == b"PK"
    md = plan_to_markdown(p, tmp_path / "s.md")
    assert (tmp_path / "s.md").read_text() == md and "## Fleet" in md
    plan_to_json(p, tmp_path / "p.json")
    assert json.loads((tmp_path / "p.json").read_text())["total"] == p.total


def test_plan_start_defaults_to_the_first_of_next_month():
    assert plan_start(today=date(2026, 12, 15)) == date(2027, 1, 1)
    assert plan_start(today=date(2026, 1, 31)) == date(2026, 2, 1)
    assert plan_start("2027-05") == date(2027, 5, 1)
    result = CliRunner().invoke(app, ["plan", str(WORKED), "--start", "2027-13", "--out", "x"])
    assert result.exit_code == 2 and "YYYY-MM" in result.stderr


# --- atomic writes -----------------------------------------------------------------------------------


def test_failing_xlsx_build_leaves_the_old_file_and_no_partial_file(tmp_path, monkeypatch):
    p = plan(WORKED, baselines=False)
    target = tmp_path / "plan.xlsx"
    target.write_bytes(b"old workbook")

    def broken_save(self, fh):
        fh.write(b"PK\x03\x04 half a zip")
        raise OSError("disk full")
    monkeypatch.setattr("openpyxl.Workbook.save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        plan_to_excel(p, target)
    assert target.read_bytes() == b"old workbook"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["plan.xlsx"]


def test_failing_rename_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    p = plan(WORKED, baselines=False)
    target = tmp_path / "plan.xlsx"
    target.write_bytes(b"old workbook")

    def broken_replace(src, dst):
        raise OSError("rename failed")
    monkeypatch.setattr(planner.fileio.os, "replace", broken_replace)
    with pytest.raises(OSError, match="rename failed"):
        plan_to_excel(p, target)
    assert target.read_bytes() == b"old workbook"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["plan.xlsx"]


def test_out_dir_is_all_or_nothing_when_an_export_fails_to_build(tmp_path, monkeypatch):
    p = plan(WORKED, baselines=False)

    def broken(*args, **kwargs):
        raise RuntimeError("focus broke")
    monkeypatch.setattr("planner.reports.files.plan_to_focus", broken)
    with pytest.raises(RuntimeError):
        write_plan_files(p, tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_written_files_are_readable_by_others(tmp_path):
    p = plan(WORKED, baselines=False)
    old = os.umask(0o022)
    try:
        write_plan_files(p, tmp_path / "out", start="2026-01")
    finally:
        os.umask(old)
    modes = {f.name: f.stat().st_mode & 0o777 for f in (tmp_path / "out").iterdir()}
    assert set(modes.values()) == {0o644}
