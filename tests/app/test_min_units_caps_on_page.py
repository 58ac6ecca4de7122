"""The Plan page says at once that a unit minimum alone passes a cap, in validate's words with the page's names for
the fields (tables.infeasible_words): the library's plan, which the page's worker runs, solved such a scenario to
"no fleet" first (engine.run.check_min_units_within_caps now refuses it before).

Oracle by hand: startup-hybrid.yaml's min_units keeps one a100-80gb-pcie, which its card_overrides give 300 W busy:
0.30 kW, more than a 0.2 kW power cap."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def test_a_power_cap_below_the_one_a100_of_min_units_is_said_in_the_pages_words():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.number_input(key="edit:power_cap_kw").set_value(0.2).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value.replace("\\", "") for e in at.error if "No fleet meets this scenario" in e.value]
    assert ("“a100-80gb-pcie: least cards” (scenario file only): 1 card needs at least 0.30 kW in service (1 × 300 W "
            "busy), more than power cap 0.2 kW: raise the power cap or lower the minimum") in said
    assert "recommended:" not in said and "constraints.min_units" not in said


def test_the_minimums_of_several_cards_are_named_in_the_pages_words():
    from fleetplan_dashboard import tables

    said = tables.infeasible_words(
        "recommended: constraints.min_units (a100-80gb-pcie: 3, rtx-4090: 10) need at least 60,251 EUR of new cards "
        "(…), more than onprem.capex_budget 60,000 EUR: raise onprem.capex_budget or lower the minimums")
    assert said == ("recommended: “least cards” (scenario file only) (a100-80gb-pcie: 3, rtx-4090: 10) need at least "
                    "60,251 EUR of new cards (…), more than capex budget 60,000 EUR: raise the capex budget or lower "
                    "the minimums")
