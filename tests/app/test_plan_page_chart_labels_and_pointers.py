"""The Plan page's chart labels say what the plan holds, and a message asking for another input says where the
inputs are (an audit, 2026-12-06): the "Cards in service" legend listed rtx-a5000, a card startup-hybrid.yaml never
buys (it has no sourced price); the cumulative chart called every recommended plan "hybrid", entry.yaml's all-cloud
one too; on a phone the inputs are in a hidden sidebar and "No fleet meets this scenario" did not say so.

Facts from outside the code: startup-hybrid.yaml's plan buys one A100 80 GB and one RTX 4090 and sells the two RTX
3060s it owns in month 1 (README, "Your first answer"), so those two cards are the ones in service; entry.yaml's
plan rents Azure T4 instances and holds no card; with no cloud provider allowed a plan holds cards only; a capex
budget of 5,000 USD is below the 16,500 USD of the one A100 80 GB its min_units asks for.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
SIDEBAR = "the sidebar (on a phone: the » button at the top left)"


def _page(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, at.exception
    return at


def _traces(at: AppTest, title_start: str) -> list[str]:
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    found = [c for c in charts if c["layout"]["title"]["text"].startswith(title_start)]
    assert len(found) == 1, [c["layout"]["title"]["text"] for c in charts]
    return [t.get("name") for t in found[0]["data"]]


def test_the_cards_in_service_legend_names_only_the_cards_the_plan_holds():
    at = _page(scenario="startup-hybrid.yaml")
    assert sorted(_traces(at, "Cards in service")) == ["a100-80gb-pcie", "rtx-4090"]


def test_the_cumulative_chart_names_the_recommended_plan_by_what_it_holds():
    assert _traces(_page(scenario="entry.yaml"), "Cumulative cost")[0] == "Recommended (all cloud)"
    assert _traces(_page(scenario="startup-hybrid.yaml"), "Cumulative cost")[0] == "Recommended (hybrid)"
    no_cloud = _page(**{"scenario": "startup-hybrid.yaml", "prices.providers": ""})
    assert _traces(no_cloud, "Cumulative cost")[0] == "Recommended (all on-prem)"


def test_no_fleet_says_where_the_inputs_are():
    at = _page(scenario="startup-hybrid.yaml")
    at.number_input(key="edit:capex_budget").set_value(5000.0).run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error if "No fleet meets this scenario" in e.value]
    # the explanation as a reader sees it (tables.message_block escapes it, and starts it with a capital)
    assert len(errors) == 1 and "more than capex budget 5,000 USD" in errors[0].replace("\\", "")
    assert f"in {SIDEBAR}: *Demand*, *Horizon and site*, *Caps*" in errors[0]
