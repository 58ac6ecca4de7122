"""A card_overrides quote given without a currency is read in the catalog card's currency (docs/scenario-format.md), and
in a scenario of another currency converted at its fx rate without a word (an audit): an EUR scenario with
`card_overrides: {rtx-4090: {price: 1900}}` planned the card at 1,900 USD x 1.09 = 2,071 EUR, `validate` said
nothing, and the plan's prices_used gave no quoted_currency or fx_rate, so the figure could not be redone.

The default stays (changing it would change existing files' plans); validate and plan now say where it converts,
and prices_used names the currency and rate applied.

Figures by hand from planner/data/onprem_cards.csv: rtx-4090 is priced in USD (1,669.99, host share 750 USD a card);
rtx-3060-12gb in CNY. 1,900 USD x 1.09 = 2,071 EUR; 600 USD x 1.09 = 654 EUR; capex of the quoted 4090 in EUR:
(1,900 + 750) x 1.09 = 2,888.5; 2,200 CNY x 0.14 = 308 USD.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import card_quotes, plan_to_json, prices_used
from planner.scenario.cost_basis import scenario_cost_warnings
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]

# the auditor's t6.yaml, as a user wrote it: the override on line 16, `price` at column 16
T6 = """\
name: Berlin ML team fleet
currency: EUR
horizon_months: 36
discount_rate: 0.08
fx: {USD: 1.09}
prices:
  providers: [aws, azure]
  regions: [eu-central-1, westeurope]
onprem:
  electricity_per_kwh: 0.28
  cards: [rtx-4090]
  existing: {rtx-3090: 4}
  power_cap_kw: 8
  capex_budget: 80000
  card_overrides:
    rtx-4090: {price: 1900}
workloads:
  - name: finetune-7b
    gpu_hours_per_month: 1200
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 24
    growth_per_month: 0.03
