"""A price store damaged by hand but still a valid SQLite file: a table or column dropped, snapshots
edited to claim another provider or a future date, offer rows deleted. Plans, `prices show`, `list` and
`diff` say what is wrong in one line, or skip and name what is bad, never a traceback.

The store holds, like the reviewer's: #1 azure eastus (the packaged eastus offers at 2 × their price),
#2 azure eastus (at 3 ×) and #3 azure eastus2 (at their packaged price). Expected prices are the packaged
snapshot's own, times those factors.
"""

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pandas as pd
import pytest
import respx
from typer.testing import CliRunner

from planner.catalog import price_table
from planner.cli import app
from pricing_adapters import azure
from pricing_adapters.errors import StoreError
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

runner = CliRunner()
NC24 = "azure:eastus:Standard_NC24ads_A100_v4:on_demand"   # 3.673 USD/h in the packaged snapshot


def packaged(region: str) -> pd.DataFrame:
    offers = load_snapshot(["azure"])
    return offers[offers["region"] == region].reset_index(drop=True)


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "s.sqlite"
    s = PriceStore(path)
    for factor in (2, 3):
        s.save("azure", ["eastus"], "test", packaged("eastus").assign(hourly_price=lambda d, f=factor: d["hourly_price"] * f))
    s.save("azure", ["eastus2"], "test", packaged("eastus2"))
    return path


def edit(path, *statements):
    con = sqlite3.connect(path)
    for sql in statements:
        con.execute(sql)
    con.commit()
    con.close()


def eastus_prices(offers: pd.DataFrame) -> pd.Series:
    rows = offers[(offers["provider"] == "azure") & (offers["region"] == "eastus")]
    return rows.set_index("offer_id")["hourly_price"].sort_index()


def expected_eastus(factor: float) -> pd.Series:
    return (packaged("eastus").set_index("offer_id")["hourly_price"] * factor).sort_index()


