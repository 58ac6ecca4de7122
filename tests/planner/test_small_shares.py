"""A share of the plan's total under 0.05 % but not 0 reads with two significant digits wherever it is shown (the
CLI, the Markdown summary, the dashboard: reports.tables.share_text), not as 0: a decision worth 90 USD of
industrial's 2 M USD total is 90 / 2,000,000 = 0.0045 %, which two decimals showed as 0.00 %."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from planner import plan
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import share_text, shown_share

STARTUP = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"


@pytest.mark.parametrize(("pct", "decimals", "text"), [
    (0.0045, 2, "0.0045"),        # 90 USD of 2,000,000
    (0.009054, 2, "0.0091"),      # 182.7 USD of 2,017,777
    (-0.0004, 2, "-0.0004"),
    (0.0000123, 2, "0.000012"),   # written out, not 1.2e-05
    (0.0499, 2, "0.05"),          # two significant digits, under 0.05 itself
    (0.00999, 1, "0.01"),
    (1.694, 2, "1.69"), (1.694, 1, "1.7"), (0.05, 2, "0.05"), (0.0, 2, "0.00"), (-0.001, 1, "-0.001")])
def test_a_share_shows_its_decimals_or_two_significant_digits_when_small(pct, decimals, text):
    assert share_text(pct, decimals) == text
    assert shown_share(pct, decimals) == pytest.approx(float(text), abs=0)


def test_no_share_is_rounded_away():
    assert shown_share(0.0045) == 0.0045 and shown_share(-0.0) == 0.0 and math.isnan(shown_share(math.nan))


def test_the_summary_s_runner_up_worth_0_0045_percent_does_not_read_0_00():
    p = plan(STARTUP, baselines=False)
    # told as a plan of 2,000,000 USD whose runner-up costs 90 USD more (the front ends read these fields)
    runner = {"total": 2_000_090.0, "increase": 90.0, "increase_pct": 0.0045, "differences": ["rtx-4090 1 → 2"],
              "close_call_share": 0.02, "status": "optimal", "fleet": {"rtx-4090": 2}, "plan_fleet": {"rtx-4090": 1}}
    told = dataclasses.replace(p, total=2_000_000.0, close_call=True, runner_up=runner)
    md = plan_to_markdown(told)
    assert "costs 2,000,090 USD, 90 USD (0.0045 %) more" in md and "(0.00%)" not in md   # as the CLI: percent_text


def test_the_cli_s_runner_up_line_shows_the_same_share():
    from planner.cli.commands import _more_or_less, _percent

    assert _more_or_less(90.0, 0.0045, "USD") == "90 USD (0.0045 %) more"
    assert _percent(1.694) == "1.7 %" and _percent(None) == "n/a"
