"""The CLI behaves like other command-line tools: --version, -h, shell completion, the environment in
--help, quiet exit 0 when the reader of stdout stops early, plans saved as JSON that say which version
made them and when, single-file exports (-o FILE), compare against a saved plan, and no library call
writing to stdout."""

import importlib.metadata
import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

import planner
from planner.cli import app
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def fleetplan() -> list[str]:
    """The installed `fleetplan` command (the console script next to this interpreter)."""
    script = Path(sys.executable).parent / "fleetplan"
    return [str(script)] if script.exists() else [sys.executable, "-m", "planner.cli"]


def one_line_error(result) -> str:
    text = result.stderr.strip()
    assert "Traceback" not in result.output and len(text.splitlines()) == 1, result.output
    return text


# --- --version, -h, completion, environment ----------------------------------------------------------

def test_version_prints_the_installed_version():
    expected = importlib.metadata.version("gpu-fleet-planner")
    assert planner.__version__ == expected
    result = run("--version")
    root = Path(planner.__file__).parent
    assert result.exit_code == 0 and result.stdout == (f"fleetplan {expected}\nplanner: {root}\n"
                                                       f"pricing_adapters: {root.parent / 'pricing_adapters'}\n")


def test_version_warns_when_another_distribution_provides_planner(monkeypatch):
    # a distribution named "planner" on the package registry installs a top-level `planner` package
    import importlib.metadata as md
    monkeypatch.setattr(md, "packages_distributions",
                        lambda: {"planner": ["gpu-fleet-planner", "planner"], "pricing_adapters": ["gpu-fleet-planner"]})
    result = run("--version")
    assert result.exit_code == 0 and "warning: planner is also provided by planner" in result.stderr
    assert "pricing_adapters is also" not in result.stderr


@pytest.mark.parametrize("args", [["-h"], ["plan", "-h"], ["sweep", "-h"], ["compare", "-h"], ["prices", "-h"],
                                  ["prices", "refresh", "-h"]])
def test_dash_h_is_help_on_every_command(args):
    short, long = run(*args), run(*args[:-1], "--help")
    assert short.exit_code == 0 and "Usage: " in short.stdout and "Options" in short.stdout
    assert short.stdout == long.stdout


def test_help_shows_each_option_help_whole_and_flags_without_a_value():
    # typer's rich panels cut help texts short at 80 columns ("skip the all-cloud/all-on-prem/si…") and
    # showed `<bool>` after every flag; click's plain help wraps them whole
    text = run("plan", "-h").stdout
    words = "".join(text.split())
    for whole in ["skip the all-cloud/all-on-prem/single-type runs",
                  "skip what each decision is worth, the runner-up plan, the flip points and what each limit costs "
                  "(re-solves made after the plan is shown)"]:
        assert "".join(whole.split()) in words, whole
    assert "…" not in text and "<bool>" not in text
    [usage] = [line for line in text.splitlines() if line.startswith("Usage: ")]
    assert usage.endswith((" plan [OPTIONS] {SCENARIO}", " plan [OPTIONS] SCENARIO"))   # typer ≥ 0.29 writes {}


@pytest.mark.parametrize("args", [["schema"], ["offers"], ["inventory"], ["plan"], ["compare"], ["sweep"], ["dashboard"],
                                  ["prices", "refresh"], ["prices", "list"], ["prices", "show"], ["prices", "diff"]])
def test_options_that_take_a_value_say_what_it_is(args):
    # `--out DIR`, `--start YYYY-MM`, `--store FILE`: not the Python type typer would show (`<path>`, `<str>`)
    options = [line for line in run(*args, "-h").stdout.splitlines() if line.lstrip().startswith("-")]
    assert options and not [line for line in options if any(t in line for t in ("<path>", "<str>", "<float>", "<int",
                                                                                 "<list["))], options


