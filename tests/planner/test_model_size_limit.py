"""`fleetplan plan --max-variables` (and compare's, sweep's): a model over the limit is refused before it is built. Without it,
`plan scenarios/industrial.yaml --unreduced` (10.3 million dispatch variables) passed 5.4 GB of memory within
a minute, and the merged-hours warning tells users to try --unreduced. Sizes here are counted by hand:
unreduced, every weekly hour of every month is its own period (months × 168)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
import yaml

from planner import plan, sweep
from planner.engine.run import plan_summary
from planner.errors import ModelTooLarge, ScenarioError
from planner.scenario import load_scenario
from tests.planner.cli_run import one_line_error, run
from tests.planner.test_profile_slots_caps import scenario as grouped_scenario

ROOT = Path(__file__).resolve().parents[2]
OFFERS = ROOT / "tests" / "fixtures" / "offers" / "k80_and_t4.csv"


def two_offer_scenario(tmp_path: Path) -> Path:
    """12 months, one workload that both offers of k80_and_t4.csv (a T4 and a K80 instance, on demand) can
    serve, no cards: 2 unit–workload pairs."""
    path = tmp_path / "two-offers.yaml"
    path.write_text(yaml.safe_dump({
        "name": "size check", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
        "prices": {"source": str(OFFERS), "providers": ["aws"], "purchase_options": ["on_demand"]},
        "workloads": [{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "T4"}]}), encoding="utf-8")
    return path


def test_an_unreduced_model_over_the_limit_is_refused_with_its_size_and_the_way_out(tmp_path):
    path = two_offer_scenario(tmp_path)
    # 2 pairs × (12 months × 168 weekly hours = 2,016 periods) = 4,032 dispatch variables
    result = run("plan", path, "--unreduced", "--max-variables", 4031, "--no-decisions", "--format", "json")
    assert result.exit_code == 2 and result.stdout == ""
    error = one_line_error(result)
    assert "too large to plan with --max-variables 4,031: 4,032 dispatch variables" in error
    assert "(2 unit–workload pairs × 2,016 periods)" in error
    # about 3 KB each: 12 MB; the two ways out, the second a number the option takes as written
    assert "about 12 MB of memory" in error and "plan it without --unreduced" in error
    assert error.endswith("or allow it with --max-variables 4032")


def test_at_the_limit_the_unreduced_plan_is_made_and_agrees_with_the_reduced_one(tmp_path):
    path = two_offer_scenario(tmp_path)
    totals = []
    for flags in (["--unreduced", "--max-variables", 4032], []):   # at the limit; the default, reduced
        result = run("plan", path, *flags, "--no-decisions", "--no-baselines", "--format", "json")
        assert result.exit_code == 0, result.output
        totals.append(json.loads(result.stdout)["total"])
    # the T4 instance (g4dn.xlarge, 0.526 USD/h) does the 100 T4-hours a month: 0.526 × 100 × 12 = 631.20
    assert totals == pytest.approx([631.2, 631.2], rel=1e-9)


def test_the_default_limit_refuses_industrial_unreduced_before_building_it():
    result = run("plan", ROOT / "scenarios" / "industrial.yaml", "--unreduced", "--no-decisions", "--format", "json")
    assert result.exit_code == 2 and result.stdout == ""
    error = one_line_error(result)
    horizon = yaml.safe_load((ROOT / "scenarios" / "industrial.yaml").read_text(encoding="utf-8"))["horizon_months"]
    assert "too large to plan with --max-variables 500,000:" in error
    assert f"× {horizon * 168:,} periods)" in error and "plan it without --unreduced" in error


def test_a_reduced_model_over_the_limit_names_the_scenario_changes_that_shrink_it():
    path = ROOT / "scenarios" / "startup-hybrid.yaml"
    result = run("plan", path, "--max-variables", 1, "--no-decisions")
    assert result.exit_code == 2 and result.stdout == ""
    error = one_line_error(result)
    assert error.startswith(f"error: {path}: too large to plan with --max-variables 1: ")
    assert "allow fewer regions or providers" in error and "--unreduced" not in error


def test_the_exact_plan_a_grouping_falls_back_to_is_held_to_the_limit_too(tmp_path):
    # test_profile_slots_caps' scenario: 24 grouped blocks leave no fleet under its cap, so the plan is made on
    # all 168 weekly weights (a model of up to 7× the periods); one offer and one card serve its one workload
    path = grouped_scenario(tmp_path, 0.0585)
    with pytest.raises(ModelTooLarge) as grouped:
        plan(path, baselines=False, max_dispatch_variables=1)
    limit = grouped.value.dispatch_variables          # the grouped model passes this limit …
    with pytest.raises(ModelTooLarge) as exact:
        plan(path, baselines=False, max_dispatch_variables=limit)
    assert exact.value.pairs == grouped.value.pairs == 2
    assert exact.value.periods % 168 == 0 and exact.value.dispatch_variables > limit   # … the exact one does not
    assert exact.value.limit == limit


ENTRY = ROOT / "scenarios" / "entry.yaml"


def test_compare_holds_each_side_to_the_limit_and_names_the_side(tmp_path):
    # the two-offer scenario reduces to one dispatch variable (the T4 offer, one period); entry.yaml to more
    small = two_offer_scenario(tmp_path)
    entry_name = yaml.safe_load(ENTRY.read_text(encoding="utf-8"))["name"]
    result = run("compare", small, ENTRY, "--max-variables", 1)
    assert result.exit_code == 2 and result.stdout == ""
    assert one_line_error(result).startswith(f"error: b ({entry_name}): too large to plan with --max-variables 1: ")
    # the unreduced sizes are never built: a side is planned reduced, as plan plans it
    assert run("compare", small, small, "--max-variables", 1, "--format", "json").exit_code == 0


def test_compare_refuses_a_too_large_side_b_before_it_solves_side_a(tmp_path, monkeypatch):
    # side a, the two-offer scenario (1 dispatch variable reduced), would be planned first; b, entry.yaml (3 pairs
    # × 16 periods reduced), is over a limit of 1: refused with no solve at all, naming b. (Where both sides are
    # over the limit, a is named: test_compare_checks_first.py.)
    compare_module = importlib.import_module("planner.reports.compare")   # the package's name is the function
    solved = []
    real_plan = compare_module.plan
    monkeypatch.setattr(compare_module, "plan", lambda *a, **k: solved.append(a) or real_plan(*a, **k))
    small = two_offer_scenario(tmp_path)
    with pytest.raises(ModelTooLarge) as caught:
        compare_module.compare(small, ENTRY, max_dispatch_variables=1)
    assert caught.value.where == "b (entry.yaml): " and caught.value.pairs * caught.value.periods == 48
    assert solved == []
    # and a scenario error in b is reported before a is solved
    broken = tmp_path / "broken.yaml"
    broken.write_text(small.read_text(encoding="utf-8").replace("horizon_months: 12", "horizon_months: -3"),
                      encoding="utf-8")
    with pytest.raises(ScenarioError, match="horizon_months"):
        compare_module.compare(ENTRY, broken)
    assert solved == []
    # within the limit both sides are solved, a first
    assert compare_module.compare(small, small, max_dispatch_variables=1).total_a == pytest.approx(0.526 * 100 * 12)
    assert len(solved) == 2


@pytest.mark.parametrize("processes", [1, 2])   # in this process, and in worker processes (the limit travels)
def test_a_sweep_point_over_the_limit_is_an_error_row(tmp_path, processes):
    small = two_offer_scenario(tmp_path)
    # 100 → 1 T4-hour a month: the model is the same size; the limit 0 < 1 refuses both points
    table = sweep(small, {"workloads.w.gpu_hours_per_month": [1, 100]}, processes=processes, max_dispatch_variables=0)
    assert list(table["status"]) == ["error", "error"]
    assert all(note.startswith("too large to plan here: 1 dispatch variables") and "at most 0)" in note
               for note in table["note"])
    allowed = sweep(small, {"workloads.w.gpu_hours_per_month": [1, 100]}, processes=processes, max_dispatch_variables=1)
    # 0.526 USD/h × hours × 12 months
    assert list(allowed["status"]) == ["optimal", "optimal"]
    assert list(allowed["total"]) == pytest.approx([0.526 * 12, 0.526 * 100 * 12], rel=1e-9)


def test_the_cli_sweep_passes_its_limit_to_every_point():
    result = run("sweep", ENTRY, "--vary", "onprem.pue=1.2,1.3", "--max-variables", 1, "--processes", 1,
                 "--format", "json")
    assert result.exit_code == 2, result.output   # no point has a plan, each an error (tests/planner/test_sweep_exit.py)
    rows = json.loads(result.stdout)
    assert [r["status"] for r in rows] == ["error", "error"]
    assert all("too large to plan here" in r["note"] and "at most 1)" in r["note"] for r in rows)
    assert "2 of 2 points are too large for --max-variables 1; their notes give each model's size, and a larger " \
           "--max-variables allows them" in " ".join(result.stderr.split())


def test_plan_summary_is_held_to_the_limit_and_its_error_travels_between_processes():
    import pickle

    with pytest.raises(ModelTooLarge) as info:
        plan_summary(load_scenario(ENTRY), max_dispatch_variables=1)
    again = pickle.loads(pickle.dumps(info.value))   # a plan in a process pool: as it was raised
    assert (type(again), str(again), again.pairs, again.periods, again.limit) == (
        ModelTooLarge, str(info.value), info.value.pairs, info.value.periods, 1)
    from planner import ModelTooLarge as exported
    assert exported is ModelTooLarge
