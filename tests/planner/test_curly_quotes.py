"""A value pasted from a word processor in typographic quotes (“USD”, ‘spot’, „fp32_tflops“) is, to YAML, text with
the quotes in it: `currency: “USD”` said "expected a currency code of three capital letters (ISO 4217), got '“USD”'"
and no more. Wherever such a value is refused (a code, a choice, a card, a profile, a key), the message now says
what to write: the value in YAML's quotes or none. A free text (a name) keeps its quotes as written."""

from __future__ import annotations

import pytest
from test_scenario_limits import HEAD, WORKLOAD
from test_scenario_limits import problems_of as problems

from planner.scenario import load_scenario_text


def hint(inner: str, quotes: str = "“ ”") -> str:
    return f"; did you mean \"{inner}\" or {inner}? YAML quotes only with \" and ', and keeps {quotes} as part of the text"


@pytest.mark.parametrize(("written", "quotes"), [("“USD”", "“ ”"), ("‘USD’", "‘ ’"), ("„USD“", "„ “")])
def test_a_currency_in_typographic_quotes_gets_the_code_in_yamls_quotes(written, quotes):
    text = HEAD + f"currency: {written}\n" + WORKLOAD
    assert problems(text) == [
        f"s.yaml:4:11: currency: expected a currency code of three capital letters (ISO 4217), got '{written}'"
        + hint("USD", quotes)]


def test_a_choice_in_typographic_quotes_gets_it_instead_of_a_did_you_mean_of_the_same():
    text = HEAD.replace("[on_demand]", "[on_demand, ‘spot’]") + WORKLOAD
    # "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand, " is 79 characters
    [problem] = problems(text)
    assert problem.startswith("s.yaml:3:80: prices.purchase_options[1]: expected one of 'on_demand', ")
    assert problem.endswith("got '‘spot’'" + hint("spot", "‘ ’")), problem


def test_a_card_and_a_profile_in_typographic_quotes_get_it():
    text = (HEAD + "onprem:\n  cards: [“rtx-4090”]\n"
            + WORKLOAD.replace("reference_gpu: T4}", "reference_gpu: T4, profile: “flat”}"))
    assert problems(text) == [
        "s.yaml:5:11: onprem.cards[0]: unknown card '“rtx-4090”'" + hint("rtx-4090"),
        # "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, profile: " is 68 characters
        "s.yaml:7:69: workloads[0].profile: expected one of flat, business_hours, deadline_peaks or a .csv file, "
        "got '“flat”'" + hint("flat")]


def test_a_key_in_typographic_quotes_gets_it():
    assert problems(HEAD + "“currency”: USD\n" + WORKLOAD) == [
        "s.yaml:4:1: “currency”: unknown key" + hint("currency")]


def test_an_fx_code_in_typographic_quotes_is_one_problem_not_also_a_missing_rate():
    # the RTX 3060's catalog price is in yuan: the rate given for “CNY” is the one meant, not a second problem
    text = HEAD + "fx: {“CNY”: 0.14}\nonprem:\n  cards: [rtx-3060-12gb]\n" + WORKLOAD
    assert problems(text) == [
        "s.yaml:4:6: fx.“CNY”: expected a currency code of three capital letters (ISO 4217), got '“CNY”'" + hint("CNY")]


def test_a_name_in_typographic_quotes_is_text_as_written():
    assert load_scenario_text(HEAD.replace("name: t", "name: “t”") + WORKLOAD).name == "“t”"


def test_typographic_quotes_round_nothing_get_no_hint():
    assert problems(HEAD + "currency: “”\n" + WORKLOAD) == [
        "s.yaml:4:11: currency: expected a currency code of three capital letters (ISO 4217), got '“”'"]
