"""An amount written with its currency or a thousands/millions letter gets the number meant, as "8 kW" and "8%"
already did (an audit of a new scenario, 2026-12-06: `electricity_per_kwh: "0.28 EUR"` and `capex_budget: 80k` were
refused as "expected a number" with no hint). The values meant are worked out by hand: 80k = 80 × 1,000 = 80000,
1.5M = 1.5 × 1,000,000 = 1500000, 12k GPU-hours = 12000."""

from __future__ import annotations

import pytest

from planner.errors import ScenarioError
from planner.scenario.loading import load_scenario_text

HEAD = "name: n\ncurrency: EUR\nfx: {USD: 0.92}\n"
WORKLOAD = "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n"


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "s.yaml")
    return caught.value.problems


@pytest.mark.parametrize("written, line_col, meant", [
    ('"0.28 EUR"', "5:24", "0.28"), ('"EUR 0.28"', "5:24", "0.28"), ('"0.28 €"', "5:24", "0.28"),
])
def test_an_electricity_price_written_with_its_currency(written, line_col, meant):
    text = f"{HEAD}onprem:\n  electricity_per_kwh: {written}\n{WORKLOAD}"
    (problem,) = problems(text)
    assert problem.startswith(f"s.yaml:{line_col}: onprem.electricity_per_kwh: expected a number")
    assert problem.endswith(f"; did you mean {meant}? (an amount is the number alone, in the scenario's currency)")


@pytest.mark.parametrize("written, meant", [("80k", "80000"), ("80 K", "80000"), ("1.5M", "1500000")])
def test_a_budget_written_with_thousands_or_millions(written, meant):
    (problem,) = problems(f"{HEAD}onprem:\n  capex_budget: {written}\n{WORKLOAD}")
    assert problem.startswith("s.yaml:5:17: onprem.capex_budget: expected a number")
    assert problem.endswith(f"; did you mean {meant}? ({written.replace(' ', '')})")


def test_a_demand_in_thousands():
    text = f"{HEAD}workloads:\n  - {{name: w, gpu_hours_per_month: 12k, reference_gpu: T4}}\n"
    (problem,) = problems(text)
    assert "workloads[0].gpu_hours_per_month: expected a number" in problem
    assert problem.endswith("; did you mean 12000? (12k)")


def test_a_cap_whose_name_holds_its_unit_gets_no_thousands_hint():
    # power_cap_kw: "8k" may be 8 kW or 8,000 kW: no guess
    (problem,) = problems(f"{HEAD}onprem:\n  power_cap_kw: 8k\n{WORKLOAD}")
    assert problem.endswith("expected a number, got '8k'")


def test_card_prices_name_whose_currency_their_number_is_in():
    text = (f"{HEAD}onprem:\n  card_overrides:\n    rtx-4090: {{price: 1900 USD}}\n"
            "  custom_cards:\n    mine: {gpu: L4, price: $2500, busy_watts: 72, idle_watts: 20, life_years: 4}\n"
            f"{WORKLOAD}")
    override, custom = problems(text)
    assert "onprem.card_overrides.rtx-4090.price: expected a number" in override
    assert override.endswith("; did you mean 1900? (an amount is the number alone, in the override's `currency`, "
                             "else the catalog card's currency)")
    assert "onprem.custom_cards.mine.price: expected a number" in custom
    # in dollars, which the card is not priced in (no `currency`: the scenario's EUR), an audit of 2026-12-07: the
    # dollars were dropped; 2,500 USD × 0.92 EUR per USD = 2,300 EUR
    assert custom.endswith("; did you mean 2500 with `currency: USD` on the card? (an amount is the number alone, in the "
                           "card's `currency`, else the scenario's, EUR; or 2300: 2,500 USD at your fx.USD 0.92)")


def test_a_currency_beside_a_field_that_is_no_amount_gets_no_hint():
    # a demand is no amount: "100 EUR" GPU-hours is a mistake the number alone would not mend
    text = f"{HEAD}workloads:\n  - {{name: w, gpu_hours_per_month: 100 EUR, reference_gpu: T4}}\n"
    (problem,) = problems(text)
    assert problem.endswith("expected a number, got '100 EUR'")
