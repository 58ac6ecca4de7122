"""CBC started by the planner dies with the planner (engine.solve: on Linux, through a launcher that sets
PR_SET_PDEATHSIG): a planner killed outright (SIGKILL, the OOM killer) leaves no CBC solving on as an orphan.

CBC here is a stand-in that writes its pid and sleeps; the planner runs in a fresh interpreter, killed while
it waits on the stand-in. The forked baselines' child has its own test (test_baseline_child.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"

# a planner solving the worked example with CBC, whose CBC is a stand-in: it writes its pid to argv[2]
# and sleeps for 300 s in its place
PLANNER_WITH_A_SLEEPING_CBC = """
import sys
from pathlib import Path
import pulp
from planner import load_scenario, plan

report = Path(sys.argv[2])
stand_in = report.with_name("cbc-stand-in")
stand_in.write_text(f"#!/bin/sh\\necho $$ > '{report}.part'\\nmv '{report}.part' '{report}'\\nexec sleep 300\\n")
stand_in.chmod(0o700)
pulp.PULP_CBC_CMD.pulp_cbc_path = str(stand_in)
plan(load_scenario(sys.argv[1]), solver="cbc", baselines=False)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_a_planner_killed_outright_leaves_no_cbc_solving(tmp_path, process_ended):
    if os.statvfs(tmp_path).f_flag & os.ST_NOEXEC:
        pytest.skip("the stand-in CBC is a script in the temporary folder, mounted noexec here")
    report = tmp_path / "cbc.pid"
    planner = subprocess.Popen([sys.executable, "-c", PLANNER_WITH_A_SLEEPING_CBC, str(WORKED), str(report)],
                               cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp_path)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    cbc = None
    try:
        deadline = time.monotonic() + 60
        while not report.exists() and time.monotonic() < deadline and planner.poll() is None:
            time.sleep(0.05)
        if not report.exists():   # (its error output read once it has ended: it may still wait on CBC)
            planner.kill()
            pytest.fail(planner.communicate(timeout=60)[1].decode()[-2000:])
        cbc = int(report.read_text())
        assert not process_ended(cbc, seconds=0)   # CBC (the stand-in) runs, the planner waits on it
        planner.kill()
        planner.wait(timeout=60)
        assert process_ended(cbc)
    finally:
        planner.kill()
        planner.wait(timeout=60)
        planner.stderr.close()
        if cbc is not None and not process_ended(cbc, seconds=0):
            os.kill(cbc, signal.SIGKILL)
