"""The speeds table covers the (workload, GPU) pairs the baselines' fleets can serve, not only the plan's.

A baseline's total is shown beside the plan's (and what the plan saves against it), but the speeds table and its
warning on estimated speeds covered the plan's fleet alone: a budget holder could not see that the all-cloud total
rests on an estimated speed. Now the table lists each pair a unit of the plan's fleet or of a shown baseline's
fleet can serve (from that fleet's own inputs: work above 0, so a GPU short of a workload's memory, or a spot
offer for a workload that is not interruptible, gives no pair), `used_by` says whose, and a warning names the
estimated speeds only baselines rest on. The first attempt (5d9e7c1, reverted) paired every GPU of a baseline
with every workload (startup-hybrid's T4 with an 80 GB fine-tune) and the dashboard's plan page showed other
warnings than plan().

Two scenarios from the worked example (examples/worked-example.yaml: RTX A5000 cards, 2,500 USD each with the
host, 24 months, undiscounted; two cards serve 800 A5000-hours a month, 7,029.20 USD, test_baselines_cheaper_note.py
works it out), without its capex budget, worked out by hand:

- SPOT (`spot_and_l4`): two workloads of 400 A5000-hours a month, `training` (not interruptible) and `sweeps`
  (interruptible), both 16 GB (every GPU here has 24: planner/data/gpus.csv), their speeds given for the A5000
  and the L4 (1.0: the L4's the user's, the A5000's their `reference`), the A10G's left to the speed model (an
  estimate, 0.83). Offers: g5.xlarge spot
  (A10G) at 0.10 USD/h and g6.xlarge on-demand (L4) at 0.30 USD/h. max_cloud_share 0 keeps the plan on cards:
  two A5000s, 7,029.20. The baselines drop that cap. All cloud: training may only use on-demand — the L4,
  400 × 24 × 0.30 = 2,880 —, sweeps the spot A10G, 0.10 / 0.83 per A5000-hour against the L4's 0.30: 400 × 24 ×
  0.10 / s. So all cloud holds the L4 (which can serve both workloads) and the A10G spot (sweeps only: spot
  cannot serve training). All on-prem: the plan's two cards. Best single type: only rtx-a5000 7,029.20, only
  cloud on-demand (the L4 for all 800 hours) 800 × 24 × 0.30 = 5,760, only cloud spot cannot serve training:
  only cloud on-demand. (training, A10G) is in no fleet's pairs, though all cloud holds an A10G.
- A10G (`a10g_doc`): the worked example's one workload (800 A5000-hours a month), interruptible, the A5000's
  speed given, the A10G's estimated (0.83); offers: g5.xlarge on-demand (1.006 USD/h) and spot (0.90 USD/h). The
  plan is two A5000s (spot's 0.90 / 0.83 = 1.08 USD an A5000-hour costs more than a second card's 0.86 for the
  hours one card leaves); all cloud rents the A10G spot, 800 / s × 0.90 × 24 (about 20,800); the best single
  type is only rtx-a5000 (only spot 20,800, only on-demand 23,300). With
  `site` (a fixed on-prem cost of 100 USD a month, paid while any card is held, 2,400 in all) HiGHS solves the
  plan without cards and with (engine.solve), and the run without cards is the all-cloud baseline
  (engine.baselines.all_cloud_is_plan_run): the all-cloud row and its pairs come from that run on the paths
  without Plans (the CLI's, whose forked child leaves the row to it, a sweep's).
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from planner import load_scenario, plan
from planner.engine import add_baselines, build_model, inputs_for, reduce, solve
from planner.engine import baselines as baselines_module
from planner.engine.baselines import baseline_rows, settle_all_cloud, usable_cores
from planner.engine.readback import read_fleet
from planner.engine.run import all_cloud_run, plan_summary

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
TWO_CARDS, SITE = 7029.20, 100 * 24
BASELINE_ESTIMATES = "the baselines' totals may rest on speeds that are estimates"   # as engine.run words it
HEADER = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
          "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n")
ROW = ("aws:us-east-1:{sku}:{kind},aws,us-east-1,{sku},{kind},{gpu},True,{gpu},1.0,24.0,4.0,16.0,{price},0.0,USD,0,,"
       "2026-07-20,test,\n")
A10G_SPOT = ROW.format(sku="g5.xlarge", kind="spot", gpu="A10G", price="{}")
L4_ON_DEMAND = ROW.format(sku="g6.xlarge", kind="on_demand", gpu="L4", price="0.30")

# {(workload, gpu): (source, used_by)}, worked out above
SPOT_SPEEDS = {("training", "L4"): ("user", "all_cloud, best_single"),
               ("training", "RTX-A5000"): ("reference", "plan, all_onprem"),
               ("sweeps", "A10G"): ("estimated", "all_cloud"),
               ("sweeps", "L4"): ("user", "all_cloud, best_single"),
               ("sweeps", "RTX-A5000"): ("reference", "plan, all_onprem")}
A10G_SPEEDS = {("training", "RTX-A5000"): ("reference", "plan, all_onprem, best_single"),
               ("training", "A10G"): ("estimated", "all_cloud")}


def worked_doc() -> dict:
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    del doc["onprem"]["capex_budget"]
    return doc


@pytest.fixture(scope="module")
def offers(tmp_path_factory) -> Path:
    """A folder with spot.csv (SPOT's offers) and a10g.csv (the worked example's g5.xlarge on-demand row and its
    spot offer at 0.90 USD/h: a second cloud kind, so that all cloud is a model of its own, which the forked child
    leaves to the plan's run)."""
    folder = tmp_path_factory.mktemp("offers")
    (folder / "spot.csv").write_text(HEADER + A10G_SPOT.format(0.10) + L4_ON_DEMAND, encoding="utf-8")
    worked_row = (WORKED.parent / "offers-g5-us-east-1.csv").read_text(encoding="utf-8").splitlines()[1]
    (folder / "a10g.csv").write_text(HEADER + worked_row + "\n" + A10G_SPOT.format(0.90), encoding="utf-8")
    return folder


def spot_doc(offers: Path) -> dict:
    doc = worked_doc()
    doc["prices"] = {"source": str(offers / "spot.csv"), "providers": ["aws"], "purchase_options": ["on_demand", "spot"]}
    doc["constraints"] = {"max_cloud_share": 0}
    training = doc["workloads"][0]
    training.update(gpu_hours_per_month=400, interruptible=False, throughput={"RTX-A5000": 1.0, "L4": 1.0})
    doc["workloads"].append({**copy.deepcopy(training), "name": "sweeps", "interruptible": True})
    return doc


def a10g_doc(offers: Path, site: bool = False) -> dict:
    doc = worked_doc()
    doc["prices"] = {"source": str(offers / "a10g.csv"), "providers": ["aws"], "purchase_options": ["on_demand", "spot"]}
    doc["workloads"][0].update(throughput={"RTX-A5000": 1.0}, interruptible=True)
    if site:
        doc["onprem"]["fixed_onprem_per_month"] = 100
    return doc


@pytest.fixture(scope="module", params=["spot", "a10g", "a10g+site"])
def case(request, offers):
    """(scenario, expected speeds, its plan's total, the workload warned of): each scenario of the module's doc."""
    if request.param == "spot":
        return load_scenario(spot_doc(offers)), SPOT_SPEEDS, TWO_CARDS, "sweeps"
    site = request.param.endswith("site")
    return load_scenario(a10g_doc(offers, site)), A10G_SPEEDS, TWO_CARDS + (SITE if site else 0), "training"


def test_the_warning_is_told_by_the_words_this_module_reads():
    from planner.engine import run

    assert run.BASELINE_ESTIMATES == BASELINE_ESTIMATES


def table(speeds) -> dict:
    return {(w, g): (source, used) for w, g, source, used in zip(speeds["workload"], speeds["gpu"], speeds["source"],
                                                                speeds["used_by"])}


def baseline_warnings(warnings) -> list[str]:
    return [w for w in warnings if BASELINE_ESTIMATES in w]


def speed_of(p, workload: str, gpu: str) -> float:
    speeds = p.speeds
    return float(speeds.loc[(speeds["workload"] == workload) & (speeds["gpu"] == gpu), "relative_speed"].iloc[0])


# --- what the table and the warning say ---


def test_the_spot_scenario_lists_each_fleet_s_pairs_and_warns_of_the_estimate_all_cloud_rests_on(offers):
    p = plan(load_scenario(spot_doc(offers)))
    assert p.total == pytest.approx(TWO_CARDS, abs=0.01)
    assert p.fleet["gpu"].tolist() == ["RTX-A5000"]
    b = p.baselines.set_index("baseline")
    assert b.loc["best_single", "label"] == "only cloud on-demand"
    assert b.loc["best_single", "total"] == pytest.approx(5760, abs=0.01)
    assert sorted(p.baseline_plans["all_cloud"].fleet["gpu"]) == ["A10G", "L4"]
    assert table(p.speeds) == SPOT_SPEEDS
    # all cloud holds an A10G, but spot only: training (not interruptible) has no pair with it
    assert ("training", "A10G") not in table(p.speeds)
    # the all-cloud total rests on that estimate: 2,880 for training on the L4, 400 × 24 × 0.10 / s for sweeps
    s = speed_of(p, "sweeps", "A10G")
    assert 0.5 < s < 1.5
    assert b.loc["all_cloud", "total"] == pytest.approx(2880 + 960 / s, rel=1e-6)
    [warning] = baseline_warnings(p.warnings)
    assert warning.startswith(f"sweeps: {BASELINE_ESTIMATES} from datasheet figures")
    assert "sweeps could run on A10G (all cloud)" in warning
    assert not any("training" in w and "A10G" in w for w in p.warnings)
    assert not any(": the speeds of" in w for w in p.warnings)   # the plan's own speeds are given: no warning of its own


def estimate_warnings(p) -> tuple[set, set]:
    """(pairs the plan's own warning names, pairs the baselines' names) of a plan, read from its warnings."""
    own, theirs = set(), set()
    for w in p.warnings:
        workload, _, rest = w.partition(": ")
        if rest.startswith("the speeds of ") and " are estimates" in rest:
            own |= {(workload, g) for g in rest.removeprefix("the speeds of ").split(" are estimates")[0].split(", ")}
        if "relative speed is measured against it: those of " in rest:   # measured GPUs over an estimated reference
            named = rest.split("relative speed is measured against it: those of ")[1].split(" (measured themselves)")[0]
            own |= {(workload, g) for g in named.split(", ")}
        elif rest.startswith(BASELINE_ESTIMATES):
            named = rest.split(f"not measurements: {workload} could run on ")[1].split("; whether a baseline gives")[0]
            theirs |= {(workload, item.split(" (")[0]) for item in named.split("), ")}
    return own, theirs


@pytest.mark.parametrize("name", ["industrial.yaml", "startup-hybrid.yaml"])
def test_each_estimated_pair_is_warned_of_once_the_plan_s_by_its_own_warning(name, offers):
    # industrial's plan rests on estimated speeds (of its A100s and MI300X): the plan's warning names them, and
    # the baselines' warning none of them, though all cloud rents the MI300X too
    p = plan(ROOT / "scenarios" / name)
    estimated = {pair for pair, (source, _) in table(p.speeds).items() if source == "estimated"}
    used = table(p.speeds)
    own, theirs = estimate_warnings(p)
    assert own == {pair for pair in estimated if "plan" in used[pair][1].split(", ")}
    assert theirs == {pair for pair in estimated if "plan" not in used[pair][1].split(", ")}
    if name == "industrial.yaml":
        assert used[("pretraining", "MI300X")] == ("estimated", "plan, all_cloud, best_single")
        assert ("pretraining", "MI300X") in own and theirs == set()


def test_without_baselines_the_table_is_the_plan_s(case):
    s, expected, _, _ = case
    p = plan(s, baselines=False)
    assert table(p.speeds) == {pair: (source, "plan") for pair, (source, used) in expected.items()
                               if "plan" in used.split(", ")}
    assert baseline_warnings(p.warnings) == []


def test_startup_hybrid_pairs_no_gpu_with_a_workload_its_memory_cannot_hold():
    # GPU memory (planner/data/gpus.csv): RTX-3060-12GB 12, RTX-4090 24, T4 16, A100-80GB-PCIE 80, H100-SXM 80 GB.
    # llm-finetune needs 80 GB, prototyping 12: all cloud rents T4s (16 GB) for prototyping, and the first attempt
    # warned of the T4's speed for the fine-tune
    memory = pd.read_csv(ROOT / "planner" / "data" / "gpus.csv").set_index("gpu")["memory_gb"]
    s = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    p = plan(s)
    assert "T4" in set(p.baseline_plans["all_cloud"].fleet["gpu"])
    need = {w.name: w.min_gpu_memory_gb for w in s.workloads}
    pairs = table(p.speeds)
    assert {(w, g) for w, g in pairs if memory[g] < need[w]} == set()
    assert pairs[("prototyping", "T4")] == ("datasheet", "all_cloud")
    assert {g for w, g in pairs if w == "llm-finetune"} == {"A100-80GB-PCIE", "H100-SXM"}
    assert not any("T4" in w for w in p.warnings if w.startswith("llm-finetune"))


# --- every path that adds baselines gives the same table and warnings as plan() ---


def _same(p, reference) -> None:
    columns = ["workload", "gpu", "relative_speed", "source", "used_by"]
    pd.testing.assert_frame_equal(p.speeds[columns].reset_index(drop=True), reference.speeds[columns].reset_index(drop=True))
    assert p.warnings == reference.warnings


def test_plan_gives_the_hand_worked_table(case):
    s, expected, total, workload = case
    p = plan(s)
    assert p.total == pytest.approx(total, abs=0.01)
    assert table(p.speeds) == expected
    assert estimate_warnings(p) == (set(), {(workload, "A10G")})
    if workload == "training":   # all cloud: the A10G spot for all 800 hours
        assert p.baselines.set_index("baseline").loc["all_cloud", "total"] == pytest.approx(
            800 * 24 * 0.90 / speed_of(p, "training", "A10G"), rel=1e-6)
    [warning] = baseline_warnings(p.warnings)
    assert warning.startswith(f"{workload}: {BASELINE_ESTIMATES}") and f"{workload} could run on A10G (all cloud)" in warning


@pytest.mark.parametrize("plans", [True, False])
def test_add_baselines_later_gives_what_plan_gives(case, plans):
    s, _, _, _ = case
    reference = plan(s)
    p = plan(s, baselines=False)
    add_baselines(p, plans=plans)
    _same(p, reference)
    add_baselines(p, plans=plans)   # again: the same table, the warning once
    _same(p, reference)


def test_prefetched_baselines_give_what_plan_gives(case):
    # in this process HiGHS has run, so no child is forked (baselines.can_fork): the path add_baselines takes then
    s, _, _, _ = case
    p = plan(s, baselines=False, prefetch_baselines=True)
    add_baselines(p, plans=False)
    _same(p, plan(s))


def test_the_forked_child_s_rows_and_the_plan_s_run_give_the_pairs_of_the_baselines_solved_apart(case):
    # the child's rows (_child_payload, as the child makes them) carry their pairs through the pipe; with the site
    # cost it leaves all cloud to the plan's run without cards, whose pairs come from that run's values
    from planner.engine.baselines import baseline_pairs

    s, _, _, _ = case
    base = inputs_for(s)
    defer = baselines_module.all_cloud_is_plan_run(base) and baselines_module.plan_splits(base, "highs")
    kind, rows = baselines_module._child_payload(base, "highs", None, defer_all_cloud=defer)
    assert kind == "rows"
    m = build_model(reduce(base))
    solve(m, "highs")
    run = all_cloud_run(base, m)
    assert (run is not None) == defer == (s.onprem.fixed_onprem_per_month > 0)
    apart, _ = baseline_rows(base, "highs", None, s)
    settled = settle_all_cloud(rows, run, base, "highs", None)
    assert baseline_pairs(settled) == baseline_pairs(apart)
    if defer:
        assert run[2] == {("training", "A10G")}
        # the plan's fleet is two cards: the run's pairs are not the plan's, and its variables keep the plan's values
        assert read_fleet(m.inputs, m)[1]["gpu"].tolist() == ["RTX-A5000"]
        # without the run's answer the all-cloud row is solved where it is settled: the same pairs
        pending, = [r for r in baselines_module._child_payload(base, "highs", None, True)[1] if r["status"] == "pending"]
        again = settle_all_cloud([pending], None, base, "highs", None)
        assert again[0]["pairs"] == run[2]


def test_a_sweep_point_warns_as_plan_does(case):
    s, _, _, _ = case
    summary = plan_summary(s, baselines=True)
    assert baseline_warnings(summary.warnings) == baseline_warnings(plan(s).warnings)
    assert summary.warnings[-1] == baseline_warnings(summary.warnings)[0]   # last, as add_baselines adds it


def test_the_dashboard_sets_them_as_plan_does(case):
    from fleetplan_dashboard import state
    from fleetplan_dashboard.jobs import Outcome, baselines_job

    s, _, _, _ = case
    recommended = plan(s, baselines=False)
    told = state.with_baselines(Outcome("ok", plan=recommended), baselines_job(s, recommended.total, "highs"))
    _same(told.plan, plan(s))
    assert baseline_warnings(recommended.warnings) == []   # the cached plan stays as it was


CLI_WITH_CHILD = """
import sys
from planner.engine import run
from planner.engine.baselines import can_fork
assert can_fork("highs"), "a fresh process with two cores may fork"
run.baseline_rows = None   # solving the baselines in the parent would fail: the child's table must be used
from planner.cli import main
sys.argv = ["fleetplan", "plan", sys.argv[1], "--format", "json", "--no-decisions"]
main()
"""


@pytest.mark.skipif(usable_cores() < 2, reason="one usable core: no child is forked")
@pytest.mark.parametrize("name", ["spot", "a10g+site"])
def test_the_command_s_json_and_warnings_with_the_forked_child(name, offers, tmp_path):
    # the CLI's path: a forked child solves the table without Plans (with the site cost all cloud comes from the
    # plan's run without cards), add_baselines(plans=False) collects it
    doc, expected, workload = ((spot_doc(offers), SPOT_SPEEDS, "sweeps") if name == "spot"
                               else (a10g_doc(offers, site=True), A10G_SPEEDS, "training"))
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(yaml.safe_dump(doc), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", CLI_WITH_CHILD, str(scenario)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert table(pd.DataFrame(out["speeds"])) == expected
    [warning] = baseline_warnings(out["warnings"])
    assert f"{workload} could run on A10G (all cloud)" in warning
    assert warning.split(": ")[1] in done.stderr.replace("\n", " ")


def test_the_command_s_table_prints_the_warning_once_the_baselines_are_solved(offers, tmp_path):
    from typer.testing import CliRunner

    from planner.cli import app

    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(yaml.safe_dump(spot_doc(offers)), encoding="utf-8")
    done = CliRunner().invoke(app, ["plan", str(scenario), "--no-decisions"])
    assert done.exit_code == 0, done.output
    said = " ".join(done.output.split())
    assert "sweeps could run on A10G (all cloud)" in said
    assert said.count(BASELINE_ESTIMATES) == 1


def test_the_dashboard_s_plan_page_shows_the_warnings_plan_gives_once_the_baselines_are_in(monkeypatch):
    # no shipped scenario has an estimated speed only baselines rest on (the page test in tests/app/test_app.py
    # passed without one): here entry.yaml's all-on-prem baseline is given one, a pair (coursework-and-kaggle,
    # A10G) whose source is made "estimated". The page draws the plan's warnings before the baselines are solved;
    # it must draw them again, with the baselines' warning, as plan() gives them
    from streamlit.testing.v1 import AppTest

    from fleetplan_dashboard import state
    from planner.engine import run

    real_job, real_sources = state.baselines_job, run.speed_sources

    def job(*args):
        table, plans, pairs = real_job(*args)
        return table, plans, {**pairs, "all_onprem": pairs["all_onprem"] | {("coursework-and-kaggle", "A10G")}}

    def sources(scenario, gpus, pairs=None):
        speeds = real_sources(scenario, gpus, pairs)
        speeds.loc[speeds["gpu"] == "A10G", "source"] = "estimated"
        return speeds

    state.clear_plan_cache()
    monkeypatch.setattr(state, "WORKERS", False)
    monkeypatch.setattr(state, "baselines_job", job)
    monkeypatch.setattr(run, "speed_sources", sources)
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
        at.query_params["scenario"] = "entry.yaml"
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        shown = "\n".join(c.value for c in at.code)
        assert "coursework-and-kaggle could run on A10G (all on-prem)" in shown
        assert shown.count(BASELINE_ESTIMATES) == 1
    finally:
        state.clear_plan_cache()


# --- two cloud offers that cost the same per work: used_by names both, on every path and solver ---
#
# The worked example's training (800 A5000-hours a month, on-demand only, 24 months) with max_cloud_share 0, and
# two on-demand offers: the L4 at 0.30 USD/h doing the A5000's work (speed 1.0, given) and the A10G at 0.24 USD/h
# doing 0.8 of it (given): 0.30 USD an A5000-hour each (0.24 / 0.8, a rounding below 0.3), so all cloud costs
# 800 × 24 × 0.30 = 5,760 USD on either, and so does the best single type (only cloud on-demand, the same model).
# Before, the speeds table named the all-cloud fleet's pick: the reductions keep the lower unit_id (the A10G, whose
# 0.24 / 0.8 came out 6e-17 cheaper), CBC unreduced took the L4, HiGHS unreduced split the hours over both.
# An A10G at 0.25 USD/h (0.3125 an A5000-hour) ties with nothing: all cloud rents the L4 alone.
TIED_A10G = ROW.format(sku="g5.xlarge", kind="on_demand", gpu="A10G", price="{}")
ALL_CLOUD_TIED = 800 * 24 * 0.30


def tie_doc(folder: Path, a10g_price: float, a10g_first: bool, site: bool = False) -> dict:
    rows = [L4_ON_DEMAND, TIED_A10G.format(a10g_price)]
    offers = folder / f"tie-{a10g_price}-{a10g_first}.csv"
    offers.write_text(HEADER + "".join(rows[::-1] if a10g_first else rows), encoding="utf-8")
    doc = worked_doc()
    doc["prices"] = {"source": str(offers), "providers": ["aws"], "purchase_options": ["on_demand"]}
    doc["constraints"] = {"max_cloud_share": 0}
    doc["workloads"][0].update(throughput={"RTX-A5000": 1.0, "L4": 1.0, "A10G": 0.8})
    if site:
        doc["onprem"]["fixed_onprem_per_month"] = 100
    return doc


@pytest.mark.parametrize("solver", ["cbc", "highs"])
@pytest.mark.parametrize("reduced", [True, False], ids=["reduced", "unreduced"])
@pytest.mark.parametrize("a10g_first", [False, True], ids=["l4-first", "a10g-first"])
def test_two_offers_of_equal_cost_per_work_are_both_used_by_all_cloud(tmp_path, solver, reduced, a10g_first):
    p = plan(load_scenario(tie_doc(tmp_path, 0.24, a10g_first)), solver=solver, reduced=reduced)
    assert p.total == pytest.approx(TWO_CARDS, abs=0.01)
    b = p.baselines.set_index("baseline")
    assert b.loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD_TIED, abs=0.01)
    used = {pair: users for pair, (_, users) in table(p.speeds).items()}
    assert used == {("training", "L4"): "all_cloud, best_single", ("training", "A10G"): "all_cloud, best_single",
                    ("training", "RTX-A5000"): "plan, all_onprem"}


def test_an_offer_dearer_per_work_is_not_taken_for_a_tie(tmp_path):
    p = plan(load_scenario(tie_doc(tmp_path, 0.25, a10g_first=True)), reduced=False)
    assert p.baselines.set_index("baseline").loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD_TIED, abs=0.01)
    assert {pair for pair, (_, users) in table(p.speeds).items() if "all_cloud" in users} == {("training", "L4")}


def test_the_plan_s_run_without_cards_lists_both_tied_offers_too(tmp_path):
    # with the site cost, HiGHS solves the plan without cards as well, and add_baselines without Plans takes the
    # all-cloud row and its pairs from that run (run.all_cloud_run), whose reduced model holds the A10G alone
    p = plan(load_scenario(tie_doc(tmp_path, 0.24, a10g_first=False, site=True)), baselines=False)
    add_baselines(p, plans=False)
    users = {pair: used for pair, (_, used) in table(p.speeds).items()}
    assert users[("training", "L4")] == users[("training", "A10G")] == "all_cloud, best_single"
