"""A refresh that lacks most of the offers in force in its regions is refused, the store unchanged, unless accepted
deliberately: it replaces every offer of its provider in those regions, so plans would silently lose the offers it
lacks (the Price List answering only its first page, a listing cut to its spot items, a region of five answered).

The offers in these tests are the recorded AWS us-east-1 listing (tests/fixtures/aws, 18 offers: p4d.24xlarge on
demand, 12 reservations and spot on GetProducts page 1; g5.12xlarge on page 2; inf2.xlarge and g4ad.16xlarge on page
3, all on demand; p5.48xlarge spot) and the packaged Azure offers (pricing_adapters/snapshots/azure.csv: eastus 72
offers, 59 on demand and 13 spot of 59 sizes; eastus2 74, 59 on demand and 15 spot of 59 sizes)."""

from __future__ import annotations

import pandas as pd
import pytest
import test_aws
from test_aws import Stubs, _describe, _items, _p4d_item

from pricing_adapters.errors import MissingOffersError, PriceJumpError
from pricing_adapters.jumps import missing_offers
from pricing_adapters.refresh import refresh
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

session = test_aws.session   # fixture: a boto3 session with fake keys
HOW = ("; more likely a partial answer (pages, a region or a purchase option left out) than instance types retired, "
       "and plans would lose those offers, so nothing was saved. If they really are gone, refresh again with "
       "--accept-missing-offers")


def _aws(session, pages: int = 3, drop: tuple[str, ...] = (), spot: dict | None = None):
    """An AWS source answering the recorded us-east-1 listing: its GetProducts answer ending after `pages` of its 3
    pages, without the price items of the instance types in `drop`, and `spot` as the spot answer (else the
    recorded one)."""
    stubs = Stubs(session)
    types = _describe()["InstanceTypes"]
    stubs.describe({"InstanceTypes": types[:4]}, token="dit-2")
    stubs.describe({"InstanceTypes": types[4:]}, sent_token="dit-2")
    items = _items()
    recorded = [[_p4d_item(), items["r5.24xlarge"]], [items["g5.12xlarge"], items["g4dn.8xlarge"]],
                [items["p5.48xlarge"], items["inf2.xlarge"], items["g4ad.16xlarge"]]][:pages]
    for n, page in enumerate(recorded):
        kept = [i for i in page if i["product"]["attributes"]["instanceType"] not in drop]
        stubs.products(kept, token=f"page-{n + 2}" if n + 1 < len(recorded) else None,
                       sent_token=f"page-{n + 1}" if n else None)
    stubs.spot(spot)
    return stubs.source


@pytest.fixture
def aws_store(session, tmp_path):
    """A store whose snapshot #1 is the recorded us-east-1 listing (accepted: its 18 offers lack most of the 104
    packaged ones of us-east-1)."""
    store = PriceStore(tmp_path / "s.sqlite")
    assert refresh(_aws(session), ["us-east-1"], store, accept_missing_offers=True).row_count == 18
    return store


def test_a_price_list_answering_only_its_first_page_is_refused_until_accepted(session, aws_store):
    # page 1 holds p4d's 14 offers, and the spot answer p5's: 15. Of the 4 on-demand offers in force, those of
    # g5.12xlarge, inf2.xlarge and g4ad.16xlarge (pages 2 and 3) are missing: 3 of 4, 3 instance types
    saved = aws_store.path.read_bytes()
    with pytest.raises(MissingOffersError) as refused:
        refresh(_aws(session, pages=1), ["us-east-1"], aws_store)
    said = ("aws us-east-1: 3 of the 18 offers in force there (snapshot #1) are missing from this refresh, which holds "
            "15 offers: more than half of the on_demand offers (3 of 4, 3 instance types); e.g. "
            "aws:us-east-1:g4ad.16xlarge:on_demand, aws:us-east-1:g5.12xlarge:on_demand, "
            "aws:us-east-1:inf2.xlarge:on_demand")
    assert str(refused.value) == f"offers missing: {said}{HOW}"
    assert aws_store.path.read_bytes() == saved
    warned = []
    info = refresh(_aws(session, pages=1), ["us-east-1"], aws_store, accept_missing_offers=True, warn=warned.append)
    assert (info.id, info.row_count) == (2, 15)
    assert warned == [f"missing offers accepted (--accept-missing-offers): {said}"]


