"""Start-up stays light (issue 11): `fleetplan --help`, `fleetplan <command> --help`, `validate` and `schema`
import none of the heavy libraries (pandas, numpy, the solvers, the cloud SDKs, the dashboard, the exports);
the commands that need them import them. Help imports no rich either (it is click's plain text; rich comes
with the first table, or message in colour, a command prints). Each case runs in a fresh interpreter, so modules other tests
imported do not count, and the CLI's app runs in it exactly as the `fleetplan` script runs it."""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from planner import catalog, load_scenario, plan
from planner.catalog.offers import site_card_rows
from planner.engine.inputs import _unpriced_cards
from pricing_adapters.snapshot import load_snapshot

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

# top-level packages that take a noticeable time to import and that no light command needs
HEAVY = ("pandas", "numpy", "pyarrow", "pulp", "highspy", "scipy", "boto3", "botocore", "azure", "httpx",
         "openpyxl", "streamlit", "plotly", "dask")
COMMANDS = ("validate", "schema", "offers", "inventory", "plan", "compare", "sweep", "dashboard")
PRICES_COMMANDS = ("refresh", "list", "show", "diff")

# Runs each argv of argv[1] (a JSON list) through the CLI's app in this one process, as the `fleetplan` script
# does, and appends one JSON line per run to the file argv[3]: the exit code and the heavy packages loaded.
CHILD = """
import json, sys
from planner.cli import app
heavy = set(json.loads(sys.argv[2]))
for args in json.loads(sys.argv[1]):
    try:
        app(args, prog_name="fleetplan")
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    sys.stdout.flush()
    loaded = sorted({name.partition(".")[0] for name in sys.modules} & heavy)
    with open(sys.argv[3], "a", encoding="utf-8") as report:
        report.write(json.dumps({"args": args, "code": code, "heavy": loaded, "rich": "rich" in sys.modules}) + "\\n")
"""


def run_cli(*runs: list[str]) -> tuple[list[dict], str, str]:
    """(one report per run, stdout, stderr) of the CLI's runs, in order, in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.jsonl"
        child = subprocess.run([sys.executable, "-c", CHILD, json.dumps(list(runs)), json.dumps(HEAVY), str(report)],
                               cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert child.returncode == 0, child.stderr
        reports = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert len(reports) == len(runs), child.stderr
    return reports, child.stdout, child.stderr


def test_help_lists_every_command_and_imports_nothing_heavy():
    [report], out, _ = run_cli(["--help"])
    assert report == {"args": ["--help"], "code": 0, "heavy": [], "rich": False}
    for command in (*COMMANDS, "prices"):
        assert command in out


def test_every_command_help_imports_nothing_heavy():
    runs = [[c, "--help"] for c in (*COMMANDS, "prices")] + [["prices", c, "--help"] for c in PRICES_COMMANDS]
    reports, out, _ = run_cli(*runs)
    assert [(r["args"], r["code"], r["heavy"], r["rich"]) for r in reports] == [(args, 0, [], False) for args in runs]
    assert out.count("Usage: fleetplan") == len(runs)


def test_validate_of_the_example_scenarios_imports_nothing_heavy_and_warns_as_the_full_price_table_does():
    files = [str(p.relative_to(ROOT)) for p in SCENARIOS]
    [report], _, err = run_cli(["validate", *files])
    assert report["code"] == 0 and report["heavy"] == []
    # on this piped stderr its messages are plain text, so no rich either; with colour asked for they are
    # rich's (test_a_json_plan_warns_in_the_same_words_with_rich_only_for_colour: "rich" is no blind spot)
    assert not report["rich"]
    assert [line.split(":")[0] for line in err.splitlines() if line.startswith("ok ")] == [f"ok {f}" for f in files]
    # the warnings come from the snapshot read with the csv module; the same scenarios checked against the
    # whole offers table (pandas, as `plan` reads it) must give the same lines; and the cards with no sourced
    # price (read with the csv module too) must be warned of as plan finds them, from the catalog's table, each at
    # its item of the file's one-line `  cards: [...]` list (placed warnings come before those of the prices)
    table, _ = catalog.price_table("snapshot")
    scenarios = {f: load_scenario(ROOT / f) for f in files}
    expected = [line for f, s in scenarios.items() for line in [
        *(f"warning: {f}:{_card_item_at(ROOT / f, card)}: onprem.cards[{list(s.onprem.cards).index(card)}]: {warning}"
          for warning in _unpriced_cards(site_card_rows(s), s.name)[1] for card in [warning.split()[1]]),
        # an option with no price at its item of the file's one-line `  purchase_options: [...]` list
        *(f"warning: {f}:{_item_at(ROOT / f, 'purchase_options', option)}: prices.purchase_options"
          f"[{list(s.prices.purchase_options).index(option)}]: {warning}"
          for warning in catalog.option_gaps(s, table) for option in [warning.split(":")[0]])]]
    assert [line for line in err.splitlines() if line.startswith("warning:")] == expected
    assert len(expected) >= 1   # industrial.yaml allows reserved and savings-plan options
    assert any("card h100-pcie has no sourced price" in line for line in expected)   # industrial.yaml lists it


def _card_item_at(path: Path, card: str) -> str:
    """"LINE:COL" of `card` in the scenario file's `  cards: [...]` line (1-based, as editors count)."""
    return _item_at(path, "cards", card)


