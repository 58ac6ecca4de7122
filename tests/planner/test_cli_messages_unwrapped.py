"""A message the CLI writes to a file or a pipe is one line, whatever the width: rich wrapped them at 80 columns
("… 433 constraints, 0.044" / "s", "… 1.52 s on 2" / "threads", compare's "(present" / "values)"), and rich's progress
bars printed a blank line at the top of a sweep's stderr. Run as the installed command is (a subprocess, stdout and
stderr pipes), at a narrow width and at the default one."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "startup-hybrid.yaml"


def fleetplan(*args, columns: str | None, cwd: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR")}
    env["PYTHONPATH"] = str(ROOT)
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    if columns is not None:
        env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-P", "-m", "planner.cli", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


# every line a command writes on stderr starts as one of its messages does; a wrapped message's tail does not
MESSAGE_STARTS = ("warning: ", "note: ", "error: ", "solver ", "decision values", "wrote ", "prices: ")


def assert_messages_whole(stderr: str) -> None:
    lines = stderr.splitlines()
    assert lines, stderr
    for line in lines:
        assert line.startswith(MESSAGE_STARTS), f"a line of no message (a wrapped one's tail?): {line!r}\n{stderr}"


@pytest.mark.parametrize("columns", ["40", None])
def test_plan_messages_are_one_line_each(tmp_path, columns):
    done = fleetplan("plan", SCENARIO, columns=columns, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_messages_whole(done.stderr)
    assert re.search(r"^solver highs: .* constraints, [0-9.]+ s$", done.stderr, re.M), done.stderr
    assert re.search(r"^decision values.*: \d+ solves, [0-9.]+ s on \d+ threads?$", done.stderr, re.M), done.stderr
    # the headline on stdout is one line too; the tables keep their frames
    head = done.stdout.splitlines()
    assert head[0].startswith("Start-up hybrid fleet — optimal, 36 months, total ") and "prices: snapshot" in head[0]
    # the scenario's fx rate first (as summary.md's row fx words it), then the hardware assumptions
    assert head[1].startswith("assumptions: 1 CNY = 0.13749 USD (fx); cards bought ") and head[1].endswith("switched off")
    frames = [line for line in head if line.startswith(("┏", "└"))]
    assert len(frames) >= 6 and all(len(f) > 40 for f in frames)


@pytest.mark.parametrize("columns", ["40", None])
def test_sweep_stderr_has_no_blank_line_and_no_wrap(tmp_path, columns):
    done = fleetplan("sweep", SCENARIO, "--vary", "onprem.electricity_per_kwh=0.1,0.2", columns=columns, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_messages_whole(done.stderr)


@pytest.mark.parametrize("columns", ["40", None])
def test_compare_notes_on_stdout_are_one_line(tmp_path, columns):
    shorter = tmp_path / "shorter.yaml"
    shorter.write_text(SCENARIO.read_text().replace("horizon_months: 36", "horizon_months: 24"))
    done = fleetplan("compare", shorter, SCENARIO, columns=columns, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    note = [line for line in done.stdout.splitlines() if line.startswith("not like for like:")]
    assert note == ["not like for like: a sums 24 months at 0%/year, b 36 months at 0%/year (present values)"], \
        done.stdout
    total = [line for line in done.stdout.splitlines() if line.startswith("total: ")]
    assert len(total) == 1 and total[0].endswith("%)"), done.stdout
