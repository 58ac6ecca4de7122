"""A refresh whose hardware facts of an instance type (its GPU, their count, their memory) differ from the prices in
force or from the facts fleetplan ships is refused, the store unchanged, unless accepted deliberately (price-refresh
audit: an ARM listing saying GPUs "8" for Standard_NC24ads_A100_v4, 1 × A100 80 GB, was saved with no warning and
planned at 3.673 / 8 = 0.459 USD per GPU-hour; DescribeInstanceTypes giving p4d.24xlarge a Count of 64, not 8,
likewise: 21.957642 / 64 = 0.343 instead of 2.745).

Expected facts by hand: pricing_adapters/data/azure_gpu_sizes.csv (Standard_NC24ads_A100_v4: A100-80GB-PCIE, 1 GPU of
80 GB; Standard_NV6ads_A10_v5: 0.16666666666666666 of an A10, 4 GB; Standard_NC128ds_xl_RTXPRO6000BSE_v6: count
unknown) and pricing_adapters/snapshots/aws.csv (p4d.24xlarge: 8 × A100-40GB-SXM, 40 GB). Prices: the recorded eastus
pages (tests/fixtures/azure: NC24ads A100 v4 at 3.673 USD/h on demand) and us-east-1 listing (tests/fixtures/aws)."""

from __future__ import annotations

import math

import httpx
import pandas as pd
import pytest
import respx
import test_aws
from test_aws import Stubs, _describe, _items, _p4d_item
from test_azure import BASE, FakeComputeClient, FakeCredential, _no_real_credentials, _pager  # noqa: F401 - a fixture

from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import HardwareChangeError, MissingOffersError, StoreError
from pricing_adapters.jumps import (
    CONTRADICTED,
    CORRECTED,
    HardwareChange,
    earlier_prices,
    hardware_changes,
    hardware_text,
)
from pricing_adapters.refresh import refresh
from pricing_adapters.schema import validate_offers
from pricing_adapters.store import PriceStore

NC24 = "Standard_NC24ads_A100_v4"
ARM = "azure-mgmt-compute resource SKUs"
AWS_SOURCE = "AWS Price List Query API + EC2 DescribeInstanceTypes/DescribeSpotPriceHistory"
WHY = ("; an instance type's hardware does not change under its name, so more likely a broken feed or parser than new "
       "hardware, and a wrong GPU count divides or multiplies every price per GPU-hour of the type, so nothing was "
       "saved. If these really are the facts, refresh again with --accept-hardware-changes")
SIZE_TABLE = "the packaged size table"
# what a refresh that repeats the store's facts where the packaged ones differ, or corrects them to the packaged ones,
# warns after the facts it names
CONTRADICTED_WHY = ("; a store saved before refreshes checked hardware facts may hold a broken feed's, which this "
                    "refresh repeats (a wrong GPU count divides or multiplies every price per GPU-hour of the type). If "
                    "the packaged facts are right, plan on the packaged prices (prices.source: snapshot) until the feed "
                    "gives them; if the store's are (a change you accepted with --accept-hardware-changes), the "
                    "packaged facts are out of date: please report it")
CORRECTED_WHY = ("; the store held facts that fleetplan's packaged ones contradict (a store saved before refreshes "
                 "checked hardware facts kept a broken feed's unchecked), and this refresh agrees with the packaged "
                 "ones, so its facts are saved. If the store's were right (a change you accepted with "
                 "--accept-hardware-changes), the packaged facts are wrong: please report it")
session = test_aws.session   # fixture: a boto3 session with fake keys