def _item_at(path: Path, key: str, item: str) -> str:
    """"LINE:COL" of `item` in the scenario file's `  KEY: [...]` line (1-based, as editors count)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(f"  {key}: [") and (found := re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", line)):
            return f"{number}:{found.start() + 1}"
    raise AssertionError(f"{item} is in no {key} list of {path}")


def test_validate_of_a_bad_file_reports_it_with_did_you_mean_and_imports_nothing_heavy(tmp_path):
    text = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("rtx-a5000, rtx-4090", "rtx-a500, rtx-4090").replace("tensorflow==2.12", "tensorflw==2.12")
                   .replace("reference_gpu: RTX-A5000", "reference_gpu: RTX-A500"), encoding="utf-8")
    [report], _, err = run_cli(["validate", str(bad)])
    assert report["code"] == 2 and report["heavy"] == []
    assert "unknown card 'rtx-a500'; did you mean 'rtx-a5000'?" in err
    assert "unknown GPU 'RTX-A500'; did you mean 'RTX-A5000'?" in err
    assert "unknown framework 'tensorflw'; did you mean 'tensorflow'?" in err
    assert "Traceback" not in err


def test_schema_writes_the_json_schema_and_imports_nothing_heavy():
    [report], out, _ = run_cli(["schema"])
    assert report["code"] == 0 and report["heavy"] == []
    schema = json.loads(out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"workloads", "prices", "onprem"} <= set(schema["properties"])


def test_a_command_that_prints_a_table_still_imports_pandas():
    # the check above would pass vacuously if the child could not see pandas at all
    [report], out, _ = run_cli(["offers", "--gpu", "A100-80GB", "--provider", "onprem", "--format", "csv"])
    assert report["code"] == 0 and "pandas" in report["heavy"]
    assert any(line.startswith("onprem,onprem,a100-80gb-pcie,purchase,A100-80GB-PCIE,") for line in out.splitlines())


def test_snapshot_coverage_read_with_csv_matches_the_packaged_offers_table():
    offers = load_snapshot()
    coverage, provenance = catalog.price_coverage("snapshot")
    assert provenance["source"] == "snapshot" and provenance["warning"] is None
    assert sorted(zip(*coverage.values())) == sorted(set(zip(offers["provider"], offers["region"], offers["purchase_option"])))


def test_text_rows_and_tables_of_the_catalog_agree():
    assert list(catalog.card_rows()) == list(catalog.load_cards().index)
    assert list(catalog.gpu_rows()) == list(catalog.load_gpus().index)
    assert all(catalog.card_rows()[c]["currency"] == catalog.load_cards().loc[c, "currency"] for c in catalog.card_rows())


@pytest.mark.parametrize("module", ["planner", "planner.catalog", "planner.scenario", "planner.cli"])
def test_importing_the_light_layers_imports_nothing_heavy(module):
    code = f"import json, sys, {module}; print(json.dumps(sorted({{m.partition('.')[0] for m in sys.modules}})))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                       cwd=ROOT, timeout=120).stdout)
    assert sorted(set(loaded) & set(HEAVY)) == []


# `fleetplan` as installed ([project.scripts] -> planner.cli:main), run in a fresh interpreter. A `plan` ends
# with os._exit (no interpreter teardown): the report of whether pyarrow (installed in the test venv, with the
# dashboard extra) was imported is written on the way out, with the exit code, and whether importlib.metadata
# was (about 0.02 s: pydantic's plugin loader imports it, planner.process keeps that out, and the version
# the exports print is planner/_version.py's) or importlib.resources (2.5-3.5 ms; the packaged price files
# are found from pricing_adapters.PACKAGE_DIR), and which of the modules planner.engine and planner.reports
# import on first use it loaded (decision values; the workbook, FOCUS and Markdown writers)
MAIN = """
import json, os, sys
from planner.cli import main

