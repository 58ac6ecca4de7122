"""Sweeps and --fx from a review: a point is validated as a whole, one field under two spellings and an
fx key that is no currency code are refused up front, each row's money says its currency, varied
mappings read as YAML, and `--fx` refuses rates it would have ignored."""

import csv
import io
import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from planner import PlannerError, ScenarioError, load_scenario, sweep
from planner.cli import app
from planner.cli.commands import _parse_fx
from planner.reports.sweep import sweep_points
from planner.scenario import apply_overrides

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
runner = CliRunner()
# README, worked example: 8,385.46 USD at 0.20 USD/kWh (tests/planner/test_sweep.py)
WORKED_TOTAL_USD = 8385.46
# the worked example's card override, as its file gives it
A5000 = {"price": 2000, "currency": "USD", "host_cost_per_card": 500, "busy_watts": 400, "idle_watts": 100,
         "life_years": 4, "maintenance_rate_per_year": 0.05}


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


# --- 1. a point is validated as a whole -----------------------------------------------------------------

@pytest.fixture(scope="module")
def capped():
    """The worked example with at most 2 RTX A5000 and no capex budget."""
    return apply_overrides(load_scenario(WORKED), {"constraints.max_units.rtx-a5000": 2,
                                                   "onprem.capex_budget": None})


def test_min_units_5_with_max_units_8_in_the_same_point_is_a_valid_point(capped):
    # min 5 is above the base's max 2 alone, but the point also raises max to 8: 5 ≤ 8
    points, scenarios = sweep_points(capped, {"constraints.min_units.rtx-a5000": [5],
                                              "constraints.max_units.rtx-a5000": [8, 3]})
    assert points == [{"constraints.min_units.rtx-a5000": 5, "constraints.max_units.rtx-a5000": 8},
                      {"constraints.min_units.rtx-a5000": 5, "constraints.max_units.rtx-a5000": 3}]
    ok, bad = scenarios
    assert (ok.constraints.min_units["rtx-a5000"], ok.constraints.max_units["rtx-a5000"]) == (5, 8)
    # the second point is invalid as a whole: 5 > its own max 3 (not the base's 2)
    assert bad == "constraints.min_units.rtx-a5000: 5 > max_units 3"


def test_a_sweep_plans_the_point_valid_only_as_a_whole(capped):
    # max 3 plans beside min 2 (a max with no point to plan at is refused up front: test_sweep_values_checked_first)
    table = sweep(capped, {"constraints.min_units.rtx-a5000": [5, 2], "constraints.max_units.rtx-a5000": [8, 3]},
                  processes=1)
    assert list(table["status"]) == ["optimal", "error", "optimal", "optimal"]
    # 800 GPU-hours a month need about one card: the plan holds the 5 it must hold, no more
    assert table["fleet"].iloc[0].startswith("5 rtx-a5000")
    assert table["note"].iloc[1] == "constraints.min_units.rtx-a5000: 5 > max_units 3"


def test_currency_eur_with_its_usd_rate_in_the_same_point_plans_in_euros():
    # EUR alone lacks fx.USD (the card and the cloud are priced in USD); the point gives it
    table = sweep(WORKED, {"currency": ["USD", "EUR"], "fx.USD": [1.1]}, processes=1)
    assert list(table["status"]) == ["optimal", "optimal"]
    assert table["total"].iloc[0] == pytest.approx(WORKED_TOTAL_USD, rel=1e-6)
    # in EUR the card costs (2,000 + 500) × 1.1 = 2,750 EUR, above the 2,500 EUR budget: all cloud,
    # 800 / 0.8 = 1,000 g5 hours a month × 24 months × 1.006 USD × 1.1 EUR/USD
    assert table["total"].iloc[1] == pytest.approx(24_000 * 1.006 * 1.1, rel=1e-9)


def test_a_value_no_point_can_plan_is_refused_naming_its_field_only(nothing_solved):
    # EUR lacks fx.USD at every point (no point gives it): refused before anything is solved, pue named nowhere
    with pytest.raises(ScenarioError) as info:
        sweep(WORKED, {"currency": ["EUR"], "onprem.pue": [1.5]}, processes=1)
    assert info.value.problems == ["currency=EUR: fx: card 'rtx-a5000' is priced in USD; add its rate, e.g. "
                                   "fx: {USD: <EUR per 1 USD>}"]


# --- 2. one field under two spellings -------------------------------------------------------------------

@pytest.mark.parametrize("first,second", [("workloads.0.gpu_hours_per_month", "workloads.training.gpu_hours_per_month"),
                                          ("workloads.training.gpu_hours_per_month", "workloads.0.gpu_hours_per_month")])
