"""Scenario-input messages from an audit of a new EUR scenario (2026-12-07): a misspelt file offered the wrong file,
numbers inside a mapping (fx, throughput) and values with their unit or currency written out got no "did you mean",
a rate written the wrong way round under the scenario's own currency was not recognised, and plausibility hints that
convert with an implausible rate blamed another field. The numbers meant are worked out by hand in each test."""

from __future__ import annotations

import pytest

from planner import load_scenario
from planner.errors import ScenarioError
from planner.scenario.loading import load_scenario_text

# the audit's scenario (/tmp/auditcopy/my/team.yaml), trimmed to what the messages need
TEAM = """\
name: Vision platform team 2027
currency: EUR
fx: {USD: 0.92}
horizon_months: 48
discount_rate: 0.06
onprem:
  electricity_per_kwh: 0.25
  cards: [rtx-4090, l40s, a100-80gb-pcie]
  existing:
    rtx-3090: {count: 4, age_months: 12}
  purchase_every_months: 3
  capex_budget: 60000
  power_cap_kw: 10
workloads:
  - name: cnn-training
    gpu_hours_per_month: 1200
    reference_gpu: RTX-4090
  - name: inference
    reference_gpus: 2
    reference_gpu: L40S
    serving: true
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "s.yaml")
    return caught.value.problems


def edited(old: str, new: str) -> str:
    assert old in TEAM
    return TEAM.replace(old, new)


# 1. a misspelt file name


def test_a_yml_name_is_offered_the_yaml_file_of_the_same_name(tmp_path):
    # "team.yml" with team.yaml and teamB.yaml beside it offered teamB.yaml: ".yaml" names were compared whole with
    # "team", and "teamB.yaml" is spelt closer to it than "team.yaml"
    folder = tmp_path / "my"
    folder.mkdir()
    (folder / "team.yaml").write_text(TEAM, encoding="utf-8")
    (folder / "teamB.yaml").write_text(TEAM, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(folder / "team.yml")
    assert caught.value.problems == [f"{folder}/team.yml: file not found; did you mean '{folder}/team.yaml'?"]
    with pytest.raises(ScenarioError) as caught:
        load_scenario(folder / "teamb.yml")
    assert caught.value.problems == [f"{folder}/teamb.yml: file not found; did you mean '{folder}/teamB.yaml'?"]


# 2. numbers inside a mapping: the hints the scalar fields get


@pytest.mark.parametrize("old, new, field, got, hint", [
    # 0,92 with a decimal point is 0.92; 92 % is 92 / 100 = 0.92; 0,8 is 0.8
    ("fx: {USD: 0.92}", "fx:\n  USD: 0,92", "fx.USD", "0,92", "did you mean 0.92? (a decimal point, not a comma)"),
    ("fx: {USD: 0.92}", "fx: {USD: 92%}", "fx.USD", "92%", "did you mean 0.92 (92 %)?"),
    ("    reference_gpu: L40S\n", "    reference_gpu: L40S\n    throughput:\n      L40S: 0,8\n",
     "workloads[1].throughput.L40S", "0,8", "did you mean 0.8? (a decimal point, not a comma)"),
    ("    reference_gpu: L40S\n", "    reference_gpu: L40S\n    throughput: {L40S: 1, rtx-4090: 80%}\n",
     "workloads[1].throughput.rtx-4090", "80%", "did you mean 0.8 (80 %)?"),
])
def test_a_number_in_a_mapping_gets_the_hint_a_field_gets(old, new, field, got, hint):
    (problem,) = problems(edited(old, new))
    assert f": {field}: expected a number, got '{got}'; {hint}" in problem
    assert problem.endswith(hint)


def test_a_whole_number_in_a_mapping_gets_the_thousands_hint():
    # min_units: {l40s: 1,000} is 1000 units written with a separator
    text = TEAM + "constraints:\n  min_units: {l40s: '1,000'}\n"
    (problem,) = problems(text)
    assert problem.endswith("constraints.min_units.l40s: expected a whole number, got '1,000'; did you mean 1000? "
                            "(a number without thousands separators)")


# 3. values with their unit or currency written out


@pytest.mark.parametrize("written, hint", [
    # the scenario's own currency per kWh: the number alone
    ("0.25 EUR/kWh", "did you mean 0.25? (an amount is the number alone, in the scenario's currency)"),
    ("0.25 € per kWh", "did you mean 0.25? (an amount is the number alone, in the scenario's currency)"),
    # 25 cents is 25 / 100 = 0.25 of a euro
    ("25 ct", "did you mean 0.25? (25 ct: an amount is the number alone, in whole units of the scenario's currency)"),
    ("25 ct/kWh", "did you mean 0.25? (25 ct: an amount is the number alone, in whole units of the scenario's currency)"),
    # dollars in an EUR scenario with fx.USD 0.92 (EUR per USD): 0.12 × 0.92 = 0.1104 EUR
    ("0.12 $/kWh", "did you mean 0.1104? (the field is in EUR, the scenario's currency: 0.12 USD at your fx.USD 0.92 "
                   "is 0.1104 EUR; an amount is the number alone)"),
    # pounds with no rate: no number is guessed
    ("0.12 GBP", "the field is in EUR: write 0.12 GBP converted to EUR, the number alone"),
    # ¥ is the yen's sign and the yuan's
    ("12 ¥", "¥ is JPY or CNY, and the field is in EUR: write 12 JPY or CNY converted to EUR, the number alone"),
])
def test_an_electricity_price_with_its_unit_written_out(written, hint):
    (problem,) = problems(edited("electricity_per_kwh: 0.25", f"electricity_per_kwh: {written}"))
    assert problem.startswith(f"s.yaml:7:24: onprem.electricity_per_kwh: expected a number, got '{written}'; ")
    assert problem.endswith(f"; {hint}")


def test_a_price_per_another_unit_gets_no_guess():
    # 0.12 $ per MWh is not 0.12 of anything per kWh
    (problem,) = problems(edited("electricity_per_kwh: 0.25", "electricity_per_kwh: 0.12 $/MWh"))
    assert problem.endswith("expected a number, got '0.12 $/MWh'")


@pytest.mark.parametrize("written, hint", [
    ("60,000 EUR", "did you mean 60000? (an amount is the number alone, in the scenario's currency)"),
    ("€60 000", "did you mean 60000? (an amount is the number alone, in the scenario's currency)"),
    # 60,000 USD × 0.92 EUR per USD = 55,200 EUR
    ("60,000 USD", "did you mean 55200? (the field is in EUR, the scenario's currency: 60,000 USD at your fx.USD 0.92 "
                   "is 55,200 EUR; an amount is the number alone)"),
])
def test_a_budget_with_separators_and_its_currency(written, hint):
    (problem,) = problems(edited("capex_budget: 60000", f"capex_budget: {written}"))
    assert problem.startswith(f"s.yaml:12:17: onprem.capex_budget: expected a number, got '{written}'; ")
    assert problem.endswith(f"; {hint}")


@pytest.mark.parametrize("override, hint", [
    # the override's price is in its own `currency`, USD: 1,900 $ is 1900 there, not converted to the scenario's EUR
    ("{price: '1,900 $', currency: USD}",
     "did you mean 1900? (an amount is the number alone, in the override's `currency`, else the catalog card's currency)"),
    # an override priced in EUR: 1,900 USD × 0.92 = 1,748 EUR
    ("{price: '1,900 $', currency: EUR}",
     "did you mean 1748? (the field is in EUR, the scenario's currency: 1,900 USD at your fx.USD 0.92 is 1,748 EUR; "
     "an amount is the number alone)"),
])
def test_a_card_price_is_read_in_the_cards_own_currency(override, hint):
    (problem,) = problems(edited("  cards: [", f"  card_overrides:\n    rtx-4090: {override}\n  cards: ["))
    assert problem.startswith("s.yaml:9:23: onprem.card_overrides.rtx-4090.price: expected a number, got '1,900 $'; ")
    assert problem.endswith(f"; {hint}")


@pytest.mark.parametrize("written, meant", [("quarterly", 3), ("monthly", 1), ("yearly", 12), ("Annually", 12)])
def test_how_often_in_words(written, meant):
    (problem,) = problems(edited("purchase_every_months: 3", f"purchase_every_months: {written}"))
    assert problem.endswith(f"onprem.purchase_every_months: expected a whole number, got '{written}'; "
                            f"did you mean {meant}? ({written})")


@pytest.mark.parametrize("written, hint", [("€", "did you mean EUR?"), ("$", "did you mean USD?"),
                                           ("£", "did you mean GBP?"), ("¥", "did you mean JPY or CNY? (¥ is the sign of each)")])
def test_a_currency_written_as_its_sign(written, hint):
    (problem,) = problems(edited("currency: EUR", f"currency: '{written}'"))
    assert problem.startswith("s.yaml:2:11: currency: expected a currency code of three capital letters (ISO 4217)")
    assert problem.endswith(f"; {hint}")


# 4. a rate written under the scenario's own currency


@pytest.mark.parametrize("own, meant", [("1.087", "0.92"), ("1.1", "0.91")])
def test_a_rate_turned_round_under_the_scenarios_currency(own, meant):
    # USD per 1 EUR written as fx.EUR: 1 / 1.087 = 0.91996 (0.92 to the 4 digits given: 0.9200);
    # 1 / 1.1 = 0.909 (0.91 to 2 digits)
    (problem,) = problems(edited("fx: {USD: 0.92}", f"fx: {{EUR: {own}}}"))
    assert problem.startswith("s.yaml:3:5: fx: cloud offers and cards ")
    assert problem.endswith(f"priced in USD; add its rate, e.g. fx: {{USD: <EUR per 1 USD>}}; did you mean fx: "
                            f"{{USD: {meant}}}? (fx.EUR {own} looks like USD per 1 EUR, the rate turned round: rates are "
                            f"EUR per 1 USD, 1 / {own})")


def test_no_rate_is_guessed_where_two_currencies_lack_one():
    # fx.EUR may be the dollar's rate or the pound's turned round: no guess
    text = edited("  cards: [", "  custom_cards:\n    mine: {gpu: L4, price: 2500, currency: GBP, busy_watts: 72, "
                                "idle_watts: 20, life_years: 4}\n  cards: [")
    found = problems(text.replace("fx: {USD: 0.92}", "fx: {EUR: 1.087}"))
    assert len(found) == 2
    assert all("add its rate" in p and "did you mean" not in p for p in found)


# 5. plausibility hints that convert with a rate implausible_fx warns of


def warnings_of(text: str) -> dict:
    import yaml

    from planner.scenario.loading import plausibility_warnings_as_written
    return {tuple(at): said for at, said in plausibility_warnings_as_written(yaml.safe_load(text))}


CNY = """\
name: c
currency: CNY
fx: {USD: RATE}
onprem:
  electricity_per_kwh: PRICE
  cards: [rtx-4090]
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: RTX-4090}
"""


def test_an_electricity_price_is_not_blamed_for_a_rate_turned_round():
    # fx.USD 0.1375 is USD per CNY (1 / 7.27), warned of; 0.8 CNY a kWh at it is 0.8 / 0.1375 = 5.8 USD, which the
    # price check blamed on the price
    found = warnings_of(CNY.replace("RATE", "0.1375").replace("PRICE", "0.8"))
    assert ("fx", "USD") in found
    assert ("onprem", "electricity_per_kwh") not in found


def test_an_electricity_price_is_still_judged_at_a_plausible_rate():
    # 80 CNY a kWh at 7.27 CNY per USD is 80 / 7.27 = 11 USD: more than grid electricity costs anywhere
    found = warnings_of(CNY.replace("RATE", "7.27").replace("PRICE", "80"))
    assert ("fx", "USD") not in found
    assert "is more than grid electricity costs anywhere" in found[("onprem", "electricity_per_kwh")]


def test_a_rate_warned_of_in_another_currency_is_left_out_too():
    # the audit's fx.USD 0.0092 in an EUR scenario (0.25 EUR a kWh read as 0.25 / 0.0092 = 27 USD): implausible_fx
    # warns of the rate (1/99.7 of the Federal Reserve's 0.91693 EUR per USD), and the price is not blamed for it
    text = TEAM.replace("fx: {USD: 0.92}", "fx: {USD: 0.0092}")
    found = warnings_of(text)
    assert found[("fx", "USD")].startswith("fx.USD: at 0.0092 the scenario's rates give 0.0092 EUR per USD, 1/99.7 of")
    assert ("onprem", "electricity_per_kwh") not in found


def test_a_card_quote_in_the_catalogs_currency_is_judged_without_the_doubted_rate():
    # rtx-4090 is 1,669.99 USD in the catalog; a quote of 166,999 USD is 100 times it whatever the rate: still said
    text = (CNY.replace("RATE", "0.1375").replace("PRICE", "0.8")
            .replace("  cards: [rtx-4090]", "  cards: [rtx-4090]\n  card_overrides: {rtx-4090: {price: 166999}}"))
    found = warnings_of(text)
    assert ("fx", "USD") in found
    assert "is 100 times the catalog's price of rtx-4090" in found[("onprem", "card_overrides", "rtx-4090", "price")]


def test_an_amount_in_dollars_is_not_converted_at_a_rate_turned_round():
    # 0.8 $ at fx.USD 0.1375 would be 0.11 CNY, the rate being USD per CNY: no number is offered
    (problem,) = problems(CNY.replace("RATE", "0.1375").replace("PRICE", "0.8 $"))
    assert problem.endswith("got '0.8 $'; the field is in CNY: write 0.8 USD converted to CNY, the number alone")


def test_three_capital_letters_that_are_no_currency_keep_the_plain_hint():
    # "KWH" is no ISO 4217 code: nothing to convert, the number alone as before
    (problem,) = problems(edited("electricity_per_kwh: 0.25", "electricity_per_kwh: 0.25 KWH"))
    assert problem.endswith("got '0.25 KWH'; did you mean 0.25? (an amount is the number alone, in the scenario's currency)")