class _Skus:
    """ARM's resource SKUs of one region as the audit's stub gave them: the NC24ads A100 v4 with `gpus` GPUs, `vcpus`
    vCPUs and `memory` GB of RAM."""

    def __init__(self, gpus: str, vcpus: str = "24", memory: str = "220"):
        self.gpus, self.vcpus, self.memory = gpus, vcpus, memory

    def list(self, filter=None):  # noqa: A002 - the SDK's parameter name
        return [{"resourceType": "virtualMachines", "name": NC24, "family": "standardNCADSA100v4Family",
                 "capabilities": [{"name": "GPUs", "value": self.gpus}, {"name": "vCPUs", "value": self.vcpus},
                                  {"name": "MemoryGB", "value": self.memory}]}]


class _Compute:
    def __init__(self, gpus: str, vcpus: str = "24", memory: str = "220"):
        self.resource_skus = _Skus(gpus, vcpus, memory)


def _azure(gpus: str, vcpus: str = "24", memory: str = "220") -> AzurePriceSource:
    """The recorded eastus pages (10 offers; respx) with GPU facts from an ARM listing that says `gpus` GPUs, `vcpus`
    vCPUs and `memory` GB of RAM for the NC24ads A100 v4 (as sold: 1, 24, 220; the other sizes: the packaged size
    table)."""
    return AzurePriceSource(http=httpx.Client(), compute_client=_Compute(gpus, vcpus, memory),
                            credential=FakeCredential(), subscription_id="00000000-0000-0000-0000-000000000000")


@pytest.fixture
def retail():
    with respx.mock(base_url=BASE, assert_all_called=False) as router:
        router.get("").mock(side_effect=_pager)
        yield


@pytest.fixture
def nc24_store(tmp_path, retail):
    """A store whose snapshot #1 is the recorded eastus pages with ARM saying 1 GPU for the NC24ads A100 v4, as Azure
    sells it (its 10 offers lack most of the 72 packaged ones of eastus: accepted)."""
    store = PriceStore(tmp_path / "s.sqlite")
    assert refresh(_azure("1"), ["eastus"], store, accept_missing_offers=True).id == 1
    return store


def _on_demand(store: PriceStore, snapshot: int, sku: str = NC24, region: str = "eastus") -> pd.Series:
    offers = store.offers(snapshot).set_index("offer_id")
    return offers.loc[f"{offers.loc[offers['sku'] == sku, 'provider'].iloc[0]}:{region}:{sku}:on_demand"]


def test_an_a100_vm_said_to_hold_8_gpus_not_1_is_refused_until_accepted(nc24_store):
    saved = nc24_store.path.read_bytes()
    with pytest.raises(HardwareChangeError) as refused:
        refresh(_azure("8"), ["eastus"], nc24_store)
    # held against snapshot #1 alone: the store holds the type, its facts checked when saved (the size table, which
    # also says 1, is for a type the store does not hold yet)
    said = f"azure {NC24} in eastus: gpu_count 1 → 8 (1 in snapshot #1; 8 in this refresh, from {ARM})"
    assert str(refused.value) == f"hardware facts changed: {said}{WHY}"
    assert refused.value.hardware == [HardwareChange("azure", NC24, "gpu_count", 1.0, ("snapshot #1",), 8.0, ARM,
                                                     ("eastus",))]
    assert nc24_store.path.read_bytes() == saved and [i.id for i in nc24_store.snapshots()] == [1]
    warned = []
    info = refresh(_azure("8"), ["eastus"], nc24_store, accept_hardware_changes=True, warn=warned.append)
    assert warned == [f"hardware changes accepted (--accept-hardware-changes): {said}"]
    taken = _on_demand(nc24_store, info.id)
    assert (info.id, taken["gpu_count"], taken["hourly_price"] / taken["gpu_count"]) == (2, 8.0, 3.673 / 8)   # 0.459125


