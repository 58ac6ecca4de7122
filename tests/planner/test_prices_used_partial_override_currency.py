"""A card override quoting the price alone (or the host share alone) in another currency than the catalog card's leaves
the other amount to the catalog, in the catalog's currency, converted at that currency's rate; the plan's prices_used
gave only the quote's currency and rate, so the capex could not be redone (a known problem, 2026-12). It now names the
catalog's currency and rate of the amount left to it, as catalog_currency and catalog_fx_rate.

Figures by hand from planner/data/onprem_cards.csv: rtx-3060-12gb is priced in CNY with a host share of 5,400 CNY a
card; rtx-4060-ti-16gb in USD (499, host share 750 USD). In a USD scenario with fx EUR 1.1 and CNY 0.14:
- rtx-3060-12gb {price: 300, currency: EUR}: 300 x 1.1 + 5,400 x 0.14 = 330 + 756 = 1,086 USD;
- rtx-4060-ti-16gb {price: 400, currency: EUR}: 400 x 1.1 + 750 x 1 = 1,190 USD;
- rtx-3060-12gb {host_cost_per_card: 100, currency: EUR}: the catalog's 2,500 CNY x 0.14 + 100 x 1.1 = 350 + 110 = 460.
"""

from __future__ import annotations

import math

import pytest

from planner import plan
from planner.reports.tables import plan_to_dict, prices_used

HEAD = """\
name: partial override
currency: USD
horizon_months: 12
discount_rate: 0.0
fx: {CNY: 0.14, EUR: 1.1}
prices:
  providers: [aws]
  regions: [us-east-1]
  purchase_options: [on_demand]
onprem:
  cards: [CARD]
  card_overrides:
    CARD: QUOTE
constraints:
  min_units: {CARD: 1}
workloads:
  - {name: a, reference_gpus: 1, reference_gpu: RTX-3060-12GB}
"""


def card_row(card: str, quote: str) -> dict:
    p = plan(HEAD.replace("CARD", card).replace("QUOTE", quote), baselines=False)
    return prices_used(p).set_index("sku").loc[card].to_dict()


@pytest.mark.parametrize(("card", "quote", "capex", "quoted", "left"), [
    ("rtx-3060-12gb", "{price: 300, currency: EUR}", 1086.0, (300.0, "EUR", 1.1), ("CNY", 0.14)),
    ("rtx-4060-ti-16gb", "{price: 400, currency: EUR}", 1190.0, (400.0, "EUR", 1.1), ("USD", 1.0)),
])
def test_the_host_share_left_to_the_catalog_names_its_currency_and_rate(card, quote, capex, quoted, left):
    row = card_row(card, quote)
    assert row["capex_per_unit"] == pytest.approx(capex)
    assert (row["quoted_price"], row["quoted_currency"], row["fx_rate"]) == quoted
    assert math.isnan(row["quoted_host_cost_per_card"])   # the catalog's
    assert (row["catalog_currency"], row["catalog_fx_rate"]) == left


def test_the_price_left_to_the_catalog_names_its_currency_and_rate():
    row = card_row("rtx-3060-12gb", "{host_cost_per_card: 100, currency: EUR}")
    assert row["capex_per_unit"] == pytest.approx(460.0)
    assert (row["quoted_host_cost_per_card"], row["quoted_currency"], row["fx_rate"]) == (100.0, "EUR", 1.1)
    assert (row["catalog_currency"], row["catalog_fx_rate"]) == ("CNY", 0.14)


@pytest.mark.parametrize("quote", ["{price: 300, host_cost_per_card: 100, currency: EUR}",   # both quoted
                                   "{price: 2000}",                                        # in the catalog's CNY
                                   "{life_years: 4}"])                                     # no amount quoted
def test_nothing_left_to_the_catalog_in_another_currency_leaves_the_columns_blank(quote):
    row = card_row("rtx-3060-12gb", quote)
    assert row["catalog_currency"] is None and math.isnan(row["catalog_fx_rate"])


def test_the_json_rows_carry_them():
    p = plan(HEAD.replace("CARD", "rtx-3060-12gb").replace("QUOTE", "{price: 300, currency: EUR}"), baselines=False)
    row = next(r for r in plan_to_dict(p)["prices_used"] if r["sku"] == "rtx-3060-12gb")
    assert (row["catalog_currency"], row["catalog_fx_rate"]) == ("CNY", 0.14)
