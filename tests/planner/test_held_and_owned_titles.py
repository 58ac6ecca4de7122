"""The titles of the runner-up's tables and of the owned cards' table say what their figures count (an audit,
2026-12-07, checking plans by hand):
- a count of cards held is of the cards not sold: owned ones kept or switched off, and those bought
  (docs/decisions.md: `Model.n`, "an owned A100 40GB held switched off is still held"); the titles said "owned kept and
  bought", leaving the switched-off ones out in words while counting them;
- the owned cards' fixed_costs_avoided leaves out the site's fixed monthly cost (docs/workbook.md: it only ends when no
  on-prem unit is left), and the title did not say so: a batch avoiding 89 read as all that switching it off saves.
startup-hybrid.yaml owns two RTX 3060s and plans cards, so both tables are shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app
from planner.reports.markdown import plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
HELD = "owned and not sold, kept or switched off, and bought in any month"
SITE = "the site's fixed monthly cost left out"


@pytest.fixture(scope="module")
def shown() -> str:
    result = CliRunner().invoke(app, ["plan", str(STARTUP), "--no-baselines"])
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())   # rich wraps a title to its table


def test_the_runner_up_tables_count_switched_off_cards_as_held_in_words(shown):
    assert f"Runner-up fleet (cards held over the plan — {HELD} — and reserved units)" in shown
    assert f"how many it holds (held_units: {HELD})" in shown
    assert "owned kept and bought" not in shown


def test_the_owned_cards_title_says_the_site_cost_is_left_out(shown):
    title = (f"keep, switch off or sell (fixed costs avoided plus a sale's credit over the end value, in USD, present "
             f"value at 0%/year, undiscounted; {SITE}; not net of the work bought instead)")
    assert f"Cards already owned: {title}" in shown
    assert f"## Cards already owned: {title}" in plan_to_markdown(plan(STARTUP, baselines=False))
