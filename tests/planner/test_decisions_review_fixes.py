"""Review fixes of the runner-up and its printing (engine.decisions, cli._print_decisions), against numbers
worked out by hand:

- a plan holding the peak's need of a reservation offer: the runner-up may hold one reservation more
  (its bound was the peak's need, so only "one fewer" was tried);
- no demand any card or reservation could serve: "no other fleet meets the scenario" was untrue;
- an exact tie printed a negative zero;
- a runner-up stopped by the time limit is said to be unproven.
"""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from planner import add_decisions, plan
from planner.cli import commands
from planner.engine.decisions import money_difference

ROOT = Path(__file__).resolve().parents[2]
G5 = ROOT / "examples" / "offers-g5-us-east-1.csv"   # g5.xlarge on-demand, us-east-1, 1.006 USD/h
RESERVED = "aws:us-west-2:g5.xlarge:reserved_1y"
# a test offer (not a shipped price): one year reserved at 0.40 USD/h and 300 USD upfront
RESERVED_ROW = (f"{RESERVED},aws,us-west-2,g5.xlarge,reserved_1y,A10G,True,A10G,1.0,24.0,4.0,16.0,0.40,300.0,USD,12,,"
                "2026-07-20,test,")


def scenario(tmp_path: Path, hours_per_month: float) -> Path:
    offers = tmp_path / "offers.csv"
    offers.write_text(G5.read_text(encoding="utf-8").rstrip("\n") + "\n" + RESERVED_ROW + "\n", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: reservations at the peak's need
currency: USD
horizon_months: 12
discount_rate: 0.0
prices: {{source: {offers}, providers: [aws], purchase_options: [on_demand, reserved_1y]}}
workloads:
  - name: training
    gpu_hours_per_month: {hours_per_month}
    reference_gpu: RTX-A5000
    min_gpu_memory_gb: 16
    profile: flat
    throughput: {{RTX-A5000: 1.0, A10G: 0.8}}
""", encoding="utf-8")
    return path


def test_the_runner_up_may_hold_one_reservation_more_than_the_peaks_need(tmp_path):
    # 29,725.6 GPU-h of A5000 a month = 37,157 g5 hours = 50.9 instances busy all year. A reservation costs
    # 0.40 × 8,760 + 300 = 3,804 a year; an instance on demand 1.006 × 8,760 = 8,812.56. With r reserved
    # (r ≥ 50.9 covers it all): r = 51 → 194,004 (the plan); r = 52 → 197,808 (+3,804, 1.96 %);
    # r = 50 → 190,200 + 0.9 × 8,812.56 = 198,131.30 (+4,127.30). The runner-up is 52, a close call at 2 %.
    p = add_decisions(plan(scenario(tmp_path, 29725.6), baselines=False), threads=1)
    assert p.total == pytest.approx(51 * 3804, abs=0.01)
    runner = p.runner_up
    assert runner["fleet"] == {RESERVED: 52}
    assert runner["total"] == pytest.approx(52 * 3804, abs=0.01)
    assert runner["increase"] == pytest.approx(3804, abs=0.01)
    assert runner["increase_pct"] == pytest.approx(100 * 3804 / (51 * 3804), abs=1e-6)
    assert p.close_call is True


def test_with_no_demand_the_runner_up_says_any_other_fleet_only_adds_cost(tmp_path):
    p = add_decisions(plan(scenario(tmp_path, 0), baselines=False), threads=1)
    assert p.total == pytest.approx(0, abs=1e-6)
    assert p.runner_up["status"] == "none" and p.runner_up["fleet"] is None
    assert "no card or reservation could do any of this work" in p.runner_up["note"]
    assert "meets the scenario" not in p.runner_up["note"]


def test_an_exact_tie_is_a_difference_of_zero_not_minus_zero():
    assert f"{money_difference(4306.0 - 9e-13, 4306.0):+,.0f}" == "+0"
    assert money_difference(4306.01, 4306.0) == pytest.approx(0.01)


def _printed(runner: dict, plan_status: str = "optimal") -> str:
    buffer = io.StringIO()
    p = SimpleNamespace(currency="USD", total=100.0, status=plan_status, decisions=None, runner_up=runner,
                        close_call=False, solver={}, flip_points=None)
    console = Console(file=buffer, width=200, color_system=None)
    original = commands.stdout_console
    commands.stdout_console = lambda **_: console
    try:
        commands._print_decisions(p)
    finally:
        commands.stdout_console = original
    return buffer.getvalue()


@pytest.mark.parametrize("status, said", [("feasible", True), ("optimal", False)])
def test_a_runner_up_stopped_at_the_time_limit_is_said_to_be_unproven(status, said):
    runner = {"status": status, "fleet": {"card": 2}, "plan_fleet": {"card": 1}, "total": 110.0,
              "increase": 10.0, "increase_pct": 10.0, "differences": ["card 1 → 2"]}
    text = _printed(runner)
    assert "runner-up 110 USD, 10 USD (10.0 %) more: card 1 → 2" in text
    assert ("not proven best: the runner-up's solve stopped at its time limit" in text) is said


def test_a_runner_up_below_an_unproven_plan_is_said_to_cost_less_and_the_plan_unproven():
    runner = {"status": "feasible", "fleet": {"card": 2}, "plan_fleet": {"card": 1}, "total": 95.0,
              "increase": -5.0, "increase_pct": -5.0, "differences": ["card 1 → 2"]}
    text = _printed(runner, plan_status="feasible")
    assert "runner-up 95 USD, 5 USD (5.0 %) less: card 1 → 2" in text
    assert "not proven best: the recommended plan's own solve stopped before it proved the least cost" in text


def test_a_feasible_plan_with_no_bound_proved_says_its_gap_is_unknown(monkeypatch):
    # `--time-limit` reached before the run with cards proved any bound (120-month industrial at 0.1 s)
    # printed "gap None"
    from typer.testing import CliRunner

    from planner.cli import app
    from tests.planner.stopped_solve import stop_solves_at

    stop_solves_at(monkeypatch, None)
    result = CliRunner().invoke(app, ["plan", str(ROOT / "scenarios" / "entry.yaml"), "--no-baselines",
                                      "--no-decisions"])
    assert result.exit_code == 0, result.output
    assert "solver highs: feasible, gap unknown (stopped before it proved any bound)" in result.stderr


def test_a_share_under_the_tables_one_decimal_is_not_shown_as_0():
    # industrial's purchase in month 7 is worth 182.7 USD of 2,017,777: 0.0091 %, which one decimal showed as "0"
    import math

    from planner.cli.commands import _or_na

    shown = _or_na([182.7 / 2_017_777 * 100, -0.0004, 1.69, 0.0, None, math.nan], [True] * 5 + [False])
    assert shown[:5] == ["0.0091", "-0.0004", 1.69, 0.0, "n/a"] and math.isnan(shown[5])


def test_a_column_of_numbers_and_their_texts_is_right_aligned():
    import pandas as pd

    from planner.cli.console import _numbers_column

    assert _numbers_column(pd.Series([1.6, "0.0091", "n/a", None], dtype=object))
    assert not _numbers_column(pd.Series(["buy", "1.6"], dtype=object)) and not _numbers_column(pd.Series([None]))
    # a break-even utilisation no card reaches reads "never" among the numbers: kept right-aligned with them
    assert _numbers_column(pd.Series(["never", 0.068, 1.0], dtype=object))
