"""What `fleetplan plan` and the Markdown summary show beyond the present-value total (an audit of team3.yaml's
output): the money paid in each plan year, the cloud offer behind a break-even rate, the serving table with a
constant workload's months on one row, the estimated speeds the warnings point to, and one rule for a share of the
total in both front ends.

Facts used (worked out by hand): an RTX 4090 costs 1,669.99 USD with a 750 USD host share, 2,419.99 USD a card, and lives 3
years, resold at 0.5 × straight-line book value (the catalog and the plan's assumption line); the business_hours profile
is 9 hours × 5 days = 45 hours a week, the other 123 of the 168 hours a second class; a demand that does not change
needs the same cards in every month. 38.3 EUR over 68,559 EUR is 0.0559 %: two significant digits 0.056 %.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.reports.markdown import plan_to_markdown
from tests.planner.test_offers_narrow_terminal import drawn_rows, words
from tests.planner.test_plan_tables_narrow_terminal import terminal

API = """\
name: constant API
currency: USD
horizon_months: 24
discount_rate: 0.08
prices:
  source: snapshot
  providers: [aws]
  regions: [eu-west-1]
  purchase_options: [on_demand]
onprem:
  electricity_per_kwh: 0.28
  pue: 1.5
  availability: 1
  cards: [rtx-4090]