def test_an_accepted_count_is_not_asked_again_and_a_later_change_of_it_is_refused(nc24_store):
    # the review of 2026-12-07: the size table's 1 was held against every refresh, so once 1 → 8 was accepted each
    # later one needed --accept-hardware-changes, and a cron job passing it for good let 8 → 64 through with a
    # warning. Snapshot #2 takes the 8 knowingly; the store's facts are then what a refresh is held against. The 8
    # is saved again without the flag, said each time to contradict the size table's 1 (neither can be taken for the
    # other: the store's 8 may be a broken feed's, saved before refreshes checked hardware facts)
    refresh(_azure("8"), ["eastus"], nc24_store, accept_hardware_changes=True)
    warned = []
    assert refresh(_azure("8"), ["eastus"], nc24_store, warn=warned.append).id == 3
    assert warned == [f"hardware facts that fleetplan's packaged ones contradict, saved as the store and this refresh "
                      f"give them: azure {NC24} in eastus: gpu_count 8 (8 in snapshot #2 and in this refresh, from "
                      f"{ARM}; 1 in {SIZE_TABLE}){CONTRADICTED_WHY}"]
    saved = nc24_store.path.read_bytes()
    with pytest.raises(HardwareChangeError) as refused:
        refresh(_azure("64"), ["eastus"], nc24_store)
    assert str(refused.value) == (f"hardware facts changed: azure {NC24} in eastus: gpu_count 8 → 64 (8 in snapshot #3; "
                                  f"64 in this refresh, from {ARM}){WHY}")
    assert nc24_store.path.read_bytes() == saved and [i.id for i in nc24_store.snapshots()] == [1, 2, 3]
    # the size table's 1 again, where the store says 8: two sources against one, taken without the flag and said
    warned = []
    assert refresh(_azure("1"), ["eastus"], nc24_store, warn=warned.append).id == 4
    assert warned == [f"hardware facts corrected: azure {NC24} in eastus: gpu_count 8 → 1 (8 in snapshot #3, which "
                      f"{SIZE_TABLE} contradicts; 1 in this refresh, from {ARM}, as in {SIZE_TABLE}){CORRECTED_WHY}"]


def test_a_store_saved_unchecked_with_8_gpus_is_said_to_contradict_the_size_table_and_a_1_corrects_it(tmp_path, retail):
    # a store saved before refreshes checked hardware facts: snapshot #1 holds ARM's 8 for the NC24ads A100 v4 (1 A100
    # 80 GB, the size table), saved as such a refresh did, with no check; every refresh was held against its 8 alone
    store = PriceStore(tmp_path / "s.sqlite")
    broken = _azure("8")
    store.save("azure", ["eastus"], broken.source, broken.fetch(["eastus"]))
    assert _on_demand(store, 1)["gpu_count"] == 8.0
    # the feed still says 8: saved (the store may hold a change accepted knowingly), but no longer without a word
    warned = []
    assert refresh(_azure("8"), ["eastus"], store, warn=warned.append).id == 2
    assert warned == [f"hardware facts that fleetplan's packaged ones contradict, saved as the store and this refresh "
                      f"give them: azure {NC24} in eastus: gpu_count 8 (8 in snapshot #1 and in this refresh, from "
                      f"{ARM}; 1 in {SIZE_TABLE}){CONTRADICTED_WHY}"]
    # the feed mended says 1, as the size table does: taken without --accept-hardware-changes, and said
    warned = []
    info = refresh(_azure("1"), ["eastus"], store, warn=warned.append)
    assert warned == [f"hardware facts corrected: azure {NC24} in eastus: gpu_count 8 → 1 (8 in snapshot #2, which "
                      f"{SIZE_TABLE} contradicts; 1 in this refresh, from {ARM}, as in {SIZE_TABLE}){CORRECTED_WHY}"]
    taken = _on_demand(store, info.id)
    assert (info.id, taken["gpu_count"], taken["hourly_price"] / taken["gpu_count"]) == (3, 1.0, 3.673)   # not 0.459125
    warned = []
    assert refresh(_azure("1"), ["eastus"], store, warn=warned.append).id == 4 and warned == []


