"""The plan's `owned` table says what each owned batch held to the end is worth then (`end_value`, present value), and
the total's line reads its "of which … the end value of the cards owned before the plan" from that column, not from
the purchase schedule's note wording ("(1 month old"), which a change of words silently dropped.

By hand (docs/cost-model.md §6; planner/data/onprem_cards.csv: an RTX 3060 at (2,500 + 5,400) CNY × 0.13749 (the
scenario's sourced rate) = 1,086.171 USD, a 3-year life; startup-hybrid's resale rule, 0.5 × book value): a card t
months old is worth R(t) = 1,086.171 × 0.5 × book(t), book(t) = 1 − t/36 (straight line) or (1 − 2/3)^(t/12)
(declining balance), credited in month H+1 when still held at the end, discounted by d(H+1) = 1/(1 + r)^(H/12)."""

from pathlib import Path

import pytest

from planner import plan
from planner.engine import readback
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import owned_end_value_words

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "startup-hybrid.yaml"
FREE = {"baselines": False, "constraints__min_units": {}, "constraints__max_cloud_share": None}
K, SHARE = 7900 * 0.13749, 0.5   # the RTX 3060's capex (USD) and the share of book value a buyer pays


def owned_row(p) -> dict:
    (row,) = p.owned.to_dict("records")   # startup-hybrid owns one batch: two RTX 3060s
    assert row["card"] == "rtx-3060-12gb" and row["owned_units"] == 2
    return row


def test_kept_one_month_the_pair_is_worth_1056_00_usd():
    # new at month 1, one month old at the end, undiscounted (discount_rate 0): 2 × 1,086.171 × 0.5 × (1 − 1/36) = 1,056.00
    p = plan(SCENARIO, **FREE, horizon_months=1)
    row = owned_row(p)
    assert (row["kept"], row["switched_off"], row["sold"]) == (2, 0, 0)
    assert row["end_value"] == pytest.approx(1056.00, abs=0.005)
    assert list(p.owned.columns).index("end_value") == list(p.owned.columns).index("fixed_costs_avoided") + 1
    assert str(p.owned["end_value"].dtype) == "float64"
    # labelled as the table's other money column: a present value at the plan's rate (0 %/year here)
    assert p.owned.attrs["money_columns"] == dict.fromkeys(["fixed_costs_avoided", "end_value"],
                                                           "present value at 0%/year, undiscounted")


def test_switched_off_twelve_months_at_10_percent_is_658_29_usd():
    # selling not allowed, the pair switched off: 2 × 1,086.171 × 0.5 × (1 − 12/36) = 724.11 in month 13, discounted
    # a year at 10 %/year: 724.114 / 1.1 = 658.29; the schedule's end value row stays nominal and negative
    p = plan(SCENARIO, **FREE, horizon_months=12, discount_rate=0.1, onprem__sell_owned=False)
    row = owned_row(p)
    assert (row["kept"], row["switched_off"], row["sold"]) == (0, 2, 0)
    assert row["end_value"] == pytest.approx(658.29, abs=0.005)
    (end,) = p.schedule[(p.schedule["card"] == "rtx-3060-12gb") & (p.schedule["action"] == "end value")].to_dict("records")
    assert (end["month"], end["units"]) == (13, 2) and end["amount"] == pytest.approx(-724.11, abs=0.005)
    assert owned_end_value_words(p) == ("of which −658 USD: the end value of the 2 cards owned before the plan and "
                                        "switched off")


def test_sold_in_month_1_the_batch_has_no_end_value():
    # the 36-month plan sells both in month 1 (for 2 × 1,086.171 × 0.5 = 1,086.17 USD): none is left at the end
    p = plan(SCENARIO, baselines=False)
    row = owned_row(p)
    assert (row["kept"], row["switched_off"], row["sold"]) == (0, 0, 2)
    assert row["end_value"] == 0.0
    assert owned_end_value_words(p) == ""


def test_retired_within_the_horizon_the_batch_has_no_end_value():
    # 30 months old at month 1, a 36-month life: they leave in month 7, long before the end of a 12-month plan. Under
    # declining balance they still fetch 1,086.171 × 0.5 × (1/3)^(36/12) = 20.11 each then — the schedule's retire row,
    # month 7 — but nothing is held at the end: end_value 0
    p = plan(SCENARIO, **FREE, horizon_months=12, onprem__sell_owned=False, onprem__resale__method="declining_balance",
             onprem__existing={"rtx-3060-12gb": {"count": 2, "age_months": 30}})
    row = owned_row(p)
    assert row["sold"] == 0 and row["end_value"] == 0.0
    (retire,) = p.schedule[p.schedule["card"] == "rtx-3060-12gb"].query("action == 'retire'").to_dict("records")
    assert (retire["month"], retire["units"]) == (7, 2)
    assert retire["amount"] == pytest.approx(-2 * K * SHARE / 27, abs=0.005)   # −40.23
    assert owned_end_value_words(p) == ""


def test_the_sentence_does_not_rest_on_the_schedules_note_wording(monkeypatch):
    # the schedule's note words a card's age otherwise: the total's line still names the credit (it read the note
    # before, and dropped the sentence when the words changed)
    monkeypatch.setattr(readback, "months_old", lambda months: f"aged {months} mo")
    p = plan(SCENARIO, **FREE, horizon_months=1)
    assert p.schedule["note"].tolist() == ["residual value at the end of the plan (aged 1 mo)"]
    words = "of which −1,056 USD: the end value of the 2 cards owned before the plan and kept"
    assert owned_end_value_words(p) == words
    (total,) = [line for line in plan_to_markdown(p).splitlines() if line.startswith("**Total")]
    assert f"; {words})." in total, total
