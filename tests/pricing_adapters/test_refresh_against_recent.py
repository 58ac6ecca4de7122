"""A refresh is held against a longer past than the snapshot in force just before (ops audit of nightly refreshes):
offers lost and prices moved a step a night were each saved without a word.

The offers are the packaged Azure ones of eastus (pricing_adapters/snapshots/azure.csv: 72 offers, in file order; its
rows 53 to 57 are the five H100-SXM sizes of eastus, on demand, and none of rows 0 to 49 is H100-SXM)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pricing_adapters.errors import PriceJumpError
from pricing_adapters.refresh import refresh
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

CSV = Path(__file__).resolve().parents[2] / "pricing_adapters" / "snapshots" / "azure.csv"
EASTUS = [r for r in csv.DictReader(CSV.open()) if r["region"] == "eastus"]


class _Packaged:
    """The packaged Azure offers of eastus as another region's (`region`): the first `first` of them, prices × `factor`."""

    provider, source = "azure", "test feed"

    def __init__(self, first: int = 72, factor: float = 1.0, region: str = "eastus"):
        self.first, self.factor, self.region = first, factor, region

    def fetch(self, regions, progress):
        offers = load_snapshot(["azure"])
        offers = offers[offers["region"] == "eastus"].head(self.first)
        return offers.assign(hourly_price=offers["hourly_price"] * self.factor, region=self.region,
                             offer_id=offers["offer_id"].str.replace("azure:eastus:", f"azure:{self.region}:")
                             ).reset_index(drop=True)


@pytest.fixture
def store(tmp_path) -> PriceStore:
    """A store whose snapshot #1 is eastus's 72 packaged offers, as a first refresh saves them."""
    store = PriceStore(tmp_path / "s.sqlite")
    warned = []
    assert refresh(_Packaged(), ["eastus"], store, warn=warned.append).id == 1 and warned == []
    return store


def test_offers_lost_over_three_nights_are_each_said_and_add_up(store):
    ids = [f"azure:eastus:{r['sku']}:{r['purchase_option']}" for r in EASTUS]
    warned = []
    # night 2: 50 of 72 kept, 22 dropped (under half: saved), the five H100-SXM sizes among them
    assert refresh(_Packaged(50), ["eastus"], store, warn=warned.append).id == 2
    assert len(warned) == 1
    assert warned[0].startswith("offers dropped, missing from this refresh: azure eastus: 22 of the 72 offers in "
                                "force (snapshot #1); e.g. ")
    assert ", ".join(sorted(ids[50:])[:3]) in warned[0] and "and 19 more" in warned[0]
    assert "; no offer left in eastus of A10, A100-40GB-SXM, H100-SXM, V710;" in warned[0]
    assert warned[0].endswith("saved all the same (listings do shrink). `fleetplan prices diff 1 2` shows each offer")
    # night 3: 36 kept: 14 of the 50 in force, 36 of the 72 of the last snapshots (#1 and #2)
    warned.clear()
    assert refresh(_Packaged(36), ["eastus"], store, warn=warned.append).id == 3
    assert warned[0].startswith("offers dropped, missing from this refresh: azure eastus: 14 of the 50 offers in force "
                                "(snapshot #2) and 36 of the 72 offers of snapshots #1 to #2; e.g. ")
    assert "H100-SXM" in warned[0] and "`fleetplan prices diff 2 3`" in warned[0]
    # night 4: the same 36 again: nothing dropped tonight, but the week's loss is still said
    warned.clear()
    assert refresh(_Packaged(36), ["eastus"], store, warn=warned.append).id == 4
    assert warned[0].startswith("offers dropped, missing from this refresh: azure eastus: 36 of the 72 offers of snapshots #1 "
                                "to #3; e.g. ")


def test_prices_nine_times_a_night_are_said_then_refused_as_they_compound(store):
    first = min(EASTUS, key=lambda r: (r["sku"], r["purchase_option"]))   # all moved alike: named in id order
    warned = []
    assert refresh(_Packaged(factor=9.0), ["eastus"], store, warn=warned.append).id == 2
    assert len(warned) == 1 and warned[0].startswith(
        "prices moved more than ×2 or ×1/2 (a repricing moves tens of percent): azure eastus: 59 of the 59 offers also "
        "in snapshot #1, e.g. ")
    price = float(first["hourly_price"])
    assert f"e.g. azure:eastus:{first['sku']}:{first['purchase_option']} {price:g} → {price * 9:g} USD/h (×9.00)" in warned[0]
    assert "and 56 more" in warned[0] and warned[0].endswith("`fleetplan prices diff 1 2` shows each offer")
    # ×81 against snapshot #1, ×9 against #2: refused, the store unchanged
    saved = store.path.read_bytes()
    with pytest.raises(PriceJumpError) as refused:
        refresh(_Packaged(factor=81.0), ["eastus"], store)
    assert ("the 72 offers also in snapshot #2 or, for the 72 offers moved again, snapshots #1 to #2 moved by a median "
            "ratio of ×81") in str(refused.value)
    assert store.path.read_bytes() == saved


