"""What an audit by a platform engineer running fleetplan nightly for a EUR budget found said wrongly."""

import importlib
import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from planner import load_scenario, sweep
from planner.cli import app
from planner.cli.console import number_readings


@pytest.mark.parametrize(("args", "said"), [
    # a decimal comma (German, French): every comma was dropped, "did you mean 25?" for 0,25 EUR/kWh (100 × the price)
    (["offers", "--provider", "onprem", "--electricity", "0,25"],
     "got '0,25'; did you mean 0.25? (a decimal point, not a comma)"),
    (["offers", "--provider", "onprem", "--pue", "1,5"], "got '1,5'; did you mean 1.5? (a decimal point, not a comma)"),
    (["offers", "--max-price", "0,92"], "got '0,92'; did you mean 0.92? (a decimal point, not a comma)"),
    # commas grouping by three are thousands, as before
    (["offers", "--max-price", "1,500"], "got '1,500'; did you mean 1500?"),
    (["offers", "--fx", "CNY=0,14"], "--fx 'CNY=0,14': expected CODE=RATE with a rate > 0, e.g. --fx CNY=0.14 (USD per 1 "
                                     "CNY); did you mean --fx CNY=0.14? (a decimal point, not a comma)"),
])
def test_a_decimal_comma_in_a_number_option_is_read_as_a_decimal_point(args, said):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert said in " ".join(result.output.split()), result.output


@pytest.mark.parametrize(("digits", "readings"), [
    ("0,25", [("0.25", " (a decimal point, not a comma)")]),
    ("1,500", [("1500", ""), ("1.500", " (a decimal point, not a comma)")]),   # a PUE: 1.5 where 1500 is out of range
    ("1,000,000", [("1000000", "")]),
    ("1_000", [("1000", "")]),
    ("12,5,1", []),
])
def test_number_readings(digits, readings):
    assert number_readings(digits) == readings


EUR_ENTRY = """name: eur
currency: EUR
fx: {USD: 0.92}
horizon_months: 12
prices: {source: snapshot, providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.25
  cards: [rtx-4090]
  capex_budget: BUDGET
workloads:
  - {name: train, gpu_hours_per_month: 100, reference_gpu: RTX-4090, min_gpu_memory_gb: 24}
"""