def test_help_lists_the_environment_variables_the_adapters_read():
    text = run("--help").stdout
    for name in ["FLEETPLAN_STORE", "FLEETPLAN_AZURE_PRICES_URL", "FLEETPLAN_AZURE_ARM_URL", "AZURE_SUBSCRIPTION_ID",
                 "AWS_ENDPOINT_URL_PRICING", "AWS_ENDPOINT_URL_EC2", "AWS_PROFILE", "AWS_ACCESS_KEY_ID",
                 "AWS_SECRET_ACCESS_KEY"]:
        assert name in text, name
    # and each FLEETPLAN_ / AZURE_ variable named there is one the code reads
    sources = "".join(p.read_text() for p in (ROOT / "pricing_adapters").glob("*.py"))
    for name in ["FLEETPLAN_STORE", "FLEETPLAN_AZURE_PRICES_URL", "FLEETPLAN_AZURE_ARM_URL", "AZURE_SUBSCRIPTION_ID",
                 "AWS_ENDPOINT_URL_PRICING", "AWS_ENDPOINT_URL_EC2"]:
        assert f'"{name}"' in sources, name


def test_shell_completion_is_offered():
    text = run("--help").stdout
    assert "--install-completion" in text and "--show-completion" in text
    # typer asks shellingham for the parent shell and ignores the argument unless detection is off;
    # under CI the parent is `sh`, which typer does not support
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    script = subprocess.run([*fleetplan(), "--show-completion", "bash"], capture_output=True, text=True, timeout=60,
                            env=env)
    assert script.returncode == 0 and "complete" in script.stdout and "fleetplan" in script.stdout