def scenario(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("""name: damaged store
currency: USD
horizon_months: 1
discount_rate: 0.0
prices: {source: store, providers: [azure], regions: [eastus], purchase_options: [on_demand]}
onprem: {electricity_per_kwh: 0.12, pue: 1.4, availability: 0.97, cards: []}
workloads:
  - {name: ft, gpu_hours_per_month: 730, reference_gpu: A100-80GB-PCIE, min_gpu_memory_gb: 80, profile: flat,
     throughput: {A100-80GB-PCIE: 1.0}}
""")
    return path


def plan_json(tmp_path, store):
    return runner.invoke(app, ["plan", str(scenario(tmp_path)), "--store", str(store), "--format", "json",
                               "--no-baselines", "--no-decisions"])


def priced_at(doc: dict, hourly: pd.Series) -> float:
    """What the plan's cloud hours cost at `hourly` (offer id → USD/h): each fleet row's instance-hours times
    its price, worked out here from the offers, not taken from the plan."""
    by_sku = {oid.split(":")[2]: price for oid, price in hourly.items() if oid.endswith(":on_demand")}
    assert doc["fleet"] and all(f["provider"] == "azure" and f["region"] == "eastus" for f in doc["fleet"])
    return sum(f["instance_hours"] * by_sku[f["sku"]] for f in doc["fleet"])


# ------------------------------------------------------------------ a table or a column dropped

@pytest.mark.parametrize("sql, said", [
    ("DROP TABLE offers", "no table offers"),
    ("DROP TABLE snapshots", "no table snapshots"),
    ("ALTER TABLE offers DROP COLUMN hourly_price", "table offers has no column hourly_price"),
    ("ALTER TABLE snapshots DROP COLUMN row_count", "table snapshots has no column row_count"),
])
def test_a_dropped_table_or_needed_column_is_a_damaged_store(tmp_path, store, sql, said):
    edit(store, sql)
    before = store.read_bytes()
    for command in (["prices", "show"], ["prices", "list"], ["prices", "diff", "1", "2"]):
        result = runner.invoke(app, [*command, "--store", str(store)])
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.strip() == (f"error: --store: {store} is a damaged price store ({said}); it was left as "
                                         "it is: `fleetplan prices refresh` moves it aside and starts a new store")
    assert store.read_bytes() == before   # readers leave it as it is
    # a plan reads it as they do: it set the store aside and planned on the packaged prices, exit 0 (a warning), and
    # the next plan, finding no store, read them again: the scenario asks for the store's
    result = plan_json(tmp_path, store)
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert result.stderr.strip() == (f"error: {store} is a damaged price store ({said}); plans on prices.source: store "
                                     "read no other prices in its place: `fleetplan prices refresh` moves it aside and "
                                     "starts a new store, or set prices.source: snapshot")
    assert store.read_bytes() == before and list(tmp_path.glob("s.sqlite.bad-*")) == []


def test_validate_says_what_a_plan_would_of_a_damaged_store(tmp_path, store):
    # it said only "ok" (a review, 2026-12-05) while the plan it checks for planned on the packaged prices;
    # a check moves nothing. Now a plan fails on it, and validate fails as it does (an error of prices.source)
    edit(store, "DROP TABLE offers")
    before = store.read_bytes()
    result = runner.invoke(app, ["validate", str(scenario(tmp_path)), "--store", str(store)])
    assert result.exit_code == 2, result.output
    assert f"ok {scenario(tmp_path)}" not in result.stderr
    assert (f"prices.source: {store} is a damaged price store (no table offers); plans on "
            "prices.source: store read no other prices in its place: `fleetplan prices refresh` moves it aside and "
            "starts a new store, or set prices.source: snapshot") in " ".join(result.stderr.split())
    assert "were not checked" not in result.stderr
    assert store.read_bytes() == before and list(tmp_path.glob("s.sqlite.bad-*")) == []


def test_validate_says_a_file_that_is_no_store_is_not_used(tmp_path):
    other = tmp_path / "notes.sqlite"
    other.write_text("not a database\n")
    result = runner.invoke(app, ["validate", str(scenario(tmp_path)), "--store", str(other)])
    assert result.exit_code == 2, result.output
    said = " ".join(result.stderr.split())
    assert (f"error: {scenario(tmp_path)}:" in said
            and f"prices.source: {other} is not a fleetplan price store (file is not a database)" in said
            and "read no other prices in its place" in said and "were not checked" not in said)
    assert other.read_text() == "not a database\n"


def test_a_dropped_optional_column_reads_as_empty_and_is_named(tmp_path, store):
    edit(store, "ALTER TABLE offers DROP COLUMN note")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(3))   # #2 is in force
    assert (offers.loc[offers["region"] == "eastus", "note"] == "").all()
    assert f"{store}: table offers has no column note (dropped by hand?): read as empty" in provenance["warning"]
    shown = runner.invoke(app, ["prices", "show", "--store", str(store), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert [r["hourly_price"] for r in json.loads(shown.stdout) if r["offer_id"] == NC24] == [pytest.approx(3 * 3.673)]
    # the next refresh puts the column back
    PriceStore(store).save("azure", ["eastus"], "test", packaged("eastus"))
    assert "note" in {row[1] for row in sqlite3.connect(store).execute("PRAGMA table_info(offers)")}


# ------------------------------------------------------------------ snapshots and rows edited

def test_a_snapshot_edited_to_claim_another_provider_is_skipped_and_named(tmp_path, store):
    edit(store, "UPDATE snapshots SET provider = 'aws' WHERE id = 2")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(2))   # #1 stays in force
    assert [s["id"] for s in provenance["snapshots"]] == [1, 3]
    assert f"{store}: snapshot #2: 72 offer rows of another provider skipped" in provenance["warning"]
    assert "provider 'azure', not 'aws' as its snapshot" in provenance["warning"]
    assert "snapshot #2 has no usable aws offer in eastus, a region it claims; skipped there" in provenance["warning"]
    result = plan_json(tmp_path, store)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["total"] == pytest.approx(priced_at(doc, expected_eastus(2)))
    shown = runner.invoke(app, ["prices", "show", "--store", str(store)])
    assert shown.exit_code == 0 and "azure: store snapshot #1" in shown.stderr


def test_an_offer_id_in_two_snapshots_in_force_is_skipped_in_both_and_named(store):
    other = packaged("eastus2")["offer_id"].iloc[0]
    edit(store, f"UPDATE offers SET offer_id = '{other}' WHERE snapshot_id = 2 AND offer_id = '{NC24}'")
    offers, provenance = price_table("store", store)
    assert NC24 not in set(offers["offer_id"]) and other not in set(offers["offer_id"])
    assert f"1 offer ids found in two snapshots in force skipped: {other} (snapshots #2, #3)" in provenance["warning"]
    rest = expected_eastus(3).drop(NC24)
    pd.testing.assert_series_equal(eastus_prices(offers), rest)


def test_a_regions_list_edited_to_repeat_or_add_regions_is_read_once_and_named_in_one_line(store):
    # a review's store (2026-12-05): snapshot #2's regions list holding one name 100,000 times took `prices show`
    # 21 s, a pandas comparison for each; and each claimed region without an offer was a warning line of its own
    claimed = ["eastus"] * 100_000 + [f"nowhere{i}" for i in range(7)]
    edit(store, f"UPDATE snapshots SET regions = '{json.dumps(claimed)}' WHERE id = 2")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(3))   # #2 is still in force in eastus
    said = [line for line in provenance["warning"].split("; ") if "regions it claims" in line or "nowhere" in line]
    assert said == [f"{store}: snapshot #2 has no usable azure offer in nowhere0, nowhere1, nowhere2, nowhere3, "
                    "nowhere4 and 2 more, regions it claims"]


