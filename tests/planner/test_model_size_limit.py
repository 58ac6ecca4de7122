"""`fleetplan plan --max-variables` (and compare's, sweep's): a model over the limit is refused before it is built. Without it,
`plan scenarios/industrial.yaml --unreduced` (10.3 million dispatch variables) passed 5.4 GB of memory within
a minute, and the merged-hours warning tells users to try --unreduced. Sizes here are counted by hand:
unreduced, every weekly hour of every month is its own period (months × 168)."""

from __future__ import annotations

import importlib
import json
import pickle
from pathlib import Path

import pytest
import yaml

from planner import plan, sweep
from planner.engine.run import plan_summary
from planner.errors import ModelTooLarge, PlannerError, ScenarioError
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


# ---------------------------------------------------------------------------------------------------
# Integer purchase variables (--max-purchase-variables): an audit (2026-12-05) planned startup-hybrid with 60 custom
# cards quoted alike, a model of only 9,216 dispatch variables whose branch and bound took 48 s and 440 MB, and whose
# decision values then ran past 7 minutes and 1.7 GB; 100 cards took 170 s and 903 MB for the plan alone.

STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
# startup-hybrid buys 3 card types (its RTX A5000 has no sourced price) in 12 purchase months (36 months, one every
# 3): 36 purchases, and its owned batch of two RTX 3060s is kept or switched off: 2 more
STARTUP_SIZE = "38 integer purchase variables (36 purchases: 3 card types × 12 purchase months; 2 for owned cards)"


def test_a_model_over_the_purchase_limit_is_refused_with_its_count_by_hand():
    result = run("plan", STARTUP, "--max-purchase-variables", 37, "--no-decisions", "--format", "json")
    assert result.exit_code == 2 and result.stdout == ""
    error = one_line_error(result)
    assert error.startswith(f"error: {STARTUP}: too large to plan with --max-purchase-variables 37: {STARTUP_SIZE}, "
                            "whose branch and bound's time and memory grow steeply with them; quote fewer custom "
                            "cards (onprem.custom_cards) or list fewer cards (onprem.cards), buy less often (a longer "
                            "onprem.purchase_every_months) or shorten horizon_months")
    assert error.endswith("or allow it with --max-purchase-variables 38") and "--time-limit" not in error
    at_limit = run("plan", STARTUP, "--max-purchase-variables", 38, "--no-decisions", "--no-baselines", "--format", "json")
    assert at_limit.exit_code == 0, at_limit.output
    # README's total: 36,401.33 at 0.14 USD/CNY; the two owned RTX 3060s sold in month 1 fetch 2 × 0.5 × 7,900 CNY ×
    # (0.14 − 0.13749) = 19.829 USD less at the file's rate: 36,421.16; the rtx-4090 at 1,669.99 USD (not 1,599) adds
    # 70.99 × (1 + 3 years × 3 % maintenance) = 77.38
    assert json.loads(at_limit.stdout)["total"] == pytest.approx(36498.54, abs=0.01)


def test_without_a_time_limit_plan_holds_the_default_and_a_time_limit_lifts_it(monkeypatch):
    commands = importlib.import_module("planner.cli.commands")
    monkeypatch.setattr(commands, "MAX_PURCHASE_VARIABLES", 37)
    result = run("plan", STARTUP, "--no-decisions", "--format", "json")
    assert result.exit_code == 2
    error = one_line_error(result)
    assert f"too large to plan without --time-limit: {STARTUP_SIZE}, more than the 37 planned without one" in error
    assert error.endswith(", bound each solve with --time-limit SECONDS, or allow it with --max-purchase-variables 38")
    # a time limit bounds every solve: the default no longer applies, an explicit limit still does
    assert run("plan", STARTUP, "--time-limit", 600, "--no-decisions", "--no-baselines", "--format", "json").exit_code == 0
    assert run("plan", STARTUP, "--time-limit", 600, "--max-purchase-variables", 37, "--no-decisions").exit_code == 2


def _counting_scenario(tmp_path: Path) -> Path:
    """12 months with a purchase every 6: the RTX 4090 and the A100 each bought in months 1 and 7 (4 purchases);
    two RTX 3060s owned, kept or switched off (2); one T4 reservation offer beside its on-demand one (1): 7."""
    offers = tmp_path / "offers.csv"
    offers.write_text(
        "offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
        "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
        "t:r1:g4:on_demand,aws,r1,g4,on_demand,T4,True,T4,1,16,4,16,0.526,0,USD,0,,2026-01-01,made up for a test,\n"
        "t:r1:g4:reserved_1y,aws,r1,g4,reserved_1y,T4,True,T4,1,16,4,16,0.33,0,USD,12,,2026-01-01,made up for a test,\n",
        encoding="utf-8")
    path = tmp_path / "counting.yaml"
    path.write_text(yaml.safe_dump({
        "name": "purchase count", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0, "fx": {"CNY": 0.14},
        "prices": {"source": str(offers), "providers": ["aws"], "purchase_options": ["on_demand", "reserved_1y"]},
        "onprem": {"cards": ["rtx-4090", "a100-80gb-pcie"], "purchase_every_months": 6,
                   "existing": {"rtx-3060-12gb": 2}},
        "workloads": [{"name": "w", "gpu_hours_per_month": 500, "reference_gpu": "T4", "min_gpu_memory_gb": 12}]}),
        encoding="utf-8")
    return path


