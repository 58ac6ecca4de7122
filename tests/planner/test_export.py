"""Exports: `fleetplan plan --out DIR`, the XLSX sheets, FOCUS rows that sum to the plan total, the
Markdown summary, and atomic writes. Figures by hand from the README's worked example."""

import csv
import json
import os
import re
from datetime import date
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

import planner.fileio
from planner import plan
from planner.cli import app
from planner.errors import PlannerError
from planner.reports import (
    OUT_FILES,
    SHEETS,
    plan_start,
    plan_to_csv,
    plan_to_excel,
    plan_to_json,
    plan_to_markdown,
    write_plan_files,
)

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
FOCUS_REQUIRED = ["BilledCost", "EffectiveCost", "ListCost", "BillingCurrency", "ChargePeriodStart",
                  "ChargePeriodEnd", "ChargeCategory", "PricingCategory", "ProviderName", "RegionId",
                  "SkuId", "PricingUnit", "PricingQuantity", "ServiceCategory", "x_Scenario", "x_PriceAsOf",
                  "x_PresentValue"]


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
    assert wb.sheetnames == list(SHEETS) == ["summary", "yearly", "monthly", "fleet", "serving", "purchase schedule",
                                             "owned cards", "baselines", "decisions", "runner-up", "count alternatives",
                                             "flip points", "cap costs", "break-even", "speeds", "excluded offers",
                                             "assumptions", "prices used"]
    summary = {r[0]: r[1] for r in wb["summary"].iter_rows(min_row=2, values_only=True)}
    # openpyxl writes numbers with 16 significant digits ("%.16g"; Excel keeps 15): equal to that precision
    assert summary["total"] == pytest.approx(data["total"], rel=1e-15)
    assert float(f"{data['total']:.16g}") == summary["total"]
    assert summary["currency"] == "USD" and summary["plan_start"] == "2027-01-01"
    # costs by category sum to the total in the sheet too
    assert sum(v for k, v in summary.items() if k.startswith("cost.")) == pytest.approx(data["total"], rel=1e-12)
    monthly = list(wb["monthly"].iter_rows(values_only=True))
    assert monthly[0][0] == "month" and len(monthly) - 2 == 36 + 1     # header, months 1..37, total row
    assumptions = {r[0]: r[1] for r in wb["assumptions"].iter_rows(min_row=2, values_only=True)}
    assert assumptions["onprem.electricity_per_kwh"] == 0.12
    assert assumptions["workloads.prototyping.gpu_hours_per_month"] == 1500
    fleet_header = [c.value for c in wb["fleet"][1]]
    # the fleet's cost is a present value (the purchase schedule's amounts are nominal): its header says so
    assert {"provider", "sku", "units", "instance_hours", "cost (USD, present value at 0%/year, undiscounted)"} <= set(
        fleet_header)
    prices = list(wb["prices used"].iter_rows(values_only=True))
    assert len(prices) - 1 == len(data["fleet"])                 # one price row per fleet row
    assert len(list(wb["baselines"].iter_rows())) - 1 == len(data["baselines"])

    rows = read_focus(out / "focus.csv")
    assert set(FOCUS_REQUIRED) <= set(rows[0])
    assert sum(float(r["x_PresentValue"]) for r in rows) == pytest.approx(data["total"], rel=1e-9)
    assert rows[0]["ChargePeriodStart"] == "2027-01-01T00:00:00Z"
    summary_md = (out / "summary.md").read_text()
    assert summary_md.startswith("# Start-up hybrid fleet") and f"{data['total']:,.0f} USD" in summary_md


# The FOCUS rows by hand, and the FinOps Foundation's validator on them: tests/planner/test_focus.py


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


@pytest.mark.parametrize("start, expected", [("27-01", "expected YYYY-MM"), ("2027-1-15", "expected YYYY-MM"),
                                             ("9999-12", "a year from 1900 to 2999"),
                                             ("1800-01", "a year from 1900 to 2999"),
                                             # year 0 is no date: datetime.date's ValueError was a traceback, exit 1
                                             ("0000-01", "a year from 1900 to 2999")])
