"""`fleetplan dashboard`: start the Streamlit dashboard of the installed package.

The planner never imports the dashboard (an import contract): this command finds the package's
`app.py` with `importlib.util.find_spec`, which locates a top-level package without running it, and
starts `python -m streamlit run` on that file (in place of this process on POSIX). Nothing here imports
streamlit, so the CLI works without the `dashboard` extra and says which extra to install when it is missing.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import typer

from planner.cli.console import fail
from planner.process import environment_for_programs

EXTRA_HINT = "pip install 'gpu-fleet-planner[dashboard]'"


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):   # a broken or half-removed installation counts as missing
        return False


def app_file() -> Path:
    """The dashboard's entry script, `fleetplan_dashboard/app.py`, wherever that package is installed."""
    spec = importlib.util.find_spec("fleetplan_dashboard")   # finds, does not import
    if spec is None or not spec.submodule_search_locations:
        fail(f"the fleetplan_dashboard package is not installed: {EXTRA_HINT}", 2)
    return Path(next(iter(spec.submodule_search_locations))) / "app.py"


def streamlit_command(host: str, port: int | None) -> list[str]:
    """The `streamlit run` command line of the dashboard (this interpreter's streamlit)."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(app_file()), "--server.address", host]
    if port is not None:
        cmd += ["--server.port", str(port)]
    # usage statistics off; uploads are scenario files of at most 1 MB (fleetplan_dashboard/state.py); an unexpected
    # error without its traceback and no developer menu; a new value rerun in the run's own thread, not a second one
    # beside it (as the repository's .streamlit/config.toml says, and why)
    return cmd + ["--browser.gatherUsageStats", "false", "--server.maxUploadSize", "1",
                  "--client.showErrorDetails", "type", "--client.toolbarMode", "viewer", "--runner.fastReruns", "false"]


def _run(cmd: list[str]) -> int:
    """Run `cmd` in place of this process where the system can (POSIX: the same process id, so a
    Ctrl-C, a `kill` or a service manager's stop reaches Streamlit itself and leaves no orphan server);
    elsewhere as a child whose exit status is returned."""
    env = environment_for_programs()   # without what planner.process set for the CLI's own process
    if os.name == "posix":
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(cmd[0], cmd, env)
    with subprocess.Popen(cmd, env=env) as proc:
        try:
            return proc.wait()
        except KeyboardInterrupt:   # Ctrl-C reached streamlit as well (same console): let it stop
            return proc.wait()


def dashboard(
    port: int | None = typer.Option(None, "--port", metavar="PORT", min=1, max=65535,
                                    help="port to listen on (default: Streamlit's, 8501 or the next free one)"),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS",
                             help="address to listen on; the dashboard has no login, so this machine only by default"),
) -> None:
    """Start the dashboard (Streamlit) in the browser: pages Plan, Prices, Compare, Export."""
    for module in ("streamlit", "plotly"):
        if not _installed(module):
            fail(f"{module} is not installed: {EXTRA_HINT}", 2)
    code = _run(streamlit_command(host, port))
    if code:
        raise typer.Exit(code)
