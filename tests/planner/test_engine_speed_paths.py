"""The engine's fast paths give the hand-worked answers: the solve split on the fixed-cost binary, the
dispatch dropped for cards that can never be held, baselines that are the same model solved once,
baselines added after the plan (the CLI prints the plan first), and capacity rows that hold one count of
cards in service per epoch."""

import copy
import math
import pickle
from pathlib import Path

import numpy as np
import pytest

from planner import load_scenario
from planner.engine import add_baselines, build_model, inputs_for, plan, reduce, solve
from planner.engine.solve import _best, _Branch
from planner.errors import SolverError, SolverFailed
from planner.scenario import apply_overrides

ROOT = Path(__file__).resolve().parents[2]
# The README's worked example (examples/worked-example.yaml): one RTX A5000 within the 2,500 USD budget and
# g5.xlarge on-demand for the rest costs 8,385.46 over 24 months; all cloud costs 1,000 h × 1.006 × 24 =
# 24,144; all on-prem (no budget in baselines) is two A5000s for 7,029.2 (test_plan.py works them out).
WITH_CARD, ALL_CLOUD, TWO_CARDS = 8385.46, 24144.0, 7029.2


def worked(**overrides):
    return apply_overrides(load_scenario(ROOT / "examples" / "worked-example.yaml"), overrides)


@pytest.mark.parametrize("solver", ["highs", "cbc"])
@pytest.mark.parametrize("fixed_per_month, total, card_units", [
    (100, WITH_CARD + 100 * 24, 1),     # the card saves 24,144 − 8,385.46 = 15,758.54 > 2,400 of site cost
    (600, WITH_CARD + 600 * 24, 1),     # 14,400 of site cost: the card still saves 1,358.54
    (700, ALL_CLOUD, 0),                # 16,800 > 15,758.54: all cloud, no site cost at all
])
def test_a_fixed_site_cost_keeps_the_cheaper_side_by_hand(solver, fixed_per_month, total, card_units):
    p = plan(worked(**{"onprem.fixed_onprem_per_month": fixed_per_month}), solver=solver, baselines=False)
    assert p.status == "optimal" and p.total == pytest.approx(total, rel=1e-6) and p.solver["gap"] == 0.0
    cards = p.fleet[p.fleet["kind"] == "card"]
    assert cards["units"].sum() == card_units
    assert p.cost("fixed_onprem") == pytest.approx(fixed_per_month * 24 if card_units else 0.0, abs=1e-6)


def test_owned_cards_that_must_stay_leave_only_the_on_prem_side():
    # an owned card that may be neither sold nor switched off: "no on-prem unit" is infeasible, so the
    # split solve must return the on-prem side as optimal; CBC solves the same MIP unsplit
    s = worked(**{"onprem.fixed_onprem_per_month": 700, "onprem.existing": {"rtx-a5000": 1},
                  "onprem.sell_owned": False, "onprem.switch_off_owned": False})
    highs, cbc = plan(s, solver="highs", baselines=False), plan(s, solver="cbc", baselines=False)
    assert highs.status == cbc.status == "optimal"
    assert highs.total == pytest.approx(cbc.total, rel=1e-7)
    assert highs.cost("fixed_onprem") == pytest.approx(700 * 24)


def test_a_card_that_can_never_be_held_gets_no_dispatch():
    # h100-pcie has no sourced price: listed but not bought, and none owned — it cannot work, so the model
    # carries no dispatch for it, and the plan is the worked example's
    s = worked(**{"onprem.cards": ["rtx-a5000", "h100-pcie"]})
    inp = reduce(inputs_for(s))
    h100 = list(inp.col("sku")).index("h100-pcie")
    assert inp.work[h100].any() and not inp.col("buyable")[h100] and inp.col("existing")[h100] == 0
    m = build_model(inp)
    assert not [key for key in m.y if key[0] == h100]
    assert m.size()["variables"] == build_model(reduce(inputs_for(worked()))).size()["variables"]
    assert plan(s, baselines=False).total == pytest.approx(WITH_CARD, rel=1e-6)


