"""`fleetplan plan --start` reaches --format json and --format md as it reaches --out (the JSON's `start`, monthly rows'
`calendar_month`, summary.md's months), and the runner-up's line says "with no cards (all cloud)" where the best plan
with other card types holds none (an audit: "with other card types: … rtx-4090 3 → 0" read as another card bought)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


def test_the_json_and_the_summary_say_the_calendar_months_of_start():
    result = run("plan", str(WORKED), "--start", "2027-04", "--format", "json", "--no-decisions")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    # month 1 = 2027-04; month 24 is 23 months on: 2029-03
    assert d["start"] == "2027-04"
    months = [row["calendar_month"] for row in d["monthly"]]
    assert months[0] == "2027-04" and months[23] == "2029-03"
    md = run("plan", str(WORKED), "--start", "2027-04", "--format", "md", "--no-decisions")
    assert md.exit_code == 0, md.output
    assert "months 1–24 = 2027-04 to 2029-03" in md.stdout


def test_without_start_the_json_says_none():
    result = run("plan", str(WORKED), "--format", "json", "--no-decisions")
    assert json.loads(result.stdout)["start"] is None


def test_an_all_cloud_alternative_is_called_so():
    # mid-research: the plan buys RTX 4090s; the best plan with other card types buys none at all
    result = run("plan", str(ROOT / "scenarios" / "mid-research.yaml"))
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "with no cards (all cloud): " in text and "with other card types" not in text


def test_the_dashboard_says_it_alike():
    from fleetplan_dashboard.tables import other_types_text

    runner = {"fleet": {"rtx-4090": 4}, "other_types": {"fleet": {}, "total": 60864.0, "increase": 20000.0,
                                                        "increase_pct": 48.9, "differences": ["rtx-4090 3 → 0"]}}
    assert other_types_text(runner, "USD").startswith("With no cards, all cloud (rtx\\-4090 3 → 0): 60,864 USD")   # Markdown-safe
    runner["other_types"]["fleet"] = {"l4": 2}
    assert other_types_text(runner, "USD").startswith("With another set of card types (rtx\\-4090 3 → 0)")