def report(code, real_exit=os._exit):
    imported = "pyarrow" in sys.modules and sys.modules["pyarrow"] is not None
    on_use = sorted(m for m in ("planner.engine.decisions", "planner.reports.excel", "planner.reports.focus",
                                "planner.reports.markdown", "planner.reports.files") if m in sys.modules)
    print(json.dumps({"code": code, "pyarrow": imported, "teardown_skipped": True,
                      "importlib_metadata": "importlib.metadata" in sys.modules,
                      "importlib_resources": "importlib.resources" in sys.modules, "loaded_on_use": on_use}),
          file=sys.stderr, flush=True)
    real_exit(code)

os._exit = report
sys.argv = ["fleetplan", *json.loads(sys.argv[1])]
main()
"""


def test_the_installed_command_plans_without_pyarrow_to_the_same_total():
    import importlib.util

    import tomllib

    if importlib.util.find_spec("pyarrow") is None:
        pytest.skip("pyarrow is not installed here (a core install): nothing to keep out")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts["fleetplan"] == "planner.cli:main"
    done = subprocess.run([sys.executable, "-c", MAIN, json.dumps(["plan", "scenarios/startup-hybrid.yaml", "--format",
                                                                   "json", "--no-decisions", "--no-baselines"])],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report == {"code": 0, "pyarrow": False, "teardown_skipped": True, "importlib_metadata": False,
                      "importlib_resources": False, "loaded_on_use": []}
    assert done.returncode == 0
    # the library in this process (pandas with pyarrow-backed strings) finds the same plan
    from planner import plan

    assert json.loads(done.stdout)["total"] == pytest.approx(plan(ROOT / "scenarios" / "startup-hybrid.yaml",
                                                                  baselines=False).total, rel=1e-9)


@pytest.mark.parametrize(("fmt", "loaded"), [("md", ["planner.reports.markdown"]),
                                             ("focus", ["planner.reports.focus"])])
def test_a_plan_loads_the_writer_of_its_format_only(fmt, loaded):
    args = ["plan", "scenarios/startup-hybrid.yaml", "--format", fmt, "--no-decisions", "--no-baselines"]
    done = subprocess.run([sys.executable, "-c", MAIN, json.dumps(args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0 and report["loaded_on_use"] == loaded
    assert done.stdout.strip()   # the plan was written


@pytest.mark.parametrize("case", ["valid", "invalid", "schema"])
def test_one_shot_commands_end_without_teardown_with_their_output_and_exit_code(case, tmp_path):
    # validate, schema and the other one-shot commands end like `plan`: os._exit once their output is
    # flushed (the MAIN harness reports it; a normal exit would print no report), with the command's exit code
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nhorizon_months: -3\nworkloads: []\n", encoding="utf-8")
    args, code = {"valid": (["validate", "scenarios/startup-hybrid.yaml"], 0), "invalid": (["validate", str(bad)], 2),
                  "schema": (["schema"], 0)}[case]
    done = subprocess.run([sys.executable, "-c", MAIN, json.dumps(args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    lines = done.stderr.strip().splitlines()
    assert json.loads(lines[-1]) == {"code": code, "pyarrow": False, "teardown_skipped": True, "importlib_metadata": False,
                                     "importlib_resources": False, "loaded_on_use": []}
    assert done.returncode == code
    if case == "valid":
        assert lines[0].startswith("ok scenarios/startup-hybrid.yaml")
    elif case == "invalid":
        assert "horizon_months" in done.stderr
    else:   # the whole schema reached stdout before the process ended
        assert json.loads(done.stdout)["title"]


def test_the_app_called_in_process_leaves_pyarrow_importable():
    code = ("import sys; from planner.cli import app\n"
            "try: app(['--version'], prog_name='fleetplan')\nexcept SystemExit: pass\n"
            "import pyarrow; print('ok')")
    if subprocess.run([sys.executable, "-c", "import pyarrow"], capture_output=True).returncode:
        pytest.skip("pyarrow is not installed here (a core install)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().endswith("ok"), out.stderr


# numpy imported after planner.process.configure_process, as in the `fleetplan` process and the sweep's workers:
# the threads this process then runs (Linux lists them in /proc/self/task) and the OPENBLAS_NUM_THREADS in force
BLAS_CHILD = ("import os; from planner.process import configure_process; configure_process(); import numpy; "
              "print(len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS'))")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in Linux's /proc")
def test_a_planner_process_starts_no_blas_threads_unless_the_user_asks_for_them():
    import os

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}

    def run(**extra):
        out = subprocess.run([sys.executable, "-c", BLAS_CHILD], cwd=ROOT, env={**env, **extra}, capture_output=True,
                             text=True, timeout=120, check=True).stdout.split()
        return int(out[0]), out[1]

    assert run() == (1, "1")                                  # numpy's OpenBLAS started no worker thread
    # the user's setting wins: a worker beside the main thread (OpenBLAS starts no more threads than cores)
    assert run(OPENBLAS_NUM_THREADS="2") == (min(2, os.cpu_count() or 1), "2")


# a scenario validated after configure_process, as in the `fleetplan` process: did pydantic look for plugins
# (its entry-point search imports importlib.metadata's distribution scan and fills its plugin cache)? Was
# importlib.metadata imported at all (the real plugin loader imports it before it reads the variable)?
PLUGINS_CHILD = ("import os, sys; from planner.process import configure_process; configure_process()\n"
                 "from planner.scenario import load_scenario_file; load_scenario_file('scenarios/industrial.yaml')\n"
                 "metadata = 'importlib.metadata' in sys.modules\n"
                 "from pydantic.plugin import _loader; print(_loader._plugins is not None, "
                 "os.environ.get('PYDANTIC_DISABLE_PLUGINS'), metadata)")


def test_a_planner_process_skips_pydantics_plugin_search_unless_the_user_sets_it():
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}

    def run(**extra):
        return subprocess.run([sys.executable, "-c", PLUGINS_CHILD], cwd=ROOT, env={**env, **extra}, capture_output=True,
                              text=True, timeout=120, check=True).stdout.split()

    assert run() == ["False", "__all__", "False"]             # no search made, importlib.metadata not imported
    assert run(PYDANTIC_DISABLE_PLUGINS="true") == ["False", "true", "False"]   # the user's "all off" alike
    # the user's setting wins: the real loader searched, skipping the plugin named
    assert run(PYDANTIC_DISABLE_PLUGINS="none-of-mine") == ["True", "none-of-mine", "True"]


# the stand-in for pydantic's plugin loader (planner.process) answers get_plugins itself and hands any other
# name to the real module, which then takes its place: a later pydantic that asks the loader for more still works
STAND_IN_CHILD = ("import sys; from planner.process import configure_process; configure_process()\n"
                  "loader = sys.modules['pydantic.plugin._loader']; print(list(loader.get_plugins()), loader.__file__ "
                  "if hasattr(loader, '__file__') else None)\n"
                  "print(loader.PYDANTIC_ENTRY_POINT_GROUP, sys.modules['pydantic.plugin._loader'].__file__.endswith("
                  "'_loader.py'), 'importlib.metadata' in sys.modules)")
# plugins turned on again after start-up: the stand-in reads the variable at each call, as pydantic's loader does
STAND_IN_LATER = ("import os, sys; from planner.process import configure_process; configure_process()\n"
                  "loader = sys.modules['pydantic.plugin._loader']; os.environ['PYDANTIC_DISABLE_PLUGINS'] = 'some-plugin'\n"
                  "print(list(loader.get_plugins()), sys.modules['pydantic.plugin._loader'] is loader, "
                  "sys.modules['pydantic.plugin._loader']._plugins is not None)")


def test_the_plugin_loader_stand_in_hands_other_names_to_the_real_module():
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", STAND_IN_CHILD], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split("\n")
    assert out[0] == "[] None"                                # the stand-in: no plugins, no file of its own
    assert out[1] == "pydantic True True"                     # the real module's constant, the real module now
    later = subprocess.run([sys.executable, "-c", STAND_IN_LATER], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120, check=True).stdout.split()
    assert later == ["[]", "False", "True"]                   # the real loader searched (and found no plugin here)


@pytest.mark.parametrize("force_color", [None, "1"])
def test_a_json_plan_warns_in_the_same_words_with_rich_only_for_colour(monkeypatch, force_color):
    # stderr is a pipe here: unless FORCE_COLOR asks for colour, the warnings are written without rich, which
    # the process then never imports; with it, rich writes them in yellow. Either way, the words are the plan's.
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    if force_color is None:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    else:
        monkeypatch.setenv("FORCE_COLOR", force_color)
    args = ["plan", "scenarios/startup-hybrid.yaml", "--format", "json", "--no-decisions", "--no-baselines"]
    [report], out, err = run_cli(args)
    assert report["code"] == 0 and report["rich"] == (force_color is not None)
    assert json.loads(out)["status"] == "optimal"
    expected = plan(load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml"), baselines=False).warnings
    assert len(expected) >= 2   # the unpriced rtx-a5000, the estimated speeds
    shown = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in err.splitlines()]
    assert [line for line in shown if line.startswith("warning:")] == [f"warning: {w}" for w in expected]
    assert ("\x1b[" in err) == (force_color is not None)
