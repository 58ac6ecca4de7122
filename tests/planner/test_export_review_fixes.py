"""Exports after a review: a scenario description that begins like a Markdown block, CSV tables that say
their currency and whether their money is a present value, and workbook cells that hold user text as typed.

Oracles: CommonMark as markdown-it renders it (the text of a paragraph is its source, HTML-escaped by
hand), column lists and labels written out by hand from the README's contracts, and the text a user typed.
"""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from openpyxl import load_workbook

from planner import plan
from planner.reports import plan_to_csv, plan_to_excel, plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
# the README's fleet and monthly columns, in their order
FLEET_COLUMNS = ["provider", "region", "sku", "gpu", "purchase_option", "kind", "units", "existing_units", "new_units",
                 "sold_units", "switched_off_units", "instance_hours", "cost", "unit_id"]
MONTHLY_COLUMNS = ["month", "capex", "residual_value", "maintenance", "energy", "colocation", "fixed_onprem",
                   "cloud_reserved", "cloud_on_demand", "cloud_spot", "total", "discount_factor", "total_discounted"]


@pytest.fixture(scope="module")
def worked():
    return plan(WORKED)


def rendered(p, description: str | None = None, name: str | None = None) -> str:
    """The HTML of `p`'s Markdown summary, with another scenario description or name."""
    update = {k: v for k, v in (("description", description), ("name", name)) if v is not None}
    p = replace(p, scenario=p.scenario.model_copy(update=update), scenario_name=name or p.scenario_name)
    return MarkdownIt("commonmark").enable("table").render(plan_to_markdown(p))


def shape(page: str) -> list[str]:
    """The block elements of a rendered page, in order (h1, p, h2, table …)."""
    return re.findall(r"<(h[1-6]|p|table|pre|ul|ol|hr|blockquote)\b", page)


# ---------------------------------------------------------------------------------------------------
# Markdown: the description is one paragraph holding its text


@pytest.mark.parametrize("description", [
    "~~~", "~~~python", "```", "# Total: 0 USD", "###### h6", "---", "***", "___", "===", "- x", "+ x", "* x",
    "1. first", "2024) a year", "> quoted", "<div>", "| a | b |", "[x]: http://127.0.0.1:9/"])
def test_a_description_that_begins_like_a_block_is_one_paragraph_of_its_text(worked, description):
    page = rendered(worked, description)
    assert shape(page) == shape(rendered(worked, "plain words"))    # one <p> after the <h1>, the rest unchanged
    assert f"<p>{html.escape(description, quote=False)}</p>" in page


@pytest.mark.parametrize("description", ["    four spaces make code", "\ta tab makes code", "  two spaces "])
def test_spaces_before_a_description_make_no_code_block(worked, description):
    page = rendered(worked, description)
    assert shape(page) == shape(rendered(worked, "plain words"))
    assert f"<p>{description.strip()}</p>" in page      # as any paragraph shows it: without surrounding spaces


def test_a_description_of_several_lines_starts_no_block_on_a_later_line(worked):
    page = rendered(worked, "intro\n# heading\n- item\n    code\n~~~\n1. one\n> quote")
    assert shape(page) == shape(rendered(worked, "plain words"))
    # each line break shows as a space, as inside any Markdown paragraph
    assert "<p>intro # heading - item     code ~~~ 1. one &gt; quote</p>" in page


def test_inline_markup_in_a_description_is_shown_as_typed(worked):
    page = rendered(worked, "a *b* _c_ ~~d~~ `e` &amp; R&D __init__ gpu_hours_per_month")
    assert "<p>a *b* _c_ ~~d~~ `e` &amp;amp; R&amp;D __init__ gpu_hours_per_month</p>" in page
    # an underscore inside a word starts no emphasis: the assumptions' paths stay readable in the file
    assert "| onprem.electricity_per_kwh |" in plan_to_markdown(worked)


@pytest.mark.parametrize(("name", "heading"), [("Fleet #", "Fleet #"), ("Fleet ##", "Fleet ##"), ("# x", "# x"),
                                               ("C#", "C#")])
