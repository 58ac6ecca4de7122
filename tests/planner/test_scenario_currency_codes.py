"""A scenario's currency, its fx keys and a card's currency are codes of ISO 4217 list one (pricing_adapters/data/
currencies.csv), not any three capital letters: a review of hostile input (2026-12) validated `currency: XYZ` with
`fx: {USD: 0.9}`, and a typo such as EUE for EUR passed, labelling every cost of the plan in a currency that does not
exist."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from test_scenario_limits import HEAD, WORKLOAD
from test_scenario_limits import problems_of as problems

from planner.errors import ScenarioError
from planner.scenario import load_scenario
from planner.scenario.loading import NO_MINOR_UNIT, THOUSANDTHS_MINOR_UNIT, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]

CODE_SAID = "expected an ISO 4217 currency code (pricing_adapters/data/currencies.csv)"


@pytest.mark.parametrize(("code", "hint"), [
    ("XYZ", ""),                              # nothing one letter off: no guess
    ("EUE", "; did you mean 'EUR'?"),         # one letter off
    ("GPB", "; did you mean 'GBP'?"),         # two letters swapped (difflib alone offered PAB, the balboa)
    ("USB", "; did you mean 'USD'?"),         # one letter off, the beginning kept (difflib alone offered UZS)
    ("RMB", "; did you mean 'CNY'?"),         # the renminbi's name, no code
])
def test_the_scenario_currency_is_an_iso_4217_code(code, hint):
    text = HEAD + f"currency: {code}\nfx: {{USD: 0.9}}\n" + WORKLOAD
    # "currency: " is 10 characters: the value starts at column 11 of line 4
    assert problems(text) == [f"s.yaml:4:11: currency: {CODE_SAID}, got '{code}'{hint}"]


def test_a_code_in_small_letters_is_sent_to_the_iso_code_it_is_nearest():
    # 'eur' spells EUR; 'eue' spelt EUE, which is no code, and the hint offered it
    assert problems(HEAD + "currency: eue\nfx: {USD: 0.9}\n" + WORKLOAD) == [
        "s.yaml:4:11: currency: expected a currency code of three capital letters (ISO 4217), got 'eue'; "
        "did you mean 'EUR'?"]


def test_an_fx_key_is_an_iso_4217_code():
    text = HEAD + "currency: EUR\nfx: {USD: 0.9, GPB: 1.2}\n" + WORKLOAD
    # "fx: {USD: 0.9, " is 15 characters: the key GPB starts at column 16
    assert problems(text) == [f"s.yaml:5:16: fx.GPB: {CODE_SAID}, got 'GPB'; did you mean 'GBP'?"]


def test_a_card_overrides_currency_is_an_iso_4217_code_and_asks_for_no_rate():
    # before, the override said 'XYZ' and the file was told to add fx: {XYZ: …}, a rate of no currency
    text = HEAD + "onprem:\n  cards: [rtx-4090]\n  card_overrides:\n    rtx-4090: {price: 2000, currency: EUE}\n" + WORKLOAD
    # "    rtx-4090: {price: 2000, currency: " is 38 characters
    assert problems(text) == [
        f"s.yaml:7:39: onprem.card_overrides.rtx-4090.currency: {CODE_SAID}, got 'EUE'; did you mean 'EUR'?"]


def test_a_custom_cards_currency_is_an_iso_4217_code():
    card = ("onprem:\n  custom_cards:\n    mine: {gpu: T4, price: 900, currency: JYP, busy_watts: 120, idle_watts: 20, "
            "life_years: 4}\n")
    # "    mine: {gpu: T4, price: 900, currency: " is 42 characters
    assert problems(HEAD + card + WORKLOAD) == [
        f"s.yaml:6:43: onprem.custom_cards.mine.currency: {CODE_SAID}, got 'JYP'; did you mean 'JPY'?"]


def test_real_codes_still_load():
    text = HEAD + ("currency: EUR\nfx: {USD: 0.92, JPY: 0.0061, CHF: 1.05}\nonprem:\n  cards: [rtx-4090]\n"
                   "  card_overrides:\n    rtx-4090: {price: 250000, currency: JPY}\n") + WORKLOAD
    scenario = load_scenario_text(text, origin="s.yaml")
    assert scenario.currency == "EUR" and scenario.fx_rate("JPY") == 0.0061


def test_the_list_is_list_one_of_2026():
    from planner.scenario.model import iso_4217_codes

    codes = iso_4217_codes()
    # 178 codes since 2026-01-01: Bulgaria's lev (BGN) left for the euro, the Caribbean guilder (XCG) replaced the
    # Netherlands Antillean guilder (ANG, 2025-03-31), the Cuban convertible peso (CUC) was withdrawn
    assert len(codes) == 178
    assert {"USD", "EUR", "CNY", "JPY", "GBP", "XCG", "ZWG"} <= set(codes)
    assert not {"BGN", "ANG", "CUC", "HRK", "SLL"} & set(codes)


def test_the_list_agrees_with_the_minor_units_the_electricity_check_names():
    # loading.py lists by hand the codes whose minor unit is not the hundredth; the file gives each code's
    from pricing_adapters.currencies import list_one

    minor = {row["code"]: row["minor_unit"] for row in list_one()}
    assert {c for c, m in minor.items() if m == "0"} == NO_MINOR_UNIT
    # the Iraqi dinar's fils are in ISO but unused (MINOR_UNIT_UNUSED)
    assert {c for c, m in minor.items() if m == "3"} == THOUSANDTHS_MINOR_UNIT | {"IQD"}


# --- a withdrawn code (ISO 4217 list three, read by hand: BULGARIA, Bulgarian Lev, BGN, 2026-01; CROATIA, Kuna, HRK,
# 2023-01; list one gives Bulgaria and Croatia EUR) says so, rather than sending BGN to BND and HRK to KHR

BGN_SAID = "BGN, the Bulgarian Lev, was withdrawn in January 2026: did you mean 'EUR', the code in use there now?"


def test_a_withdrawn_currency_says_when_and_the_code_in_use_there_now():
    # was "…, got 'HRK'; did you mean 'KHR'?": the Cambodian riel, its letters in another order
    assert problems(HEAD + "currency: HRK\nfx: {USD: 0.9}\n" + WORKLOAD) == [
        f"s.yaml:4:11: currency: {CODE_SAID}, got 'HRK'; HRK, the Kuna, was withdrawn in January 2023: did you mean "
        "'EUR', the code in use there now?"]


def test_a_withdrawn_fx_key_says_so():
    # was "…, got 'BGN'; did you mean 'BND'?", the Brunei dollar, after an offers CSV in BGN asked for fx: {BGN: …}
    assert problems(HEAD + "currency: USD\nfx: {BGN: 0.55}\n" + WORKLOAD) == [
        f"s.yaml:5:6: fx.BGN: {CODE_SAID}, got 'BGN'; {BGN_SAID}"]


def test_a_withdrawn_code_in_small_letters_says_so_too():
    assert problems(HEAD + "currency: bgn\nfx: {USD: 0.9}\n" + WORKLOAD) == [
        f"s.yaml:4:11: currency: expected a currency code of three capital letters (ISO 4217), got 'bgn'; {BGN_SAID}"]


def test_a_code_with_no_successor_in_list_one_is_said_withdrawn_without_one():
    # VENEZUELA (BOLIVARIAN REPUBLIC OF), Bolívar, VEF, 2018-08; list one gives Venezuela two codes, VES and VED
    assert problems(HEAD + "currency: VEF\nfx: {USD: 0.9}\n" + WORKLOAD) == [
        f"s.yaml:4:11: currency: {CODE_SAID}, got 'VEF'; VEF, the Bolívar, was withdrawn in August 2018"]


# --- the committed JSON Schema (what an editor checks) lists the codes: its pattern let EUE through

def committed_schema_errors(doc: dict) -> list[str]:
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text())
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]


@pytest.mark.parametrize("where", ["currency", "fx", "override", "custom"])
@pytest.mark.parametrize(("code", "valid"), [("EUR", True), ("XCG", True), ("EUE", False), ("BGN", False),
                                             ("eur", False)])
def test_the_schema_and_the_model_agree_on_every_currency_field(where, code, valid):
    doc = {"name": "t", "workloads": [{"name": "a", "gpu_hours_per_month": 100, "reference_gpu": "T4"}],
           "currency": "USD", "fx": {"EUR": 1.1, "XCG": 0.55}}
    if where == "currency":
        doc["currency"] = code
        doc["fx"] = {"USD": 0.9}
    elif where == "fx":
        doc["fx"] = {code: 1.1}
    elif where == "override":
        doc["onprem"] = {"cards": ["rtx-4090"], "card_overrides": {"rtx-4090": {"price": 2000, "currency": code}}}
    else:
        doc["onprem"] = {"custom_cards": {"mine": {"gpu": "T4", "price": 900, "currency": code, "busy_watts": 120,
                                                   "idle_watts": 20, "life_years": 4}}}
    assert (not committed_schema_errors(doc)) is valid, committed_schema_errors(doc)
    if valid:
        load_scenario(doc)
    else:
        with pytest.raises(ScenarioError):
            load_scenario(doc)


def test_the_schema_lists_list_one():
    from pricing_adapters.currencies import iso_4217_codes

    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text())
    assert schema["$defs"]["CurrencyCode"]["enum"] == list(iso_4217_codes())


# --- offers that bypassed validate_offers in a withdrawn currency are not sent to an fx key the scenario refuses

def test_cloud_offers_in_a_withdrawn_currency_are_not_sent_to_fx():
    from planner.catalog.offers import cloud_rows
    from planner.errors import PricesRefuteScenario
    from pricing_adapters.snapshot import read_offers_csv

    table = read_offers_csv(str(ROOT / "examples" / "offers-g5-us-east-1.csv")).assign(currency="BGN")
    scenario = load_scenario_text(HEAD + WORKLOAD, origin="s.yaml")
    with pytest.raises(PricesRefuteScenario) as info:
        cloud_rows(scenario, table, "offers.csv")
    # was "fx: offers in the offers.csv prices are priced in BGN, which fx has no rate for; add fx: {BGN: <USD per 1
    # BGN>}"
    assert str(info.value) == (f"prices.source: offers.csv: offers are priced in 'BGN', not a code of ISO 4217 list "
                               f"one ({BGN_SAID}), which fx cannot give a rate for; price them in a current currency")
