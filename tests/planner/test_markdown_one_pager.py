"""The one-page Markdown summary is complete for a budget holder who reads nothing else, and says what the
other outputs say (an audit of the shipped scenarios, 2026-12-05): the plan's warnings (a 1,108-day-old
price, an undated one, an unpriced card), the close call or firm verdict on the runner-up, the bound on the
cost error of a grouped profile, assumptions as numbers are written (60,000, not 60000.0), and
`plan --format md` the same page as `--out`'s summary.md (the decision re-solves name the cap that binds
in a baseline's note).

Oracles: the plan's own fields and its JSON (totals, from which the increase and its percentage are computed
here), the scenario file's numbers, and CommonMark as markdown-it renders the page."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from planner import add_decisions, plan
from planner.cli import app
from planner.reports import plan_to_json, plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
MID = ROOT / "scenarios" / "mid-research.yaml"
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def rendered(md: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(md)


def items(page: str) -> list[str]:
    """The text of each item of the Warnings section's list, as rendered."""
    section = page.split("<h2>Warnings</h2>", 1)[1].split("<h2>", 1)[0]
    return [re.sub(r"</?p>", "", i).strip() for i in re.findall(r"<li>(.*?)</li>", section, re.S)]


@pytest.fixture(scope="module")
def startup():
    """startup-hybrid.yaml without baselines or decisions (what the library's plan(…, baselines=False) gives)."""
    return plan(STARTUP, baselines=False)


@pytest.fixture(scope="module")
def decided():
    """startup-hybrid.yaml with its decisions (a close call: the owned RTX 3060 kept costs 1.7 % more)."""
    return add_decisions(plan(STARTUP, baselines=False))


# ---------------------------------------------------------------------------------------------------
# Warnings


def test_every_warning_of_the_plan_is_an_item_of_the_warnings_list_and_none_makes_no_section(startup):
    assert any(w.startswith("stale prices:") for w in startup.warnings)     # the 1,108-day-old RTX 4090 price
    assert any(w.startswith("undated prices:") for w in startup.warnings)
    assert items(rendered(plan_to_markdown(startup))) == [html.escape(w, quote=False) for w in startup.warnings]
    assert "Warnings" not in plan_to_markdown(replace(startup, warnings=[], prices={**startup.prices, "warning": None}))


def test_the_price_sources_own_warning_is_listed_first(startup):
    said = "the price store /x/prices.sqlite has no snapshot yet (run `fleetplan prices refresh`); using the packaged snapshot"
    page = rendered(plan_to_markdown(replace(startup, prices={**startup.prices, "warning": said})))
    assert items(page)[0] == html.escape(f"prices: {said}", quote=False)
    assert items(page)[1:] == [html.escape(w, quote=False) for w in startup.warnings]


HOSTILE = ["# heading", "![x](http://127.0.0.1:9/i.png)", "<img src=x onerror=alert(1)>", "- nested", "1. ordered",
           "    four spaces", "first\n## second", "| a | b |", "`code` *em* ~~s~~ [l](http://127.0.0.1:9/)",
           "=", "> quoted"]
# as each renders when it is text: a line break a space, the spaces before it dropped (as a paragraph shows it)
SHOWN = [w.replace("\n", " ").strip() for w in HOSTILE]


def test_warnings_show_as_typed_with_no_markup_image_or_html(startup):
    p = replace(startup, warnings=[*HOSTILE, "escape \x1b[31m"])
    md = plan_to_markdown(p)
    assert not CONTROL.search(md)
    page = rendered(md)
    assert "<img" not in page and "<a " not in page and "<h1>" not in page.split("</h1>", 1)[1]
    assert items(page) == [html.escape(w, quote=False) for w in SHOWN] + [r"escape \x1b[31m"]
    section = page.split("<h2>Warnings</h2>", 1)[1].split("<h2>", 1)[0]
    assert re.findall(r"<(/?\w+)", section).count("li") == len(p.warnings)   # no nested list, heading or code
    assert not re.search(r"<(h\d|pre|code|ol|blockquote|table|em|del)\b", section)


# ---------------------------------------------------------------------------------------------------
# The runner-up: close call or firm


def test_the_close_call_says_the_runner_ups_total_and_increase_as_the_json_has_them(decided, startup):
    data = json.loads(plan_to_json(decided))
    assert data["close_call"] is True
    total, runner = data["total"], data["runner_up"]["total"]
    increase = runner - total
    md = plan_to_markdown(decided)
    (line,) = [x for x in md.splitlines() if "runner-up" in x]
    assert line.startswith("**Close call:**")
    assert f"costs {runner:,.0f} USD, {increase:,.0f} USD ({100 * increase / total:.1f} %) more" in line
    assert "rtx-3060-12gb 0 (2 owned sold) → 1 (1 bought in year 3, 2 owned sold)" in line and "2%" in line
    # next to the total: the paragraph after it
    paragraphs = md.split("\n\n")
    assert paragraphs[[i for i, x in enumerate(paragraphs) if x.startswith("**Total:")][0] + 1] == line
    # a plan without its decisions (close_call None) says nothing of a runner-up
    assert startup.close_call is None
    assert not [w for w in ("runner-up", "Close call", "Firm:") if w in plan_to_markdown(startup)]


def test_a_runner_up_beyond_the_threshold_is_firm(decided):
    firm = add_decisions(plan(STARTUP, baselines=False), close_call_share=0.01)
    assert firm.close_call is False
    (line,) = [x for x in plan_to_markdown(firm).splitlines() if "runner-up" in x]
    increase = firm.runner_up["total"] - firm.total
    assert line.startswith("Firm: ") and "Close call" not in line and "1%" in line
    assert f"{firm.runner_up['total']:,.0f} USD, {increase:,.0f} USD ({100 * increase / firm.total:.1f} %) more" in line