@pytest.mark.parametrize("drop, spot, saved", [
    (("g4ad.16xlarge",), None, 17),                  # a retired instance type: 1 of 4 on-demand offers
    (("g4ad.16xlarge", "inf2.xlarge"), None, 16),    # two: 2 of 4, half and no more
    ((), {"SpotPriceHistory": []}, 16),              # no spot quote: both spot offers, but of 2 instance types
], ids=["one type retired", "two types retired", "no spot quote for two types"])
def test_a_few_offers_gone_are_saved_at_once(session, aws_store, drop, spot, saved):
    warned = []
    info = refresh(_aws(session, drop=drop, spot=spot), ["us-east-1"], aws_store, warn=warned.append)
    assert (info.id, info.row_count, warned) == (2, saved, [])


class _Packaged:
    """The packaged Azure offers of the regions asked for, those `keep` (offers -> bool mask) keeps, their prices
    times `factor`."""

    provider, source = "azure", "test feed"

    def __init__(self, keep=None, factor: float = 1.0):
        self.keep, self.factor = keep, factor

    def fetch(self, regions, progress):
        offers = load_snapshot(["azure"])
        offers = offers[offers["region"].isin(regions)]
        if self.keep is not None:
            offers = offers[self.keep(offers)]
        return offers.assign(hourly_price=offers["hourly_price"] * self.factor).reset_index(drop=True)


def _packaged_store(tmp_path, regions) -> PriceStore:
    """A store whose snapshot #1 holds the packaged Azure offers of `regions`."""
    store = PriceStore(tmp_path / "s.sqlite")
    offers = load_snapshot(["azure"])
    store.save("azure", regions, "packaged rows", offers[offers["region"].isin(regions)])
    return store


def test_only_the_regions_refreshed_are_compared_and_a_region_cut_short_is_named(tmp_path):
    store = _packaged_store(tmp_path, ["eastus", "eastus2"])
    # a refresh of eastus leaves eastus2's 74 offers in force: none of them is missing
    assert refresh(_Packaged(), ["eastus"], store).id == 2
    # eastus whole and eastus2's spot offers only: its 59 on-demand offers are missing, 59 of the 146 in force in
    # both (eastus from snapshot #2, eastus2 from #1), 59 of the 118 on demand (half: no more), 59 of eastus2's 74
    saved = store.path.read_bytes()
    spot_of_eastus2 = _Packaged(lambda o: (o["region"] == "eastus") | (o["purchase_option"] == "spot"))
    with pytest.raises(MissingOffersError) as refused:
        refresh(spot_of_eastus2, ["eastus", "eastus2"], store)
    assert str(refused.value).startswith(
        "offers missing: azure eastus, eastus2: 59 of the 146 offers in force there (snapshot #1 and snapshot #2) are "
        "missing from this refresh, which holds 87 offers: more than half of those in eastus2 (59 of 74, 59 instance "
        "types); e.g. azure:eastus2:Standard_NC128ds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC128lds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC132ds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC132lds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC144ds_xl_RTXPRO6000BSE_v6:on_demand and 54 more; more likely a partial answer")
    assert store.path.read_bytes() == saved


