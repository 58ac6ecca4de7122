"""`fleetplan plan`'s serving table on a terminal narrower than it. With its last column hours_of_week the table is 198
columns wide, and below that it was drawn a row at a time, one field a line. Now it narrows as the Fleet table does
(cli/serving_table.py): the workload over its demand unit, the slot's hours of the week over how many they are, the
sku over its kind, short headers, and the least needed columns left out first (gpu, busy_units, served, capacity,
demand), named in a line under the table.

Facts used (worked out by hand): the scenario is that of test_plan_views_terminal_and_summary.py, a serving workload
`api` in requests per second on the business_hours profile, Monday to Friday 09:00-18:00 (README), served by 6 RTX 4090
cards over its 24 months: two slots, the 45 business hours and the other 168 − 45 = 123, "Mon-Fri 00:00-09:00,
18:00-24:00; Sat-Sun all day" (49 characters). A column's natural width is its widest cell or header line; a table's
is their sum plus three a column and one. Every column, one line a row: workload 8, in_months 9, hours_per_week 14,
hours_of_week 49, demand_unit 19 ("requests_per_second"), demand 6, kind 4, sku 8 ("rtx-4090"), gpu 8, instances 9,
capacity 8, busy_units 10, served 6: 158 + 40 = 198. Two lines a row: workload over "requests per second" 19, months 6,
the hours' widest line "Mon-Fri 00:00-09:00, 18:00-24:00" 32, sku over kind 8, gpu 8, instances 9, demand 6, capacity 8,
served 6, "busy units" 10: 112 + 31 = 143; without gpu 132, without busy_units too 94 + 25 = 119, without served 110,
without capacity 80 + 19 = 99, without demand 90.
"""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.cli.console import Format, emit
from planner.cli.serving_table import hours_cells, serving_narrower
from tests.planner.test_offers_narrow_terminal import drawn_rows, not_shown, words
from tests.planner.test_plan_tables_narrow_terminal import terminal
from tests.planner.test_plan_views_terminal_and_summary import API

EVERY = ["workload", "in_months", "hours_per_week", "hours_of_week", "demand_unit", "demand", "kind", "sku", "gpu",
         "instances", "capacity", "busy_units", "served"]
# the headers drawn narrower (each line of a stacked one is a header of its own), and the columns each stands for
SHORT = {"demand unit": "demand_unit", "months": "in_months", "h/week": "hours_per_week", "busy units": "busy_units"}
LEFT_OUT_FIRST = ["gpu", "busy_units", "served", "capacity", "demand"]
REST = "Mon-Fri 00:00-09:00, 18:00-24:00; Sat-Sun all day"
BUSINESS = "Mon-Fri 09:00-18:00"


def drawn_columns(text: str) -> list[str]:
    """The columns of the full table its drawn header shows, a short header named as in CSV and JSON (a header of two
    words may fold onto two lines)."""
    header = [line for line in text.splitlines() if line.startswith("┃")]
    cells = [[cell.strip() for cell in line.split("┃")[1:-1]] for line in header]
    names = []
    for column in zip(*cells):
        said = " ".join(part for part in column if part)
        for short, name in SHORT.items():
            said = f" {said} ".replace(f" {short} ", f" {name} ").strip()
        names += said.split()
    return names


def serving_part(text: str) -> str:
    start = text.index("Serving:")
    return text[start:text.index("Cost by category", start)]


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    path = tmp_path_factory.mktemp("serving-narrow") / "api.yaml"
    path.write_text(API, encoding="utf-8")
    return path


def serving_text(monkeypatch, scenario, width: int) -> str:
    terminal(monkeypatch, width)
    result = CliRunner().invoke(app, ["plan", str(scenario), "--no-baselines", "--no-decisions"])
    assert result.exit_code == 0, result.output
    return serving_part(result.stdout)


@pytest.mark.parametrize("width, left_out", [(80, LEFT_OUT_FIRST), (100, LEFT_OUT_FIRST[:4]),
                                             (120, LEFT_OUT_FIRST[:2]), (200, [])])
