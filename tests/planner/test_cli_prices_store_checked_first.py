"""`fleetplan prices …` checks the store before anything else, and names where its path came from.

Price-refresh audit (a6): a store that could not be written was found out only by the save, after the whole fetch
(6.3 s for three pages answered after 2 s each; minutes for a few real regions), then "…is read-only: could not write
to it". A refresh now asks before its first request, writing nothing. And every `prices` command said
"error: --store: …" where no --store was given (the path came from $FLEETPLAN_STORE or the default).

Root writes read-only files and folders, so os.access answers "no" for the paths a test makes read-only, as it does
for another user (and for root, on an immutable file or a read-only mount); a real chmod runs where it can (not as
root). The Retail Prices pages are served on 127.0.0.1 and every request is counted.
"""

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters import store as store_module
from pricing_adapters.store import PriceStore
from tests.pricing_adapters.test_store_locked_or_read_only import WHAT_TO_DO, _chmod_works

IN_A_WRITABLE_FOLDER = "make the folder writable, or give a --store / $FLEETPLAN_STORE in a writable folder"


@pytest.fixture
def requests(recorded_eastus, monkeypatch):
    """The requests the recorded eastus pages' server on 127.0.0.1 answered (set as the prices URL)."""
    url, answered = recorded_eastus
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
    return answered


def _as_if_read_only(monkeypatch, *paths: Path) -> None:
    """os.access answers "no" to writing `paths`, as it would for a user without the right."""
    real, refused = os.access, {os.fspath(p) for p in paths}

    def access(path, mode, *args, **kwargs):
        if mode & os.W_OK and os.fspath(path) in refused:
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(store_module.os, "access", access)


def _refresh(*store: str):
    """`prices refresh` of eastus (its missing offers accepted: only the store may stop it), with `store` options."""
    return CliRunner().invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus", *store,
                                    "--accept-missing-offers"])


def _said(result) -> str:
    return " ".join(result.stderr.split())


@pytest.fixture
def saved_store(tmp_path) -> Path:
    """An existing, empty store of ours in a folder of its own."""
    path = tmp_path / "ro" / "s.sqlite"
    PriceStore(path)
    return path


# -- a store that cannot be written: refused before any request --------------------------------------------------

def test_a_read_only_store_file_is_refused_before_any_request(saved_store, requests, monkeypatch):
    before, beside = saved_store.read_bytes(), sorted(p.name for p in saved_store.parent.iterdir())
    _as_if_read_only(monkeypatch, saved_store)
    result = _refresh("--store", str(saved_store))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert _said(result) == f"error: --store: {saved_store} is read-only: could not write to it{WHAT_TO_DO}"
    assert requests == []   # the audit's refresh fetched all 3 pages first
    # nothing written, nothing made beside it (no journal)
    assert saved_store.read_bytes() == before and sorted(p.name for p in saved_store.parent.iterdir()) == beside


def test_a_store_in_a_read_only_folder_is_refused_before_any_request(saved_store, requests, monkeypatch):
    # the file may be written, but SQLite writes its journal beside it to save
    _as_if_read_only(monkeypatch, saved_store.parent)
    result = _refresh("--store", str(saved_store))
    assert result.exit_code == 2 and requests == []
    assert _said(result) == (f"error: --store: could not write to {saved_store}: its folder {saved_store.parent} is "
                             f"read-only, and SQLite writes a journal file beside the store to save; "
                             f"{IN_A_WRITABLE_FOLDER}")


def test_a_read_only_store_in_a_read_only_folder_names_both(saved_store, requests, monkeypatch):
    _as_if_read_only(monkeypatch, saved_store, saved_store.parent)
    result = _refresh("--store", str(saved_store))
    assert result.exit_code == 2 and requests == []
    assert _said(result) == (f"error: --store: {saved_store} is read-only, and so is its folder {saved_store.parent}, "
                             f"where SQLite writes a journal file to save: could not write to it")


def test_a_link_to_a_read_only_store_names_the_folder_of_the_store_it_leads_to(saved_store, requests, monkeypatch,
                                                                            tmp_path):
    # SQLite follows the link and writes its journal beside the file it leads to, not beside the link
    link = tmp_path / "link.sqlite"
    link.symlink_to(saved_store)
    _as_if_read_only(monkeypatch, saved_store.parent)
    result = _refresh("--store", str(link))
    assert result.exit_code == 2 and requests == []
    assert _said(result).startswith(f"error: --store: could not write to {link}: its folder {saved_store.parent} is "
                                    "read-only")


