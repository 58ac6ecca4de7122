"""A refresh that lacks most of the offers in force in its regions is refused, the store unchanged, unless accepted
deliberately: it replaces every offer of its provider in those regions, so plans would silently lose the offers it
lacks (the Price List answering only its first page, a listing cut to its spot items, a region of five answered).

The offers in these tests are the recorded AWS us-east-1 listing (tests/fixtures/aws, 18 offers: p4d.24xlarge on
demand, 12 reservations and spot on GetProducts page 1; g5.12xlarge on page 2; inf2.xlarge and g4ad.16xlarge on page
3, all on demand; p5.48xlarge spot) and the packaged Azure offers (pricing_adapters/snapshots/azure.csv: eastus 72
offers, 59 on demand and 13 spot of 59 sizes; eastus2 74, 59 on demand and 15 spot of 59 sizes)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pandas as pd
import pytest
import respx
import test_aws
from test_aws import Stubs, _describe, _items, _p4d_item

from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import MissingOffersError, PriceJumpError
from pricing_adapters.jumps import MissingOffers, missing_offers
from pricing_adapters.refresh import _missing_offers_text, refresh
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

session = test_aws.session   # fixture: a boto3 session with fake keys
HOW = ("; more likely a partial answer (pages, a region or a purchase option left out) than instance types retired, "
       "and plans would lose those offers, so nothing was saved. If they really are gone, refresh again with "
       "--accept-missing-offers")


def _aws(session, pages: int = 3, drop: tuple[str, ...] = (), spot: dict | None = None, priced: dict | None = None):
    """An AWS source answering the recorded us-east-1 listing: its GetProducts answer ending after `pages` of its 3
    pages, without the price items of the instance types in `drop`, with the on-demand USD price of each instance type
    of `priced` (type -> price text) as it says, and `spot` as the spot answer (else the recorded one)."""
    stubs = Stubs(session)
    types = _describe()["InstanceTypes"]
    stubs.describe({"InstanceTypes": types[:4]}, token="dit-2")
    stubs.describe({"InstanceTypes": types[4:]}, sent_token="dit-2")
    items = _items()
    for itype, price in (priced or {}).items():
        (term,) = items[itype]["terms"]["OnDemand"].values()
        (dimension,) = term["priceDimensions"].values()
        dimension["pricePerUnit"] = {"USD": price}
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


@pytest.mark.parametrize("price", [
    "500000",       # above USD's bound (100,000 an hour): skipped by base.offers_table
    "2000000000",   # above any currency's (1e9 an hour): skipped by the adapter itself
])
def test_an_offer_missing_because_its_price_was_skipped_is_named_so_and_the_rest_a_partial_answer(session, aws_store,
                                                                                                   price):
    # the listing ends after page 2 (inf2.xlarge and g4ad.16xlarge, on page 3, missing) and g5.12xlarge's on-demand
    # price on page 2 is implausible: 3 of the 4 on-demand offers in force missing, 1 of them skipped for its price
    saved = aws_store.path.read_bytes()
    with pytest.raises(MissingOffersError) as refused:
        refresh(_aws(session, pages=2, priced={"g5.12xlarge": price}), ["us-east-1"], aws_store)
    said = ("aws us-east-1: 3 of the 18 offers in force there (snapshot #1) are missing from this refresh, which holds "
            "15 offers: more than half of the on_demand offers (3 of 4, 3 instance types); e.g. "
            "aws:us-east-1:g4ad.16xlarge:on_demand, aws:us-east-1:g5.12xlarge:on_demand, "
            "aws:us-east-1:inf2.xlarge:on_demand")
    assert str(refused.value) == (
        f"offers missing: {said}; 1 of the 3 offers missing was in the answer but skipped as an implausible price "
        "(above 100,000 USD an hour or below 0.0001 a unit-hour, say), more likely a broken feed (a wrong unit, "
        "currency or scale); the others more likely a partial answer (pages, a region or a purchase option left out) "
        "than instance types retired, and plans would lose those offers, so nothing was saved. If the others really "
        "are gone, refresh again with --accept-missing-offers (an implausible price is never saved)")
    assert refused.value.missing.implausible == 1 and aws_store.path.read_bytes() == saved
    warned = []
    refresh(_aws(session, pages=2, priced={"g5.12xlarge": price}), ["us-east-1"], aws_store,
            accept_missing_offers=True, warn=warned.append)
    assert warned == [f"missing offers accepted (--accept-missing-offers): {said} (1 of the 3 offers missing was "
                      "skipped as an implausible price, above 100,000 USD an hour or below 0.0001 a unit-hour, say, and "
                      "is not saved)"]


def test_an_implausible_price_of_an_offer_not_in_force_changes_nothing_said():
    # a new size priced absurdly is skipped, but it is no offer in force: the missing ones are a partial answer
    found = missing_offers(_earlier(["a", "b", "c", "d"]), "aws", _fetched(["d"]), implausible={"aws:r:new:on_demand"})
    assert found is not None and (found.missing, found.implausible) == (3, 0)


@pytest.mark.parametrize("drop, saved, said", [
    # a retired instance type: 1 of 4 on-demand offers; g4ad.16xlarge is the one Radeon Pro V520 type listed
    (("g4ad.16xlarge",), 17, "1 of the 18 offers in force (snapshot #1); e.g. aws:us-east-1:g4ad.16xlarge:on_demand; "
                             "no offer left in us-east-1 of RADEON-PRO-V520"),
    # two: 2 of 4, half and no more
    (("g4ad.16xlarge", "inf2.xlarge"), 16, "2 of the 18 offers in force (snapshot #1); e.g. "
                                           "aws:us-east-1:g4ad.16xlarge:on_demand, aws:us-east-1:inf2.xlarge:on_demand; "
                                           "no offer left in us-east-1 of INFERENTIA2, RADEON-PRO-V520"),
], ids=["one type retired", "two types retired"])
def test_a_few_offers_gone_are_saved_at_once_and_named(session, aws_store, drop, saved, said):
    warned = []
    info = refresh(_aws(session, drop=drop), ["us-east-1"], aws_store, warn=warned.append)
    assert (info.id, info.row_count) == (2, saved)
    assert warned == [f"offers dropped, missing from this refresh: aws us-east-1: {said}; saved all the same (listings "
                      "do shrink). `fleetplan prices diff 1 2` shows each offer"]


def test_spot_gone_whole_from_a_region_is_refused_though_only_two_types_had_it(session, aws_store):
    # an empty spot answer: both spot offers in force (p4d.24xlarge's and p5.48xlarge's) are missing, 2 of 18, 2
    # instance types, under the share rule; but spot is gone whole from us-east-1, whose p4d.24xlarge is still
    # offered (on demand and 12 reservations): a spot reader broken, not spot withdrawn. Saved before (exit 0).
    saved = aws_store.path.read_bytes()
    no_spot = {"SpotPriceHistory": []}
    with pytest.raises(MissingOffersError) as refused:
        refresh(_aws(session, spot=no_spot), ["us-east-1"], aws_store)
    said = ("aws us-east-1: 2 of the 18 offers in force there (snapshot #1) are missing from this refresh, which holds "
            "16 offers: a purchase option gone whole from a region that still offers instance types that had it: the 2 "
            "spot offers in us-east-1 (2 instance types); e.g. aws:us-east-1:p4d.24xlarge:spot, "
            "aws:us-east-1:p5.48xlarge:spot")
    assert str(refused.value) == (
        f"offers missing: {said}; more likely a partial answer (pages, a region or a purchase option left out) or a "
        "parser or API change (a purchase option no longer read) than instance types retired, and plans would lose "
        "those offers, so nothing was saved. If they really are gone (a purchase option no longer sold there, say), "
        "refresh again with --accept-missing-offers")
    assert aws_store.path.read_bytes() == saved
    warned = []
    info = refresh(_aws(session, spot=no_spot), ["us-east-1"], aws_store, accept_missing_offers=True,
                   warn=warned.append)
    assert (info.id, info.row_count) == (2, 16)
    assert warned == [f"missing offers accepted (--accept-missing-offers): {said}"]


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
        "types); and a purchase option gone whole from a region that still offers instance types that had it: the 59 "
        "on_demand offers in eastus2 (59 instance types); e.g. "
        "azure:eastus2:Standard_NC128ds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC128lds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC132ds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC132lds_xl_RTXPRO6000BSE_v6:on_demand, "
        "azure:eastus2:Standard_NC144ds_xl_RTXPRO6000BSE_v6:on_demand and 54 more; more likely a partial answer (pages, "
        "a region or a purchase option left out) or a parser or API change")
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
    return pd.DataFrame({"offer_id": [f"{provider}:{region}:{s}:on_demand" for s in skus], "region": region,
                         "sku": skus, "purchase_option": "on_demand"})


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


def _offers(rows: list[tuple[str, str, str]], provider: str = "aws") -> pd.DataFrame:
    """Offers of (region, sku, purchase option) rows, with the columns the rule reads."""
    return pd.DataFrame({"offer_id": [f"{provider}:{r}:{s}:{o}" for r, s, o in rows], "region": [r for r, _, _ in rows],
                         "sku": [s for _, s, _ in rows], "purchase_option": [o for _, _, o in rows]},
                        columns=["offer_id", "region", "sku", "purchase_option"])


def _in_force(rows: list[tuple[str, str, str]], provider: str = "aws") -> dict[str, tuple[pd.DataFrame, str]]:
    """`earlier_prices` of `rows` (region, sku, purchase option), each region's from snapshot #1."""
    table = _offers(rows, provider)
    return {region: (table[table["region"] == region].reset_index(drop=True), "snapshot #1")
            for region in dict.fromkeys(table["region"])}