def test_a_price_back_to_what_it_was_a_week_ago_is_not_refused(store):
    assert refresh(_Packaged(factor=9.0), ["eastus"], store, accept_price_jumps=True).id == 2
    # unchanged against #2 (×9 accepted there): not held against #1 again
    warned = []
    assert refresh(_Packaged(factor=9.0), ["eastus"], store, warn=warned.append).id == 3 and warned == []


def test_a_ten_percent_repricing_says_nothing(store):
    warned = []
    assert refresh(_Packaged(factor=1.1), ["eastus"], store, warn=warned.append).id == 2 and warned == []


def test_a_region_without_earlier_prices_is_held_against_other_regions(tmp_path):
    # chilecentral is not in the packaged snapshot: eastus's offers as chilecentral's, a thousand times dearer
    store = PriceStore(tmp_path / "s.sqlite")
    with pytest.raises(PriceJumpError) as refused:
        refresh(_Packaged(factor=1000.0, region="chilecentral"), ["chilecentral"], store)
    assert "azure chilecentral: the 72 offers also in the same instance types in other regions moved by a median" in str(
        refused.value)
    notes, warned = [], []
    assert refresh(_Packaged(region="chilecentral"), ["chilecentral"], store, note=notes.append,
                   warn=warned.append).id == 1
    assert warned == [] and notes == [
        "no earlier prices for azure chilecentral: checked against the same instance types' prices in other regions "
        "(72 offers)"]


def test_a_region_whose_instance_types_are_priced_nowhere_else_is_said_unchecked(tmp_path):
    class _Unknown(_Packaged):
        def fetch(self, regions, progress):
            offers = super().fetch(regions, progress).head(1)
            return offers.assign(sku="Standard_NX1_Made_Up", offer_id="azure:chilecentral:Standard_NX1_Made_Up:on_demand")

    warned = []
    assert refresh(_Unknown(region="chilecentral"), ["chilecentral"], PriceStore(tmp_path / "s.sqlite"),
                   warn=warned.append).id == 1
    assert warned == ["no earlier prices for azure chilecentral: not checked against any (none of its instance types is "
                      "priced in another region either)"]


def test_prices_half_again_a_night_are_said_once_they_add_up_beyond_twice(store):
    # ×1.5 against the night before says nothing; ×2.25 against snapshot #1 is said on the second night
    warned = []
    assert refresh(_Packaged(factor=1.5), ["eastus"], store, warn=warned.append).id == 2 and warned == []
    assert refresh(_Packaged(factor=2.25), ["eastus"], store, warn=warned.append).id == 3
    assert len(warned) == 1 and warned[0].startswith(
        "prices moved more than ×2 or ×1/2 (a repricing moves tens of percent): azure eastus: 59 of the 59 offers also "
        "in snapshot #2 or, moved again, snapshots #1 to #2, e.g. ")
    assert "(×2.25)" in warned[0]


class _SpotMoved(_Packaged):
    """The packaged offers of eastus, the spot ones (13) alone × `factor`."""

    def fetch(self, regions, progress):
        offers = _Packaged(self.first, 1.0, self.region).fetch(regions, progress)
        spot = offers["purchase_option"] == "spot"
        return offers.assign(hourly_price=offers["hourly_price"].where(~spot, offers["hourly_price"] * self.factor))


def test_spot_quotes_moving_with_the_market_are_not_warned_of(store):
    # spot ×2.5 (the recorded quotes lie between 0.11 and 1.0 of on-demand: a market's move), on-demand as it was;
    # each spot price stays under 2× its on-demand (packaged eastus spot: at most 0.4 of it), so nothing is refused
    offers = load_snapshot(["azure"])
    eastus = offers[offers["region"] == "eastus"]
    on_demand = eastus[eastus["purchase_option"] == "on_demand"].set_index("sku")["hourly_price"]
    spot = eastus[eastus["purchase_option"] == "spot"].set_index("sku")["hourly_price"]
    assert (spot * 2.5 / on_demand.reindex(spot.index)).max() < 2
    warned = []
    assert refresh(_SpotMoved(factor=2.5), ["eastus"], store, warn=warned.append).id == 2
    assert warned == []
    # on-demand ×2.5 as well: said
    assert refresh(_Packaged(factor=2.5), ["eastus"], store, warn=warned.append).id == 3
    assert len(warned) == 1 and warned[0].startswith("prices moved more than ×2 or ×1/2")
    assert ":spot" not in warned[0] and "59 of the 59 offers" in warned[0]
