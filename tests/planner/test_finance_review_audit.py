"""Outputs a planning-review lead preparing them for finance found wanting (2026-12-07), each stated as the fact the
output now tells.

1. The plan's calendar start (--start 2027-04) dated only the workbook and focus.csv: plan.json (`start`), summary.md
   (the total's period and the plan years) and monthly.csv (`calendar_month`, appended last) now say it too.
2. The workbook's break-even sheet showed a share above 1 as a percentage (209.9 %) where the terminal and summary.md
   say "never"; it says "never" too, the share kept in its note.
3. `compare` wrote a field one side leaves unset "none" and a key it lacks "(not set)": one wording, "(not set)", with
   what applies instead where that is known (a cap: no cap; a card override: the catalog's value; a custom card the
   side does not have); a saved plan's start is said under its name.
4. `compare --format csv` ends with the total row, as the terminal's cost table does (it did: a test keeps it).
5. The runner-up's other card types with no card at all read "with other card types": they read "with no cards (all
   cloud)" (`plan_views.other_types_words`, for the CLI's line).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.reports import plan_to_csv, plan_to_dict, plan_to_json, plan_to_markdown, write_plan_files

# a year's plan twice over (24 months), small enough to solve in a moment; cloud spot is cheaper than the card
TWO_YEARS = """
name: two years
currency: USD
horizon_months: 24
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand, spot]}
onprem: {cards: [rtx-4090]}
constraints: {min_units: {rtx-4090: 1}}
workloads:
  - {name: cnn, gpu_hours_per_month: 1200, reference_gpu: RTX-4090, min_gpu_memory_gb: 20, interruptible: true}