workloads:
  - name: api
    requests_per_second: 20
    reference_gpu: L4
    throughput_unit: requests_per_second
    throughput: {L4: 6, "RTX 4090": 9}
    min_gpu_memory_gb: 24
    profile: business_hours
    serving: true
  - name: finetune
    gpu_hours_per_month: 300
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 24
"""


def _scenario(tmp_path: Path, text: str = API) -> Path:
    path = tmp_path / "api.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _run(path: Path, *args: str):
    result = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", "--no-decisions", *args])
    assert result.exit_code == 0, result.output
    return result


def _part(text: str, start: str, end: str | None = None) -> str:
    """From `start` up to `end` (None or not there: the end of the text)."""
    at = text.index(start)
    stop = text.find(end, at) if end else -1
    return text[at:] if stop < 0 else text[at:stop]


def _cells(table: str) -> list[list[str]]:
    return [[c.strip() for c in line.split("│")[1:-1]] for line in table.splitlines() if line.startswith("│")]


def _years_by_hand(p) -> dict[str, tuple[float, float]]:
    """Sums of the plan's monthly table by plan year (months 1–12, 13–24), and month 25 on its own: (paid, present
    value)."""
    m = p.monthly
    year = [str((int(month) - 1) // 12 + 1) if month <= p.horizon_months else "end credit" for month in m["month"]]
    sums = m.assign(year=year).groupby("year")[["total", "total_discounted"]].sum()
    return {y: (float(r.total), float(r.total_discounted)) for y, r in sums.iterrows()}


def test_the_terminal_and_the_summary_show_what_is_paid_each_plan_year(tmp_path):
    path = _scenario(tmp_path)
    p = plan(path, baselines=False)
    by_hand = _years_by_hand(p)
    # six cards at 2,419.99 USD in month 1; at month 25 they are 24 months old: 0.5 × 6 × 2,419.99 × 12/36 = 2,419.99 back
    assert round(by_hand["end credit"][0], 2) == -2419.99
    # the demand does not change: year 2 pays year 1's running costs, year 1 those and the cards
    assert round(by_hand["1"][0] - by_hand["2"][0], 2) == round(6 * 2419.99, 2)
    text = _run(path).stdout
    rows = {r[0]: r for r in _cells(_part(text, "By plan year", "Cards held"))}
    for year, months in (("1", "1–12"), ("2", "13–24"), ("end credit", "25")):
        paid, present = by_hand[year]
        assert rows[year][1] == months
        assert rows[year][-2:] == [f"{paid:,.0f}", f"{present:,.0f}"]
    assert rows["total"][-1] == f"{p.total:,.0f}"
    assert "nominal" in text and "present value at 8%/year" in text
    md = plan_to_markdown(p)
    section = _part(md, "## By plan year (USD)", "## Cards held")
    for year, months in (("1", "1–12"), ("2", "13–24"), ("end credit", "25")):
        paid, present = by_hand[year]
        assert f"| {year} | {months} |" in section and section.count(f"| {paid:,.0f} | {present:,.0f} |") >= 1


def test_a_constant_serving_workload_is_one_row_per_hour_of_week_class_not_per_month(tmp_path):
    text = _run(_scenario(tmp_path)).stdout
    table = _part(text, "Serving:", "Cost by category")
    rows = _cells(table)
    header = next(line for line in table.splitlines() if line.startswith("┃"))
    assert "in_months" in header and " months " not in header
    # the 45 business hours a week and the other 123, each over every month of the plan: 2 rows, not 2 × 24
    assert sorted((r[1], r[2]) for r in rows) == [("1–24", "123"), ("1–24", "45")]


def test_serving_rows_collapse_only_where_consecutive_months_read_the_same():
    from planner.cli.plan_views import serving_by_months

    base = {"workload": "api", "demand_unit": "requests_per_second", "unit_id": "onprem:onprem:rtx-4090:purchase",
            "kind": "card", "sku": "rtx-4090", "gpu": "RTX-4090", "capacity": 18.0, "busy_units": 2.0, "served": 18.0}
    rows = []
    for month in range(1, 37):
        grown = month > 12   # more cards from month 13
        for hours, demand in ((123.0, 11.09), (45.0, 44.36)):
            rows.append({**base, "slot": len(rows), "months": str(month), "hours_per_week": hours, "demand": demand,
                         "instances": 5 if grown else 2, "capacity": 45.0 if grown else 18.0})
    shown = serving_by_months(pd.DataFrame(rows))
    assert list(zip(shown["in_months"], shown["hours_per_week"], shown["instances"])) == [
        ("1–12", 123.0, 2), ("1–12", 45.0, 2), ("13–36", 123.0, 5), ("13–36", 45.0, 5)]


def test_the_break_even_table_names_the_cloud_offer_behind_its_rate(tmp_path, monkeypatch):
    path = _scenario(tmp_path)
    table = _part(_run(path).stdout, "Break-even", "offers left out")   # piped: every column
    finetune = next(r for r in _cells(table) if r[1] == "finetune")
    assert finetune[2] == "g5.xlarge on_demand (aws eu-west-1)"
    terminal(monkeypatch, 80)
    narrow = _part(_run(path).stdout, "Break-even", "offers left out")
    assert max(len(line) for line in narrow.splitlines()) <= 80
    row = next(r for r in drawn_rows(narrow) if "finetune" in words(r))
    assert {"g5.xlarge", "on_demand", "aws", "eu-west-1"} <= {word.strip("()") for word in words(row)}


def test_the_summary_names_the_cloud_offer_behind_each_break_even_too(tmp_path):
    # the offer in the plan's break_even table is the unit id "aws:eu-west-1:g5.xlarge:on_demand" (the only option
    # allowed, the only region; "" where no offer serves the workload): summary.md words it as the terminal does
    p = plan(_scenario(tmp_path), baselines=False)
    offers = set(p.break_even["cloud_offer"]) - {""}
    assert offers == {"aws:eu-west-1:g5.xlarge:on_demand"}
    section = _part(plan_to_markdown(p), "## Break-even utilisation", "## Scenario assumptions")
    header = next(line for line in section.splitlines() if line.startswith("| card"))
    assert [c.strip() for c in header.strip("|").split("|")][:4] == ["card", "workload", "cloud_offer", "break_even_pct"]
    assert section.count("| g5.xlarge on_demand (aws eu-west-1) |") == int((p.break_even["cloud_offer"] != "").sum()) > 0


def test_the_estimated_speeds_the_warning_points_to_are_shown(tmp_path):
    text = API.replace("cards: [rtx-4090]", "cards: [rtx-5090]").split("  - name: api")[0] + """\
  - name: finetune
    gpu_hours_per_month: 300
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 24
"""
    result = _run(_scenario(tmp_path, text))
    assert "the speeds of RTX-5090 are estimates" in result.stderr   # no RTX 5090 in the measured benchmark
    table = _part(result.stdout, "Speeds that rest on estimates", "solver")
    assert [(r[0], r[1]) for r in _cells(table)] == [("finetune", "RTX-5090")]


def test_a_close_call_of_38_eur_in_68_559_reads_0_056_percent_in_the_terminal_and_the_summary(tmp_path):
    from planner.cli.commands import _more_or_less

    pct = 38.3 / 68_559 * 100
    assert _more_or_less(38.3, pct, "EUR") == "38 EUR (0.056 %) more"
    p = plan(_scenario(tmp_path), baselines=False)
    runner = {"total": 68_597.3, "increase": 38.3, "increase_pct": pct, "differences": ["rtx-4090 5 → 6"],
              "close_call_share": 0.02, "status": "optimal", "fleet": {"rtx-4090": 6}, "plan_fleet": {"rtx-4090": 5}}
    md = plan_to_markdown(dataclasses.replace(p, total=68_559.0, close_call=True, runner_up=runner))
    assert "38 EUR (0.056 %) more" in md.replace("USD", "EUR")
