"""Plan-output defects an audit of a EUR scenario found (2026-12-07), each stated as the fact the output now tells.

1. A serving workload on an L40S reference (the Lambda benchmark does not cover the L40S: docs/data-sources.md) was
   warned "the speeds of A100-80GB-PCIE, RTX-3090, RTX-4090 are estimates from datasheet figures", though those three
   are Lambda measurements: their speeds relative to the L40S are estimates through the reference's speed alone.
2. A EUR plan with fx {USD: 0.92} never stated the rate on the terminal (summary.md did: "1 USD = 0.92 EUR"), and its
   prices used showed the rtx-4090 at 2,161.08 EUR with no rate beside a source quoting "1,599 USD". The catalog's
   card is now 1,669.99 USD (planner/data/onprem_cards.csv, 2023-11-23), with its 750 USD host share × 0.92 =
   2,419.99 × 0.92 = 2,226.3908 EUR.
3. The terminal's break-even table showed 9.137 and 2.228 (shares of a card's hours: more hours than there are, so
   cloud is cheaper at any use) with the note saying so left out on a narrow terminal; the dashboard and README say
   "never". A share above 1 reads "never" on the terminal too; JSON and CSV keep the number.
4. (a) The owned cards' note said "cheaper to sell" on a row where 2 of 4 owned cards were kept; (c) fleet.csv wrote
   `units` and `new_units` as 2.0 beside `existing_units` 4 (the plan's table keeps float64: docs/cost-model.md).
   (b) Owned cards' `purchase_option` stays `purchase`: the offers contract gives on-prem card rows that option and
   unit id (onprem:onprem:<card>:purchase, docs/offers-contract.md), one fleet row holding owned and bought units.
"""

from __future__ import annotations

import csv
import io
import json
import math

import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from planner import load_scenario, plan
from planner.catalog import speeds
from planner.cli import app
from planner.cli.plan_views import break_even_shown
from planner.reports import plan_to_csv, plan_to_json, plan_to_markdown
from planner.reports.tables import assumption_line, prices_used
from tests.planner.test_plan_tables_narrow_terminal import terminal

# one card the benchmark measured (RTX 4090), a reference it did not (L40S); no cloud, so the plan holds 4090s only
MEASURED_OVER_ESTIMATED = """
name: measured over an estimated reference
currency: USD
horizon_months: 3
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [rtx-4090]}
constraints: {max_cloud_share: 0}
workloads:
  - {name: inference, gpu_hours_per_month: 730, reference_gpu: L40S}
"""


@pytest.fixture(scope="module")
def measured_over_estimated():
    return plan(load_scenario(yaml.safe_load(MEASURED_OVER_ESTIMATED)), baselines=False)


def test_the_premise_the_rtx_4090_is_measured_and_the_l40s_estimated():
    assert speeds.gpu_speed("measured", "RTX-4090").source == "measured"
    assert speeds.gpu_speed("measured", "L40S").source == "estimated"


def test_a_measured_gpu_over_an_estimated_reference_is_warned_of_through_the_reference(measured_over_estimated):
    p = measured_over_estimated
    assert set(p.fleet["gpu"]) == {"RTX-4090"}
    [said] = [w for w in p.warnings if w.startswith("inference: ")]
    assert said.startswith("inference: its reference GPU L40S's speed is an estimate from datasheet figures (not "
                           "measured), and every relative speed is measured against it: those of RTX-4090 (measured "
                           "themselves) rest on its estimate")
    assert "the speeds of RTX-4090 are estimates" not in said


EUR_CARDS = """
name: a EUR site
currency: EUR
fx: {USD: 0.92}
horizon_months: 3
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem: {cards: [rtx-4090]}
constraints: {max_cloud_share: 0}
workloads:
  - {name: train, gpu_hours_per_month: 730, reference_gpu: RTX-4090}
"""


@pytest.fixture(scope="module")
def eur_cards():
    return plan(load_scenario(yaml.safe_load(EUR_CARDS)), baselines=False)


def test_the_terminal_s_assumptions_line_states_the_fx_rate_as_summary_md_does(eur_cards):
    assert assumption_line(eur_cards).startswith("assumptions: 1 USD = 0.92 EUR (fx); cards bought every 3 months")


def test_a_usd_plan_s_assumptions_line_names_no_rate(measured_over_estimated):
    assert assumption_line(measured_over_estimated).startswith("assumptions: cards bought every 3 months")


def test_a_catalog_card_priced_in_usd_shows_the_rate_it_was_converted_at(eur_cards):
    assert set(eur_cards.fleet["sku"]) == {"rtx-4090"}
    row = prices_used(eur_cards).set_index("sku").loc["rtx-4090"]
    assert row["capex_per_unit"] == pytest.approx((1669.99 + 750) * 0.92)   # 2,226.3908 EUR
    assert (row["currency"], row["quoted_currency"], row["fx_rate"]) == ("EUR", "USD", 0.92)
    assert row["quoted_price"] != row["quoted_price"]   # NaN: the price is the catalog's, not the scenario's quote
    [card] = [r for r in json.loads(plan_to_json(eur_cards))["prices_used"] if r["sku"] == "rtx-4090"]
    assert (card["quoted_currency"], card["fx_rate"]) == ("USD", 0.92)


def test_a_catalog_card_in_the_scenario_currency_shows_no_rate(measured_over_estimated):
    row = prices_used(measured_over_estimated).set_index("sku").loc["rtx-4090"]
    assert row["quoted_currency"] is None and row["fx_rate"] != row["fx_rate"]


