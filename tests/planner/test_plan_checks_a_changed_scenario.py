"""A Scenario changed with pydantic's `model_copy(update=…)` (which checks nothing) is validated again by plan(),
plan_summary(), sweep() and compare(), as a dict of its fields would be: an audit (2026-12) found
`plan(s.model_copy(update={"horizon_months": -5}))` raising a raw IndexError in the cost schedule and
`{"horizon_months": "x"}` a raw TypeError. A scenario the loader made is taken as it is (not validated twice), and a
valid copy plans as its changed file would. Figures by hand from the README's worked example."""

from __future__ import annotations

import importlib
import io
import pickle
from pathlib import Path

import pytest

import planner.engine.run
from planner import ScenarioError, apply_overrides, compare, load_scenario, plan, sweep, to_dict
from planner.engine import plan_summary
from planner.scenario.loading import validated_here

# the module (planner.reports exports its sweep function under the same name)
sweep_module = importlib.import_module("planner.reports.sweep")

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def worked():
    return load_scenario(WORKED)


@pytest.mark.parametrize("update, problem", [
    ({"horizon_months": -5}, "horizon_months: expected a number ≥ 1, got -5"),
    ({"horizon_months": "x"}, "horizon_months: expected a whole number, got 'x'"),
    ({"discount_rate": float("nan")}, "discount_rate: expected a finite number, got .nan"),
    ({"horizon_mnths": 12}, "horizon_mnths: unknown key; did you mean 'horizon_months'?"),
])
def test_plan_of_a_copy_with_a_bad_value_is_a_scenario_error_naming_the_field(worked, update, problem):
    with pytest.raises(ScenarioError) as info:
        plan(worked.model_copy(update=update), baselines=False)
    assert info.value.problems == [f"<Scenario>: {problem}"]


def test_a_nested_copy_with_a_misspelt_card_gets_a_did_you_mean(worked):
    changed = worked.model_copy(update={"onprem": worked.onprem.model_copy(update={"cards": ("rtx-a500",)})})
    with pytest.raises(ScenarioError) as info:
        plan(changed, baselines=False)
    assert info.value.problems == ["<Scenario>: onprem.cards[0]: unknown card 'rtx-a500'; did you mean 'rtx-a5000'?"]
    # a key no field of onprem is: model_copy keeps it, unread, and a dump drops it
    with pytest.raises(ScenarioError) as info:
        plan(worked.model_copy(update={"onprem": worked.onprem.model_copy(update={"electricty_per_kwh": 0.1})}))
    assert info.value.problems == ["<Scenario>: onprem.electricty_per_kwh: unknown key; did you mean "
                                   "'electricity_per_kwh'?"]


def test_plan_summary_sweep_and_compare_check_a_copy_before_solving(worked, nothing_solved):
    bad = worked.model_copy(update={"horizon_months": -5})
    said = "<Scenario>: horizon_months: expected a number ≥ 1, got -5"
    for call in (lambda: plan_summary(bad), lambda: sweep(bad, vary={"onprem.pue": [1.2, 1.5]}),
                 lambda: compare(bad, worked)):
        with pytest.raises(ScenarioError) as info:
            call()
        assert info.value.problems == [said]


def test_a_valid_copy_plans_as_its_changed_file_would(worked):
    # electricity 0.10 USD/kWh instead of 0.20 halves the card's energy: idle 525.60 → 262.80, busy 1,419.12 →
    # 709.56; capex 2,500, resale −625, maintenance 250 and cloud 4,315.74 stay: 7,413.10 USD
    cheaper = worked.model_copy(update={"onprem": worked.onprem.model_copy(update={"electricity_per_kwh": 0.10})})
    p = plan(cheaper, baselines=False)
    assert p.total == pytest.approx(7413.10, abs=0.005)
    assert p.cost("energy") == pytest.approx(262.80 + 709.56, abs=0.005)
    # its offers CSV named as the scenario file wrote it (the folder its file names it against is kept)
    assert to_dict(p)["prices"]["source"] == "offers-g5-us-east-1.csv"


def test_a_scenario_the_loader_made_is_not_validated_again(worked, monkeypatch):
    checked = []
    monkeypatch.setattr(planner.engine.run, "parse_scenario",
                        lambda data, origin: checked.append(origin) or pytest.fail("validated again"))
    assert plan(worked, baselines=False).total == pytest.approx(8385.46, abs=0.005)
    assert plan(apply_overrides(worked, {"onprem.pue": 1.5}), baselines=False).total == pytest.approx(8385.46, abs=0.005)
    # nor a sweep's points, which apply_overrides builds (in this process: processes=1)
    table = sweep(worked, vary={"onprem.pue": [1.5]}, processes=1)
    assert table["total"].tolist() == [pytest.approx(8385.46, abs=0.005)]
    assert checked == []


@pytest.mark.parametrize("path", sorted([*(ROOT / "scenarios").glob("*.yaml"), *(ROOT / "examples").glob("*.yaml")]),
                         ids=lambda p: p.name)
def test_an_unchanged_copy_of_each_shipped_scenario_is_validated_to_the_same_scenario(path):
    from planner.engine.run import checked_scenario

    s = load_scenario(path)
    again = checked_scenario(s.model_copy())
    assert again is not s and again == s
    assert again.model_dump() == s.model_dump()



def test_a_sweep_s_worker_takes_the_points_its_sweep_sends_as_validated(worked, monkeypatch):
    # a worker process (reports.sweep._serve) gets each point pickled on its pipe from the sweep that checked it: a new
    # object, which plan() would validate again (0.5-0.8 ms a point) unless the worker notes it as validated
    sent = io.BytesIO()
    pickle.dump((0, pickle.loads(pickle.dumps(worked)), "highs", False, {}), sent)
    sent.seek(0)
    seen = []
    monkeypatch.setattr(sweep_module, "_sweep_point", lambda scenario, *args, **kw: seen.append(validated_here(scenario)) or {})
    sweep_module._serve(sent, io.BytesIO())
    assert seen == [True]
