"""The library's plan() refuses unit minimums whose new cards alone pass a cap at once, before its prices are read or
a model built, in the words validate and `fleetplan plan` say it (catalog.unit_floors, one check for both): it built
and solved such a model to "no fleet", or ran out of its time limit, where the CLI refused it at once. Sweeps
(plan_summary) make the same check, each such point a row of its own with the words as its note.

Figures worked out by hand from planner/data/onprem_cards.csv: an a100-80gb-pcie is 11,500 USD + 2,500 USD host share
= 14,000 USD, so 6 are 84,000 USD, above a capex budget of 60,000 USD, and 4 are 56,000 USD, within it; an rtx-4090
draws 810 W busy, so 13 of them 10.53 kW, above a 10 kW power cap, and 12 of them 9.72 kW, within it."""

from __future__ import annotations

import importlib
import sys

import pytest

from planner import plan
from planner.errors import InfeasibleError

WORKLOAD = {"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "A100-80GB-PCIE"}
SITE = {"electricity_per_kwh": 0.12, "pue": 1.4}
A100 = {"name": "x", "horizon_months": 12, "workloads": [WORKLOAD],
        "onprem": {**SITE, "cards": ["a100-80gb-pcie"], "capex_budget": 60000},
        "constraints": {"min_units": {"a100-80gb-pcie": 6}}}
A100_WORDS = ("recommended: constraints.min_units.a100-80gb-pcie: 6 cards need at least 84,000 USD of new cards "
              "(6 × 14,000 USD: 11,500 + 2,500 host share), more than onprem.capex_budget 60,000 USD: raise "
              "onprem.capex_budget or lower the minimum")
RTX = {"name": "x", "horizon_months": 12, "workloads": [{**WORKLOAD, "reference_gpu": "RTX-4090"}],
       "onprem": {**SITE, "cards": ["rtx-4090"], "power_cap_kw": 10},
       "constraints": {"min_units": {"rtx-4090": 13}}}
RTX_WORDS = ("recommended: constraints.min_units.rtx-4090: 13 cards need at least 10.53 kW in service (13 × 810 W "
             "busy), more than onprem.power_cap_kw 10 kW: raise onprem.power_cap_kw or lower the minimum")


def _with(scenario: dict, section: str, **changes) -> dict:
    return {**scenario, section: {**scenario[section], **changes}}


@pytest.fixture
def no_solve(monkeypatch):
    """Every engine module's build_model and solve (each imports them by name) fail if called."""
    # (planner.engine's own `solve` is the function, which hides its module of that name)
    solve, model = importlib.import_module("planner.engine.solve"), importlib.import_module("planner.engine.model")

    def refused(*args, **kwargs):
        raise AssertionError("a model was built or solved")

    originals = {"solve": solve.solve, "build_model": model.build_model}   # before their own modules' are replaced
    for module in [m for name, m in list(sys.modules.items()) if name.startswith("planner.")]:
        for name, function in originals.items():
            if getattr(module, name, None) is function:
                monkeypatch.setattr(module, name, refused)


def test_six_a100s_beyond_a_60000_usd_budget_are_refused_without_solving(no_solve):
    with pytest.raises(InfeasibleError) as info:
        plan(A100, baselines=False)
    assert str(info.value) == A100_WORDS


def test_thirteen_rtx_4090s_beyond_a_10_kw_power_cap_are_refused_without_solving(no_solve):
    with pytest.raises(InfeasibleError) as info:
        plan(RTX)
    assert str(info.value) == RTX_WORDS


def test_a_time_limit_does_not_turn_it_into_a_solver_stop(no_solve):
    with pytest.raises(InfeasibleError) as info:
        plan(A100, baselines=False, time_limit=0.001)
    assert str(info.value) == A100_WORDS


def test_an_override_that_passes_the_cap_is_refused_too(no_solve):
    with pytest.raises(InfeasibleError) as info:
        plan(_with(A100, "constraints", min_units={"a100-80gb-pcie": 4}), baselines=False,
             onprem__capex_budget=50000)
    # 4 × 14,000 = 56,000 USD
    assert "4 cards need at least 56,000 USD of new cards" in str(info.value)
    assert "more than onprem.capex_budget 50,000 USD" in str(info.value)


def test_the_check_is_the_one_that_reaches_the_solver(no_solve):
    # the fixture does stop a plan that gets as far as its model: 4 a100 are 56,000 USD, within 60,000
    with pytest.raises(AssertionError, match="built or solved"):
        plan(_with(A100, "constraints", min_units={"a100-80gb-pcie": 4}), baselines=False)


def test_minimums_within_the_caps_still_plan():
    p = plan(_with(A100, "constraints", min_units={"a100-80gb-pcie": 4}), baselines=False)
    assert p.status == "optimal"
    assert p.fleet.loc[p.fleet["sku"] == "a100-80gb-pcie", "units"].max() >= 4
    p = plan(_with(RTX, "constraints", min_units={"rtx-4090": 12}), baselines=False)
    assert p.status == "optimal"
    assert p.fleet.loc[p.fleet["sku"] == "rtx-4090", "units"].max() >= 12


def test_a_scenario_file_is_refused_in_the_same_words(tmp_path, no_solve):
    # the scenario keeps no text of its file (its values may be overrides' too): no lines, as for a dict
    path = tmp_path / "s.yaml"
    path.write_text("name: x\nhorizon_months: 12\nonprem:\n  electricity_per_kwh: 0.12\n  pue: 1.4\n"
                    "  cards: [a100-80gb-pcie]\n  capex_budget: 60000\nconstraints:\n  min_units: {a100-80gb-pcie: 6}\n"
                    "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: A100-80GB-PCIE}\n",
                    encoding="utf-8")
    with pytest.raises(InfeasibleError) as info:
        plan(path, baselines=False)
    assert str(info.value) == A100_WORDS


def test_a_sweep_point_beyond_the_budget_is_an_infeasible_row_with_the_words():
    from planner import sweep

    table = sweep(A100, {"onprem.capex_budget": [60000, 90000]}, processes=1)
    refused, planned = table.iloc[0], table.iloc[1]
    assert (refused["status"], refused["note"]) == ("infeasible", A100_WORDS.removeprefix("recommended: "))
    assert planned["status"] == "optimal" and "a100-80gb-pcie" in planned["fleet"]


def test_compare_names_the_side_whose_minimum_passes_the_cap():
    from planner import compare

    with pytest.raises(InfeasibleError) as info:
        compare(_with(A100, "onprem", capex_budget=90000), A100)
    assert str(info.value).endswith(A100_WORDS)
    assert str(info.value).startswith("b ")