def test_a_snapshot_whose_offer_rows_were_deleted_is_skipped_and_named(tmp_path, store):
    edit(store, "DELETE FROM offers WHERE snapshot_id = 2")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(2))   # the snapshot before it
    assert [s["id"] for s in provenance["snapshots"]] == [1, 3]
    assert f"{store}: snapshot #2 (azure, eastus) has no offer rows (deleted by hand?); skipped" in provenance["warning"]
    listed = runner.invoke(app, ["prices", "list", "--store", str(store), "--format", "json"])
    assert [r["id"] for r in json.loads(listed.stdout)] == [1, 2, 3]
    diffed = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store)])
    assert diffed.exit_code == 2
    assert diffed.stderr.strip() == (f"error: snapshot #2 in {store} has no offer rows (deleted by hand?); plans skip "
                                     "it: refresh its regions again")
    result = plan_json(tmp_path, store)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["total"] == pytest.approx(priced_at(doc, expected_eastus(2)))


def test_a_snapshot_missing_some_of_its_rows_is_named_in_the_plan(tmp_path, store):
    # one row of #2 deleted by hand: the plan switched offers without a word (a hostile-input probe, 2026-12-05)
    edit(store, f"DELETE FROM offers WHERE snapshot_id = 2 AND offer_id = '{NC24}'")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(3).drop(NC24))   # the rows it holds
    recorded = len(packaged("eastus"))
    assert (f"{store}: snapshot #2 (azure, eastus) holds {recorded - 1:,} offer rows where it recorded {recorded:,} "
            "when saved (rows deleted or added by hand?); plans use the rows it holds: refresh its regions again for "
            "whole prices") in provenance["warning"]
    assert "snapshot #1" not in provenance["warning"] and "snapshot #3" not in provenance["warning"]   # whole
    result = plan_json(tmp_path, store)
    assert result.exit_code == 0, result.output
    assert f"holds {recorded - 1:,} offer rows where it recorded {recorded:,}" in " ".join(result.stderr.split())
    # and `prices diff`, which reads the snapshot itself
    diffed = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store)])
    assert diffed.exit_code == 0, diffed.output
    assert f"snapshot #2 (azure, eastus) holds {recorded - 1:,} offer rows" in " ".join(diffed.stderr.split())


def test_a_snapshot_with_no_good_row_leaves_the_one_before_in_force(store):
    edit(store, "UPDATE offers SET hourly_price = -5 WHERE snapshot_id = 2")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(2))
    assert "snapshot #2: 72 bad offer rows skipped" in provenance["warning"]
    assert "snapshot #2 has no usable azure offer in eastus, a region it claims; skipped there" in provenance["warning"]


# ------------------------------------------------------------------ clocks

def test_a_snapshot_dated_in_the_future_is_skipped_and_named(store):
    edit(store, "UPDATE snapshots SET fetched_at = '2099-01-01T00:00:00+00:00' WHERE id = 1")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(3))   # #2, the newest true refresh
    assert [s["id"] for s in provenance["snapshots"]] == [2, 3]
    assert (f"{store}: snapshot #1 skipped (fetched_at 2099-01-01T00:00:00+00:00 is in the future: the clock of the "
            "machine that saved it was wrong; refresh its regions again)") in provenance["warning"]
    listed = runner.invoke(app, ["prices", "list", "--store", str(store), "--format", "json"])
    rows = json.loads(listed.stdout)
    assert [r["id"] for r in rows] == [2, 3] and all(r["age_days"] >= 0 for r in rows)
    assert "snapshot #1 skipped (fetched_at 2099-01-01" in listed.stderr


