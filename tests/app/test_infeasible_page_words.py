"""Why no fleet meets a scenario, as the pages show it (tables.infeasible_words): the limits by the page's words, and
"scenario file only" beside those no widget of the page sets — the audit's "… or max_cloud_share 0.6 < 0.700 needed"
named a field the page cannot change. Oracles: startup-hybrid.yaml's max_cloud_share 0.6 (60 %); the engine's need of
0.700 (70.0 %) with a 0.5 kW power cap, as the audit read it on the page."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]


def test_the_plan_page_names_the_cloud_share_cap_in_words_and_as_the_files_only():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:power_cap_kw").set_value(0.5).run()
    assert not at.exception, [e.value for e in at.exception]
    [error] = [e.value.replace("\\", "") for e in at.error if "No fleet meets this scenario" in e.value]
    assert "max_cloud_share" not in error
    assert ("or “Cloud share cap (of the work)” of 60 % (scenario file only) < 70.0 % needed at the least: on-prem "
            "capacity is limited to") in error, error
    assert "Power cap 0.5 kW < 0.60 kW needed at the least" in error   # the sidebar's cap: no "file only"


def test_the_engines_other_field_names_are_said_in_words():
    # engine.constraints._owned_above_max and _min_units_out_of_reach, engine.explain's caps together
    assert tables.infeasible_words(
        "max_units.rtx-4090 = 1 < 2 units already owned (onprem.existing), and owned cards may not be switched off and "
        "rtx-4090's are not sold: its resale value is unknown (give onprem.card_overrides.rtx-4090.price to weigh a "
        "sale)") == (
        "“rtx-4090: most cards” (scenario file only) = 1 < 2 units already owned (the cards the scenario owns: scenario "
        "file only), and owned cards may not be switched off and rtx-4090's are not sold: its resale value is unknown "
        "(give rtx-4090 a price under “Card overrides (your figures for catalog cards)” (scenario file only) to weigh a "
        "sale)")
    assert tables.infeasible_words(
        "min_units.a100-80gb-pcie = 1 cannot be met in months 61-72: no a100-80gb-pcie can serve then (a life of 60 "
        "months, bought in month 1); buy more often (onprem.purchase_every_months) or lower min_units.a100-80gb-pcie"
    ) == ("“a100-80gb-pcie: least cards” (scenario file only) = 1 cannot be met in months 61-72: no a100-80gb-pcie can "
          "serve then (a life of 60 months, bought in month 1); buy more often (“Cards bought every … months”: scenario "
          "file only) or lower “a100-80gb-pcie: least cards” (scenario file only)")
    assert tables.infeasible_words(
        "no fleet meets all caps together (onprem.power_cap_kw 0.5 kW, onprem.capex_budget 60,000 USD, "
        "constraints.max_cloud_share 0.6; units owned or required: none); relax one or more of them") == (
        "no fleet meets all caps together (power cap 0.5 kW, capex budget 60,000 USD, “Cloud share cap (of the work)” "
        "of 60 % (scenario file only); units owned or required: none); relax one or more of them")
    assert tables.infeasible_words("… (onprem.capex_budget_per_year 1,250,000 EUR, …") == (
        "… (“Capex budget per year” of 1,250,000 EUR (scenario file only), …")


# The explanation names a fleet's catalog cards by their GPU (engine.explain.fleet_text: "2 × A100-80GB-PCIE (300 W, …)");
# the pages and the scenario file name them by their card id (planner/data/onprem_cards.csv: a100-80gb-pcie, whose GPU
# is A100-80GB-PCIE; hgx-h100-8gpu, whose GPU is H100-SXM)
FLEET = ("power cap 0.5 kW < 0.60 kW needed at the least: 2 × A100-80GB-PCIE (300 W, 16,500 USD each) + 1 × "
         "hgx-h100-8gpu (H100-SXM, 700 W, 250,000 USD); units owned or required: 1 × RTX-4090 (450 W, owned)")


def test_a_fleets_catalog_cards_are_named_by_their_card_ids():
    assert tables.infeasible_words(FLEET) == (
        "power cap 0.5 kW < 0.60 kW needed at the least: 2 × a100-80gb-pcie (300 W, 16,500 USD each) + 1 × "
        "hgx-h100-8gpu (H100-SXM, 700 W, 250,000 USD); units owned or required: 1 × rtx-4090 (450 W, owned)")
    # a GPU named elsewhere than as a fleet's card (a cloud offer's, a reason) is left as the engine says it
    said = "workload w (A100-80GB-PCIE memory) has no compatible offer: 24 GB per GPU < 80 GB needed (3 offers)"
    assert tables.infeasible_words(said) == said


def test_a_card_name_that_is_not_one_catalog_cards_alone_is_left_as_it_is(monkeypatch):
    # a custom card of the scenario named as the GPU: the name could be either card
    custom = SimpleNamespace(onprem=SimpleNamespace(custom_cards={"A100-80GB-PCIE": object()}))
    assert "2 × A100-80GB-PCIE (300 W" in tables.infeasible_words(FLEET, custom)
    # two catalog cards of one GPU
    import planner.catalog

    cards = planner.catalog.load_cards()
    twin = cards.loc[["a100-80gb-pcie"]].assign(card_id="a100-80gb-pcie-b").set_index("card_id", drop=False)
    monkeypatch.setattr(planner.catalog, "load_cards", lambda: pd.concat([cards, twin]))
    said = tables.infeasible_words(FLEET)
    assert "2 × A100-80GB-PCIE (300 W" in said and "1 × rtx-4090 (450 W" in said


def test_the_plan_page_names_the_fleets_cards_as_the_page_does():
    # startup-hybrid.yaml's own card: a100-80gb-pcie (its min_units and card_overrides)
    assert "min_units: {a100-80gb-pcie: 1}" in (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:power_cap_kw").set_value(0.5).run()
    assert not at.exception, [e.value for e in at.exception]
    [error] = [e.value.replace("\\", "") for e in at.error if "No fleet meets this scenario" in e.value]
    assert "× a100-80gb-pcie (300 W" in error and "A100-80GB-PCIE" not in error, error


def test_the_owned_card_rules_behind_a_power_cap_are_said_in_words():
    # engine.explain._owned_over_power names the scenario fields; the page has no widget for either
    said = tables.infeasible_words("…; the owned cards alone, 1 × RTX-A5000 (400 W), draw 0.40 kW, and onprem.sell_owned "
                                   "and onprem.switch_off_owned are false: allow either to take them out of service")
    assert said.endswith("draw 0.40 kW, and “Owned cards may be sold” and “Owned cards may be switched off” are off "
                         "(scenario file only): allow either to take them out of service")
    said = tables.infeasible_words("…, and are never sold: only switching it off (onprem.switch_off_owned, false) takes "
                                   "it out of service")
    assert said.endswith("only switching it off (“Owned cards may be switched off”, off: scenario file only) takes it "
                         "out of service")
    assert "onprem." not in said
