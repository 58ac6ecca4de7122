"""The total's line says how much of it is the end value of the cards owned before the plan and kept: a one-month plan
of the start-up hybrid with no floors (README's example) pays a cloud bill of 1,350 USD and totals 373 USD, the two
RTX 3060s it owned and kept credited at their value at the end, which the line did not name.

By hand (planner/data/onprem_cards.csv, the scenario's resale rule: 0.5 × straight-line book value over a 36-month
life): one card's capex is (2,500 + 5,400 host) CNY × 0.13749 USD/CNY (the scenario's fx.CNY) = 1,086.171 USD;
kept one month, each is worth 0.5 × 1,086.171 × (1 − 1/36) = 528.00, the pair 1,056.00 USD. Against 0.14 USD/CNY
(a capex K of 1,106, the pair kept 1,075.28 and a total of 353.39) the total rises by the pair's credit lost less
its month of maintenance saved (3 %/year): ΔK × (35/36 − 2 × 0.03/12) = 19.829 × 0.96722 = 19.18, to 372.57."""

from pathlib import Path

import pytest

from planner import plan
from planner.reports.markdown import plan_to_markdown
from planner.reports.tables import owned_end_value_words
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "startup-hybrid.yaml"
ONE_MONTH = {"horizon_months": 1, "constraints__min_units": {}, "constraints__max_cloud_share": None}
RTX_3060_USD = (2500 + 5400) * 0.13749                # 1,086.171
PAIR_KEPT = 2 * 0.5 * RTX_3060_USD * (1 - 1 / 36)   # 1,056.00


@pytest.fixture(scope="module")
def one_month():
    return plan(SCENARIO, baselines=False, **ONE_MONTH)


def test_the_credit_is_the_owned_cards_end_value(one_month):
    p = one_month
    costs = p.costs.set_index("category")["cost"]
    assert costs["cloud_on_demand"] + costs["cloud_spot"] == pytest.approx(1350, abs=1)
    assert costs["residual_value"] == pytest.approx(-PAIR_KEPT, abs=0.01)
    assert p.total == pytest.approx(373, abs=1)
    assert owned_end_value_words(p) == "of which −1,056 USD: the end value of the 2 cards owned before the plan and kept"
    # the schedule's row of the same credit (nominal; the words read the owned table's end_value): new at month 1,
    # one month old at the end ("1 months old" before)
    assert p.schedule[["action", "units", "note"]].values.tolist() == [
        ["end value", 2, "residual value at the end of the plan (1 month old)"]]
    (total,) = [line for line in plan_to_markdown(p).splitlines() if line.startswith("**Total")]
    assert total.startswith("**Total: 373 USD** (present value at 0%/year, undiscounted over 1 month; status optimal; "
                            "of which −1,056 USD: the end value of the 2 cards owned before the plan and kept).")


def test_the_cli_total_line_says_it(tmp_path):
    text = SCENARIO.read_text()
    for old, new in (("horizon_months: 36", "horizon_months: 1"), ("  min_units: {a100-80gb-pcie: 1}", ""),
                     ("  max_cloud_share: 0.6", "")):
        assert old in text
        text = text.replace(old, new)
    short = tmp_path / "one-month.yaml"
    short.write_text(text)
    result = run("plan", short, "--no-decisions", "--no-baselines")
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert ("total 373 USD (present value at 0%/year, undiscounted; of which −1,056 USD: the end value of the 2 cards "
            "owned before the plan and kept); prices: ") in head, head


def test_discounted_and_switched_off():
    # kept 12 months, switched off (selling not allowed): each worth 0.5 × 1,086.171 × (1 − 12/36) at month 13, the
    # pair 724.11 nominal, discounted a year at 10 %: 658.28
    p = plan(SCENARIO, baselines=False, horizon_months=12, discount_rate=0.1, constraints__min_units={},
             constraints__max_cloud_share=None, onprem__sell_owned=False)
    words = owned_end_value_words(p)
    assert words.startswith(f"of which −{2 * 0.5 * RTX_3060_USD * (1 - 12 / 36) / 1.1:,.0f} USD: the end value of the 2 cards "
                            "owned before the plan and "), words


def test_no_words_where_the_owned_cards_are_sold():
    assert owned_end_value_words(plan(SCENARIO, baselines=False)) == ""   # the 36-month plan sells them in month 1
