"""A plan on `prices.source: store` whose store path holds a file that is no usable store (a text file, another
application's SQLite database, a store of another schema, a folder) fails, exit 2, naming the file, what is wrong and
what to do, and leaves the file as it is. It planned on the packaged snapshot's prices with a warning and exit 0: not
the prices the scenario asks for. `validate` fails on it too, exit 2 (a locked store, which clears by itself, is a
warning there that the prices were not checked); a path with no file yet still gives the packaged prices with a
warning (tests/planner/test_store_locked.py).
"""

import json
import shutil
import sqlite3

import pytest
from cli_run import run

import planner
from planner.catalog import prices
from planner.errors import PriceSourceError, PriceStoreLocked, PriceStoreUnusable

# what each message ends with: why the plan stops, and what to do instead
WHY = "plans on prices.source: store read no other prices in its place"
NEW_FILE = ("refresh into a new file (`fleetplan prices refresh --store NEW.sqlite`) and plan with `--store NEW.sqlite` "
            "(or set $FLEETPLAN_STORE to it)")
# the one list of what to do about another application's file (it said "move it or give another --store /
# $FLEETPLAN_STORE" and then a second list)
FOREIGN_REMEDY = f"move it, {NEW_FILE}, or set prices.source: snapshot"


@pytest.fixture(autouse=True)
def fresh_reads():
    prices._read_prices.cache_clear()   # a store read earlier in this process is not read again while it is unchanged
    yield
    prices._read_prices.cache_clear()


def a_text_file(tmp_path):
    path = tmp_path / "prices.sqlite"
    path.write_text("name: not a store\n")
    return path


def another_applications_database(tmp_path):
    path = tmp_path / "prices.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    con.commit()
    con.close()
    return path


FOREIGN = {
    a_text_file: ("{path} is not a fleetplan price store (file is not a database); it may be another application's "
                  "file, so it was left untouched"),
    another_applications_database: ("{path} is an SQLite database of another application, not a fleetplan price "
                                    "store; it was left untouched"),
}


@pytest.mark.parametrize("make", list(FOREIGN), ids=lambda f: f.__name__)
def test_a_plan_on_a_file_that_is_not_a_store_fails_and_leaves_it(tmp_path, make, store_a100_scenario):
    path = make(tmp_path)
    before = path.read_bytes()
    result = run("plan", store_a100_scenario, "--store", path, "--format", "json", "--no-decisions")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert " ".join(result.stderr.split()) == f"error: {FOREIGN[make].format(path=path)}; {WHY}: {FOREIGN_REMEDY}"
    assert [(p.name, p.read_bytes()) for p in tmp_path.iterdir()] == [(path.name, before)]   # nothing moved or made