def test_a_workload_field_by_index_and_by_name_is_refused_naming_both(first, second, nothing_solved):
    with pytest.raises(ScenarioError) as info:
        sweep(WORKED, {first: [100], second: [900]}, processes=1)
    assert f"{first} and {second} are the same field" in str(info.value)
    result = cli("sweep", WORKED, "--vary", f"{first}=100", "--vary", f"{second}=900", "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert f"{first} and {second} are the same field" in result.stderr


@pytest.mark.parametrize("outer, inner", [("fx", "fx.CNY"), ("onprem.card_overrides.rtx-a5000",
                                                              "onprem.card_overrides.rtx-a5000.price")])
@pytest.mark.parametrize("inner_first", [False, True])
def test_a_mapping_and_a_field_inside_it_are_refused_naming_both(outer, inner, inner_first, nothing_solved):
    # the later of the two replaced the other at every point, and the row showed a value not planned
    values = {outer: [{"CNY": 0.1} if outer == "fx" else {"price": 2000}], inner: [0.2 if outer == "fx" else 9000]}
    vary = dict(reversed(values.items())) if inner_first else values
    with pytest.raises(ScenarioError) as info:
        sweep(WORKED, vary, processes=1)
    assert f"{inner} is a field of {outer}" in str(info.value)
    args = [a for path, vs in vary.items()
            for a in ("--vary", f"{path}={yaml.safe_dump(vs[0], default_flow_style=True).strip()}")]
    result = cli("sweep", WORKED, *args, "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert f"{inner} is a field of {outer}" in result.stderr


def test_a_workload_named_like_an_index_is_that_workload_not_the_index():
    s = apply_overrides(load_scenario(WORKED), {"workloads": [
        {"name": "1", "gpu_hours_per_month": 100, "reference_gpu": "RTX-A5000"},
        {"name": "b", "gpu_hours_per_month": 100, "reference_gpu": "RTX-A5000"}]})
    # `workloads.1` is the workload named "1" (the first), not the second: no clash with `workloads.b`
    points, _ = sweep_points(s, {"workloads.1.gpu_hours_per_month": [200], "workloads.b.gpu_hours_per_month": [300]})
    assert len(points) == 1
    with pytest.raises(ScenarioError, match="workloads.0.growth_per_month and workloads.1.growth_per_month"):
        sweep_points(s, {"workloads.0.growth_per_month": [0.1], "workloads.1.growth_per_month": [0.2]})


# --- 3. the currency of each row's money ----------------------------------------------------------------

def test_sweep_csv_ends_with_the_scenario_currency_and_money_basis():
    result = cli("sweep", WORKED, "--vary", "onprem.pue=1.5", "--format", "csv", "--processes", "1")
    assert result.exit_code == 0, result.output
    (row,) = csv.DictReader(io.StringIO(result.stdout))
    assert list(row)[-2:] == ["currency", "money_basis"] and row["currency"] == "USD"
    assert row["money_basis"] == "present value at 0%/year, undiscounted"   # the worked example's discount_rate: 0.0
    assert float(row["total"]) == pytest.approx(WORKED_TOTAL_USD, rel=1e-6)
    (record,) = json.loads(cli("sweep", WORKED, "--vary", "onprem.pue=1.5", "--format", "json",
                               "--processes", "1").stdout)
    assert record["currency"] == "USD"


def test_a_sweep_over_currencies_gives_each_rows_currency_and_says_so_in_its_title():
    args = ["sweep", WORKED, "--vary", "currency=USD,EUR", "--vary", "fx.USD=1.1", "--processes", "1"]
    result = cli(*args, "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["currency"], round(float(r["total"]), 2)) for r in rows] == [
        ("USD", WORKED_TOTAL_USD), ("EUR", round(24_000 * 1.006 * 1.1, 2))]
    table = cli(*args, "--format", "table")
    assert table.exit_code == 0, table.output
    assert "each point's currency" in table.stdout and "(2 points, USD" not in table.stdout
    only_eur = cli("sweep", WORKED, "--vary", "currency=EUR", "--vary", "fx.USD=1.1,1.2", "--processes", "1")
    assert only_eur.exit_code == 0, only_eur.output
    assert "(2 points, EUR, present value at 0%/year, undiscounted)" in " ".join(only_eur.stdout.split())


# --- 4. an fx key that is no currency code ---------------------------------------------------------------

@pytest.mark.parametrize("key,near", [("cny", "fx.CNY"), ("Eur", "fx.EUR"), ("CNYY", "fx.CNY")])
def test_an_fx_key_that_is_no_currency_code_is_refused_before_solving(key, near, nothing_solved):
    result = cli("sweep", WORKED, "--vary", f"fx.{key}=0.14,0.15", "--processes", "1")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert f"fx.{key}: expected a currency code of three capital letters" in result.stderr
    assert f"did you mean '{near}'?" in result.stderr
    assert result.stderr.count("expected a currency code") == 1   # once for the sweep, not once per value
    with pytest.raises(ScenarioError, match=f"did you mean '{near}'"):
        sweep(WORKED, {f"fx.{key}": [0.14]}, processes=1)


# --- 5. varied mappings and lists as YAML ---------------------------------------------------------------

def test_a_varied_mapping_reads_as_yaml_in_csv_and_table_and_stays_a_mapping_in_json():
    value = "{" + ", ".join(f"{k}: {v}" for k, v in A5000.items()) + "}"
    args = ["sweep", WORKED, "--vary", f"onprem.card_overrides.rtx-a5000={value}",
            "--vary", "prices.purchase_options=[on_demand]", "--processes", "1"]
    result = cli(*args, "--format", "csv")
    assert result.exit_code == 0, result.output
    (row,) = csv.DictReader(io.StringIO(result.stdout))
    assert row["onprem.card_overrides.rtx-a5000"] == value and row["prices.purchase_options"] == "[on_demand]"
    assert float(row["total"]) == pytest.approx(WORKED_TOTAL_USD, rel=1e-6)   # the file's own override
    table = cli(*args, "--format", "table").stdout
    assert "{price: 2000, currency: USD" in table and "'price'" not in table and "['on_demand']" not in table
    (record,) = json.loads(cli(*args, "--format", "json").stdout)
    assert record["onprem.card_overrides.rtx-a5000"] == A5000 and record["prices.purchase_options"] == ["on_demand"]


# --- 6. --fx ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pair,needle", [
    ("USD=2", "USD is 1 by definition"),
    ("CNX=0.14", "'CNX' is not a currency code of ISO 4217 list one (pricing_adapters/data/currencies.csv); "
                 "did you mean 'CNY'?"),
    ("EUR=1.1", "nothing is priced in EUR (prices are in CNY, USD)"),
    ("EURO=1", "'EURO' is not a currency code of ISO 4217 list one (pricing_adapters/data/currencies.csv), "
               "e.g. --fx CNY=0.14"),
])
def test_offers_fx_it_would_ignore_is_bad_input(pair, needle):
    result = cli("offers", "--gpu", "RTX-3060-12GB", "--provider", "onprem", "--fx", pair)
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert f"--fx '{pair}'" in result.stderr and needle in result.stderr


