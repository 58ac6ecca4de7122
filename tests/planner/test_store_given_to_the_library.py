"""A price store given to the library (`plan(store=…)`, or `$FLEETPLAN_STORE`) that names a folder, or a file in
a folder that does not exist, is a mistake, as it is for `fleetplan plan --store`: a PriceSourceError in the
CLI's words (planner.catalog.prices.store_mistake, one check for both), where the plan had quietly used the
packaged snapshot and said so only in p.prices["warning"]. A store merely absent, in a folder that exists,
is still a fresh install's: the packaged snapshot, said so."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import plan
from planner.catalog.prices import price_coverage, price_table
from planner.cli import app
from planner.errors import PriceSourceError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = str(ROOT / "scenarios" / "entry.yaml")


def test_a_store_that_is_a_folder_is_refused_in_the_cli_s_words(tmp_path):
    from planner.catalog.prices import store_mistake

    said = f"is a folder; give the price store file, e.g. {tmp_path}/prices.sqlite"
    with pytest.raises(PriceSourceError) as info:
        plan(ENTRY, prices__source="store", store=tmp_path, baselines=False)
    assert str(info.value) == f"store={tmp_path}: {said}"
    result = CliRunner().invoke(app, ["plan", ENTRY, "--store", str(tmp_path), "--no-decisions"])
    assert result.exit_code == 2 and result.stderr == f"error: --store {tmp_path}: {said}\n"
    assert store_mistake(tmp_path, "--store ") == f"--store {tmp_path}: {said}"


def test_a_store_in_a_folder_that_does_not_exist_is_refused(tmp_path):
    missing = tmp_path / "nope" / "x.sqlite"
    with pytest.raises(PriceSourceError, match=f"^store={missing}: folder {tmp_path}/nope does not exist$"):
        plan(ENTRY, prices__source="store", store=str(missing), baselines=False)
    with pytest.raises(PriceSourceError, match=f"^store={missing}: folder {tmp_path}/nope does not exist$"):
        price_coverage("store", missing)   # what validate reads
    assert not (tmp_path / "nope").exists()


def test_the_store_variable_naming_a_folder_is_refused_as_the_cli_refuses_it(tmp_path, monkeypatch):
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path))
    with pytest.raises(PriceSourceError) as info:
        price_table("store")
    assert str(info.value) == (f"FLEETPLAN_STORE={tmp_path}: is a folder; give the price store file, "
                               f"e.g. {tmp_path}/prices.sqlite")


def test_a_store_given_with_a_tilde_is_in_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(PriceSourceError, match=f"^store=~/nofleet/p.sqlite: folder {tmp_path}/nofleet does not exist$"):
        price_table("store", "~/nofleet/p.sqlite")
    _, provenance = price_table("store", "~/p.sqlite")
    assert provenance["warning"] == (f"no price store at {tmp_path}/p.sqlite: `fleetplan prices refresh` makes one; "
                                     "using the packaged snapshot")


def test_a_store_absent_in_a_folder_that_exists_is_still_the_packaged_snapshot_said_so(tmp_path):
    absent = tmp_path / "prices.sqlite"
    p = plan(ENTRY, prices__source="store", store=absent, baselines=False)
    assert p.prices["source"] == "snapshot"
    # the refresh of each provider of entry.yaml in its region (aws us-east-1, azure eastus), into the store given
    assert p.prices["warning"] == (f"no price store at {absent}: `fleetplan prices refresh --provider aws --region "
                                   f"us-east-1 --store {absent}` and `fleetplan prices refresh --provider azure --region "
                                   f"eastus --store {absent}` make one; using the packaged snapshot")
    assert not absent.exists()   # reading prices creates no store


@pytest.mark.parametrize("store, shown, kind", [(123, "123", "int"), (["p.sqlite"], "['p.sqlite']", "list")])
def test_a_store_that_is_no_path_is_named_with_what_it_must_be(store, shown, kind):
    # was os.fspath's "expected str, bytes or os.PathLike object, not int", naming no argument
    said = f"store={shown}: expected the path of the price store file (a str or Path, e.g. prices.sqlite), not {kind}"
    with pytest.raises(PriceSourceError) as info:
        plan(ENTRY, store=store, prices__source="store", baselines=False)
    assert str(info.value) == said
    with pytest.raises(PriceSourceError) as info:
        price_coverage("store", store)   # what validate reads
    assert str(info.value) == said


def test_a_store_given_as_bytes_is_the_path_they_spell(tmp_path):
    missing = tmp_path / "nope" / "x.sqlite"
    with pytest.raises(PriceSourceError, match=f"^store={missing}: folder {tmp_path}/nope does not exist$"):
        plan(ENTRY, prices__source="store", store=bytes(missing), baselines=False)
