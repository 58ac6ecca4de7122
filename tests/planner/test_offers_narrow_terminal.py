"""`fleetplan offers` on a terminal narrower than its table (156-193 columns with every column): short headers and
fewer columns, one line an offer or two, and a line under the table naming the columns left out and the least
width that shows them; rich squeezed every column into fragments ("p4de…", "27.…", "usd_…") at 80-150 columns.

Facts used (the packaged snapshot's rows): aws us-east-1 p4de.24xlarge on demand is 27.44705 USD an hour for 8
A100-80GB-SXM, 27.44705 / 8 = 3.43088125 USD per GPU-hour (drawn to 4 decimals: 27.4471, 3.4309); azure eastus
Standard_NC96ads_A100_v4 on demand is 14.692 USD an hour for 4 A100-80GB-PCIE, 14.692 / 4 = 3.673 USD per GPU-hour.
The table of `--gpu A100-80GB --provider aws` (the p4de's two offers) is 156 columns wide with every column, that
of the packaged snapshot's every offer 193 (its widest names: Standard_NC132lds_xl_RTXPRO6000BSE_v6, 37
characters; germanywestcentral, 18).
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from planner.cli import app, commands, console

AWS_A100 = ["--gpu", "A100-80GB", "--provider", "aws"]
AZURE_A100 = ["--gpu", "A100-80GB", "--option", "on_demand", "--region", "eastus"]
P4DE = {"sku": "p4de.24xlarge", "where": ("aws", "us-east-1"), "option": "on_demand", "gpu": "A100-80GB-SXM",
        "gpus": "8", "usd_per_hour": "27.4471", "usd_per_gpu_hour": "3.4309"}
NC96ADS = {"sku": "Standard_NC96ads_A100_v4", "where": ("azure", "eastus"), "option": "on_demand",
           "gpu": "A100-80GB-PCIE", "gpus": "4", "usd_per_hour": "14.692", "usd_per_gpu_hour": "3.673"}
COLUMNS = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb", "usd_per_hour",
           "usd_per_gpu_hour", "as_of", "note"]
# the short headers of a narrowed table, and the columns each stands for
SHORT = {"provider region": ["provider", "region"], "option": ["purchase_option"], "GPUs": ["gpu_count"],
         "GB/GPU": ["gpu_memory_gb"], "USD/hr": ["usd_per_hour"], "USD/GPU-hr": ["usd_per_gpu_hour"]}


def offers(*args: str, width: int | None = None, monkeypatch=None) -> str:
    """stdout of `fleetplan offers *args`: on a terminal `width` columns wide (rich's Console of that width, as
    on a terminal; a CliRunner's stdout is none, where the table is drawn 240 wide), or piped."""
    if width is not None:
        def terminal(piped_width=None):
            return console._console_class()(highlight=False, width=width)
        monkeypatch.setattr(console, "stdout_console", terminal)
        monkeypatch.setattr(commands, "stdout_console", terminal)
    result = CliRunner().invoke(app, ["offers", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def drawn_rows(text: str) -> list[list[list[str]]]:
    """Each row of the table drawn: its cells, each as its lines (rows of more than one line are ruled apart)."""
    lines = text.splitlines()
    ruled = any(line.startswith("├") for line in lines)
    rows, row = [], []
    for line in lines:
        if line.startswith("│"):
            row.append([cell.strip() for cell in line.split("│")[1:-1]])
            if not ruled:
                rows.append(row)
                row = []
        elif line.startswith(("├", "└")) and row:
            rows.append(row)
            row = []
    return [[[part for part in cell if part] for cell in zip(*row)] for row in rows]


def words(row: list[list[str]]) -> set[str]:
    return {word for cell in row for line in cell for word in line.split()}


def drawn_columns(text: str) -> list[str]:
    """The columns of the full table that the drawn header shows (a short header named as in CSV and JSON)."""
    header = [[cell.strip() for cell in line.split("┃")[1:-1]] for line in text.splitlines() if line.startswith("┃")]
    names = [part for column in zip(*header) for part in column if part]
    return [name for shown in names for name in SHORT.get(shown, [shown])]


def not_shown(text: str) -> tuple[list[str], int] | None:
    """The columns the line under the table names, and the width it says shows them; None without that line."""
    under = " ".join(text[text.rindex("└"):].split("\n", 1)[1].split())   # the line as said, wrapped or not
    said = re.search(r"not shown: (.+?) \(needs (\d+) columns; --format csv or json has every column\)", under)
    return (said.group(1).split(", "), int(said.group(2))) if said else None


@pytest.mark.parametrize("width", [80, 100, 120, 160])
@pytest.mark.parametrize("args, offer", [(AWS_A100, P4DE), (AZURE_A100, NC96ADS)], ids=["p4de", "nc96ads"])
def test_every_line_fits_the_terminal_and_a_known_offer_reads_whole(monkeypatch, width, args, offer):
    text = offers(*args, width=width, monkeypatch=monkeypatch)
    assert max(len(line) for line in text.splitlines()) <= width
    row = next((row for row in drawn_rows(text) if offer["sku"] in words(row) and offer["option"] in words(row)), None)
    assert row is not None, f"no row shows {offer['sku']} {offer['option']} whole:\n{text}"
    assert {*offer["where"], offer["gpu"], offer["gpus"], offer["usd_per_gpu_hour"]} <= words(row)
    left_out = (not_shown(text) or ([], 0))[0]
    assert (offer["usd_per_hour"] in words(row)) is ("usd_per_hour" not in left_out)


def first_width_showing(columns: list[str], args: list[str], start: int, monkeypatch) -> int:
    """The least terminal width from `start` on at which the table drawn shows every one of `columns`."""
    return next(width for width in range(start, 241)
                if set(columns) <= set(drawn_columns(offers(*args, width=width, monkeypatch=monkeypatch))))


@pytest.mark.parametrize("width, left_out", [(80, ["as_of", "note"]), (90, ["as_of"])])
def test_the_line_under_a_narrowed_table_names_the_columns_it_leaves_out_and_the_width_that_shows_them(
        monkeypatch, width, left_out):
    text = offers(*AWS_A100, width=width, monkeypatch=monkeypatch)
    shown_from = first_width_showing(left_out, AWS_A100, width + 1, monkeypatch)
    assert shown_from < 156   # a narrowed layout shows them: not the width of the table with every column, piped
    assert not_shown(text) == (left_out, shown_from)
    assert sorted(drawn_columns(text) + left_out) == sorted(COLUMNS)
    if "note" in left_out:   # the spot offer's note 1 would number a column not drawn
        assert "note 1:" not in text


@pytest.mark.parametrize("width", [100, 120])
def test_a_terminal_too_narrow_for_one_line_an_offer_shows_every_column_on_two(monkeypatch, width):
    text = offers(*AWS_A100, width=width, monkeypatch=monkeypatch)
    assert not_shown(text) is None and sorted(drawn_columns(text)) == sorted(COLUMNS)
    assert max(len(line) for line in text.splitlines()) <= width


def test_a_wider_terminal_never_shows_fewer_columns(monkeypatch):
    shown_before, narrower = set(), None
    for width in range(60, 157):   # the table is 156 wide with every column, piped
        shown = set(drawn_columns(offers(*AWS_A100, width=width, monkeypatch=monkeypatch)))
        assert shown >= shown_before, f"{sorted(shown_before - shown)} shown at {narrower} columns but not at {width}"
        shown_before, narrower = shown, width


def test_at_160_columns_a_table_156_wide_is_drawn_as_before():
    piped = offers(*AWS_A100)
    assert max(len(line) for line in piped.splitlines() if line.startswith("┃")) == 156
    with pytest.MonkeyPatch.context() as monkeypatch:
        at_160 = offers(*AWS_A100, width=160, monkeypatch=monkeypatch)
    assert at_160 == piped and drawn_columns(at_160) == COLUMNS and not_shown(at_160) is None
    assert at_160.splitlines()[-1] == "note 1: undated | lowest of 2 zone quotes | spot time unknown"


def test_every_offer_at_80_columns_folds_the_longest_sku_and_keeps_every_price_whole(monkeypatch):
    piped = offers()
    assert not_shown(piped) is None and drawn_columns(piped) == COLUMNS   # 193 wide: piped, 240, as before
    per_gpu_hour = sorted(row[COLUMNS.index("usd_per_gpu_hour")][0] if row[COLUMNS.index("usd_per_gpu_hour")] else ""
                          for row in drawn_rows(piped))
    text = offers(width=80, monkeypatch=monkeypatch)
    assert max(len(line) for line in text.splitlines()) <= 80
    left_out, needed_width = not_shown(text)
    assert left_out == ["as_of", "note", "gpu_memory_gb", "usd_per_hour"]
    # the least width that shows them (193 wide, the full table, is not: a narrowed layout shows them)
    assert set(drawn_columns(offers(width=needed_width, monkeypatch=monkeypatch))) == set(COLUMNS)
    assert not set(left_out) <= set(drawn_columns(offers(width=needed_width - 1, monkeypatch=monkeypatch)))
    assert drawn_columns(text) == ["sku", "provider", "region", "gpu", "purchase_option", "gpu_count", "usd_per_gpu_hour"]
    rows = drawn_rows(text)
    assert sorted(row[-1][0] if row[-1] else "" for row in rows) == per_gpu_hour   # the same prices, none cut
    longest = next(row for row in rows if row[0][0].startswith("Standard_NC132lds_xl_"))
    assert "".join(longest[0][:-1]) == "Standard_NC132lds_xl_RTXPRO6000BSE_v6"   # folded onto two lines, all of it
