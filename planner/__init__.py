"""GPU fleet planner: the engine behind the CLI, the dashboard and the notebooks.

    from planner import load_scenario, plan, compare, sweep
    scenario = load_scenario("scenarios/startup-hybrid.yaml")
    p = plan(scenario, onprem__electricity_per_kwh=0.2)
    p.fleet, p.costs, p.monthly, p.baselines, p.break_even      # DataFrames
    p.to_excel("plan.xlsx"); p.to_focus("focus.csv", start="2026-01")
"""

from __future__ import annotations

from planner.errors import CatalogError, InfeasibleError, PlannerError, PriceSourceError, ScenarioError
from planner.scenario import Scenario
from planner.result import Plan
from planner import export as _export
from planner.api import Comparison, apply_overrides, compare, flatten_scenario, load_scenario, plan, sweep

# Exports as Plan methods (the functions live in planner/export.py; result.py stays free of file formats).
Plan.to_dict = _export.plan_to_dict
Plan.to_json = _export.plan_to_json
Plan.to_csv = _export.plan_to_csv
Plan.to_excel = _export.plan_to_excel
Plan.to_focus = _export.plan_to_focus
Plan.to_markdown = _export.plan_to_markdown
Plan.write_files = _export.write_plan_files

__all__ = ["CatalogError", "Comparison", "InfeasibleError", "Plan", "PlannerError", "PriceSourceError", "Scenario",
           "ScenarioError", "apply_overrides", "compare", "flatten_scenario", "load_scenario", "plan", "sweep"]