def test_jumped_prices_and_missing_offers_each_need_their_own_flag(tmp_path):
    # eastus's 13 spot offers alone, at 1,000 times their price: a jump, and its 59 on-demand offers missing
    store = _packaged_store(tmp_path, ["eastus"])
    saved = store.path.read_bytes()
    spot_x1000 = _Packaged(lambda o: o["purchase_option"] == "spot", factor=1000.0)
    missing = ("offers missing: azure eastus: 59 of the 72 offers in force there (snapshot #1) are missing from this "
               "refresh, which holds 13 offers: more than half of them (59 of 72, 59 instance types), the on_demand "
               "offers (59 of 59, 59 instance types)")
    jumped = "azure eastus: the 13 offers also in snapshot #1 moved by a median ratio of ×1,000 (13 of 13"
    with pytest.raises(PriceJumpError) as both:
        refresh(spot_x1000, ["eastus"], store)
    text = str(both.value)
    assert jumped in text and f"--accept-price-jumps. Also {missing}" in text and text.endswith(HOW)
    with pytest.raises(MissingOffersError) as one:
        refresh(spot_x1000, ["eastus"], store, accept_price_jumps=True)
    assert str(one.value).startswith(missing) and "×1,000" not in str(one.value)
    with pytest.raises(PriceJumpError) as other:
        refresh(spot_x1000, ["eastus"], store, accept_missing_offers=True)
    assert jumped in str(other.value) and "offers missing" not in str(other.value)
    assert store.path.read_bytes() == saved
    warned = []
    info = refresh(spot_x1000, ["eastus"], store, accept_price_jumps=True, accept_missing_offers=True, warn=warned.append)
    assert (info.id, info.row_count) == (2, 13)
    assert [w.split(":")[0] for w in warned] == ["price jumps accepted (--accept-price-jumps)",
                                                 "missing offers accepted (--accept-missing-offers)"]


# -- the rule itself, on offers made up for it ------------------------------------------------------------------

def _earlier(skus: list[str], provider: str = "aws", region: str = "r") -> dict[str, tuple[pd.DataFrame, str]]:
    """`earlier_prices` of one region holding one on-demand offer of each of `skus`, from snapshot #1."""
    return {region: (pd.DataFrame({"offer_id": [f"{provider}:{region}:{s}:on_demand" for s in skus], "region": region,
                                   "sku": skus, "purchase_option": "on_demand"}), "snapshot #1")}


def _fetched(skus: list[str], provider: str = "aws", region: str = "r") -> pd.DataFrame:
    return pd.DataFrame({"offer_id": [f"{provider}:{region}:{s}:on_demand" for s in skus]})


def test_more_than_half_of_three_instance_types_or_more_is_missing_offers():
    earlier = _earlier(["a", "b", "c", "d"])
    assert missing_offers(earlier, "aws", _fetched(["a", "b"])) is None      # 2 of 4: half, no more
    found = missing_offers(earlier, "aws", _fetched(["a"]))                  # 3 of 4
    # on demand only: "the on_demand offers" would say again what "them" says
    assert (found.in_force, found.fetched, found.missing, found.beyond) == (4, 1, 3, (("them", 3, 4, 3),))
    # 2 of 3 is more than half, but 2 instance types may be retired together
    assert missing_offers(_earlier(["a", "b", "c"]), "aws", _fetched(["a"])) is None


def test_retired_azure_sizes_are_not_counted_as_missing():
    # NC6s_v3, NC12s_v3 and NC24s_v3 retired on 2025-09-30 (pricing_adapters/data/azure_retired_sizes.csv): a store
    # refreshed before the table named them still holds them, and the adapter now drops them
    retired = ["Standard_NC6s_v3", "Standard_NC12s_v3", "Standard_NC24s_v3", "Standard_NC24ads_A100_v4"]
    fetched = _fetched(["Standard_NC24ads_A100_v4"], "azure")
    assert missing_offers(_earlier(retired, "azure"), "azure", fetched) is None
    # three sizes still rented, in their place: 3 of 4 missing
    rented = ["Standard_NC4as_T4_v3", "Standard_NC8as_T4_v3", "Standard_NC16as_T4_v3", "Standard_NC24ads_A100_v4"]
    assert missing_offers(_earlier(rented, "azure"), "azure", fetched).missing == 3
