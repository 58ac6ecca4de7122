"""A card's quote typed 100 times too high (cents) or 1,000 times too low (thousands) is warned of at its field (a
new-user audit, 2026-12-06: `l40s: {price: 790000, currency: EUR}` validated `ok` in silence and the card then dropped
out of every plan).

By hand from planner/data/onprem_cards.csv: a100-80gb-pcie 11,500 USD (2026-03-20); l40s has no sourced price, so its
quote is held against the most any GPU sells for (200,000 USD a card; the dearest catalog GPU is 39,625 USD).
At fx.USD 0.92 EUR: 790,000 EUR = 790,000 / 0.92 = 858,695.65… USD, "858,700" to four figures; 1,400,000 USD is
1,400,000 / 11,500 = 121.739… times the A100's price, "122"; 11.5 USD is 11.5 / 11,500 = 1/1,000 of it.
"""

from __future__ import annotations

import pytest

from planner import load_scenario
from planner.scenario.loading import plausibility_warnings


def scenario(onprem: dict) -> dict:
    return {"name": "quotes", "currency": "EUR", "fx": {"USD": 0.92}, "horizon_months": 12,
            "onprem": {"electricity_per_kwh": 0.27, "pue": 1.5, "availability": 0.95,
                       "cards": ["l40s", "a100-80gb-pcie"], **onprem},
            "workloads": [{"name": "train", "gpu_hours_per_month": 2000, "reference_gpu": "A100-80GB-PCIE"}]}


def price_warnings(onprem: dict) -> dict:
    return {".".join(field): text for field, text in plausibility_warnings(load_scenario(scenario(onprem)))
            if field[-1] == "price"}


def test_a_quote_in_cents_of_a_card_without_a_catalog_price_is_more_than_any_gpu_sells_for():
    said = price_warnings({"card_overrides": {"l40s": {"price": 790000, "currency": "EUR"}}})
    assert said == {"onprem.card_overrides.l40s.price": (
        "onprem.card_overrides.l40s.price: 790,000 EUR (858,700 USD) for one card is more than any GPU sells for (the "
        "dearest in the catalog is about 40,000 USD a GPU); expected the price of one card in EUR: if it is in cents, "
        "write 7900; if it is for a server of several cards, give one card's")}


def test_a_quote_122_times_the_catalog_price_names_the_catalog_price_and_its_date():
    said = price_warnings({"card_overrides": {"a100-80gb-pcie": {"price": 1400000}}})
    assert said["onprem.card_overrides.a100-80gb-pcie.price"].startswith(
        "onprem.card_overrides.a100-80gb-pcie.price: 1,400,000 USD is 122 times the catalog's price of a100-80gb-pcie "
        "(11,500 USD, 2026-03-20); expected the price of one card in USD: if it is in cents, write 14000")


def test_a_quote_in_thousands_is_a_thousandth_of_the_catalog_price():
    said = price_warnings({"card_overrides": {"a100-80gb-pcie": {"price": 11.5}}})
    assert said["onprem.card_overrides.a100-80gb-pcie.price"].endswith(
        "is 1/1,000 of the catalog's price of a100-80gb-pcie (11,500 USD, 2026-03-20); expected the price of one card "
        "in USD: if it is in thousands, write 11500")


@pytest.mark.parametrize("onprem", [
    {"card_overrides": {"a100-80gb-pcie": {"price": 9000, "currency": "EUR"}}},   # 9,000 / 0.92 = 9,783 USD: 0.85×
    {"card_overrides": {"l40s": {"price": 7900, "currency": "EUR"}}},
    {"custom_cards": {"mine": {"gpu": "A100-80GB-PCIE", "price": 12000, "busy_watts": 400, "idle_watts": 50, "life_years": 5}}},
])
def test_real_quotes_are_not_warned_of(onprem):
    assert price_warnings(onprem) == {}


def test_a_custom_card_at_half_a_million_usd_is_warned_of():
    said = price_warnings({"custom_cards": {"mine": {"gpu": "A100-80GB-PCIE", "price": 500000, "currency": "USD",
                                                     "busy_watts": 400, "idle_watts": 50, "life_years": 5}}})
    assert said["onprem.custom_cards.mine.price"].startswith(
        "onprem.custom_cards.mine.price: 500,000 USD for one card is more than any GPU sells for")


def test_a_quote_of_0_is_said_to_make_the_cards_free():
    said = price_warnings({"card_overrides": {"a100-80gb-pcie": {"price": 0}}})
    assert said == {"onprem.card_overrides.a100-80gb-pcie.price": (
        "onprem.card_overrides.a100-80gb-pcie.price: 0 USD a card: the plan takes such cards as free and buys as many as "
        "save anything; expected the price of one card (leave it out for the catalog's)")}


def test_a_whole_boards_price_in_a_per_gpu_field_is_said_with_the_gpus_price():
    """hgx-h100-8gpu's source is a 317,000 USD quote for the 8-GPU server, its catalog price 39,625 a GPU: 317,000
    typed as the card's price is 8 times it, a whole board's; one GPU's is 317,000 / 8 = 39,625."""
    s = scenario({"card_overrides": {"hgx-h100-8gpu": {"price": 317000}}})
    s["onprem"]["cards"] = ["hgx-h100-8gpu"]
    said = {".".join(f): t for f, t in plausibility_warnings(load_scenario(s)) if f[-1] == "price"}
    assert said == {"onprem.card_overrides.hgx-h100-8gpu.price": (
        "onprem.card_overrides.hgx-h100-8gpu.price: 317,000 USD is 8 times the catalog's price of hgx-h100-8gpu "
        "(39,625 USD a GPU, 2024-08-22), about a whole 8-GPU board's: the price is per GPU (the plan buys 8 at a time); "
        "for a board at 317,000 USD, write 39625")}


def test_no_unit_is_offered_where_none_explains_the_quote():
    """500 USD for an 11,500 USD A100 is 1/23 of it; in thousands it would be 500,000, 43 times it: no hint."""
    said = price_warnings({"card_overrides": {"a100-80gb-pcie": {"price": 500}}})
    assert said["onprem.card_overrides.a100-80gb-pcie.price"].endswith(
        "is 1/23 of the catalog's price of a100-80gb-pcie (11,500 USD, 2026-03-20); expected the price of one card in USD")


def test_a_quote_below_any_gpus_price_for_a_card_without_a_catalog_price():
    """12 EUR for an L40S (no catalog price) is 13.04 USD at 0.92 EUR a USD, under 50 USD: in thousands, 12,000."""
    said = price_warnings({"card_overrides": {"l40s": {"price": 12, "currency": "EUR"}}})
    assert said == {"onprem.card_overrides.l40s.price": (
        "onprem.card_overrides.l40s.price: 12 EUR (13.04 USD) for one card is less than any GPU sells for (the cheapest "
        "in the catalog is about 340 USD); expected the price of one card in EUR: if it is in thousands, write 12000")}
