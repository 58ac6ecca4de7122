"""What a plan's on-prem costs rest on is said, not only built in (an auditor following the README found four silences).

1. hgx-h200-8gpu is priced at the chip (27,000 USD, host_cost_per_card 0: planner/data/onprem_cards.csv), its note
   says "a lower bound", while hgx-h100-8gpu is a whole-server quote / 8; a plan buying H200s said nothing. The
   catalog now marks a lower-bound price in its own column, price_leaves_out (docs/data-sources.md), and validate and
   plan name the card and what the price leaves out.
2. Hosts are charged per card (host_cost_per_card = a host's cost / cards_per_server): start-up-hybrid buys one
   RTX 4090 with 750 USD of host, half of a 1,500 USD host for 2 cards (the catalog's note). The plan says so.
3. A workload with no framework may be planned on an AMD MI300X at a speed extrapolated from a fit on NVIDIA GPUs:
   the warning said only "estimates from datasheet figures".
4. capex_budget: 60 (meant as thousands) went all-cloud without a word.

Numbers by hand from planner/data/onprem_cards.csv: rtx-4090 1,669.99 + 750 = 2,419.99 USD a card, 2 cards a host; rtx-3060-12gb
(2,500 + 5,400) CNY × 0.14 = 1,106 USD, host 5,400 × 0.14 = 756 USD, 2 a host; a100-80gb-pcie 4 cards a host; MI300X's
vendor is AMD (planner/data/gpus.csv).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.scenario.cost_basis import partial_hosts, scenario_cost_warnings

ROOT = Path(__file__).resolve().parents[2]
SITE = {"electricity_per_kwh": 0.12, "pue": 1.4, "availability": 0.95}


def h200_scenario(**onprem) -> dict:
    return {"name": "H200 vs H100", "horizon_months": 36,
            "onprem": {**SITE, "cards": ["hgx-h100-8gpu", "hgx-h200-8gpu"], **onprem},
            "workloads": [{"name": "train", "gpu_hours_per_month": 20000, "reference_gpu": "H100-SXM",
                           "min_gpu_memory_gb": 80}]}


def catalog_rows() -> list[dict]:
    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_catalog_marks_the_h200_price_a_lower_bound_in_its_own_column_and_only_rows_whose_note_says_so():
    rows = catalog_rows()
    marked = {row["card_id"] for row in rows if row["price_leaves_out"].strip()}
    assert marked == {row["card_id"] for row in rows if "lower bound" in row["note"]} == {"hgx-h200-8gpu"}


def test_validate_names_a_lower_bound_price_the_scenario_may_buy_at_its_onprem_cards_entry():
    found = scenario_cost_warnings(load_scenario(h200_scenario()))
    assert [field for field, _ in found] == [("onprem", "cards", 1)]
    text = found[0][1]
    assert text.startswith("onprem.cards[1]: card hgx-h200-8gpu: its catalog price (27,000 USD a card, host share 0) "
                           "is a lower bound: it leaves out the host of an HGX H200 server (CPUs, memory, NICs, chassis)")
    assert "hgx-h100-8gpu" not in text


def test_a_quote_given_for_the_h200_is_the_user_s_and_is_not_called_a_lower_bound():
    quoted = h200_scenario(card_overrides={"hgx-h200-8gpu": {"price": 30000, "host_cost_per_card": 5000}})
    assert scenario_cost_warnings(load_scenario(quoted)) == []


def test_a_plan_that_buys_h200s_says_their_price_leaves_out_the_host():
    result = plan(h200_scenario(), baselines=False)
    bought = result.fleet.loc[result.fleet["sku"] == "hgx-h200-8gpu", "new_units"]
    assert len(bought) == 1 and bought.iloc[0] > 0   # the premise: the lower bound wins
    said = [w for w in result.warnings if "lower bound" in w]
    assert len(said) == 1
    assert "card hgx-h200-8gpu" in said[0] and "27,000 USD a card" in said[0]
    assert "leaves out the host of an HGX H200 server" in said[0] and f"the plan buys {int(bought.iloc[0])}," in said[0]


def test_start_up_hybrid_is_told_its_one_rtx_4090_and_one_a100_pay_for_part_of_a_host():
    result = plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False)
    bought = dict(zip(result.fleet["sku"], result.fleet["new_units"]))
    assert bought["rtx-4090"] == 1 and bought["a100-80gb-pcie"] == 1   # the premise (README's example)
    assert ("card rtx-4090: the plan buys 1 card; its host share (750 USD a card) assumes 2 cards per 1,500 USD host, "
            "so 1 card pays for half a host: a whole host adds 750 USD (hosts are charged per card: docs/cost-model.md)"
            in result.warnings)
    # the scenario's override gives host_cost_per_card 2,500; cards_per_server stays the catalog's 4
    assert ("card a100-80gb-pcie: the plan buys 1 card; its host share (2,500 USD a card) assumes 4 cards per 10,000 USD "
            "host, so 1 card pays for 1/4 of a host: a whole host adds 7,500 USD (hosts are charged per card: "
            "docs/cost-model.md)" in result.warnings)


@pytest.mark.parametrize(("bought", "said"), [
    ({"rtx-3060-12gb": 3}, ["card rtx-3060-12gb: the plan buys 3 cards; its host share (756 USD a card) assumes 2 cards "
                            "per 1,512 USD host, so 3 cards pay for 1 1/2 hosts: a whole host adds 756 USD"]),
    ({"rtx-3060-12gb": 4}, []),
    ({"hgx-h100-8gpu": 3}, []),   # no host share: the HGX row's host is in its price (docs/data-sources.md)
])
def test_cards_bought_that_do_not_fill_whole_hosts_are_told_what_a_whole_host_adds(bought, said):
    s = load_scenario({"name": "t", "fx": {"CNY": 0.14}, "onprem": {**SITE, "cards": ["rtx-3060-12gb", "hgx-h100-8gpu"]},
                       "workloads": [{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "RTX-4090"}]})
    assert [text.split(" (hosts are")[0] for _, text in partial_hosts(s, bought)] == said


def mi300x_scenario(**workload) -> dict:
    return {"name": "MI300X check", "horizon_months": 12,
            "prices": {"providers": ["azure"], "regions": ["eastus2"], "purchase_options": ["on_demand"]},
            "workloads": [{"name": "w", "gpu_hours_per_month": 5000, "reference_gpu": "A100-80GB-PCIE",
                           "min_gpu_memory_gb": 80, **workload}]}


def test_a_plan_on_an_amd_mi300x_says_its_speed_is_extrapolated_and_it_is_not_a_cuda_gpu():
    result = plan(mi300x_scenario(), baselines=False)
    assert set(result.fleet["gpu"]) == {"MI300X"}   # the premise: no framework, and the MI300X is cheapest
    [said] = [w for w in result.warnings if w.startswith("w: the speeds of MI300X are estimates")]
    assert "MI300X lies outside the range of the measured GPUs the fit was made on: extrapolated" in said
    assert "MI300X is not an NVIDIA GPU (AMD, ROCm): the fit saw NVIDIA GPUs only" in said
    assert "CUDA code runs on it only once ported" in said


def test_a_workload_with_a_framework_is_not_planned_on_the_mi300x():
    result = plan(mi300x_scenario(framework="tensorflow==2.15"), baselines=False)
    assert "MI300X" not in set(result.fleet["gpu"])
    assert not any("not an NVIDIA GPU" in w for w in result.warnings)


def budget_scenario(**onprem) -> dict:
    return {"name": "budget", "horizon_months": 12, "onprem": {**SITE, "cards": ["rtx-4090", "a100-80gb-pcie"], **onprem},
            "workloads": [{"name": "w", "gpu_hours_per_month": 2000, "reference_gpu": "RTX-4090"}]}


def test_a_capex_budget_below_the_cheapest_card_is_a_likely_unit_slip_in_validate_and_plan():
    expected = ("onprem.capex_budget: 60 USD is less than the cheapest card the scenario may buy costs new (rtx-4090: "
                "2,419.99 USD with its host share), so no card can be bought; expected USD: for 60 thousand, write 60000")
    assert scenario_cost_warnings(load_scenario(budget_scenario(capex_budget=60))) == [(("onprem", "capex_budget"), expected)]
    assert expected in plan(budget_scenario(capex_budget=60), baselines=False).warnings


@pytest.mark.parametrize("onprem", [{"capex_budget": 2419.99}, {"capex_budget": 0}, {"capex_budget": 60000}, {}])
def test_a_budget_that_buys_a_card_or_buys_none_on_purpose_is_not_warned_of(onprem):
    assert scenario_cost_warnings(load_scenario(budget_scenario(**onprem))) == []


def test_a_yearly_capex_budget_below_the_cheapest_card_is_warned_of_too():
    [(field, text)] = scenario_cost_warnings(load_scenario(budget_scenario(capex_budget_per_year=2)))
    assert field == ("onprem", "capex_budget_per_year")
    assert text.endswith("(rtx-4090: 2,419.99 USD with its host share), so no card can be bought; expected USD")


def test_a_baseline_resting_on_an_mi300x_estimate_says_it_is_extrapolated_and_not_a_cuda_gpu():
    result = plan(h200_scenario(), baselines=True, prefetch_baselines=False)
    all_cloud = result.baselines.loc[result.baselines["baseline"] == "all_cloud"]
    assert len(all_cloud) == 1   # the premise: the all-cloud baseline is solved
    [said] = [w for w in result.warnings if w.startswith("train: the baselines' totals may rest on speeds that are estimates")]
    assert "MI300X (all cloud)" in said   # the premise: the cheapest cloud for 80 GB is Azure's MI300X
    assert "MI300X is not an NVIDIA GPU (AMD, ROCm): the fit saw NVIDIA GPUs only" in said
    assert "MI300X lies outside the range of the measured GPUs the fit was made on" in said


def test_fleetplan_validate_says_both_at_the_line_of_the_field(tmp_path):
    # the file as a user writes it: the budget on line 5, the H200 the second item of onprem.cards on line 4
    import json

    from typer.testing import CliRunner

    from planner.cli import app

    path = tmp_path / "h200.yaml"
    path.write_text("name: H200 vs H100\nhorizon_months: 36\nonprem:\n  cards: [hgx-h100-8gpu, hgx-h200-8gpu]\n"
                    "  capex_budget: 60\n  electricity_per_kwh: 0.12\n  pue: 1.4\n  availability: 0.95\n"
                    "workloads:\n  - name: train\n    gpu_hours_per_month: 20000\n    reference_gpu: H100-SXM\n"
                    "    min_gpu_memory_gb: 80\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    problems = {p["field"]: p for p in json.loads(result.stdout)["files"][0]["problems"]}
    assert (problems["onprem.cards[1]"]["line"], problems["onprem.cards[1]"]["column"]) == (4, 26)
    assert problems["onprem.cards[1]"]["message"].startswith("card hgx-h200-8gpu: its catalog price (27,000 USD a card")
    assert (problems["onprem.capex_budget"]["line"], problems["onprem.capex_budget"]["column"]) == (5, 3)
    # the cheapest card it may buy: the H100 row, a whole-server quote / 8 (catalog), or the H200's 27,000 USD
    assert "so no card can be bought" in problems["onprem.capex_budget"]["message"]
