"""`prices.snapshot: ID` pins the price store as it stood when snapshot ID was saved, so last quarter's plan can be
re-run on last quarter's prices; `fleetplan prices show --snapshot ID` shows (and exports) those prices.

The store is built through its own API: snapshot #1 holds the one AWS offer g5.xlarge on demand in us-east-1 at
1.00 USD/h, snapshot #2 the same offer at 2.00 USD/h. The scenario rents that offer alone (aws, us-east-1, on
demand; its workload runs on an A10G only) for 730 GPU-hours in one month, undiscounted: its total is 730 × the
hourly price, 730.00 USD on snapshot #1 and 1,460.00 USD on #2.
"""

import json
import re
import sqlite3
from datetime import date, datetime, timezone

import pandas as pd
import pytest

from planner import load_scenario
from planner.catalog import price_table
from planner.catalog.prices import price_coverage
from planner.engine import plan
from planner.errors import PricesRefuteScenario
from pricing_adapters.snapshot import load_snapshot, read_offers_csv
from pricing_adapters.store import PriceStore
from tests.planner.cli_run import run

G5 = "aws:us-east-1:g5.xlarge:on_demand"


def g5_at(price: float) -> pd.DataFrame:
    """The packaged g5.xlarge on-demand offer of us-east-1, at `price` USD/h."""
    offers = load_snapshot(["aws"])
    return offers[offers["offer_id"] == G5].assign(hourly_price=price).reset_index(drop=True)


def save(store, price: float, fetched: datetime | None = None) -> int:
    return PriceStore(store).save("aws", ["us-east-1"], "test", g5_at(price), fetched_at=fetched).id


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "prices.sqlite"
    assert [save(path, 1.00), save(path, 2.00)] == [1, 2]
    return path


SCENARIO = """name: pinned
currency: USD
horizon_months: 1
discount_rate: 0.0
prices:
  source: store
{pin}  providers: [aws]
  regions: [us-east-1]
  purchase_options: [on_demand]
onprem: {{electricity_per_kwh: 0.12, pue: 1.4, availability: 0.97, cards: []}}
workloads:
  - name: ft
    gpu_hours_per_month: 730
    reference_gpu: A10G
    min_gpu_memory_gb: 12
    throughput: {{A10G: 1.0}}
"""


def scenario_file(tmp_path, pin: int | None):
    path = tmp_path / f"pin-{pin}.yaml"
    path.write_text(SCENARIO.format(pin="" if pin is None else f"  snapshot: {pin}\n"), encoding="utf-8")
    return path


def g5_price(offers: pd.DataFrame) -> float:
    return float(offers.loc[offers["offer_id"] == G5, "hourly_price"].item())


def test_a_pinned_snapshot_gives_its_prices_and_no_pin_the_newest(store):
    assert g5_price(price_table("store", store, 1)[0]) == 1.00
    assert g5_price(price_table("store", store, 2)[0]) == 2.00
    offers, provenance = price_table("store", store)
    assert g5_price(offers) == 2.00 and "pinned_snapshot" not in provenance
    pinned = price_table("store", store, 1)[1]
    assert [s["id"] for s in pinned["snapshots"]] == [1] and pinned["pinned_snapshot"] == 1


def test_plan_json_on_a_pinned_snapshot_names_it_and_costs_its_prices(tmp_path, store):
    totals, used = {}, {}
    for pin in (1, 2, None):
        result = run("plan", scenario_file(tmp_path, pin), "--store", store, "--format", "json", "--no-baselines",
                     "--no-decisions")
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        totals[pin], used[pin] = doc["total"], [s["id"] for s in doc["prices"]["snapshots"]]
        assert doc["prices"].get("pinned_snapshot") == pin
        assert doc["prices"]["snapshots"][0]["fetched_at"] and "age_days" in doc["prices"]["snapshots"][0]
    # 730 h × 1.00 and × 2.00 USD/h; no pin: the newest, #2
    assert totals == {1: pytest.approx(730.0), 2: pytest.approx(1460.0), None: pytest.approx(1460.0)}
    assert used == {1: [1], 2: [2], None: [2]}


def test_the_library_takes_the_pin_as_an_override(store):
    s = load_scenario(SCENARIO.format(pin=""))
    assert plan(s, store=store, baselines=False, prices__snapshot=1).total == pytest.approx(730.0)


