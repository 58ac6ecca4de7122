"""GPU fleet planner: the engine behind the CLI, the dashboard and the notebooks.

    from planner import load_scenario, plan, compare, sweep, to_excel, to_focus
    scenario = load_scenario("scenarios/startup-hybrid.yaml")
    p = plan(scenario, onprem__electricity_per_kwh=0.2)
    p.fleet, p.costs, p.monthly, p.baselines, p.break_even      # DataFrames
    to_excel(p, "plan.xlsx"); to_focus(p, "focus.csv", start="2026-01")

Names are imported on first use, so `import planner` (and `fleetplan --help`) stays light.
`planner.__version__` is gpu-fleet-planner's version (planner/_version.py, which pyproject.toml reads).
"""

from __future__ import annotations

from planner._version import __version__ as __version__  # re-exported
from planner.lazy import lazy_names

_EXPORTS = {
    "CatalogError": "planner.errors", "InfeasibleError": "planner.errors", "PlannerError": "planner.errors",
    "ModelTooLarge": "planner.errors", "TooManyPurchaseVariables": "planner.errors",
    "PriceSourceError": "planner.errors", "PriceStoreLocked": "planner.errors", "PriceStoreUnusable": "planner.errors",
    "ScenarioError": "planner.errors",
    "SolverError": "planner.errors",
    "ScenarioReadOnly": "planner.scenario",
    "Scenario": "planner.scenario", "load_scenario": "planner.scenario", "apply_overrides": "planner.scenario",
    "flatten_scenario": "planner.scenario",
    "Plan": "planner.engine", "plan": "planner.engine", "add_baselines": "planner.engine",
    "add_decisions": "planner.engine",
    "Comparison": "planner.reports", "compare": "planner.reports", "sweep": "planner.reports",
    "SidesUnreadable": ("planner.reports.compare", "SidesUnreadable"),
    "to_json": ("planner.reports", "plan_to_json"), "to_csv": ("planner.reports", "plan_to_csv"),
    "to_excel": ("planner.reports", "plan_to_excel"), "to_focus": ("planner.reports", "plan_to_focus"),
    "to_markdown": ("planner.reports", "plan_to_markdown"), "to_dict": ("planner.reports", "plan_to_dict"),
    "write_files": ("planner.reports", "write_plan_files"),
}
__all__ = sorted(_EXPORTS)

__getattr__, __dir__ = lazy_names(__name__, _EXPORTS)
