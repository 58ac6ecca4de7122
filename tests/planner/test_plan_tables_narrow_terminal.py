"""`fleetplan plan`'s tables on a terminal narrower than they are. rich squeezed every column of the Fleet table at
80-140 columns into fragments ("pr…", "Sta…") and cut numbers ("40,7…" for 40,747 card-hours at 100 columns), and cut a
workload's name in the break-even table ("hyperparam…") while its numbers fell off the edge.

Now the Fleet table narrows as `fleetplan offers` does (cli/fleet_table.py: the sku over where it is, short headers,
the least needed columns left out and named under it), any other table wider than the terminal keeps its numbers and
words whole, and one that cannot even so is drawn a row at a time, one field a line (psql's expanded display).

Facts used: startup-hybrid.yaml owns 2 RTX 3060 12GB and sells both (its scenario says `owned: {rtx-3060-12gb: 2}`
and the plan sells them), buys one RTX 4090 and one A100 80GB PCIe, and rents AWS p5.48xlarge on demand in us-east-1;
no card is switched off. The synthetic tables below are made here, their cells chosen by hand.
"""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from planner.cli import app, commands, console
from planner.cli.console import Format, emit
from tests.planner.test_offers_narrow_terminal import drawn_rows, not_shown, words


def terminal(monkeypatch, width: int) -> None:
    """stdout as a terminal `width` columns wide (rich's Console of that width; a CliRunner's stdout is none)."""
    def console_of_width(piped_width=None):
        return console._console_class()(highlight=False, width=width)
    monkeypatch.setattr(console, "stdout_console", console_of_width)
    monkeypatch.setattr(commands, "stdout_console", console_of_width)


def plan_text(monkeypatch, width: int) -> str:
    terminal(monkeypatch, width)
    result = CliRunner().invoke(app, ["plan", "scenarios/startup-hybrid.yaml", "--no-baselines", "--no-decisions"])
    assert result.exit_code == 0, result.output
    return result.stdout


def fleet_part(text: str) -> str:
    """The Fleet table and the line under it, up to the next table's title."""
    start = text.index("Fleet (cost in")
    return text[start:text.index("Purchase schedule", start)]


@pytest.mark.parametrize("width", [80, 100, 140])
def test_the_fleet_table_fits_the_terminal_and_each_row_reads_whole(monkeypatch, width):
    fleet = fleet_part(plan_text(monkeypatch, width))
    assert max(len(line) for line in fleet.splitlines()) <= width
    rows = [words(row) for row in drawn_rows(fleet)]
    expected = [{"rtx-3060-12gb", "onprem", "RTX-3060-12GB", "purchase"},
                {"rtx-4090", "onprem", "RTX-4090", "purchase"},
                {"a100-80gb-pcie", "onprem", "A100-80GB-PCIE", "purchase"},
                {"p5.48xlarge", "aws", "us-east-1", "H100-SXM", "on_demand"}]
    assert len(rows) == len(expected)
    for row, names in zip(rows, expected):
        assert names <= row, f"{sorted(names - row)} not whole in a row of:\n{fleet}"
        assert not any(word.endswith("…") for word in row), fleet
    assert "Standard" not in fleet and "…" not in fleet


def test_at_80_columns_the_fleet_leaves_out_the_key_the_kind_and_the_count_of_no_card_first(monkeypatch):
    fleet = fleet_part(plan_text(monkeypatch, 80))
    left_out, _ = not_shown(fleet)
    # unit_id and kind say nothing a row does not; no card is switched off: those go first, in that order
    assert left_out[:3] == ["unit_id", "kind", "switched_off_units"]
    # the two owned 3060s, both sold, still show: owned 2, sold 2 on the 3060's row
    header = " ".join(line for line in fleet.splitlines() if line.startswith("┃"))
    # (units over "(most)": the most in service at once, cli.fleet_table.MOST_IN_SERVICE_SHORT)
    assert {"units", "(most)", "owned", "bought", "sold", "cost"} <= set(header.replace("┃", " ").split())
    row_3060 = next(row for row in drawn_rows(fleet) if "rtx-3060-12gb" in words(row))
    assert [cell[0] for cell in row_3060[2:6]] == ["0", "2", "0", "2"]   # units, owned, bought, sold


def test_piped_the_fleet_table_has_every_column_as_before(monkeypatch):
    result = CliRunner().invoke(app, ["plan", "scenarios/startup-hybrid.yaml", "--no-baselines", "--no-decisions"])
    fleet = fleet_part(result.stdout)
    assert not_shown(fleet) is None
    header = [cell.strip() for cell in next(line for line in fleet.splitlines() if line.startswith("┃")).split("┃")[1:-1]]
    # units headed as what they are, the most in service at once (the JSON and CSV keep `units`)
    assert header == ["provider", "region", "sku", "gpu", "purchase_option", "kind", "most in service", "existing_units",
                      "new_units", "sold_units", "switched_off_units", "instance_hours", "cost", "unit_id"]