def test_a_fact_the_store_does_not_know_is_held_against_the_packaged_one():
    # a store whose NC24ads A100 v4 count is unknown (empty) held nothing against a refresh's 8, and the next refresh
    # then held 8 against 8: the size table's 1 is what it is held against
    stored = {"eastus": (_facts([("eastus", NC24, "A100-80GB-PCIE", math.nan, 80.0)]), "snapshot #1")}
    found = hardware_changes(stored, "azure", _facts([("eastus", NC24, "A100-80GB-PCIE", 8.0, 80.0)]), ARM, stored)
    assert found == [HardwareChange("azure", NC24, "gpu_count", 1.0, (SIZE_TABLE,), 8.0, ARM, ("eastus",))]
    assert found[0].describe() == (f"azure {NC24} in eastus: gpu_count 1 → 8 (1 in {SIZE_TABLE}; 8 in this refresh, "
                                   f"from {ARM})")
    assert hardware_changes(stored, "azure", _facts([("eastus", NC24, "A100-80GB-PCIE", 1.0, 80.0)]), ARM, stored) == []


def test_the_same_facts_again_are_saved_without_a_word(nc24_store):
    warned = []
    assert refresh(_azure("1"), ["eastus"], nc24_store, warn=warned.append).id == 2 and warned == []


def test_p4d_with_a_count_of_64_is_refused_on_a_first_refresh_against_the_packaged_snapshot(session, tmp_path):
    def stubs(count: int) -> Stubs:
        s = Stubs(session)
        answer = _describe()
        for info in answer["InstanceTypes"]:
            if info["InstanceType"] == "p4d.24xlarge":
                info["GpuInfo"]["Gpus"][0]["Count"] = count
        s.describe(answer)
        items = _items()
        s.products([_p4d_item(), *(items[t] for t in ("g5.12xlarge", "g4dn.8xlarge", "p5.48xlarge", "inf2.xlarge",
                                                        "g4ad.16xlarge"))])
        s.spot()
        return s

    store = PriceStore(tmp_path / "s.sqlite")
    empty = store.path.read_bytes()
    with pytest.raises(HardwareChangeError) as refused:
        refresh(stubs(64).source, ["us-east-1"], store, accept_missing_offers=True)
    # the packaged snapshot holds p4d.24xlarge in us-east-1 (8 A100s), and says 8 in every region it holds it; the 64
    # came from DescribeInstanceTypes, as each AWS offer's source says after "GPU facts: " (not the adapter's 3 APIs)
    assert str(refused.value) == ("hardware facts changed: aws p4d.24xlarge in us-east-1: gpu_count 8 → 64 (8 in the "
                                  f"packaged snapshot; 64 in this refresh, from EC2 DescribeInstanceTypes){WHY}")
    assert store.snapshots() == [] and store.path.read_bytes() == empty
    info = refresh(stubs(8).source, ["us-east-1"], store, accept_missing_offers=True)
    p4d = _on_demand(store, info.id, "p4d.24xlarge", "us-east-1")
    assert p4d["hourly_price"] / p4d["gpu_count"] == pytest.approx(2.7447, abs=1e-4)   # 21.957642 / 8


