"""A card sold only as whole 8-GPU boards (an HGX row priced per GPU) is bought in whole boards: the model counts the
GPUs bought in each purchase month as 8 × a whole number of boards (engine.model.define_card_counts), so no plan buys
3 — a fleet nobody sells. validate says what unit bounds that are not whole boards mean, and refuses bounds with no
whole board between them.

The catalog marks such a card in its column `sold_in_units_of` (docs/data-sources.md): the two HGX rows, whose sources
sell 8 GPUs at a time (a Thinkmate quote for an 8 x H100 SXM node; the H200 8-GPU module of the Reuters/Tencent
reports).

Numbers by hand from planner/data/onprem_cards.csv: hgx-h200-8gpu 27,000 USD a GPU, host 0: a whole board 8 x 27,000
= 216,000 USD. hgx-h100-8gpu 39,625 USD a GPU (the 317,000 USD quote / 8), host 0: one board 317,000 USD.
a100-80gb-pcie with cards_per_server 8: host 2,500 USD a card, a 20,000 USD host; 3 cards pay for 3/8 of it, a whole
host adds 5 x 2,500 = 12,500 USD.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.scenario.cost_basis import bought_cost_warnings, scenario_cost_warnings
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SITE = {"electricity_per_kwh": 0.12, "pue": 1.4, "availability": 0.95}
NOTE = " (the plan buys such a card in whole boards only: docs/cost-model.md)"


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


def test_one_reader_of_the_column_gives_every_card_its_board_and_1_to_cards_sold_one_at_a_time(monkeypatch):
    from planner.catalog import board_gpus, card_rows
    from planner.catalog import gpus as catalog_gpus
    from planner.cli.commands import _catalog_boards
    from planner.errors import CatalogError

    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {row["card_id"]: board_gpus(row["card_id"]) for row in rows} == {
        row["card_id"]: 8 if row["card_id"].startswith("hgx-") else 1 for row in rows}
    assert board_gpus("my-own-card") == 1   # a custom card: not in the catalog
    assert _catalog_boards() == {"hgx-h100-8gpu": 8, "hgx-h200-8gpu": 8}   # what `offers` notes
    broken = {**card_rows(), "hgx-h100-8gpu": {**card_rows()["hgx-h100-8gpu"], "sold_in_units_of": "eight"}}
    monkeypatch.setattr(catalog_gpus, "card_rows", lambda: broken)
    with pytest.raises(CatalogError, match=r"hgx-h100-8gpu.*sold_in_units_of 'eight' is not a number"):
        board_gpus("hgx-h100-8gpu")


def test_a_plan_is_never_told_of_part_boards_it_cannot_buy_but_keeps_the_partial_host_warning():
    s = load_scenario(scenario({"card_overrides": {"hgx-h200-8gpu": {"host_cost_per_card": 5000}}}))
    texts = [text for _, text in bought_cost_warnings(s, {"hgx-h200-8gpu": 8, "hgx-h100-8gpu": 16})]
    assert board_warnings(texts) == []
    assert not [text for text in texts if "of a host" in text]


def test_a_pcie_card_with_8_a_server_bought_3_times_keeps_the_partial_host_warning_only():
    s = load_scenario(scenario({"card_overrides": {"a100-80gb-pcie": {"cards_per_server": 8}}}))
    texts = [text for _, text in bought_cost_warnings(s, {"a100-80gb-pcie": 3})]
    assert texts == ["card a100-80gb-pcie: the plan buys 3 cards; its host share (2,500 USD a card) assumes 8 cards per "
                     "20,000 USD host, so 3 cards pay for 3/8 of a host: a whole host adds 12,500 USD (hosts are "
                     "charged per card: docs/cost-model.md)"]


def test_validate_says_what_unit_bounds_that_hold_part_of_a_board_mean_at_their_field():
    s = load_scenario(scenario(constraints={"min_units": {"hgx-h200-8gpu": 3}, "max_units": {"hgx-h100-8gpu": 12}}))
    found = [(field, text) for field, text in scenario_cost_warnings(s) if "whole board" in text]
    assert found == [
        (("constraints", "min_units", "hgx-h200-8gpu"),
         "constraints.min_units.hgx-h200-8gpu: at least 3 in the fleet, 3/8 of a board, but it is sold only as whole "
         "8-GPU boards (priced here per GPU: 27,000 USD a GPU): the plan buys at least 8 (1 whole board, 216,000 USD "
         "new)" + NOTE),
        (("constraints", "max_units", "hgx-h100-8gpu"),
         "constraints.max_units.hgx-h100-8gpu: at most 12 in the fleet, 1 1/2 boards, but it is sold only as whole "
         "8-GPU boards (priced here per GPU: 39,625 USD a GPU): the plan buys at most 8 (1 whole board, 317,000 USD "
         "new)" + NOTE)]


def test_a_max_units_below_one_board_allows_none():
    s = load_scenario(scenario(constraints={"max_units": {"hgx-h200-8gpu": 5}}))
    [text] = board_warnings(text for _, text in scenario_cost_warnings(s))
    assert text.endswith("the plan buys at most 0 (no whole board)" + NOTE)


@pytest.mark.parametrize("units", [8, 16, 0])
def test_validate_says_nothing_of_whole_boards_required(units):
    s = load_scenario(scenario(constraints={"min_units": {"hgx-h200-8gpu": units}, "max_units": {"hgx-h100-8gpu": units}}))
    assert board_warnings(text for _, text in scenario_cost_warnings(s)) == []


def h200s(least: int, most: int | None = None, demand: float = 2000, **onprem) -> dict:
    bounds = {"min_units": {"hgx-h200-8gpu": least}}
    if most is not None:
        bounds["max_units"] = {"hgx-h200-8gpu": most}
    return scenario({"cards": ["hgx-h200-8gpu"], **onprem}, bounds) | {
        "workloads": [{"name": "train", "gpu_hours_per_month": demand, "reference_gpu": "H100-SXM",
                       "min_gpu_memory_gb": 80}]}


def test_a_plan_held_to_at_least_3_h200s_buys_one_whole_board_of_8():
    three = plan(h200s(3), baselines=False)
    bought = three.schedule[three.schedule["action"] == "buy"]
    assert bought["units"].tolist() == [8]
    assert bought["amount"].tolist() == [216_000]   # 8 x 27,000 USD, by hand
    # the 8 read as one board, not eight 8-GPU servers
    assert bought["note"].tolist() == ["1 whole 8-GPU board; in service to month 12"]   # a 5-year life: not its end
    assert board_warnings(three.warnings) == []


def test_the_whole_board_plan_is_the_cheapest_whole_number_of_boards_by_brute_force():
    """6,000 reference GPU-hours a month: one GPU at a time the model bought 7 H200s (a fleet nobody sells); in whole
    boards, the plan's total is the least of the plans held to 0, 8, 16 and 24 GPUs, each solved on its own."""
    free = plan(h200s(0, demand=6000), baselines=False)
    held = {units: plan(h200s(units, units, demand=6000), baselines=False).total
            for units in (0, 8, 16, 24)}
    assert free.total == pytest.approx(min(held.values()), rel=1e-9)
    assert int(free.fleet.set_index("sku").loc["hgx-h200-8gpu", "new_units"]) % 8 == 0


