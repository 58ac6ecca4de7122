"""`fleetplan offers` says what a price leaves unsaid and shows prices in another currency (an audit of 2026-12):
the HGX H200 row showed its hourly price with only the generic on-prem note, though the catalog marks its price a
lower bound; undated cloud prices showed a blank `as_of` and an empty note, where the README says undated rows say
"undated"; and `--fx EUR=1.09` said only "nothing is priced in EUR", with no way to see the offers in EUR.

Facts used: planner/data/onprem_cards.csv's hgx-h200-8gpu row, `price_leaves_out` "the host of an HGX H200 server
(CPUs, memory, NICs, chassis)" (docs/data-sources.md: "the host is not included, so the row is a lower bound"); the
packaged snapshot's aws eu-west-1 g5.xlarge on demand, 1.123 USD an hour for 1 A10G, from SkyPilot's catalog
(commit date unknown: no as_of, no note), and its spot row, 0.5765 USD, note "lowest of 1 zone quote | spot time
unknown". By hand: at 1.25 USD per EUR, 1.123 USD = 1.123 / 1.25 = 0.8984 EUR and 0.5765 USD = 0.4612 EUR; at a
scenario's fx {USD: 0.92} (EUR per USD, taken as it is since 2026-12-07), 1.123 USD = 1.123 × 0.92 = 1.03316 EUR.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from planner.cli import app, commands, console

G5_EU_WEST_1 = ["--gpu", "A10G", "--provider", "aws", "--region", "eu-west-1"]
HGX_H200 = ["--gpu", "H200-SXM", "--provider", "onprem"]
H200_LEAVES_OUT = "the host of an HGX H200 server (CPUs, memory, NICs, chassis)"


def run(*args: str):
    return CliRunner().invoke(app, ["offers", *args])


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def row(rows: list[dict], sku: str, option: str) -> dict:
    (found,) = [r for r in rows if r["sku"] == sku and r["purchase_option"] == option]
    return found


# --- 1. a catalog price that is a lower bound --------------------------------------------------------------

def test_hgx_h200_json_note_says_its_hourly_figure_is_a_lower_bound_leaving_out_its_host():
    (h200,) = json.loads(ok(*HGX_H200, "--format", "json"))
    assert h200["sku"] == "hgx-h200-8gpu"
    assert h200["note"].startswith(f"lower bound: the catalog price of hgx-h200-8gpu leaves out {H200_LEAVES_OUT}, "
                                   "so its hourly figure is understated")
    assert "onprem.card_overrides.hgx-h200-8gpu" in h200["note"]
    assert "capex = card + host share" in h200["note"]   # the on-prem note stays, after the caveat


def test_hgx_h200_csv_note_and_table_note_say_the_lower_bound():
    (h200,) = csv.DictReader(io.StringIO(ok(*HGX_H200, "--format", "csv")))
    assert h200["note"].startswith(f"lower bound: the catalog price of hgx-h200-8gpu leaves out {H200_LEAVES_OUT}")
    table = ok("--min-memory", "24", "--region", "eu-central-1", "--provider", "onprem")
    notes = [line for line in table.splitlines() if line.startswith("note ")]
    lower = [n for n in notes if "lower bound" in n]
    assert len(lower) == 1 and f"hgx-h200-8gpu leaves out {H200_LEAVES_OUT}" in lower[0]
    # a card whose price leaves nothing out (the H100 board: a whole-server quote) gets no such note
    (h100,) = json.loads(ok("--gpu", "H100-SXM", "--provider", "onprem", "--format", "json"))
    assert "lower bound" not in h100["note"]


def test_the_hgx_rows_say_they_are_sold_as_whole_8_gpu_boards_and_other_cards_do_not():
    """onprem_cards.csv's sold_in_units_of is 8 on the two HGX rows and empty elsewhere."""
    rows = json.loads(ok("--provider", "onprem", "--format", "json"))
    said = {r["sku"] for r in rows if "sold only as whole 8-GPU boards" in r["note"]}
    assert said == {"hgx-h100-8gpu", "hgx-h200-8gpu"}
    (h100,) = [r for r in rows if r["sku"] == "hgx-h100-8gpu"]
    assert h100["note"].startswith("sold only as whole 8-GPU boards, priced here per GPU: a plan buys it 8 at a time")
    # the table numbers a note's parts: the boards' note and the on-prem costing note are each printed once
    table = ok("--provider", "onprem")
    notes = [line for line in table.splitlines() if line.startswith("note ")]
    assert len([n for n in notes if "whole 8-GPU boards" in n]) == 1
    assert len([n for n in notes if "capex = card + host share" in n]) == 1


# --- 2. undated prices ----------------------------------------------------------------------------------

def test_an_undated_cloud_price_says_undated_in_json_note_and_keeps_as_of_empty():
    rows = json.loads(ok(*G5_EU_WEST_1, "--format", "json"))
    on_demand = row(rows, "g5.xlarge", "on_demand")
    assert on_demand["usd_per_gpu_hour"] == pytest.approx(1.123, abs=1e-12)
    assert (on_demand["as_of"], on_demand["note"]) == ("", "undated")
    assert row(rows, "g5.xlarge", "spot")["note"] == "undated | lowest of 1 zone quote | spot time unknown"
    dated = [r for r in rows if r["as_of"]]
    assert dated and not [r for r in dated if "undated" in r["note"]]


