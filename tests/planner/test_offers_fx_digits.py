"""`offers --currency X` given X's rate both ways round (`--fx X=<USD per X>` and `--fx USD=<X per USD>`): they agree
when one, turned round and rounded to the decimals the other is written with, is the other, whatever way the digits
are written (an integer, an exponent), and the one written the more finely for its size is used
(tests/planner/test_offers_fx_both_ways.py has the EUR cases).

By hand: 1 / 150 = 0.0066667, 0.0067 to four decimals: JPY=0.0067 agrees with USD=150; 150 is written to 1 in 150
(0.67 %), 0.0067 to 0.0001 in 0.0067 (1.5 %): USD=150 is used. 1 / 0.0068 = 147.06, 147 to no decimals, and 1 / 150 is
0.0067, not 0.0068, to four: JPY=0.0068 and USD=150 disagree, 0.0068 × 150 = 1.02, 2 % above. 9.2e-1 is 0.92, two
decimals: with EUR=1.087 (1 / 0.92 = 1.0869565, 1.087 to three) they agree, and 1.087 (0.001 in 1.087, 0.09 %) is
finer than 0.92 (0.01 in 0.92, 1.1 %). Azure eastus Standard_ND96amsr_A100_v4 on demand: 32.77 USD an hour (packaged
snapshot, as_of 2026-06-18); × 150 = 4,915.5 JPY.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from planner.cli import app

ND96_EASTUS = ["--gpu", "A100-80GB-SXM", "--provider", "azure", "--region", "eastus", "--option", "on_demand"]


def nd96(*args: str) -> dict:
    result = CliRunner().invoke(app, ["offers", *ND96_EASTUS, *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    (row,) = [r for r in json.loads(result.stdout) if r["sku"] == "Standard_ND96amsr_A100_v4"]
    return row


def test_an_integer_rate_per_usd_agrees_with_its_inverse_to_four_decimals_and_is_the_finer():
    row = nd96("--currency", "JPY", "--fx", "USD=150", "--fx", "JPY=0.0067")
    assert row["jpy_per_hour"] == pytest.approx(4915.5, abs=1e-9)
    assert "1 USD = 150 JPY (--fx USD=150; --fx JPY=0.0067 agrees to its digits)" in row["note"]


def test_a_rate_written_with_an_exponent_counts_its_decimals():
    row = nd96("--currency", "EUR", "--fx", "USD=9.2e-1", "--fx", "EUR=1.087")
    assert "1 EUR = 1.087 USD (--fx EUR=1.087; --fx USD=0.92 agrees to its digits)" in row["note"]


def test_an_integer_rate_and_an_inverse_off_by_more_than_their_digits_are_refused_naming_both():
    result = CliRunner().invoke(app, ["offers", *ND96_EASTUS, "--currency", "JPY", "--fx", "USD=150", "--fx",
                                      "JPY=0.0068"])
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    said = result.stderr.strip()
    assert said.startswith("error: --fx JPY=0.0068 and --fx USD=150 disagree: JPY=0.0068 reads 1 JPY = 0.0068 USD, "
                           "USD=150 reads 1 USD = 150 JPY")
    assert "JPY=0.0068 is 2% above that" in said and "turned round" not in said