def emitted(monkeypatch, capsys, table: pd.DataFrame, width: int, **kwargs) -> str:
    terminal(monkeypatch, width)
    emit(table, Format.table, **kwargs)
    return capsys.readouterr().out


# 6 columns: the widest numbers 12 and 11 cells, the header words up to 22: 117 cells at their natural widths
BREAK_EVEN = pd.DataFrame({
    "card": ["rtx-4090", "rtx-4090"], "workload": ["training", "hyperparameter-sweeps"],
    "cloud_cost_per_reference_hour": [1.213, 0.133], "card_fixed_cost_per_month": [80.058, 80.058],
    "break_even_utilisation": [123456789.5, 1.126], "note": ["", "above availability: cloud is cheaper"]})


def test_a_table_too_wide_even_with_nothing_cut_is_drawn_a_row_at_a_time(monkeypatch, capsys):
    # at their least widths the numbers' headers alone take 29 + 25 + 22 cells: 113 with the rest and the borders
    text = emitted(monkeypatch, capsys, BREAK_EVEN, 80, title="Break-even", float_digits=3)
    assert max(len(line) for line in text.splitlines()) <= 80
    fields = [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]
    # six fields a row, two rows, each field's name beside its value, every value whole
    assert fields == [["card", "rtx-4090"], ["workload", "training"], ["cloud_cost_per_reference_hour", "1.213"],
                      ["card_fixed_cost_per_month", "80.058"], ["break_even_utilisation", "123,456,789.5"],
                      ["note", ""],
                      ["card", "rtx-4090"], ["workload", "hyperparameter-sweeps"],
                      ["cloud_cost_per_reference_hour", "0.133"], ["card_fixed_cost_per_month", "80.058"],
                      ["break_even_utilisation", "1.126"], ["note", "above availability: cloud is cheaper"]]
    assert sum(line.startswith("├") for line in text.splitlines()) == 1   # the two rows ruled apart


def test_a_table_a_little_too_wide_keeps_its_numbers_and_words_whole(monkeypatch, capsys):
    # natural width: 8 + 21 + 36 (note) + 22 (the number's header) + three cells a column and one = 100 cells; at their
    # least 8 + 16 (a longer word may fold) + 13 (the note's longest word, "availability:") + 22 = 59, and 13: 72
    table = BREAK_EVEN[["card", "workload", "note", "break_even_utilisation"]]
    text = emitted(monkeypatch, capsys, table, 76, float_digits=3)
    assert max(len(line) for line in text.splitlines()) <= 76
    assert "┃ break_even_utilisation ┃" in next(line for line in text.splitlines() if line.startswith("┃"))
    rows = drawn_rows(text)
    assert ["".join(row[1]) for row in rows] == ["training", "hyperparameter-sweeps"]   # every character kept
    assert [row[3] for row in rows] == [["123,456,789.5"], ["1.126"]]
    assert " ".join(rows[1][2]) == "above availability: cloud is cheaper"   # folded between words, none cut
    assert rows[1][2] != ["above availability: cloud is cheaper"]          # (folded: the rows are ruled apart)
    assert "…" not in text


def test_a_table_that_fits_is_drawn_as_before(monkeypatch, capsys):
    text = emitted(monkeypatch, capsys, BREAK_EVEN, 240, float_digits=3)
    assert not any(line.startswith("├") for line in text.splitlines())   # one line a row, not ruled apart
    assert [row[1] for row in drawn_rows(text)] == [["training"], ["hyperparameter-sweeps"]]


@pytest.fixture(scope="module")
def hybrid_plan():
    from planner import load_scenario, plan

    return plan(load_scenario("scenarios/startup-hybrid.yaml"))


@pytest.mark.parametrize("table", ["schedule", "owned", "break_even", "utilisation", "baselines", "speeds"])
def test_no_table_is_drawn_wider_than_the_terminal_at_any_width(monkeypatch, capsys, hybrid_plan, table):
    # rich's own sharing out of the columns drew the schedule 81-87 cells wide at 80-87 columns, the owned cards'
    # at 121-125 and the speeds at 129-130: the terminal cut off their right-hand columns
    df = getattr(hybrid_plan, table)
    for width in range(50, 200):
        text = emitted(monkeypatch, capsys, df, width, title=table, float_digits=2)
        drawn = [line for line in text.splitlines() if line[:1] in "│┃"]
        assert all(len(line) <= width for line in text.splitlines()), (width, text)
        assert all(line.rstrip().endswith(("│", "┃")) for line in drawn), (width, text)