def test_a_start_with_a_short_or_implausible_year_is_refused_before_solving(start, expected, monkeypatch):
    # 27-01 was read as January of the year 27; 9999-12 failed only when the export dated month 2 (year 10000)
    monkeypatch.setattr("planner.engine.run.inputs_for", lambda *a, **k: pytest.fail("solved"))
    result = CliRunner().invoke(app, ["plan", str(WORKED), "--start", start, "--format", "focus", "--no-decisions"])
    assert result.exit_code == 2 and result.stdout == "" and expected in result.stderr, result.output
    with pytest.raises(PlannerError, match=expected):
        plan_start(start)


# --- atomic writes -----------------------------------------------------------------------------------


def test_failing_xlsx_build_leaves_the_old_file_and_no_partial_file(tmp_path, monkeypatch):
    p = plan(WORKED, baselines=False)
    target = tmp_path / "plan.xlsx"
    target.write_bytes(b"old workbook")

    def broken_close(self):        # the workbook is written into its buffer (`filename`) on close
        self.filename.write(b"PK\x03\x04 half a zip")
        raise OSError("disk full")
    monkeypatch.setattr("xlsxwriter.Workbook.close", broken_close)
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


# --- wording -----------------------------------------------------------------------------------------


def test_the_summary_says_how_old_the_prices_are_in_words():
    # entry.yaml rents one spot offer whose snapshot row has no date; the worked example's g5 price is dated
    undated = plan_to_markdown(plan(ROOT / "scenarios" / "entry.yaml", baselines=False))
    assert "Prices: snapshot, every price used undated." in undated and "dated undated" not in undated
    dated = plan_to_markdown(plan(WORKED, baselines=False))
    assert re.search(r"Prices: [^\n]*, dated \d{4}-\d{2}-\d{2}", dated), dated


def test_a_small_negative_never_shows_as_minus_zero(capsys):
    from planner.cli.console import Format, emit
    from planner.reports.markdown import _md_table

    table = pd.DataFrame({"saving": [-0.3, -0.6, 0.2]})
    assert _md_table(table).splitlines()[2:] == ["| 0 |", "| -1 |", "| 0 |"]
    emit(table, Format.table, float_digits=0)
    cells = [line.strip("│ ") for line in capsys.readouterr().out.splitlines() if line.startswith("│")]
    assert cells == ["0", "-1", "0"]


def test_json_records_turn_nan_and_inf_into_null_and_numpy_values_into_python_ones():
    import numpy as np

    from planner.reports import records

    frame = pd.DataFrame({"cost": [1.5, np.nan, -np.inf], "units": np.array([1, 2, 3], dtype=np.int64),
                          "gpu": pd.array(["L4", None, "H100"], dtype="string"), "owned": [True, False, True],
                          "extra": [{"share": np.float64("nan")}, [np.int64(3), 2.0], None]})
    rows = records(frame)
    assert rows == [{"cost": 1.5, "units": 1, "gpu": "L4", "owned": True, "extra": {"share": None}},
                    {"cost": None, "units": 2, "gpu": None, "owned": False, "extra": [3, 2.0]},
                    {"cost": None, "units": 3, "gpu": "H100", "owned": True, "extra": None}]
    assert [type(rows[0][k]) for k in ("cost", "units", "owned")] == [float, int, bool]
    assert type(rows[1]["extra"][0]) is int
    json.dumps(rows, allow_nan=False)                                   # strict JSON
    assert records(pd.DataFrame(index=[0, 1])) == [{}, {}] and records(frame.iloc[:0]) == []
    # a missing date or count of a nullable column is null too (json cannot write pandas' NaT or NA)
    dated = pd.DataFrame({"on": pd.to_datetime(["2026-01-31", None]), "n": pd.array([2, None], dtype="Int64")})
    assert [row["n"] for row in records(dated)] == [2, None] and records(dated)[1]["on"] is None