def test_an_option_gone_whole_from_a_region_is_missing_offers_whatever_its_size():
    # r: a, b and c on demand, a on spot too. The refresh lacks a's spot offer: 1 of 4, 1 instance type, far under
    # the share rule, but spot is gone whole from r, and a is still offered there
    before = _in_force([("r", "a", "on_demand"), ("r", "b", "on_demand"), ("r", "c", "on_demand"), ("r", "a", "spot")])
    found = missing_offers(before, "aws", _offers([("r", "a", "on_demand"), ("r", "b", "on_demand"),
                                                   ("r", "c", "on_demand")]))
    assert (found.in_force, found.fetched, found.missing, found.beyond) == (4, 3, 1, ())
    assert (found.vanished, found.examples, found.more) == ((("spot", ("r",), 1, 1),), ("aws:r:a:spot",), 0)


def test_the_one_type_with_an_option_retired_whole_takes_the_option_with_it_unsaid():
    # a, the only type with spot in r, is gone whole (on demand and spot): retired, not a spot reader broken
    before = _in_force([("r", "a", "on_demand"), ("r", "b", "on_demand"), ("r", "c", "on_demand"), ("r", "a", "spot")])
    assert missing_offers(before, "aws", _offers([("r", "b", "on_demand"), ("r", "c", "on_demand")])) is None
    # and an option the refresh still has in r, on another type, is not gone (a's spot lost, b's new)
    assert missing_offers(before, "aws", _offers([("r", "a", "on_demand"), ("r", "b", "on_demand"),
                                                  ("r", "c", "on_demand"), ("r", "b", "spot")])) is None