def test_a_snapshot_the_store_lacks_exits_2_naming_the_ids_it_holds(tmp_path, store):
    path = scenario_file(tmp_path, 5)
    expected = f"{path}:7:13: prices.snapshot: no snapshot #5 in {store}; it holds snapshots 1-2 (`fleetplan prices list`)"
    validated = run("validate", path, "--store", store)
    assert validated.exit_code == 2 and f"error: {expected}" in " ".join(validated.stderr.split())
    planned = run("plan", path, "--store", store, "--format", "json", "--no-baselines", "--no-decisions")
    assert planned.exit_code == 2 and f"error: {expected}" in " ".join(planned.stderr.split())
    assert "Traceback" not in validated.output + planned.output and planned.stdout == ""
    with pytest.raises(PricesRefuteScenario, match="it holds snapshots 1-2") as caught:
        price_coverage("store", store, 5)
    assert caught.value.field == ("prices", "snapshot")


def test_a_pin_with_no_store_is_an_error_not_the_packaged_prices(tmp_path):
    missing = tmp_path / "none.sqlite"
    result = run("validate", scenario_file(tmp_path, 1), "--store", missing)
    assert result.exit_code == 2
    assert f"prices.snapshot: no snapshot #1: no price store at {missing}" in " ".join(result.stderr.split())
    assert not missing.exists()


def test_a_pin_needs_source_store(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pin="  snapshot: 1\n").replace("source: store", "source: snapshot"), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 2
    assert (f"{path}:7:13: prices.snapshot: pins a snapshot of the price store, so it needs source: store, not "
            "'snapshot'") in " ".join(result.stderr.split())


@pytest.mark.parametrize("pin", ["0", "x", "1.5"])
def test_a_pin_is_a_whole_number_from_1(tmp_path, pin):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pin=f"  snapshot: {pin}\n"), encoding="utf-8")
    result = run("validate", path)
    assert result.exit_code == 2 and f"{path}:7:13: prices.snapshot:" in result.stderr


def test_the_pin_is_the_store_as_it_stood_when_the_snapshot_was_saved(tmp_path):
    # #3 is saved last with a clock behind (fetched before #2): #2 stays in force once #3 is saved, as without a pin
    path = tmp_path / "prices.sqlite"
    day = [datetime(2025, 3, d, tzinfo=timezone.utc) for d in (1, 3, 2)]
    assert [save(path, price, when) for price, when in zip((1.00, 2.00, 3.00), day)] == [1, 2, 3]
    prices = {pin: g5_price(price_table("store", path, pin)[0]) for pin in (1, 2, 3, None)}
    assert prices == {1: 1.00, 2: 2.00, 3: 2.00, None: 2.00}


def test_show_exports_a_pinned_snapshot_to_an_offers_csv_that_plans_the_same(tmp_path, store):
    shown = run("prices", "show", "--snapshot", "1", "--provider", "aws", "--store", store, "--format", "csv")
    assert shown.exit_code == 0, shown.output
    assert "the store as it stood when snapshot #1 was saved" in shown.stderr
    assert "aws: store snapshot #1 fetched" in shown.stderr and "#2" not in shown.stderr
    csv = tmp_path / "q3.csv"
    csv.write_text(shown.stdout, encoding="utf-8")
    assert g5_price(read_offers_csv(str(csv))) == 1.00
    newest = run("prices", "show", "--provider", "aws", "--store", store, "--format", "csv")
    assert "aws: store snapshot #2 fetched" in newest.stderr
    from_csv = tmp_path / "from-csv.yaml"
    from_csv.write_text(SCENARIO.format(pin="").replace("source: store", f"source: {csv}"), encoding="utf-8")
    assert plan(from_csv, baselines=False).total == pytest.approx(730.0)


@pytest.mark.parametrize(("ref", "said"), [("9", "--snapshot: no snapshot #9 in {store}; it holds snapshots 1-2"),
                                           ("x", "--snapshot: 'x': expected a snapshot id (digits 0-9, see `prices list`)"),
                                           ("9" * 19, "--snapshot: no snapshot #" + "9" * 19 + ": snapshot ids have at "
                                                      "most 18 digits")])
