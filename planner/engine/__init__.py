"""The engine: inputs resolved once from a scenario, exact reductions, the one cost schedule, the
MILP built by `define_*` functions, solved, read back into a Plan; baselines, explanations and decision values.
`add_decisions` is imported on first use: a plan without decision values never loads engine.decisions."""

from planner.engine.baselines import solve_baselines, solve_inputs
from planner.engine.constraints import CAPS, Cap
from planner.engine.inputs import Inputs, resolve_inputs
from planner.engine.model import Model, build_model
from planner.engine.readback import read_plan
from planner.engine.reductions import reduce
from planner.engine.result import Plan
from planner.engine.run import PlanSummary, add_baselines, inputs_for, plan, plan_summary
from planner.engine.schedule import COST_CATEGORIES, CostSchedule, build_schedule
from planner.engine.solve import SOLVERS, Solution, solve
from planner.lazy import lazy_names

__all__ = ["CAPS", "COST_CATEGORIES", "Cap", "CostSchedule", "Inputs", "Model", "Plan", "PlanSummary", "SOLVERS",
           "Solution", "add_baselines", "add_decisions", "build_model", "build_schedule", "inputs_for", "plan",
           "plan_summary", "read_plan", "reduce", "resolve_inputs", "solve", "solve_baselines", "solve_inputs"]


__getattr__, __dir__ = lazy_names(__name__, {"add_decisions": "planner.engine.decisions"})
