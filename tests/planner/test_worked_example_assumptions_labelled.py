"""The worked example's unsourced figures say they are assumptions (data-provenance audit 2026-12-07).

Project rule: every figure names its source and date, or says it has none. The worked example's card price
(2,000 USD), host share (500 USD), electricity (0.20 USD/kWh) and A10G speed (0.8 of an A5000) come from no
source; only its g5.xlarge price (the offers CSV beside it) does.
"""

from pathlib import Path

import pytest

WORKED = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"


@pytest.mark.parametrize("figure", ["electricity_per_kwh: 0.20", "card_overrides:", "A10G: 0.8"])
def test_each_unsourced_figure_s_line_says_it_is_an_illustrative_assumption(figure):
    line, = [line for line in WORKED.read_text(encoding="utf-8").splitlines() if figure in line]
    assert "# illustrative assumption" in line, line


def test_the_card_overrides_label_names_the_price_and_the_host_share():
    line, = [line for line in WORKED.read_text(encoding="utf-8").splitlines() if "card_overrides:" in line]
    assert "not quotes: card 2,000 USD, host 500 USD a card" in line
