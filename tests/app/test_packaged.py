"""The dashboard as an installed package: the wheel built from this repository, installed into a
folder of its own, must run its dashboard from there — pages, example scenarios and their schema
included — and `fleetplan dashboard` must start Streamlit on that packaged app file.

Facts from outside the code: the wheel's file list and metadata (zip and RECORD), the folders of
the modules a fresh interpreter imports, the pages AppTest renders, and the command line a fake
`streamlit` module receives when the real `fleetplan` command starts it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from importlib.metadata import distribution, packages_distributions
from pathlib import Path

import pytest

from planner import load_scenario
from planner.engine import plan

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
OURS = {"planner", "pricing_adapters", "fleetplan_dashboard"}
SHIPPED = sorted(p.name for p in (ROOT / "scenarios").iterdir() if p.suffix in (".yaml", ".yml"))
TIMEOUT = 180
# pip without the package index: no dependencies fetched, no index consulted, no check for a newer pip (no test
# leaves 127.0.0.1)
OFFLINE = ("--no-deps", "--no-index", "--disable-pip-version-check")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH", "PYDANTIC_DISABLE_PLUGINS")}
    env.update(AWS_EC2_METADATA_DISABLED="true", **extra)
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the folder it is installed into with `pip install --target`)."""
    tmp = tmp_path_factory.mktemp("wheel")
    # Built from a copy of what the build reads (the links in fleetplan_dashboard/ kept as links): setuptools
    # builds in the source tree, whose build/lib may hold files since deleted, and other work shares it.
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in (*OURS, "scenarios", "schema"):
        shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    # Without build isolation, which would fetch setuptools from the package index (no test leaves 127.0.0.1): the
    # [test] extra installs the setuptools that [build-system] asks for into this venv.
    built = subprocess.run([str(BIN / "pip"), "wheel", *OFFLINE, "--no-build-isolation", "-q", "-w", str(tmp / "dist"),
                            str(src)],
                           capture_output=True, text=True, timeout=300, cwd=tmp)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp / "dist").glob("gpu_fleet_planner-*.whl")
    site = tmp / "site"
    done = subprocess.run([str(BIN / "pip"), "install", *OFFLINE, "-q", "--target", str(site), str(wheel)],
                          capture_output=True, text=True, timeout=300, cwd=tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    return wheel, site


def _run_installed(site: Path, code: str, *args: str, pythonpath: str | None = None) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter whose working directory is outside the repository and whose
    first import path is the installed copy (ahead of this venv's editable install)."""
    outside = site.parent / "elsewhere"
    outside.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], cwd=outside, capture_output=True,
                          text=True, timeout=TIMEOUT, env=_env(PYTHONPATH=pythonpath or str(site)))


# ---------------------------------------------------------------------------------------------------
# The wheel


def test_the_wheel_carries_the_dashboard_its_pages_scenarios_and_schema(installed):
    wheel, _ = installed
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        (info,) = {n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD")}
        top_level = set(zf.read(f"{info}/top_level.txt").decode().split())
        record = {line.split(",")[0] for line in zf.read(f"{info}/RECORD").decode().splitlines()}
    assert top_level == OURS
    assert {n.split("/")[0] for n in record if "/" in n and ".dist-info/" not in n} == OURS
    pages = sorted(p.name for p in (ROOT / "fleetplan_dashboard" / "pages").glob("*.py"))
    assert pages and {f"fleetplan_dashboard/pages/{p}" for p in pages} <= names
    assert "fleetplan_dashboard/app.py" in names
    assert "fleetplan_dashboard/icon.png" in names      # the tab icon app.py passes to Streamlit
    assert {f"fleetplan_dashboard/scenarios/{n}" for n in SHIPPED} <= names
    assert "fleetplan_dashboard/schema/scenario.schema.json" in names
    # the wheel holds copies of the repository's top-level files, byte for byte
    with zipfile.ZipFile(wheel) as zf:
        for n in SHIPPED:
            assert zf.read(f"fleetplan_dashboard/scenarios/{n}") == (ROOT / "scenarios" / n).read_bytes()
        assert zf.read("fleetplan_dashboard/schema/scenario.schema.json") == \
            (ROOT / "schema" / "scenario.schema.json").read_bytes()


def test_the_installed_scenarios_schema_comment_points_at_the_installed_schema(installed):
    _, site = installed
    folder = site / "fleetplan_dashboard" / "scenarios"
    for name in SHIPPED:
        first = (folder / name).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), first
        target = (folder / first.split("$schema=", 1)[1].strip()).resolve()
        assert target == (site / "fleetplan_dashboard" / "schema" / "scenario.schema.json").resolve()
        assert target.is_file()


