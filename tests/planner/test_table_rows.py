"""A table drawn on the terminal shows its first TABLE_ROWS rows and says how many there are: rich lays out every
row before it prints one, and a saved plan of 200,000 fleet rows kept `compare` busy past 120 s and 1.2 GB (a
review, 2026-12-05). JSON carries every row of every table (a command's CSV may hold one table of several)."""

import json

import pandas as pd

from planner.cli.console import TABLE_ROWS, Format, emit


def test_a_long_table_shows_its_first_rows_and_says_how_many(capsys):
    rows = TABLE_ROWS + 3
    emit(pd.DataFrame({"sku": [f"sku-{i:06d}" for i in range(rows)]}), Format.table, title="many")
    out = capsys.readouterr().out
    assert f"sku-{TABLE_ROWS - 1:06d}" in out and f"sku-{TABLE_ROWS:06d}" not in out
    assert f"the first {TABLE_ROWS:,} of {rows:,} rows: --format json writes them all" in out


def test_a_table_within_the_limit_says_nothing_more(capsys):
    emit(pd.DataFrame({"sku": [f"sku-{i:06d}" for i in range(TABLE_ROWS)]}), Format.table)
    out = capsys.readouterr().out
    assert f"sku-{TABLE_ROWS - 1:06d}" in out and "the first" not in out


def test_json_and_csv_carry_every_row(capsys):
    rows = TABLE_ROWS + 3
    table = pd.DataFrame({"sku": [f"sku-{i:06d}" for i in range(rows)]})
    emit(table, Format.json)
    assert len(json.loads(capsys.readouterr().out)) == rows
    emit(table, Format.csv)
    assert len(capsys.readouterr().out.splitlines()) == rows + 1   # and the header