def test_an_option_is_held_region_by_region_and_many_regions_are_named_in_short():
    # seven regions r1..r7, each with x on demand and a 1-year reservation; z on demand in r1 only, with a 3-year
    # reservation too. The refresh keeps every on-demand offer and r1's reservations: reserved_1y is gone from r2..r7
    # (6 of 7: more than half, but of 1 instance type), and reserved_3y nowhere
    regions = [f"r{n}" for n in range(1, 8)]
    rows = [(r, "x", o) for r in regions for o in ("on_demand", "reserved_1y")]
    rows += [("r1", "z", "on_demand"), ("r1", "z", "reserved_3y")]
    kept = [row for row in rows if row[2] == "on_demand" or row[0] == "r1"]
    found = missing_offers(_in_force(rows), "aws", _offers(kept))
    assert (found.in_force, found.fetched, found.missing, found.beyond) == (16, 10, 6, ())
    assert found.vanished == (("reserved_1y", ("r2", "r3", "r4", "r5", "r6", "r7"), 6, 1),)
    assert found.describe() == (
        "aws r1, r2, r3, r4, r5 and 2 more: 6 of the 16 offers in force there (snapshot #1) are missing from this "
        "refresh, which holds 10 offers: a purchase option gone whole from regions that still offer instance types "
        "that had it: the 6 reserved_1y offers in r2, r3, r4, r5, r6 and 1 more (1 instance type); e.g. "
        "aws:r2:x:reserved_1y, aws:r3:x:reserved_1y, aws:r4:x:reserved_1y, aws:r5:x:reserved_1y, "
        "aws:r6:x:reserved_1y and 1 more")


def test_two_options_gone_from_two_regions_are_each_named_with_their_regions():
    # r1: a on demand, spot and reserved_1y; r2: a on demand and spot. The refresh keeps a on demand in both
    rows = [("r1", "a", "on_demand"), ("r1", "a", "spot"), ("r1", "a", "reserved_1y"), ("r2", "a", "on_demand"),
            ("r2", "a", "spot")]
    found = missing_offers(_in_force(rows), "aws", _offers([("r1", "a", "on_demand"), ("r2", "a", "on_demand")]))
    assert found.vanished == (("spot", ("r1", "r2"), 2, 1), ("reserved_1y", ("r1",), 1, 1))
    assert found.describe() == (
        "aws r1, r2: 3 of the 5 offers in force there (snapshot #1) are missing from this refresh, which holds 2 "
        "offers: purchase options gone whole from regions that still offer instance types that had them: the 2 spot "
        "offers in r1, r2 (1 instance type), the 1 reserved_1y offer in r1 (1 instance type); e.g. "
        "aws:r1:a:reserved_1y, aws:r1:a:spot, aws:r2:a:spot")