def test_show_of_a_snapshot_that_is_not_there_exits_2(store, ref, said):
    result = run("prices", "show", "--snapshot", ref, "--store", store)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"error: {said.format(store=store)}" in " ".join(result.stderr.split())


def test_show_of_a_snapshot_with_no_store_exits_2(tmp_path):
    result = run("prices", "show", "--snapshot", "1", "--store", tmp_path / "none.sqlite")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: --snapshot: no snapshot #1: no price store at {tmp_path / 'none.sqlite'}: ")
    assert result.stderr.count("\n") == 1   # said once: not a note, then an error in the same words


def test_diff_names_the_ids_a_store_holds_for_one_it_lacks(store):
    result = run("prices", "diff", "1", "7", "--store", store)
    assert result.exit_code == 2
    assert f"no snapshot #7 in {store}; it holds snapshots 1-2" in " ".join(result.stderr.split())


def test_ids_held_shortens_runs_of_ids():
    from pricing_adapters.store import ids_held

    assert ids_held([1, 2, 3, 7, 9, 10]) == "it holds snapshots 1-3, 7, 9-10 (`fleetplan prices list`)"
    assert ids_held([4]) == "it holds snapshot 4 (`fleetplan prices list`)"
    assert ids_held([]) == "it holds no snapshot yet"


def test_a_pinned_snapshot_without_a_usable_offer_is_an_error_not_the_packaged_prices(tmp_path, store):
    # review 2026-12-06: its rows all unusable, the pinned store fell back to the packaged g5.xlarge (1.006 USD/h)
    # with a warning, where a pin is used as it is or not at all; snapshot #2, saved after it, does not help
    con = sqlite3.connect(store)
    con.execute("UPDATE offers SET as_of = 'yesterday' WHERE snapshot_id = 1")
    con.commit()
    con.close()
    said = (f"prices.snapshot: snapshot #1 is in {store}, but neither it nor a snapshot saved before it has a usable "
            "offer (")
    with pytest.raises(PricesRefuteScenario, match=re.escape(said)) as caught:
        price_table("store", store, 1)
    assert caught.value.field == ("prices", "snapshot") and "1 bad offer row skipped" in str(caught.value)
    assert str(caught.value).endswith("; pin another (`fleetplan prices list`)")
    path = scenario_file(tmp_path, 1)
    for command in (("validate", path), ("plan", path, "--no-baselines", "--no-decisions")):
        result = run(*command, "--store", store)
        assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
        assert f"{path}:7:13: {said}" in " ".join(result.stderr.split())
    assert g5_price(price_table("store", store, 2)[0]) == 2.00   # the snapshot after it is whole


def test_the_cli_line_and_the_summary_say_the_snapshot_is_pinned(tmp_path, store, monkeypatch):
    # on a frozen 2026-12-07 the price of 2026-07-20 is not stale; on the real clock it is from 2027-01-17 on, and the
    # lines then name it as such
    monkeypatch.setattr("pricing_adapters.shown.utc_today", lambda: date(2026, 12, 7))
    # review 2026-12-06: the CLI's first line said "prices: store", the summary had no prices.snapshot row
    lines = {}
    for pin in (1, None):
        path = scenario_file(tmp_path, pin)
        shown = run("plan", path, "--store", store, "--no-baselines", "--no-decisions")
        summary = run("plan", path, "--store", store, "--no-baselines", "--no-decisions", "--format", "md")
        assert shown.exit_code == summary.exit_code == 0, shown.output + summary.output
        lines[pin] = (shown.stdout.splitlines()[0], summary.stdout)
    first, md = lines[1]
    assert "total 730 USD" in first and "; prices: store, pinned to snapshot #1, dated 2026-07-20" in first
    assert "prices from the price store as it stood when snapshot #1 was saved (pinned: prices.snapshot): aws snapshot #1 " \
           "(us-east-1) fetched " in md
    assert "Prices: store, pinned to snapshot #1, dated 2026-07-20." in md and "| prices.snapshot | #1 (pinned) |" in md
    first, md = lines[None]   # the newest, #2: nothing pinned
    assert "; prices: store, dated 2026-07-20" in first and "prices.snapshot" not in md
    assert "pinned to" not in first + md and "(pinned" not in md   # (the scenario is named "pinned")
    assert "prices from the price store: aws snapshot #2 (us-east-1) fetched " in md
