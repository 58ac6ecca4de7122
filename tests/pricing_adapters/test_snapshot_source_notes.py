"""Snapshot rows whose price is not what it looks like say so in their note (data-provenance audit 2026-12-07).

Facts from the public reference data's README (../shared/reference, not read here):
- §2: the us-west-2 g4dn.xlarge on-demand price 0.526 comes from a SkyPilot row in the Local Zone usw2-lax1-az1
  (AWS names the zone us-west-2-lax-1, Los Angeles); the reference has no regional us-west-2 price for it.
- §5: SkyPilot v6 gives Standard_NCC40ads_H100_v5 in eastus2 on-demand 6.98 beside its spot 1.745; the Retail
  Prices API (2026-06-18) gives on-demand 8.82, so 1.745 against 8.82 looks like an 80 % saving where the
  quote's own source put it at 75 %. NG8ads_V620_v1 eastus2 is the other way round: SkyPilot 0.908, Retail 0.635.
The Azure rows added below are copied verbatim from the reference CSVs.
"""

import importlib.util
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pricing_adapters.snapshot import read_offers_csv

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "reference"
PACKAGED = REPO / "pricing_adapters" / "snapshots"

SIZES = [
    'Standard_NCC40ads_H100_v5,StandardNCCads2023Family,H100,NVIDIA,,40,320,az-known_skus;az-pricing;sky-v6;'
    'sky-fetch_azure-upstream,"accelerator_name from upstream SkyPilot family map (StandardNCCads2023Family), as '
    'quoted in REPORT.md | accelerator_count not in local data (likely 1; unverified here) | SkyPilot v6 row has no '
    'AcceleratorName (family unmapped there)"',
    "Standard_NG8ads_V620_v1,StandardNGADSV620v1Family,V620,AMD,,8,16,az-known_skus;az-pricing;sky-v6,"
    "accelerator_name: token from size name 'V620' (AMD Radeon PRO V620) | accelerator_count not in local data | "
    "SkyPilot v6 row has no AcceleratorName (family unmapped there)",
]
KARPENTER = ("Azure/karpenter-provider-azure@2b431da1:pkg/providers/pricing/zz_generated.pricing.go"
             " (generated 2026-06-18T03:43:41Z)")
SKYPILOT = "skypilot-org/skypilot-catalog@098741e7:catalogs/v6/azure/vms.csv (verbatim rows; commit date unknown)"
ON_DEMAND = [f"azure,eastus2,Standard_NCC40ads_H100_v5,8.82,2026-06-18,{KARPENTER},",
             f"azure,eastus2,Standard_NG8ads_V620_v1,0.635,2026-06-18,{KARPENTER},"]
SPOT = [f"eastus2,Standard_NCC40ads_H100_v5,1.745,6.98,false,{SKYPILOT}",
        f"eastus2,Standard_NG8ads_V620_v1,0.227,0.908,false,{SKYPILOT}"]


def _builder():
    spec = importlib.util.spec_from_file_location("build_snapshot", REPO / "scripts" / "build_snapshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _append(path: Path, lines: list[str]) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> pd.DataFrame:
    reference = tmp_path_factory.mktemp("reference")
    shutil.copytree(FIXTURE, reference, dirs_exist_ok=True)
    _append(reference / "azure_gpu_vm_sizes.csv", SIZES)
    _append(reference / "azure_ondemand_linux_prices.csv", ON_DEMAND)
    _append(reference / "azure_spot_prices_sample.csv", SPOT)
    out = tmp_path_factory.mktemp("snapshot")
    _builder().build_snapshot(reference, out)
    return pd.concat([read_offers_csv(out / "aws.csv"), read_offers_csv(out / "azure.csv")],
                     ignore_index=True).set_index("offer_id")


def test_the_us_west_2_g4dn_on_demand_price_is_kept_and_said_to_be_the_los_angeles_local_zone_s(built):
    row = built.loc["aws:us-west-2:g4dn.xlarge:on_demand"]
    assert row.hourly_price == 0.526
    assert row.note == ("Local Zone price: SkyPilot's row for usw2-lax1-az1 (Los Angeles), not a us-west-2 regional "
                        "price (no regional price in the source data)")


def test_a_skypilot_on_demand_price_of_a_regional_zone_or_of_no_listed_zone_has_no_local_zone_note(built):
    # p4d us-east-2 (SkyPilot, no zone row in the fixture's spot sample); g5 eu-west-1 likewise
    assert "Local Zone" not in built.loc["aws:us-east-2:p4d.24xlarge:on_demand"].note
    assert "Local Zone" not in built.loc["aws:eu-west-1:g5.xlarge:on_demand"].note


def test_a_spot_row_whose_source_gave_a_lower_on_demand_says_the_saving_is_overstated(built):
    row = built.loc["azure:eastus2:Standard_NCC40ads_H100_v5:spot"]
    assert row.hourly_price == 1.745
    assert built.loc["azure:eastus2:Standard_NCC40ads_H100_v5:on_demand"].hourly_price == 8.82
    assert row.note.endswith("spot time unknown | the spot quote's source gave on-demand 6.98, not this snapshot's 8.82: "
                             "the spot saving against this snapshot's on-demand price is overstated")


def test_a_spot_row_whose_source_gave_a_higher_on_demand_says_the_saving_is_understated(built):
    note = built.loc["azure:eastus2:Standard_NG8ads_V620_v1:spot"].note
    assert note.endswith("the spot quote's source gave on-demand 0.908, not this snapshot's 0.635: "
                         "the spot saving against this snapshot's on-demand price is understated")


def test_spot_rows_whose_source_on_demand_matches_carry_no_such_note(built):
    # NC24ads_A100_v4 eastus: SkyPilot 3.673 = Retail 3.673; p4d us-east-1: 21.957642 both
    for oid in ["azure:eastus:Standard_NC24ads_A100_v4:spot", "aws:us-east-1:p4d.24xlarge:spot",
                "aws:us-east-1:p5.48xlarge:spot"]:
        assert "source gave on-demand" not in built.loc[oid].note, oid


def test_the_packaged_snapshot_carries_these_notes_on_exactly_the_rows_the_reference_readme_names():
    offers = pd.concat([read_offers_csv(PACKAGED / "aws.csv"), read_offers_csv(PACKAGED / "azure.csv")],
                       ignore_index=True).set_index("offer_id")
    local = offers.index[offers["note"].str.contains("Local Zone price", regex=False)]
    assert list(local) == ["aws:us-west-2:g4dn.xlarge:on_demand"]
    mismatched = offers.index[offers["note"].str.contains("source gave on-demand", regex=False)]
    # reference README §5: NCC40ads_H100_v5 and NG8/16/32ads_V620_v1 in eastus2 differ between SkyPilot and Karpenter
    assert sorted(mismatched) == ["azure:eastus2:Standard_NCC40ads_H100_v5:spot", "azure:eastus2:Standard_NG16ads_V620_v1:spot",
                                  "azure:eastus2:Standard_NG32ads_V620_v1:spot", "azure:eastus2:Standard_NG8ads_V620_v1:spot"]
    assert "gave on-demand 6.98, not this snapshot's 8.82" in offers.loc["azure:eastus2:Standard_NCC40ads_H100_v5:spot"].note
