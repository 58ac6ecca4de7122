"""`fleetplan prices refresh | list | show | diff` and planning on the store, with a fake price source."""

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import pricing_adapters.refresh as refresh_module
from planner import load_scenario
from planner.cli import app
from planner.engine import plan
from pricing_adapters.errors import ThrottledError
from pricing_adapters.snapshot import load_snapshot

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


class FakeSource:
    """Returns the packaged AWS offers of the regions asked for, every purchase option as a live refresh does (a
    refresh without the packaged spot offers lacks most of them, and is refused; `on_demand_only` makes such a
    refresh), with one on-demand price changed, one instance type dropped, one added."""

    provider, source = "aws", "fake AWS"

    def __init__(self, g5_price=1.006, fail=False, drop="p2.xlarge", extra="g5.test", on_demand_only=False):
        self.g5_price, self.fail, self.skipped = g5_price, fail, {"products with empty terms": 2}
        self.drop, self.extra, self.on_demand_only = drop, extra, on_demand_only

    def fetch(self, regions, progress):
        progress("pages", 1, 2)
        if self.fail:
            raise ThrottledError("AWS Price List kept throttling after 4 attempts")
        df = load_snapshot(["aws"])
        df = df[df["region"].isin(regions)]
        if self.on_demand_only:
            df = df[df["purchase_option"] == "on_demand"]
        df = df.copy()
        g5 = (df["sku"] == "g5.xlarge") & (df["purchase_option"] == "on_demand")
        df.loc[g5, "hourly_price"] = self.g5_price
        g5_spot = (df["sku"] == "g5.xlarge") & (df["purchase_option"] == "spot")
        df.loc[g5_spot, "hourly_price"] = df.loc[g5_spot, "hourly_price"].clip(upper=self.g5_price)   # capped at on demand
        extra = df[g5].copy()
        df = df[df["sku"] != self.drop]
        extra["sku"] = self.extra
        extra["offer_id"] = extra["region"].map(lambda r: f"aws:{r}:{self.extra}:on_demand")
        extra["hourly_price"] = self.g5_price + 1.0
        progress("pages", 2, 2)
        return pd.concat([df, extra], ignore_index=True)


def use(monkeypatch, source):
    monkeypatch.setattr(refresh_module, "get_source", lambda provider, **kw: source)


def refresh(store, *extra):
    return runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", "us-east-1",
                               "--store", str(store), *extra])


def snapshot_ids(store):
    result = runner.invoke(app, ["prices", "list", "--store", str(store), "--format", "json"])
    return [row["id"] for row in json.loads(result.stdout)]


def test_refresh_saves_a_snapshot_and_says_what_was_skipped(tmp_path, monkeypatch):
    use(monkeypatch, FakeSource())
    result = refresh(tmp_path / "s.sqlite")
    assert result.exit_code == 0, result.output
    assert "saved snapshot #1 (aws, us-east-1" in result.stderr and "2 products with empty terms" in result.stderr
    assert snapshot_ids(tmp_path / "s.sqlite") == [1]


def test_failed_refresh_exits_1_and_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    refresh(store)
    use(monkeypatch, FakeSource(fail=True))
    result = refresh(store)
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert "refresh failed: AWS Price List kept throttling" in line and "The store is unchanged" in line
    assert "snapshot #1" in line  # the last good snapshot, named with its age
    assert snapshot_ids(store) == [1]


def test_diff_reports_added_removed_and_changed(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource(g5_price=1.006))
    refresh(store)
    use(monkeypatch, FakeSource(g5_price=1.2072))
    refresh(store)
    result = runner.invoke(app, ["prices", "diff", "packaged", "2", "--store", str(store), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {(r["change"], r["sku"], r["region"]) : r for r in json.loads(result.stdout)}
    assert ("added", "g5.test", "us-east-1") in rows
    assert ("removed", "p2.xlarge", "us-east-1") in rows
    # g5.xlarge: 1.006 → 1.2072 USD/h is +20 %
    assert rows[("changed", "g5.xlarge", "us-east-1")]["change_pct"] == pytest.approx(20.0)
    between = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store), "--format", "json"])
    assert [(r["change"], r["sku"]) for r in json.loads(between.stdout)] == [("changed", "g5.test"), ("changed", "g5.xlarge")]


