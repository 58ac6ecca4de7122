"""Tables of money show each column's numbers to one number of decimals: 69,768.5 over 47,581 read ragged."""

import pandas as pd

from planner.cli.console import _CellTexts


def test_a_money_column_shows_one_number_of_decimals():
    df = pd.DataFrame({"total": [69768.5, 47581.0, 77775.0], "units": [1, 2, 3], "pct": [47.7, 23.3, float("nan")]})
    cells = _CellTexts(df, float_digits=1, same_decimals=True)
    assert cells[0] == ["69,768.5", "47,581.0", "77,775.0"]
    assert cells[1] == ["1", "2", "3"]          # whole numbers as they are
    assert cells[2] == ["47.7", "23.3", ""]     # NaN empty


def test_whole_numbers_stay_whole_and_no_minus_zero():
    df = pd.DataFrame({"cost": [15844.0, -1086.0, -0.04, 12.5]})
    assert _CellTexts(df, float_digits=1, same_decimals=True)[0] == ["15,844.0", "-1,086.0", "0.0", "12.5"]
    assert _CellTexts(pd.DataFrame({"cost": [15844.0, 2.0]}), 1, same_decimals=True)[0] == ["15,844", "2"]


def test_other_tables_keep_each_cell_without_trailing_zeros():
    df = pd.DataFrame({"speed": [1.0, 0.5, 0.0625]})
    assert _CellTexts(df, float_digits=4)[0] == ["1", "0.5", "0.0625"]
