"""The store audit of 2026-12-07: a refresh that fails changes nothing on disk (a damaged store stays where it was, no
new store or lock file is made), `prices list` of a store with no snapshot says how to fill it, and a pinned snapshot
whose row cannot be read is said to be there but unreadable, not missing.

Stores are built through the store's own API in tmp_path; the price sources are fakes (no network): one that fails as
a throttled API does, one that returns the packaged g5.xlarge on-demand offer of us-east-1 at 1.50 USD/h.
"""

import json
import sqlite3

import pandas as pd
import pytest

import pricing_adapters.refresh as refresh_module
from planner.catalog import price_table
from planner.errors import PricesRefuteScenario
from pricing_adapters.errors import ThrottledError
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore
from tests.planner.cli_run import run
from tests.planner.test_prices_pinned import SCENARIO

G5 = "aws:us-east-1:g5.xlarge:on_demand"


def g5_at(price: float) -> pd.DataFrame:
    offers = load_snapshot(["aws"])
    return offers[offers["offer_id"] == G5].assign(hourly_price=price).reset_index(drop=True)


class Source:
    provider, source, skipped = "aws", "fake AWS", {}

    def __init__(self, fail: bool):
        self.fail = fail

    def fetch(self, regions, progress):
        if self.fail:
            raise ThrottledError("AWS Price List kept throttling after 4 attempts")
        return g5_at(1.50)


def refresh(monkeypatch, store, fail: bool):
    monkeypatch.setattr(refresh_module, "get_source", lambda provider, **kw: Source(fail))
    # one offer, where the packaged snapshot holds many in us-east-1: its missing offers accepted
    return run("prices", "refresh", "--provider", "aws", "--region", "us-east-1", "--store", store,
               "--accept-missing-offers")


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def truncated(tmp_path):
    """A store of ours holding two snapshots, cut to its first 10,000 bytes (a copy cut short): damaged."""
    made = tmp_path / "made" / "prices.sqlite"
    made.parent.mkdir()
    for price in (1.00, 2.00):
        PriceStore(made).save("aws", ["us-east-1"], "test", g5_at(price))
    assert made.stat().st_size > 10_000
    path = tmp_path / "store" / "prices.sqlite"
    path.parent.mkdir()
    path.write_bytes(made.read_bytes()[:10_000])
    return path


def test_a_failed_refresh_leaves_a_damaged_store_where_it_was_and_says_so(monkeypatch, truncated):
    # it moved the damaged store aside and made an empty one before fetching, then said "The store is unchanged;
    # plans keep using the packaged snapshot", while a pinned plan found "it holds no snapshot yet"
    before = files(truncated.parent)
    result = refresh(monkeypatch, truncated, fail=True)
    assert result.exit_code == 1, result.output
    assert files(truncated.parent) == before   # no .bad-…, no new store, no lock file
    said = flat(result.stderr)
    assert "refresh failed: AWS Price List kept throttling after 4 attempts. The store is unchanged" in said
    assert f"{truncated} is still the damaged store" in said and "plans keep using the packaged snapshot" not in said
    # the next refresh that saves sets it aside whole and starts a new store
    result = refresh(monkeypatch, truncated, fail=False)
    assert result.exit_code == 0, result.output
    # its ids go on after the damaged store's 1 and 2, read from its first whole pages (ops audit: they began at 1 again)
    assert "moved aside to" in result.stderr and "saved snapshot #3 " in result.stderr
    (aside,) = truncated.parent.glob("prices.sqlite.bad-*")
    assert aside.read_bytes() == before["prices.sqlite"]
    assert [s.id for s in PriceStore(truncated, create=False).snapshots()] == [3]


def test_a_failed_refresh_into_a_new_path_makes_no_file(monkeypatch, tmp_path):
    # it left a 20 KB empty store and its .lock, saying "nothing was saved. The store is unchanged"
    path = tmp_path / "n.sqlite"
    result = refresh(monkeypatch, path, fail=True)
    assert result.exit_code == 1, result.output
    assert files(tmp_path) == {}
    assert "The store is unchanged; plans keep using the packaged snapshot for us-east-1" in flat(result.stderr)
    # a refresh that saves makes it
    assert refresh(monkeypatch, path, fail=False).exit_code == 0
    assert [s.id for s in PriceStore(path, create=False).snapshots()] == [1]


def test_prices_list_of_a_store_with_no_snapshot_says_how_to_fill_it(tmp_path):
    path = tmp_path / "empty.sqlite"
    PriceStore(path)   # made, nothing saved
    result = run("prices", "list", "--store", path)
    assert result.exit_code == 0, result.output
    assert (f"note: no snapshot in the price store {path} yet: `fleetplan prices refresh --provider PROVIDER "
            f"--region REGION --store {path}` saves one") in flat(result.stderr)