def test_a_scenario_name_with_hashes_is_the_heading_as_typed(worked, name, heading):
    assert re.findall(r"<h1>(.*?)</h1>", rendered(worked, name=name)) == [heading]


# ---------------------------------------------------------------------------------------------------
# CSV: the currency on every row; present value or nominal


@pytest.fixture(scope="module")
def in_eur():
    """The worked example in EUR (0.5 EUR per USD), discounted at 8 % a year."""
    return plan(WORKED, overrides={"currency": "EUR", "fx": {"USD": 0.5}, "discount_rate": 0.08})


def rows(text: str) -> tuple[list[str], list[dict]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    return list(reader.fieldnames), list(reader)


def test_fleet_csv_says_eur_and_present_value_at_8_percent_after_its_old_columns(in_eur):
    header, fleet = rows(plan_to_csv(in_eur, table="fleet"))
    assert header == [*FLEET_COLUMNS, "currency", "money_basis"]
    assert fleet and {(r["currency"], r["money_basis"]) for r in fleet} == {("EUR", "present value at 8%/year")}


def test_monthly_csv_says_eur_its_two_bases_and_the_row_after_the_horizon_after_its_old_columns(in_eur):
    header, monthly = rows(plan_to_csv(in_eur, table="monthly"))
    assert header == [*MONTHLY_COLUMNS, "currency", "money_basis", "plan_year", "calendar_month",   # dated by start=
                      "cards_in_service", "power_kw"]   # the fleet's cards and kW each month, added last
    assert len(monthly) == 25 and {r["currency"] for r in monthly} == {"EUR"}     # 24 months and the residual
    # each month's money as paid, total_discounted its present value; row 25 holds the residual credit
    assert {r["money_basis"] for r in monthly} == {"nominal; total_discounted: present value at 8%/year"}
    assert [r["plan_year"] for r in monthly] == ["1"] * 12 + ["2"] * 12 + ["after horizon"]


@pytest.mark.parametrize(("table", "basis"), [("costs", True), ("baselines", True), ("break_even", False),
                                              ("schedule", False), ("owned", True)])
def test_other_money_tables_say_their_currency(in_eur, table, basis):
    header, _ = rows(plan_to_csv(in_eur, table=table))
    assert header[-2:] == ["currency", "money_basis"] if basis else header[-1] == "currency"


@pytest.mark.parametrize("table", ["utilisation", "installed", "speeds", "serving", "excluded_offers"])
def test_tables_without_money_get_no_currency_column(in_eur, table):
    header = plan_to_csv(in_eur, table=table).splitlines()[0].split(",")
    assert "currency" not in header and "money_basis" not in header


def test_an_undiscounted_plan_says_so_in_its_csv(worked):
    _, fleet = rows(plan_to_csv(worked, table="fleet"))
    assert {(r["currency"], r["money_basis"]) for r in fleet} == {("USD", "present value at 0%/year, undiscounted")}


# ---------------------------------------------------------------------------------------------------
# Workbook: text as typed, marked with a quote prefix where it starts like a formula


def test_workbook_text_is_as_typed_with_a_quote_prefix_where_it_starts_like_a_formula(worked):
    s = worked.scenario
    renamed = s.model_copy(update={"name": "+ fleet", "workloads": (s.workloads[0].model_copy(update={"name": "-prod"}),)})
    p = plan(renamed, baselines=False)
    wb = load_workbook(io.BytesIO(plan_to_excel(p)))
    assert wb.properties.title == "+ fleet"
    summary = {r[0].value: r[1] for r in wb["summary"].iter_rows(min_row=2)}
    assert summary["scenario"].value == "+ fleet" and summary["scenario"].quotePrefix
    assert summary["status"].value == "optimal" and not summary["status"].quotePrefix
    header = [c.value for c in wb["break-even"][1]]
    workloads = [row[header.index("workload")] for row in wb["break-even"].iter_rows(min_row=2)]
    assert workloads and all(c.data_type == "s" and c.value == "-prod" and c.quotePrefix for c in workloads)
    # a CSV has no cell formats: there the apostrophe is what keeps the name text
    _, break_even = rows(plan_to_csv(p, table="break_even"))
    assert {r["workload"] for r in break_even} == {"'-prod"}
