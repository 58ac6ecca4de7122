"""The README's sweep paragraph says what is checked before anything is solved: its example of an infinite value
is the message the CLI prints (`got .inf`, YAML's word, not Python's `inf`), and an offers CSV with a bad cell,
whose content is read only when its points are planned, is an `error` row, not refused up front."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"   # prices.source: offers-g5-us-east-1.csv (one g5.xlarge row)


def readme_words() -> str:
    return " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())


def test_the_readme_quotes_the_infinite_value_message_as_the_cli_prints_it():
    result = run("sweep", WORKED, "--vary", "horizon_months=12,1e400", "--processes", "1")
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "horizon_months=1e400: expected a finite number, got .inf" in said, said
    assert "`horizon_months=1e400: expected a finite number, got .inf`" in readme_words()


def test_an_offers_csv_with_a_bad_cell_is_an_error_row_as_the_readme_says(tmp_path):
    good = tmp_path / "good.csv"
    shutil.copy(ROOT / "examples" / "offers-g5-us-east-1.csv", good)
    bad = tmp_path / "bad.csv"
    bad.write_text(good.read_text(encoding="utf-8").replace(",1.006,", ",abc,", 1), encoding="utf-8")
    result = run("sweep", WORKED, "--vary", f"prices.source={good},{bad}", "--processes", "1", "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["status"] for r in rows] == ["optimal", "error"]
    assert "hourly_price 'abc' is not a number" in rows[1]["note"]
    assert "its content is read when its points are planned" in readme_words()