def test_vcpus_and_ram_that_differ_from_the_store_are_refused_until_accepted(nc24_store):
    # ARM says the NC24ads A100 v4 has 2 vCPUs and 22 GB of RAM (a field read a digit short), not 24 and 220 (snapshot
    # #1, and the size table): refused as a GPU count is, the two facts named in HARDWARE_FACTS order
    saved = nc24_store.path.read_bytes()
    with pytest.raises(HardwareChangeError) as refused:
        refresh(_azure("1", vcpus="2", memory="22"), ["eastus"], nc24_store)
    vcpus = f"azure {NC24} in eastus: vcpus 24 → 2 (24 in snapshot #1; 2 in this refresh, from {ARM})"
    ram = f"azure {NC24} in eastus: memory_gb 220 GB → 22 GB (220 GB in snapshot #1; 22 GB in this refresh, from {ARM})"
    assert str(refused.value).startswith(f"hardware facts changed: {vcpus}; {ram}; an instance type's hardware")
    assert [(c.fact, c.old, c.new) for c in refused.value.hardware] == [("vcpus", 24.0, 2.0), ("memory_gb", 220.0, 22.0)]
    assert nc24_store.path.read_bytes() == saved
    warned = []
    info = refresh(_azure("1", vcpus="2", memory="22"), ["eastus"], nc24_store, accept_hardware_changes=True,
                   warn=warned.append)
    assert warned == [f"hardware changes accepted (--accept-hardware-changes): {vcpus}; {ram}"]
    taken = _on_demand(nc24_store, info.id)
    assert (taken["vcpus"], taken["memory_gb"]) == (2.0, 22.0)


def test_p4d_with_48_vcpus_is_refused_against_the_packaged_snapshot(session, tmp_path):
    # DescribeInstanceTypes giving p4d.24xlarge 48 vCPUs, not 96 (the packaged snapshot, every region it holds it in);
    # its RAM, 1,179,648 MiB / 1,024 = 1,152 GB, agrees with the snapshot's 1,152
    s = Stubs(session)
    answer = _describe()
    for info in answer["InstanceTypes"]:
        if info["InstanceType"] == "p4d.24xlarge":
            assert info["MemoryInfo"]["SizeInMiB"] == 1179648
            info["VCpuInfo"]["DefaultVCpus"] = 48
    s.describe(answer)
    items = _items()
    s.products([_p4d_item(), *(items[t] for t in ("g5.12xlarge", "g4dn.8xlarge", "p5.48xlarge", "inf2.xlarge",
                                                    "g4ad.16xlarge"))])
    s.spot()
    store = PriceStore(tmp_path / "s.sqlite")
    with pytest.raises(HardwareChangeError) as refused:
        refresh(s.source, ["us-east-1"], store, accept_missing_offers=True)
    assert str(refused.value) == ("hardware facts changed: aws p4d.24xlarge in us-east-1: vcpus 96 → 48 (96 in the "
                                  f"packaged snapshot; 48 in this refresh, from EC2 DescribeInstanceTypes){WHY}")
    assert store.snapshots() == []


def test_a_refresh_with_offers_missing_too_names_both_and_needs_both_flags(tmp_path, retail):
    # a first refresh of the recorded pages lacks 67 of the 72 packaged eastus offers, and says 8 GPUs
    store = PriceStore(tmp_path / "s.sqlite")
    with pytest.raises(MissingOffersError) as refused:
        refresh(_azure("8"), ["eastus"], store)
    text = str(refused.value)
    assert text.startswith("offers missing: azure eastus: 67 of the 72 offers in force there (the packaged snapshot)")
    assert (f"refresh again with --accept-missing-offers. Also hardware facts changed: azure {NC24} in eastus: "
            f"gpu_count 1 → 8 (1 in the packaged snapshot and the packaged size table; 8 in this refresh, from {ARM})"
            f"{WHY}") in text
    assert [c.new for c in refused.value.hardware] == [8.0]
    with pytest.raises(HardwareChangeError):   # one flag lets the other fault through, not both
        refresh(_azure("8"), ["eastus"], store, accept_missing_offers=True)
    assert store.snapshots() == []


# -- the comparison itself, on hand-made tables ------------------------------------------------------------------

def _facts(rows: list[tuple], source: str = f"Azure Retail Prices API; GPU facts: {ARM}") -> pd.DataFrame:
    """Offer rows of (region, sku, gpu, gpu_count, gpu_memory_gb), each on demand, with just what a comparison reads."""
    return pd.DataFrame([{"region": r, "sku": s, "gpu": g, "gpu_count": c, "gpu_memory_gb": m, "source": source}
                         for r, s, g, c, m in rows])


