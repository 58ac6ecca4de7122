"""Every money table of `fleetplan plan` says its currency and whether it is a present value or nominal, and the
fleet says why its rows fall short of the total (an audit, 2026-12-05): industrial's "Purchase schedule (amount
in USD …)" sums to 1,232,000 as paid while "Cost by category (USD)" showed capex 1,056,113, a present value,
neither title saying which; the Fleet table named no currency and its cost column summed to 1,418,206 against
a total of 2,017,777, the site's fixed cost making the difference. The workbook's fleet sheet alike.

Oracles, from scenarios/industrial.yaml: the site costs 12,000 USD a month from month 1 (cards are held from
the start) to month 60, each month's discounted at 8 %/year from month 1, d(m) = 1.08^-((m-1)/12)
(docs/cost-model.md): Σ 12,000 × d(m) = 599,571.84 USD; 88 A100 80 GB PCIe at 11,500 + 2,500 (host) USD are
1,232,000 USD as paid. startup-hybrid.yaml has a discount rate of 0 and no site cost."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.reports import plan_to_excel
from tests.planner.test_cli_prices_sides_and_ages import freeze_today

ROOT = Path(__file__).resolve().parents[2]
INDUSTRIAL = ROOT / "scenarios" / "industrial.yaml"
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
SITE_USD = sum(12000 * 1.08 ** -((m - 1) / 12) for m in range(1, 61))
SITE_NOTE = (f"The rows add up to the total less the site's fixed cost, {SITE_USD:,.0f} USD "
             "(fixed_onprem_per_month, shared by every on-prem unit).")


def table_text(*args) -> str:
    """`fleetplan plan *args`'s stdout with its white space as single spaces: rich wraps a title to its table."""
    result = CliRunner().invoke(app, ["plan", *map(str, args)])
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


@pytest.fixture(scope="module")
def industrial_table():
    return table_text(INDUSTRIAL, "--no-decisions")


def test_each_money_table_of_the_plan_says_present_value_or_nominal(industrial_table):
    assert f"{SITE_USD:,.0f}" == "599,572"
    for title in ("Fleet (cost in USD, present value at 8%/year)",
                  "Purchase schedule (amount in USD, nominal: as paid; credits negative)",
                  "Cost by category (USD, present value at 8%/year)",
                  "Break-even utilisation (costs in USD, nominal: undiscounted)",
                  "Baselines (USD, present value at 8%/year)"):
        assert title in industrial_table, title
    # the schedule's amounts are as paid: its 88 cards 88 × 14,000 = 1,232,000 USD
    schedule = industrial_table.split("Purchase schedule", 1)[1].split("Cost by category", 1)[0]
    buys = [(int(units), int(amount.replace(",", ""))) for units, amount in
            re.findall(r"│ \d+ │ a100-80gb-pcie │ A100-80GB-PCIE │ buy │ (\d+) │ ([\d,]+) │", schedule)]
    assert sum(u for u, _ in buys) == 88 and sum(a for _, a in buys) == 88 * (11500 + 2500) == 1_232_000


def test_the_fleet_table_says_its_rows_fall_short_of_the_total_by_the_sites_fixed_cost(industrial_table):
    fleet = industrial_table.split("Fleet (cost in USD", 1)[1].split("Purchase schedule", 1)[0]
    assert fleet.rstrip().endswith(SITE_NOTE)
    assert "│ fixed_onprem │ 599,572 │" in industrial_table


def test_the_decision_tables_say_present_value_and_a_plan_without_a_site_cost_has_no_note():
    text = table_text(STARTUP)
    undiscounted = "USD, present value at 0%/year, undiscounted"
    for title in (f"Fleet (cost in {undiscounted})",
                  f"Cards already owned: keep, switch off or sell (fixed costs avoided plus a sale's credit over the "
                  f"end value, in {undiscounted}; the site's fixed monthly cost left out; not net of the work bought "
                  "instead)",
                  f"What each decision is worth ({undiscounted}): the total when it is forbidden, and the increase",
                  f"What each limit costs ({undiscounted}): the total without it",
                  f"One card more or fewer ({undiscounted}): the best plan holding at most held − 1 or at least "
                  "held + 1"):
        assert title in text, title
    assert "site's fixed cost" not in text


def test_the_workbooks_fleet_cost_is_a_present_value_and_its_header_notes_the_site_cost():
    p = plan(INDUSTRIAL, baselines=False)
    ws = load_workbook(io.BytesIO(plan_to_excel(p, start="2027-01")))["fleet"]
    header = {c.value: c for c in ws[1]}
    cost = header["cost (USD, present value at 8%/year)"]
    assert cost.comment is not None and cost.comment.text == SITE_NOTE
    assert [c.comment for name, c in header.items() if c is not cost] == [None] * (len(header) - 1)
    # the rows and the note add up to the total
    column = list(header).index(cost.value)
    rows = sum(row[column] for row in ws.iter_rows(min_row=2, values_only=True))
    assert rows + SITE_USD == pytest.approx(p.total, rel=1e-9)