def test_planning_on_the_store_uses_the_refreshed_prices(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    monkeypatch.setenv("FLEETPLAN_STORE", str(store))
    s = load_scenario(ROOT / "examples" / "worked-example.yaml")
    s = s.model_copy(update={"prices": s.prices.model_copy(update={"source": "store", "regions": ("us-east-1",)}),
                             "workloads": (s.workloads[0].model_copy(update={"throughput": {"RTX-A5000": 1.0, "A10G": 0.8},
                                                                             "throughput_metric": "fp32_tflops"}),)})
    before = plan(s, baselines=False)
    # the command to paste: the scenario's provider and region, no --store ($FLEETPLAN_STORE names it to the refresh too)
    assert before.prices["warning"] == (f"no price store at {store}: `fleetplan prices refresh --provider aws --region "
                                        "us-east-1` makes one; using the packaged snapshot")
    assert list(tmp_path.iterdir()) == []   # reading prices made no store and no lock file
    assert "g5.xlarge" not in set(before.fleet["sku"])  # at 1.006 USD/h other offers do the work cheaper
    use(monkeypatch, FakeSource(g5_price=0.10))   # a tenth of the packaged 1.006 USD/h
    assert refresh(store).exit_code == 0
    after = plan(s, baselines=False)
    (snap,) = after.prices["snapshots"]
    assert snap["id"] == 1 and snap["age_days"] < 1
    g5 = after.fleet[after.fleet["sku"] == "g5.xlarge"]
    assert len(g5) == 1
    # at 0.10 / 0.8 = 0.125 USD per A5000-hour the cloud beats owning (the card alone costs 84.40 USD a
    # month before any work: see the README); so all 800 / 0.8 = 1000 g5 hours a month are rented
    assert "rtx-a5000" not in set(after.fleet["sku"])
    assert g5["cost"].iloc[0] == pytest.approx(1000 * 24 * 0.10, rel=1e-6) == after.total


def test_show_names_the_snapshot_in_use(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    refresh(store)
    result = runner.invoke(app, ["prices", "show", "--gpu", "A10G", "--store", str(store), "--format", "json"])
    assert result.exit_code == 0
    assert "aws: store snapshot #1" in result.stderr and "azure: packaged snapshot" in result.stderr
    rows = json.loads(result.stdout)
    assert {r["gpu"] for r in rows} == {"A10G"} and any(r["sku"] == "g5.test" for r in rows)


def test_plan_takes_store_and_names_the_snapshot_with_its_age(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    refresh(store)
    scenario = tmp_path / "s.yaml"
    scenario.write_text((ROOT / "examples" / "worked-example.yaml").read_text()
                        .replace("source: offers-g5-us-east-1.csv", "source: store")
                        .replace("providers: [aws]", "providers: [aws]\n  regions: [us-east-1]"))
    result = runner.invoke(app, ["plan", str(scenario), "--store", str(store), "--format", "json", "--no-baselines"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["prices"]["source"] == "store" and doc["prices"]["snapshots"][0]["id"] == 1
    assert "aws store snapshot #1" in result.stderr and "days old" in result.stderr


def test_diff_between_two_stored_snapshots_reports_added_removed_and_changed(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource(drop="p2.xlarge", extra="g5.one"))
    refresh(store)
    use(monkeypatch, FakeSource(g5_price=0.503, drop="p3.2xlarge", extra="g5.two"))
    refresh(store)
    result = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store), "--format", "json"])
    changes = {(r["change"], r["sku"]) for r in json.loads(result.stdout)}
    # snapshot 2 lost p3.2xlarge and g5.one, gained p2.xlarge back and g5.two; g5.xlarge halved
    assert {("removed", "p3.2xlarge"), ("removed", "g5.one"), ("added", "p2.xlarge"), ("added", "g5.two"),
            ("changed", "g5.xlarge")} <= changes
    rows = {r["sku"]: r for r in json.loads(result.stdout) if r["change"] == "changed"}
    assert rows["g5.xlarge"]["change_pct"] == pytest.approx(-50.0)


def test_refreshing_one_region_keeps_the_others(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    monkeypatch.setenv("FLEETPLAN_STORE", str(store))
    use(monkeypatch, FakeSource(g5_price=0.5))
    refresh(store)                                              # us-east-1 at 0.5
    use(monkeypatch, FakeSource(g5_price=0.7))
    runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", "us-west-2", "--store", str(store)])
    from planner.catalog import price_table
    offers, provenance = price_table("store")
    g5 = offers[(offers["sku"] == "g5.xlarge") & (offers["purchase_option"] == "on_demand")].set_index("region")
    assert g5.loc["us-east-1", "hourly_price"] == 0.5 and g5.loc["us-west-2", "hourly_price"] == 0.7
    assert "eu-west-1" in g5.index      # never refreshed: the packaged price stays
    assert [s["id"] for s in provenance["snapshots"]] == [1, 2]


def test_a_region_without_offers_fails_the_refresh_and_saves_nothing(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    result = runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", "us-east-1",
                                 "--region", "us-east1", "--store", str(store)])
    assert result.exit_code == 1 and "no GPU offers returned for region us-east1" in result.stderr
    assert snapshot_ids(store) == []


def test_a_repeated_region_is_fetched_once(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    result = runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", "us-east-1",
                                 "--region", "us-east-1", "--store", str(store)])
    assert result.exit_code == 0 and "saved snapshot #1 (aws, us-east-1," in result.stderr


@pytest.mark.parametrize("args", [["prices", "list", "--format", "xml"],
                                  ["prices", "show", "--format", "xml"],
                                  ["prices", "diff", "1", "2", "--format", "xml"]])
def test_bad_format_exits_2_without_traceback(tmp_path, args):
    result = runner.invoke(app, [*args, "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_directory_as_store_is_refused_and_left_alone(tmp_path):
    result = runner.invoke(app, ["prices", "list", "--store", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.stderr
    assert tmp_path.is_dir() and not list(tmp_path.parent.glob(tmp_path.name + ".bad-*"))


PRICES_COMMANDS = [["prices", "list"], ["prices", "show"], ["prices", "diff", "1", "2"],
                   ["prices", "refresh", "--provider", "aws", "--region", "us-east-1"]]


@pytest.mark.parametrize("command", PRICES_COMMANDS, ids=lambda c: c[1])
def test_a_folder_as_store_is_refused_in_the_words_of_plan(tmp_path, monkeypatch, command):
    use(monkeypatch, FakeSource())   # a refresh let through never reaches the network
    # `prices` said "--store: /tmp is a directory; give the path of a store file", plan and validate
    # "--store /tmp: is a folder; give the price store file, e.g. /tmp/prices.sqlite"
    said = f"error: --store {tmp_path}: is a folder; give the price store file, e.g. {tmp_path}/prices.sqlite"
    for args in (command, ["validate", str(ROOT / "scenarios" / "entry.yaml")]):
        result = runner.invoke(app, [*args, "--store", str(tmp_path)])
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert said in " ".join(result.stderr.split()), result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", PRICES_COMMANDS, ids=lambda c: c[1])
def test_a_store_in_a_folder_that_does_not_exist_is_refused_and_no_folder_is_made(tmp_path, monkeypatch, command):
    use(monkeypatch, FakeSource())
    # a typo in the folder: `list` printed an empty table, `refresh` made the folder and a new store there
    store = tmp_path / "typo" / "s.sqlite"
    result = runner.invoke(app, [*command, "--store", str(store)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"error: --store {store}: folder {tmp_path}/typo does not exist" in " ".join(result.stderr.split())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", PRICES_COMMANDS, ids=lambda c: c[1])
def test_a_folder_as_the_store_variable_is_refused_and_named(tmp_path, monkeypatch, command):
    use(monkeypatch, FakeSource())
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path))
    result = runner.invoke(app, command)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert (f"error: FLEETPLAN_STORE={tmp_path}: is a folder; give the price store file, e.g. {tmp_path}/prices.sqlite"
            in " ".join(result.stderr.split()))


@pytest.mark.parametrize("provider, hint", [
    ("gcp", ""), ("azur", "; did you mean 'azure'?"),
    ("onprem", "; On-premises has no live prices (its cards: `fleetplan offers --provider onprem`)"),
])
@pytest.mark.parametrize("command", [["prices", "show"], ["prices", "refresh", "--region", "us-east-1"]],
                         ids=["show", "refresh"])
def test_a_provider_with_no_prices_in_the_store_is_refused_like_offers_refuses_it(tmp_path, command, provider, hint):
    # `prices show --provider gcp` printed "0 offers" with exit 0, while `offers --provider gcp` exits 2
    offers = runner.invoke(app, ["offers", "--provider", "gcp"])
    assert offers.exit_code == 2 and "--provider 'gcp': expected one of aws, azure, onprem" in offers.stderr
    result = runner.invoke(app, [*command, "--provider", provider, "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"error: --provider '{provider}': expected one of aws, azure{hint}" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_with_no_store_yet_list_is_empty_show_gives_the_packaged_prices_and_diff_has_no_snapshot(tmp_path):
    store = tmp_path / "s.sqlite"
    # the hint in the words plan and validate use (test_price_source_in_warnings.py), a command refresh takes: its
    # required --provider and --region as its help names them, and the store given
    note = (f"note: no price store at {store}: `fleetplan prices refresh --provider PROVIDER --region REGION --store "
            f"{store}` makes one")
    listed = runner.invoke(app, ["prices", "list", "--store", str(store), "--format", "json"])
    assert listed.exit_code == 0 and json.loads(listed.stdout) == [] and note in listed.stderr
    shown = runner.invoke(app, ["prices", "show", "--gpu", "A10G", "--store", str(store), "--format", "json"])
    assert shown.exit_code == 0 and note in shown.stderr and "packaged snapshot" in shown.stderr
    packaged = load_snapshot()
    assert {r["offer_id"] for r in json.loads(shown.stdout)} == set(packaged[packaged["gpu"] == "A10G"]["offer_id"])
    # said once, as the error (it had been the note, then an error in the same words)
    missing = (f"no price store at {store}: `fleetplan prices refresh --provider PROVIDER --region REGION --store "
               f"{store}` makes one")
    diffed = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store)])
    assert diffed.exit_code == 2 and diffed.stderr == f"error: no snapshot #1: {missing}\n"
    one_side = runner.invoke(app, ["prices", "diff", "packaged", "2", "--store", str(store)])
    assert one_side.exit_code == 2 and one_side.stderr == f"error: no snapshot #2: {missing}\n"
    pinned = runner.invoke(app, ["prices", "show", "--snapshot", "3", "--store", str(store)])
    assert pinned.exit_code == 2 and pinned.stderr == f"error: --snapshot: no snapshot #3: {missing}\n"
    assert list(tmp_path.iterdir()) == []


def test_json_stays_clean_with_highs():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "planner.cli", "plan", str(ROOT / "examples" / "worked-example.yaml"),
                           "--format", "json", "--solver", "highs", "--no-baselines"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == pytest.approx(8385.46, rel=1e-6)


def test_a_refresh_saved_with_a_clock_behind_says_the_later_snapshot_stays_in_force(tmp_path, monkeypatch):
    # snapshot #1 fetched (by its own time stamp) a minute ago; this machine's clock is a day behind, so
    # the refresh's snapshot #2 is dated earlier and #1 stays in force: the refresh says so, not silently
    from datetime import datetime, timedelta, timezone

    from pricing_adapters.store import PriceStore

    store = tmp_path / "s.sqlite"
    now = datetime.now(timezone.utc)
    offers = FakeSource(g5_price=0.5).fetch(["us-east-1"], lambda *a: None)
    first = PriceStore(store).save("aws", ["us-east-1"], "fake AWS", offers, fetched_at=now - timedelta(minutes=1))
    real_save = PriceStore.save
    monkeypatch.setattr(PriceStore, "save", lambda self, *a, **k: real_save(self, *a, fetched_at=now - timedelta(days=1)))
    use(monkeypatch, FakeSource(g5_price=0.7))
    result = refresh(store)
    assert result.exit_code == 0, result.output
    assert "saved snapshot #2 (aws, us-east-1" in result.stderr
    warning = " ".join(result.stderr.split())
    assert (f"snapshot #2 is not in force in us-east-1: snapshot #1 there was fetched at {first.fetched_at}, later "
            "than this one's") in warning and "plans keep using it" in warning
    monkeypatch.undo()
    assert {r: i.id for (_, r), i in PriceStore(store).in_force(["aws"]).items()} == {"us-east-1": 1}
    # a refresh with the clock right is in force at once and warns of nothing
    use(monkeypatch, FakeSource(g5_price=0.9))
    result = refresh(store)
    assert result.exit_code == 0 and "not in force" not in result.stderr
    assert PriceStore(store).shadowed(PriceStore(store).snapshot(3)) == {}


# --- a review of 2026-12-04: diff without a shared region, snapshot ids, a store path's markup, a FIFO --------

def two_regions_store(folder: Path) -> Path:
    """A store whose snapshot #1 covers aws us-east-1 and #2 aws us-west-2 (the packaged rows of each)."""
    from pricing_adapters.store import PriceStore

    folder.mkdir(parents=True, exist_ok=True)
    store = folder / "s.sqlite"
    offers = load_snapshot(["aws"])
    for region in ("us-east-1", "us-west-2"):
        PriceStore(store).save("aws", [region], "packaged rows", offers[offers["region"] == region])
    return store


def test_diff_of_snapshots_that_share_no_region_says_so_not_no_changes(tmp_path):
    store = two_regions_store(tmp_path)
    result = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store)])
    assert result.exit_code == 2, result.output
    assert ("snapshots 1 (aws: us-east-1) and 2 (aws: us-west-2) share no provider and region: nothing to compare"
            in " ".join(result.output.split()))
    assert "0 price changes" not in result.output


@pytest.mark.parametrize("ref", ["\u0661", "1_0", "+1", " 1", "-1", "x" * 5000])
def test_a_snapshot_id_is_ascii_digits(tmp_path, ref):
    store = two_regions_store(tmp_path)
    result = runner.invoke(app, ["prices", "diff", "--store", str(store), "--", ref, "1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "expected a snapshot id (digits 0-9, see `prices list`) or `packaged`" in " ".join(result.output.split())
    assert len(result.output) < 1000   # a 5,000-character id is quoted cut


@pytest.mark.parametrize("ref", ["9" * 19, "1" * 5000])
def test_digits_longer_than_any_snapshot_id_say_so(tmp_path, ref):
    # they are digits: "expected digits" read as nonsense for them
    store = two_regions_store(tmp_path)
    result = runner.invoke(app, ["prices", "diff", "--store", str(store), "--", ref, "1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    text = " ".join(result.output.split())
    assert "snapshot ids have at most 18 digits (see `prices list`)" in text and "expected a snapshot id" not in text
    assert text.startswith(("error: no snapshot #9999", "error: no snapshot #1111"))
    assert len(result.output) < 1000


@pytest.mark.parametrize("folder", ["[backup]", "[/x]", "[link=x]y"])
def test_a_store_path_holding_brackets_is_printed_as_written(tmp_path, folder):
    # the table's title is the store's path: "[backup]" vanished as a markup tag, "[/x]" raised MarkupError
    store = two_regions_store(tmp_path / folder)
    result = runner.invoke(app, ["prices", "list", "--store", str(store)])
    assert result.exit_code == 0, result.output
    assert "".join(str(store).split()) in "".join(result.stdout.split())   # a long title wraps


def test_a_store_path_that_is_a_fifo_is_refused_and_nothing_is_written_beside_it(tmp_path):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                 "--store", str(fifo)])
    assert result.exit_code == 2, result.output
    assert f"{fifo} is not a regular file (a pipe or a device)" in " ".join(result.output.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


def test_max_price_names_the_offers_it_leaves_out_for_an_unknown_gpu_count():
    # the packaged Azure snapshot has sizes whose GPU count no API gives (V710, RTX PRO 6000 BSE): no USD per
    # GPU-hour, so any --max-price dropped them without a word
    import csv
    import io

    listing = runner.invoke(app, ["offers", "--provider", "azure", "--region", "eastus", "--format", "csv"])
    assert listing.exit_code == 0, listing.output
    rows = list(csv.DictReader(io.StringIO(listing.stdout)))
    uncounted = [r for r in rows if r["usd_per_hour"] and not r["usd_per_gpu_hour"]]
    assert uncounted
    capped = runner.invoke(app, ["offers", "--provider", "azure", "--region", "eastus", "--max-price", "1000",
                                 "--format", "csv"])
    assert capped.exit_code == 0, capped.output
    assert len(list(csv.DictReader(io.StringIO(capped.stdout)))) == len(rows) - len(uncounted)
    assert (f"warning: {len(uncounted)} offers with an unknown gpu_count left out ("
            in " ".join(capped.stderr.split()))


# --- counts in words that agree with the number: "1 region", "2 regions", never "region(s)" -----------------

def test_diff_counts_the_regions_both_snapshots_cover_in_words(tmp_path):
    from pricing_adapters.store import PriceStore

    store = tmp_path / "s.sqlite"
    offers = load_snapshot(["aws"])
    two = offers[offers["region"].isin(["us-east-1", "us-west-2"])]
    PriceStore(store).save("aws", ["us-east-1"], "packaged rows", two[two["region"] == "us-east-1"])
    for _ in range(2):   # snapshots #2 and #3 cover both
        PriceStore(store).save("aws", ["us-east-1", "us-west-2"], "packaged rows", two)
    one = runner.invoke(app, ["prices", "diff", "1", "2", "--store", str(store)])
    assert one.exit_code == 0, one.output
    assert "0 price changes (1 → 2; 1 region both cover: aws:us-east-1)" in " ".join(one.stderr.split())
    both = runner.invoke(app, ["prices", "diff", "2", "3", "--store", str(store)])
    assert "(2 → 3; 2 regions both cover: aws:us-east-1, aws:us-west-2)" in " ".join(both.stderr.split())


def test_regions_without_offers_are_counted_in_words(tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    result = runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", "us-east1", "--region", "us-west9",
                                 "--store", str(store)])
    assert result.exit_code == 1
    assert ("no GPU offers returned for regions us-east1, us-west9 — check the region codes; nothing was saved"
            in " ".join(result.stderr.split()))
