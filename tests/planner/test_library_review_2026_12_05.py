"""The library and export review of 2026-12-05: workload names with an empty dot segment (`team.a..v2`, `v2.`)
passed validation but no override path could name them (sweeps, the dashboard's sliders, share links)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import apply_overrides, load_scenario
from planner.cli import app
from planner.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")


def _entry_with_workloads(tmp_path: Path, names: list[str]) -> Path:
    """entry.yaml with its one workload repeated under `names`, demands 100, 110, 120 …"""
    head, _, block = ENTRY.partition("workloads:\n")
    body = block.replace("  - name: coursework-and-kaggle\n", "")
    entries = "".join(f'  - name: "{name}"\n' + body.replace("gpu_hours_per_month: 120", f"gpu_hours_per_month: {100 + 10 * i}")
                      for i, name in enumerate(names))
    path = tmp_path / "dots.yaml"
    path.write_text(head + "workloads:\n" + entries, encoding="utf-8")
    return path


NAMES = ["team.a..v2", "v2.", ".lead", "team.a"]


def test_an_override_names_a_workload_whose_name_has_an_empty_dot_segment(tmp_path):
    s = load_scenario(_entry_with_workloads(tmp_path, NAMES))   # valid: validate says ok
    assert [w.name for w in s.workloads] == NAMES
    changed = apply_overrides(s, {f"workloads.{name}.gpu_hours_per_month": 500 + i for i, name in enumerate(NAMES)})
    assert {w.name: w.gpu_hours_per_month for w in changed.workloads} == {name: 500 + i for i, name in enumerate(NAMES)}


@pytest.mark.parametrize("path", ["onprem..pue", "onprem.pue.", ".onprem.pue", "workloads.team.b..x.gpu_hours_per_month"])
def test_an_empty_segment_outside_a_workload_name_is_still_no_path(tmp_path, path):
    s = load_scenario(_entry_with_workloads(tmp_path, NAMES))
    with pytest.raises(ScenarioError, match="expected a dotted path such as onprem.electricity_per_kwh"):
        apply_overrides(s, {path: 1.0})


def test_a_sweep_over_such_a_workload_runs(tmp_path):
    # was: "expected a dotted path such as onprem.electricity_per_kwh" for a path the workbook itself lists
    path = _entry_with_workloads(tmp_path, NAMES)
    result = CliRunner().invoke(app, ["sweep", str(path), "--vary", "workloads.team.a..v2.gpu_hours_per_month=100,200",
                                      "--processes", "1", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") >= 3   # a header and a row per point


# ------------------------------------------------------------------ the library's exports check where they write

WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def worked_plan():
    from planner import plan

    return plan(WORKED, baselines=False)


def _exports():
    from planner import to_csv, to_excel, to_focus, to_json, to_markdown
    return [("to_json", to_json, "plan.json"), ("to_csv", to_csv, "fleet.csv"), ("to_excel", to_excel, "plan.xlsx"),
            ("to_markdown", to_markdown, "summary.md"), ("to_focus", to_focus, "focus.csv")]


@pytest.mark.parametrize("name, export, example", _exports(), ids=lambda x: x if isinstance(x, str) else "")
def test_an_export_to_a_folder_an_empty_name_or_a_missing_folder_is_refused_and_writes_nothing(
        tmp_path, worked_plan, name, export, example):
    from planner.errors import PlannerError

    # was: to_json(p, "new/") wrote a file named `new`; to_excel(p, "") raised IsADirectoryError naming a hidden
    # temporary file; a missing folder was made
    (tmp_path / "folder").mkdir()
    for target, said in [(f"{tmp_path}/new/", f"{tmp_path}/new/: is a folder; give a file name, e.g. {tmp_path}/new/{example}"),
                         (str(tmp_path / "folder"), f"{tmp_path}/folder: is a folder; give a file name, e.g. "
                                                   f"{tmp_path}/folder/{example}"),
                         ("", f"no file name given to write the export to; give one, e.g. {example}"),
                         (str(tmp_path / "missing" / example), f"{tmp_path}/missing/{example}: folder "
                                                              f"{tmp_path}/missing does not exist")]:
        with pytest.raises(PlannerError) as info:
            export(worked_plan, target)
        assert str(info.value) == said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"] and not any((tmp_path / "folder").iterdir())
    export(worked_plan, tmp_path / "folder" / example)   # a file in a folder that exists is written
    assert (tmp_path / "folder" / example).stat().st_size > 0


@pytest.mark.parametrize("name, export, example", _exports(), ids=lambda x: x if isinstance(x, str) else "")
def test_an_export_of_something_that_is_no_plan_says_so(name, export, example):
    from planner.errors import PlannerError

    # was: pydantic's "generated_at Instance is frozen" for a Scenario, an AttributeError for None
    for thing, kind in [(load_scenario(WORKED), "Scenario"), (None, "NoneType")]:
        with pytest.raises(PlannerError, match=rf"needs a Plan from planner.plan\(\) .*; got {kind}$"):
            export(thing)


def test_write_files_makes_its_folder_but_no_missing_one_above_it(tmp_path, worked_plan):
    from planner import write_files
    from planner.errors import PlannerError

    # named as given, without the CLI's --out, which a notebook's user never typed (tests/planner/test_library_paths.py)
    with pytest.raises(PlannerError, match=f"^{tmp_path}/a/b/c: folder {tmp_path}/a/b does not exist$"):
        write_files(worked_plan, tmp_path / "a" / "b" / "c")
    with pytest.raises(PlannerError, match="^write_files: no folder given"):
        write_files(worked_plan, "")
    assert list(tmp_path.iterdir()) == []
    written = write_files(worked_plan, tmp_path / "review")
    assert all(path.is_file() for path in written)


def test_to_csv_with_a_list_for_table_says_what_it_expects(worked_plan):
    from planner import to_csv
    from planner.errors import PlannerError

    with pytest.raises(PlannerError, match=r"^table=\['fleet'\]: expected one table's name, e.g. table='monthly'$"):
        to_csv(worked_plan, table=["fleet"])


# ------------------------------------------------------------------ plan() and sweep() arguments of the wrong kind

@pytest.mark.parametrize("kwargs, said", [
    ({"baselines": "no"}, "plan: baselines: expected True or False, got 'no'"),   # ran the baselines
    ({"reduced": 0}, "plan: reduced: expected True or False, got 0"),
    ({"prefetch_baselines": None}, "plan: prefetch_baselines: expected True or False, got None"),
    ({"extra_constraints": 1}, "plan: extra_constraints: expected a function of the built model (or None), got 1"),
])
def test_plan_refuses_switches_that_are_not_true_or_false(kwargs, said):
    from planner import plan
    from planner.errors import PlannerError

    with pytest.raises(PlannerError) as info:
        plan(WORKED, **kwargs)
    assert str(info.value) == said


@pytest.mark.parametrize("kwargs, said", [
    ({"vary": None}, "sweep: vary: expected a mapping of dotted paths to lists of values, e.g. "
                     "{'onprem.electricity_per_kwh': [0.1, 0.2]}, got None"),
    ({"max_points": float("nan")}, "sweep: max_points: expected a whole number from 1, got nan"),
    ({"max_points": "5"}, "sweep: max_points: expected a whole number from 1, got '5'"),
    ({"max_points": -1}, "sweep: max_points: expected a whole number from 1, got -1"),
    ({"progress": 1}, "sweep: progress: expected a function progress(done, total) or None, got 1"),
    ({"baselines": "yes"}, "sweep: baselines: expected True or False, got 'yes'"),
    ({"scheduler_timeout": float("nan")}, "sweep: scheduler_timeout: expected seconds above 0 (or None: distributed's "
                                          "own), got nan"),
    ({"scheduler_timeout": -1}, "sweep: scheduler_timeout: expected seconds above 0 (or None: distributed's own), got -1"),
])
def test_sweep_refuses_arguments_of_the_wrong_kind_before_any_point(kwargs, said):
    from planner import sweep
    from planner.errors import PlannerError

    args = {"vary": {"onprem.electricity_per_kwh": [0.1, 0.2]}, "processes": 1, **kwargs}
    with pytest.raises(PlannerError) as info:
        sweep(WORKED, **args)
    assert str(info.value) == said


# ------------------------------------------------------------------ names that look the same; a unit limit named

def test_workload_names_that_differ_only_in_what_no_one_sees_are_one_name():
    # "a" and "a " (or "a" and "a" with a zero-width space) were two workloads, shown alike in every table
    from planner.scenario import load_scenario_text

    # the zero-width space as YAML's escape: written as itself it is refused where it stands (test_invisible_characters)
    for twin, shown in [("a ", "'a '"), ("a\\u200b", "'a\u200b'"), (" a", "' a'")]:
        text = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
                f'  - {{name: "{twin}", gpu_hours_per_month: 2, reference_gpu: T4}}\n')
        with pytest.raises(ScenarioError) as info:
            load_scenario_text(text, origin="t.yaml")
        # the zero-width space, escaped in the file, is refused in a name by the model too (test_invisible_characters)
        refused = ([] if "\\u200b" not in twin else
                   ["t.yaml:4:12: workloads[1].name: zero-width space U+200B inside the value: an invisible character, "
                    "which no table of the plan shows; delete it (it often comes with text pasted from a web page or a "
                    "chat), got 'a\\u200b'"])
        assert info.value.problems == refused + [
            f"t.yaml:4:12: workloads[1].name: {shown} is the name of an earlier workload too (it looks the same as "
            "'a': they differ only in spaces at an end or in characters no one sees); workload names must be unique"]
    # names that a reader tells apart stay two
    ok = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
          "  - {name: A, gpu_hours_per_month: 2, reference_gpu: T4}\n"
          "  - {name: a b, gpu_hours_per_month: 2, reference_gpu: T4}\n")
    assert [w.name for w in load_scenario_text(ok, origin="t.yaml").workloads] == ["a", "A", "a b"]


def test_a_decision_whose_forbidding_leaves_no_fleet_names_the_unit_limit(tmp_path):
    # a review's case: one A100 at most (constraints.max_units.cardb = 1); forbidding the A5000 purchase leaves no
    # fleet, and the note said "the scenario's min_units / max_units cannot be met"
    from planner import add_decisions, plan

    (tmp_path / "offers.csv").write_bytes((ROOT / "examples" / "offers-g5-us-east-1.csv").read_bytes())
    (tmp_path / "s.yaml").write_text("""name: caps
