"""A card override's `as_of`, the one date a scenario holds (an audit of the documented format, 2026-12): a plain
`as_of: 2026-11-20` was refused ("YAML read it as a date: put it in quotes") though the format follows YAML 1.2's
core schema, where it is text; an impossible `2026-11-31` stopped the whole file with one line and no field; and
a quoted `05/10/2026` or `Nov 2026` passed, and the plan then counted the price as having no date at all. Now
as_of is an ISO date YYYY-MM-DD, plain or quoted, and anything else is a field error among the file's others."""

from __future__ import annotations

import datetime

import pytest
from test_scenario_limits import HEAD, WORKLOAD, problems_of

from planner.scenario import load_scenario, load_scenario_text

EXPECTED = "expected an ISO date YYYY-MM-DD (e.g. 2026-11-20)"


def with_as_of(value: str) -> str:
    """A scenario whose rtx-4090 override has `as_of: VALUE`, on line 7 from column 36."""
    return (HEAD + "onprem:\n  cards: [rtx-4090]\n  card_overrides:\n"
            f"    rtx-4090: {{price: 1800, as_of: {value}}}\n" + WORKLOAD)


def as_of_problem(value: str) -> str:
    # "    rtx-4090: {price: 1800, as_of: " is 35 characters: the value starts in column 36
    (problem,) = problems_of(with_as_of(value))
    assert problem.startswith(f"s.yaml:7:36: onprem.card_overrides.rtx-4090.as_of: {EXPECTED}, got ")
    return problem.split(f"{EXPECTED}, got ", 1)[1]


@pytest.mark.parametrize("value", ["2026-11-20", '"2026-11-20"', "'2026-11-20'"])
def test_an_iso_date_plain_or_quoted_is_the_text_2026_11_20(value):
    s = load_scenario_text(with_as_of(value))
    assert s.onprem.card_overrides["rtx-4090"].as_of == "2026-11-20"


def test_29_february_of_a_leap_year_is_a_date():
    assert load_scenario_text(with_as_of("2028-02-29")).onprem.card_overrides["rtx-4090"].as_of == "2028-02-29"


def test_a_date_read_by_a_yaml_1_1_reader_into_a_dict_is_its_iso_text():
    # yaml.safe_load gives datetime.date(2026, 11, 20) for a plain 2026-11-20
    s = load_scenario({"name": "t", "onprem": {"card_overrides": {"rtx-4090": {"as_of": datetime.date(2026, 11, 20)}}},
                       "workloads": [{"name": "a", "gpu_hours_per_month": 100, "reference_gpu": "T4"}]})
    assert s.onprem.card_overrides["rtx-4090"].as_of == "2026-11-20"


@pytest.mark.parametrize(("value", "said"), [
    # November has 30 days, February 2026 28 (2026 is no leap year)
    ("2026-11-31", "'2026-11-31'; November 2026 has 30 days"),
    ("2026-02-29", "'2026-02-29'; February 2026 has 28 days"),
    ("2026-13-01", "'2026-13-01'; there is no month 13 (the month comes second: YYYY-MM-DD)"),
    # the calendar module takes year 0, datetime.date does not: the quote read as undated, its staleness unsaid
    ("0000-01-01", "'0000-01-01'; there is no year 0000 (the years start at 0001)"),
    # 5 October or May 10: not guessed
    ('"05/10/2026"', "'05/10/2026'; day and month could be either way round: did you mean '2026-10-05' (day first) "
                     "or '2026-05-10' (month first)?"),
    # no month 25: day first; no month 25 either way in 10/25: month first
    ('"25/10/2026"', "'25/10/2026'; did you mean '2026-10-25'?"),
    ('"10/25/2026"', "'10/25/2026'; did you mean '2026-10-25'?"),
    ('"20.11.2026"', "'20.11.2026'; did you mean '2026-11-20'?"),
    ('"2026/11/20"', "'2026/11/20'; did you mean '2026-11-20'?"),
    ('"20 Nov 2026"', "'20 Nov 2026'; did you mean '2026-11-20'?"),
    ('"November 20, 2026"', "'November 20, 2026'; did you mean '2026-11-20'?"),
    ("2026-11-20 10:00:00", "'2026-11-20 10:00:00'; did you mean '2026-11-20'?"),
    ('"2026-11"', "'2026-11'; that is a month: give the day of the quote too"),
    ('"Nov 2026"', "'Nov 2026'; that is a month: give the day of the quote too"),
    ("soon", "'soon'"),
    ("20261120", "20261120; did you mean '2026-11-20'?"),   # a number in YAML: shown as one
])
def test_any_other_as_of_says_what_is_expected_and_what_it_may_mean(value, said):
    assert as_of_problem(value) == said


def test_an_impossible_date_is_reported_with_the_files_other_problems():
    # it stopped validation with "'2026-11-31' is not a date (day is out of range for month)" alone
    text = with_as_of("2026-11-31").replace("reference_gpu: T4}", "reference_gpu: T4, growth_per_mont: 0.02}")
    assert problems_of(text) == [
        f"s.yaml:7:36: onprem.card_overrides.rtx-4090.as_of: {EXPECTED}, got '2026-11-31'; November 2026 has 30 days",
        # "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, " is 59 characters
        "s.yaml:9:60: workloads[0].growth_per_mont: unknown key; did you mean 'growth_per_month'?"]


def test_a_name_and_a_description_that_look_like_dates_are_text():
    s = load_scenario_text(HEAD.replace("name: t", "name: 2026-01-01") + "description: 2026-11-31\n" + WORKLOAD)
    assert (s.name, s.description) == ("2026-01-01", "2026-11-31")


def test_a_prices_source_named_like_a_date_is_a_path():
    text = HEAD.replace("prices: {", "prices: {source: 2026-11-20, ") + WORKLOAD
    (problem,) = problems_of(text)
    assert problem.startswith("s.yaml:3:18: prices.source: expected snapshot, store or the path of an offers CSV; ")
    # the text as written, then where it was looked for (a scenario given as text: the working folder)
    assert "; file not found: 2026-11-20 (looked for in the working folder, " in problem
