"""Where a plan's prices came from, when that is not what the caller asked, is among `p.warnings` (the list a
notebook prints), first: a store given to a scenario whose prices come from the packaged snapshot or an offers
CSV was silently unused (`plan(s, store="prices.sqlite")`), and a missing store's fallback to the packaged
snapshot was only in `p.prices["warning"]`. `fleetplan plan` prints each once (it printed
`p.prices["warning"]` on its own line before the warnings).

Facts used: scenarios/entry.yaml prices from the packaged snapshot (prices.source: snapshot) and
examples/worked-example.yaml from examples/offers-g5-us-east-1.csv; a store file that does not exist is read as
none (catalog.prices: "no price store at …"), and is not created by reading it."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
WORKED = ROOT / "examples" / "worked-example.yaml"
NOT_READ = ("the store is not read; set prices.source: store in the scenario to plan on the store")


def _price_warnings(p) -> list[str]:
    return [w for w in p.warnings if w.startswith("prices: ")]


def test_a_store_given_for_the_packaged_snapshot_is_said_to_be_unused(tmp_path):
    store = tmp_path / "prices.sqlite"
    p = plan(ENTRY, store=store, baselines=False)
    assert p.prices["source"] == "snapshot" and not p.prices.get("warning")
    assert p.warnings[0] == (f"prices: the price store {store} was given, but the scenario's prices come from the "
                             f"packaged snapshot (prices.source: snapshot): {NOT_READ}")
    assert _price_warnings(p) == p.warnings[:1]
    assert not store.exists()
    assert _price_warnings(plan(ENTRY, baselines=False)) == []   # no store given: nothing to say


def test_a_store_given_for_an_offers_csv_is_said_to_be_unused(tmp_path):
    p = plan(WORKED, store=str(tmp_path / "prices.sqlite"), baselines=False)
    # the CSV as the scenario's file names it (tests/planner/test_input_files_as_read.py)
    assert p.warnings[0] == (f"prices: the price store {tmp_path / 'prices.sqlite'} was given, but the scenario's "
                             f"prices come from the offers CSV offers-g5-us-east-1.csv (prices.source): {NOT_READ}")


@pytest.mark.parametrize("asked", [{"prices__source": "store"}, {"overrides": {"prices.source": "store"}}])
def test_a_missing_stores_fallback_to_the_packaged_snapshot_is_in_the_warnings(tmp_path, asked):
    absent = tmp_path / "prices.sqlite"
    p = plan(ENTRY, store=absent, baselines=False, **asked)
    # a command to paste per provider of entry.yaml, in its region, into the store given
    fallback = (f"no price store at {absent}: `fleetplan prices refresh --provider aws --region us-east-1 --store "
                f"{absent}` and `fleetplan prices refresh --provider azure --region eastus --store {absent}` make one; "
                "using the packaged snapshot")
    assert (p.prices["source"], p.prices["warning"]) == ("snapshot", fallback)
    assert _price_warnings(p) == [f"prices: {fallback}"] and p.warnings[0] == f"prices: {fallback}"


def test_the_cli_says_each_once(tmp_path):
    absent = tmp_path / "prices.sqlite"
    on_store = tmp_path / "on-store.yaml"
    on_store.write_text(ENTRY.read_text().replace("source: snapshot", "source: store", 1))
    run = CliRunner().invoke(app, ["plan", str(on_store), "--store", str(absent), "--no-decisions", "--no-baselines"])
    assert run.exit_code == 0, run.output
    assert run.stderr.count(f"no price store at {absent}") == 1
    assert (f"warning: prices: no price store at {absent}: `fleetplan prices refresh --provider aws --region us-east-1 "
            f"--store {absent}` and") in " ".join(run.stderr.split())
    unused = CliRunner().invoke(app, ["plan", str(ENTRY), "--store", str(absent), "--no-decisions", "--no-baselines"])
    assert unused.exit_code == 0, unused.output
    assert unused.stderr.count(f"the price store {absent} was given") == 1


def test_the_summary_says_it_once_of_a_plan_and_of_its_json_written_before(tmp_path):
    """summary.md listed prices["warning"] before the plan's warnings, which now begin with it: twice. A plan's
    JSON written before it was among the warnings (read back by compare) still has it said, once."""
    import dataclasses

    from planner.reports import plan_to_markdown

    absent = tmp_path / "prices.sqlite"
    p = plan(ENTRY, store=absent, baselines=False, prices__source="store")
    said = f"no price store at {absent}"
    assert plan_to_markdown(p).count(said) == 1
    before = dataclasses.replace(p, warnings=[w for w in p.warnings if not w.startswith("prices: ")])
    assert plan_to_markdown(before).count(said) == 1


def test_a_sweep_says_a_store_it_does_not_read_once(tmp_path):
    # plan_summary leaves the prices' sources out of each point's warnings (a sweep says them once): a store= the
    # scenario does not read was said nowhere in a sweep
    from planner import sweep

    store = tmp_path / "prices.sqlite"
    table = sweep(ENTRY, vary={"horizon_months": [12, 24]}, store=store, processes=1)
    said = (f"the price store {store} was given, but the scenario's prices come from the packaged snapshot "
            f"(prices.source: snapshot): {NOT_READ}")
    assert [source["warning"] for source in table.attrs["prices"]] == [said]
    run = CliRunner().invoke(app, ["sweep", str(ENTRY), "--vary", "horizon_months=12,24", "--store", str(store),
                                   "--processes", "1"])
    assert run.exit_code == 0, run.output
    assert " ".join(run.stderr.split()).count(f"the price store {store} was given") == 1
    assert not store.exists()