def test_a_snapshot_a_little_ahead_of_this_clock_is_kept_and_never_shown_with_a_negative_age(tmp_path):
    s = PriceStore(tmp_path / "s.sqlite")
    ahead = s.save("azure", ["eastus"], "test", packaged("eastus"), fetched_at=datetime.now(timezone.utc) + timedelta(hours=1))
    (info,) = s.snapshots()
    assert info.id == ahead.id and info.age_days() == 0.0
    assert info.describe().endswith(", 0 days old)")
    _, provenance = price_table("store", tmp_path / "s.sqlite")
    assert [snap["age_days"] for snap in provenance["snapshots"]] == [0.0]


# ------------------------------------------------------------------ cells edited into nonsense: their row alone is skipped

def first_row(snapshot_id: int) -> str:
    return f"rowid = (SELECT min(rowid) FROM offers WHERE snapshot_id = {snapshot_id})"


def eastus2_ids(offers: pd.DataFrame) -> set:
    return set(offers.loc[(offers["provider"] == "azure") & (offers["region"] == "eastus2"), "offer_id"])


def test_a_lower_case_currency_in_a_region_the_plan_does_not_use_skips_that_row_only(tmp_path, store):
    # 'usd' broke the whole store: plans on eastus exited 2 over a row in eastus2
    (bad_id,) = sqlite3.connect(store).execute(f"SELECT offer_id FROM offers WHERE {first_row(3)}").fetchone()
    edit(store, f"UPDATE offers SET currency = 'usd' WHERE {first_row(3)}")
    offers, provenance = price_table("store", store)
    assert eastus2_ids(offers) == set(packaged("eastus2")["offer_id"]) - {bad_id}
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(3))
    assert (f"{store}: snapshot #3: 1 bad offer row skipped: row 1 (offer {bad_id}): currency not an ISO 4217 "
            "code of three capital letters") in provenance["warning"]
    result = plan_json(tmp_path, store)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["total"] == pytest.approx(priced_at(doc, expected_eastus(3)))
    shown = runner.invoke(app, ["prices", "show", "--store", str(store), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert bad_id not in {r["offer_id"] for r in json.loads(shown.stdout)}
    # snapshot #3 was saved from the packaged eastus2 offers as they are: against them, only the skipped row differs
    diffed = runner.invoke(app, ["prices", "diff", "3", "packaged", "--store", str(store), "--format", "json"])
    assert diffed.exit_code == 0, diffed.output
    assert [(r["change"], r["offer_id"]) for r in json.loads(diffed.stdout)] == [("added", bad_id)]
    assert "currency not an ISO 4217 code" in diffed.stderr


@pytest.mark.parametrize("value", ["CAST(X'ff41' AS TEXT)", "X'ff41'"], ids=["text not utf-8", "blob"])
@pytest.mark.parametrize("column", ["note", "sku"])
def test_a_cell_that_is_not_utf8_text_skips_its_row_only(tmp_path, store, column, value):
    # sqlite3 raised on the whole query ("Could not decode to UTF-8"), so no snapshot could be read
    edit(store, f"UPDATE offers SET {column} = {value} WHERE snapshot_id = 2 AND offer_id = '{NC24}'")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(3).drop(NC24))
    row = list(packaged("eastus")["offer_id"]).index(NC24) + 1   # rows are kept in the order they were saved
    assert (f"{store}: snapshot #2: 1 bad offer row skipped: row {row} (offer {NC24}): {column} is not UTF-8 text"
            in provenance["warning"])
    for command in (["prices", "show"], ["prices", "list"], ["prices", "diff", "1", "2"]):
        result = runner.invoke(app, [*command, "--store", str(store)])
        assert result.exit_code == 0 and "Traceback" not in result.output, (command, result.output)


def test_a_snapshot_whose_source_is_not_utf8_text_is_skipped_and_named(tmp_path, store):
    edit(store, "UPDATE snapshots SET source = CAST(X'ff41' AS TEXT) WHERE id = 2")
    offers, provenance = price_table("store", store)
    pd.testing.assert_series_equal(eastus_prices(offers), expected_eastus(2))   # #1 is in force again
    assert f"{store}: snapshot #2 skipped (source is not UTF-8 text)" in provenance["warning"]
    listed = runner.invoke(app, ["prices", "list", "--store", str(store), "--format", "json"])
    assert listed.exit_code == 0, listed.output
    assert [r["id"] for r in json.loads(listed.stdout)] == [1, 3]
    assert "snapshot #2 skipped (source is not UTF-8 text)" in listed.stderr


# ------------------------------------------------------------------ a refresh into a store with bad rows

RETAIL = "https://prices.azure.com/api/retail/prices"   # answered by respx: no request leaves the process
EASTUS2_PAGE = Path(__file__).resolve().parents[1] / "fixtures" / "azure" / "retail_eastus2_page1.json"


@pytest.fixture
def bad_rows(store, monkeypatch):
    """The store with a lower-case currency in #1 and a note that is not UTF-8 in #2 (NC24); Azure's
    Retail API and ARM unconfigured, so a refresh reads the default URL (mocked) and the packaged sizes."""
    monkeypatch.delenv(azure.PRICES_URL_ENV, raising=False)
    monkeypatch.delenv(azure.SUBSCRIPTION_ENV, raising=False)
    edit(store, f"UPDATE offers SET currency = 'usd' WHERE {first_row(1)}",
         f"UPDATE offers SET note = CAST(X'ff41' AS TEXT) WHERE snapshot_id = 2 AND offer_id = '{NC24}'")
    return store


def refresh_eastus2(store, answer: httpx.Response):
    """`prices refresh` of eastus2 answered with `answer`; the recorded page holds 3 offers where snapshot #3 holds
    the 74 packaged ones, so the missing ones are accepted."""
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=answer)
        return runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus2",
                                   "--store", str(store), "--accept-missing-offers"])


