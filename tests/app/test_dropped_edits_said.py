"""Picking another scenario in the sidebar drops the edits of the one on screen (each scenario opens with its file's
values): an audit in a real browser found them gone without a word. The Plan page now says which scenario's edits were
dropped and how many, with a button back to it and its edits.

Oracles: startup-hybrid.yaml's own values (horizon 36 months, PUE 1.4), the edits made here by hand (two of them),
entry.yaml's horizon (24 months, read from the file), and the file's total planned with the edits by
`planner.engine.plan`, never the dashboard's output read back.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from planner import load_scenario
from planner.engine import plan

ROOT = Path(__file__).resolve().parents[2]
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
ENTRY = ROOT / "scenarios" / "entry.yaml"
HORIZON, PUE = "edit:horizon_months", "edit:pue"


def _said(at: AppTest) -> list[str]:
    return [i.value.replace("\\", "").replace("**", "") for i in at.info]


def _dropped_notes(at: AppTest) -> list[str]:
    return [s for s in _said(at) if "dropped" in s]


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_picking_another_scenario_says_the_edits_dropped_and_the_button_brings_them_back():
    at = _app()
    assert not _dropped_notes(at)
    at.slider(key=HORIZON).set_value(40).run()
    at.slider(key=PUE).set_value(1.5).run()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    assert _dropped_notes(at) == ["Your 2 edits of startup-hybrid.yaml were dropped when entry.yaml was opened: a "
                                  "scenario opens with its file's values."]
    entry_horizon = yaml.safe_load(ENTRY.read_text())["horizon_months"]
    assert at.slider(key=HORIZON).value == entry_horizon
    back = at.button(key="back_to_dropped")
    assert back.label == "Back to startup-hybrid.yaml with its 2 edits"
    back.click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml"
    assert at.slider(key=HORIZON).value == 40 and at.slider(key=PUE).value == 1.5
    hybrid = load_scenario(HYBRID)
    edited = hybrid.model_copy(update={"horizon_months": 40,
                                       "onprem": hybrid.onprem.model_copy(update={"pue": 1.5})})
    total = next(m.value for m in at.metric if m.label.startswith("Total cost"))
    assert total == f"{plan(edited, baselines=False).total:,.0f} USD"
    # entry.yaml had no edits: nothing is said of it
    assert not _dropped_notes(at)


def test_one_edit_is_said_as_one_and_a_pick_without_edits_says_nothing():
    at = _app()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    assert not _dropped_notes(at)
    at.slider(key=HORIZON).set_value(12).run()
    at.selectbox(key="base").set_value("file:industrial.yaml").run()
    assert _dropped_notes(at) == ["Your 1 edit of entry.yaml was dropped when industrial.yaml was opened: a scenario "
                                  "opens with its file's values."]
    # an edit made back to the file's value is no edit
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    horizon = at.slider(key=HORIZON).value
    at.slider(key=HORIZON).set_value(horizon + 1).run()
    at.slider(key=HORIZON).set_value(horizon).run()
    at.selectbox(key="base").set_value("file:mid-research.yaml").run()
    assert not _dropped_notes(at)


def test_a_run_of_widgets_at_their_defaults_drops_nothing_and_says_nothing():
    """The browser's loss of its widget values (state.undo_default_flood: the picker at its first option, entry.yaml,
    the sliders at their minimums, in one run) is taken back: no edit was dropped, so none is said to be."""
    at = _app()
    at.slider(key=HORIZON).set_value(40).run()
    at.selectbox(key="base").set_value("file:entry.yaml")
    at.slider(key=HORIZON).set_value(1)
    at.slider(key="edit:electricity_per_kwh").set_value(0.0)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml" and at.slider(key=HORIZON).value == 40
    assert not _dropped_notes(at)


def test_an_upload_opened_over_edits_says_them_dropped_too():
    at = _app()
    at.slider(key=HORIZON).set_value(40).run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", HYBRID.read_bytes(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:")
    assert _dropped_notes(at) == ["Your 1 edit of startup-hybrid.yaml was dropped when mine.yaml (uploaded) was "
                                  "opened: a scenario opens with its file's values."]
    at.button(key="back_to_dropped").click().run()
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml" and at.slider(key=HORIZON).value == 40
