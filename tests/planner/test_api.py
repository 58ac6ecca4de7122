"""The library API: overrides validated like a file, compare, and the README's worked example redone
with overrides (figures by hand from the YAML, README "Cost model")."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import planner
from planner import ScenarioError, apply_overrides, compare, flatten_scenario, load_scenario, plan
from planner.cli import app
from planner.engine import plan as engine_plan

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"

# Worked example by hand (README): one RTX A5000 working 657 h a month, the rest on g5.xlarge.
IDLE_KWH, BUSY_KWH = 0.1 * 730 * 1.5, 0.3 * 657 * 1.5          # per month, at the wall × PUE
CLOUD = 4315.74                                                # (800 − 657) / 0.8 h × 1.006 × 24
FIXED = 2500 - 625 + 250                                       # capex − resale credit (half of book) + maintenance


def worked_total(electricity=0.20, hours=800.0):
    cloud = (hours - 657) / 0.8 * 1.006 * 24
    return FIXED + (IDLE_KWH + BUSY_KWH) * electricity * 24 + cloud


def test_public_names():
    for name in ["load_scenario", "plan", "compare", "sweep", "Plan", "Scenario", "ScenarioError"]:
        assert hasattr(planner, name)
    for function in ["to_json", "to_csv", "to_excel", "to_focus", "to_markdown"]:
        assert callable(getattr(planner, function))


def test_names_imported_on_first_use_are_listed_and_reachable_as_before():
    # planner.engine and planner.reports import the decision values and the workbook, FOCUS and Markdown
    # writers on first use: their names still show in dir() (tab completion) and resolve, submodules too
    import planner.engine
    import planner.reports

    lazy = {"SHEETS", "OUT_FILES", "plan_to_excel", "plan_to_focus", "plan_to_markdown", "write_plan_files"}
    assert lazy <= set(dir(planner.reports)) and "add_decisions" in dir(planner.engine)
    assert planner.reports.plan_to_excel.__module__ == "planner.reports.excel"
    assert planner.reports.markdown.plan_to_markdown is planner.reports.plan_to_markdown
    assert planner.engine.add_decisions is planner.engine.decisions.add_decisions
    assert callable(planner.reports.compare) and callable(planner.reports.sweep)   # functions, not submodules
    with pytest.raises(AttributeError):
        planner.reports.no_such_name   # noqa: B018


def test_load_scenario_accepts_path_text_dict_and_scenario():
    s = load_scenario(WORKED)
    assert load_scenario(str(WORKED)) == s
    assert load_scenario(s) is s
    text = "name: t\nworkloads:\n  - {name: w, gpu_hours_per_month: 10, reference_gpu: RTX-A5000}\n"
    assert load_scenario(text).workloads[0].name == "w"
    assert load_scenario({"name": "t", "workloads": [{"name": "w", "gpu_hours_per_month": 10,
                                                      "reference_gpu": "RTX-A5000"}]}).name == "t"


def test_a_path_string_is_read_as_a_file_whatever_its_suffix(tmp_path):
    # "Plan.YAML" was parsed as the YAML text 'Plan.YAML' ("got a single value"), and so was a missing file's name
    for name in ("Plan.YAML", "scenario", "hybrid.txt"):
        (tmp_path / name).write_text(HYBRID.read_text(encoding="utf-8"), encoding="utf-8")
        assert load_scenario(str(tmp_path / name)) == load_scenario(HYBRID)
        assert plan(str(tmp_path / name), baselines=False).total == pytest.approx(plan(HYBRID, baselines=False).total)
    with pytest.raises(ScenarioError) as info:
        load_scenario(str(tmp_path / "missing.txt"))
    assert str(info.value).endswith("missing.txt: file not found")
    # one line of YAML, or compact JSON, stays text
    assert load_scenario("{name: t, workloads: [{name: w, gpu_hours_per_month: 10, reference_gpu: RTX-A5000}]}").name == "t"
    compact = json.dumps({"name": "j", "workloads": [{"name": "w", "gpu_hours_per_month": 10,
                                                       "reference_gpu": "RTX-A5000"}]}, separators=(",", ":"))
    assert ": " not in compact and load_scenario(compact).name == "j"


def test_electricity_override_by_hand_kwargs_and_dict_agree():
    s = load_scenario(WORKED)
    assert plan(s).total == pytest.approx(worked_total(), rel=1e-6)          # 7,760.46
    by_kwarg = plan(s, onprem__electricity_per_kwh=0.40, baselines=False)
    by_dict = plan(s, overrides={"onprem.electricity_per_kwh": 0.40}, baselines=False)
    # energy doubles: (109.5 + 295.65) kWh × 0.40 × 24 = 3,889.44
    assert by_kwarg.cost("energy") == pytest.approx((IDLE_KWH + BUSY_KWH) * 0.40 * 24, rel=1e-9)
    assert by_kwarg.total == pytest.approx(worked_total(electricity=0.40), rel=1e-6)
    assert by_dict.total == by_kwarg.total
    assert by_kwarg.scenario.onprem.electricity_per_kwh == 0.40
    assert s.onprem.electricity_per_kwh == 0.20            # the original is untouched (frozen)


def test_workload_override_by_name_by_hand():
    s = load_scenario(WORKED)
    p = plan(s, overrides={"workloads.training.gpu_hours_per_month": 1000}, baselines=False)
    # the card still works 657 h; the cloud takes (1000 − 657) / 0.8 = 428.75 g5 hours a month
    assert p.cost("cloud_on_demand") == pytest.approx(428.75 * 1.006 * 24, rel=1e-6)
    assert p.total == pytest.approx(worked_total(hours=1000), rel=1e-6)


def test_override_changes_exactly_that_input():
    s = load_scenario(HYBRID)
    t = apply_overrides(s, {"workloads.prototyping.gpu_hours_per_month": 3000,
                            "onprem.card_overrides.rtx-4090.price": 1500,
                            "onprem.existing.rtx-a5000": 1})
    diff = planner.scenario.diff_inputs(s, t)
    assert dict(zip(diff["path"], zip(diff["a"], diff["b"]))) == {
        "workloads.prototyping.gpu_hours_per_month": (1500.0, 3000.0),
        "onprem.card_overrides.rtx-4090.price": (None, 1500.0),
        "onprem.existing.rtx-a5000.count": (None, 1), "onprem.existing.rtx-a5000.age_months": (None, 0)}
    assert t.onprem.card_overrides["rtx-4090"].price == 1500
    assert apply_overrides(s, {}) is s


def test_round_trip_of_every_example_scenario_is_identity():
    for path in sorted((ROOT / "scenarios").glob("*.yaml")) + [WORKED]:
        s = load_scenario(path)
        assert apply_overrides(s, {"name": s.name}) == s


@pytest.mark.parametrize("overrides, needles", [
    ({"onprem.electricty_per_kwh": 0.2}, ["onprem.electricty_per_kwh", "did you mean 'electricity_per_kwh'"]),
    ({"horizon_month": 24}, ["did you mean 'horizon_months'"]),
    ({"workloads.protoyping.gpu_hours_per_month": 1}, ["no workload named 'protoyping'",
                                                       "did you mean 'prototyping'"]),
    ({"workloads.prototyping": 1}, ["name a field of the workload"]),
    ({"onprem.pue.value": 1}, ["onprem.pue is a value, not a section"]),
    ({"onprem.pue": 0.5}, ["onprem.pue", "expected a number ≥ 1, got 0.5"]),
    ({"workloads.prototyping.gpu_hours_per_month": "lots"},
     ["workloads.prototyping.gpu_hours_per_month", "expected a number, got 'lots'"]),
    ({"onprem.cards": ["rtx-4091"]}, ["unknown card 'rtx-4091'", "did you mean 'rtx-4090'"]),
    # typed without its separators: the card it begins (difflib alone said rtx-3090, one digit off)
    ({"onprem.cards": ["rtx3060"]}, ["unknown card 'rtx3060'", "did you mean 'rtx-3060-12gb'"]),
    ({"onprem.cards": ["H100 PCIe"]}, ["unknown card 'H100 PCIe'", "did you mean 'h100-pcie'"]),
    ({"workloads.llm-finetune.reference_gpu": "A100-80GB-PCI"}, ["unknown GPU", "did you mean"]),
    ({"": 1}, ["expected a dotted path"]),
])
def test_bad_overrides_are_scenario_errors(overrides, needles):
    s = load_scenario(HYBRID)
    with pytest.raises(ScenarioError) as info:
        plan(s, overrides=overrides)
    text = str(info.value)
    assert info.value.exit_code == 2
    for needle in needles:
        assert needle in text, text


@pytest.mark.parametrize("overrides, kwargs, problem", [
    # startup-hybrid's second workload (index 1) is prototyping: the last of the two spellings won, 1000 or 3000 h
    ({"workloads.1.gpu_hours_per_month": 3000, "workloads.prototyping.gpu_hours_per_month": 1000}, {},
     "workloads.1.gpu_hours_per_month and workloads.prototyping.gpu_hours_per_month are the same field; give it once"),
    ({"onprem.pue": 1.5}, {"onprem__pue": 1.6},
     "onprem.pue: given both in overrides and as the keyword argument onprem__pue; give it once"),
    ({"fx": {"CNY": 0.14}, "fx.CNY": 0.15}, {},
     "fx and fx.CNY: fx.CNY is a field of fx; give one of them (the field alone, or the whole fx with the field in it)"),
    ("horizon_months=12", {}, "overrides: expected a mapping of dotted path → value"),
])
def test_a_field_given_twice_is_refused_not_the_last_value_kept(overrides, kwargs, problem):
    s = load_scenario(HYBRID)
    assert [w.name for w in s.workloads][1] == "prototyping"
    with pytest.raises(ScenarioError) as info:
        apply_overrides(s, overrides, **kwargs)
    assert problem in str(info.value) and info.value.exit_code == 2


def test_a_field_given_twice_is_reported_with_the_other_bad_overrides():
    s = load_scenario(HYBRID)
    with pytest.raises(ScenarioError) as info:
        apply_overrides(s, {"workloads.1.gpu_hours_per_month": 1, "workloads.prototyping.gpu_hours_per_month": 2,
                            "horizon_monts": 3, "horizon_months": 24, "horizon_months.x": 1})
    text = str(info.value)
    assert "workloads.1.gpu_hours_per_month and workloads.prototyping.gpu_hours_per_month are the same field" in text
    assert "horizon_monts" in text and "did you mean 'horizon_months'" in text
    # a path that goes into a value is that problem alone, not also "a field of" it
    assert "horizon_months is a value, not a section" in text and "is a field of horizon_months" not in text


def test_every_bad_override_is_reported_together():
    s = load_scenario(HYBRID)
    with pytest.raises(ScenarioError) as info:
        apply_overrides(s, {"onprem.pue": 0.2, "onprem.nope": 1, "discount_rate": -1},
                        workloads__nobody__growth_per_month=0.1)
    assert len(info.value.problems) == 4, info.value.problems


# --- compare ----------------------------------------------------------------------------------------


def _copy_with(tmp_path, source: Path, old: str, new: str) -> Path:
    text = source.read_text()
    assert text.count(old) == 1
    # the worked example's price CSV is relative to the file: point the copy at the same CSV
    text = text.replace("source: offers-g5-us-east-1.csv", f"source: {source.parent / 'offers-g5-us-east-1.csv'}")
    out = tmp_path / source.name
    out.write_text(text.replace(old, new))
    return out


def test_compare_worked_example_electricity_by_hand(tmp_path):
    b = _copy_with(tmp_path, WORKED, "electricity_per_kwh: 0.20", "electricity_per_kwh: 0.40")
    c = compare(WORKED, b)
    assert c.inputs.to_dict("records") == [{"path": "onprem.electricity_per_kwh", "a": 0.20, "b": 0.40}]
    # only the energy changes: 405.15 kWh a month × 0.20 × 24 = 1,944.72 more
    delta = c.costs.set_index("category")["cost_delta"]
    assert delta["energy"] == pytest.approx(1944.72, rel=1e-9)
    assert delta.drop("energy").abs().max() < 1e-6
    assert c.total_delta == pytest.approx(1944.72, rel=1e-9)


def test_compare_startup_hybrid_against_a_copy_with_one_changed_input(tmp_path):
    b = _copy_with(tmp_path, HYBRID, "electricity_per_kwh: 0.12", "electricity_per_kwh: 0.30")
    c = compare(HYBRID, b)
    assert list(c.inputs["path"]) == ["onprem.electricity_per_kwh"]
    assert (c.inputs["a"].iloc[0], c.inputs["b"].iloc[0]) == (0.12, 0.30)
    # the delta is the difference of the two plan totals, each planned on its own
    ta = engine_plan(load_scenario(HYBRID), baselines=False).total
    tb = engine_plan(load_scenario(b), baselines=False).total
    assert c.total_delta == pytest.approx(tb - ta, rel=1e-9)
    assert c.costs["cost_delta"].sum() == pytest.approx(tb - ta, rel=1e-9)
    assert c.fleet["cost_delta"].sum() == pytest.approx(tb - ta, rel=1e-6)
    assert {"units_a", "units_b", "cost_a", "cost_b"} <= set(c.fleet.columns)

    result = CliRunner().invoke(app, ["compare", str(HYBRID), str(b), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["inputs"] == [{"path": "onprem.electricity_per_kwh", "a": 0.12, "b": 0.30}]
    assert data["totals"]["delta"] == pytest.approx(tb - ta, rel=1e-9)
    table = CliRunner().invoke(app, ["compare", str(HYBRID), str(b)])
    assert table.exit_code == 0 and "onprem.electricity_per_kwh" in table.stdout


def test_compare_of_plans_and_of_a_scenario_with_itself():
    s = load_scenario(WORKED)
    same = compare(s, s)
    assert same.inputs.empty and same.total_delta == 0
    pa, pb = plan(s, baselines=False), plan(s, baselines=False, onprem__pue=2.0)
    c = compare(pa, pb)
    assert c.inputs.to_dict("records") == [{"path": "onprem.pue", "a": 1.5, "b": 2.0}]
    # energy × 2.0 / 1.5: 1,944.72 × (2.0 / 1.5 − 1) = 648.24 more
    assert c.total_delta == pytest.approx(1944.72 / 3, rel=1e-9)


def test_compare_cli_infeasible_exits_1_and_bad_file_2(tmp_path):
    b = _copy_with(tmp_path, HYBRID, "power_cap_kw: 6", "power_cap_kw: 0.1")
    name = load_scenario(HYBRID).name   # the copy keeps it: the side's letter tells them apart
    for args, side in (([HYBRID, b], "b"), ([b, HYBRID], "a")):   # the message names the side with no fleet
        result = CliRunner().invoke(app, ["compare", *map(str, args)])
        # its one A100 (min_units) draws 300 W busy (onprem.card_overrides): said before solving, in validate's words
        assert result.exit_code == 1 and (f"infeasible: {side} ({name}): recommended: constraints.min_units.a100-80gb-pcie: "
                                          "1 card needs at least 0.30 kW in service (1 × 300 W busy), more than "
                                          "onprem.power_cap_kw 0.1 kW") in result.stderr
    assert CliRunner().invoke(app, ["compare", str(HYBRID), str(tmp_path / "nope.yaml")]).exit_code == 2


def test_flatten_addresses_workloads_by_name():
    flat = dict(flatten_scenario(load_scenario(HYBRID)).itertuples(index=False))
    assert flat["workloads.llm-finetune.gpu_hours_per_month"] == 400
    assert flat["prices.providers"] == "[aws, azure]"
    assert flat["onprem.card_overrides.a100-80gb-pcie.price"] == 14000


def test_compare_of_different_horizons_says_each_sides_basis_in_every_format(tmp_path):
    # worked-example.yaml plans 24 months undiscounted; the copy plans 12 at 10 %/year
    b = _copy_with(tmp_path, WORKED, "horizon_months: 24\ndiscount_rate: 0.0", "horizon_months: 12\ndiscount_rate: 0.10")
    c = compare(WORKED, b)
    assert c.basis == {"a": {"horizon_months": 24, "discount_rate": 0.0},
                       "b": {"horizon_months": 12, "discount_rate": 0.10}}
    assert not c.same_basis and compare(WORKED, WORKED).same_basis

    csv = CliRunner().invoke(app, ["compare", str(WORKED), str(b), "--format", "csv"])
    assert csv.exit_code == 0, csv.output
    rows = list(__import__("csv").DictReader(csv.stdout.splitlines()))
    assert rows and rows[-1]["category"] == "total"
    for row in rows:   # every row carries both bases, so a sheet mixing comparisons keeps them apart
        assert (row["currency"], row["horizon_months_a"], row["horizon_months_b"]) == ("USD", "24", "12")
        assert (float(row["discount_rate_a"]), float(row["discount_rate_b"])) == (0.0, 0.10)

    data = json.loads(CliRunner().invoke(app, ["compare", str(WORKED), str(b), "--format", "json"]).stdout)
    assert data["basis"]["b"] == {"horizon_months": 12, "discount_rate": 0.10} and data["same_basis"] is False
    table = CliRunner().invoke(app, ["compare", str(WORKED), str(b)])
    assert "not like for like: a sums 24 months at 0%/year, b 12 months at 10%/year" in " ".join(table.stdout.split())
    assert table.stdout.count("not like for like") == 1   # the comparison's note, not it and the CLI's own copy
    same = CliRunner().invoke(app, ["compare", str(WORKED), str(WORKED)])
    assert "not like for like" not in same.stdout


@pytest.mark.parametrize("kwargs, problem", [
    # -1 s said "found no fleet within the time limit of -1 s" (exit 3, as if the solver had tried); NaN meant no limit
    ({"time_limit": -1}, "time_limit: expected seconds above 0 (or None: no limit), got -1"),
    ({"time_limit": 0}, "time_limit: expected seconds above 0 (or None: no limit), got 0"),
    ({"time_limit": float("nan")}, "time_limit: expected seconds above 0 (or None: no limit), got nan"),
    ({"time_limit": True}, "time_limit: expected seconds above 0 (or None: no limit), got True"),
    ({"time_limit": 10**400}, "time_limit: expected seconds above 0 (or None: no limit), got 1000"),
    ({"time_limit": float("inf")}, "time_limit: expected seconds above 0 (or None: no limit), got inf"),
    ({"max_dispatch_variables": float("nan")}, "max_dispatch_variables: expected a whole number from 0"),
    ({"max_dispatch_variables": "10"}, "max_dispatch_variables: expected a whole number from 0 (or None: no limit), "
                                       "got '10'"),
])
def test_bad_limits_are_bad_input_before_anything_is_solved(kwargs, problem):
    with pytest.raises(planner.PlannerError) as info:
        plan(HYBRID, baselines=False, **kwargs)
    assert str(info.value) == problem or str(info.value).startswith(problem)
    assert info.value.exit_code == 2


def test_bad_library_arguments_of_sweep_and_add_decisions_are_named():
    for processes in (-5, 0, 1.5):
        with pytest.raises(planner.PlannerError, match=r"sweep: processes: expected a whole number from 1"):
            planner.sweep(HYBRID, {"onprem.pue": [1.2]}, processes=processes)
    with pytest.raises(planner.PlannerError, match="add_decisions: expected a Plan from planner.plan"):
        planner.add_decisions("scenarios/startup-hybrid.yaml")
    with pytest.raises(planner.PlannerError, match="add_baselines: expected a Plan from planner.plan"):
        planner.add_baselines("scenarios/startup-hybrid.yaml")


def test_the_errors_a_notebook_catches_are_planners_names():
    # ScenarioReadOnly was planner.scenario's name only, and SolverError planner.errors' (a time limit with no fleet)
    import planner
    from planner.errors import SolverError
    from planner.scenario import ScenarioReadOnly

    assert (planner.ScenarioReadOnly, planner.SolverError) == (ScenarioReadOnly, SolverError)
    assert {"ScenarioReadOnly", "SolverError", "PriceStoreLocked", "PriceStoreUnusable", "SidesUnreadable"} <= set(
        planner.__all__)
    from planner.reports.compare import SidesUnreadable  # compare's, when neither side can be read
    assert planner.SidesUnreadable is SidesUnreadable and issubclass(SidesUnreadable, planner.PlannerError)
    with pytest.raises(planner.ScenarioReadOnly, match="horizon_months is read-only"):
        planner.load_scenario(str(WORKED)).horizon_months = 12
