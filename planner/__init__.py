"""GPU fleet planner: the engine behind the CLI, the dashboard and the notebooks.

    from planner import load_scenario, plan, compare, sweep, to_excel, to_focus
    scenario = load_scenario("scenarios/startup-hybrid.yaml")
    p = plan(scenario, onprem__electricity_per_kwh=0.2)
    p.fleet, p.costs, p.monthly, p.baselines, p.break_even      # DataFrames
    to_excel(p, "plan.xlsx"); to_focus(p, "focus.csv", start="2026-01")

Names are imported on first use, so `import planner` (and `fleetplan --help`) stays light.
`planner.__version__` is the installed distribution's version (gpu-fleet-planner).
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "CatalogError": "planner.errors", "InfeasibleError": "planner.errors", "PlannerError": "planner.errors",
    "PriceSourceError": "planner.errors", "ScenarioError": "planner.errors",
    "Scenario": "planner.scenario", "load_scenario": "planner.scenario", "apply_overrides": "planner.scenario",
    "flatten_scenario": "planner.scenario",
    "Plan": "planner.engine", "plan": "planner.engine", "add_baselines": "planner.engine",
    "add_decisions": "planner.engine",
    "Comparison": "planner.reports", "compare": "planner.reports", "sweep": "planner.reports",
    "to_json": ("planner.reports", "plan_to_json"), "to_csv": ("planner.reports", "plan_to_csv"),
    "to_excel": ("planner.reports", "plan_to_excel"), "to_focus": ("planner.reports", "plan_to_focus"),
    "to_markdown": ("planner.reports", "plan_to_markdown"), "to_dict": ("planner.reports", "plan_to_dict"),
    "write_files": ("planner.reports", "write_plan_files"),
}
__all__ = sorted(_EXPORTS)
DISTRIBUTION = "gpu-fleet-planner"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:   # run from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        globals()[name] = value = _version()
        return value
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'planner' has no attribute {name!r}")
    module, attr = target if isinstance(target, tuple) else (target, name)
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value
