"""GPU fleet planner: the engine behind the CLI, the dashboard and the notebooks.

    from planner import load_scenario
    scenario = load_scenario("scenarios/startup-hybrid.yaml")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from planner.errors import CatalogError, InfeasibleError, PlannerError, PriceSourceError, ScenarioError
from planner.scenario import Scenario, load_scenario_file, load_scenario_text, parse_scenario


def load_scenario(source: str | Path | dict[str, Any]) -> Scenario:
    """A validated Scenario from a file path, a dict, or YAML text."""
    if isinstance(source, dict):
        return parse_scenario(source, origin="<dict>")
    if isinstance(source, Path) or ("\n" not in str(source) and str(source).endswith((".yaml", ".yml"))):
        return load_scenario_file(source)
    return load_scenario_text(str(source))


__all__ = ["CatalogError", "InfeasibleError", "PlannerError", "PriceSourceError", "Scenario",
           "ScenarioError", "load_scenario"]
