"""planner.text.number_text: the one way the planner writes an amount or a figure in its words (thousands separated,
at most so many decimals, no trailing zeros), which the explanations, the cost-basis warnings, the min_units check,
the terminal's tables and summary.md each did in a copy of their own."""

import pytest

from planner.text import number_text


@pytest.mark.parametrize("x, places, said", [
    (1512.5, 2, "1,512.5"),
    (756, 2, "756"),
    (16500.0, 2, "16,500"),
    (1234567.891, 2, "1,234,567.89"),
    (2.999, 2, "3"),               # rounds up to a whole number: no "3." left
    (100, 0, "100"),               # no decimals: the zeros of a whole number stay (a bare rstrip("0") gave "1")
    (-0.001, 2, "0"),              # a small negative rounds to 0, not "-0"
    (0.0025, 4, "0.0025"),
    (3.37920, 4, "3.3792"),
    (1250000, 6, "1,250,000"),
    (0.3, 6, "0.3"),
])
def test_amounts_are_written_as_a_reader_writes_them(x, places, said):
    assert number_text(x, places) == said