# --- a reader that stops early ------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["offers", "--format", "csv"], ["offers"], ["-h"], ["plan", "-h"]])
def test_closed_pipe_exits_0_quietly(args):
    """`fleetplan offers --format csv | head -1`: one line read, the pipe closed, exit 0, nothing on stderr
    but the command's own warnings."""
    proc = subprocess.Popen([*fleetplan(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = proc.stdout.readline()
        proc.stdout.close()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        stderr = proc.stderr.read().decode()
        proc.stderr.close()
    assert first.endswith(b"\n")
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr and "Exception ignored" not in stderr, stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["plan", "WORKED", "--format", "json", "--no-baselines", "--no-decisions"],
                                  ["plan", "WORKED", "--no-baselines", "--no-decisions"], ["offers"], ["schema"]])
def test_stdout_on_a_full_disk_is_one_line_and_exit_2(args):
    """`fleetplan … > /dev/full`: every write fails with ENOSPC. It was a traceback and exit 1 (for plan,
    `infeasible`); now one line naming the cause, exit 2, and nothing more at the interpreter's exit."""
    args = [str(WORKED) if a == "WORKED" else a for a in args]
    with open("/dev/full", "w") as full:
        done = subprocess.run([*fleetplan(), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1] == "error: cannot write the output: No space left on device", done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr


def test_stdout_closed_before_start_drops_the_output_quietly():
    """`fleetplan offers >&-`: Python starts with sys.stdout None; the first write was an AttributeError
    traceback. Now what goes there is dropped, as for a reader that stopped early: exit 0."""
    done = subprocess.run([*fleetplan(), "offers"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=120, preexec_fn=lambda: os.close(1))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


# --- the plan JSON: version, generation time, the scenario ------------------------------------------

def test_plan_json_says_which_version_made_it_and_when():
    before = datetime.now(timezone.utc).replace(microsecond=0)
    result = run("plan", WORKED, "--format", "json", "--no-baselines")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["version"] == planner.__version__
    stamp = datetime.fromisoformat(doc["generated_at"].replace("Z", "+00:00"))
    assert stamp.utcoffset() == timedelta(0)
    assert before <= stamp <= datetime.now(timezone.utc) + timedelta(seconds=1)
    # the scenario solved, readable again as a scenario from its folder: it names its offers CSV as the file does,
    # relative to it (an absolute path made the JSON differ between two checkouts)
    assert doc["scenario_inputs"]["prices"]["source"] == "offers-g5-us-east-1.csv"
    again = load_scenario_text(json.dumps(doc["scenario_inputs"]), base_dir=WORKED.parent)
    assert again == planner.load_scenario(WORKED)


def test_xlsx_summary_carries_version_and_generated_at_and_every_export_of_a_plan_the_same(tmp_path):
    p = planner.plan(WORKED, baselines=False)
    planner.to_excel(p, tmp_path / "p.xlsx")
    summary = {r[0]: r[1] for r in load_workbook(tmp_path / "p.xlsx")["summary"].iter_rows(min_row=2, values_only=True)}
    doc = json.loads(planner.to_json(p))
    assert summary["version"] == doc["version"] == planner.__version__
    assert summary["generated_at"] == doc["generated_at"]


# --- plan --format xlsx | focus | md, -o FILE ---------------------------------------------------------

def test_plan_format_xlsx_focus_md_to_a_file_and_md_focus_to_stdout(tmp_path):
    total = json.loads(run("plan", HYBRID, "--format", "json", "--no-baselines").stdout)["total"]
    xlsx = run("plan", HYBRID, "--format", "xlsx", "-o", tmp_path / "x.xlsx", "--no-baselines", "--start", "2027-01")
    assert xlsx.exit_code == 0, xlsx.output
    assert xlsx.stdout == "" and f"wrote {tmp_path / 'x.xlsx'}" in xlsx.stderr
    summary = {r[0]: r[1] for r in load_workbook(tmp_path / "x.xlsx")["summary"].iter_rows(min_row=2, values_only=True)}
    assert summary["total"] == pytest.approx(total, rel=1e-12) and summary["plan_start"] == "2027-01-01"

    focus = run("plan", HYBRID, "--format", "focus", "-o", tmp_path / "f.csv", "--no-baselines", "--start", "2027-01")
    assert focus.exit_code == 0, focus.output
    import csv
    rows = list(csv.DictReader((tmp_path / "f.csv").open(newline="")))
    assert sum(float(r["EffectiveCost"]) for r in rows) == pytest.approx(total, rel=1e-9)
    assert rows[0]["ChargePeriodStart"] == "2027-01-01T00:00:00Z"
    on_stdout = run("plan", HYBRID, "--format", "focus", "--no-baselines", "--start", "2027-01")
    assert on_stdout.stdout == (tmp_path / "f.csv").read_text()

    md = run("plan", HYBRID, "--format", "md", "--no-baselines")
    assert md.exit_code == 0 and md.stdout.startswith("# Start-up hybrid fleet")
    assert f"{total:,.0f} USD" in md.stdout
    assert run("plan", HYBRID, "--format", "md", "-o", tmp_path / "s.md", "--no-baselines").exit_code == 0
    # the same summary but for the time it was made (its header line) and the solver's own seconds on the last line
    def page(text: str) -> list[str]:
        return [x for x in text.split("Solver")[0].splitlines() if not x.startswith("Planned with fleetplan ")]

    assert page((tmp_path / "s.md").read_text()) == page(md.stdout)
    # json and csv still go to stdout, or to -o FILE
    assert run("plan", HYBRID, "--format", "json", "-o", tmp_path / "p.json", "--no-baselines").exit_code == 0
    assert json.loads((tmp_path / "p.json").read_text())["total"] == total
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.csv", "p.json", "s.md", "x.xlsx"]   # no temporary files


@pytest.mark.parametrize("args, needle", [
    (["--format", "xlsx"], "-o FILE"),
    (["--format", "table", "-o", "{tmp}/t.txt"], "-o FILE needs --format"),
    (["--format", "md", "-o", "{tmp}/missing/s.md"], "does not exist"),
    (["--format", "xlsx", "-o", "{tmp}"], "is a folder"),
])
def test_plan_output_mistakes_exit_2_in_one_line_before_solving(tmp_path, args, needle):
    result = run("plan", WORKED, *[a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 2 and needle in one_line_error(result) and result.stdout == ""


# --- compare against a saved plan ---------------------------------------------------------------------

def _copy_with(tmp_path: Path, old: str, new: str) -> Path:
    text = WORKED.read_text()
    text = text.replace("source: offers-g5-us-east-1.csv", f"source: {WORKED.parent / 'offers-g5-us-east-1.csv'}")
    out = tmp_path / "b.yaml"
    out.write_text(text.replace(old, new))
    return out


def test_compare_a_scenario_with_a_saved_plan(tmp_path):
    b = _copy_with(tmp_path, "electricity_per_kwh: 0.20", "electricity_per_kwh: 0.40")
    assert run("plan", b, "--format", "json", "-o", tmp_path / "saved.json").exit_code == 0
    assert run("plan", b, "--out", tmp_path / "out").exit_code == 0
    for saved in (tmp_path / "saved.json", tmp_path / "out" / "plan.json"):
        result = run("compare", WORKED, saved, "--format", "json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["inputs"] == [{"path": "onprem.electricity_per_kwh", "a": 0.20, "b": 0.40}]
        # 405.15 kWh a month × 0.20 USD more × 24 months (README's worked example)
        assert data["totals"]["delta"] == pytest.approx(1944.72, rel=1e-9)
        assert {r["category"]: r["cost_delta"] for r in data["costs"]}["energy"] == pytest.approx(1944.72, rel=1e-9)
        assert [r["sku"] for r in data["fleet"]] == ["rtx-a5000", "g5.xlarge"]
    table = run("compare", tmp_path / "saved.json", WORKED)
    assert table.exit_code == 0
    for needle in ["Inputs that differ (1)", "onprem.electricity_per_kwh", "Fleets side by side", "rtx-a5000",
                   "Cost by category", "energy"]:
        assert needle in table.stdout


def test_a_saved_plan_is_read_not_solved_again(tmp_path):
    assert run("plan", WORKED, "--format", "json", "-o", tmp_path / "saved.json").exit_code == 0
    doc = json.loads((tmp_path / "saved.json").read_text())
    doc["costs"]["capex"] += 1000.0 - doc["total"]   # what the file says, not a new solve (its costs still
    doc["total"] = 1000.0                            # sum to its total, or compare refuses the file)
    (tmp_path / "saved.json").write_text(json.dumps(doc))
    data = json.loads(run("compare", tmp_path / "saved.json", WORKED, "--format", "json").stdout)
    assert data["totals"]["a"] == 1000.0 and data["totals"]["b"] == pytest.approx(8385.46, rel=1e-6)


@pytest.mark.parametrize("content, needle", [
    ('{"name": "not a plan"}', "not a plan"),
    ("[1, 2, 3]", "not a plan"),
    ("{not json", "not JSON"),
    ('{"status": "infeasible", "reason": "workload w: no offer"}', "holds no plan"),
    ("[" * 100_000 + "]" * 100_000, "not JSON"),
    # Python's int() refuses over 4,300 digits and advised sys.set_int_max_str_digits()
    ('{"horizon_months": ' + "9" * 100_000 + "}", "a whole number of 100,000 digits (at most 4,300 read); expected the plan"),
])
def test_compare_with_a_json_that_is_not_a_plan_exits_2_in_one_line(tmp_path, content, needle):
    bad = tmp_path / "not-a-plan.json"
    bad.write_text(content)
    result = run("compare", WORKED, bad)
    assert result.exit_code == 2 and needle in one_line_error(result) and result.stdout == ""


def test_compare_with_a_plan_saved_without_its_scenario_says_so(tmp_path):
    doc = json.loads(planner.to_json(planner.plan(WORKED, baselines=False)))
    del doc["scenario_inputs"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    result = run("compare", WORKED, old)
    assert result.exit_code == 2 and "scenario_inputs" in one_line_error(result)


# --- libraries print nothing --------------------------------------------------------------------------

def test_plan_and_sweep_write_nothing_to_stdout(tmp_path):
    """File descriptor 1 of a process that plans with HiGHS and CBC and sweeps on worker processes
    stays empty."""
    script = tmp_path / "quiet.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from planner import plan, sweep
        plan({str(HYBRID)!r}, solver="highs")
        plan({str(WORKED)!r}, solver="cbc")
        sweep({str(WORKED)!r}, {{"onprem.electricity_per_kwh": [0.1, 0.2, 0.3]}}, processes=2, solver="highs")
        sweep({str(WORKED)!r}, {{"onprem.electricity_per_kwh": [0.1, 0.2]}}, processes=1)
        sys.stderr.write("done\\n")
    """))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == b"" and result.stderr.decode().endswith("done\n")
