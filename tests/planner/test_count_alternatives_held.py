"""One card more or fewer says the count its fleet holds (`held_units`), not only the bound asked (an audit,
2026-12-06: industrial's row "a100-80gb-pcie | 88 | 87" stood under "the best plan holding that many" while that
plan held 80 A100s: the re-solve asks for at most n − 1, or at least n + 1, docs/decisions.md).

A scenario worked out by hand where two cards pay off and one does not: one cloud offer, AWS g5.xlarge (1 × A10G,
0.8 of an RTX A5000) on-demand at 1.006 USD/h, 1.2575 USD per A5000-hour; 1,314 A5000-hours a month (two cards'
0.9 × 730 h) for 12 months, undiscounted. An RTX A5000 costs 2,000 + 500 (host) USD, no energy price, no
maintenance, no resale: 2,500 USD over the plan; the site costs 800 USD a month (9,600) while any card is held.
- two cards: 5,000 + 9,600 = 14,600 USD (the plan);
- none: 1,314 × 12 × 1.2575 = 19,828.26 USD;
- one: 2,500 + 9,600 + half the hours on the cloud (9,914.13) = 22,014.13 USD, dearer than none: the best plan
  holding at most one holds none;
- three: 7,500 + 9,600 = 17,100 USD (the third idle, at no energy cost)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from planner import add_decisions, plan
from planner.cli import app
from planner.engine import decisions
from planner.reports import plan_to_excel
from tests.planner.test_decisions_edge_cases import scenario

PER_A5000_HOUR = 1.006 / 0.8
HOURS = 2 * 0.9 * 730
TWO, NONE, ONE, THREE = 5000 + 9600, HOURS * 12 * PER_A5000_HOUR, 2500 + 9600 + HOURS / 2 * 12 * PER_A5000_HOUR, 17100


def pair(tmp_path: Path) -> Path:
    """Two RTX A5000s that pay off only together (the site's 800 USD a month), beside the example's g5.xlarge."""
    return scenario(tmp_path, "pair", onprem="""  electricity_per_kwh: 0
  fixed_onprem_per_month: 800
  resale: {method: none}
  cards: [rtx-a5000]
  card_overrides:
    rtx-a5000: {price: 2000, currency: USD, host_cost_per_card: 500, busy_watts: 400, idle_watts: 100,
                life_years: 4, maintenance_rate_per_year: 0}""",
                    workloads=f"""    gpu_hours_per_month: {HOURS:g}
    throughput: {{RTX-A5000: 1.0, A10G: 0.8}}""")


def test_the_hand_worked_totals_make_one_card_dearer_than_none():
    assert TWO < THREE < NONE < ONE


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return add_decisions(plan(pair(tmp_path_factory.mktemp("held")), baselines=False), threads=1)


def test_at_most_one_fewer_holds_none_and_says_so(made):
    assert made.total == pytest.approx(TWO, rel=1e-9)
    found = {a["alternative_units"]: a for a in made.runner_up["count_alternatives"]}
    assert sorted(found) == [1, 3]
    assert (found[1]["units"], found[1]["held_units"], found[1]["fleet"]) == (2, 0, {})
    assert found[1]["total"] == pytest.approx(NONE, rel=1e-9)
    assert (found[3]["held_units"], found[3]["fleet"]) == (3, {"rtx-a5000": 3})
    assert found[3]["total"] == pytest.approx(THREE, rel=1e-9)


def test_the_cli_table_shows_the_count_held_under_a_truthful_title(tmp_path):
    result = CliRunner().invoke(app, ["plan", str(pair(tmp_path)), "--no-baselines"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert ("One card more or fewer (USD, present value at 0%/year, undiscounted): the best plan holding at most "
            "held − 1 or at least held + 1 (of a card sold as whole boards, one board: ± 8), asked: ≤ or ≥ that "
            "count, and how many it holds (held_units") in text
    assert "holding that many" not in text
    assert "┃ card ┃ held ┃ asked ┃ held_units ┃ total ┃ increase ┃ increase_pct ┃" in text
    assert "│ rtx-a5000 │ 2 │ ≤ 1 │ 0 │ 19,828.3 │ 5,228.3 │ 35.8 │" in text
    # a column of money to one decimal throughout (19,828.3 above): 17,100 reads 17,100.0
    assert "│ rtx-a5000 │ 2 │ ≥ 3 │ 3 │ 17,100.0 │ 2,500.0 │ 17.1 │" in text


def test_the_json_carries_held_units(tmp_path):
    result = CliRunner().invoke(app, ["plan", str(pair(tmp_path)), "--no-baselines", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["runner_up"]["count_alternatives"]
    assert [(a["alternative_units"], a["held_units"]) for a in rows] == [(3, 3), (1, 0)]


def test_the_workbook_sheet_carries_held_units(made):
    ws = load_workbook(io.BytesIO(plan_to_excel(made, start="2027-01")))["count alternatives"]
    rows = [[c.value for c in r] for r in ws.iter_rows()]
    header = rows[0]
    assert header[:5] == ["card", "units", "alternative_units", "held_units", "status"]
    assert sorted(tuple(r[1:4]) for r in rows[1:]) == [(2, 1, 0), (2, 3, 3)]


def test_a_runner_up_taken_from_at_most_one_fewer_names_the_count_it_holds():
    # a runner-up whose solve stopped without a fleet takes the count alternative, which held none of two
    r, result = type("R", (), {"time_limit": 5.0})(), type("P", (), {"total": 100.0})()
    runner = {"status": "not_solved", "fleet": None, "plan_fleet": {"a": 2}, "total": None, "increase": None,
              "increase_pct": None, "differences": [], "note": "stopped", "other_types": None}
    fewer = {"card": "a", "units": 2, "alternative_units": 1, "held_units": 0, "status": "optimal", "total": 104.0,
             "increase": 4.0, "increase_pct": 4.0, "fleet": {}}
    found = decisions.known_cheaper(r, result, runner, [fewer])
    assert found["note"].startswith("found by the best plan holding at most one fewer a (2 → 0); ")