def test_the_library_counts_purchases_owned_choices_and_reservations_as_the_model_holds_them(tmp_path):
    from planner import TooManyPurchaseVariables
    from planner.engine import build_model, inputs_for, reduce

    path = _counting_scenario(tmp_path)
    with pytest.raises(TooManyPurchaseVariables) as info:
        plan(path, baselines=False, max_purchase_variables=6)
    refused = info.value
    assert isinstance(refused, ModelTooLarge) and refused.purchase_variables == 7 and refused.limit == 6
    assert str(refused).startswith("too large to plan here: 7 integer purchase variables (4 purchases: 2 card types × "
                                   "2 purchase months; 2 for owned cards; 1 reservation offer; at most 6): quote fewer")
    # a reservation offer is among them: the ways out name fewer of those too (startup-hybrid's, without one, do not:
    # test_a_model_over_the_purchase_limit_is_refused_with_its_count_by_hand)
    assert str(refused).endswith("at most 6): quote fewer custom cards (onprem.custom_cards) or list fewer cards "
                                 "(onprem.cards), buy less often (a longer onprem.purchase_every_months), allow fewer "
                                 "reservation options (prices.purchase_options), regions or providers (prices.regions, "
                                 "prices.providers) or shorten horizon_months")
    again = pickle.loads(pickle.dumps(refused))   # a sweep point's error, from a worker process
    assert (type(again), str(again)) == (TooManyPurchaseVariables, str(refused))
    named = refused.naming("b (x): ")             # compare names the side
    assert str(named) == "b (x): " + str(refused) and named.purchase_variables == 7
    # what the count stands for: the model's own integer purchase, owned-batch and reservation variables
    m = build_model(reduce(inputs_for(load_scenario(path))))
    assert (len(m.buy), len(m.keep), len(m.off), len(m.r)) == (4, 1, 1, 1)
    assert plan(path, baselines=False, max_purchase_variables=7).status == "optimal"


@pytest.mark.parametrize("bad", [-1, 1.5, True, "7"])
def test_a_purchase_limit_that_is_no_whole_number_is_refused(tmp_path, bad):
    with pytest.raises(PlannerError, match=r"^max_purchase_variables: expected a whole number from 0 \(or None: no limit\)"):
        plan(two_offer_scenario(tmp_path), max_purchase_variables=bad)


def test_industrial_over_120_months_with_monthly_purchases_is_within_the_default():
    # its A100 bought in any of 120 months (its H100 and L40S have no sourced price): 120, the largest of the
    # shipped scenarios' models varied so; it planned in 149 s with its decision values (audit, 2026-12-05)
    from planner.cli.commands import MAX_PURCHASE_VARIABLES
    from planner.engine.run import checked_inputs
    from planner.scenario import apply_overrides

    s = apply_overrides(load_scenario(ROOT / "scenarios" / "industrial.yaml"),
                        {"horizon_months": 120, "onprem.purchase_every_months": 1})
    checked_inputs(s, None, None, 120)   # at the limit: allowed
    with pytest.raises(ModelTooLarge, match=r"120 integer purchase variables \(120 purchases: 1 card type × 120 "):
        checked_inputs(s, None, None, 119)
    assert MAX_PURCHASE_VARIABLES >= 8 * 120


@pytest.mark.parametrize("processes", [1, 2])
def test_a_sweep_point_over_the_purchase_limit_is_an_error_row(tmp_path, processes):
    path = _counting_scenario(tmp_path)
    table = sweep(path, {"workloads.w.gpu_hours_per_month": [100, 500]}, processes=processes, max_purchase_variables=6)
    assert list(table["status"]) == ["error", "error"]
    assert all(n.startswith("too large to plan here: 7 integer purchase variables") for n in table["note"])


def test_the_cli_sweep_and_compare_name_the_purchase_option(tmp_path):
    path = _counting_scenario(tmp_path)
    result = run("sweep", path, "--vary", "workloads.w.gpu_hours_per_month=100,500", "--max-purchase-variables", 6,
                 "--processes", 1, "--format", "json")
    assert result.exit_code == 2, result.output
    assert "2 of 2 points are too large for --max-purchase-variables 6; their notes give each model's size, and a " \
           "larger --max-purchase-variables allows them" in " ".join(result.stderr.split())
    assert "--max-variables" not in result.stderr
    compared = run("compare", two_offer_scenario(tmp_path), path, "--max-purchase-variables", 6)   # a: no cards
    assert compared.exit_code == 2 and compared.stdout == ""
    assert one_line_error(compared).startswith("error: b (purchase count): too large to plan with "
                                               "--max-purchase-variables 6: 7 integer purchase variables (4 purchases:")
