"""A plan on `prices.source: store` whose store another process keeps locked fails, exit 2, naming the lock; it used
to warn "cannot use …: database is locked; using the packaged snapshot" and exit 0 with another total (hostile-input
audit: 14,158 USD instead of 22,038). A lock passes; the packaged prices in its place made the same inputs' total
depend on when the plan ran. A store that is not there still gives the packaged prices, with a warning.

The store is `azure_eastus_store` (tests/planner/conftest.py): Standard_NC24ads_A100_v4 on demand in eastus at
3.673 USD/h, so the scenario's 730 h cost 730 × 3.673 = 2,681.29 USD."""

import json
import subprocess
import sys
from contextlib import contextmanager

import pytest
from cli_run import run

from planner.catalog import prices
from planner.errors import PriceSourceError, PricesRefuteScenario, PriceStoreLocked
from pricing_adapters import store as store_module

WAIT_S = 0.2   # the store's BUSY_WAIT_S in these tests (5 s in use), so that each lock costs a fifth of a second

HOLD_LOCK = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()   # until the test closes it
"""


@contextmanager
def locked_by_another_process(path):
    """Another Python process holds an exclusive SQLite transaction on `path` for as long as the block runs."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


@pytest.fixture(autouse=True)
def short_wait(monkeypatch):
    monkeypatch.setattr(store_module, "BUSY_WAIT_S", WAIT_S)
    prices._read_prices.cache_clear()   # a store read earlier in this process is not read again while it is unchanged
    yield
    prices._read_prices.cache_clear()


def test_a_plan_on_a_locked_store_fails_naming_the_lock_then_plans_on_the_store_once_it_ends(azure_eastus_store,
                                                                                             store_a100_scenario):
    args = ("plan", store_a100_scenario, "--store", azure_eastus_store, "--format", "json", "--no-decisions")
    with locked_by_another_process(azure_eastus_store):
        result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (f"error: the price store {azure_eastus_store} is locked by another process "
                                     f"(a refresh?): still locked after 0.2 s; try again when it ends")
    assert result.stdout == "" and "packaged snapshot" not in result.output
    again = run(*args)
    assert again.exit_code == 0, again.output
    doc = json.loads(again.stdout)
    assert doc["total"] == pytest.approx(730 * 3.673) and doc["prices"]["source"] == "store"


def test_the_library_a_pinned_snapshot_and_validate_on_a_locked_store_raise_the_lock(azure_eastus_store):
    with locked_by_another_process(azure_eastus_store):
        with pytest.raises(PriceSourceError, match="is locked by another process") as plain:
            prices.price_table("store", azure_eastus_store)
        # the pinned snapshot 1 is in the store: "no snapshot #1" (a scenario error) would send the user astray
        with pytest.raises(PriceSourceError) as pinned:
            prices.price_table("store", azure_eastus_store, snapshot=1)
        # what `validate` reads: said once, not after a second wait for the lock by `price_table`
        with pytest.raises(PriceSourceError, match="is locked by another process") as coverage:
            prices.price_coverage("store", azure_eastus_store)
    for info in (plain, pinned, coverage):
        assert not isinstance(info.value, PricesRefuteScenario) and "no snapshot" not in str(info.value)
        assert isinstance(info.value, PriceStoreLocked)   # a class of its own: it passes (the dashboard plans again)
        assert str(info.value).endswith("still locked after 0.2 s; try again when it ends")


def test_a_plan_where_there_is_no_store_still_uses_the_packaged_prices_with_a_warning(tmp_path, store_a100_scenario):
    missing = tmp_path / "none.sqlite"
    result = run("plan", store_a100_scenario, "--store", missing, "--format", "json", "--no-decisions")
    assert result.exit_code == 0, result.output
    assert (f"no price store at {missing}: `fleetplan prices refresh --provider azure --region eastus --store "
            f"{missing}` makes one; using the packaged snapshot") in " ".join(result.stderr.split())
    assert json.loads(result.stdout)["prices"]["source"] == "snapshot" and not missing.exists()


def test_validate_on_a_locked_store_says_the_prices_were_not_checked(azure_eastus_store, store_a100_scenario):
    # it said "ok" alone, where plan would fail on the lock
    with locked_by_another_process(azure_eastus_store):
        result = run("validate", store_a100_scenario, "--store", azure_eastus_store)
    assert result.exit_code == 0, result.output
    assert (f"prices: the price store {azure_eastus_store} is locked by another process (a refresh?): still locked "
            "after 0.2 s; try again when it ends; the scenario's prices were not checked") in " ".join(result.stderr.split())
    assert run("validate", store_a100_scenario, "--store", azure_eastus_store).stderr.count("locked") == 0