# one RTX 4090 held (min_units) beside AWS spot: the p4d's spot A100s do the CNN work for less than the card costs
# even busy every hour, so its break-even share of hours is above 1
SPOT_CHEAPER = """
name: spot is cheaper
currency: USD
horizon_months: 12
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand, spot]}
onprem: {cards: [rtx-4090]}
constraints: {min_units: {rtx-4090: 1}}
workloads:
  - {name: cnn, gpu_hours_per_month: 1200, reference_gpu: RTX-4090, min_gpu_memory_gb: 20, interruptible: true}
"""


def test_break_even_shares_above_1_read_never_and_the_others_their_number():
    table = pd.DataFrame({"card": ["a", "b", "c", "d", "e"], "workload": ["w"] * 5,
                          "cloud_offer": ["aws:us-east-1:p4d.24xlarge:spot"] * 5,
                          "cloud_cost_per_reference_hour": [0.272] * 5, "card_fixed_cost_per_month": [82.807] * 5,
                          "break_even_utilisation": [9.137, 2.228, math.inf, 1.0, 0.068], "note": [""] * 5})
    shown, _ = break_even_shown(table)
    # above 1 (more hours than there are) and inf (cloud work cheaper than the card's energy): never; 1 is every hour
    assert shown["break_even_utilisation"].tolist() == ["never", "never", "never", 1.0, 0.068]


def test_the_terminal_s_break_even_table_says_never_where_the_json_and_csv_keep_the_share(monkeypatch, tmp_path):
    path = tmp_path / "spot.yaml"
    path.write_text(SPOT_CHEAPER, encoding="utf-8")
    p = plan(load_scenario(path), baselines=False)
    [share] = p.break_even["break_even_utilisation"].tolist()
    assert 1 < share < math.inf   # the premise: more hours than there are
    terminal(monkeypatch, 100)
    result = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", "--no-decisions"])
    assert result.exit_code == 0, result.output
    part = result.stdout[result.stdout.index("Break-even utilisation"):]
    [row] = [line for line in part.splitlines() if line.startswith("│ rtx-4090")][:1]
    assert row.rstrip(" │").endswith("never") and f"{share:.3f}".rstrip("0") not in row
    assert json.loads(plan_to_json(p))["break_even"][0]["break_even_utilisation"] == pytest.approx(share)
    assert float(pd.read_csv(io.StringIO(plan_to_csv(p, table="break_even")))["break_even_utilisation"][0]) == \
        pytest.approx(share)


def test_summary_md_says_never_where_the_terminal_does(tmp_path):
    # it showed the share times 100 ("913.7") where the terminal said "never"; a share of at most 1 keeps its percent
    path = tmp_path / "spot.yaml"
    path.write_text(SPOT_CHEAPER, encoding="utf-8")
    p = plan(load_scenario(path), baselines=False)
    [share] = p.break_even["break_even_utilisation"].tolist()
    assert 1 < share < math.inf
    text = plan_to_markdown(p)
    part = text[text.index("## Break-even utilisation"):].split("\n\n")[1].splitlines()
    assert part[1].split(" | ")[3] == "---:"   # break_even_pct right-aligned, as numbers are
    [row] = [line for line in part if line.startswith("| rtx-4090")]
    assert row.split(" | ")[3] == "never"
    assert f"{share * 100:.1f}" not in text


# four owned RTX 3090s, a year old, and work for about two (1,000 hours a month is 1.4 cards busy every hour): the
# plan sells two and keeps two; no card may be bought
FOUR_OWNED = """
name: four owned, two needed
currency: USD
horizon_months: 12
prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}
onprem:
  cards: []
  existing: {rtx-3090: {count: 4, age_months: 12}}
workloads:
  - {name: train, gpu_hours_per_month: 1000, reference_gpu: RTX-3090, min_gpu_memory_gb: 20}
"""


@pytest.fixture(scope="module")
def four_owned():
    return plan(load_scenario(yaml.safe_load(FOUR_OWNED)), baselines=False)


def test_a_split_batch_of_owned_cards_says_what_it_sold_and_kept(four_owned):
    [row] = four_owned.owned.to_dict("records")
    assert (row["owned_units"], row["kept"], row["switched_off"], row["sold"]) == (4, 2, 0, 2)
    assert row["note"] == "sold 2, kept 2: cheaper to sell 2 of the 4; the other 2 do work worth more"


def test_fleet_csv_writes_whole_counts_as_integers_and_a_rented_row_s_empty(four_owned, eur_cards):
    fleet = list(csv.DictReader(io.StringIO(plan_to_csv(four_owned, table="fleet"))))
    card = next(r for r in fleet if r["sku"] == "rtx-3090")
    # 4 owned, 2 sold: 2 held, none bought
    assert (card["units"], card["existing_units"], card["new_units"], card["sold_units"]) == ("2", "4", "0", "2")
    assert four_owned.fleet["units"].dtype == "float64"   # the plan's own table keeps its dtype
    spot = plan(load_scenario(yaml.safe_load(SPOT_CHEAPER)), baselines=False)
    rented = [r for r in csv.DictReader(io.StringIO(plan_to_csv(spot, table="fleet"))) if r["provider"] != "onprem"]
    assert rented and all(r["units"] == "" and r["new_units"] == "" for r in rented)   # NaN: rented by the hour
    [bought] = list(csv.DictReader(io.StringIO(plan_to_csv(eur_cards, table="fleet"))))
    units = int(eur_cards.fleet["units"].iloc[0])
    assert (bought["units"], bought["new_units"]) == (str(units), str(units))