def test_the_serving_table_fits_the_terminal_and_leaves_out_the_least_needed_columns_first(
        monkeypatch, scenario, width, left_out):
    text = serving_text(monkeypatch, scenario, width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert (not_shown(text) or ([], 0))[0] == left_out
    if left_out:   # the least width that shows them: the two-line layout with every column
        assert not_shown(text)[1] == 143
    assert sorted(drawn_columns(text)) == sorted(c for c in EVERY if c not in left_out)
    rows = drawn_rows(text)
    assert len(rows) == 2   # one row per slot, not one per field
    for row in rows:
        # which workload, which months, which unit and how many: every row, whole
        assert {"api", "1–24", "rtx-4090", "card", "6"} <= words(row)
        assert "…" not in " ".join(words(row))
    hours = {" ".join(" ".join(cell) for cell in row) for row in rows}
    if width == 200:   # the table as piped: every column, one line a row
        assert drawn_columns(text) == EVERY
        assert any(REST in row for row in hours) and any(BUSINESS in row for row in hours)
    else:   # each group of days on a line of its own, over the number of hours
        cells = sorted(" / ".join(row[2]) for row in rows)
        assert [cell.replace(" / ", " ") for cell in cells] in (
            [f"{REST.replace('; ', ' ')} 123 h/week", f"{BUSINESS} 45 h/week"],
            [f"{BUSINESS} 45 h/week", f"{REST.replace('; ', ' ')} 123 h/week"])
        assert "Sat-Sun all day" in {line for row in rows for line in row[2]}


def test_piped_the_serving_table_has_every_column_as_before(scenario):
    result = CliRunner().invoke(app, ["plan", str(scenario), "--no-baselines", "--no-decisions"])
    text = serving_part(result.stdout)
    assert drawn_columns(text) == EVERY and not_shown(text) is None


# two units of the same sku, on demand and spot, and a slot whose words are not known (a profile changed after the plan
# read it): made here by hand
CLOUD = pd.DataFrame({
    "workload": ["chat", "chat", "chat"], "in_months": ["1–12", "1–12", "1–12"], "hours_per_week": [45.0, 45.0, 123.0],
    "hours_of_week": [BUSINESS, BUSINESS, None], "demand_unit": ["reference_gpus"] * 3, "demand": [3.5, 3.5, 1.25],
    "kind": ["on_demand", "spot", "on_demand"], "sku": ["g6.xlarge"] * 3, "gpu": ["L4"] * 3, "instances": [2, 2, 2],
    "capacity": [2.0, 2.0, 2.0], "busy_units": [1.75, 1.75, 1.25], "served": [1.75, 1.75, 1.25]})


def emitted(monkeypatch, capsys, table: pd.DataFrame, width: int) -> str:
    terminal(monkeypatch, width)
    emit(table, Format.table, title="Serving", float_digits=2, narrower=serving_narrower(table))
    return capsys.readouterr().out


def test_the_same_sku_on_demand_and_spot_reads_as_two_units_at_80_columns(monkeypatch, capsys):
    text = emitted(monkeypatch, capsys, CLOUD, 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    rows = drawn_rows(text)
    assert [row[3] for row in rows] == [["g6.xlarge", "on_demand"], ["g6.xlarge", "spot"], ["g6.xlarge", "on_demand"]]
    assert [row[0] for row in rows] == [["chat", "reference gpus"]] * 3
    assert [row[2] for row in rows] == [[BUSINESS, "45 h/week"], [BUSINESS, "45 h/week"], ["123 h/week"]]


def test_hours_cells_put_each_group_of_days_on_a_line_over_the_number_of_hours():
    table = pd.DataFrame({"hours_of_week": [REST, None, "all week"], "hours_per_week": [123.0, 4.5, 168.0]})
    assert hours_cells(table) == ["Mon-Fri 00:00-09:00, 18:00-24:00\nSat-Sun all day\n123 h/week", "4.5 h/week",
                                  "all week\n168 h/week"]


@pytest.fixture(scope="module")
def api_serving(scenario):
    from planner import plan
    from planner.cli.plan_views import serving_by_months

    return serving_by_months(plan(scenario, baselines=False).serving)


def test_a_wider_terminal_never_shows_fewer_serving_columns(monkeypatch, capsys, api_serving):
    # from 60 columns, where the narrowest layout fits with its words folded (below it, one field a line shows them all)
    shown_before, narrower_width = set(), None
    for width in range(60, 241, 4):
        text = emitted(monkeypatch, capsys, api_serving, width)
        assert max(len(line) for line in text.splitlines()) <= width, (width, text)
        shown = set(drawn_columns(text))
        assert shown >= shown_before, f"{sorted(shown_before - shown)} shown at {narrower_width} columns, not at {width}"
        assert {"workload", "demand_unit", "in_months", "hours_of_week", "hours_per_week", "sku", "kind",
                "instances"} <= shown
        shown_before, narrower_width = shown, width
    assert shown_before == set(EVERY)
