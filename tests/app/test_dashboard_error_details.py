"""An unexpected error showed a budget holder a raw Python traceback naming the server's files, and the
menu offered a developer's Deploy button: the shipped config (and `fleetplan dashboard`'s command line, for
an installed package, which has no config file) set Streamlit's options for both, while the planner's own
errors (PlannerError) are still said in full.

Oracles: Streamlit's documented option values (client.showErrorDetails: full, stacktrace, type, none;
client.toolbarMode: auto, developer, viewer, minimal) and a message written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner.cli.dashboard import streamlit_command
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
# "type": the exception's type and Streamlit's short note that details are in the server's log, no traceback
NO_TRACEBACK = {"client.showErrorDetails": "type", "client.toolbarMode": "viewer"}


def test_the_shipped_config_shows_no_traceback_and_no_developer_menu():
    tomllib = pytest.importorskip("tomllib")      # Python 3.11+
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert {f"client.{k}": v for k, v in config["client"].items()} == NO_TRACEBACK


def test_fleetplan_dashboard_passes_the_same_options():
    cmd = streamlit_command("127.0.0.1", None)
    options = dict(zip(cmd[5::2], cmd[6::2]))   # after: python -m streamlit run app.py
    assert {k: options[f"--{k}"] for k in NO_TRACEBACK} == NO_TRACEBACK


def test_a_planner_error_no_page_catches_is_said_in_full(monkeypatch):
    said = "prices.csv: line 3: usd_per_hour: expected a number, got 'n/a'"

    def unreadable(*args, **kwargs):
        raise PlannerError(said)

    monkeypatch.setattr(tables, "price_banner", unreadable)   # the Plan page calls it without a try
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value.replace("\\", "") for e in at.error] == [said]