@pytest.mark.parametrize("column, value, reason", [
    ("regions", "not json", "regions 'not json' is not a JSON list"),
    ("fetched_at", "yesterday", "fetched_at 'yesterday' is not an ISO 8601 time"),
])
def test_a_pinned_snapshot_whose_row_cannot_be_read_is_said_to_be_there(tmp_path, column, value, reason):
    # plan, `prices show --snapshot 1` and `prices diff 1 2` said "no snapshot #1 in …; it holds snapshot 2"
    path = tmp_path / "prices.sqlite"
    for price in (1.00, 2.00):
        PriceStore(path).save("aws", ["us-east-1"], "test", g5_at(price))
    with sqlite3.connect(path) as con:
        con.execute(f"UPDATE snapshots SET {column} = ? WHERE id = 1", (value,))
    con.close()
    why = f"snapshot #1 is in {path} but cannot be read: {reason}; pin another or refresh"
    listed = run("prices", "list", "--store", path)
    assert f"snapshot #1 skipped ({reason})" in flat(listed.stderr)   # the reason `prices list` gives
    with pytest.raises(PricesRefuteScenario) as raised:
        price_table("store", path, 1)
    assert str(raised.value) == f"prices.snapshot: {why}"
    scenario = tmp_path / "pin.yaml"
    scenario.write_text(SCENARIO.format(pin="  snapshot: 1\n"), encoding="utf-8")
    planned = run("plan", scenario, "--store", path, "--no-baselines", "--no-decisions")
    assert planned.exit_code == 2 and why in flat(planned.stderr)
    shown = run("prices", "show", "--snapshot", "1", "--store", path)
    assert shown.exit_code == 2 and f"--snapshot: {why}" in flat(shown.stderr)
    diffed = run("prices", "diff", "1", "2", "--store", path)
    assert diffed.exit_code == 2 and why in flat(diffed.stderr)
    assert "no snapshot #1" not in planned.stderr + shown.stderr + diffed.stderr


def test_a_store_of_a_newer_schema_says_to_upgrade_fleetplan_or_use_another_store(monkeypatch, tmp_path):
    # it said "has store schema 99; this fleetplan reads 1" and no more
    path = tmp_path / "prices.sqlite"
    PriceStore(path)
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA user_version = 99")
    con.close()
    before = files(tmp_path)
    expected = (f"error: --store: {path} has store schema 99; this fleetplan reads 1; upgrade fleetplan to read it (a "
                f"newer fleetplan made it), or give another --store / $FLEETPLAN_STORE")
    for result in (refresh(monkeypatch, path, fail=False), run("prices", "list", "--store", path)):
        assert result.exit_code == 2 and flat(result.stderr) == expected, result.output
    assert files(tmp_path) == before


def us_east_1_on_demand() -> pd.DataFrame:
    offers = load_snapshot(["aws"])
    return offers[(offers["region"] == "us-east-1") & (offers["purchase_option"] == "on_demand")].reset_index(drop=True)


@pytest.fixture
def one_bad_row(tmp_path):
    """A store whose one snapshot holds the packaged AWS on-demand offers of us-east-1, the first with a negative
    price (a row plans skip); (its path, how many offers were saved)."""
    path = tmp_path / "prices.sqlite"
    saved = us_east_1_on_demand()
    assert len(saved) > 2
    PriceStore(path).save("aws", ["us-east-1"], "test", saved)
    with sqlite3.connect(path) as con:
        con.execute("UPDATE offers SET hourly_price = -1 WHERE rowid = (SELECT min(rowid) FROM offers)")
    con.close()
    return path, len(saved)


def test_prices_list_counts_the_offers_plans_use_and_names_the_bad_row(one_bad_row):
    # `prices list` said "offers N" of a snapshot with a row plans skip, with no warning
    path, saved = one_bad_row
    listed = run("prices", "list", "--store", path, "--format", "json")
    assert listed.exit_code == 0, listed.output
    assert [row["offers"] for row in json.loads(listed.stdout)] == [saved - 1]
    assert f"warning: {path}: snapshot #1: 1 bad offer row skipped: row 1" in flat(listed.stderr)


def test_prices_show_says_a_bad_row_as_a_warning(one_bad_row):
    # it said the skip under "note:"
    path, _ = one_bad_row
    shown = run("prices", "show", "--store", path, "--provider", "aws", "--format", "json")
    assert shown.exit_code == 0, shown.output
    said = flat(shown.stderr)
    assert f"warning: {path}: snapshot #1: 1 bad offer row skipped" in said
    assert "note: aws: packaged prices for regions never refreshed" in said   # the packaged prices filling in: a note
    assert f"never refreshed; {path}" not in said