def test_a_store_of_another_schema_fails_the_plan(tmp_path, azure_eastus_store, store_a100_scenario):
    path = tmp_path / "prices.sqlite"
    shutil.copyfile(azure_eastus_store, path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 2")   # a store this fleetplan cannot read (its schema is 1)
    con.close()
    with pytest.raises(PriceStoreUnusable) as info:   # the library as the CLI
        planner.plan(planner.load_scenario(store_a100_scenario), store=path, baselines=False)
    assert str(info.value) == (f"{path} has store schema 2; this fleetplan reads 1; {WHY}: move it aside, {NEW_FILE}, "
                               "or set prices.source: snapshot")
    # a failure that stays until the file is moved: not the lock's class, which the dashboard plans again after
    assert isinstance(info.value, PriceSourceError) and not isinstance(info.value, PriceStoreLocked)


def test_a_folder_at_the_default_store_path_fails_the_plan(tmp_path, monkeypatch, store_a100_scenario):
    # --store and $FLEETPLAN_STORE naming a folder were refused already; the platform's data directory was not
    monkeypatch.delenv("FLEETPLAN_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "fleetplan" / "prices.sqlite"
    folder.mkdir(parents=True)
    result = run("plan", store_a100_scenario, "--format", "json", "--no-decisions")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert " ".join(result.stderr.split()) == (f"error: {folder} is a directory; {WHY}: move it aside, {NEW_FILE}, or "
                                               "set prices.source: snapshot")
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_validate_fails_as_plan_does_on_a_file_that_is_no_store(tmp_path, store_a100_scenario):
    # it passed, exit 0 with a warning that the prices were not checked, as of a lock; but a lock clears by itself
    # and this file stays until moved: the plan it checks for is certain to fail. An error of prices.source (line 10)
    path = a_text_file(tmp_path)
    result = run("validate", store_a100_scenario, "--store", path)
    assert result.exit_code == 2, result.output
    message = f"{FOREIGN[a_text_file].format(path=path)}; {WHY}: {FOREIGN_REMEDY}"
    assert " ".join(result.stderr.split()) == f"error: {store_a100_scenario}:10:11: prices.source: {message}"
    assert "using the packaged snapshot" not in result.stderr
    shown = run("validate", store_a100_scenario, "--store", path, "--format", "json")
    assert shown.exit_code == 2, shown.output
    assert json.loads(shown.stdout)["files"][0]["problems"] == [
        {"severity": "error", "line": 10, "column": 11, "field": "prices.source", "message": message}]
    assert path.read_text() == "name: not a store\n"


def test_a_damaged_store_read_mid_plan_gets_one_list_of_what_to_do(tmp_path):
    # a table dropped under a reader says "…: move it aside (`fleetplan prices refresh` does) and refresh again",
    # which the plan's own list followed
    from pricing_adapters.errors import StoreCorrupt
    from pricing_adapters.store import RECOVER

    path = tmp_path / "prices.sqlite"
    said = str(prices._store_unusable(StoreCorrupt(f"{path} is a damaged price store (no such table: offers): {RECOVER}")))
    assert said == (f"{path} is a damaged price store (no such table: offers); {WHY}: `fleetplan prices refresh` moves "
                    "it aside and starts a new store, or set prices.source: snapshot")


# the mending a broken link gets in front of the list ("…, or mend the link" was lost when the lists became one)
MEND = "mend the link (point it at the store file, or put the store file at {target})"
# a link in a loop points at a link of the loop: "put the store file at" it could not be done (review, 2026-12-07)
MEND_LOOP = "mend the link (it is in a loop of links: point it at the store file)"
LINK_REMEDY = "{mend}, move it aside, " + NEW_FILE + ", or set prices.source: snapshot"


def broken_links(tmp_path) -> dict:
    """Store paths that are broken symbolic links: link → (what it is, how to mend it: where it points, as a path to
    put a store at, or that it is in a loop)."""
    dangling, relative, loop_a, loop_b, itself, unmounted = (tmp_path / n for n in (
        "d.sqlite", "r.sqlite", "a.sqlite", "b.sqlite", "l.sqlite", "g.sqlite"))
    dangling.symlink_to(tmp_path / "p.sqlite")
    relative.symlink_to("q.sqlite")   # read against the link's folder, not the working one
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    itself.symlink_to("l.sqlite")   # `ln -s loop loop`
    # into a folder that is not there (a disk not mounted): was "folder … does not exist", not a word of the link
    unmounted.symlink_to(tmp_path / "gone" / "p.sqlite")
    return {dangling: (f"a symbolic link to {tmp_path / 'p.sqlite'}, which does not exist",
                       MEND.format(target=tmp_path / "p.sqlite")),
            relative: ("a symbolic link to q.sqlite, which does not exist", MEND.format(target=tmp_path / "q.sqlite")),
            loop_a: ("a symbolic link in a loop of links", MEND_LOOP),
            itself: ("a symbolic link in a loop of links", MEND_LOOP),
            unmounted: (f"a symbolic link to {tmp_path / 'gone' / 'p.sqlite'}, which does not exist",
                        MEND.format(target=tmp_path / "gone" / "p.sqlite"))}


def test_a_plan_on_a_broken_link_says_to_mend_it_and_makes_nothing(tmp_path, store_a100_scenario):
    for link, (what, mend) in broken_links(tmp_path).items():
        message = f"{link} is {what}; {WHY}: {LINK_REMEDY.format(mend=mend)}"
        result = run("plan", store_a100_scenario, "--store", link, "--format", "json", "--no-decisions")
        assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
        assert " ".join(result.stderr.split()) == f"error: {message}"
        checked = run("validate", store_a100_scenario, "--store", link)
        assert checked.exit_code == 2 and "Traceback" not in checked.output
        assert " ".join(checked.stderr.split()) == f"error: {store_a100_scenario}:10:11: prices.source: {message}"
        with pytest.raises(PriceStoreUnusable) as info:   # the library as the CLI
            planner.plan(planner.load_scenario(store_a100_scenario), store=link, baselines=False)
        assert str(info.value) == message
    # nothing made at the links, through them (no store where they point) or beside them (no lock)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sqlite", "b.sqlite", "d.sqlite", "g.sqlite", "l.sqlite",
                                                          "r.sqlite"]


def test_the_prices_commands_say_to_mend_a_broken_link_too(tmp_path):
    import respx

    for link, (what, mend) in broken_links(tmp_path).items():
        message = f"error: --store: {link} is {what}; give the path of a store file, or {mend}"
        shown = run("prices", "show", "--store", link)
        assert shown.exit_code == 2 and "Traceback" not in shown.output
        assert " ".join(shown.stderr.split()) == message
        with respx.mock:   # the store is opened before any request; none is answered
            refreshed = run("prices", "refresh", "--provider", "azure", "--region", "eastus", "--store", link)
        assert refreshed.exit_code == 2 and "Traceback" not in refreshed.output
        assert " ".join(refreshed.stderr.split()) == message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.sqlite", "b.sqlite", "d.sqlite", "g.sqlite", "l.sqlite",
                                                          "r.sqlite"]


def test_a_broken_link_at_the_default_store_path_fails_the_plan_saying_to_mend_it(tmp_path, monkeypatch,
                                                                                 store_a100_scenario):
    monkeypatch.delenv("FLEETPLAN_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    link, target = tmp_path / "fleetplan" / "prices.sqlite", tmp_path / "kept" / "prices.sqlite"
    link.parent.mkdir()
    link.symlink_to(target)
    result = run("plan", store_a100_scenario, "--format", "json", "--no-decisions")
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert " ".join(result.stderr.split()) == (f"error: {link} is a symbolic link to {target}, which does not exist; "
                                               f"{WHY}: {LINK_REMEDY.format(mend=MEND.format(target=target))}")
    assert link.is_symlink() and not (tmp_path / "kept").exists() and list(link.parent.iterdir()) == [link]
