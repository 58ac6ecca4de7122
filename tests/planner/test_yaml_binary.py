"""`!!binary` in a scenario (a review, 2026-12-05): PyYAML's safe loader reads it as bytes, which pydantic takes for
the text they decode to, so a file path written in base64 got past every check made on text — `validate` said ok
to a profile that was a FIFO (and `plan` hung reading it) or a file that did not exist. It is refused at its line,
in a file, a `--vary` value and the library alike."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from cli_run import run

from planner import load_scenario
from planner.errors import ScenarioError

MESSAGE = "!!binary data: a scenario holds text, numbers, lists and mappings; write the value as plain text"
ROOT = Path(__file__).resolve().parents[2]


def _scenario(tmp_path: Path, profile: Path) -> Path:
    path = tmp_path / "binary.yaml"
    encoded = base64.b64encode(str(profile).encode()).decode()
    path.write_text("name: binary\nhorizon_months: 12\nworkloads:\n  - name: a\n    gpu_hours_per_month: 100\n"
                    f"    reference_gpu: RTX-4090\n    profile: !!binary {encoded}\n", encoding="utf-8")
    return path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_binary_path_to_a_fifo_is_refused_by_validate_and_plan(tmp_path):
    fifo = tmp_path / "weights.csv"
    os.mkfifo(fifo)   # reading it would wait forever for a writer
    path = _scenario(tmp_path, fifo)
    for command in (["validate", path], ["plan", path, "--no-decisions", "--no-baselines"]):
        result = run(*command)
        assert result.exit_code == 2, result.output
        assert f"{path}:7:14: {MESSAGE}" in result.stderr and "Traceback" not in result.output


def test_a_binary_value_is_refused_in_the_library_and_in_vary(tmp_path):
    path = _scenario(tmp_path, tmp_path / "nope.csv")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.problems == [f"{path}:7:14: {MESSAGE}"]
    encoded = base64.b64encode(str(tmp_path / "nope.csv").encode()).decode()
    result = run("sweep", ROOT / "scenarios" / "entry.yaml", "--vary", f"workloads.0.profile=!!binary {encoded}")
    assert result.exit_code == 2 and MESSAGE in result.stderr, result.output
