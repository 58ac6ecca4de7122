"""Findings of a review of the dashboard: the Prices page showed an unreadable price store as a raw
exception naming the server's folders, a failure of the decision values could name them too, and the
scenario's cards with no sourced price were missing from the Prices page without a word.

Oracles: the store's folder, made by the test under its own temporary path (it must appear nowhere), the
file name the test gave it (it may), and the catalog's own CSV (which cards have no sourced price)."""

from __future__ import annotations

import csv
import pickle
import sqlite3
from concurrent.futures import Future
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from fleetplan_dashboard.jobs import Decisions
from planner.errors import PriceSourceError
from planner.scenario import load_scenario_text
from pricing_adapters import store as store_module
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text()
ON_STORE = ENTRY.replace("source: snapshot", "source: store", 1)
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"


@pytest.fixture
def store(tmp_path, monkeypatch) -> Path:
    """The server's price store (`FLEETPLAN_STORE`), in a folder only this test knows, with one snapshot."""
    path = tmp_path / "srv-private" / "fleetplan" / "team-prices.sqlite"
    path.parent.mkdir(parents=True)
    monkeypatch.setenv("FLEETPLAN_STORE", str(path))
    snapshot = load_snapshot()
    PriceStore(path).save("aws", ["us-east-1"], "a test", snapshot[snapshot["region"] == "us-east-1"])
    return path


def shown(at: AppTest) -> list[str]:
    """The page's texts as a viewer reads them: without the backslash escapes of tables.plain."""
    return [e.value.replace("\\", "") for kind in (at.warning, at.info, at.error, at.markdown, at.caption) for e in kind]


def uploaded(text: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", text.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:")
    return at


# --- 6. the Prices page on an unreadable store ------------------------------------------------------

def test_the_prices_page_says_the_store_cannot_be_read_without_its_folder(store, monkeypatch):
    def unreadable(self, providers=None, up_to=None):   # the disk fails between opening the store and reading its rows
        raise store_module._read_error(self.path, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(PriceStore, "offers_in_force", unreadable)
    at = uploaded(ON_STORE)
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value.replace("\\", "") for e in at.error]   # as a reader sees them (tables.message_block escapes)
    assert any("cannot be read" in e and "…/team-prices.sqlite" in e and "disk I/O error" in e for e in errors), errors
    assert not [text for text in shown(at) if str(store.parent.parent) in text]
    assert not at.dataframe                     # no table of prices that were not read


# --- 7. a failure of the decision values ------------------------------------------------------------

@pytest.mark.parametrize("how", ["raised", "returned"])
def test_a_decisions_failure_names_the_store_by_its_file_name_only(store, how):
    s = load_scenario_text(ON_STORE, origin="mine.yaml")
    text = f"the price store {store}: disk I/O error"
    future = Future()
    if how == "raised":       # the worker (or the page's own run) raised
        future.set_exception(PriceSourceError(text))
    else:                     # jobs.decisions_job caught a PlannerError and returned its text
        future.set_result(pickle.dumps(Decisions(error=text)))
    state._remember(state._key("decisions", s, state.DEFAULT_SOLVER), future)
    made = state.decisions_of(s)
    assert made is not None and str(store.parent.parent) not in made.error
    assert "…/team-prices.sqlite: disk I/O error" in made.error


# --- 2. the scenario's cards with no sourced price on the Prices page -------------------------------

def test_the_prices_page_names_the_scenarios_cards_that_have_no_sourced_price():
    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(newline="") as f:
        price = {row["card_id"]: row["price"] for row in csv.DictReader(f)}
    assert price["l40s"] == price["rtx-a6000"] == price["rtx-a5000"] == ""   # unpriced in the catalog
    text = ENTRY.replace("cards: [rtx-3060-12gb, rtx-4060-ti-16gb]",
                         "cards: [rtx-3060-12gb, l40s, rtx-a6000]\n  card_overrides: {rtx-a6000: {price: 4000}}", 1)
    assert text != ENTRY
    at = uploaded(text)
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    said = [w.value.replace("\\", "") for w in at.warning if "no sourced price" in w.value]   # as read (tables.plain)
    # l40s is listed and unpriced; rtx-a6000's override prices it; rtx-a5000 is not the scenario's
    assert len(said) == 1 and "l40s" in said[0], [w.value for w in at.warning]
    assert "rtx-a6000" not in said[0] and "rtx-a5000" not in said[0]
