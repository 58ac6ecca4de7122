"""Hostile and careless input: each test replays one attack on the scenario reader, the CLI or a sweep, and
states what must happen instead — a clear message with its place, exit 2, no traceback, no hang.

Inputs that could hang or fill memory run in a subprocess with a 10 s timeout and a 3 GB address-space
limit: the timeout guards the test run, the assertion is the exit code and the message."""

from __future__ import annotations

import math
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import load_scenario, plan, sweep
from planner.cli import app
from planner.errors import ScenarioError
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
WORKLOAD = "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n"
runner = CliRunner()


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def run_guarded(*args: str) -> subprocess.CompletedProcess:
    """`python ARGS` in a fresh process that may use 3 GB; fails the test after 10 s."""
    try:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=10,
                              preexec_fn=_limit_memory, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after 10 s: {args[-1]} was not refused")


LIBRARY = """
import sys
from planner import load_scenario
from planner.errors import ScenarioError
from planner.scenario import load_scenario_text
try:
    if sys.argv[1] == "load_scenario":
        load_scenario(sys.argv[2])
    else:
        load_scenario_text(open(sys.argv[2]).read(), origin=sys.argv[2])
except ScenarioError as exc:
    print(exc, file=sys.stderr)
    sys.exit(2)
"""


def refuse(entry: str, path: Path) -> subprocess.CompletedProcess:
    """Load `path` through one entry point: the CLI's validate or plan, or the library's loaders."""
    if entry in ("validate", "plan"):
        return run_guarded("-m", "planner.cli", entry, str(path))
    return run_guarded("-c", LIBRARY, entry, str(path))


# --- 1. denial of service ------------------------------------------------------------------------------

def alias_bomb(levels: int = 8, width: int = 9) -> str:
    """'Billion laughs': level k is a list of `width` aliases of level k−1 — 9^8 = 43 million leaves."""
    lines = [f"l0: &l0 [{', '.join(['x'] * width)}]"]
    lines += [f"l{k}: &l{k} [{', '.join([f'*l{k - 1}'] * width)}]" for k in range(1, levels)]
    return "\n".join(lines) + "\n"


def megabyte_of_aliases() -> str:
    """About 1 MB of anchors, each a list of two aliases of the one before: the expansion doubles per line."""
    lines, k = ["name: x", "k0: &k0 [x, x]"], 1
    size = sum(map(len, lines))
    while size < 1_000_000:
        lines.append(f"k{k}: &k{k} [*k{k - 1}, *k{k - 1}]")
        size += len(lines[-1])
        k += 1
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("entry", ["validate", "plan", "load_scenario_text", "load_scenario"])
@pytest.mark.parametrize("make", [alias_bomb, megabyte_of_aliases], ids=["8-level-bomb", "1MB-of-aliases"])
def test_alias_expansion_is_refused_with_its_line(tmp_path, entry, make):
    path = tmp_path / "bomb.yaml"
    path.write_text(make())
    done = refuse(entry, path)
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"{path}:" in done.stderr and "YAML aliases expand to more than 100,000 nodes" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, "{a: " * 5000 + "1" + "}" * 5000],
                         ids=["list", "map"])