def test_the_installed_dashboard_runs_from_site_packages(installed):
    """The packaged app file, opened with AppTest in an interpreter that imports the installed copy:
    the Plan page shows the engine's total of the default scenario and lists the shipped scenarios,
    and every page renders."""
    _, site = installed
    done = _run_installed(site, """
        import json, sys
        from pathlib import Path

        site = Path(sys.argv[1]).resolve()
        import fleetplan_dashboard, planner, pricing_adapters
        files = {m.__name__: str(Path(m.__file__).resolve()) for m in (fleetplan_dashboard, planner, pricing_adapters)}
        assert all(Path(f).is_relative_to(site) for f in files.values()), files

        from streamlit.testing.v1 import AppTest

        at = AppTest.from_file(str(site / "fleetplan_dashboard" / "app.py"), default_timeout=170).run()
        out = {"files": files, "exception": [str(e.value) for e in at.exception],
               "options": list(at.selectbox(key="base").options), "value": at.selectbox(key="base").value,
               "metrics": {m.label: m.value for m in at.metric}, "pages": {}}
        for page in ("pages/prices.py", "pages/compare.py", "pages/export.py"):
            at.switch_page(page).run()
            out["pages"][page] = [str(e.value) for e in at.exception]
        print(json.dumps(out))
    """, str(site))
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["exception"] == []
    assert out["options"] == SHIPPED                    # shown by file name
    assert out["value"] == "file:startup-hybrid.yaml"
    expected = plan(load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml"))
    totals = {k: v for k, v in out["metrics"].items() if k.startswith("Total cost")}
    assert list(totals.values()) == [f"{expected.total:,.0f} USD"], out["metrics"]
    assert out["pages"] == {p: [] for p in ("pages/prices.py", "pages/compare.py", "pages/export.py")}


def test_the_editable_install_reads_the_repositorys_scenarios_from_anywhere(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import json; from fleetplan_dashboard import state; "
                           "print(json.dumps([str(state.SCENARIO_DIR.resolve()), state.scenario_files()]))"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT, env=_env())
    assert done.returncode == 0, done.stderr
    folder, listed = json.loads(done.stdout)
    assert folder == str((ROOT / "scenarios").resolve())
    assert listed == SHIPPED


# ---------------------------------------------------------------------------------------------------
# Names: the installed `planner` is this distribution's


def test_this_distribution_declares_its_three_top_level_packages_and_no_one_else_claims_them():
    dist = distribution("gpu-fleet-planner")
    assert set((dist.read_text("top_level.txt") or "").split()) == OURS
    owners = packages_distributions()
    for name in OURS:
        assert set(owners.get(name, ())) == {"gpu-fleet-planner"}, (name, owners.get(name))
    assert "dashboard" not in owners      # the old name is gone: nothing of ours is called `dashboard`


# ---------------------------------------------------------------------------------------------------
# `fleetplan dashboard`

FAKE_STREAMLIT = """
import json, os, sys
with open(os.environ["FAKE_STREAMLIT_OUT"], "w") as f:
    json.dump(sys.argv[1:], f)
with open(os.environ["FAKE_STREAMLIT_OUT"] + ".env", "w") as f:
    json.dump({"PYDANTIC_DISABLE_PLUGINS": os.environ.get("PYDANTIC_DISABLE_PLUGINS")}, f)
sys.exit(3)
"""


@pytest.fixture()
def fake_streamlit(tmp_path) -> tuple[Path, Path]:
    """A `streamlit` package whose `python -m streamlit …` writes its arguments to a file and exits 3."""
    pkg = tmp_path / "fake" / "streamlit"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text(FAKE_STREAMLIT)
    return tmp_path / "fake", tmp_path / "argv.json"


def test_fleetplan_dashboard_help():
    done = subprocess.run([str(BIN / "fleetplan"), "dashboard", "--help"], capture_output=True, text=True,
                          timeout=60, env=_env(COLUMNS="200"))
    assert done.returncode == 0, done.stderr
    assert "--port" in done.stdout and "--host" in done.stdout


def test_fleetplan_dashboard_starts_streamlit_on_the_packaged_app(fake_streamlit, tmp_path):
    fake, argv_file = fake_streamlit
    done = subprocess.run([str(BIN / "fleetplan"), "dashboard", "--port", "8765"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60,
                          env=_env(PYTHONPATH=str(fake), FAKE_STREAMLIT_OUT=str(argv_file)))
    assert done.returncode == 3, done.stderr            # streamlit's exit status is the command's
    # the CLI's process skips pydantic's plugin search (planner.process); the dashboard it starts does not
    assert json.loads(Path(f"{argv_file}.env").read_text()) == {"PYDANTIC_DISABLE_PLUGINS": None}
    argv = json.loads(argv_file.read_text())
    assert argv[:2] == ["run", str(ROOT / "fleetplan_dashboard" / "app.py")]
    options = dict(zip(argv[2::2], argv[3::2]))
    assert options["--server.address"] == "127.0.0.1"
    assert options["--server.port"] == "8765"
    assert options["--browser.gatherUsageStats"] == "false"


def test_fleetplan_dashboard_host_is_passed_as_given(fake_streamlit, tmp_path):
    fake, argv_file = fake_streamlit
    done = subprocess.run([str(BIN / "fleetplan"), "dashboard", "--host", "0.0.0.0"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60,
                          env=_env(PYTHONPATH=str(fake), FAKE_STREAMLIT_OUT=str(argv_file)))
    assert done.returncode == 3, done.stderr
    options = dict(zip(json.loads(argv_file.read_text())[2::2], json.loads(argv_file.read_text())[3::2]))
    assert options["--server.address"] == "0.0.0.0"
    assert "--server.port" not in options                # Streamlit's own default port


@pytest.mark.skipif(os.name != "posix", reason="exec replaces the process on POSIX only")
def test_fleetplan_dashboard_becomes_the_streamlit_process(tmp_path):
    """Stopping `fleetplan dashboard` (a kill, a service manager) stops the server: Streamlit runs as the
    same process, not as a child that would outlive it."""
    pkg = tmp_path / "fake" / "streamlit"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "__main__.py").write_text("import os, sys\nprint(os.getpid(), flush=True)\nsys.stdin.read()\n")
    proc = subprocess.Popen([str(BIN / "fleetplan"), "dashboard"], cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=_env(PYTHONPATH=str(tmp_path / "fake")))
    try:
        assert int(proc.stdout.readline()) == proc.pid
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_installed_fleetplan_dashboard_runs_the_app_file_in_site_packages(installed, fake_streamlit):
    _, site = installed
    fake, argv_file = fake_streamlit
    done = subprocess.run([sys.executable, "-m", "planner.cli", "dashboard", "--port", "8765"], cwd=fake,
                          capture_output=True, text=True, timeout=60,
                          env=_env(PYTHONPATH=f"{site}{os.pathsep}{fake}", FAKE_STREAMLIT_OUT=str(argv_file)))
    assert done.returncode == 3, done.stderr
    app = Path(json.loads(argv_file.read_text())[1])
    assert app == site / "fleetplan_dashboard" / "app.py" and app.is_file()


def test_the_cli_imports_no_streamlit_and_says_which_extra_is_missing(tmp_path):
    """Without streamlit: one line naming the extra, exit 2; importing the CLI imports neither streamlit
    nor the dashboard package."""
    code = """
        import sys
        sys.modules["streamlit"] = None          # as if it were not installed: imports and find_spec fail
        import planner.cli
        assert "fleetplan_dashboard" not in sys.modules and sys.modules["streamlit"] is None
        sys.argv = ["fleetplan", "dashboard"]
        planner.cli.app()
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env=_env(COLUMNS="60"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == \
        ["error: streamlit is not installed: pip install 'gpu-fleet-planner[dashboard]'"]
