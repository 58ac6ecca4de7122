"""An uploaded scenario may plan on the server's price store (`prices.source: store`); what the dashboard
shows and offers for download then says whether the store is missing or empty, never where the server
keeps it.

Oracles: the store's folder, made by the test under its own temporary path (it must appear nowhere), and
the file name the test gave it (it may)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import exports, jobs, state, tables
from planner.catalog import price_table
from planner.scenario import load_scenario_text
from pricing_adapters.store import open_store

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text()
ON_STORE = ENTRY.replace("source: snapshot", "source: store", 1)


@pytest.fixture
def store(tmp_path, monkeypatch) -> Path:
    """Where the server's price store is (`FLEETPLAN_STORE`): a folder only this test knows."""
    path = tmp_path / "srv-private" / "fleetplan" / "team-prices.sqlite"
    path.parent.mkdir(parents=True)
    monkeypatch.setenv("FLEETPLAN_STORE", str(path))
    return path


def seen(outcome) -> str:
    """Everything of a plan a dashboard user sees or downloads about its prices: the banner (as read: its
    Markdown escapes removed, tables.plain) and the JSON."""
    _, banner = tables.price_banner(outcome.plan.prices)
    return as_read(banner) + "\n" + exports.plan_json(outcome.plan)


def as_read(markdown: str) -> str:
    """Text shown through tables.plain as a viewer reads it: without its backslash escapes."""
    return markdown.replace("\\", "")


def test_a_missing_store_is_named_by_its_file_name_only(store):
    outcome = jobs.recommended_job(load_scenario_text(ON_STORE, origin="mine.yaml"), state.DEFAULT_SOLVER)
    assert outcome.kind == "ok"
    text = seen(outcome)
    assert str(store.parent.parent) not in text
    assert "no price store at …/team-prices.sqlite" in text     # the user learns there is none
    assert json.loads(exports.plan_json(outcome.plan))["prices"]["source"] == "snapshot"   # what it fell back on


def test_an_empty_store_is_named_by_its_file_name_only(store):
    created, _ = open_store(store)          # a store with no snapshot yet
    assert created is not None
    outcome = jobs.recommended_job(load_scenario_text(ON_STORE, origin="mine.yaml"), state.DEFAULT_SOLVER)
    text = seen(outcome)
    assert str(store.parent.parent) not in text
    assert "…/team-prices.sqlite" in text and "no snapshot" in text


def test_the_prices_page_warning_hides_the_store_folder(store):
    _, provenance = price_table("store")
    assert str(store) in provenance["warning"]            # what the engine says, for the command line
    assert jobs.hide_store_path(provenance["warning"]).startswith("no price store at …/team-prices.sqlite")


def test_the_plan_page_of_an_upload_on_the_store_shows_no_server_path(store):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", ON_STORE.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:")
    shown = [as_read(e.value) for kind in (at.warning, at.info, at.error, at.markdown, at.caption) for e in kind]
    assert any("…/team-prices.sqlite" in text for text in shown)
    assert not [text for text in shown if str(store.parent.parent) in text]


def test_the_prices_page_of_an_upload_on_a_missing_store_names_the_packaged_snapshot_it_shows(store):
    # its caption said "Offers of the price store" above the warning that there is none
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", ON_STORE.encode(), "application/x-yaml")).run()
    at.switch_page("fleetplan_dashboard/pages/prices.py").run()
    assert not at.exception, [e.value for e in at.exception]
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Offers of the packaged price snapshot (scenario") for c in captions), captions
    assert not [c for c in captions if "Offers of the price store" in c]
    assert any(as_read(w.value).startswith("no price store at …/team-prices.sqlite") for w in at.warning)