def test_5000_levels_of_nesting_are_refused_not_a_recursion_error(tmp_path, nested):
    path = tmp_path / "deep.yaml"
    path.write_text(f"name: x\nworkloads: {nested}\n")
    done = refuse("validate", path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert f"{path}:2:" in done.stderr and "YAML nested deeper than 100 levels" in done.stderr


@pytest.mark.parametrize("value,message", [
    ("[" + ", ".join(line.split(": ", 1)[1] for line in alias_bomb(7).splitlines()) + "]",
     "YAML aliases expand to more than 100,000 nodes"),
    ("[" * 3000 + "]" * 3000, "YAML nested deeper than 100 levels"),
], ids=["alias-bomb", "3000-levels"])
def test_a_sweep_value_is_read_under_the_limits_of_a_file(value, message):
    done = run_guarded("-m", "planner.cli", "sweep", str(WORKED), "--vary", f"prices.regions={value}")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert message in done.stderr


def test_an_alias_inside_the_node_it_names_is_refused():
    with pytest.raises(ScenarioError) as info:
        load_scenario_text("name: x\nworkloads: &w [*w]\n", origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:2:") and "cycle" in problem


def test_validate_dev_zero_stops_reading():
    done = run_guarded("-m", "planner.cli", "validate", "/dev/zero")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "longer than 1,048,576 characters" in done.stderr


def test_anchors_and_merge_keys_of_an_ordinary_scenario_still_load():
    text = textwrap.dedent("""\
        name: x
        workloads:
          - &base {name: a, reference_gpu: T4, gpu_hours_per_month: 100, growth_per_month: 0.02}
          - {<<: *base, name: b, gpu_hours_per_month: 50}
        """)
    s = load_scenario_text(text)
    assert [(w.name, w.gpu_hours_per_month, w.growth_per_month) for w in s.workloads] == [
        ("a", 100, 0.02), ("b", 50, 0.02)]


# --- 2. tracebacks where input is invalid ---------------------------------------------------------------

NON_FINITE = {
    "workloads[0].gpu_hours_per_month": "workloads:\n  - {name: a, gpu_hours_per_month: V, reference_gpu: T4}\n",
    "onprem.electricity_per_kwh": "onprem: {electricity_per_kwh: V}\n" + WORKLOAD,
    "workloads[0].throughput.T4": ("workloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4, "
                                   "throughput: {T4: V}}\n"),
    "fx.CNY": "fx: {CNY: V}\n" + WORKLOAD,
    "onprem.card_overrides.rtx-4090.price": "onprem: {card_overrides: {rtx-4090: {price: V}}}\n" + WORKLOAD,
    "onprem.capex_budget": "onprem: {capex_budget: V}\n" + WORKLOAD,
    "onprem.power_cap_kw": "onprem: {power_cap_kw: V}\n" + WORKLOAD,
}


@pytest.mark.parametrize("value", [".inf", ".nan"])
@pytest.mark.parametrize("field", list(NON_FINITE))
def test_non_finite_numbers_are_input_errors_with_their_place(tmp_path, field, value):
    path = tmp_path / "s.yaml"
    path.write_text("name: x\n" + NON_FINITE[field].replace("V", value))
    for command in ("validate", "plan"):
        result = runner.invoke(app, [command, str(path)])
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)          # not an exception escaping the command
        assert f"{path}:" in result.stderr and f"{field}: expected a finite number" in result.stderr


@pytest.mark.parametrize("body,field", [
    ("onprem: {electricity_per_kwh: 1.0e+308, cards: [rtx-4090]}\n" + WORKLOAD, "onprem.electricity_per_kwh"),
    ("workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, throughput: {T4: 1, A10G: 1.0e+300}}\n",
     "workloads[0].throughput.A10G"),
])
def test_numbers_too_large_for_the_solver_are_input_errors(tmp_path, body, field):
    path = tmp_path / "s.yaml"
    path.write_text("name: x\n" + body)
    result = runner.invoke(app, ["plan", str(path), "--no-baselines"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert f"{field}: expected a number ≤ " in result.stderr and "Input should be" not in result.stderr


# The reviewer's files: each passed `validate` (or crashed `plan` with a traceback) before. Line and column are
# those of the offending value: line 2 "onprem: {existing: {rtx-4090: {count: 2, age_months: " is 53 characters;
# line 3 "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, profile: " is 68.
@pytest.mark.parametrize("body,csv,expected", [
    ("onprem: {existing: {rtx-4090: {count: 2, age_months: 36}}}\n" + WORKLOAD, None,
     "s.yaml:2:54: onprem.existing.rtx-4090.age_months: 36 months is not below the card's life of 36 months "
     "(life_years 3); retire it (leave it out) or set onprem.card_overrides.rtx-4090.life_years"),
    (WORKLOAD.replace("T4}", "T4, profile: w.csv}"), ["1"] * 167 + ["nan"],
     "s.yaml:3:69: workloads[0].profile: w.csv:168: expected a finite hourly weight, got 'nan'"),
    (WORKLOAD.replace("T4}", "T4, profile: w.csv}"), ["weight", *["1"] * 166, "inf", "1"],
     "s.yaml:3:69: workloads[0].profile: w.csv:168: expected a finite hourly weight, got 'inf'"),
    (WORKLOAD.replace("T4}", "T4, profile: w.csv}"), ["1"] * 167 + ["-1"],
     "s.yaml:3:69: workloads[0].profile: w.csv:168: expected an hourly weight ≥ 0, got '-1'"),
])
def test_validate_refuses_what_plan_refuses_with_the_files_line(tmp_path, body, csv, expected):
    path = tmp_path / "s.yaml"
    path.write_text("name: x\n" + body)
    if csv:
        (tmp_path / "w.csv").write_text("\n".join(csv) + "\n")
    for command in ("validate", "plan"):
        result = runner.invoke(app, [command, str(path), *(["--no-baselines"] if command == "plan" else [])])
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert f"{tmp_path}/{expected.format(dir=tmp_path)}" in result.stderr
        assert "Traceback" not in result.stderr


def test_workload_names_that_differ_only_in_punctuation_plan_like_any_names():
    def scenario(a: str, b: str) -> dict:
        return {"name": "x", "workloads": [{"name": a, "gpu_hours_per_month": 100, "reference_gpu": "T4"},
                                           {"name": b, "gpu_hours_per_month": 300, "reference_gpu": "T4"}]}
    # pulp writes spaces and dashes as "_": `a b` and `a-b` must still be two workloads
    assert plan(scenario("a b", "a-b"), baselines=False).total == plan(scenario("a", "b"), baselines=False).total


def test_a_bad_sweep_value_is_refused_before_anything_is_solved(nothing_solved):
    # no point can plan inf or a PUE below 1: each is named once, with its own problem only (they were error rows,
    # planned beside the others, and a script read a sweep with a typo as done)
    with pytest.raises(ScenarioError) as info:
        sweep(load_scenario(WORKED), {"onprem.electricity_per_kwh": [0.2, math.inf], "onprem.pue": [1.5, 0.5]},
              processes=1)
    assert info.value.problems == ["onprem.electricity_per_kwh=inf: expected a finite number, got .inf",   # in YAML words
                                   "onprem.pue=0.5: expected a number ≥ 1, got 0.5"]


def test_values_fine_alone_but_not_together_are_an_error_row():
    # min 3 is valid beside max 4, and max 2 beside min 1: only their point together is an error. Min 3 with max 4
    # is infeasible: 3 × (2,000 + 500 host) = 7,500 USD of cards, above the worked example's capex budget of 2,500
    table = sweep(load_scenario(WORKED), {"constraints.min_units.rtx-a5000": [1, 3],
                                          "constraints.max_units.rtx-a5000": [2, 4]}, processes=1)
    assert list(table["status"]) == ["optimal", "optimal", "error", "infeasible"]
    assert "3 > max_units 2" in table["note"].iloc[2]


def test_cli_sweep_refuses_a_bad_value_before_anything_is_solved(nothing_solved):
    result = runner.invoke(app, ["sweep", str(WORKED), "--vary", "onprem.electricity_per_kwh=0.2,.inf",
                                 "--format", "csv", "--processes", "1"])
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == ("error: --vary: 1 problem onprem.electricity_per_kwh=.inf: expected a "
                                               "finite number, got .inf")


def test_inventory_reads_at_most_a_megabyte():
    done = run_guarded("-m", "planner.cli", "inventory", "--from", "/dev/zero")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "more than 1,000,000 bytes" in done.stderr


# --- 3. silent wrong answers ----------------------------------------------------------------------------

def test_duplicate_keys_are_reported_with_both_lines():
    text = textwrap.dedent("""\
        name: x
        horizon_months: 12
        workloads:
          - name: a
            gpu_hours_per_month: 100
            reference_gpu: T4
            gpu_hours_per_month: 900
        horizon_months: 60
        """)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    assert info.value.problems == [
        "t.yaml:7:5: duplicate key 'gpu_hours_per_month' (first on line 5); YAML keeps only the last — remove one",
        "t.yaml:8:1: duplicate key 'horizon_months' (first on line 2); YAML keeps only the last — remove one"]


@pytest.mark.parametrize("line,field", [
    ("horizon_months: true", "horizon_months"),
    ("onprem: {existing: {rtx-4090: true}}", "onprem.existing"),
    ("constraints: {max_units: {rtx-4090: false}}", "constraints.max_units"),
])
def test_true_or_false_is_not_a_number(line, field):
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(f"name: x\n{line}\n{WORKLOAD}", origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:2:") and f"{field}: expected" in problem
    assert "got true (a yes/no value)" in problem or "not true or false (for rtx-4090)" in problem


def test_gpus_per_job_true_is_not_one_gpu():
    with pytest.raises(ScenarioError, match=r"workloads\[0\]\.gpus_per_job: expected a number"):
        load_scenario_text("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4, "
                           "gpus_per_job: true}\n")


@pytest.mark.parametrize("rate", ["-1", "0", "nan", "inf"])
def test_offers_fx_must_be_a_positive_number(rate):
    result = runner.invoke(app, ["offers", "--gpu", "RTX-3060-12GB", "--provider", "onprem", "--fx", f"CNY={rate}"])
    assert result.exit_code == 2 and f"--fx 'CNY={rate}'" in result.stderr and "rate > 0" in result.stderr


def test_demand_above_a_billion_gpu_hours_a_month_is_refused():
    with pytest.raises(ScenarioError) as info:
        load_scenario_text("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1.0e+308, reference_gpu: T4}\n",
                           origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:3:36: workloads[0].gpu_hours_per_month:") and "1000000000" in problem


def test_growth_that_explodes_demand_names_the_month():
    text = ("name: x\nhorizon_months: 36\nworkloads:\n"
            "  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4, growth_per_month: 10}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    (problem,) = info.value.problems
    # 100 × 11^6 = 1.8e8 h in month 7, 100 × 11^7 = 1.9e9 h in month 8: over the 1e9 bound from month 8
    assert problem.startswith("t.yaml:4:") and "workloads[0].growth_per_month:" in problem
    assert "month 8 of 36" in problem


def test_infeasible_explanation_names_only_the_caps_that_are_set(tmp_path):
    path = tmp_path / "s.yaml"
    # no cloud provider, at most one A100 (730 × 0.97 h a month): 5,000 h cannot be served, and no cap is set
    path.write_text("name: x\nprices: {providers: []}\nonprem: {cards: [a100-80gb-pcie]}\n"
                    "constraints: {max_units: {a100-80gb-pcie: 1}}\n"
                    "workloads:\n  - {name: a, gpu_hours_per_month: 5000, reference_gpu: A100-80GB-PCIE}\n")
    result = runner.invoke(app, ["plan", str(path), "--no-baselines"])
    assert result.exit_code == 1, result.output
    assert "None" not in result.stderr and "no fleet meets the demand" in result.stderr


def test_plan_store_in_a_missing_folder_is_refused_and_nothing_is_created(tmp_path):
    store = tmp_path / "typo" / "dir" / "x.sqlite"
    result = runner.invoke(app, ["plan", str(ROOT / "scenarios" / "entry.yaml"), "--store", str(store)])
    assert result.exit_code == 2 and f"folder {store.parent} does not exist" in result.stderr
    assert not (tmp_path / "typo").exists()
