"""Why no fleet meets a capex budget is said with the cards' prices, not their watts: the explanation named the fleet
at the budget's least as it names one for a power cap, "1 × a100-80gb-pcie (300 W, 16,500 USD)" (an audit in a real
browser: watts have nothing to do with a budget). The engine leaves them out there (engine.explain.fleet_text; the
power cap's explanation keeps them: tests/planner/test_explain_least_fleet.py).

Oracle: startup-hybrid.yaml, whose a100-80gb-pcie must be bought (constraints.min_units 1) at more than a 1,000 USD
budget."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def test_the_plan_page_explains_a_budget_too_small_without_watts():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:capex_budget").set_value(1000.0).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error if "No fleet meets this scenario" in e.value]
    # the A100 its min_units asks alone passes the budget: said before solving (catalog.unit_floors), by its price:
    # 14,000 + 2,500 USD host share (its card_overrides)
    clause = said[said.index("“a100-80gb-pcie: least cards”"):]
    assert ("1 card needs at least 16,500 USD of new cards (1 × 16,500 USD: 14,000 + 2,500 host share), more than "
            "capex budget 1,000 USD") in clause
    assert " W," not in clause and " W)" not in clause