def test_an_option_gone_whole_that_the_share_rule_names_already_is_not_named_twice():
    # r: a, b, c on demand and on spot; the refresh has spot only: 3 of 6 missing (half: not beyond), 3 of 3 on
    # demand; "the on_demand offers (3 of 3, …)" says it all
    rows = [("r", s, o) for s in "abc" for o in ("on_demand", "spot")]
    found = missing_offers(_in_force(rows), "aws", _offers([row for row in rows if row[2] == "spot"]))
    assert found.beyond == (("the on_demand offers", 3, 3, 3),) and found.vanished == ()


# -- Azure savings plans dropped with their item ------------------------------------------------------------------

AZURE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
PRICES = "https://prices.azure.com/api/retail/prices"


def _azure_item(arm_sku: str, name: str, price: float, plans: tuple[float, ...] = (), unit: str = "1 Hour") -> dict:
    """An eastus pay-as-you-go Retail item (the recorded ND96asr v4 item's fields) of `arm_sku` at `price` per `unit`,
    with 1- and 3-year savings-plan rates `plans`."""
    page = json.loads((AZURE_FIXTURES / "retail_eastus_with_centralus_items.json").read_text())
    (item,) = [i for i in page["Items"] if i["armRegionName"] == "eastus"]
    item = item | {"armSkuName": arm_sku, "skuName": name, "meterName": name, "retailPrice": price,
                   "unitOfMeasure": unit}
    if plans:
        item["savingsPlan"] = [{"term": term, "retailPrice": rate} for term, rate in zip(("1 Year", "3 Years"), plans)]
    return item


def _azure_refresh(store: PriceStore, items: list[dict], **flags):
    with respx.mock(base_url=PRICES) as router:
        router.get("").mock(return_value=httpx.Response(200, json={"Items": items, "NextPageLink": None}))
        return refresh(AzurePriceSource(http=httpx.Client()), ["eastus"], store, **flags)


ND96, NC24, NC48, NV36 = (("Standard_ND96asr_v4", "ND96asr v4"), ("Standard_NC24ads_A100_v4", "NC24ads A100 v4"),
                          ("Standard_NC48ads_A100_v4", "NC48ads A100 v4"), ("Standard_NV36ads_A10_v5", "NV36ads A10 v5"))


def test_savings_plans_dropped_with_their_item_are_counted_so_not_as_implausible_prices(tmp_path):
    # snapshot #1: the ND96asr, NC24ads and NC48ads A100 v4 on demand with 1- and 3-year savings plans, and the NV36ads
    # A10 v5 on demand: 10 offers. The next answer prices the ND96asr per "100000000 Hours" (27.197 / 1e8 an hour:
    # implausible) and the NC24ads at 0, and lacks the NC48ads: 9 of the 10 missing, across 3 instance types. Of them
    # the refresh had 1 skipped for its price (the ND96asr on demand) and 5 dropped with their item: the two sizes'
    # savings plans (at 20, 12, 2.9 and 2.0 USD/h, sound rates) and the NC24ads on demand itself, at 0; the items named
    # by their own offers. The NC48ads's 3 were not in the answer. It said "3 of the 9 … skipped as implausible
    # prices", and nothing of the NC24ads's plans; then "5 of the 9", the NC24ads on demand among "the others"
    store = PriceStore(tmp_path / "s.sqlite")
    sound = [_azure_item(*ND96, 27.197, (20.0, 12.0)), _azure_item(*NC24, 3.673, (2.9, 2.0)),
             _azure_item(*NC48, 7.346, (5.8, 4.0)), _azure_item(*NV36, 3.2)]
    assert _azure_refresh(store, sound, accept_missing_offers=True, accept_price_jumps=True).row_count == 10
    broken = [_azure_item(*ND96, 27.197, (20.0, 12.0), unit="100000000 Hours"), _azure_item(*NC24, 0.0, (2.9, 2.0)),
              _azure_item(*NV36, 3.2)]
    with pytest.raises(MissingOffersError) as refused:
        _azure_refresh(store, broken)
    assert str(refused.value).endswith(
        "; 6 of the 9 offers missing were in the answer but skipped, 1 as an implausible price (above 100,000 USD an "
        "hour or below 0.0001 a unit-hour, say) and 5 dropped with their item (azure:eastus:Standard_NC24ads_A100_v4:"
        "on_demand, azure:eastus:Standard_ND96asr_v4:on_demand), whose own price was skipped as zero, "
        "negative or implausible, more likely a broken feed (a wrong unit, currency or scale); the others more likely a "
        "partial answer (pages, a region or a purchase option left out) than instance types retired, and plans would "
        "lose those offers, so nothing was saved. If the others really are gone, refresh again with "
        "--accept-missing-offers (an implausible price is never saved, nor a savings plan without its item)")
    missing = refused.value.missing
    assert (missing.missing, missing.implausible, missing.dropped_with_item) == (9, 1, 5)
    warned = []
    assert _azure_refresh(store, broken, accept_missing_offers=True, warn=warned.append).row_count == 1
    assert warned[0].endswith(
        " (6 of the 9 offers missing were skipped, 1 as an implausible price, above 100,000 USD an hour or below 0.0001 "
        "a unit-hour, say, and 5 dropped with their item (azure:eastus:Standard_NC24ads_A100_v4:on_demand, "
        "azure:eastus:Standard_ND96asr_v4:on_demand), whose own price was skipped as zero, negative or "
        "implausible, and are not saved)")


