"""A plan that fails says first what validate warns of its scenario's values: an audit's electricity_per_kwh 28 (cents
written as euros) solved for 96 s to "solver highs found no fleet within the time limit … try the other solver" (exit
3) and nothing else, the warning of the price (which a plan lists among its warnings) lost with the plan; a sweep
took the value from --vary without a word. The warnings' texts are worked out here from the values: 120 USD a kWh
in cents is 1.2, per MWh 0.12; a capex budget of 50 USD "in thousands" is 50000."""

from __future__ import annotations

import importlib
import json

from tests.planner.cli_run import run

NO_FLEET = ("name: t\nhorizon_months: 12\n"
            "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n"
            "onprem:\n  electricity_per_kwh: 120\n  cards: [rtx-4090]\n  capex_budget: 50\n"
            "constraints: {max_cloud_share: 0}\n"
            "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090}\n")
PLANS = ("name: t\nhorizon_months: 12\n"
         "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n"
         "onprem:\n  electricity_per_kwh: 120\n"
         "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090}\n")
CENTS = ("warning: onprem.electricity_per_kwh: 120 USD a kWh is more than grid electricity costs anywhere (under 1 USD "
         "a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 1.2; if per MWh, 0.12")
THOUSANDS = "for 50 thousand, write 50000"


