"""The notice of edits dropped when another scenario was opened (state.open_instead) goes once the user has moved on:
at their next own edit of the scenario opened, or a reset of it (state.moved_on). It stayed on screen until yet
another scenario was opened (an audit), above a scenario edited since. While it is shown, its button still leads back.

Oracles: the edits made here by hand, and entry.yaml's horizon read from the file."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
HORIZON, PUE = "edit:horizon_months", "edit:pue"


def _dropped_notes(at: AppTest) -> list[str]:
    return [i.value for i in at.info if "dropped" in i.value]


def _back_buttons(at: AppTest) -> list:
    return [b for b in at.button if b.key == "back_to_dropped"]


def _switched_over_an_edit() -> AppTest:
    """The app with startup-hybrid.yaml's horizon edited to 40 months, then entry.yaml opened in its place."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.slider(key=HORIZON).set_value(40).run()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(_dropped_notes(at)) == 1 and len(_back_buttons(at)) == 1
    return at


def test_an_edit_of_the_scenario_opened_ends_the_notice_and_its_button():
    at = _switched_over_an_edit()
    entry_horizon = yaml.safe_load(ENTRY.read_text())["horizon_months"]
    at.slider(key=HORIZON).set_value(entry_horizon + 1).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value == "file:entry.yaml" and at.slider(key=HORIZON).value == entry_horizon + 1
    assert not _dropped_notes(at) and not _back_buttons(at)
    # and it stays gone on the runs after (another edit, a run of the page with no change)
    at.slider(key=PUE).set_value(1.5).run()
    at.run()
    assert not _dropped_notes(at) and not _back_buttons(at)


def test_a_reset_of_the_scenario_opened_ends_the_notice():
    at = _switched_over_an_edit()
    (reset,) = [b for b in at.button if b.label == "Reset to the file's values"]
    reset.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not _dropped_notes(at) and not _back_buttons(at)


def test_the_notice_stays_over_runs_without_an_edit_and_its_button_leads_back():
    at = _switched_over_an_edit()
    at.run()   # a run of the page with nothing changed (the browser's own reruns) keeps it
    assert len(_dropped_notes(at)) == 1
    _back_buttons(at)[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml" and at.slider(key=HORIZON).value == 40
    # entry.yaml had no edits when left: no notice of it
    assert not _dropped_notes(at) and not _back_buttons(at)
