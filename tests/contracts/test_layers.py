"""The architecture as tests: import contracts (import-linter, configured in pyproject.toml) and ruff.

The contracts must hold on this tree, and must fail when a layer imports one above it: the second
test copies the packages, makes the engine import a front end, and expects the linter to say so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PACKAGES = ("planner", "pricing_adapters", "fleetplan_dashboard")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    # the packages are imported from `cwd` first: the copy, not the installed tree, is analysed
    return subprocess.run([str(BIN / "lint-imports"), "--config", str(cwd / "pyproject.toml")], cwd=cwd,
                          capture_output=True, text=True, env={"PYTHONPATH": str(cwd), "PATH": str(BIN)})


def test_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


def test_an_engine_importing_a_front_end_breaks_the_contracts(tmp_path):
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.csv"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    model = tmp_path / "planner" / "engine" / "model.py"
    model.write_text(model.read_text() + "\nfrom planner.reports import tables  # noqa: E402,F401\n")
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    assert "The planner is in layers: each imports only the layers below it BROKEN" in done.stdout
    assert "planner.engine.model -> planner.reports" in done.stdout


def test_ruff_finds_nothing():
    done = subprocess.run([str(BIN / "ruff"), "check", "--no-cache", str(ROOT)], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