def test_every_purchase_month_buys_whole_boards_as_demand_grows():
    s = h200s(0, demand=3000, purchase_every_months=3)
    s["horizon_months"] = 24
    s["workloads"][0]["growth_per_month"] = 0.08
    grown = plan(s, baselines=False)
    bought = grown.schedule[(grown.schedule["action"] == "buy") & (grown.schedule["card"] == "hgx-h200-8gpu")]
    assert len(bought) >= 2   # the premise: more than one purchase month
    assert all(units % 8 == 0 for units in bought["units"].tolist())


def test_bounds_with_no_whole_board_between_them_stop_the_plan_and_validate_at_max_units(tmp_path):
    import yaml

    with pytest.raises(ScenarioError) as raised:
        plan(h200s(3, 5), baselines=False)
    expected = ("constraints.max_units.hgx-h200-8gpu: at most 5 and min_units at least 3, but it is sold only as whole "
                "8-GPU boards: no whole number of boards lies between them (the fewest that reach 3 are 8); set them "
                "to hold a whole board, e.g. max_units 8")
    assert raised.value.problems == [expected]
    path = tmp_path / "h200.yaml"
    path.write_text(yaml.safe_dump(h200s(3, 5), sort_keys=False), encoding="utf-8")
    planned = run("plan", path, "--no-baselines", "--no-decisions")
    assert planned.exit_code != 0 and "Traceback" not in planned.output
    assert "no whole number of boards lies between them" in planned.output
    validated = run("validate", path, "--format", "json")
    assert validated.exit_code != 0, validated.output
    problems = {p["field"]: p["message"] for p in json.loads(validated.stdout)["files"][0]["problems"]}
    assert "no whole number of boards lies between them" in problems["constraints.max_units.hgx-h200-8gpu"]


def test_owned_boards_count_toward_the_bounds():
    """2 owned (an odd count, as a user may hold) and min_units 3: 2 + 8 = 10 is the fewest whole purchase that
    reaches 3, so a max_units of 9 holds none and one of 10 holds it."""
    bad = h200s(3, 9, existing={"hgx-h200-8gpu": {"count": 2, "age_months": 6}})
    with pytest.raises(ScenarioError, match="with the 2 owned lies between them"):
        plan(bad, baselines=False)


def test_one_more_or_fewer_of_a_card_sold_as_whole_boards_is_one_board():
    """The plan of 6,000 GPU-hours a month buys one board of 8 H200s; "one more" asks at least 16 (the next board),
    "one fewer" at most 0 — not 9 and 7, counts no plan can buy (an audit read "at least 9: no plan meets …")."""
    from planner.engine import add_decisions

    p = plan(h200s(0, demand=6000), baselines=False)
    assert int(p.fleet.set_index("sku").loc["hgx-h200-8gpu", "new_units"]) == 8   # the premise
    add_decisions(p)
    asked = sorted((a["alternative_units"], a["held_units"]) for a in p.runner_up["count_alternatives"]
                   if a["card"] == "hgx-h200-8gpu")
    assert [units for units, _ in asked] == [0, 16]
    assert all(held is None or held % 8 == 0 for _, held in asked)


def test_one_more_board_over_the_capex_budget_names_the_budget():
    """A capex budget of 300,000 USD holds one board of H200s (8 x 27,000 = 216,000) but not two (16 x 27,000 =
    432,000): the "one more" alternative says which cap forbids it, with those figures, not "no plan meets …"."""
    from planner.engine import add_decisions

    p = plan(h200s(0, demand=6000, capex_budget=300000), baselines=False)
    assert int(p.fleet.set_index("sku").loc["hgx-h200-8gpu", "new_units"]) == 8   # the premise
    add_decisions(p)
    [more] = [a for a in p.runner_up["count_alternatives"] if a["alternative_units"] == 16]
    assert more["total"] is None
    assert more["note"] == ("16 new at 27,000 USD or more each, 432,000 USD of capex, is above onprem.capex_budget "
                            "(300,000 USD)")