"""


def _two_years(tmp_path):
    path = tmp_path / "two-years.yaml"
    path.write_text(TWO_YEARS, encoding="utf-8")
    return plan(load_scenario(path), baselines=False)


def test_plan_json_records_the_start_and_null_without_one(tmp_path):
    p = _two_years(tmp_path)
    assert plan_to_dict(p, start="2027-04")["start"] == "2027-04"
    assert json.loads(plan_to_json(p, start="2027-4"))["start"] == "2027-04"   # as --start reads it
    assert plan_to_dict(p)["start"] is None   # not given: the months are not dated
    monthly = plan_to_dict(p, start="2027-04")["monthly"]
    # month 1 is April 2027, month 12 March 2028, month 24 March 2029; row 25 (after the horizon) April 2029
    assert [(r["month"], r["calendar_month"]) for r in monthly if r["month"] in (1, 12, 13, 24, 25)] == [
        (1, "2027-04"), (12, "2028-03"), (13, "2028-04"), (24, "2029-03"), (25, "2029-04")]


def test_monthly_csv_appends_the_calendar_month_last(tmp_path):
    p = _two_years(tmp_path)
    before = next(csv.reader(io.StringIO(plan_to_csv(p, table="monthly"))))
    rows = list(csv.DictReader(io.StringIO(plan_to_csv(p, table="monthly", start="2027-04"))))
    header = list(rows[0])
    # calendar_month last but the cards and kW each month, added after it (tests/planner/test_monthly_power.py)
    assert header[-3:] == ["calendar_month", "cards_in_service", "power_kw"] and header == before
    assert header[-5:-3] == ["money_basis", "plan_year"]   # the earlier columns keep their places
    assert [r["calendar_month"] for r in rows[:3]] == ["2027-04", "2027-05", "2027-06"]
    assert rows[23]["calendar_month"] == "2029-03"
    undated = list(csv.DictReader(io.StringIO(plan_to_csv(p, table="monthly"))))
    assert {r["calendar_month"] for r in undated} == {""}


def test_summary_md_says_the_plan_s_calendar_months(tmp_path):
    p = _two_years(tmp_path)
    text = plan_to_markdown(p, start="2027-04")
    assert "over 24 months, months 1–24 = 2027-04 to 2029-03;" in text
    table = text[text.index("## By plan year"):].split("\n\n")[1].splitlines()
    header = [c.strip() for c in table[0].strip("|").split("|")]
    assert header[:3] == ["year", "months", "calendar"]
    rows = {c[0]: c[2] for c in ([x.strip() for x in line.strip("|").split("|")] for line in table[2:])}
    assert rows["1"] == "2027-04 to 2028-03" and rows["2"] == "2028-04 to 2029-03"
    plain = plan_to_markdown(p)   # no start: no calendar words
    assert "= 20" not in plain and "| calendar |" not in plain


def test_the_out_folder_dates_its_json_csv_and_summary(tmp_path):
    p = _two_years(tmp_path)
    out = tmp_path / "review"
    write_plan_files(p, out, start="2027-04")
    assert json.loads((out / "plan.json").read_text())["start"] == "2027-04"
    assert "months 1–24 = 2027-04 to 2029-03" in (out / "summary.md").read_text()
    first = list(csv.DictReader(io.StringIO((out / "monthly.csv").read_text())))[0]
    assert first["calendar_month"] == "2027-04"


def test_the_workbook_s_break_even_says_never_right_aligned_with_the_share_in_its_note(tmp_path):
    from openpyxl import load_workbook

    from planner.reports import plan_to_excel

    p = _two_years(tmp_path)
    [share] = [r["break_even_utilisation"] for r in plan_to_dict(p)["break_even"]]
    assert share > 1   # spot cloud work is cheaper: the card would need more hours than a month has
    path = tmp_path / "plan.xlsx"
    plan_to_excel(p, path)
    ws = load_workbook(path)["break-even"]
    header = [c.value for c in ws[1]]
    [row] = list(ws.iter_rows(min_row=2))
    cell = row[header.index("break_even_utilisation (%)")]
    assert cell.value == "never" and cell.data_type == "s"
    assert cell.alignment.horizontal == "right"   # as the numbers of its column read
    note = row[header.index("note")].value
    assert note.startswith(f"break-even at {share * 100:,.1f} % of the card's hours")
    assert "above availability" in note   # the row's own note is kept after it
    # JSON and CSV keep the number
    [csv_row] = list(csv.DictReader(io.StringIO(plan_to_csv(p, table="break_even"))))
    assert float(csv_row["break_even_utilisation"]) == share


def test_a_break_even_share_of_at_most_1_stays_a_percentage(tmp_path):
    from openpyxl import load_workbook

    from planner.reports import plan_to_excel

    p = _two_years(tmp_path)
    p.break_even = p.break_even.assign(break_even_utilisation=[0.25])   # a card busy a quarter of its hours pays off
    path = tmp_path / "plan.xlsx"
    plan_to_excel(p, path)
    ws = load_workbook(path)["break-even"]
    header = [c.value for c in ws[1]]
    [row] = list(ws.iter_rows(min_row=2))
    cell = row[header.index("break_even_utilisation (%)")]
    assert cell.value == 0.25 and cell.number_format == "[>=0.0005]0.0%;[>-0.0005]0.0###%;0.0%"
    assert not str(row[header.index("note")].value or "").startswith("break-even at")


# --- 3. compare: one wording for a value not set -------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
OFFERS = "offers-g5-us-east-1.csv"
CUSTOM = "  custom_cards:\n    l40s-box: {gpu: L40S, price: 7000, busy_watts: 350, idle_watts: 80, life_years: 4, " \
         "host_cost_per_card: 600}\n  capex_budget: 2500"


def _worked(folder: Path, edit) -> Path:
    folder.mkdir(parents=True)
    shutil.copy(EXAMPLES / OFFERS, folder / OFFERS)
    path = folder / "worked-example.yaml"
    path.write_text(edit((EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")), encoding="utf-8")
    return path


def test_compare_says_not_set_alike_with_what_applies_instead(tmp_path):
    from planner.reports.compare import compare

    # a: the override's host share left to the catalog, no power cap; b: the worked example's 500, a 6 kW cap and a
    # custom card a lacks
    a = _worked(tmp_path / "a", lambda t: t.replace("host_cost_per_card: 500, ", ""))
    b = _worked(tmp_path / "b", lambda t: t.replace("  capex_budget: 2500", CUSTOM + "\n  power_cap_kw: 6"))
    c = compare(a, b)
    shown = {row.path: (row.a, row.b) for row in c.inputs_shown.itertuples()}
    assert shown["onprem.card_overrides.rtx-a5000.host_cost_per_card"] == ("(not set: the catalog's value)", "500")
    assert shown["onprem.custom_cards.l40s-box.host_cost_per_card"] == ("(not set: no such custom card)", "600")
    assert shown["onprem.power_cap_kw"] == ("(not set: no cap)", "6")
    words = {w for pair in shown.values() for w in pair}
    assert "none" not in words and not any(w.startswith("none ") for w in words)
    # the raw values stay None for a library caller and JSON
    raw = {row.path: (row.a, row.b) for row in c.inputs.itertuples()}
    assert raw["onprem.card_overrides.rtx-a5000.host_cost_per_card"] == (None, 500)


def test_an_unset_field_without_a_known_meaning_reads_not_set():
    from planner.reports.compare import input_text

    assert input_text("workloads.llm-finetune.framework", None) == "(not set)"
    assert input_text("prices.regions", None) == "(not set: all regions)"
    assert input_text("onprem.card_overrides.rtx-4090.source", None) == "(not set)"
    assert input_text("onprem.card_overrides.rtx-4090.life_years", None) == "(not set: the catalog's value)"
    assert input_text("onprem.capex_budget", 60000) == "60,000"


# --- 5. the runner-up's other card types with no card ---------------------------------------------------------------

def test_other_types_with_an_empty_fleet_read_no_cards_all_cloud():
    from planner.cli.plan_views import other_types_words

    # engine.decisions' other_types: the fleet (nonzero counts only) of the best plan without the plan's card types
    all_cloud = {"status": "optimal", "fleet": {}, "total": 60864.0, "differences": ["rtx-4090 3 → 0"]}
    assert other_types_words(all_cloud) == "with no cards (all cloud)"
    assert other_types_words({**all_cloud, "fleet": {"rtx-3090": 4}}) == "with other card types"
    reserved = {**all_cloud, "fleet": {"aws:us-east-1:g5.xlarge:reserved_1y": 2}}   # a reservation is no card, but
    assert other_types_words(reserved) == "with other card types"                   # not all on demand or spot either
    assert other_types_words({**all_cloud, "fleet": None}) == "with other card types"   # no fleet found: no line


def test_compare_says_when_a_saved_plan_started(tmp_path):
    from planner.reports.compare import compare, saved_line

    a = _worked(tmp_path / "a", lambda t: t)
    saved = tmp_path / "plan.json"
    saved.write_text(plan_to_json(plan(load_scenario(a), baselines=False), start="2027-04"), encoding="utf-8")
    c = compare(saved, a)
    assert c.sides["a"]["start"] == "2027-04" and c.sides["b"]["start"] is None
    assert saved_line(c.sides["a"]).endswith("; month 1 = 2027-04")
    assert json.loads(json.dumps(c.to_dict()))["sides"]["a"]["start"] == "2027-04"
    undated = tmp_path / "undated.json"
    undated.write_text(plan_to_json(plan(load_scenario(a), baselines=False)), encoding="utf-8")
    assert "month 1" not in saved_line(compare(undated, a).sides["a"])


# --- 4. compare --format csv ends with the total, as the terminal's cost table ---------------------------------------

def test_compare_csv_ends_with_the_total_row(tmp_path):
    from typer.testing import CliRunner

    from planner.cli import app

    a = _worked(tmp_path / "a", lambda t: t)
    b = _worked(tmp_path / "b", lambda t: t.replace("capex_budget: 2500", "capex_budget: 3000"))
    result = CliRunner().invoke(app, ["compare", str(a), str(b), "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0])[:4] == ["category", "cost_a", "cost_b", "cost_delta"]   # the contract's first columns
    *categories, total = rows
    assert total["category"] == "total"
    for side in ("cost_a", "cost_b", "cost_delta"):   # the categories sum to it
        assert float(total[side]) == pytest.approx(sum(float(r[side]) for r in categories), abs=0.01)
