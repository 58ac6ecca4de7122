"""`fleetplan plan` on a terminal shows a long solve's progress on stderr, one line rewritten in place and
cleared at the end (planner.cli.console.solve_progress_line); nowhere else. A plan that allows every
catalog card solved for minutes with nothing on the screen.

The line shows after PROGRESS_AFTER_S of a solve; the process here sets it to 0, so that industrial.yaml's
0.2 s solve shows it. Its stderr is a pseudo-terminal, its stdout a file."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
INDUSTRIAL = ROOT / "scenarios" / "industrial.yaml"
PROGRESS = "solving the plan: "


def test_a_terminal_sees_the_solve_and_the_line_is_cleared(tmp_path):
    code = ("import sys; import planner.cli.console as console; console.PROGRESS_AFTER_S = 0; "
            "from planner.cli import main; "
            f"sys.argv = ['fleetplan', 'plan', {str(INDUSTRIAL)!r}, '--format', 'json', '--no-decisions']; main()")
    master, slave = pty.openpty()
    with open(tmp_path / "plan.json", "wb") as stdout:
        process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=stdout, stderr=slave,
                                   env={**{k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")},
                                        "TERM": "xterm", "AWS_EC2_METADATA_DISABLED": "true"})
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:   # the other end closed: the process ended
                break
            if not chunk:
                break
            seen += chunk
        assert process.wait(timeout=300) == 0, seen.decode(errors="replace")[-2000:]
    os.close(master)
    terminal = seen.decode(errors="replace")
    assert PROGRESS in terminal and "(Ctrl-C stops)" in terminal
    last = terminal.rindex(PROGRESS)
    assert "\r\x1b[K" in terminal[last:]   # cleared after its last showing
    plan = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))
    assert plan["status"] == "optimal" and PROGRESS not in json.dumps(plan)   # stdout has no progress


def test_no_terminal_no_progress_line(monkeypatch):
    monkeypatch.setattr("planner.cli.console.PROGRESS_AFTER_S", 0)
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):   # as rich decides: none says stderr is a terminal
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(app, ["plan", str(INDUSTRIAL), "--format", "json", "--no-decisions", "--no-baselines"])
    assert result.exit_code == 0, result.output
    assert PROGRESS not in result.output and "\x1b[K" not in result.output
