"""A card sold only as whole 8-GPU boards (an HGX row priced per GPU) bought 3 at a time is a fleet nobody sells: the
plan and validate say so (the known gap "Partial HGX servers (a row priced as a server / 8) are not warned of").

The catalog marks such a card in its column `sold_in_units_of` (docs/data-sources.md): the two HGX rows, whose sources
sell 8 GPUs at a time (a Thinkmate quote for an 8 x H100 SXM node; the H200 8-GPU module of the Reuters/Tencent
reports). The model still buys GPUs one by one (docs/cost-model.md): these are warnings, not a constraint.

Numbers by hand from planner/data/onprem_cards.csv: hgx-h200-8gpu 27,000 USD a GPU, host 0: 3 GPUs 81,000 USD; a whole
board 8 x 27,000 = 216,000 USD, 5 x 27,000 = 135,000 USD more. hgx-h100-8gpu 39,625 USD a GPU (the 317,000 USD quote
/ 8), host 0: 11 GPUs 435,875 USD; 2 boards 16 x 39,625 = 634,000 USD, 5 x 39,625 = 198,125 USD more. The H200 with a
quoted host share of 5,000 USD a GPU: 32,000 a GPU, 3 = 96,000, 8 = 256,000, 160,000 more. a100-80gb-pcie with
cards_per_server 8: host 2,500 USD a card, a 20,000 USD host; 3 cards pay for 3/8 of it, a whole host adds 5 x 2,500
= 12,500 USD.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.scenario.cost_basis import bought_cost_warnings, scenario_cost_warnings
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SITE = {"electricity_per_kwh": 0.12, "pue": 1.4, "availability": 0.95}
NOTE = " (the model buys GPUs, not whole boards: docs/cost-model.md)"


def scenario(onprem: dict | None = None, constraints: dict | None = None) -> dict:
    return {"name": "boards", "horizon_months": 12,
            "onprem": {**SITE, "cards": ["hgx-h100-8gpu", "hgx-h200-8gpu", "a100-80gb-pcie"], **(onprem or {})},
            "constraints": constraints or {},
            "workloads": [{"name": "train", "gpu_hours_per_month": 2000, "reference_gpu": "H100-SXM",
                           "min_gpu_memory_gb": 80}]}


def board_warnings(warnings) -> list[str]:
    return [text for text in warnings if "whole board" in text]


def test_the_catalog_sells_only_the_hgx_rows_as_whole_boards_of_8_and_their_sources_sell_8_gpus_at_a_time():
    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(encoding="utf-8", newline="") as fh:
        rows = {row["card_id"]: row for row in csv.DictReader(fh)}
    assert {card: row["sold_in_units_of"] for card, row in rows.items() if row["sold_in_units_of"]} == {
        "hgx-h100-8gpu": "8", "hgx-h200-8gpu": "8"}
    assert "8 x H100 SXM node" in rows["hgx-h100-8gpu"]["source"]
    assert "1,400,000 CNY per H200 8-GPU module" in rows["hgx-h200-8gpu"]["note"]
    docs = (ROOT / "docs" / "data-sources.md").read_text(encoding="utf-8")
    assert "`sold_in_units_of`" in docs


@pytest.mark.parametrize(("bought", "said"), [
    ({"hgx-h200-8gpu": 3}, ["card hgx-h200-8gpu: the plan buys 3, 3/8 of a board, but it is sold only as whole 8-GPU "
                            "boards (priced here per GPU: 27,000 USD a GPU): buying 8 (1 whole board) would cost "
                            "216,000 USD new, 135,000 USD more than the 81,000 USD of the 3 it buys" + NOTE]),
    ({"hgx-h100-8gpu": 11}, ["card hgx-h100-8gpu: the plan buys 11, 1 3/8 boards, but it is sold only as whole 8-GPU "
                             "boards (priced here per GPU: 39,625 USD a GPU): buying 16 (2 whole boards) would cost "
                             "634,000 USD new, 198,125 USD more than the 435,875 USD of the 11 it buys" + NOTE]),
    ({"hgx-h200-8gpu": 8}, []),
    ({"hgx-h200-8gpu": 16, "hgx-h100-8gpu": 8}, []),
])
def test_a_plan_buying_part_of_an_hgx_board_is_told_what_whole_boards_cost(bought, said):
    assert board_warnings(text for _, text in bought_cost_warnings(load_scenario(scenario()), bought)) == said


def test_a_quoted_host_share_is_in_the_whole_board_figures_and_no_partial_host_is_said_beside_them():
    s = load_scenario(scenario({"card_overrides": {"hgx-h200-8gpu": {"host_cost_per_card": 5000}}}))
    texts = [text for _, text in bought_cost_warnings(s, {"hgx-h200-8gpu": 3})]
    assert board_warnings(texts) == [
        "card hgx-h200-8gpu: the plan buys 3, 3/8 of a board, but it is sold only as whole 8-GPU boards (priced here "
        "per GPU: 32,000 USD a GPU with its host share): buying 8 (1 whole board) would cost 256,000 USD new, 160,000 "
        "USD more than the 96,000 USD of the 3 it buys" + NOTE]
    assert not [text for text in texts if "of a host" in text]


def test_a_pcie_card_with_8_a_server_bought_3_times_keeps_the_partial_host_warning_only():
    s = load_scenario(scenario({"card_overrides": {"a100-80gb-pcie": {"cards_per_server": 8}}}))
    texts = [text for _, text in bought_cost_warnings(s, {"a100-80gb-pcie": 3})]
    assert texts == ["card a100-80gb-pcie: the plan buys 3 cards; its host share (2,500 USD a card) assumes 8 cards per "
                     "20,000 USD host, so 3 cards pay for 3/8 of a host: a whole host adds 12,500 USD (hosts are "
                     "charged per card: docs/cost-model.md)"]


def test_validate_names_unit_bounds_that_hold_part_of_a_board_at_their_field():
    s = load_scenario(scenario(constraints={"min_units": {"hgx-h200-8gpu": 3}, "max_units": {"hgx-h100-8gpu": 12}}))
    found = [(field, text) for field, text in scenario_cost_warnings(s) if "whole board" in text]
    assert found == [
        (("constraints", "min_units", "hgx-h200-8gpu"),
         "constraints.min_units.hgx-h200-8gpu: at least 3 in the fleet, 3/8 of a board, but it is sold only as whole "
         "8-GPU boards (priced here per GPU: 27,000 USD a GPU): buying 8 (1 whole board) would cost 216,000 USD new"
         + NOTE),
        (("constraints", "max_units", "hgx-h100-8gpu"),
         "constraints.max_units.hgx-h100-8gpu: at most 12 in the fleet, 1 1/2 boards, but it is sold only as whole "
         "8-GPU boards (priced here per GPU: 39,625 USD a GPU): buying 16 (2 whole boards) would cost 634,000 USD new"
         + NOTE)]


@pytest.mark.parametrize("units", [8, 16, 0])
def test_validate_says_nothing_of_whole_boards_required(units):
    s = load_scenario(scenario(constraints={"min_units": {"hgx-h200-8gpu": units}, "max_units": {"hgx-h100-8gpu": units}}))
    assert board_warnings(text for _, text in scenario_cost_warnings(s)) == []


def three_h200s(units: int) -> dict:
    return scenario({"cards": ["hgx-h200-8gpu"]}, {"min_units": {"hgx-h200-8gpu": units},
                                                    "max_units": {"hgx-h200-8gpu": units}})


def test_a_plan_that_buys_3_h200s_says_a_whole_board_costs_216000_usd_and_one_that_buys_8_does_not():
    three = plan(three_h200s(3), baselines=False)
    bought = dict(zip(three.fleet["sku"], three.fleet["new_units"]))
    assert bought["hgx-h200-8gpu"] == 3   # the premise
    assert board_warnings(three.warnings) == [
        "card hgx-h200-8gpu: the plan buys 3, 3/8 of a board, but it is sold only as whole 8-GPU boards (priced here "
        "per GPU: 27,000 USD a GPU): buying 8 (1 whole board) would cost 216,000 USD new, 135,000 USD more than the "
        "81,000 USD of the 3 it buys" + NOTE]
    eight = plan(three_h200s(8), baselines=False)
    assert dict(zip(eight.fleet["sku"], eight.fleet["new_units"]))["hgx-h200-8gpu"] == 8   # the premise
    assert board_warnings(eight.warnings) == []


def test_fleetplan_plan_and_validate_print_it(tmp_path):
    import yaml

    path = tmp_path / "h200.yaml"
    path.write_text(yaml.safe_dump(three_h200s(3), sort_keys=False), encoding="utf-8")
    planned = run("plan", path, "--format", "json", "--no-baselines", "--no-decisions")
    assert planned.exit_code == 0, planned.output
    [said] = board_warnings(json.loads(planned.stdout)["warnings"])
    assert said.startswith("card hgx-h200-8gpu: the plan buys 3, 3/8 of a board") and "216,000 USD new" in said
    shown = run("plan", path, "--no-baselines", "--no-decisions")
    assert shown.exit_code == 0, shown.output
    assert "buying 8 (1 whole board) would cost 216,000 USD new" in shown.output
    validated = run("validate", path, "--format", "json")
    assert validated.exit_code == 0, validated.output
    problems = {p["field"]: p["message"] for p in json.loads(validated.stdout)["files"][0]["problems"]}
    assert problems["constraints.min_units.hgx-h200-8gpu"].startswith("at least 3 in the fleet, 3/8 of a board")
    assert "216,000 USD new" in problems["constraints.max_units.hgx-h200-8gpu"]
