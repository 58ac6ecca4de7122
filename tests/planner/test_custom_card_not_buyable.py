"""A custom card described only to count the cards owned (`buyable: false`) is never bought: it was always a
purchase candidate, so an operator who described an HGX A100 the catalog lacks, to plan the ones in the rack, got
plans that bought more of it at the price given for their resale.

The worked example's site (examples/worked-example.yaml: 0.20 USD/kWh, PUE 1.5, availability 0.9; one row of the
packaged snapshot, g5.xlarge on demand at 1.006 USD/h; 24 months, undiscounted), with its A5000 figures as a custom
card, one owned and new, and 1,600 A5000-hours a month (an A10G does 0.8 of one). By hand, keeping the owned card and
renting the rest:
- the card works 0.9 × 730 = 657 h a month; capex 2,000 + 500 host = 2,500;
- maintenance 2,500 × 0.05 / 12 × 24 = 250; idle energy 0.1 kW × 730 h × 1.5 × 0.20 × 24 = 525.60;
  busy energy 0.3 kW more × 1.5 × 0.20 × 657 × 24 = 1,419.12; resale at month 25, 24 months old, straight line
  over 4 years at half the book value: 2,500 × 0.5 × (1 − 24/48) = 625 back;
- the rest, (1,600 − 657) / 0.8 = 1,178.75 g5.xlarge hours a month, 28,290 in all, × 1.006 = 28,459.74;
so 250 + 525.60 + 1,419.12 − 625 + 28,459.74 = 30,029.46 USD. Buying a second card costs less than the 657 / 0.8
rented hours it replaces (821.25 × 1.006 × 24 = 19,828 against 2,500 of capex and its energy), so a buyable card
is bought.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from planner import load_scenario, plan
from planner.engine import add_decisions
from planner.errors import InfeasibleError, ScenarioError
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
KEPT_AND_RENTED = 30029.46
RENTED_HOURS = (1600 - 657) / 0.8 * 24   # 28,290


def scenario_doc(**card) -> dict:
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    figures = {"gpu": "RTX-A5000", "price": 2000, "currency": "USD", "host_cost_per_card": 500, "busy_watts": 400,
               "idle_watts": 100, "life_years": 4, "maintenance_rate_per_year": 0.05, **card}
    doc["onprem"] = {"electricity_per_kwh": 0.20, "pue": 1.5, "availability": 0.9,
                     "custom_cards": {"rack-a5000": figures}, "existing": {"rack-a5000": 1}}
    doc["workloads"][0]["gpu_hours_per_month"] = 1600
    return doc


def test_a_custom_card_not_buyable_keeps_the_owned_one_and_rents_the_rest():
    p = plan(load_scenario(scenario_doc(buyable=False)))
    assert p.total == pytest.approx(KEPT_AND_RENTED, abs=0.01)
    card = p.fleet.set_index("sku").loc["rack-a5000"]
    assert (card["existing_units"], card["new_units"]) == (1, 0)
    assert p.fleet.set_index("sku").loc["g5.xlarge", "instance_hours"] == pytest.approx(RENTED_HOURS)
    # no baseline buys it either (each keeps the owned card)
    for baseline in p.baseline_plans.values():
        assert baseline.fleet[baseline.fleet["sku"] == "rack-a5000"]["new_units"].fillna(0).sum() == 0


def test_a_custom_card_is_bought_by_default():
    p = plan(load_scenario(scenario_doc()))
    assert p.fleet.set_index("sku").loc["rack-a5000", "new_units"] >= 1
    assert p.total < KEPT_AND_RENTED - 10_000   # the 19,828 of rented hours a card replaces, less its 2,500 and energy


def test_listing_a_custom_card_not_buyable_in_onprem_cards_is_refused_with_its_fix():
    doc = scenario_doc(buyable=False)
    doc["onprem"]["cards"] = ["rack-a5000"]
    with pytest.raises(ScenarioError) as caught:
        load_scenario(doc)
    assert ("onprem.cards: rack-a5000 is listed as a card to buy, but custom_cards.rack-a5000.buyable is false: remove "
            "it from onprem.cards, or set buyable to true") in str(caught.value)


def test_validate_names_the_line_of_the_listing(tmp_path):
    doc = scenario_doc(buyable=False)
    doc["onprem"] = {"cards": ["rack-a5000"], **doc["onprem"]}
    path = tmp_path / "rack.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.strip() == "cards:")
    checked = run("validate", path)
    assert checked.exit_code != 0 and "Traceback" not in checked.output
    assert f"{path}:{line + 1}:" in checked.stderr and "custom_cards.rack-a5000.buyable is false" in checked.stderr


def test_a_minimum_is_what_lets_a_plan_buy_it_and_its_cost_names_the_flag():
    doc = scenario_doc(buyable=False)
    doc["constraints"] = {"min_units": {"rack-a5000": 2}}
    p = plan(load_scenario(doc))
    assert p.fleet.set_index("sku").loc["rack-a5000", "new_units"] >= 1   # held at least 2: one bought at least
    add_decisions(p)
    row = p.cap_costs.set_index("cap").loc["constraints.min_units.rack-a5000"]
    # without the minimum the plan keeps the owned card and rents the rest: the 30,029.46 above
    assert row["total_without"] == pytest.approx(KEPT_AND_RENTED, abs=0.01)
    assert row["note"].startswith("custom_cards.rack-a5000.buyable is false: this minimum is what lets the plan buy it")
    assert row["note"].endswith("set onprem.custom_cards.rack-a5000.buyable to true to let the plan choose how many")


def test_a_flip_point_searched_without_the_minimum_lets_the_plan_buy_the_card():
    # 800 A5000-hours a month: the owned card works 657, the minimum of 2 buys a second for the other 143. Searched
    # with the minimum relaxed, the card must be buyable for the search (its flag set true, as a catalog card is
    # listed in onprem.cards): a second card pays where its fixed cost, 2,500 − 625 resale + 250 maintenance + 525.60
    # idle energy = 2,650.60, equals the rent it saves less its busy energy, 24 × x × (1.006 / 0.8 − 0.09) for x
    # hours a month beyond the owned card's 657: x = 2,650.60 / 28.02 = 94.597, a demand of 751.60
    doc = scenario_doc(buyable=False)
    doc["constraints"] = {"min_units": {"rack-a5000": 2}}
    doc["workloads"][0]["gpu_hours_per_month"] = 800
    p = plan(load_scenario(doc))
    add_decisions(p)
    row = p.flip_points.set_index("card").loc["rack-a5000"]
    assert row["flip_demand"] == pytest.approx(657 + 2650.60 / (24 * (1.006 / 0.8 - 0.09)), rel=1e-3)
    assert row["note"].startswith("min_units 2 relaxed and custom_cards.rack-a5000.buyable set to true for this search")


def test_buyable_is_a_field_of_custom_cards_only():
    # a catalog card is kept from purchase by leaving it out of onprem.cards: an override's buyable was accepted and
    # ignored (the plan bought the card), so it is an unknown key, as before custom cards had the field
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    doc["onprem"]["card_overrides"]["rtx-a5000"]["buyable"] = False
    with pytest.raises(ScenarioError, match=r"onprem\.card_overrides\.rtx-a5000\.buyable: unknown key"):
        load_scenario(doc)


def test_a_plan_with_no_fleet_says_the_flag_as_validate_does(tmp_path):
    # 2-GPU jobs: the only cloud offer (g5.xlarge) has 1 GPU, the custom card 4 per server but none owned nor buyable
    doc = scenario_doc(buyable=False, cards_per_server=4)
    doc["onprem"]["existing"] = {"rack-a5000": 0}
    doc["workloads"][0].update(gpus_per_job=2, gpu_hours_per_month=100)
    why = "rack-a5000 (RTX-A5000, 24 GB) could serve it, but custom_cards.rack-a5000.buyable is false and none is owned"
    with pytest.raises(InfeasibleError) as caught:
        plan(load_scenario(doc))
    assert why in str(caught.value)
    path = tmp_path / "rack.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    assert why in " ".join(run("validate", path).stderr.split())


def test_a_card_held_but_of_no_use_is_said_as_held_not_as_never_bought():
    # a T4 (16 GB) under a 20 GB workload: the owned card can do no work; "never buys it" told of a card the plan holds
    doc = scenario_doc(buyable=False, gpu="T4")
    doc["workloads"][0]["min_gpu_memory_gb"] = 20
    warned = [w for w in plan(load_scenario(doc)).warnings if w.startswith("custom card rack-a5000")]
    assert len(warned) == 1 and "so no card of it the plan holds does any work" in warned[0], warned