def test_baselines_added_after_the_plan_by_hand():
    p = plan(worked(), baselines=False)
    assert p.baselines.empty and p.baseline_plans == {}
    assert add_baselines(p) is p
    b = p.baselines.set_index("baseline")
    assert b.loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD, rel=1e-6)
    assert b.loc["all_onprem", "total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    assert b.loc["best_single", "label"] == "only rtx-a5000"
    assert b.loc["best_single", "total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    assert b.loc["all_cloud", "savings"] == pytest.approx(ALL_CLOUD - WITH_CARD, rel=1e-6)
    assert set(p.baseline_plans) == {"all_cloud", "all_onprem", "best_single"}
    assert p.baseline_plans["all_cloud"].total == pytest.approx(ALL_CLOUD, rel=1e-6)
    assert p.solver["timings_seconds"]["baselines"] > 0


def test_baselines_of_a_plan_from_elsewhere_and_without_plans():
    # a copy (as a cache returns it) carries no inputs: they are resolved again from its scenario
    p = copy.deepcopy(plan(worked(), baselines=False))
    add_baselines(p, plans=False)
    b = p.baselines.set_index("baseline")
    assert b.loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD, rel=1e-6)
    assert b.loc["all_onprem", "total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    assert p.baseline_plans == {}


def test_baselines_that_are_the_same_model_are_solved_once(monkeypatch):
    # one card and one cloud kind: "only rtx-a5000" is all on-prem and "only cloud on-demand" is all
    # cloud, so two baseline models, not four
    from planner.engine import baselines

    solved = []
    real = baselines.solve
    monkeypatch.setattr(baselines, "solve", lambda m, *a, **k: solved.append(m.inputs.label) or real(m, *a, **k))
    p = plan(worked())
    assert sorted(solved) == ["all cloud", "all on-prem", "recommended"]
    b = p.baselines.set_index("baseline")
    assert b.loc["best_single", "total"] == pytest.approx(TWO_CARDS, rel=1e-6)
    assert not math.isnan(b.loc["all_cloud", "total"])


@pytest.mark.parametrize("branches, status, best", [
    ([("optimal", 5.0, 5.0), ("optimal", 3.0, 3.0)], "optimal", 3.0),       # the cheaper side wins
    ([("optimal", 5.0, 5.0), ("infeasible", math.nan, math.inf)], "optimal", 5.0),
    ([("optimal", 5.0, 5.0), ("not_solved", math.nan, -math.inf)], "feasible", 5.0),   # the other side unproven
    ([("feasible", 5.0, 4.0), ("optimal", 6.0, 6.0)], "feasible", 5.0),
    ([("infeasible", math.nan, math.inf), ("infeasible", math.nan, math.inf)], "infeasible", None),
    ([("not_solved", math.nan, -math.inf), ("infeasible", math.nan, math.inf)], "not_solved", None),
])
def test_the_two_sides_of_a_split_solve_combine(branches, status, best):
    sides = [_Branch(s, obj, bound, None if math.isnan(obj) else np.zeros(1)) for s, obj, bound in branches]
    got_status, got_best, _ = _best(sides)
    assert got_status == status
    assert (got_best is None) if best is None else got_best.objective == best


HIGHS_THREADS = """
import json, os, sys
from planner.process import configure_process
configure_process()   # as the `fleetplan` process: no OpenBLAS worker threads to count
import highspy
from planner.engine import add_baselines, plan
from planner.engine.baselines import usable_cores
from planner.scenario import load_scenario_file

def threads():
    return len(os.listdir("/proc/self/task"))

if sys.argv[2] == "started elsewhere":   # this process's own HiGHS run first, with two threads
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 2)
    h.run()
before = threads()
if sys.argv[2] == "baselines in a child":   # as `fleetplan plan`: a forked child solves them beside the plan
    p = plan(load_scenario_file(sys.argv[1]), solver="highs", baselines=False, prefetch_baselines=True)
    add_baselines(p, plans=False)
    print(json.dumps({"cores": usable_cores()}))
elif sys.argv[2] == "no baselines":   # as `fleetplan plan --no-baselines`
    p = plan(load_scenario_file(sys.argv[1]), solver="highs", baselines=False)
    add_baselines(p, plans=False)     # after the plan, on the scheduler its first run started
    print(json.dumps({"cores": usable_cores()}))
else:
    p = plan(load_scenario_file(sys.argv[1]), solver="highs")
print(json.dumps({"added_threads": threads() - before, "status": p.status, "total": p.total,
                  "all_cloud": float(p.baselines.set_index("baseline").loc["all_cloud", "total"])}))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
@pytest.mark.parametrize("case", ["fresh process", "started elsewhere", "baselines in a child", "no baselines"])
def test_highs_starts_one_thread_and_plans_beside_a_scheduler_started_elsewhere(case):
    # HiGHS's scheduler is global and set by its first run: the engine's first run asks for one thread (no
    # worker thread is added), and where other code started it with two, HiGHS refuses one, and the engine
    # runs with the default instead: the same hand-worked plan either way (a fresh interpreter each). Where
    # a forked child solves the baselines (two usable cores), and without baselines, the plan's first run asks
    # for one too: it once asked for two there, and the scheduler kept them for every later plan of the
    # process, on which another model's search went astray (engine.solve: 2.6 s against more than 300 s).
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", HIGHS_THREADS, str(ROOT / "examples" / "worked-example.yaml"), case],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])   # after the banner of the raw highspy model
    assert out["status"] == "optimal" and out["total"] == pytest.approx(WITH_CARD, rel=1e-6)
    assert out["all_cloud"] == pytest.approx(ALL_CLOUD, rel=1e-6)
    if case in ("fresh process", "baselines in a child", "no baselines"):
        assert out["added_threads"] == 0


# Each change reaches a field the cached card part or cloud part of the inputs depends on (engine.inputs:
# card overrides, owned cards, unit limits, the cards listed, currency and fx, the workloads' capability fields).
CACHE_KEYED_CHANGES = [
    {"onprem.card_overrides.rtx-a5000.price": 1500},
    {"onprem.card_overrides.rtx-a5000.busy_watts": 300},
    {"onprem.existing": {"rtx-a5000": 1}},
    {"constraints.min_units": {"rtx-a5000": 2}},
    {"constraints.max_units": {"rtx-a5000": 1}},
    {"onprem.cards": []},
    {"workloads.training.throughput": {"RTX-A5000": 1.0, "A10G": 0.5}},
    {"workloads.training.min_gpu_memory_gb": 30},
    {"currency": "EUR", "fx": {"USD": 0.9}},
]


@pytest.mark.parametrize("change", CACHE_KEYED_CHANGES, ids=lambda c: ",".join(c))
def test_inputs_after_another_scenario_are_the_inputs_resolved_cold(change):
    """The cached parts never hand one scenario another's cards, offers or work: inputs resolved right
    after the unchanged scenario's are the ones resolved with both caches emptied."""
    from planner.engine import inputs as engine_inputs

    unchanged, changed = worked(), apply_overrides(worked(), change)
    before = inputs_for(unchanged)             # fills the caches with the unchanged scenario's parts
    warm = inputs_for(changed)
    engine_inputs._CARD_CACHE.clear()
    engine_inputs._CLOUD_CACHE.clear()
    cold = inputs_for(changed)
    assert warm.units.equals(cold.units) and warm.exclusions.equals(cold.exclusions)
    assert np.array_equal(warm.work, cold.work) and warm.warnings == cold.warnings
    # the change reaches the cached parts: otherwise this test would show nothing
    assert not (before.units.equals(cold.units) and np.array_equal(before.work, cold.work)
                and before.exclusions.equals(cold.exclusions))


def test_the_inputs_caches_take_entries_from_threads_at_once():
    """Threads resolve inputs side by side (add_decisions' flip points): storing into a full cache from
    four threads, switching threads as often as Python allows, raises nothing and keeps at most
    _CACHE_SIZE entries (dropping the oldest without the lock raised "dictionary changed size during
    iteration" here, or a KeyError when two threads dropped the same one)."""
    import sys
    import threading

    from planner.engine.inputs import _CACHE_SIZE, _remember

    cache: dict = {}
    errors: list[str] = []

    def store(thread: int) -> None:
        try:
            for i in range(20_000):
                _remember(cache, (thread, i), i)
        except Exception as exc:   # noqa: BLE001 - what the test looks for
            errors.append(repr(exc))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=store, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == [] and len(cache) <= _CACHE_SIZE


def test_a_cbc_run_that_fails_leaves_no_files(monkeypatch, tmp_path):
    # pulp writes the model (MPS) into the temporary folder, then starts CBC; a CBC that fails (here it exits
    # 3 at once, as a killed or broken CBC does) made pulp raise before it deleted its files; the error is the
    # planner's, with the way out (the CLI prints it without a traceback, exit 3)
    import subprocess
    import sys
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    real = subprocess.Popen
    started = []

    def failing_cbc(args, **kwargs):
        started.append(list(args))
        return real([sys.executable, "-c", "raise SystemExit(3)"], **kwargs)

    monkeypatch.setattr(subprocess, "Popen", failing_cbc)
    with pytest.raises(SolverFailed, match=r"^solver cbc failed \(Pulp: Error while trying to execute") as failed:
        plan(worked(), solver="cbc", baselines=False)
    # the way out as a library caller writes it, then as the CLI's flag
    assert str(failed.value).endswith("; solver='highs' (--solver highs) solves the same model")
    assert isinstance(failed.value, SolverError)   # the CLI's exit 3
    again = pickle.loads(pickle.dumps(failed.value))   # as a sweep's process pool hands it back
    assert (type(again), str(again), again.detail) == (SolverFailed, str(failed.value), failed.value.detail)
    mps = [a for a in started[0] if a.endswith("-pulp.mps")]
    assert len(mps) == 1 and Path(mps[0]).is_relative_to(tmp_path)   # the model was written there …
    assert list(tmp_path.iterdir()) == []                             # … and nothing of it is left


def test_capacity_rows_hold_one_count_of_cards_in_service_per_epoch():
    # The worked example buys rtx-a5000 every 3 months over 24 (life 4 years: every card serves to the
    # end), so the epoch starting in month 3e + 1 has vintages 1 … e + 1 in service: 8 epochs, and the 7
    # with two or more vintages get an integer count N_e tied to them by Σ b − N_e = 0
    inp = reduce(inputs_for(worked()))
    m = build_model(inp)
    assert len(m.buy) == 8 and len(m.in_service) == 7
    assert [len(vintages) for vintages in m.in_service] == [2, 3, 4, 5, 6, 7, 8]
    assert all(n.cat == "Integer" and n.upBound == sum(m.buy[k].upBound for k in vintages)
               for vintages, n in m.in_service.items())
    assert m.size()["integer_variables"] == 8 + 7
    counts = {id(b) for b in m.buy.values()} | {id(n) for n in m.in_service.values()}
    rows = [c for c in m.prob.constraints() if c.name.startswith("card_capacity_")]
    assert rows and all(sum(id(v) in counts for v in row) == 1 for row in rows)   # 1, not up to 8
    solve(m)
    for vintages, n in m.in_service.items():
        assert n.varValue == pytest.approx(sum(m.buy[k].varValue for k in vintages), abs=1e-6)
    # the one card within the 2,500 budget, bought in month 1, serves all 24 months
    assert [round(m.buy[k].varValue) for k in sorted(m.buy)] == [1, 0, 0, 0, 0, 0, 0, 0]
    assert [round(n.varValue) for n in m.in_service.values()] == [1] * 7