def test_without_a_site_cost_the_workbooks_fleet_header_has_no_note():
    ws = load_workbook(io.BytesIO(plan_to_excel(plan(STARTUP, baselines=False), start="2027-01")))["fleet"]
    header = {c.value: c for c in ws[1]}
    assert header["cost (USD, present value at 0%/year, undiscounted)"].comment is None


def test_every_money_header_of_the_workbook_says_present_value_or_nominal():
    """Each money column of the workbook's tables says its basis as the fleet's does (engine: the schedule's amounts
    are capex and credits as paid; break-even's are a card's rates, undiscounted; the prices as charged; the owned
    cards' fixed_costs_avoided and end_value, the baselines', decisions', count alternatives' and cap costs' totals present
    values). The monthly and yearly sheets alone keep "(USD)": their columns are named total_nominal,
    total_discounted and …_present_value."""
    p = plan(INDUSTRIAL, baselines=False)
    book = load_workbook(io.BytesIO(plan_to_excel(p, start="2027-01")))
    pv, paid = "(USD, present value at 8%/year)", "(USD, nominal: as paid)"
    undiscounted, nominal = "(USD, nominal: undiscounted)", "(USD, nominal)"
    expected = {"fleet": [f"cost {pv}"], "purchase schedule": [f"amount {paid}"],
                "owned cards": [f"fixed_costs_avoided {pv}", f"end_value {pv}"],
                "decisions": [f"total_if_forbidden {pv}", f"increase {pv}"],
                "count alternatives": [f"total {pv}", f"increase {pv}"], "cap costs": [f"total_without {pv}", f"saving {pv}"],
                "break-even": [f"cloud_cost_per_reference_hour {undiscounted}", f"card_fixed_cost_per_month {undiscounted}"],
                "prices used": [f"hourly_price {nominal}", f"upfront_price {nominal}", f"capex_per_unit {nominal}"]}
    for sheet, names in expected.items():
        assert [c.value for c in book[sheet][1] if "USD" in str(c.value)] == names, sheet
    assert {ws.title for ws in book.worksheets for c in ws[1] if str(c.value).endswith("(USD)")} == {"monthly", "yearly"}
    # as paid: the 88 A100 80 GB PCIe bought at 11,500 + 2,500 USD each
    header = [c.value for c in book["purchase schedule"][1]]
    rows = [dict(zip(header, r)) for r in book["purchase schedule"].iter_rows(min_row=2, values_only=True)]
    assert sum(r[f"amount {paid}"] for r in rows if r["action"] == "buy") == pytest.approx(1_232_000)
    # the baselines (planned without them above): startup-hybrid's, at its discount rate of 0
    header = [c.value for c in load_workbook(io.BytesIO(plan_to_excel(plan(STARTUP), start="2027-01")))["baselines"][1]]
    undiscounted_pv = "(USD, present value at 0%/year, undiscounted)"
    assert [h for h in header if "USD" in h] == [f"total {undiscounted_pv}", f"savings {undiscounted_pv}"]


def test_the_cost_by_category_title_is_one_line_over_its_narrow_table():
    """Its two columns make a table 28 characters wide; rich wrapped the 62-character title to that width, onto three lines
    ("Cost by category (USD," / "present value at 0%/year," / "undiscounted)"). Piped, the CLI's tables are
    160 columns wide (console.stdout_console)."""
    result = CliRunner().invoke(app, ["plan", str(STARTUP), "--no-decisions", "--no-baselines"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    title = "Cost by category (USD, present value at 0%/year, undiscounted)"
    (at,) = [i for i, line in enumerate(lines) if "Cost by category" in line]
    assert lines[at].strip() == title and len(title) == 62
    # the table below it is as wide as the title, its rows as before
    assert len(lines[at + 1]) >= len(title) and lines[at + 1].startswith("┏") and "capex" in lines[at + 4]


def test_the_first_line_names_the_totals_discount_rate_on_one_line(monkeypatch):
    freeze_today(monkeypatch)   # 2026-12-07: the snapshot's AWS prices of 2026-07-20 are not yet stale (from 2027-01-17)
    # industrial.yaml discounts at 8 %/year, startup-hybrid.yaml at 0: the first line said "(present value)" alone,
    # where every table title below it named the rate; it stays one line when piped (160 columns wrapped it)
    industrial = CliRunner().invoke(app, ["plan", str(INDUSTRIAL), "--no-decisions"]).stdout.splitlines()[0]
    startup = CliRunner().invoke(app, ["plan", str(STARTUP), "--no-decisions"]).stdout.splitlines()[0]
    assert re.search(r", total [\d,]+ USD \(present value at 8%/year\); prices: snapshot", industrial), industrial
    assert re.search(r", total [\d,]+ USD \(present value at 0%/year, undiscounted\); prices: snapshot, .*"
                     r"1 quoted in the scenario(; 1 older than 180 days \([\d.]+ % of the total\))?$", startup), startup