currency: USD
horizon_months: 12
discount_rate: 0.10
prices: {source: offers.csv, providers: [aws], purchase_options: [on_demand]}
onprem:
  electricity_per_kwh: 0.20
  pue: 1.5
  availability: 0.9
  purchase_every_months: 12
  power_cap_kw: 1.3
  capex_budget: 30000
  custom_cards:
    carda: {gpu: RTX-A5000, price: 6000, currency: USD, host_cost_per_card: 500, busy_watts: 400, idle_watts: 100,
            life_years: 4, maintenance_rate_per_year: 0.05}
    cardb: {gpu: A100-80GB-PCIE, price: 14000, currency: USD, host_cost_per_card: 1000, busy_watts: 600,
            idle_watts: 120, life_years: 5, maintenance_rate_per_year: 0.05}
workloads:
  - {name: training, gpu_hours_per_month: 3000, reference_gpu: RTX-A5000, min_gpu_memory_gb: 16, profile: flat,
     throughput: {RTX-A5000: 1.0, A100-80GB-PCIE: 2.4, A10G: 0.8}}
constraints: {max_units: {cardb: 1, carda: 50}, max_cloud_share: 0.3}
""", encoding="utf-8")
    p = add_decisions(plan(tmp_path / "s.yaml", baselines=False), threads=2)
    notes = dict(zip(p.decisions["card_or_offer"], p.decisions["note"]))
    # (carda's own maximum of 50 is not named: with carda forbidden it cannot be what blocks)
    assert notes["carda"] == "no fleet without it: constraints.max_units.cardb = 1 cannot be met"
    # forbidding the A100 instead: the power cap is what no fleet of A5000s can meet (1.3 kW)
    assert notes["cardb"] == "no fleet without it: the power cap of 1.3 kW cannot be met"


def test_an_override_value_nested_too_deep_or_a_generator_is_named():
    # was a RecursionError out of copy.deepcopy, and "cannot pickle 'generator' object"
    s = load_scenario(WORKED)
    deep: dict = {}
    inner = deep
    for _ in range(100_000):
        inner["a"] = {}
        inner = inner["a"]
    for value, said in [(deep, "the value is nested too deep to be a scenario value"),
                        ((n for n in range(3)), "expected a number, text, list or mapping, got generator")]:
        with pytest.raises(ScenarioError) as info:
            apply_overrides(s, {"onprem.card_overrides": value})
        assert info.value.problems == [f"onprem.card_overrides: {said}"]


def test_numpy_switches_and_a_series_of_values_are_taken():
    # plan(baselines=np.False_) worked before the check of True or False; a pandas Series has items() as a dict has
    import numpy as np
    import pandas as pd

    from planner import plan, sweep

    assert plan(WORKED, baselines=np.False_).baselines.empty
    table = sweep(WORKED, vary=pd.Series({"onprem.electricity_per_kwh": [0.1, 0.2]}), processes=1)
    assert list(table["onprem.electricity_per_kwh"]) == [0.1, 0.2] and set(table["status"]) == {"optimal"}


# ------------------------------------------------------------------ baselines: a reason kept whole, a share of no total

def test_an_infeasible_baseline_keeps_the_workload_its_reason_names(tmp_path):
    # all on-prem with 24 GB cards for a workload needing 40 GB: the note was "24 GB per GPU < 40 GB needed (2 offers)",
    # the text before its first ": " (the workload) cut off as if it were the baseline's name
    from planner import plan

    offers = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text(encoding="utf-8").splitlines()
    l40s = offers[1].replace("g5.xlarge", "g6e.xlarge").replace(",A10G,", ",L40S,").replace(",24.0,", ",48.0,")
    (tmp_path / "offers.csv").write_text("\n".join([*offers, l40s]) + "\n", encoding="utf-8")
    text = (WORKED.read_text(encoding="utf-8").replace("source: offers-g5-us-east-1.csv", "source: offers.csv")
            .replace("  capex_budget: 2500\n", "")
            + "  - {name: big, gpu_hours_per_month: 100, reference_gpu: L40S, min_gpu_memory_gb: 40, profile: flat}\n")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    p = plan(tmp_path / "s.yaml")
    note = p.baselines.set_index("baseline").loc["all_onprem", "note"]
    assert note.startswith("workload big (≥ 40 GB, 1 GPU per job) has no compatible offer"), note
    assert "24 GB per GPU < 40 GB needed" in note


def test_a_baseline_saving_without_a_share_prints_no_nan():
    # a baseline total of 0 or less has no savings_pct (blank, docs/cost-model.md): the summary wrote "nan%"
    import dataclasses
    import math

    from planner import plan, to_markdown

    p = plan(WORKED)
    baselines = p.baselines.copy()
    baselines["savings_pct"] = math.nan
    md = to_markdown(dataclasses.replace(p, baselines=baselines))
    line = next(text for text in md.splitlines() if text.startswith("Against the baselines"))
    # 800 / 0.8 × 1.006 × 24 = 24,144 USD all cloud, less the plan's 8,385.46 (README's worked example)
    assert "nan" not in line and "all cloud (no new hardware): 24,144 USD (saves 15,759);" in line, line


def test_the_summary_names_baselines_as_the_cli_table_does_and_says_an_infeasible_one():
    # a dashboard review (2026-12-06): the summary said "best_single: 77,779 USD" where the page says "Only
    # a100-80gb-pcie", and left industrial.yaml's infeasible all on-prem baseline out without a word
    from planner import plan, to_markdown

    p = plan(ROOT / "scenarios" / "industrial.yaml")
    line = next(text for text in to_markdown(p).splitlines() if text.startswith("Against the baselines"))
    b = p.baselines.set_index("baseline")
    assert b.loc["all_onprem", "status"] == "infeasible"
    assert "all on-prem (no cloud): infeasible (the power cap of 60 kW cannot be met" in line, line
    assert f"{b.loc['best_single', 'label']}: {b.loc['best_single', 'total']:,.0f} USD (saves" in line
    assert "best_single" not in line and "all_cloud" not in line and "all_onprem" not in line
