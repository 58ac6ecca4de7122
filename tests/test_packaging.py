"""The light core install: the planner, its CLI and the library work without any optional extra, and a
feature that needs one says in one line which extra to install.

The extras are hidden in a subprocess by a meta-path finder that refuses to import them, so these tests
hold in the full development environment as well as in a core-only one (`make test-min`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "startup-hybrid.yaml"

# top-level modules of the optional extras: [aws], [azure], [dashboard], [dask]
OPTIONAL_MODULES = ("boto3", "botocore", "azure", "streamlit", "plotly", "dask", "distributed")

# Runs `fleetplan ARGS` (or, with no ARGS, `from planner import plan`) with OPTIONAL_MODULES unimportable,
# as if they were not installed (ModuleNotFoundError, like a missing package).
PROGRAM = f"""
import sys

BLOCKED = {set(OPTIONAL_MODULES)!r}


class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
for name in list(sys.modules):
    if name.partition(".")[0] in BLOCKED:
        del sys.modules[name]
if len(sys.argv) > 1:
    from planner.cli import app

    app(sys.argv[1:], prog_name="fleetplan")
else:
    from planner import plan, load_scenario

    result = plan(load_scenario({str(SCENARIO)!r}))
    print(type(result).__name__)
"""


def without_extras(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb",
           "FLEETPLAN_STORE": str(cwd / "store.sqlite"), "AWS_EC2_METADATA_DISABLED": "true"}
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_plan_json_runs_without_any_extra(tmp_path):
    done = without_extras("plan", str(SCENARIO), "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)   # a whole JSON document on stdout
    assert "Traceback" not in done.stderr


def test_library_plan_runs_without_any_extra(tmp_path):
    done = without_extras(cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


@pytest.mark.parametrize("args", [
    ("validate", str(SCENARIO)),
    ("offers", "--gpu", "A100-80GB", "--format", "json"),
    ("prices", "list", "--format", "json"),
    ("prices", "show", "--format", "json"),
], ids=["validate", "offers", "prices-list", "prices-show"])
def test_core_commands_run_without_any_extra(tmp_path, args):
    done = without_extras(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "extra"), [
    (("prices", "refresh", "--provider", "aws", "--region", "us-east-1"), "aws"),
    (("prices", "refresh", "--provider", "azure", "--region", "eastus", "--subscription", "00000000-0000"), "azure"),
], ids=["aws", "azure-with-subscription"])
def test_refresh_without_its_extra_says_which_to_install_in_one_line(tmp_path, args, extra):
    done = without_extras(*args, "--store", str(tmp_path / "prices.sqlite"), cwd=tmp_path)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert f"is not installed: pip install 'gpu-fleet-planner[{extra}]'" in lines[0]
    assert "Traceback" not in done.stderr


def test_sweep_on_a_dask_cluster_without_the_dask_extra_says_which_to_install(tmp_path):
    done = without_extras("sweep", str(SCENARIO), "--vary", "onprem.electricity_per_kwh=0.1,0.2",
                          "--scheduler", "tcp://127.0.0.1:9", cwd=tmp_path)
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "pip install 'gpu-fleet-planner[dask]'" in lines[0]


def _name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9._-]+", requirement).group(0).lower().replace("_", "-")


def test_core_dependencies_include_no_optional_extra():
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {_name(r) for r in project["dependencies"]}
    assert not core & {"boto3", "botocore", "streamlit", "plotly", "dask", "distributed"}
    assert not {n for n in core if n.startswith("azure")}
    extras = {extra: {_name(r) for r in reqs} for extra, reqs in project["optional-dependencies"].items()}
    assert extras["aws"] == {"boto3"}
    assert extras["azure"] == {"azure-identity", "azure-mgmt-compute"}
    assert extras["dashboard"] == {"streamlit", "plotly"}
    assert extras["dask"] == {"dask"}
    assert project["optional-dependencies"]["all"] == ["gpu-fleet-planner[aws,azure,dashboard,dask]"]
