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
