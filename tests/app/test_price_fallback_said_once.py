"""The Plan page says once where a plan's prices came from when not as asked: a scenario asking `prices.source: store`
with no store file is planned on the packaged snapshot, and the price banner's "Note:" says so (tables.price_banner);
plan() now also puts it first among the plan's warnings ("prices: …", engine.run.price_source_warnings), so the
page's warnings box said it a second time. It stays in the banner, always open above the box.

Facts by hand: the store the server names (FLEETPLAN_STORE) is team-prices.sqlite in a folder that holds no file; the
plan's other warning is entry.yaml's one spot price in use, which has no date."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state, tables

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text()
ON_STORE = ENTRY.replace("source: snapshot", "source: store", 1)
FALLBACK = "no price store at …/team-prices.sqlite"


@pytest.fixture()
def no_store(tmp_path, monkeypatch):
    """The server's price store names a file that does not exist; plans are made in the page's run (no worker
    processes, which would keep the environment they started with)."""
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path / "team-prices.sqlite"))
    monkeypatch.setattr(state, "WORKERS", False)
    state.clear_plan_cache()
    yield
    state.clear_plan_cache()


def _as_read(markdown: str) -> str:
    """Text shown through tables.plain as a viewer reads it: without its backslash escapes."""
    return markdown.replace("\\", "")


def test_the_fallback_to_the_packaged_snapshot_is_said_once_in_the_price_banner(no_store):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", ON_STORE.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:")
    shown = [_as_read(e.value) for kind in (at.warning, at.info, at.error, at.markdown, at.caption, at.code)
             for e in kind]
    said = [text for text in shown if FALLBACK in text]
    assert len(said) == 1 and said[0].count(FALLBACK) == 1, said
    # the banner: how old the prices are and what to do, then where they came from
    assert said[0].startswith("**1 price used has no date and may be old: check current prices before deciding.**\n\n"
                              "Prices: packaged price snapshot"), said[0]
    # the banner names the refresh's command once, where it says how newer prices reach a plan; its Note refers to it
    assert said[0].count("`fleetplan prices refresh`") == 1, said[0]
    assert said[0].endswith("newer ones need a price refresh, made on the command line (`fleetplan prices refresh`). "
                            "The price used with no date: azure Standard_NC4as_T4_v3 spot (eastus). "
                            f"Note: {FALLBACK}: the price refresh makes one; using the packaged snapshot."), said[0]
    # the warnings box keeps the plan's other warning
    [box] = [e.value for e in at.code]
    assert box.startswith("undated prices: 1 of 1 prices used have no date"), box
    assert [e.label for e in at.expander if "warning" in e.label] == [
        "1 warning: what this plan rests on that needs a look"]


UNDATED = {"prices": 1, "undated_prices": 1}   # one cloud price in use, without a date: the banner says how to refresh
FRESH = {"prices": 1, "as_of": "2026-12-01", "as_of_oldest": "2026-12-01"}   # 5 days old on 2026-12-06: it does not


@pytest.mark.parametrize(("warning", "noted"), [
    ("no price store at /srv/team-prices.sqlite: `fleetplan prices refresh` makes one; using the packaged snapshot",
     "no price store at /srv/team-prices.sqlite: the price refresh makes one; using the packaged snapshot"),
    ("the price store /srv/team-prices.sqlite has no snapshot yet (run `fleetplan prices refresh`); using the packaged "
     "snapshot", "the price store /srv/team-prices.sqlite has no snapshot yet (run the price refresh); using the "
     "packaged snapshot"),
    # as a plan names the refresh now: the commands to paste, one per provider of the scenario (catalog.prices.
    # refresh_said), said as the one refresh the banner named
    ("no price store at /srv/team-prices.sqlite: `fleetplan prices refresh --provider aws --region us-east-1 --store "
     "/srv/team-prices.sqlite` and `fleetplan prices refresh --provider azure --region eastus --store "
     "/srv/team-prices.sqlite` make one; using the packaged snapshot",
     "no price store at /srv/team-prices.sqlite: the price refresh makes one; using the packaged snapshot"),
    ("the price store /srv/team-prices.sqlite has no snapshot yet (run `fleetplan prices refresh --provider aws "
     "--region us-east-1`); using the packaged snapshot", "the price store /srv/team-prices.sqlite has no snapshot yet "
     "(run the price refresh); using the packaged snapshot"),
])
def test_the_banners_note_refers_to_the_refresh_the_banner_named(warning, noted):
    level, text = tables.price_banner({"source": "snapshot", "cloud_dates": UNDATED, "warning": warning},
                                      today=date(2026, 12, 6))
    assert level == "warning"
    assert _as_read(text).endswith("The Prices page shows each offer's date; newer ones need a price refresh, made on "
                                   "the command line (`fleetplan prices refresh`), and the scenario file's Price source "
                                   f"set to the price store. Note: {noted}."), text
    assert _as_read(text).count("fleetplan prices refresh") == 1


def test_the_banners_note_keeps_the_command_where_the_banner_names_none():
    # cloud prices 5 days old: no advice on newer ones, so the note alone says how a store is made; a full stop
    # ends the list of sources before it ("(5 days ago) Note: …" read as one sentence)
    warning = "no price store at /srv/team-prices.sqlite: `fleetplan prices refresh` makes one; using the packaged snapshot"
    _, text = tables.price_banner({"source": "snapshot", "cloud_dates": FRESH, "warning": warning},
                                  today=date(2026, 12, 6))
    assert _as_read(text) == ("**The prices are recent: the newest cloud price is 5 days old.**\n\n"
                              "Prices: packaged price snapshot · newest cloud price as of 2026-12-01 (5 days ago). "
                              f"Note: {warning}."), text
