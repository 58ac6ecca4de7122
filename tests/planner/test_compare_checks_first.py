"""compare checks both sides before it solves either, and builds each side's inputs once (a review, 2026-12-06).

Before: where side b read the price store (`prices.source: store`), its model's size was checked only after
side a's whole solve (a minute of HiGHS, then "b: too large"); without a size limit (the library's default)
an offers CSV of b that could not be read was found after a's solve too; and where b's size was checked
first, b's prices were read and its inputs built twice (once to count its model, once by its plan).

Sizes by hand, as the docs count dispatch variables (units × workloads each can serve × periods, reduced):
- the two-offer scenario (test_model_size_limit: k80_and_t4.csv, one T4-hours workload of 100 h a month,
  flat) reduces to 1: the T4 offer, 1 period (the K80 offer is dominated);
- `three_on_the_store`: the store holds one aws us-east-1 row, the packaged g4dn.xlarge on-demand offer (one
  T4, 0.526 USD/h), and three flat T4-hours workloads: 1 unit × 3 workloads × 1 period = 3.
So a limit of 2 passes a and refuses b.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

from planner.engine import run as engine_run
from planner.engine.solve import DEFAULT_SOLVER
from planner.errors import ModelTooLarge, PlannerError, PriceSourceError, PriceStoreUnusable
from planner.scenario import load_scenario
from tests.planner.cli_run import one_line_error, run
from tests.planner.test_model_size_limit import two_offer_scenario

compare_module = importlib.import_module("planner.reports.compare")   # the package's name is the function

T4_HOURLY = 0.526          # g4dn.xlarge on demand, us-east-1, in the packaged snapshot and so in the store
HOURS = {"x": 100, "y": 200, "z": 300}


@pytest.fixture
def store(tmp_path) -> Path:
    """A price store made with the store's own API from one packaged snapshot row: aws us-east-1's g4dn.xlarge
    on demand (its prices replace every packaged aws us-east-1 row)."""
    from pricing_adapters.snapshot import load_snapshot
    from pricing_adapters.store import PriceStore

    snap = load_snapshot()
    row = snap[snap["offer_id"] == "aws:us-east-1:g4dn.xlarge:on_demand"]
    assert len(row) == 1 and row["gpu"].item() == "T4" and row["hourly_price"].item() == T4_HOURLY
    path = tmp_path / "prices.sqlite"
    PriceStore(path).save("aws", ["us-east-1"], "packaged rows (test)", row)
    return path


def three_on_the_store(tmp_path: Path) -> Path:
    path = tmp_path / "three-on-the-store.yaml"
    path.write_text(yaml.safe_dump({
        "name": "three on the store", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
        "prices": {"source": "store", "providers": ["aws"], "regions": ["us-east-1"], "purchase_options": ["on_demand"]},
        "workloads": [{"name": n, "gpu_hours_per_month": h, "reference_gpu": "T4"} for n, h in HOURS.items()]}),
        encoding="utf-8")
    return path


def _recorded(monkeypatch, function: str) -> list:
    """The `name` of the first argument of each call of engine.run's `function`, which still runs."""
    calls = []
    real = getattr(engine_run, function)
    monkeypatch.setattr(engine_run, function, lambda x, *a, **k: calls.append(x.name) or real(x, *a, **k))
    return calls


@pytest.fixture
def solves(monkeypatch) -> list:
    """Each solve of a plan's model (engine.run's solve_inputs), recorded."""
    return _recorded(monkeypatch, "solve_inputs")


@pytest.fixture
def builds(monkeypatch) -> list:
    """The name of each scenario whose inputs are built (engine.run's inputs_for: its prices read, resolved)."""
    return _recorded(monkeypatch, "inputs_for")


def test_b_on_the_store_too_large_is_refused_before_a_is_solved(tmp_path, store, solves, builds):
    small, large = two_offer_scenario(tmp_path), three_on_the_store(tmp_path)
    with pytest.raises(ModelTooLarge) as caught:
        compare_module.compare(small, large, store=store, max_dispatch_variables=2)
    assert caught.value.where == "b (three-on-the-store.yaml): "
    assert (caught.value.pairs, caught.value.periods, caught.value.limit) == (3, 1, 2)
    assert solves == []                                  # a was not solved first
    assert builds == ["size check", "three on the store"]


def test_cli_b_on_the_store_too_large_exits_2_before_a_is_solved(tmp_path, store, solves):
    small, large = two_offer_scenario(tmp_path), three_on_the_store(tmp_path)
    result = run("compare", small, large, "--store", store, "--max-variables", 2)
    assert result.exit_code == 2 and result.stdout == ""
    error = one_line_error(result)
    assert error.startswith("error: b (three on the store): too large to plan with --max-variables 2: 3 dispatch "
                            "variables (3 unit–workload pairs × 1 period)"), error
    assert error.endswith("or allow it with --max-variables 3")
    assert solves == []


def test_each_scenario_side_is_built_once_and_planned_from_what_was_checked(tmp_path, store, solves, builds):
    small, large = two_offer_scenario(tmp_path), three_on_the_store(tmp_path)
    # b from an offers CSV, as a: its size was checked from inputs built then built again by its plan
    cmp = compare_module.compare(small, small, max_dispatch_variables=1)
    assert builds == ["size check", "size check"] and solves == ["size check", "size check"]
    assert cmp.total_a == cmp.total_b == pytest.approx(T4_HOURLY * 100 * 12)          # 631.20
    # b from the store, within the limit: priced from the store's row, built once
    builds.clear()
    cmp = compare_module.compare(small, large, store=store, max_dispatch_variables=3)
    assert builds == ["size check", "three on the store"]
    assert cmp.total_b == pytest.approx(T4_HOURLY * sum(HOURS.values()) * 12)          # 3,787.20
    assert cmp.plan_b.prices["source"] == "store"


