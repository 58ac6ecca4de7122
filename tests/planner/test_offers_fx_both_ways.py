"""`fleetplan offers --currency EUR` takes the rate of EUR either way round, and reads --electricity and --max-price
in EUR (an audit of 2026-12):

1. A scenario's fx `{USD: 0.92}` (scenario currency EUR) is EUR per 1 USD; `offers --fx EUR=1.087` is USD per 1 EUR,
   and `--fx USD=0.92` was refused. Copying the scenario's rate gave an error or, worse, `--fx EUR=0.92`: an inverted
   rate that cannot be told from a real one (0.92 against 1.087: 18 % apart). Now the key says the direction: with
   `--currency EUR`, `USD=0.92` is 0.92 EUR per USD and `EUR=1.087` 1.087 USD per EUR; both given must agree to their
   digits; the rate is read back in the title and under the table (each note in JSON and CSV).
2. `--electricity 0.30` and `--max-price` were read in USD under `--currency EUR`, said only under the table. Now they
   are in the currency shown; the default tariff stays 0.12 USD a kWh (an assumption with no source), converted.

Facts used (the packaged snapshot; planner/data/onprem_cards.csv):
- azure eastus Standard_ND96amsr_A100_v4 on demand: 32.77 USD an hour for 8 A100-80GB-SXM, 4.09625 USD a GPU-hour
  (Azure Retail Prices API, as_of 2026-06-18).
- a100-80gb-pcie: 11500 USD card (2026-03-20) + 2500 USD host = 14000 USD capex, 5 years, 5 %/y maintenance, 540 W
  busy; default PUE 1.58 (tests/planner/test_cli.py::test_onprem_card_hourly_cost_by_hand).
- rtx-3060-12gb: 2500 CNY card + 5400 CNY host, 3 years, 3 %/y maintenance, 306 W busy
  (tests/planner/test_cli.py::test_cny_card_needs_fx_and_uses_it).

By hand:
- 32.77 USD at --fx USD=0.92: 32.77 × 0.92 = 30.1484 EUR; at --fx EUR=1.087: 32.77 / 1.087 = 30.14719 EUR.
  4.09625 × 0.92 = 3.76855 EUR; 4.09625 / 1.087 = 3.76840 EUR a GPU-hour.
- a100-80gb-pcie capex and maintenance an hour: 14000 / 43800 + 700 / 8760 = 0.3196347 + 0.0799087 = 0.3995434 USD;
  energy 0.540 kW × 1.58 = 0.8532 kW at the wall. At 0.30 EUR a kWh: 0.8532 × 0.30 = 0.25596 EUR; with
  --fx EUR=1.087: 0.3995434 / 1.087 + 0.25596 = 0.3675652 + 0.25596 = 0.6235252 EUR; with --fx USD=0.92:
  0.3995434 × 0.92 + 0.25596 = 0.3675799 + 0.25596 = 0.6235399 EUR. Read as 0.30 USD (before): (0.3995434 + 0.25596)
  / 1.087 = 0.6030396 EUR. At the default 0.12 USD: (0.3995434 + 0.8532 × 0.12) × 0.92 = 0.5019274 × 0.92 = 0.4617732
  EUR; 0.12 USD is 0.12 × 0.92 = 0.1104 EUR a kWh.
- Agreement: 1 / 0.92 = 1.0869565, 1.087 to three decimals and 1.09 to two: EUR=1.087 and EUR=1.09 agree with
  USD=0.92; 1 / 1.08 = 0.9259, 0.93 to two decimals, and 1 / 0.92 = 1.09 to two: EUR=1.08 and USD=0.92 disagree,
  1.08 × 0.92 = 0.9936, 0.64 % below. EUR=1.2: 1.2 × 0.92 = 1.104, 10.4 % above. EUR=0.92 (the scenario's rate
  put under the wrong key): 0.92 × 0.92 = 0.8464, 15.4 % below, and both below 1.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from planner.cli import app

ND96_EASTUS = ["--gpu", "A100-80GB-SXM", "--provider", "azure", "--region", "eastus", "--option", "on_demand"]
ND96 = "Standard_ND96amsr_A100_v4"
A100_PCIE = ["--gpu", "A100-80GB-PCIE", "--provider", "onprem"]
A100_CAPEX_AND_UPKEEP_USD = 14000 / 43800 + 700 / 8760   # 0.3995434 USD an hour
A100_WALL_KW = 0.540 * 1.58                               # 0.8532 kW


def run(*args: str):
    return CliRunner().invoke(app, ["offers", *args])


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def nd96(*args: str) -> dict:
    (found,) = [r for r in json.loads(ok(*ND96_EASTUS, *args, "--format", "json")) if r["sku"] == ND96]
    return found


def a100(*args: str) -> dict:
    (found,) = json.loads(ok(*A100_PCIE, *args, "--format", "json"))
    return found


def refusal(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    return result.stderr.strip()


def test_the_hand_figures():
    assert A100_CAPEX_AND_UPKEEP_USD == pytest.approx(0.3995434, abs=1e-7)
    assert A100_WALL_KW == pytest.approx(0.8532, abs=1e-12)


# --- 1. the rate of --currency either way round ---------------------------------------------------------

def test_a_scenarios_usd_rate_is_eur_per_usd_under_currency_eur():
    row = nd96("--currency", "EUR", "--fx", "USD=0.92")
    assert row["eur_per_hour"] == pytest.approx(30.1484, abs=1e-9)
    assert row["eur_per_gpu_hour"] == pytest.approx(3.76855, abs=1e-9)
    assert "1 USD = 0.92 EUR (--fx USD=0.92)" in row["note"]


def test_the_eur_rate_stays_usd_per_eur_and_is_read_back():
    row = nd96("--currency", "EUR", "--fx", "EUR=1.087")
    assert row["eur_per_hour"] == pytest.approx(30.14719, abs=1e-5)
    assert row["eur_per_gpu_hour"] == pytest.approx(3.76840, abs=1e-5)
    assert "1 EUR = 1.087 USD (--fx EUR=1.087)" in row["note"]


@pytest.mark.parametrize("pairs", [["EUR=1.087", "USD=0.92"], ["usd=0.92", "eur=1.087"]])
def test_both_spellings_that_agree_to_their_digits_use_the_finer(pairs):
    # 1.087 is good to 0.0005 in 1.087 (0.05 %), 0.92 to 0.005 in 0.92 (0.5 %): the EUR rate is used
    row = nd96("--currency", "EUR", *[a for p in pairs for a in ("--fx", p)])
    assert row["eur_per_hour"] == pytest.approx(30.14719, abs=1e-5)
    assert "1 EUR = 1.087 USD (--fx EUR=1.087; --fx USD=0.92 agrees to its digits)" in row["note"]


def test_a_finer_usd_rate_is_used_beside_a_coarse_eur_one():
    # 1 / 0.9199 = 1.08707, 1.09 to two decimals: they agree, and 0.9199 (to 0.00005) is the finer
    row = nd96("--currency", "EUR", "--fx", "EUR=1.09", "--fx", "USD=0.9199")
    assert row["eur_per_hour"] == pytest.approx(32.77 * 0.9199, abs=1e-9)
    assert row["eur_per_hour"] == pytest.approx(30.145123, abs=1e-6)
    assert "1 USD = 0.9199 EUR (--fx USD=0.9199; --fx EUR=1.09 agrees to its digits)" in row["note"]


@pytest.mark.parametrize("eur,said", [
    ("1.2", "EUR=1.2 is 10.4% above that, more than the rounding of their digits; give one of them"),
    ("1.08", "EUR=1.08 is 0.64% below that, more than the rounding of their digits; give one of them"),
    ("0.92", "EUR=0.92 is 15.4% below that, more than the rounding of their digits; both are below 1, so one of them "
             "is turned round; give one of them"),
])
def test_both_spellings_that_disagree_are_refused_saying_how(eur, said):
    assert refusal("--currency", "EUR", "--fx", f"EUR={eur}", "--fx", "USD=0.92") == (
        f"error: --fx EUR={eur} and --fx USD=0.92 disagree: EUR={eur} reads 1 EUR = {eur} USD, USD=0.92 reads 1 USD = "
        f"0.92 EUR, which is 1 EUR = 1.08696 USD; {said}")


def test_a_card_currency_stays_usd_per_unit_beside_a_scenarios_usd_rate():
    rows = json.loads(ok("--gpu", "RTX-3060-12GB", "--provider", "onprem", "--currency", "EUR", "--fx", "USD=0.92",
                         "--fx", "CNY=0.13749", "--format", "json"))
    capex = 7900 * 0.13749   # USD
    usd = capex / (3 * 8760) + capex * 0.03 / 8760 + 0.306 * 1.58 * 0.12
    # (a converted price is written to six decimals, offers_table.CONVERTED_DECIMALS: 0.0948226… EUR is 0.094823)
    assert rows[0]["eur_per_hour"] == pytest.approx(round(usd * 0.92, 6), abs=1e-12)
    assert "1 USD = 0.92 EUR (--fx USD=0.92)" in rows[0]["note"]
    assert "the default electricity, 0.12 USD a kWh (an assumption with no source), is 0.1104 EUR a kWh" in rows[0]["note"]


def test_a_usd_rate_with_the_prices_in_usd_is_still_refused_and_says_to_add_currency():
    said = refusal("--fx", "USD=0.92")
    assert "USD is 1 by definition" in said and "add --currency <CODE>" in said


def test_currency_without_a_rate_names_both_spellings():
    assert refusal("--currency", "EUR") == ("error: --currency EUR: give its rate, --fx EUR=<USD per 1 EUR> or --fx "
                                            "USD=<EUR per 1 USD> (a scenario's fx {USD: r} in EUR: --fx USD=r)")


def test_the_usd_rate_is_held_to_a_scenario_fxs_bounds_in_its_own_unit():
    assert refusal("--currency", "EUR", "--fx", "USD=1e10") == (
        "error: --fx 'USD=1e10': expected a rate from 1e-09 to 1e+09 EUR per USD, as a scenario's fx takes")


def test_the_table_says_the_rate_read_in_its_title_and_under_it():
    text = ok(*ND96_EASTUS, "--currency", "EUR", "--fx", "USD=0.92")
    assert "offers (EUR: 1 USD = 0.92 EUR)" in text
    assert ("prices in EUR at 1 USD = 0.92 EUR (--fx USD=0.92): the USD prices × 0.92; --max-price and --electricity "
            "are in EUR") in text.splitlines()
    line = next(ln for ln in text.splitlines() if ND96 in ln and "eastus " in ln)
    assert "30.1484" in line and "3.7686" in line   # (the table's four decimals)


def test_csv_and_json_stay_parseable_with_the_rate_in_each_note():
    rows = list(csv.DictReader(io.StringIO(ok(*ND96_EASTUS, "--currency", "EUR", "--fx", "USD=0.92", "--format", "csv"))))
    (row,) = [r for r in rows if r["sku"] == ND96]
    assert float(row["eur_per_hour"]) == pytest.approx(30.1484, abs=1e-9)
    assert all("1 USD = 0.92 EUR (--fx USD=0.92)" in r["note"] for r in rows)
    records = json.loads(ok(*ND96_EASTUS, "--currency", "EUR", "--fx", "EUR=1.087", "--format", "json"))
    assert len(records) == len(rows) and all("1 EUR = 1.087 USD (--fx EUR=1.087)" in r["note"] for r in records)


# --- 2. --electricity and --max-price in the currency shown ---------------------------------------------

@pytest.mark.parametrize("fx,expected", [("EUR=1.087", 0.6235252), ("USD=0.92", 0.6235399)])
def test_electricity_is_read_in_the_currency_shown(fx, expected):
    row = a100("--currency", "EUR", "--fx", fx, "--electricity", "0.30")
    # (±1e-7 of the hand figure's rounding, ±5e-7 of JSON's six decimals: offers_table.CONVERTED_DECIMALS)
    assert row["eur_per_hour"] == pytest.approx(expected, abs=6e-7)
    assert row["eur_per_hour"] != pytest.approx(0.6030396, abs=1e-4)   # 0.30 read as USD
    assert "--max-price and --electricity are in EUR" in row["note"]
    assert "the default electricity" not in row["note"]   # a tariff given is the user's own


def test_the_default_electricity_stays_0_12_usd_converted():
    row = a100("--currency", "EUR", "--fx", "USD=0.92")
    assert row["eur_per_hour"] == pytest.approx(0.4617732, abs=6e-7)   # (six decimals in JSON: 6e-7, as above)
    assert "the default electricity, 0.12 USD a kWh (an assumption with no source), is 0.1104 EUR a kWh" in row["note"]
    # 0.12 given is 0.12 EUR: 0.3995434 × 0.92 + 0.8532 × 0.12 = 0.3675799 + 0.102384 = 0.4699639
    assert a100("--currency", "EUR", "--fx", "USD=0.92", "--electricity", "0.12")["eur_per_hour"] == pytest.approx(
        0.4699639, abs=6e-7)
    # in USD nothing changes: 0.5019274 USD (tests/planner/test_cli.py)
    assert a100()["usd_per_hour"] == pytest.approx(0.5019274, abs=1e-7)


@pytest.mark.parametrize("fx", ["USD=0.92", "EUR=1.087"])
def test_max_price_is_read_in_the_currency_shown(fx):
    # 3.76855 (USD=0.92) and 3.76840 (EUR=1.087) EUR a GPU-hour: under 3.77 EUR, over 3.76 EUR (and 4.09625 USD is
    # over 3.77 read as USD, as it was)
    kept = json.loads(ok(*ND96_EASTUS, "--currency", "EUR", "--fx", fx, "--max-price", "3.77", "--format", "json"))
    assert ND96 in {r["sku"] for r in kept}
    assert all(r["eur_per_gpu_hour"] <= 3.77 for r in kept)
    left = json.loads(ok(*ND96_EASTUS, "--currency", "EUR", "--fx", fx, "--max-price", "3.76", "--format", "json"))
    assert ND96 not in {r["sku"] for r in left}


def test_help_says_max_price_and_electricity_are_in_the_currency_shown():
    result = CliRunner().invoke(app, ["offers", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "stay in USD" not in text and "most USD per GPU-hour" not in text
    assert "--max-price PRICE most per GPU-hour, in --currency (USD unless given)" in text
    assert "--electricity PRICE price of a kWh for on-prem cards, in --currency (USD unless given); default 0.12 USD" in text
    assert "USD=0.92 (EUR per 1 USD, a scenario's fx {USD: 0.92} as written)" in text