def test_a_refresh_into_a_store_with_bad_rows_saves_names_them_and_exits_0(bad_rows):
    # it printed "saved snapshot #4", then a traceback from the check of which snapshot is in force, exit 1
    result = refresh_eastus2(bad_rows, httpx.Response(200, content=EASTUS2_PAGE.read_bytes()))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "saved snapshot #4 (azure, eastus2, 3 offers" in result.stderr
    # #2 is in force in eastus, so #1 (and its bad row) is never read; #2's bad row is named
    assert f"snapshot #2: 1 bad offer row skipped: row 10 (offer {NC24}): note is not UTF-8 text" in result.stderr
    offers, provenance = price_table("store", bad_rows)
    assert [i for p, r, i in provenance["in_force"] if r == "eastus2"] == [4]
    mi300x = offers[offers["offer_id"] == "azure:eastus2:Standard_ND96isr_MI300X_v5:on_demand"]
    assert list(mi300x["hourly_price"]) == [48.0]   # the reference eastus2 price in the page served


def test_a_failed_refresh_into_a_store_with_bad_rows_says_what_plans_keep_and_changes_nothing(bad_rows):
    # it ended in a traceback from naming the fallback, instead of "the store is unchanged"
    before = bad_rows.read_bytes()
    result = refresh_eastus2(bad_rows, httpx.Response(400, text="Bad request"))
    assert result.exit_code == 1, result.output
    first, *rest = result.stderr.strip().splitlines()
    assert first.startswith("refresh failed: Azure Retail Prices API answered HTTP 400")
    assert first.endswith("The store is unchanged; plans keep using " + PriceStore(bad_rows).snapshot(3).describe()
                          + " for eastus2.")
    assert any("note is not UTF-8 text" in line for line in rest) and "Traceback" not in result.output
    assert bad_rows.read_bytes() == before


def test_a_store_that_cannot_be_read_after_the_save_is_a_warning_not_a_failure(store, monkeypatch):
    # the snapshot is saved whole; checking which snapshot is in force is a courtesy that may fail (a lock)
    monkeypatch.delenv(azure.PRICES_URL_ENV, raising=False)
    monkeypatch.delenv(azure.SUBSCRIPTION_ENV, raising=False)

    def locked(self, info):
        raise StoreError(f"cannot use {self.path}: database is locked")

    monkeypatch.setattr(PriceStore, "shadowed", locked)
    result = refresh_eastus2(store, httpx.Response(200, content=EASTUS2_PAGE.read_bytes()))
    assert result.exit_code == 0, result.output
    assert "saved snapshot #4" in result.stderr
    assert (f"warning: could not check which snapshots are in force in eastus2: cannot use {store}: database is "
            "locked") in " ".join(result.stderr.split())
    assert [s.id for s in PriceStore(store).snapshots()] == [1, 2, 3, 4]


def listed_refused(link):
    """`prices list --store LINK`, refused (exit 2)."""
    listed = runner.invoke(app, ["prices", "list", "--store", str(link)])
    assert listed.exit_code == 2 and "Traceback" not in listed.output
    return listed


