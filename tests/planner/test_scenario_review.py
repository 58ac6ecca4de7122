"""Scenario checks found missing in review: a card override's currency that leaves catalog amounts in the
catalog's currency, and an override that makes `workloads` a number."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.catalog import card_rows
from planner.cli import app
from planner.scenario import load_scenario_file

ROOT = Path(__file__).resolve().parents[2]
OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"

# One owned RTX 3060 12 GB quoted at 300 USD: the catalog's host share (5,400 CNY) is still in CNY.
# Line 11 is the override: "  card_overrides: {rtx-3060-12gb: {price: 300, currency: " is 57 characters.
OWNED_3060 = """\
name: owned
currency: USD
horizon_months: 12
prices:
  source: {offers}
  providers: [aws]
  purchase_options: [on_demand]
onprem:
  existing: {{rtx-3060-12gb: 1}}
  cards: []
  card_overrides: {{rtx-3060-12gb: {{price: 300, currency: USD}}}}
{fx}workloads:
  - {{name: w, gpu_hours_per_month: 100, reference_gpu: A10G}}
"""


def write(tmp_path: Path, fx: str = "") -> Path:
    path = tmp_path / "owned.yaml"
    path.write_text(OWNED_3060.format(offers=OFFERS, fx=fx))
    return path


def test_the_catalog_figures_of_rtx_3060_are_5400_cny_host_share_in_cny():
    row = card_rows()["rtx-3060-12gb"]
    assert (row["currency"], float(row["host_cost_per_card"])) == ("CNY", 5400.0)


def test_an_override_in_usd_still_needs_the_cny_rate_for_the_catalog_host_share(tmp_path):
    done = CliRunner().invoke(app, ["validate", str(write(tmp_path))])
    assert done.exit_code == 2, done.output
    # said as every missing rate is (one problem per currency), at the override's currency: no field names CNY
    assert (f"{tmp_path / 'owned.yaml'}:11:58: fx: the catalog's host_cost_per_card of card 'rtx-3060-12gb' (its "
            "override's USD covers only the amounts the override gives) is priced in CNY; add its rate, e.g. "
            "fx: {CNY: <USD per 1 CNY>}") in " ".join(done.output.split())


def test_an_override_giving_only_a_currency_needs_the_rate_of_both_catalog_amounts(tmp_path):
    path = tmp_path / "owned.yaml"
    path.write_text(write(tmp_path).read_text().replace("price: 300, ", ""))
    done = CliRunner().invoke(app, ["validate", str(path)])
    assert done.exit_code == 2, done.output
    assert ("the catalog's price and host_cost_per_card of card 'rtx-3060-12gb' (its override's USD covers only the "
            "amounts the override gives) are priced in CNY") in " ".join(done.output.split())


def test_an_override_of_both_amounts_needs_no_catalog_rate(tmp_path):
    path = tmp_path / "owned.yaml"
    path.write_text(write(tmp_path).read_text().replace("price: 300,", "price: 300, host_cost_per_card: 750,"))
    done = CliRunner().invoke(app, ["validate", str(path)])
    assert done.exit_code == 0, done.output


def test_with_the_cny_rate_one_owned_3060_costs_300_usd_plus_5400_cny_at_0_14_that_is_1056_usd(tmp_path):
    path = write(tmp_path, fx="fx: {CNY: 0.14}\n")
    assert CliRunner().invoke(app, ["validate", str(path)]).exit_code == 0
    p = plan(load_scenario_file(path), baselines=False)
    prices = p.offers.set_index("sku")
    # 300 USD card + 5,400 CNY × 0.14 USD/CNY = 300 + 756 = 1,056 USD
    assert prices.loc["rtx-3060-12gb", "capex_per_unit"] == pytest.approx(1056.0)


@pytest.mark.parametrize("value,shown", [("abc", "'abc'"), ("1", "1"), ("1.5", "1.5"), ("true", "true (a yes/no value)")])
def test_varying_workloads_to_a_non_list_is_refused(value, shown):
    done = CliRunner().invoke(app, ["sweep", str(ROOT / "scenarios" / "startup-hybrid.yaml"),
                                    "--vary", f"workloads={value}", "--processes", "1", "--format", "json"])
    assert done.exit_code == 2 and done.stdout == "", done.output   # refused before anything is solved
    assert " ".join(done.stderr.split()) == f"error: --vary: 1 problem workloads={value}: expected a list, got {shown}"
