"""Rates of currencies other than the yuan held against the Federal Reserve's H.10 noon buying rates of 2023-12-15
(a review, 2026-12-07: a EUR scenario's `fx: {USD: 92}` planned 15.6 million EUR without a word on the rate, and blamed
the capex budget instead).

By hand, from the release (US dollars per euro 1.0906, yen per dollar 141.80): 1 / 1.0906 = 0.916926 EUR per USD;
92 / 0.916926 = 100.3 times it; 0.0092 / 0.916926 = 1/99.7 of it; 1.087 / 0.916926 = 1.19 (a euro rate turned round
stays within the factor of 5). A yen scenario's 0.0067 (USD per yen, turned round) against 141.80: 1/21,164 of it,
and 0.0067 × 141.80 = 0.95, near 1: turned round; 1 / 0.0067 = 149.25.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.scenario.fx_check import REFERENCE_PER_USD, implausible_fx
from tests.planner.cli_run import run

HYBRID = Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml"


def test_the_references_are_the_releases_figures():
    assert REFERENCE_PER_USD["EUR"][0] == pytest.approx(0.916926, abs=1e-6)
    assert REFERENCE_PER_USD["JPY"][0] == 141.80
    assert REFERENCE_PER_USD["GBP"][0] == pytest.approx(1 / 1.2709)
    assert REFERENCE_PER_USD["CNY"][0] == 7.2734   # the packaged scenarios' source, FRED EXCHUS
    assert all("Federal Reserve" in source for _, source in REFERENCE_PER_USD.values())


def test_a_euro_scenarios_dollar_rate_typed_100_times_off_is_warned_of():
    (path, text), = implausible_fx("EUR", {"USD": 92})
    assert path == ("fx", "USD")
    assert text == ("fx.USD: at 92 the scenario's rates give 92 EUR per USD, 100 times 0.91693 (the Federal Reserve's "
                    "H.10 noon buying rate of 2023-12-15); expected EUR per 1 USD, about 0.91693")
    (_, low), = implausible_fx("EUR", {"USD": 0.0092})
    assert "1/99.7 of 0.91693" in low


@pytest.mark.parametrize(("currency", "fx"), [
    ("EUR", {"USD": 0.92}),
    ("EUR", {"USD": 1.087}),          # turned round, but 1.19 times the reference: no tell
    ("GBP", {"USD": 0.787}),
    ("USD", {"EUR": 1.087, "JPY": 0.0067, "INR": 0.012}),
    ("PLN", {"USD": 4.0}),            # no reference for the zloty: not judged
])
def test_real_rates_and_unjudged_currencies_are_not_warned_of(currency, fx):
    assert implausible_fx(currency, fx) == []


def test_a_yen_scenarios_dollar_rate_turned_round_says_so():
    (path, text), = implausible_fx("JPY", {"USD": 0.0067})
    assert path == ("fx", "USD")
    assert "0.0067 JPY per USD, 1/2.12e+04 of 141.8" in text
    assert text.endswith("expected JPY per 1 USD, about 141.8: 0.0067 looks turned round (USD per JPY: 1 / 0.0067 = 149.25)")


def test_a_usd_scenarios_rupee_rate_turned_round_is_warned_of():
    (path, text), = implausible_fx("USD", {"INR": 83.02})
    assert path == ("fx", "INR")
    assert "expected USD per 1 INR, about 0.012045: 83.02 looks turned round" in text   # 1 / 83.02 = 0.0120453


def test_only_the_dollar_rate_is_said_when_it_is_off():
    # the yuan's rate is read through fx.USD: off as well only because fx.USD is
    assert [path for path, _ in implausible_fx("EUR", {"USD": 92, "CNY": 0.126})] == [("fx", "USD")]


def test_a_currency_without_reference_names_its_dollar_rate_as_maybe_the_one_wrong():
    # zloty scenario at 4 PLN per USD: 0.5 PLN a yen gives 4 / 0.5 = 8 yen per USD, 1/17.7 of 141.80; 0.5 × 4 / 141.8
    # = 0.014 is far from 1, so not turned round
    (path, text), = implausible_fx("PLN", {"USD": 4.0, "JPY": 0.5})
    assert path == ("fx", "JPY")
    assert text.endswith("expected PLN per 1 JPY, about 0.028209 at fx.USD 4 (the one wrong may be fx.USD)")


def test_validate_warns_of_a_euro_scenarios_dollar_rate_at_its_line(tmp_path):
    text = HYBRID.read_text(encoding="utf-8")
    assert "currency: USD\n" in text and "fx: {CNY: 0.13749}" in text   # the premise
    eur = tmp_path / "eur.yaml"
    eur.write_text(text.replace("currency: USD\n", "currency: EUR\n").replace("fx: {CNY: 0.13749}",
                                                                             "fx: {CNY: 0.12649, USD: 92}"),
                   encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("fx:"))
    result = run("validate", eur)
    assert f"{eur}:{line}:" in result.output and "fx.USD: at 92 the scenario's rates give 92 EUR per USD" in result.output
    assert "fx.CNY" not in result.output


def test_a_right_capex_budget_is_not_blamed_for_a_dollar_rate_100_times_off():
    # the audit's EUR scenario at fx.USD 92: rtx-4090 (1,669.99 + 750 USD host) read as 2,419.99 × 92 = 222,639.08 EUR, more than
    # its 60,000 EUR budget; the rate is what is wrong, and its own warning says so
    from planner import load_scenario
    from planner.scenario.cost_basis import scenario_cost_warnings

    def eur(rate: float, budget: float) -> dict:
        return {"name": "eur", "currency": "EUR", "fx": {"USD": rate}, "horizon_months": 12,
                "onprem": {"electricity_per_kwh": 0.25, "pue": 1.4, "cards": ["rtx-4090"], "capex_budget": budget},
                "workloads": [{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "RTX-4090"}]}

    assert scenario_cost_warnings(load_scenario(eur(92, 60000))) == []
    # at a right rate a budget typed in thousands is still said: 2,419.99 × 0.92 = 2,226.3908 EUR
    [(field, text)] = scenario_cost_warnings(load_scenario(eur(0.92, 60)))
    assert field == ("onprem", "capex_budget") and "(rtx-4090: 2,226.39 EUR with its host share)" in text
