"""The purchase schedule (Plan.schedule) carries the resale credit of the cards still in service at the end of the
plan: an `end value` row in month H+1, the month the cost model credits it (docs/cost-model.md §6), so its amounts
add up to capex plus residual value, per card and in total (nominal). An audit (2026-12) found it left out:
startup-hybrid's schedule credited −1,106 where the residual value was −4,406 (at 0.14 USD/CNY; the A100's −3,300
in month 37 was in the monthly table and `costs`, nowhere in the schedule), and a 60-month declining-balance plan
showed one −78.125 credit where the monthly table has two.

Figures by hand from docs/cost-model.md §6: R(t) = K × σ × book(t), straight line book(t) = 1 − t / (12 × L),
declining balance book(t) = (1 − 2/L)^(t/12); a card bought in month s and still in service at the end is t = H+1 − s
months old in month H+1, an owned card α + H.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.engine import plan

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"         # one RTX A5000, K = 2,000 + 500 USD, 4-year life, H = 24
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"

A5000_USD = 2000 + 500
A5000_AT_24_MONTHS = 0.5 * A5000_USD * (1 - 24 / 48)                  # 625: straight line, half of book
A5000_AT_48_MONTHS_DECLINING = 0.5 * A5000_USD * (1 - 2 / 4) ** (48 / 12)   # 78.125
A100_USD = 14000 + 2500                                              # startup-hybrid's quote, host included
RTX_4090_USD = 1669.99 + 750                                         # the catalog's price (2023-11-23) and host share
RTX_3060_USD = (2500 + 5400) * 0.13749                               # 2,500 + 5,400 CNY host at the scenario's 0.13749
A100_AT_36_MONTHS = 0.5 * A100_USD * (1 - 36 / 60)                   # 3,300: 5-year life
OWNED_3060_SALE = 2 * 0.5 * RTX_3060_USD * (1 - 0 / 36)              # 1,086.171: two, new, sold in month 1


@pytest.fixture(scope="module")
def startup():
    return plan(STARTUP, baselines=False)


def _rows(p, action: str):
    return p.schedule[p.schedule["action"] == action]


def _capex_and_residual_by_card(p) -> dict[str, float]:
    """The plan's capex plus residual value per card, nominal, from its cash flows (what the monthly table and
    `costs` sum)."""
    flows = p.flows[p.flows["category"].isin(["capex", "residual_value"])]
    return flows.groupby("sku")["cost"].sum().to_dict()


def test_worked_example_s_card_still_working_at_month_24_is_credited_625_usd_in_month_25():
    p = plan(WORKED, baselines=False)
    end = _rows(p, "end value")
    assert end[["month", "card", "units"]].values.tolist() == [[25, "rtx-a5000", 1]]
    assert end["amount"].tolist() == pytest.approx([-A5000_AT_24_MONTHS]) and A5000_AT_24_MONTHS == 625
    assert end["note"].tolist() == ["residual value at the end of the plan (24 months old)"]
    # capex 2,500 in month 1 less the 625 credit: what the monthly table sums, nominal
    assert p.schedule["amount"].sum() == pytest.approx(A5000_USD - A5000_AT_24_MONTHS) == 1875
    assert p.schedule["amount"].sum() == pytest.approx(p.monthly["capex"].sum() + p.monthly["residual_value"].sum())


def test_startup_hybrid_schedule_credits_add_up_to_the_residual_value_of_minus_4386_usd(startup):
    credits = startup.schedule.loc[startup.schedule["amount"] < 0]
    assert credits[["month", "card", "action", "units"]].values.tolist() == [
        [1, "rtx-3060-12gb", "sell", 2], [37, "a100-80gb-pcie", "end value", 1]]
    assert credits["amount"].tolist() == pytest.approx([-OWNED_3060_SALE, -A100_AT_36_MONTHS])
    assert credits["amount"].sum() == pytest.approx(-1086.171 - 3300) == pytest.approx(-4386.171)
    assert startup.cost("residual_value") == pytest.approx(-4386.171)
    # the RTX 4090 (3-year life) is at book value 0 in month 37: its end row says so, at 0
    rtx_4090 = _rows(startup, "end value").set_index("card").loc["rtx-4090"]
    assert (rtx_4090["month"], rtx_4090["units"], rtx_4090["amount"]) == (37, 1, 0.0)
    assert rtx_4090["note"] == "residual value at the end of the plan (36 months old): none"
    # bought in month 1 with a 36-month life, it works to month 36 and no further: its buy row says end of life,
    # the A100 (60-month life) is merely in service to the plan's end
    buys = _rows(startup, "buy").set_index("card")["note"].to_dict()
    assert buys == {"rtx-4090": "in service to month 36 (end of life)", "a100-80gb-pcie": "in service to month 36"}
    # capex 16,500 + 2,419.99 less the credits, in total and per card
    assert startup.schedule["amount"].sum() == pytest.approx(A100_USD + RTX_4090_USD - 4386.171)
    assert A100_USD + RTX_4090_USD - 4386.171 == pytest.approx(14533.819)
    by_card = startup.schedule.groupby("card")["amount"].sum().to_dict()
    assert by_card == pytest.approx({"a100-80gb-pcie": A100_USD - A100_AT_36_MONTHS, "rtx-4090": RTX_4090_USD,
                                     "rtx-3060-12gb": -OWNED_3060_SALE})
    assert by_card == pytest.approx(_capex_and_residual_by_card(startup))


def test_60_month_declining_balance_plan_has_both_78_125_usd_credits_retire_in_49_and_end_value_in_61():
    # the worked example over 60 months (cost-model.md §6): one A5000 bought in month 1 retires after month 48, one
    # bought in month 13 still serves at month 60 and is credited in month 61 at the same age, 48 months
    p = plan(WORKED, baselines=False, overrides={"horizon_months": 60, "onprem.resale.method": "declining_balance",
                                                 "onprem.capex_budget": None})
    credits = p.schedule.loc[p.schedule["amount"] < 0]
    assert credits[["month", "action", "units"]].values.tolist() == [[49, "retire", 1], [61, "end value", 1]]
    assert credits["amount"].tolist() == pytest.approx([-A5000_AT_48_MONTHS_DECLINING] * 2)
    assert A5000_AT_48_MONTHS_DECLINING == 78.125
    assert credits["amount"].sum() == pytest.approx(p.monthly["residual_value"].sum())
    assert p.schedule["amount"].sum() == pytest.approx(2 * A5000_USD - 2 * 78.125)


def test_owned_cards_kept_to_the_end_are_credited_at_their_age_then_12_plus_24_months():
    # two A5000s owned at 12 months old, not to be sold, none to buy: kept (or switched off) to the end, each worth
    # 0.5 × 2,500 × (1 − 36/48) = 312.5 in month 25; owned cards carry no capex
    p = plan(WORKED, baselines=False, overrides={"onprem.cards": [], "onprem.sell_owned": False,
                                                 "onprem.existing": {"rtx-a5000": {"count": 2, "age_months": 12}}})
    assert p.schedule[["month", "action", "units"]].values.tolist() == [[25, "end value", 2]]
    assert p.schedule["amount"].tolist() == pytest.approx([-2 * 0.5 * A5000_USD * (1 - 36 / 48)]) == [-625]
    assert p.schedule["note"].tolist() == ["residual value at the end of the plan (36 months old)"]
    assert p.schedule["amount"].sum() == pytest.approx(p.cost("residual_value"))
