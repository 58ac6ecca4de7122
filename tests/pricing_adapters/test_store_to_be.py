"""StoreToBe, the store a refresh saves to where none is usable yet, is made by PriceStore's own init: whatever that
init gives every store, a StoreToBe has too, and it still makes, moves and writes nothing until it saves."""

from pricing_adapters.errors import StoreCorrupt
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore, StoreToBe, open_for_refresh


def test_an_attribute_set_in_price_stores_init_is_set_in_a_store_to_be(tmp_path, monkeypatch):
    # it set path, warnings and unreadable by hand: an attribute added to PriceStore.__init__ was missing from it,
    # an AttributeError only once a refresh used it
    init = PriceStore.__init__

    def init_with_more(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.added_later = "set"

    monkeypatch.setattr(PriceStore, "__init__", init_with_more)
    store = open_for_refresh(tmp_path / "new.sqlite")
    assert isinstance(store, StoreToBe)
    assert store.added_later == "set"
    assert list(tmp_path.iterdir()) == []   # looked at the path only: no store, no lock file


def test_a_store_to_be_has_every_attribute_an_opened_store_has(tmp_path):
    opened = PriceStore(tmp_path / "made.sqlite")
    damaged = StoreCorrupt(f"{tmp_path / 'x.sqlite'} is damaged")
    to_be = StoreToBe(tmp_path / "x.sqlite", damaged)
    assert set(vars(opened)) <= set(vars(to_be))
    assert (to_be.path, to_be.warnings, to_be.unreadable, to_be.damaged, to_be.moved_aside) == (
        tmp_path / "x.sqlite", [], {}, damaged, None)
    assert to_be.snapshots() == [] and to_be.snapshot_rows() == 0
    assert not any(p.name.startswith("x.sqlite") for p in tmp_path.iterdir())   # nothing made at its path


def test_a_store_to_be_makes_the_store_when_it_saves(tmp_path):
    path = tmp_path / "new.sqlite"
    to_be = open_for_refresh(path)
    offers = load_snapshot(["aws"])
    g5 = offers[offers["offer_id"] == "aws:us-east-1:g5.xlarge:on_demand"]
    info = to_be.save("aws", ["us-east-1"], "test", g5)
    assert info.id == 1 and [s.id for s in PriceStore(path, create=False).snapshots()] == [1]
