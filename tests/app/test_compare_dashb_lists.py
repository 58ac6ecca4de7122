"""The Compare page's "Inputs that differ" shows a list as its items, whole: an audit (2026-12-07) read `onprem.cards`
as "[a100-80gb-pc", the comparison's YAML flow text cut at its 90 px column.

Facts by hand, from scenarios/startup-hybrid.yaml: `cards: [rtx-3060-12gb, rtx-a5000, rtx-4090, a100-80gb-pcie]`,
`providers: [aws, azure]`. A grid line of 14 px text holds one character per 7.5 px (tables.CHARS_PER_PX, as the
page's other tables count), a wrapped line takes 20 px, and Streamlit's grid wraps a cell only in rows higher than
4rem (64 px)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard.compare_tables import list_text

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
FILE_CARDS = ["rtx-3060-12gb", "rtx-a5000", "rtx-4090", "a100-80gb-pcie"]


def test_a_list_reads_as_its_items():
    assert list_text("[a100-80gb-pcie, rtx-4090]") == "a100-80gb-pcie, rtx-4090"
    assert list_text("[aws]") == "aws"
    assert list_text("[]") == "(empty list)"
    # a side that does not set the field says so in the planner's words, left as they are
    assert list_text("(not set)") == "(not set)" and list_text("none (all regions)") == "none (all regions)"


def test_the_cards_and_providers_lists_show_whole_and_wrap_in_their_cells():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(COMPARE_PAGE)
    at.query_params["scenario"] = "startup-hybrid.yaml"
    at.query_params["onprem.cards"] = "a100-80gb-pcie,rtx-4090"
    at.query_params["prices.providers"] = "aws"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (inputs,) = [d for d in at.dataframe if "path" in d.value.columns]
    table = inputs.value
    a_col = next(c for c in table.columns if c.startswith("A: "))
    b_col = next(c for c in table.columns if c.startswith("B: "))
    rows = {path: (a, b) for path, a, b in zip(table["path"], table[a_col], table[b_col])}
    assert set(rows) == {"onprem.cards", "prices.providers"}
    a_cards, b_cards = rows["onprem.cards"]
    assert a_cards.split(", ") == FILE_CARDS
    assert sorted(b_cards.split(", ")) == ["a100-80gb-pcie", "rtx-4090"]
    assert rows["prices.providers"] == ("aws, azure", "aws")
    assert not any("[" in v or "]" in v for pair in rows.values() for v in pair)
    # each card's id on one line of its column; the rows high enough to wrap, and for A's four ids at least
    settings = json.loads(inputs.proto.columns)
    for col, values in ((a_col, table[a_col]), (b_col, table[b_col])):
        longest = max(len(word) for value in values for word in value.split())   # "rtx-3060-12gb," and the like
        assert settings[col]["width"] / 7.5 >= longest >= len("a100-80gb-pcie"), settings[col]
    holds = int(settings[a_col]["width"] / 7.5)
    lines = math.ceil(len(a_cards) / holds)
    assert lines >= 2
    assert inputs.proto.row_height > 64
    assert inputs.proto.row_height >= lines * 20


def test_short_values_keep_the_grids_own_row_height():
    # one line each ("36" against "40"): no taller rows than before
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(COMPARE_PAGE)
    at.query_params["scenario"] = "startup-hybrid.yaml"
    at.query_params["horizon_months"] = "40"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (inputs,) = [d for d in at.dataframe if "path" in d.value.columns]
    assert inputs.proto.row_height == 0   # not set: the grid's default
