"""A numeric option given a number typed with a unit, a currency or separators is refused in the CLI's words with the
number meant: `offers --min-memory 24GB` said pydantic's "Input should be a valid number, unable to parse string as a
number", and `plan --max-variables 0` "Input should be greater than or equal to 1" (an audit, 2026-12-07). The numbers
meant are worked out by hand: 5 min are 300 s, 2M variables 2,000,000."""

from __future__ import annotations

import pytest

from tests.planner.cli_run import run


@pytest.mark.parametrize(("args", "said"), [
    (["offers", "--min-memory", "24GB"], "'--min-memory': expected GB per GPU as a number, got '24GB'; did you mean 24?"),
    (["offers", "--max-price", "$2.5"], "'--max-price': expected a price per GPU-hour as a number, got '$2.5'; did you "
                                        "mean 2.5?"),
    (["offers", "--electricity", "0.25EUR"], "'--electricity': expected a price per kWh as a number, got '0.25EUR'; did "
                                             "you mean 0.25?"),
    (["offers", "--pue", "1.4x"], "'--pue': expected a PUE as a number, got '1.4x'; did you mean 1.4?"),
    (["offers", "--limit", "5rows"], "'--limit': expected a whole number of rows, got '5rows'; did you mean 5?"),
    (["offers", "--min-memory", "lots"], "'--min-memory': expected GB per GPU as a number, got 'lots'"),
    (["plan", "s.yaml", "--time-limit", "5min"], "'--time-limit': expected a number of seconds from 0.1 to 86400, got "
                                                 "'5min'; did you mean 300?"),
    (["plan", "s.yaml", "--max-variables", "2M"], "'--max-variables': expected a whole number of variables ≥ 1, got "
                                                  "'2M'; did you mean 2000000?"),
    (["plan", "s.yaml", "--max-variables", "1,000,000"], "got '1,000,000'; did you mean 1000000?"),
    (["plan", "s.yaml", "--max-variables", "0"], "'--max-variables': expected a whole number of variables ≥ 1, got '0'"),
    (["plan", "s.yaml", "--profile-slots", "200"], "'--profile-slots': expected a whole number of blocks from 1 to 168, "
                                                   "got '200'"),
    (["compare", "a.yaml", "b.yaml", "--max-purchase-variables", "-1"], "'--max-purchase-variables': expected a whole "
                                                                        "number of variables ≥ 0, got '-1'"),
    (["inventory", "--age-months", "2.5"], "'--age-months': expected a whole number of months from 0 to 1200, got '2.5'"),
])
def test_a_number_typed_with_a_unit_is_refused_with_the_number_meant(args, said):
    result = run(*args)
    assert result.exit_code == 2
    assert said in result.stderr and "Input should be" not in result.stderr, result.stderr


def test_whole_numbers_are_read_as_written():
    # 1e6 is a whole number of variables: taken as 1,000,000 (an int), not refused as "a valid integer"
    from planner.cli import console

    parser = console.number_within("a whole number of variables", 1, whole=True, units=console.COUNT_IN)
    read = parser("1e6")
    assert (read, parser("12")) == (1_000_000, 12) and isinstance(read, int)