# ---------------------------------------------------------------------------------------------------
# A grouped profile: the bound on the cost error, next to the total


def test_a_grouped_profile_shows_its_error_bound_next_to_the_total_and_an_exact_one_none(startup):
    p = plan(STARTUP, baselines=False, overrides={"profile_slots": 1})    # 2 distinct weights in 1 block
    g = p.profile_grouping
    assert g and g["error_bound"] > 0
    (total_line,) = [x for x in plan_to_markdown(p).splitlines() if x.startswith("**Total:")]
    assert (f"the exact optimum is at most {g['error_bound']:,.0f} USD ({g['error_bound_pct']:.2f} %) below this "
            f"total (lower bound {g['lower_bound']:,.0f})") in total_line
    assert (g["weight_classes"], g["slots"]) == (2, 1)
    assert "2 distinct hourly weights in 1 load-duration block (" in total_line
    assert startup.profile_grouping is None
    assert "exact optimum" not in plan_to_markdown(startup)


# ---------------------------------------------------------------------------------------------------
# Scenario assumptions: numbers as written


def test_scenario_assumptions_show_numbers_with_separators_and_no_trailing_zero(startup):
    data = yaml.safe_load(STARTUP.read_text())
    budget = data["onprem"]["capex_budget"]
    proto = next(w for w in data["workloads"] if w["name"] == "prototyping")["gpu_hours_per_month"]
    assert (budget, proto) == (60000, 1500)
    page = rendered(plan_to_markdown(startup))
    rows = dict(re.findall(r"<tr>\s*<td>(.*?)</td>\s*<td[^>]*>(.*?)</td>\s*</tr>",
                           page.split("<h2>Scenario assumptions</h2>", 1)[1].split("<h2>", 1)[0]))
    assert rows["onprem.capex_budget"] == f"{budget:,} USD" == "60,000 USD"
    assert rows["onprem.electricity_per_kwh"] == f"{data['onprem']['electricity_per_kwh']} USD/kWh" == "0.12 USD/kWh"
    assert rows["horizon_months"] == "36 months" and rows["onprem.power_cap_kw"] == "6 kW"
    assert not any(v.endswith(".0") or ".0 " in v for v in rows.values()), rows
    workloads = page.split("<h2>Workloads</h2>", 1)[1].split("<h2>", 1)[0]
    assert "<td>1,500 reference-GPU-hours a month</td>" in workloads


# ---------------------------------------------------------------------------------------------------
# The CLI: --format md is --out's summary.md


def test_format_md_and_the_out_summary_are_the_same_page(tmp_path):
    data = yaml.safe_load(MID.read_text())
    data["onprem"]["capex_budget"] = 2500
    scenario = tmp_path / "mid-2500.yaml"
    scenario.write_text(yaml.safe_dump(data))
    runner = CliRunner()
    shown = runner.invoke(app, ["plan", str(scenario), "--format", "md"])
    assert shown.exit_code == 0, shown.output
    written = runner.invoke(app, ["plan", str(scenario), "--out", str(tmp_path / "review")])
    assert written.exit_code == 0, written.output
    summary = (tmp_path / "review" / "summary.md").read_text()

    def page(text: str) -> list[str]:   # without the lines of the solver's seconds and of the time each was made
        return [x for x in text.splitlines() if not x.startswith(("Solver ", "Planned with fleetplan "))]

    assert page(shown.stdout) == page(summary)
    # the decisions' cap costs name the budget that binds, not only that the baseline drops it
    assert "onprem.capex_budget = 2,500 USD, which alone costs the plan" in summary
    assert "which the plan keeps" not in summary
    assert any(x.startswith(("**Close call:**", "Firm: ", "No runner-up: ")) for x in page(summary))


def test_format_md_with_no_decisions_has_no_runner_up(tmp_path):
    shown = CliRunner().invoke(app, ["plan", str(STARTUP), "--format", "md", "--no-decisions", "--no-baselines"])
    assert shown.exit_code == 0, shown.output
    assert "runner-up" not in shown.stdout and "## Warnings" in shown.stdout


def test_a_runner_up_below_an_unproven_plan_costs_less_in_the_summary():
    """Where the plan's own solve stopped unproven (a time limit) and a re-solve found a cheaper runner-up, the
    summary says it costs less (not "-49,478 USD more"); a gap never proved reads as unknown, not "None"."""
    import dataclasses

    from planner import add_decisions, plan
    from planner.reports import plan_to_markdown

    proven = plan("scenarios/startup-hybrid.yaml", baselines=False)
    over = 10_000.0   # told as a time-limited solve would leave it: unproven, dearer than the optimum
    fake = dataclasses.replace(proven, status="feasible", total=proven.total + over, warnings=list(proven.warnings),
                               solver={**proven.solver, "status": "feasible", "gap": None})
    p = add_decisions(fake)
    less = fake.total - p.runner_up["total"]
    assert less > 0
    text = plan_to_markdown(p)
    assert f"costs {p.runner_up['total']:,.0f} USD, {less:,.0f} USD ({100 * less / fake.total:.1f} %) less" in text
    assert "**Not the best plan:**" in text and "Firm" not in text and "Close call" not in text
    assert "gap unknown (stopped before it proved any bound)" in text and "gap None" not in text
