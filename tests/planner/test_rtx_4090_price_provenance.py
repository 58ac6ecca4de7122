"""The rtx-4090's catalog price, date and source agree (data-provenance audit 2026-12-07).

The row gave 1,599 USD as of 2023-11-23, citing XDA Developers of that day; that article gives 1,599 only as the
Founders Edition's launch price of the year before, and for 2023-11-23 an average of about 2,000 USD and, cheapest,
"a PNY custom card that was priced at $1669.99 at GameStop"
(https://www.xda-developers.com/nvidia-rtx-4090-average-price-2000-dollars/). The dated figure is 1,669.99 USD.
"""

import pytest

from planner import catalog


@pytest.fixture(scope="module")
def row():
    return catalog.load_cards().loc["rtx-4090"]


def test_rtx_4090_is_1669_99_usd_the_cheapest_retail_price_on_2023_11_23(row):
    assert (row.price, row.currency, row.as_of) == (1669.99, "USD", "2023-11-23")


def test_its_source_quotes_that_figure_and_its_note_says_why_not_the_launch_price(row):
    assert "XDA Developers 2023-11-23" in row.source and "$1669.99 at GameStop" in row.source
    assert row.note.startswith("stale: the cheapest in-stock retail price on 2023-11-23 per its source")
    assert "not the 1,599 USD Founders Edition launch list price" in row.note