# the words of a scenario's fx key (tests/planner/test_scenario_currency_codes.py): ISO 4217 list one's codes, a
# typo sent to the code one letter off, a withdrawn code's month (list three, read by hand: BULGARIA, Bulgarian Lev,
# BGN, 2026-01; CROATIA, Kuna, HRK, 2023-01) and the code in use there now
LIST_ONE_SAID = "is not a currency code of ISO 4217 list one (pricing_adapters/data/currencies.csv)"


@pytest.mark.parametrize("pair,said", [
    # both said "nothing is priced in EUE (prices are in CNY, USD)", as of GBP, a currency with no price
    ("EUE=1.1", f"'EUE' {LIST_ONE_SAID}; did you mean 'EUR'?"),
    ("eue=1.1", f"'EUE' {LIST_ONE_SAID}; did you mean 'EUR'?"),
    ("BGN=0.51", f"'BGN' {LIST_ONE_SAID}; BGN, the Bulgarian Lev, was withdrawn in January 2026: did you mean "
                 "'EUR', the code in use there now?"),
    ("HRK=0.13", f"'HRK' {LIST_ONE_SAID}; HRK, the Kuna, was withdrawn in January 2023: did you mean 'EUR', the "
                 "code in use there now?"),
])
def test_an_offers_fx_code_is_checked_against_iso_4217_list_one_as_a_scenario_fx_key_is(pair, said):
    result = cli("offers", "--fx", pair)
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert result.stderr.strip() == f"error: --fx '{pair}': {said}"


def test_offers_fx_given_twice_is_bad_input():
    result = cli("offers", "--fx", "CNY=0.14", "--fx", "CNY=0.15")
    assert result.exit_code == 2 and "CNY is given twice" in result.stderr


def test_fx_rates_that_mean_something_are_kept():
    # a lower-case code is that currency; USD=1 says what USD is anyway
    assert _parse_fx(["cny=0.14", "USD=1"], {"CNY", "USD"}) == {"CNY": 0.14, "USD": 1.0}
    with pytest.raises(PlannerError, match="USD is 1 by definition"):
        _parse_fx(["USD=0.9"])
    rows = json.loads(cli("offers", "--gpu", "RTX-3060-12GB", "--provider", "onprem", "--fx", "cny=0.14",
                          "--format", "json").stdout)
    # (2500 + 5400 CNY) × 0.14 = 1106 USD over 3 years, 3 %/y, 306 W busy at the default PUE 1.58 and 0.12 USD/kWh
    # (tests/planner/test_cli.py)
    capex = 7900 * 0.14
    assert rows[0]["usd_per_hour"] == pytest.approx(capex / (3 * 8760) + capex * 0.03 / 8760 + 0.306 * 1.58 * 0.12)
