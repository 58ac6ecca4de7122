"""Review fixes of `fleetplan compare` reading saved plans: numbers that are not numbers or do not add up,
the same fleet row twice, a plan not solved to optimality, a change in percent of a zero total, and a
saved plan under a name that does not end in .json.

The worked example (examples/worked-example.yaml, README) is the plan: total 8,385.46 USD = capex 2,500
− residual 625 + maintenance 250 + energy 1,944.72 + on-demand 4,315.74 (4,290 h of g5.xlarge at 1.006).
"""

import copy
import json
import math
from pathlib import Path

import pytest
import yaml
from cli_run import one_line_error, run

from planner.errors import PlannerError
from planner.reports.compare import compare, is_plan_json, plan_from_dict

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict:
    result = run("plan", WORKED, "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["total"] == pytest.approx(8385.46, abs=0.005)   # README's worked example
    return doc


def write(tmp_path: Path, name: str, doc: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")   # json writes NaN for float("nan"), as Python reads it
    return path


# --- 1. numbers that are not numbers, costs that do not sum to the total --------------------------------

@pytest.mark.parametrize(("edit", "needle"), [
    (lambda d: d.update(total=math.nan), "total is NaN; expected a finite number"),
    (lambda d: d.update(total=None), "total is null; expected a finite number"),
    (lambda d: d.update(total="8385.46"), 'total is "8385.46"; expected a finite number'),
    (lambda d: d["costs"].update(capex=True), "costs.capex is true; expected a finite number"),
    (lambda d: d["costs"].update(energy=math.inf), "costs.energy is Infinity; expected a finite number"),
    (lambda d: d["fleet"][0].update(units=True), "fleet row 1: units is true; expected a finite number"),
    (lambda d: d["fleet"][1].update(cost=math.nan), "fleet row 2: cost is NaN; expected a finite number"),
    (lambda d: d.update(costs=[1, 2]), "costs is [1, 2]; expected an object of category: cost"),
    # -5 cards and -1e12 hours were shown beside "total +0" (a hostile-input probe, 2026-12-05)
    (lambda d: d["fleet"][0].update(units=-5), "fleet row 1: units is -5; expected 0 or more"),
    (lambda d: d["fleet"][1].update(instance_hours=-1e12), "fleet row 2: instance_hours is -1000000000000.0; "
                                                           "expected 0 or more"),
])
def test_a_saved_plan_with_a_number_that_is_not_a_finite_number_exits_2_naming_file_and_field(
        saved, tmp_path, edit, needle):
    doc = copy.deepcopy(saved)
    edit(doc)
    result = run("compare", write(tmp_path, "bad.json", doc), WORKED)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"bad.json: {needle}" in one_line_error(result)


def test_a_saved_plan_whose_costs_do_not_sum_to_its_total_exits_2(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["total"] = 13385.46                       # 5,000 more than its costs, 8,385.46
    result = run("compare", write(tmp_path, "edited.json", doc), WORKED)
    assert result.exit_code == 2
    assert "edited.json: costs sum to 8,385.46 but total is 13,385.46" in one_line_error(result)


def test_a_saved_plan_total_rounded_to_the_cent_is_still_read(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["costs"]["cloud_on_demand"] = 4315.7449    # costs sum 8,385.4649: the total 8,385.46 is its rounding
    doc["total"] = 8385.46
    result = run("compare", write(tmp_path, "rounded.json", doc), WORKED, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"]["a"] == 8385.46


def test_the_same_change_to_a_cost_and_the_total_is_read_as_written(saved, tmp_path):
    # a saved plan is read, not solved again: 1,000 more capex and 1,000 more total compare as +1,000
    doc = copy.deepcopy(saved)
    doc["costs"]["capex"] += 1000.0
    doc["total"] += 1000.0
    result = run("compare", WORKED, write(tmp_path, "more.json", doc), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"]["delta"] == pytest.approx(1000.0, abs=1e-6)
    assert {r["category"]: r["cost_delta"] for r in data["costs"]}["capex"] == pytest.approx(1000.0, abs=1e-6)


# --- 2. the same fleet row twice --------------------------------------------------------------------

def test_a_saved_plan_with_the_same_unit_twice_exits_2_naming_both_rows(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["fleet"].append(copy.deepcopy(doc["fleet"][0]))   # the RTX A5000 card, rows 1 and 3
    result = run("compare", write(tmp_path, "twice.json", doc), WORKED)
    assert result.exit_code == 2
    assert "twice.json: fleet rows 1 and 3 are the same unit (onprem, onprem, rtx-a5000" in one_line_error(result)


def test_two_units_of_one_instance_type_in_two_zones_are_summed_into_one_row(saved):
    # an offer's id carries its zone (pricing_adapters.schema.offer_id): two zones of g5.xlarge on demand
    # are two units of the plan with the same provider, region, sku, gpu and purchase option
    doc = copy.deepcopy(saved)
    g5 = next(r for r in doc["fleet"] if r["sku"] == "g5.xlarge")
    doc["fleet"].append({**g5, "unit_id": g5["unit_id"] + ":use1-az4", "instance_hours": 100.0, "cost": 100.6})
    c = compare(plan_from_dict(doc, "zones.json"), plan_from_dict(saved, "plan.json"))
    row = c.fleet[c.fleet["sku"] == "g5.xlarge"]
    assert len(row) == 1 and len(c.fleet) == 2
    # 4,290 h + 100 h; 4,315.74 + 100.60 (100 h at 1.006 USD) against 4,315.74
    assert row["instance_hours_a"].iloc[0] == pytest.approx(4390.0, abs=1e-6)
    assert row["cost_delta"].iloc[0] == pytest.approx(-100.6, abs=1e-6)


# --- 3. the plan's status ---------------------------------------------------------------------------

@pytest.mark.parametrize("status", ["not_solved", "unbounded", "infeasible", "optimalish", None])
def test_a_saved_plan_with_a_status_that_holds_no_plan_exits_2(saved, tmp_path, status):
    doc = copy.deepcopy(saved)
    doc["status"] = status
    result = run("compare", write(tmp_path, "status.json", doc), WORKED)
    assert result.exit_code == 2
    assert f"status.json: status is {json.dumps(status)}; expected optimal or feasible" in one_line_error(result)


def test_a_feasible_plan_is_compared_and_flagged_as_not_proven_optimal(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["status"], doc["solver"]["gap"] = "feasible", 0.032   # stopped at the time limit, 3.2 % from its bound
    path = write(tmp_path, "limit.json", doc)
    data = json.loads(run("compare", path, WORKED, "--format", "json").stdout)
    assert data["status"] == {"a": "feasible", "b": "optimal"}
    assert data["a"].endswith("[feasible, not proven optimal]") and "not proven" not in data["b"]
    assert data["notes"] == ["a is feasible: the solver stopped at its limit before proving this fleet the cheapest "
                             "(gap 3.2 %); its total may be above the optimum"]
    table = run("compare", path, WORKED)
    assert table.exit_code == 0 and "[feasible, not proven optimal]" in table.stdout


def test_two_optimal_plans_have_no_notes(saved):
    c = compare(plan_from_dict(saved), plan_from_dict(saved))
    assert c.notes == [] and c.status == {"a": "optimal", "b": "optimal"}


# --- 4. change in percent of a zero total ------------------------------------------------------------

def _with_total(saved: dict, costs: dict) -> dict:
    doc = copy.deepcopy(saved)
    doc["costs"], doc["total"] = costs, sum(costs.values())
    return doc


def test_a_change_from_a_zero_total_has_no_percentage(saved):
    zero = _with_total(saved, {"capex": 0.0, "energy": 0.0})
    c = compare(plan_from_dict(zero), plan_from_dict(saved))
    assert c.total_delta == pytest.approx(8385.46, abs=0.005)
    assert math.isnan(c.totals["delta_pct"]) and c.delta_pct_text == "n/a"
    assert c.to_dict()["totals"]["delta_pct"] is None


def test_the_change_in_percent_is_of_the_size_of_a(saved):
    # 8,385.46 → 10,330.18 (energy doubled, +1,944.72): +23.19 %
    more = copy.deepcopy(saved)
    more["costs"]["energy"] *= 2
    more["total"] += saved["costs"]["energy"]
    assert compare(plan_from_dict(saved), plan_from_dict(more)).delta_pct_text == "+23.2%"
    # −100 → −50 is 50 more, a rise: +50 %, not the −50 % of dividing by a negative total
    a = _with_total(saved, {"residual_value": -100.0})
    b = _with_total(saved, {"residual_value": -50.0})
    assert compare(plan_from_dict(a), plan_from_dict(b)).totals["delta_pct"] == pytest.approx(50.0)


# --- 5. a saved plan under another name ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["plan.out", "plan", "plan.JSON.bak"])
def test_a_saved_plan_is_recognised_by_its_content_whatever_its_name(saved, tmp_path, name):
    path = tmp_path / name
    path.write_text(json.dumps(saved, indent=2), encoding="utf-8")
    assert is_plan_json(path) and is_plan_json(str(path))
    result = run("compare", WORKED, path, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["totals"]["b"] == pytest.approx(8385.46, abs=0.005) and data["totals"]["delta"] == pytest.approx(0, abs=1e-6)


def test_an_infeasible_result_saved_as_plan_out_says_it_holds_no_plan(tmp_path):
    out = tmp_path / "plan.out"
    out.write_text('{"status": "infeasible", "reason": "workload w: no offer"}', encoding="utf-8")
    result = run("compare", WORKED, out)
    assert result.exit_code == 2 and "plan.out: holds no plan: infeasible (workload w: no offer)" in one_line_error(result)


def _scenario_text() -> str:
    """The worked example with its offers file as an absolute path (the copy lives elsewhere)."""
    return WORKED.read_text(encoding="utf-8").replace(
        "source: offers-g5-us-east-1.csv", f"source: {WORKED.parent / 'offers-g5-us-east-1.csv'}")


@pytest.mark.parametrize("form", ["yaml", "json"])
def test_a_scenario_without_a_yaml_suffix_is_still_read_as_a_scenario(tmp_path, form):
    text = _scenario_text()
    scenario = tmp_path / "scenario.txt"
    scenario.write_text(text if form == "yaml" else json.dumps(yaml.safe_load(text)), encoding="utf-8")
    assert not is_plan_json(scenario)
    result = run("compare", WORKED, scenario, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"]["delta"] == pytest.approx(0, abs=1e-6)


def test_a_missing_file_or_yaml_text_is_not_taken_for_a_plan(tmp_path):
    assert not is_plan_json(tmp_path / "nope.out")
    assert not is_plan_json("name: x\nworkloads: []\n") and not is_plan_json("x" * 5000)


def test_plan_from_dict_raises_planner_error_not_value_error(saved):
    doc = copy.deepcopy(saved)
    doc["total"] = False
    with pytest.raises(PlannerError, match=r"<dict>: total is false; expected a finite number"):
        plan_from_dict(doc)


# --- from a review of the fixes --------------------------------------------------------------------

def test_numbers_too_large_for_a_float_exit_2_in_one_line(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["total"] = 10 ** 400                           # JSON allows an integer of any length
    result = run("compare", write(tmp_path, "big.json", doc), WORKED)
    assert result.exit_code == 2 and "big.json: total is 1000000" in one_line_error(result)
    doc = copy.deepcopy(saved)
    doc["costs"] = {"capex": 1e308, "energy": 1e308}   # each finite, their sum not
    doc["total"] = 1e308
    result = run("compare", write(tmp_path, "sum.json", doc), WORKED)
    assert result.exit_code == 2 and "sum.json: costs sum to inf but total is" in one_line_error(result)
    doc = copy.deepcopy(saved)
    doc["costs"]["capex"] += 1e308                     # they cancel: the sum is the total, their sizes overflow
    doc["costs"]["residual_value"] -= 1e308
    result = run("compare", write(tmp_path, "cancel.json", doc), WORKED)
    assert result.exit_code == 2 and "cancel.json: costs sum to" in one_line_error(result)


def test_a_scenario_saved_as_json_is_read_as_a_scenario(tmp_path):
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(yaml.safe_load(_scenario_text())), encoding="utf-8")
    assert not is_plan_json(scenario) and not is_plan_json(str(scenario))
    result = run("compare", WORKED, scenario, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["totals"]["b"] == pytest.approx(8385.46, abs=0.005)
    assert is_plan_json(tmp_path / "missing.json")   # told it cannot be read, as a plan


def test_a_gap_that_is_not_a_number_is_not_printed(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["status"], doc["solver"]["gap"] = "feasible", math.nan
    data = json.loads(run("compare", write(tmp_path, "limit.json", doc), WORKED, "--format", "json").stdout)
    assert "gap" not in data["notes"][0] and "nan" not in data["notes"][0]


def test_a_plan_compared_with_itself_solved_again_differs_by_exactly_zero(saved, tmp_path):
    # read back and solved again, the totals differed by float noise (7e-12) printed in the CSV
    data = json.loads(run("compare", write(tmp_path, "saved.json", saved), WORKED, "--format", "json").stdout)
    assert data["totals"]["delta"] == 0.0
    assert all(row["cost_delta"] == 0.0 for row in data["costs"])
    assert all(row["cost_delta"] == 0.0 for row in data["fleet"])


# --- audit H 5: a saved plan whose scenario_inputs hold 100,000 workloads wrote a 7 MB error line ----------

def test_more_workloads_than_a_scenario_may_hold_are_refused_in_one_short_line(saved, tmp_path):
    doc = copy.deepcopy(saved)
    doc["scenario_inputs"]["workloads"] = [{"name": f"w{i}"} for i in range(100_000)]
    path = write(tmp_path, "many.json", doc)
    assert one_line_error(run("compare", path, WORKED)) == (
        f"error: {path}: scenario_inputs.workloads: expected at most 500 entries, got 100,000 (a scenario's limit)")


def test_a_saved_scenarios_problems_are_the_first_100_located_by_their_field_path(saved, tmp_path):
    # 150 workloads, each lacking its reference_gpu: one problem each, of which the message shows 100
    doc = copy.deepcopy(saved)
    (workload,) = doc["scenario_inputs"]["workloads"]
    del workload["reference_gpu"]
    doc["scenario_inputs"]["workloads"] = [dict(workload, name=f"w{i}") for i in range(150)]
    path = write(tmp_path, "bad.json", doc)
    message = one_line_error(run("compare", path, WORKED))
    problems = message.removeprefix(f"error: {path}: ").split("; ")
    assert len(problems) == 101 and problems[-1] == "… and 50 more"
    assert problems[:2] == ["scenario_inputs.workloads[0].reference_gpu: required field is missing",
                            "scenario_inputs.workloads[1].reference_gpu: required field is missing"]
    assert "<dict>" not in message and ":1:1:" not in message
