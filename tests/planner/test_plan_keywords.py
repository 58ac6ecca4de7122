"""plan()'s keyword arguments beyond its own parameters are scenario overrides (`__` for `.`). One that names no
scenario field and is spelt like a parameter of plan() is a PlannerError saying so ("did you mean baselines=…?"):
it was refused as an unknown key of the scenario, offered the scenario's keys only."""

from pathlib import Path

import pytest

from planner import plan
from planner.errors import PlannerError, ScenarioError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = str(ROOT / "scenarios" / "entry.yaml")
OTHERS = "(other keyword arguments are scenario overrides, e.g. onprem__electricity_per_kwh=0.2)"


@pytest.mark.parametrize("given, meant", [("baseline", "baselines"), ("time_limt", "time_limit"), ("solve", "solver"),
                                          ("extra_constraint", "extra_constraints"), ("Reduced", "reduced")])
def test_a_misspelt_parameter_of_plan_is_named_as_one(given, meant):
    with pytest.raises(PlannerError) as info:
        plan(ENTRY, **{given: False})
    assert not isinstance(info.value, ScenarioError)
    assert str(info.value) == f"plan(): unknown keyword argument {given!r}; did you mean {meant}=…? {OTHERS}"


def test_a_misspelt_scenario_field_keeps_the_overrides_did_you_mean():
    with pytest.raises(ScenarioError, match=r"horizon_month: unknown key 'horizon_month' under \(top level\); "
                                            r"did you mean 'horizon_months'\?"):
        plan(ENTRY, horizon_month=12)


def test_scenario_overrides_as_keywords_still_apply():
    p = plan(ENTRY, baselines=False, horizon_months=12, onprem__electricity_per_kwh=0.2)
    assert p.horizon_months == 12
    assert p.scenario.onprem.electricity_per_kwh == 0.2