def test_every_offer_missing_dropped_with_its_item_is_said_so():
    # 2 offers missing, both savings plans of an item whose on-demand price was skipped
    missing = MissingOffers("azure", ("eastus",), "snapshot #1", 4, 2, 2, (), ("a", "b"), 0, (("savings_plan_1y",
                            ("eastus",), 1, 1), ("savings_plan_3y", ("eastus",), 1, 1)), 0, 2)
    assert ("; every offer missing was in the answer but dropped with its item, whose own price was skipped as zero, "
            "negative or implausible, so more likely a broken feed (a wrong unit, currency or scale) than a partial "
            "answer or instance types retired, and plans would lose those offers, so nothing was saved. To save the "
            "others all the same (an implausible price is never saved, nor a savings plan without its item), refresh "
            "again with --accept-missing-offers") in _missing_offers_text(missing)


def test_the_items_dropped_for_their_own_price_are_named_with_their_own_offers(tmp_path):
    # snapshot #1: the ND96asr, NC24ads and NC48ads A100 v4 on demand with 1- and 3-year savings plans, the NV36ads A10
    # v5 on demand and spot: 11 offers. The next answer prices the ND96asr and NC24ads on demand at 0, the NC48ads at
    # -1 and the NV36ads spot at 0, each item with its plans at sound rates, and the NV36ads on demand at 3.2: 10 of the
    # 11 missing, every one in the answer: the 4 items' own offers (on demand, or spot) and their 6 savings plans. It
    # said "6 of the 10 … dropped with their item", naming no item, and took the items' own offers for a partial answer
    store = PriceStore(tmp_path / "s.sqlite")
    spot = (NV36[0], f"{NV36[1]} Spot")
    sound = [_azure_item(*ND96, 27.197, (20.0, 12.0)), _azure_item(*NC24, 3.673, (2.9, 2.0)),
             _azure_item(*NC48, 7.346, (5.8, 4.0)), _azure_item(*NV36, 3.2), _azure_item(*spot, 1.0)]
    assert _azure_refresh(store, sound, accept_missing_offers=True, accept_price_jumps=True).row_count == 11
    broken = [_azure_item(*ND96, 0.0, (20.0, 12.0)), _azure_item(*NC24, 0.0, (2.9, 2.0)),
              _azure_item(*NC48, -1.0, (5.8, 4.0)), _azure_item(*NV36, 3.2), _azure_item(*spot, 0.0)]
    with pytest.raises(MissingOffersError) as refused:
        _azure_refresh(store, broken)
    assert ("; every offer missing was in the answer but dropped with its item (azure:eastus:Standard_NC24ads_A100_v4:"
            "on_demand, azure:eastus:Standard_NC48ads_A100_v4:on_demand, azure:eastus:Standard_ND96asr_v4:on_demand, "
            "azure:eastus:Standard_NV36ads_A10_v5:spot), whose own price was skipped as zero, negative or implausible, "
            "so more likely a broken feed") in str(refused.value)
    missing = refused.value.missing
    assert (missing.missing, missing.implausible, missing.dropped_with_item) == (10, 0, 10)