def test_an_undated_cloud_price_says_undated_in_the_tables_as_of_cell_and_its_note():
    text = ok(*G5_EU_WEST_1)
    line = next(ln for ln in text.splitlines() if "g5.xlarge " in ln and "on_demand" in ln)
    cells = [c.strip() for c in line.split("│")[1:-1]]
    assert cells[8:] == ["1.123", "undated", cells[10]] and cells[10].isdigit()
    assert f"note {cells[10]}: undated" in text.splitlines()


def test_an_undated_card_price_says_undated():
    (card,) = json.loads(ok("--gpu", "RTX-3060-12GB", "--provider", "onprem", "--fx", "CNY=0.14", "--format", "json"))
    assert card["as_of"] == "" and card["note"].startswith("undated | capex = card + host share")


# --- 3. offers in another currency ----------------------------------------------------------------------

def test_currency_eur_converts_the_prices_at_the_fx_rate_and_names_the_currency_in_json():
    rows = json.loads(ok(*G5_EU_WEST_1, "--currency", "EUR", "--fx", "EUR=1.25", "--format", "json"))
    on_demand, spot = row(rows, "g5.xlarge", "on_demand"), row(rows, "g5.xlarge", "spot")
    assert "usd_per_hour" not in on_demand and "usd_per_gpu_hour" not in on_demand
    assert on_demand["eur_per_gpu_hour"] == pytest.approx(0.8984, abs=1e-12)
    assert on_demand["eur_per_hour"] == pytest.approx(0.8984, abs=1e-12)
    assert spot["eur_per_gpu_hour"] == pytest.approx(0.4612, abs=1e-12)
    assert "1 EUR = 1.25 USD (--fx EUR=1.25)" in on_demand["note"] and on_demand["note"].startswith("undated | ")


def test_currency_eur_csv_headers_and_table_title_headers_and_rate_line():
    header = ok(*G5_EU_WEST_1, "--currency", "eur", "--fx", "EUR=1.25", "--format", "csv").splitlines()[0]
    assert "eur_per_hour,eur_per_gpu_hour" in header and "usd" not in header
    text = ok(*G5_EU_WEST_1, "--currency", "EUR", "--fx", "EUR=1.25")
    assert "offers (EUR: 1 EUR = 1.25 USD)" in text and "eur_per_gpu_hour" in text and "usd_per" not in text
    line = next(ln for ln in text.splitlines() if "g5.xlarge " in ln and "on_demand" in ln)
    assert [c.strip() for c in line.split("│")[1:-1]][7:9] == ["0.8984", "0.8984"]
    assert "prices in EUR at 1 EUR = 1.25 USD (--fx EUR=1.25): the USD prices / 1.25" in text


def test_currency_eur_on_a_narrow_terminal_has_eur_short_headers(monkeypatch):
    def terminal(piped_width=None):
        return console._console_class()(highlight=False, width=110)
    monkeypatch.setattr(console, "stdout_console", terminal)
    monkeypatch.setattr(commands, "stdout_console", terminal)
    text = ok(*G5_EU_WEST_1, "--currency", "EUR", "--fx", "EUR=1.25")
    assert "EUR/GPU-hr" in text and "USD/" not in text and "0.8984" in text


def test_fx_for_a_currency_nothing_is_priced_in_says_how_to_see_offers_in_it():
    result = run("--fx", "EUR=1.09")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert result.stderr.strip() == ("error: --fx 'EUR=1.09': nothing is priced in EUR (prices are in CNY, USD); to "
                                     "see the offers in EUR, add --currency EUR (this rate is USD per 1 EUR)")


def test_a_scenarios_usd_rate_with_currency_eur_is_taken_as_eur_per_usd():
    # it was refused, naming --fx EUR=1.08696; now it is read as the scenario's fx reads it (tests/planner/
    # test_offers_fx_both_ways.py): 1.123 USD × 0.92 = 1.03316 EUR
    (on_demand,) = [r for r in json.loads(ok(*G5_EU_WEST_1, "--currency", "EUR", "--fx", "USD=0.92", "--format", "json"))
                    if r["sku"] == "g5.xlarge" and r["purchase_option"] == "on_demand"]
    assert on_demand["eur_per_gpu_hour"] == pytest.approx(1.03316, abs=1e-12)


def test_currency_without_its_rate_or_not_a_currency_is_refused():
    result = run("--currency", "EUR")
    assert result.exit_code == 2 and "--currency EUR: give its rate, --fx EUR=<USD per 1 EUR>" in result.stderr
    result = run("--currency", "EUE", "--fx", "EUR=1.1")
    assert result.exit_code == 2 and "--currency 'EUE'" in result.stderr and "did you mean 'EUR'?" in result.stderr


def test_currency_usd_is_the_default_table():
    assert ok(*G5_EU_WEST_1, "--currency", "usd", "--format", "csv") == ok(*G5_EU_WEST_1, "--format", "csv")