"""

SAID_4090 = ("onprem.card_overrides.rtx-4090.price: 1,900 read as USD (the catalog card's currency: the override gives "
             "none), converted at 1.09 EUR per USD (fx.USD) = 2,071 EUR; if the quote is in EUR, add currency: EUR to "
             "onprem.card_overrides.rtx-4090")


def scenario(override: dict, currency: str = "EUR", fx: dict | None = None, card: str = "rtx-4090") -> dict:
    return {"name": "quote", "currency": currency, "horizon_months": 12, "fx": {"USD": 1.09} if fx is None else fx,
            "prices": {"providers": ["aws"], "regions": ["eu-central-1"]},
            "onprem": {"electricity_per_kwh": 0.28, "pue": 1.4, "availability": 0.95, "cards": [card],
                       "card_overrides": {card: override}},
            "workloads": [{"name": "w", "gpu_hours_per_month": 500, "reference_gpu": "RTX-4090",
                           "min_gpu_memory_gb": 8}]}


def currency_warnings(found) -> list:
    return [w for w in found if "card_overrides" in (w if isinstance(w, str) else w[1])]


def catalog_rows() -> dict[str, dict]:
    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(encoding="utf-8", newline="") as fh:
        return {row["card_id"]: row for row in csv.DictReader(fh)}


def test_validate_says_at_the_price_that_1_900_is_read_as_usd_and_converted_to_2_071_eur(tmp_path):
    rows = catalog_rows()   # the premise: the figures above
    assert (rows["rtx-4090"]["currency"], rows["rtx-4090"]["host_cost_per_card"]) == ("USD", "750")
    path = tmp_path / "t6.yaml"
    path.write_text(T6, encoding="utf-8")
    result = run("validate", path, "--format", "json")
    assert result.exit_code == 0, result.output
    problems = {p["field"]: p for p in json.loads(result.stdout)["files"][0]["problems"]}
    said = problems["onprem.card_overrides.rtx-4090.price"]
    assert (said["severity"], said["line"], said["column"]) == ("warning", 16, 16)
    assert said["message"] == SAID_4090.split(": ", 1)[1]
    shown = run("validate", path)
    assert shown.exit_code == 0, shown.output
    assert f"{path}:16:16: {SAID_4090}" in shown.output


def test_the_plan_warns_and_its_prices_used_name_usd_at_1_09(tmp_path):
    result = plan(T6, baselines=False)
    assert currency_warnings(result.warnings) == [SAID_4090]
    used = {r["sku"]: r for r in json.loads(plan_to_json(result))["prices_used"]}
    card = used["rtx-4090"]   # bought: the premise of the audit
    assert card["capex_per_unit"] == pytest.approx(2888.5)
    assert (card["quoted_price"], card["quoted_currency"], card["fx_rate"]) == (1900.0, "USD", 1.09)
    assert card["quoted_price"] * card["fx_rate"] + 750 * card["fx_rate"] == pytest.approx(card["capex_per_unit"])
    assert "1,900 USD at 1.09 EUR per USD" in plan_to_markdown(result)
    # the CLI's plan prints it too
    path = tmp_path / "t6.yaml"
    path.write_text(T6, encoding="utf-8")
    shown = run("plan", path, "--no-baselines", "--no-decisions")
    assert shown.exit_code == 0, shown.output
    assert SAID_4090 in " ".join(shown.output.split())


def test_only_amounts_converted_from_the_catalog_s_currency_are_warned_of():
    assert currency_warnings(scenario_cost_warnings(load_scenario(scenario({"price": 1900})))) == [
        (("onprem", "card_overrides", "rtx-4090", "price"), SAID_4090)]
    # the quote names its currency, either one
    assert currency_warnings(scenario_cost_warnings(load_scenario(scenario({"price": 1900, "currency": "EUR"})))) == []
    assert currency_warnings(scenario_cost_warnings(load_scenario(scenario({"price": 1900, "currency": "USD"})))) == []
    # a USD scenario reads the USD catalog card's quote as it is: nothing converted
    assert currency_warnings(scenario_cost_warnings(load_scenario(scenario({"price": 1900}, currency="USD", fx={})))) == []
    # an override of other figures only quotes no money
    assert currency_warnings(scenario_cost_warnings(load_scenario(scenario({"life_years": 4})))) == []
    # a card given free: 0 is 0 in any currency
    assert currency_warnings(scenario_cost_warnings(load_scenario(scenario({"price": 0})))) == []


def test_a_host_share_alone_or_with_the_price_is_named_with_each_amount_converted():
    host = scenario_cost_warnings(load_scenario(scenario({"host_cost_per_card": 600})))
    assert currency_warnings(host) == [(("onprem", "card_overrides", "rtx-4090", "host_cost_per_card"),
                                        "onprem.card_overrides.rtx-4090.host_cost_per_card: 600 read as USD (the catalog "
                                        "card's currency: the override gives none), converted at 1.09 EUR per USD "
                                        "(fx.USD) = 654 EUR; if the quote is in EUR, add currency: EUR to "
                                        "onprem.card_overrides.rtx-4090")]
    both = currency_warnings(scenario_cost_warnings(load_scenario(scenario({"price": 1900, "host_cost_per_card": 600}))))
    assert [field for field, _ in both] == [("onprem", "card_overrides", "rtx-4090", "price")]
    assert "rtx-4090.price: price 1,900 and host_cost_per_card 600 read as USD" in both[0][1]
    assert "= 2,071 and 654 EUR;" in both[0][1]


def test_a_cny_catalog_card_quoted_in_a_usd_scenario_is_read_as_cny():
    assert catalog_rows()["rtx-3060-12gb"]["currency"] == "CNY"   # the premise
    found = scenario_cost_warnings(load_scenario(scenario({"price": 2200}, currency="USD", fx={"CNY": 0.14},
                                                          card="rtx-3060-12gb")))
    assert currency_warnings(found) == [(("onprem", "card_overrides", "rtx-3060-12gb", "price"),
                                         "onprem.card_overrides.rtx-3060-12gb.price: 2,200 read as CNY (the catalog "
                                         "card's currency: the override gives none), converted at 0.14 USD per CNY "
                                         "(fx.CNY) = 308 USD; if the quote is in USD, add currency: USD to "
                                         "onprem.card_overrides.rtx-3060-12gb")]


def test_card_quotes_name_the_currency_read_and_its_rate_also_where_nothing_is_converted():
    eur = plan(scenario({"price": 1900}), baselines=False)
    row = card_quotes(eur).set_index("card").loc["rtx-4090"]
    assert (row["quoted_currency"], row["fx_rate"]) == ("USD", 1.09)
    usd = plan(scenario({"price": 1900}, currency="USD", fx={}), baselines=False)
    row = card_quotes(usd).set_index("card").loc["rtx-4090"]
    assert (row["quoted_currency"], row["fx_rate"]) == ("USD", 1.0)
    used = prices_used(usd).set_index("sku").loc["rtx-4090"]   # bought: 1,900 + 750 USD host share
    assert (used["capex_per_unit"], used["quoted_currency"], used["fx_rate"]) == (2650.0, "USD", 1.0)
    assert "1,900 USD" in plan_to_markdown(usd) and "in the catalog card's currency" not in plan_to_markdown(usd)