def test_a_new_gpu_and_its_memory_are_named_against_each_reference(tmp_path):
    # an NC24ads A100 v4 and an NC48ads A100 v4 read as the H100 NVL of an NC40ads H100 v5 (94 GB), in two regions,
    # eastus in force from snapshot #2, westus2 from the packaged snapshot; the size table says A100-80GB-PCIE, 80 GB.
    # The store holds the NC24ads (in eastus): its facts there are what both regions are held against; the NC48ads,
    # which it does not hold, is held against the packaged snapshot and the size table
    nc48 = "Standard_NC48ads_A100_v4"
    earlier = {"eastus": (_facts([("eastus", NC24, "A100-80GB-PCIE", 1.0, 80.0)]), "snapshot #2"),
               "westus2": (_facts([("westus2", NC24, "A100-80GB-PCIE", 1.0, 80.0),
                                   ("westus2", nc48, "A100-80GB-PCIE", 2.0, 80.0)]), "the packaged snapshot")}
    fetched = _facts([("eastus", NC24, "H100-NVL", 1.0, 94.0), ("westus2", NC24, "H100-NVL", 1.0, 94.0),
                      ("westus2", nc48, "H100-NVL", 2.0, 94.0)])
    found = hardware_changes(earlier, "azure", fetched, "Azure Retail Prices API + " + ARM)
    assert [c.describe() for c in found] == [
        f"azure {NC24} in eastus, westus2: gpu 'A100-80GB-PCIE' → 'H100-NVL' ('A100-80GB-PCIE' in snapshot #2; "
        f"'H100-NVL' in this refresh, from {ARM})",
        f"azure {NC24} in eastus, westus2: gpu_memory_gb 80 GB → 94 GB (80 GB in snapshot #2; 94 GB in this refresh, "
        f"from {ARM})",
        f"azure {nc48} in westus2: gpu 'A100-80GB-PCIE' → 'H100-NVL' ('A100-80GB-PCIE' in the packaged snapshot and "
        f"the packaged size table; 'H100-NVL' in this refresh, from {ARM})",
        f"azure {nc48} in westus2: gpu_memory_gb 80 GB → 94 GB (80 GB in the packaged snapshot and the packaged size "
        f"table; 94 GB in this refresh, from {ARM})"]


def test_a_count_accepted_in_one_region_is_what_a_refresh_of_another_is_held_against():
    # the store holds the NC24ads A100 v4 in eastus only, at 8 GPUs (snapshot #2, accepted); a refresh of westus2,
    # which the store does not hold, saying 8 too is no change, though the packaged snapshot there and the size table
    # say 1 (only said: the store's 8 contradicts the size table); saying 64 is, against snapshot #2
    stored = {"eastus": (_facts([("eastus", NC24, "A100-80GB-PCIE", 8.0, 80.0)]), "snapshot #2")}
    earlier = {"westus2": (_facts([("westus2", NC24, "A100-80GB-PCIE", 1.0, 80.0)]), "the packaged snapshot")}
    assert hardware_changes(earlier, "azure", _facts([("westus2", NC24, "A100-80GB-PCIE", 8.0, 80.0)]), ARM, stored) == [
        HardwareChange("azure", NC24, "gpu_count", 8.0, ("snapshot #2",), 8.0, ARM, ("westus2",), CONTRADICTED,
                       SIZE_TABLE, 1.0)]
    found = hardware_changes(earlier, "azure", _facts([("westus2", NC24, "A100-80GB-PCIE", 64.0, 80.0)]), ARM, stored)
    assert found == [HardwareChange("azure", NC24, "gpu_count", 8.0, ("snapshot #2",), 64.0, ARM, ("westus2",))]