def test_cli_builds_each_side_once(tmp_path, builds):
    small = two_offer_scenario(tmp_path)
    result = run("compare", small, small, "--format", "json")   # the default --max-variables: sizes are checked
    assert result.exit_code == 0, result.output
    assert builds == ["size check", "size check"]


def test_b_whose_offers_cannot_be_read_is_refused_before_a_is_solved_without_a_limit(tmp_path, solves):
    small = two_offer_scenario(tmp_path)
    offers = tmp_path / "offers.csv"
    offers.write_text("provider,region\naws,us-east-1\n", encoding="utf-8")   # no offer columns
    bad = tmp_path / "bad-offers.yaml"
    bad.write_text(small.read_text(encoding="utf-8").replace(str(yaml.safe_load(small.read_text())["prices"]["source"]),
                                                             str(offers)), encoding="utf-8")
    with pytest.raises(PriceSourceError, match=r"offers\.csv: missing columns \['offer_id'"):
        compare_module.compare(small, bad)
    assert solves == []


def test_where_both_sides_are_too_large_a_is_named(tmp_path, store, solves):
    large = three_on_the_store(tmp_path)
    small = two_offer_scenario(tmp_path)
    with pytest.raises(ModelTooLarge) as caught:   # in the order of the arguments, whatever b's price source
        compare_module.compare(small, small, max_dispatch_variables=0)
    assert caught.value.where == "a (two-offers.yaml): "
    with pytest.raises(ModelTooLarge) as caught:
        compare_module.compare(large, small, store=store, max_dispatch_variables=0)
    assert caught.value.where == "a (three-on-the-store.yaml): "
    assert solves == []


def test_a_damaged_store_fails_the_comparison_and_is_left_as_it_is(tmp_path, store, solves):
    # a, solved first, set the store aside and was planned on the packaged snapshot; b, read after, found no store
    # and was too: both on other prices than the scenario asks for, exit 0
    data = bytearray(store.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)     # SQLite's header (ours) kept, every page after it broken
    store.write_bytes(bytes(data))
    large = three_on_the_store(tmp_path)
    with pytest.raises(PriceStoreUnusable, match=r"is a damaged price store \(database disk image is malformed\)"):
        compare_module.compare(large, large, store=store)
    assert store.read_bytes() == bytes(data) and not list(store.parent.glob(f"{store.name}.bad-*"))
    assert solves == []


def test_plan_takes_only_inputs_of_the_scenario_as_given(tmp_path):
    s = load_scenario(two_offer_scenario(tmp_path))
    base = engine_run.inputs_for(s)
    assert engine_run.plan(s, baselines=False, inputs=base).total == pytest.approx(T4_HOURLY * 100 * 12)
    for bad in ({"reduced": False}, {"horizon_months": 24}, {"overrides": {"horizon_months": 24}}):
        with pytest.raises(PlannerError, match="plan: inputs: expected the inputs of the scenario as given"):
            engine_run.plan(s, baselines=False, inputs=base, **bad)
    # inputs of another scenario (another horizon here; the name and currency are checked too) are refused
    other = s.model_copy(update={"horizon_months": 24})
    with pytest.raises(PlannerError, match=r"plan: inputs: these are the inputs of .* \(12 months, USD\), not of the "
                                           r"scenario given \(.*, 24 months, USD\)"):
        engine_run.plan(other, baselines=False, inputs=base)


def test_dashboard_compare_checks_a_side_without_solving_and_plans_from_its_inputs(tmp_path, monkeypatch, solves,
                                                                                   builds):
    # the Compare page asks state.prepared of both sides before it asks state.recommended of either
    from fleetplan_dashboard import jobs, state

    monkeypatch.setattr(jobs, "MAX_DISPATCH_VARIABLES", 0)
    s = load_scenario(two_offer_scenario(tmp_path))
    inputs, problem = state.prepared(s)
    assert inputs is None and solves == []
    assert problem == jobs.recommended_job(s, DEFAULT_SOLVER).message   # what its plan would say
    assert problem.startswith("too large to plan here: 1 dispatch variables")
    # a plan already refused (the Plan page's) is said without building its inputs again
    assert state.recommended(s).message == problem
    builds.clear()
    assert state.prepared(s) == (None, problem) and builds == [] and solves == []
    monkeypatch.setattr(jobs, "MAX_DISPATCH_VARIABLES", 1)
    state.clear_plan_cache()
    builds.clear()
    inputs, problem = state.prepared(s)
    assert problem == "" and inputs is not None
    outcome = state.recommended(s, inputs=inputs)
    assert outcome.kind == "ok" and outcome.plan.total == pytest.approx(T4_HOURLY * 100 * 12)
    assert builds == ["size check"]
    state.clear_plan_cache()   # made under this test's limits: no other test's


@pytest.mark.parametrize("limit", ["10", -1])
def test_a_limit_that_is_no_whole_number_is_refused_as_plan_refuses_it(tmp_path, limit, solves):
    # it was compared with b's size first: "10" raised a TypeError, -1 said b was too large for it
    small = two_offer_scenario(tmp_path)
    with pytest.raises(PlannerError, match="max_dispatch_variables: expected a whole number from 0"):
        compare_module.compare(small, small, max_dispatch_variables=limit)
    assert solves == []
