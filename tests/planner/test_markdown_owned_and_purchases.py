"""The one-page summary says what the CLI's table says of owned cards and purchases (an audit, 2026-12-05): the
sale of startup-hybrid's two owned RTX 3060s read `| … | 0 | 0 | 0 | -1,106 |` (at 0.14 USD/CNY) with no word of owning or
selling, and industrial's 88 cards read as bought at once, where the CLI's purchase schedule spreads them over
15 purchase months.

Oracles, from the scenario files and the card catalog (planner/data/onprem_cards.csv):
- startup-hybrid owns 2 RTX 3060 12 GB (`existing`), 0 months old; one costs 2,500 + 5,400 (host) CNY × 0.13749
  USD/CNY (the scenario's fx.CNY) = 1,086.17 USD, and sold at month 1 it fetches 0.5 × its straight-line book value
  (all of it at age 0): 2 × 0.5 × 1,086.17 = 1,086.17 USD, a credit. The discount rate is 0, so present value and nominal agree.
- industrial buys A100 80 GB PCIe cards at 11,500 + 2,500 (host) = 14,000 USD each: its 88 cards cost
  88 × 14,000 = 1,232,000 USD as paid (nominal), against a present value of capex at 8 %/year below that."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import plan
from planner.reports.markdown import plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
INDUSTRIAL = ROOT / "scenarios" / "industrial.yaml"
RTX_3060_USD = (2500 + 5400) * 0.13749               # 1,086.171
SALE_CREDIT_USD = 2 * 0.5 * RTX_3060_USD
A100_USD = 11500 + 2500


@pytest.fixture(scope="module")
def startup():
    return plan(STARTUP, baselines=False)


@pytest.fixture(scope="module")
def industrial():
    return plan(INDUSTRIAL, baselines=False)


def section(md: str, heading: str) -> str:
    """The text of the section whose heading starts with `heading`, to the next heading."""
    return md.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]


def test_the_two_owned_rtx_3060s_show_as_owned_and_sold_in_the_fleet(startup):
    assert round(SALE_CREDIT_USD) == 1086
    fleet = section(plan_to_markdown(startup), "Fleet")
    assert ("| provider | region | sku | gpu | purchase_option | units | existing_units | new_units | sold_units "
            "| switched_off_units | instance_hours | cost |") in fleet
    # 0 held, 2 owned, none bought, 2 sold, none switched off, no hours, the sale's credit
    assert "| onprem | onprem | rtx-3060-12gb | RTX-3060-12GB | purchase | 0 | 2 | 0 | 2 | 0 | 0 | -1,086 |" in fleet


def test_the_sale_is_in_the_purchase_schedule_as_a_nominal_credit_in_month_1(startup):
    schedule = section(plan_to_markdown(startup), "Purchase schedule")
    assert schedule.startswith(" (amount in USD, nominal: as paid; credits negative)\n")
    assert "| card | gpu | action | units | months | first_month | last_month | amount |" in schedule
    assert f"| rtx-3060-12gb | RTX-3060-12GB | sell | 2 | 1 | 1 | 1 | {-SALE_CREDIT_USD:,.0f} |" in schedule
    # the two cards bought in month 1 at their quoted prices (14,000 + 2,500 host; the catalog's 4090)
    assert "| a100-80gb-pcie | A100-80GB-PCIE | buy | 1 | 1 | 1 | 1 | 16,500 |" in schedule


def test_the_owned_cards_section_says_kept_switched_off_and_sold(startup):
    md = plan_to_markdown(startup)
    owned = section(md, "Cards already owned")
    assert owned.startswith(": keep, switch off or sell (fixed costs avoided plus a sale's credit over the end value, "
                            "in USD, present value at 0%/year, undiscounted; the site's fixed monthly cost left out; "
                            "not net of the work bought instead)")
    assert ("| card | gpu | age_months | owned_units | kept | switched_off | sold | fixed_costs_avoided | end_value | note |"
            in owned)
    row = next(line for line in owned.splitlines() if line.startswith("| rtx-3060-12gb |"))
    assert row.startswith("| rtx-3060-12gb | RTX-3060-12GB | 0 | 2 | 0 | 0 | 2 | ") and row.endswith(" | cheaper to sell |")
    # the CLI's table, the summary and the workbook show one order: fleet, purchase schedule, owned cards, costs
    assert md.index("## Fleet") < md.index("## Purchase schedule") < md.index("## Cards already owned") < md.index(
        "## Cost by category")


def test_industrials_88_cards_are_bought_over_many_months_for_1232000_usd_nominal(industrial):
    md = plan_to_markdown(industrial)
    schedule = section(md, "Purchase schedule")
    buys = industrial.schedule[industrial.schedule["action"] == "buy"]
    months = sorted(buys["month"].unique())   # the CLI table's months, one row each there
    assert len(months) > 1 and months[0] == 1
    assert (f"| a100-80gb-pcie | A100-80GB-PCIE | buy | 88 | {len(months)} | 1 | {months[-1]} | "
            f"{88 * A100_USD:,.0f} |") in schedule
    assert f"{88 * A100_USD:,.0f}" == "1,232,000"
    # the present value of that capex is less, and is what cost by category shows
    assert industrial.cost("capex") < 88 * A100_USD
    assert f"| capex | {industrial.cost('capex'):,.0f} |" in section(md, "Cost by category (USD, present value at 8%/year)")


def test_a_plan_that_owns_no_cards_has_no_owned_columns_or_section(industrial):
    md = plan_to_markdown(industrial)
    assert "## Cards already owned" not in md and "existing_units" not in md and "sold_units" not in md
    assert ("| provider | region | sku | gpu | purchase_option | units | new_units | instance_hours | cost |"
            in section(md, "Fleet"))