def test_a_fact_unknown_on_either_side_or_the_same_to_a_part_in_a_million_is_no_change():
    earlier = {"eastus": (_facts([("eastus", NC24, "A100-80GB-PCIE", 1.0, 80.0),
                                  ("eastus", "Standard_NV6ads_A10_v5", "A10", 0.167, 4.0)]), "snapshot #1")}
    fetched = _facts([
        ("eastus", NC24, "A100-80GB-PCIE", math.nan, 80.0),                    # count unknown now: never planned on
        ("eastus", "Standard_NV6ads_A10_v5", "A10", 1 / 6, 4.0),              # the table's 0.16666666666666666
        ("eastus", "Standard_NC128ds_xl_RTXPRO6000BSE_v6", "RTX-PRO-6000-SE", 2.0, 96.0)])   # the table: unknown
    found = hardware_changes(earlier, "azure", fetched, ARM)
    # but 1/6 against snapshot #1's rounded 0.167 is a change of 0.2 %: named (to six digits), and taken as the size
    # table's 0.16666666666666666 agrees with it
    assert [(c.sku, c.fact, c.old, c.old_sources, c.kind) for c in found] == [
        ("Standard_NV6ads_A10_v5", "gpu_count", 0.167, ("snapshot #1",), CORRECTED)]
    assert ("gpu_count 0.167 → 0.166667 (0.167 in snapshot #1, which the packaged size table contradicts; 0.166667 in "
            "this refresh") in found[0].describe()


def test_the_recorded_arm_listing_agrees_with_the_packaged_size_table(tmp_path, retail):
    # every GPU size of the recorded eastus and eastus2 ResourceSkus (tests/fixtures/azure): a real listing is no change
    source = AzurePriceSource(http=httpx.Client(), compute_client=FakeComputeClient(), credential=FakeCredential(),
                              subscription_id="00000000-0000-0000-0000-000000000000")
    offers = validate_offers(source.fetch(["eastus", "eastus2"]), check=False)
    assert len(offers) > 10
    assert hardware_changes(earlier_prices(PriceStore(tmp_path / "s.sqlite"), "azure", offers), "azure", offers,
                            source.source) == []


def test_a_message_names_five_changes_then_counts_the_rest():
    changes = [HardwareChange("aws", f"p{n}.48xlarge", "gpu_count", 8.0, ("snapshot #1",), 64.0, AWS_SOURCE, ("us-east-1",))
               for n in range(7)]
    text = hardware_text(changes)
    assert text.count("gpu_count 8 → 64") == 5 and text.endswith("p4.48xlarge in us-east-1: gpu_count 8 → 64 (8 in "
                                                                  f"snapshot #1; 64 in this refresh, from {AWS_SOURCE}); "
                                                                  "and 2 more")


# -- what was accepted is told once it is saved ----------------------------------------------------------------------

def _failing_save(*args, **kwargs):
    raise StoreError("s.sqlite: disk full")


def test_accepted_hardware_and_missing_offers_are_told_only_once_saved(tmp_path, retail, monkeypatch):
    store = PriceStore(tmp_path / "s.sqlite")
    monkeypatch.setattr(store, "save", _failing_save)
    warned = []
    with pytest.raises(StoreError, match="disk full"):
        refresh(_azure("8"), ["eastus"], store, accept_missing_offers=True, accept_hardware_changes=True,
                warn=warned.append)
    assert warned == []   # nothing was saved: nothing was let through
    monkeypatch.undo()
    assert refresh(_azure("8"), ["eastus"], store, accept_missing_offers=True, accept_hardware_changes=True,
                   warn=warned.append).id == 1
    assert [w.split(":")[0] for w in warned] == ["missing offers accepted (--accept-missing-offers)",
                                                 "hardware changes accepted (--accept-hardware-changes)"]
    # a first refresh: held against the packaged snapshot of eastus and the size table, which both say 1
    assert warned[1].endswith(f"gpu_count 1 → 8 (1 in the packaged snapshot and the packaged size table; 8 in this "
                              f"refresh, from {ARM})")