def _written(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_infeasible_plan_says_the_unit_warnings_before_its_reason(tmp_path):
    result = run("plan", _written(tmp_path, NO_FLEET), "--no-baselines", "--no-decisions")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert CENTS in lines
    budget = [line for line in lines if line.startswith("warning: onprem.capex_budget: 50 USD")]
    assert len(budget) == 1 and THOUSANDS in budget[0]
    reason = next(i for i, line in enumerate(lines) if line.startswith("infeasible: "))
    assert lines.index(CENTS) < reason and lines.index(budget[0]) < reason


def test_the_json_of_an_infeasible_plan_carries_them(tmp_path):
    result = run("plan", _written(tmp_path, NO_FLEET), "--no-baselines", "--no-decisions", "--format", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["status"] == "infeasible"
    assert doc["warnings"][0] == CENTS.removeprefix("warning: ")
    assert doc["warnings"][1].startswith("onprem.capex_budget: 50 USD") and THOUSANDS in doc["warnings"][1]
    assert CENTS in result.stderr.splitlines()


def test_a_plan_the_time_limit_stops_before_any_fleet_says_them_before_its_error(tmp_path, monkeypatch):
    # HiGHS stopped before its first fleet, as the audit's 28 EUR a kWh did at 90 s
    solve = importlib.import_module("planner.engine.solve")   # planner.engine.solve is also a function's name
    monkeypatch.setattr(solve, "_solve_highs", lambda *args, **kwargs: ("not_solved", None))
    result = run("plan", _written(tmp_path, PLANS), "--no-baselines", "--no-decisions", "--time-limit", "5")
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("error: ") and "time limit" in lines[-1]
    assert CENTS in lines[:-1]


def test_on_a_terminal_they_are_said_before_the_solve_and_once(tmp_path, monkeypatch):
    said_when_solving = []
    engine = importlib.import_module("planner.engine")
    real = engine.plan

    def plan(*args, **kwargs):
        import sys

        sys.stderr.flush()
        said_when_solving.append(sys.stderr.buffer.getvalue().decode())
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "plan", plan)
    monkeypatch.setenv("TTY_COMPATIBLE", "1")   # stderr read as a terminal's (console._plain_stderr)
    monkeypatch.setenv("NO_COLOR", "1")
    ok = run("plan", _written(tmp_path, PLANS), "--no-baselines", "--no-decisions")
    assert ok.exit_code == 0
    assert ok.stderr.count("onprem.electricity_per_kwh: 120 USD a kWh") == 1
    assert "onprem.electricity_per_kwh: 120 USD a kWh" in said_when_solving[0]
    failed = run("plan", _written(tmp_path, NO_FLEET), "--no-baselines", "--no-decisions")
    assert failed.exit_code == 1
    assert failed.stderr.count("onprem.electricity_per_kwh: 120 USD a kWh") == 1
    assert failed.stderr.index("onprem.electricity_per_kwh") < failed.stderr.index("infeasible:")


SWEPT = ("name: t\nhorizon_months: 12\n"
         "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n"
         "onprem:\n  cards: [rtx-4090]\n"
         "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: RTX-4090}\n")


def _sweep_said_first(monkeypatch, tmp_path, *vary):
    """`fleetplan sweep` of SWEPT with the --vary items (one worker process), and its stderr as it stood when the
    sweep's points started to be solved."""
    import planner.reports

    before = []
    real = planner.reports.sweep

    def sweep(*args, **kwargs):
        import sys

        sys.stderr.flush()
        before.append(sys.stderr.buffer.getvalue().decode())
        return real(*args, **kwargs)

    monkeypatch.setattr(planner.reports, "sweep", sweep)
    args = [a for item in vary for a in ("--vary", item)]
    return run("sweep", _written(tmp_path, SWEPT), *args, "--processes", "1"), before


def test_a_sweep_warns_of_a_varied_value_typed_in_cents_naming_it_once_before_solving(monkeypatch, tmp_path):
    result, before = _sweep_said_first(monkeypatch, tmp_path, "onprem.electricity_per_kwh=0.12,120",
                                       "onprem.pue=1.2,1.5")
    assert result.exit_code == 0, result.output
    line = ("warning: --vary onprem.electricity_per_kwh=120: 120 USD a kWh is more than grid electricity costs anywhere "
            "(under 1 USD a kWh); expected USD per kWh, such as 0.12: if it is in cents, write 1.2; if per MWh, 0.12")
    assert result.stderr.splitlines().count(line) == 1
    assert line in before[0].splitlines()
    # not again after the sweep, as the two points of 120 USD a kWh list it
    assert "onprem.electricity_per_kwh: 120 USD" not in result.stderr
    assert "--vary onprem.electricity_per_kwh=0.12" not in result.stderr and "--vary onprem.pue" not in result.stderr


def test_a_sweep_warns_of_a_varied_capex_budget_in_thousands(monkeypatch, tmp_path):
    result, before = _sweep_said_first(monkeypatch, tmp_path, "onprem.capex_budget=50,50000")
    assert result.exit_code == 0, result.output
    said = [line for line in before[0].splitlines() if line.startswith("warning: --vary onprem.capex_budget=")]
    assert len(said) == 1 and said[0].startswith("warning: --vary onprem.capex_budget=50: 50 USD is less than the "
                                                 "cheapest card")
    assert said[0].endswith("for 50 thousand, write 50000")


def test_a_sweep_of_many_implausible_values_names_those_past_ten_in_one_line(monkeypatch, tmp_path):
    import planner.reports
    from planner.errors import PlannerError

    def stopped(*args, **kwargs):   # the warnings come before any point is solved: none need be
        raise PlannerError("stopped by the test")

    monkeypatch.setattr(planner.reports, "sweep", stopped)
    prices = ",".join(str(cents) for cents in range(3, 16))   # 13 prices above 2 USD a kWh, all in cents
    result = run("sweep", _written(tmp_path, SWEPT), "--vary", f"onprem.electricity_per_kwh=0.12,{prices}")
    assert result.exit_code == 2 and result.stderr.splitlines()[-1] == "error: stopped by the test"
    lines = [line for line in result.stderr.splitlines() if line.startswith("warning: --vary")]
    assert [line.split(":")[1] for line in lines[:10]] == [f" --vary onprem.electricity_per_kwh={c}" for c in range(3, 13)]
    assert lines[3].endswith("if it is in cents, write 0.06; if per MWh, 0.006")
    assert lines[10] == ("warning: --vary: 3 more values warned of likewise: onprem.electricity_per_kwh=13, "
                         "onprem.electricity_per_kwh=14, onprem.electricity_per_kwh=15")
    assert len(lines) == 11