@pytest.mark.parametrize(("budget", "meant"), [
    ("2.500 €", "2500"),                # German thousands: it was "did you mean 2.5?", a thousandth
    ("60.000 €", "60000"),
    ("1.250.000,50 €", "1250000.5"),    # no hint at all before
    ("2.5 €", "2.5"),                   # a decimal point, as before
])
def test_an_amount_with_dots_between_thousands_is_meant_as_thousands(tmp_path, budget, meant):
    path = tmp_path / "eur.yaml"
    path.write_text(EUR_ENTRY.replace("BUDGET", budget), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert (f"onprem.capex_budget: expected a number, got '{budget}'; did you mean {meant}? (an amount is the number "
            "alone, in the scenario's currency)") in " ".join(result.output.split()), result.output


def test_a_doubted_rate_of_a_currency_no_card_is_priced_in_leaves_the_budget_warning(tmp_path):
    # the RTX 4090 is priced in USD (1,669.99 + 750 host share): 2,419.99 × 0.92 = 2,226.39 EUR, more than a budget of
    # 100 EUR; fx.CNY 0.9 (about 7 times the yuan's rate) is doubted, but no card here is priced in CNY
    path = tmp_path / "f6.yaml"
    path.write_text(EUR_ENTRY.replace("fx: {USD: 0.92}", "fx: {USD: 0.92, CNY: 0.9}").replace("BUDGET", "100"),
                    encoding="utf-8")
    said = " ".join(CliRunner().invoke(app, ["validate", str(path)]).output.split())
    assert "fx.CNY: at 0.9 the scenario's rates give" in said, said
    assert ("onprem.capex_budget: 100 EUR is less than the cheapest card the scenario may buy costs new (rtx-4090: "
            "2,226.39 EUR with its host share), so no card can be bought") in said, said
    # a doubted fx.USD, the rate the card is converted at, still leaves the budget unjudged
    path.write_text(EUR_ENTRY.replace("fx: {USD: 0.92}", "fx: {USD: 92}").replace("BUDGET", "100"), encoding="utf-8")
    assert "onprem.capex_budget" not in CliRunner().invoke(app, ["validate", str(path)]).output


def test_validate_json_names_the_field_of_an_fx_warning(tmp_path):
    path = tmp_path / "fx.yaml"
    path.write_text(EUR_ENTRY.replace("fx: {USD: 0.92}", "fx: {USD: 92, EUR: 1.1}").replace("BUDGET", "5000"),
                    encoding="utf-8")

    result = CliRunner().invoke(app, ["validate", str(path), "--format", "json"])
    warnings = [f for file in json.loads(result.stdout)["files"] for f in file["problems"]
                if f["severity"] == "warning"]
    fields = {f["field"] for f in warnings if f["message"].startswith(("92", "at 92", "1.1"))}
    assert fields == {"fx.USD", "fx.EUR"}, warnings


def test_a_sweeps_warnings_come_in_the_points_order_whatever_order_they_finish_in(monkeypatch):
    sweep_module = importlib.import_module("planner.reports.sweep")
    solved = sweep_module._solve_points

    def backwards(todo, record, *args, **kwargs):   # the last point finishes first, as a worker may
        solved(list(reversed(todo)), record, *args, **kwargs)

    s = load_scenario("examples/worked-example.yaml")
    vary = {"currency": ["EUR", "USD"], "fx": [{"USD": 0.92}]}
    forwards = sweep(s, vary, baselines=False, processes=1)
    monkeypatch.setattr(sweep_module, "_solve_points", backwards)
    reordered = sweep(s, vary, baselines=False, processes=1)
    assert reordered.attrs["warnings"] == forwards.attrs["warnings"]
    # the A5000's quote is worded in each point's currency: the EUR point's (the first) comes first
    quoted = [w["warning"] for w in forwards.attrs["warnings"] if "rtx-a5000" in w["warning"]]
    assert len(quoted) == 2 and "EUR" in quoted[0] and "EUR" not in quoted[1], quoted


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_without_unicode_gets_escapes_not_a_traceback(encoding):
    # the table's title holds "—", which PYTHONIOENCODING=ascii made a UnicodeEncodeError traceback and exit 1 (the code
    # of a plan with no fleet)
    env = {**os.environ, "PYTHONIOENCODING": encoding, "AWS_EC2_METADATA_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-m", "planner.cli", "plan", "scenarios/entry.yaml", "--no-decisions"],
                          capture_output=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr.decode(encoding, "replace")
    assert done.stdout.decode(encoding).startswith("Entry \\u2014 small datasets \\u2014 optimal, 24 months")
    assert b"Traceback" not in done.stderr


def test_a_decimal_comma_in_a_flow_mapping_is_named_first(tmp_path):
    # YAML reads {USD: 0,92} as USD: 0 and a key 92 of no value: three errors that never named the comma
    path = tmp_path / "flow.yaml"
    path.write_text(EUR_ENTRY.replace("fx: {USD: 0.92}", "fx: {USD: 0,92, CNY: 0.13}").replace("BUDGET", "5000"),
                    encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    first = result.output.splitlines()[0]
    assert first == (f"error: {path}:3:11: fx.USD: 0,92 inside {{ }} is read as 0, and 92 as a key of its own (a comma "
                     "separates the entries there); did you mean 0.92? (a decimal point, not a comma)"), result.output
    # three digits after the comma: thousands first, as outside { }
    path.write_text(EUR_ENTRY.replace("BUDGET", "5000") + "constraints:\n  min_units: {rtx-4090: 1,000}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.output.splitlines()[0] == (
        f"error: {path}:13:25: constraints.min_units.rtx-4090: 1,000 inside {{ }} is read as 1, and 000 as a key of its own "
        "(a comma separates the entries there); did you mean 1000? (a number without thousands separators; 1.000 if the "
        "comma is a decimal one)"), result.output


def test_compare_says_what_an_unset_override_currency_is():
    from planner.reports.compare import unset_text

    # the RTX 4090's catalog price is in USD (planner/data/onprem_cards.csv): 1,900 with no currency is 1,900 USD
    assert unset_text("onprem.card_overrides.rtx-4090.currency") == "(not set: the catalog card's, USD)"
    # the RTX 3060's in CNY
    assert unset_text("onprem.card_overrides.rtx-3060-12gb.currency") == "(not set: the catalog card's, CNY)"
    assert unset_text("onprem.card_overrides.rtx-4090.price") == "(not set: the catalog's value)"


def test_a_decimal_comma_in_a_workloads_flow_mapping_names_the_workload(tmp_path):
    # the path counts the list item the line is in, as the other problems of the line name it
    text = (EUR_ENTRY.replace("BUDGET", "5000") + "  - name: second\n    gpu_hours_per_month: 10\n"
            "    reference_gpu: RTX-4090\n    throughput: {RTX-4090: 1, A10G: 0,5}\n")
    path = tmp_path / "items.yaml"
    path.write_text(text, encoding="utf-8")
    said = CliRunner().invoke(app, ["validate", str(path)]).output
    assert f"{path}:15:37: workloads[1].throughput.A10G: 0,5 inside {{ }} is read as 0" in said, said


def test_a_unit_price_with_three_decimals_is_not_read_as_thousands(tmp_path):
    # 1.500 USD a kWh is 1.5 (prices per unit often carry three decimals); an amount's "2.500 €" is 2,500
    path = tmp_path / "kwh.yaml"
    path.write_text(EUR_ENTRY.replace("BUDGET", "5000").replace("electricity_per_kwh: 0.25",
                                                                 "electricity_per_kwh: 1.500 €"), encoding="utf-8")
    said = " ".join(CliRunner().invoke(app, ["validate", str(path)]).output.split())
    assert "onprem.electricity_per_kwh: expected a number, got '1.500 €'; did you mean 1.5?" in said, said


def test_cp1252_output_gets_escapes_for_what_it_lacks():
    # cp1252 (Windows) has — and € but not → or ≥: the runner-up line's → made a traceback
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "AWS_EC2_METADATA_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-m", "planner.cli", "plan", "scenarios/startup-hybrid.yaml"],
                          capture_output=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr.decode("cp1252", "replace")[-2000:]
    assert "\\u2192" in done.stdout.decode("cp1252")