def test_a_new_store_in_a_read_only_folder_is_refused_and_nothing_is_made(tmp_path, requests, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    _as_if_read_only(monkeypatch, folder)
    result = _refresh("--store", str(folder / "new.sqlite"))
    assert result.exit_code == 2 and requests == []
    assert _said(result) == (f"error: --store: cannot create {folder / 'new.sqlite'}: its folder {folder} is "
                             f"read-only; {IN_A_WRITABLE_FOLDER}")
    assert list(folder.iterdir()) == []   # no store, no lock, no temporary file


def test_the_default_store_whose_folder_cannot_be_made_is_refused_naming_it_and_nothing_is_made(tmp_path, requests,
                                                                                              monkeypatch):
    # on first use the default store's folder (XDG_DATA_HOME/fleetplan) is made: here its parent is read-only
    data = tmp_path / "data"
    data.mkdir()
    monkeypatch.delenv("FLEETPLAN_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    _as_if_read_only(monkeypatch, data)
    result = _refresh()
    store = data / "fleetplan" / "prices.sqlite"
    assert result.exit_code == 2 and requests == []
    assert _said(result) == (f"error: the default store ({store}): cannot create {store}: its folder {store.parent} "
                             f"does not exist and cannot be made in {data}, which is read-only; {IN_A_WRITABLE_FOLDER}")
    assert list(data.iterdir()) == []


def test_a_writable_store_is_still_made_and_saved(tmp_path, requests):
    # the check finds nothing to say: the refresh goes on as before, a new store made in its folder
    result = _refresh("--store", str(tmp_path / "s.sqlite"))
    assert result.exit_code == 0, result.output
    assert len(requests) == 3 and "saved snapshot #1 (azure, eastus, 10 offers" in result.stderr


def test_a_really_read_only_store_file_is_refused_before_any_request(saved_store, requests, tmp_path):
    if not _chmod_works(tmp_path):
        pytest.skip("this user writes read-only files (root): checked with os.access above")
    saved_store.chmod(stat.S_IRUSR)
    try:
        result = _refresh("--store", str(saved_store))
    finally:
        saved_store.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert result.exit_code == 2 and requests == []
    assert _said(result) == f"error: --store: {saved_store} is read-only: could not write to it{WHAT_TO_DO}"


# -- where the store's path came from ------------------------------------------------------------------------------

def _foreign(path: Path) -> Path:
    """A file that is no store at `path` (a note written there by mistake)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("not a price store\n")
    return path


def _foreign_said(path: Path) -> str:
    return (f"{path} is not a fleetplan price store (file is not a database); it may be another application's file, "
            f"so it was left untouched: move it or give another --store / $FLEETPLAN_STORE")


@pytest.mark.parametrize("command", [["list"], ["show"], ["diff", "1", "2"]])
def test_a_store_from_the_environment_variable_is_named_by_it(tmp_path, monkeypatch, command):
    path = _foreign(tmp_path / "env.sqlite")
    monkeypatch.setenv("FLEETPLAN_STORE", str(path))
    result = CliRunner().invoke(app, ["prices", *command])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert _said(result) == f"error: $FLEETPLAN_STORE: {_foreign_said(path)}"


@pytest.mark.parametrize("command", [["list"], ["show"], ["diff", "1", "2"]])
def test_the_default_store_is_named_as_the_default_with_its_path(tmp_path, monkeypatch, command):
    monkeypatch.delenv("FLEETPLAN_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = _foreign(tmp_path / "fleetplan" / "prices.sqlite")
    result = CliRunner().invoke(app, ["prices", *command])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert _said(result) == f"error: the default store ({path}): {_foreign_said(path)}"


def test_a_refresh_names_the_environment_variable_too_and_sends_no_request(tmp_path, monkeypatch, requests):
    path = _foreign(tmp_path / "env.sqlite")
    monkeypatch.setenv("FLEETPLAN_STORE", str(path))
    result = _refresh()
    assert result.exit_code == 2 and requests == []
    assert _said(result) == f"error: $FLEETPLAN_STORE: {_foreign_said(path)}"


def test_a_damaged_store_from_the_environment_variable_is_named_by_it(tmp_path, monkeypatch):
    path = tmp_path / "env.sqlite"
    PriceStore(path)
    with store_module.sqlite3.connect(path) as con:   # a table every offer needs, dropped by hand
        con.execute("DROP TABLE offers")
    monkeypatch.setenv("FLEETPLAN_STORE", str(path))
    result = CliRunner().invoke(app, ["prices", "list"])
    assert result.exit_code == 2
    assert _said(result) == (f"error: $FLEETPLAN_STORE: {path} is a damaged price store (no table offers); it was left "
                             "as it is: `fleetplan prices refresh` moves it aside and starts a new store")


def test_an_explicit_store_is_still_named_as_store(tmp_path):
    path = _foreign(tmp_path / "given.sqlite")
    result = CliRunner().invoke(app, ["prices", "list", "--store", str(path)])
    assert result.exit_code == 2 and _said(result) == f"error: --store: {_foreign_said(path)}"
