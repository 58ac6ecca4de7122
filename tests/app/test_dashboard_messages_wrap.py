"""Error and warning texts in plain, wrapped Markdown: in a code block (which does not wrap) the end of a long
message — the numbers, the advice — ran off the right edge of the page; and the engine's label of the plan's
inputs ("recommended: …") read as jargon on the page of that plan.

Oracles: startup-hybrid.yaml's A100 (price 14,000 + host share 2,500 = 16,500 USD, min_units 1), and texts
written here by hand."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]


def as_read(markdown: str) -> str:
    """Markdown of tables.plain as a viewer reads it: without its backslash escapes."""
    return markdown.replace("\\", "")


def test_one_message_is_a_paragraph_that_wraps_not_a_code_block():
    shown = tables.message_block(["cents.yaml:19:24: onprem.electricity_per_kwh: 12 USD a kWh is more than grid "
                                  "electricity costs anywhere; if it is in cents, write 0.12"])
    assert "```" not in shown and not shown.startswith(("    ", "- "))
    assert as_read(shown) == ("cents.yaml:19:24: onprem.electricity_per_kwh: 12 USD a kWh is more than grid "
                              "electricity costs anywhere; if it is in cents, write 0.12")


def test_several_messages_are_a_list_each_as_typed():
    shown = tables.message_block(["a.yaml:4:8: onprem.pue: expected ≤ 3", "**bold** [link](http://x) `code`"])
    lines = shown.split("\n")
    assert [line[:2] for line in lines] == ["- ", "- "]
    # Markdown signs escaped: no bold, link or code span is made of a workload's or a file's name
    assert lines[1] == r"- \*\*bold\*\* \[link\]\(http\:\/\/x\) \`code\`"


def test_a_message_of_several_lines_keeps_its_line_breaks():
    # ScenarioError's message: its origin, then one indented line per problem
    shown = tables.message_block(["mine.yaml: 2 problems\n  workloads[0].name: required\n  horizon_months: > 0"])
    assert shown.split("  \n") == [r"mine\.yaml\: 2 problems", r"  workloads\[0\]\.name\: required",
                                   r"  horizon\_months\: \> 0"]


def test_the_recommended_plans_label_is_left_out():
    assert tables.without_plan_label("recommended: power cap 0 kW < 0.60 kW needed") == \
        "Power cap 0 kW < 0.60 kW needed"
    assert tables.without_plan_label("recommended (without max_cloud_share): no fleet") == \
        "The recommended plan (without max_cloud_share): no fleet"
    # another plan's label, or the word inside a sentence, stays
    assert tables.without_plan_label("all cloud (no new hardware): no capacity") == "all cloud (no new hardware): no capacity"
    assert tables.without_plan_label("the recommended: x") == "the recommended: x"


def test_a_capex_budget_below_the_cheapest_fleet_is_said_in_wrapped_words():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:capex_budget").set_value(5000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    [error] = [e.value for e in at.error if "No fleet meets this scenario" in e.value]
    assert "```" not in error
    # by hand: min_units keeps one A100 of 14,000 USD + 2,500 USD host share; the budget is 5,000 USD (said before
    # solving: catalog.unit_floors)
    assert ("\n\n“a100-80gb-pcie: least cards” (scenario file only): 1 card needs at least 16,500 USD of new cards "
            "(1 × 16,500 USD: 14,000 + 2,500 host share), more than capex budget 5,000 USD") in as_read(error)
    assert "recommended:" not in error
