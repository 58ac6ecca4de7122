"""A problem of an offers CSV names the file line its row starts on, as an editor numbers them: the audit's "row 1"
for the first data row sent users to the header line. Blank lines count, and a quoted cell over several lines makes
the next row start further down. Where the file's lines cannot be told as pandas reads its rows, rows are numbered
(row_place). The rows are the example's g5.xlarge row (1.006 USD/h) under other ids; the lines are counted by hand."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pricing_adapters.schema import OffersSchemaError, name_rows
from pricing_adapters.snapshot import FILE_LINES, read_offers_csv

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEADER, ROW = (EXAMPLES / "offers-g5-us-east-1.csv").read_text().splitlines()
OID = "aws:us-east-1:g5.xlarge:on_demand"


def row(offer_id: str, price: str = "1.006", note: str = "") -> str:
    line = ROW.replace(OID, offer_id, 1).replace(",1.006,", f",{price},", 1)
    assert line.endswith(",")   # the note, the last column, is empty in the example
    return line + note


def refused(text: str) -> str:
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(io.BytesIO(text.encode()), origin="o.csv")
    return str(info.value)


def test_blank_lines_and_a_cell_over_three_lines_move_the_line_named():
    text = "\n".join([
        HEADER,                                          # line 1
        "  \t",                                          # line 2: blanks alone, skipped as a row
        row("a"),                                        # line 3
        row("b", note='"a note\nover three\nlines"'),    # lines 4-6
        row("c", price="abc"),                           # line 7
    ]) + "\n"
    assert refused(text) == "o.csv: line 7 (offer c): hourly_price 'abc' is not a number"


def test_a_repeat_names_the_line_of_the_row_it_repeats():
    text = "\n".join([HEADER, row("a"), "", "", row("b"), row("a")]) + "\n"   # lines 1, 2, 3-4 blank, 5, 6
    assert refused(text) == "o.csv: line 6 (offer a): duplicate offer_id, first at line 2"


def test_a_table_read_keeps_its_lines_for_later_checks_and_drops_them_when_rows_are_taken_out():
    table = read_offers_csv(io.BytesIO(("\n".join([HEADER, "", row("a"), row("b")]) + "\n").encode()), origin="o.csv")
    assert table.attrs[FILE_LINES] == [3, 4]
    problems = ["", "too dear"]
    assert name_rows(table, problems, table.attrs[FILE_LINES]) == "line 4 (offer b): too dear"
    # a table with rows taken out no longer matches its lines: its rows are numbered, not misplaced
    assert name_rows(table.iloc[1:], ["too dear"], table.attrs[FILE_LINES]) == "row 1 (offer b): too dear"