def test_a_store_path_that_is_a_broken_link_says_so(tmp_path):
    # a review (2026-12-05): `prices list` said "no price store at …" and a refresh "unable to open database file"
    loop_a, loop_b, dangling = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "d.sqlite"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    dangling.symlink_to(tmp_path / "p.sqlite")
    said = {loop_a: f"{loop_a} is a symbolic link in a loop of links",
            dangling: f"{dangling} is a symbolic link to {tmp_path / 'p.sqlite'}, which does not exist"}
    for path, text in said.items():
        for create in (False, True):
            with pytest.raises(StoreError, match="give the path of a store file, or mend the link") as info:
                PriceStore(path, create=create)
            assert str(info.value).startswith(text)
        listed = runner.invoke(app, ["prices", "list", "--store", str(path)])
        assert listed.exit_code == 2 and text in " ".join(listed.stderr.split())
    # a loop's link points at a link of the loop: no store file can be put there (review, 2026-12-07: it said "or put
    # the store file at …/b.sqlite")
    assert " ".join(listed_refused(loop_a).stderr.split()) == (
        f"error: --store: {loop_a} is a symbolic link in a loop of links; give the path of a store file, or mend the "
        "link (it is in a loop of links: point it at the store file)")
    itself = tmp_path / "loop"
    itself.symlink_to("loop")   # `ln -s loop loop`
    assert " ".join(listed_refused(itself).stderr.split()) == (
        f"error: --store: {itself} is a symbolic link in a loop of links; give the path of a store file, or mend the "
        "link (it is in a loop of links: point it at the store file)")
    itself.unlink()
    # a link into a folder that does not exist (a disk not mounted) is a broken link too: it said only "folder …
    # does not exist", not a word of the link to mend (docs audit, 2026-12-06)
    into_nothing, target = tmp_path / "g.sqlite", tmp_path / "gone" / "p.sqlite"
    into_nothing.symlink_to(target)
    listed = runner.invoke(app, ["prices", "list", "--store", str(into_nothing)])
    assert listed.exit_code == 2
    assert " ".join(listed.stderr.split()) == (
        f"error: --store: {into_nothing} is a symbolic link to {target}, which does not exist; give the path of a store "
        f"file, or mend the link (point it at the store file, or put the store file at {target})")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sqlite", "b.sqlite", "d.sqlite", "g.sqlite"]   # nothing made


def test_a_store_whose_every_row_is_bad_is_not_called_empty(tmp_path, store):
    # a review (2026-12-05): "has no snapshot yet" beside "snapshot #1: 10 bad offer rows skipped"
    edit(store, "UPDATE offers SET as_of = 'yesterday'")
    offers, provenance = price_table("store", store)
    assert provenance["warning"].startswith(f"the price store {store} has no snapshot with a usable offer (run "
                                            "`fleetplan prices refresh` again); using the packaged snapshot")
    assert "bad offer rows skipped" in provenance["warning"]
    # every snapshot dated in the future, so none is read at all: it still has snapshots
    edit(store, "UPDATE snapshots SET fetched_at = '2099-01-01T00:00:00+00:00'")
    _, provenance = price_table("store", store)
    assert provenance["warning"].startswith(f"the price store {store} has no snapshot with a usable offer")
    assert "snapshot #1 skipped" in provenance["warning"]
    empty = tmp_path / "empty.sqlite"
    PriceStore(empty)   # made, with no snapshot
    _, provenance = price_table("store", empty)
    assert provenance["warning"].startswith(f"the price store {empty} has no snapshot yet")


def test_a_store_set_aside_by_another_process_while_it_is_looked_at_counts_as_missing(tmp_path, monkeypatch):
    # Twenty processes opening one damaged store (test_attacks): one found the file there, then another set it aside
    # before its stat, and it failed "cannot use …: No such file or directory" where a writer goes on to make a store
    import sys

    from pricing_adapters import store as store_module

    path = tmp_path / "prices.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    real_stat = Path.stat

    def stat(self, *args, **kwargs):
        if self == path and sys._getframe(1).f_code.co_name == "_inspect":   # its own stat, after exists()
            self.rename(tmp_path / "prices.sqlite.bad-by-another")
        return real_stat(self, *args, **kwargs)

    monkeypatch.setattr(Path, "stat", stat)
    assert store_module._inspect(path) == "missing"
