"""Why no fleet meets a capex budget is said with the cards' prices, not their watts: the explanation named the fleet
at the budget's least as it names one for a power cap, "1 × a100-80gb-pcie (300 W, 16,500 USD)" (an audit in a real
browser: watts have nothing to do with a budget). The power cap's explanation keeps them.

Oracles: explanations written here by hand in the engine's form (engine.explain.fleet_text); startup-hybrid.yaml, whose
a100-80gb-pcie must be bought (constraints.min_units 1) at more than a 1,000 USD budget."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]


def test_the_capex_clause_loses_the_watts_and_the_power_clause_keeps_them():
    message = ("recommended: power cap 0.5 kW < 0.6 kW needed at the least: 1 × mycard (450 W, 1,800 USD); or capex "
               "budget 1,000 USD < 1,800 USD needed at the least: 1 × mycard (450 W, 1,800 USD) + 2 × c0 (A10G, 150 W, "
               "owned)")
    assert tables.infeasible_words(message) == (
        "recommended: power cap 0.5 kW < 0.6 kW needed at the least: 1 × mycard (450 W, 1,800 USD); or capex "
        "budget 1,000 USD < 1,800 USD needed at the least: 1 × mycard (1,800 USD) + 2 × c0 (A10G, owned)")


def test_the_plan_page_explains_a_budget_too_small_without_watts():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:capex_budget").set_value(1000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error if "No fleet meets this scenario" in e.value]
    clause = said[said.index("Capex budget 1,000 USD"):]
    assert "needed at the least: 1 × rtx-3060-12gb (owned) + 1 × a100-80gb-pcie (" in clause
    assert " W," not in clause and " W)" not in clause
