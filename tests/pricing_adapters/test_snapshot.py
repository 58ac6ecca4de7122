"""The snapshot builder (on a fixture subset of the reference data) and the packaged snapshot.

Expected numbers are read off the reference CSVs by hand (see tests/fixtures/reference/SOURCE.md).
"""

import importlib.util
import json
import math
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pricing_adapters.retired import is_retired_azure_size, read_retired_table
from pricing_adapters.snapshot import load_snapshot, read_offers_csv, snapshot_info

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "reference"
SUPPLEMENT = REPO / "pricing_adapters" / "data" / "azure_gpu_counts.csv"
SUPPLEMENT_NOTE = "gpu_count from Azure docs (pricing_adapters/data/azure_gpu_counts.csv)"
PARTITION_NOTE = "GPU partition; fraction unknown"
HEADER = "arm_sku_name,gpu_count,gpu_memory_gb,source,note\n"


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_snapshot", REPO / "scripts" / "build_snapshot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("snapshot")
    manifest = _load_builder().build_snapshot(FIXTURE, out)
    offers = pd.concat(
        [read_offers_csv(out / "aws.csv"), read_offers_csv(out / "azure.csv")], ignore_index=True
    ).set_index("offer_id", drop=False)
    return out, manifest, offers


def _row(offers, oid):
    return offers.loc[oid]


# ---------------------------------------------------------------- builder on the fixture subset

def test_row_counts_per_provider_and_option(built):
    _, manifest, offers = built
    counts = offers.groupby(["provider", "purchase_option"]).size().to_dict()
    # 14 + 11 on-demand price rows; spot: 3 AWS region+type groups keep a usable quote, 5 of 7 Azure rows
    assert counts == {("aws", "on_demand"): 14, ("aws", "spot"): 3, ("azure", "on_demand"): 11, ("azure", "spot"): 5}
    assert manifest["files"]["aws.csv"]["rows"] == 17
    assert manifest["files"]["azure.csv"]["rows"] == 16


def test_p4d_us_east_1_is_21_957642_usd_per_hour_with_8_a100_40gb(built):
    r = _row(built[2], "aws:us-east-1:p4d.24xlarge:on_demand")
    assert r.hourly_price == 21.957642
    assert (r.gpu, r.gpu_count, r.gpu_memory_gb) == ("A100-40GB-SXM", 8, 40)
    assert (r.vcpus, r.memory_gb, r.accelerator_name) == (96, 1152, "A100")
    assert (r.currency, r.term_months, r.upfront_price, r.zone) == ("USD", 0, 0, "")


def test_p4de_reports_a100_but_is_the_80gb_board(built):
    r = _row(built[2], "aws:us-east-1:p4de.24xlarge:on_demand")
    assert (r.gpu, r.accelerator_name, r.gpu_memory_gb, r.hourly_price) == ("A100-80GB-SXM", "A100", 80, 27.44705)


def test_aws_as_of_is_kept_per_source(built):
    offers = built[2]
    assert _row(offers, "aws:us-east-1:p5.48xlarge:on_demand").as_of == "2026-07-20"        # Karpenter
    assert _row(offers, "aws:us-gov-west-1:p4d.24xlarge:on_demand").as_of == "2026-07-20"   # GovCloud file
    assert _row(offers, "aws:us-west-2:dl1.24xlarge:on_demand").as_of == "2024-04-04"       # ec2i-2024
    assert _row(offers, "aws:us-east-2:p4d.24xlarge:on_demand").as_of == ""                 # SkyPilot
    assert _row(offers, "aws:us-west-2:dl1.24xlarge:on_demand").source.startswith("vantage-sh/ec2instances.info")


def test_aws_spot_is_the_lowest_real_non_local_zone_per_region(built):
    offers = built[2]
    p5 = _row(offers, "aws:us-east-1:p5.48xlarge:spot")
    # use1-az1/az4 equal on-demand (55.04), use1-atl2-az1 is a Local Zone (10.2397);
    # of az2 19.2531, az3 21.1543, az5 25.7522, az6 17.6289 the lowest is az6.
    assert (p5.hourly_price, p5.zone, p5.as_of) == (17.6289, "use1-az6", "")
    p4d = _row(offers, "aws:us-east-1:p4d.24xlarge:spot")
    assert (p4d.hourly_price, p4d.zone) == (2.4655, "use1-az1")
    assert p4d.source.startswith("skypilot-org/skypilot-catalog@00148f2a")


def test_aws_spot_without_a_usable_quote_gives_no_row(built):
    spot = set(built[2].query("provider == 'aws' and purchase_option == 'spot'").offer_id)
    # p4d ap-northeast-1: its only quote equals on-demand; g4dn us-west-2: its only quote is a Local Zone
    assert spot == {"aws:us-east-1:p5.48xlarge:spot", "aws:us-east-1:p4d.24xlarge:spot",
                    "aws:us-east-1:g4dn.xlarge:spot"}


def test_aws_gaps_are_flagged_and_fractions_kept(built):
    offers = built[2]
    dl1 = _row(offers, "aws:us-east-1:dl1.24xlarge:on_demand")
    assert dl1.gpu == "GAUDI-HL-205" and math.isnan(dl1.gpu_count) and "gpu_count unknown" in dl1.note
    g6f = _row(offers, "aws:us-east-1:g6f.large:on_demand")
    # an eighth of a 24 GB L4 (nominal), the API's 2861 MiB slice kept beside it
    assert (g6f.gpu, g6f.gpu_count, g6f.gpu_memory_gb, g6f.gpu_memory_mib, g6f.hourly_price) == ("L4", 0.125, 3.0, 2861, 0.202)
    g5 = _row(offers, "aws:us-east-1:g5.xlarge:on_demand")
    # trap 1: the API's 22888 MiB A10G is sold as 24 GB; nominal GB in gpu_memory_gb, the MiB beside it
    assert (g5.gpu_memory_gb, g5.gpu_memory_mib) == (24, 22888)


def test_nc24ads_a100_v4_eastus_is_3_673_with_one_a100_80gb_pcie(built):
    r = _row(built[2], "azure:eastus:Standard_NC24ads_A100_v4:on_demand")
    assert (r.hourly_price, r.gpu, r.gpu_count, r.gpu_memory_gb) == (3.673, "A100-80GB-PCIE", 1, 80)
    assert (r.accelerator_name, r.as_of) == ("StandardNCADSA100v4Family", "2026-06-18")


def test_nd96asr_v4_eastus_is_27_197_with_8_a100_40gb(built):
    r = _row(built[2], "azure:eastus:Standard_ND96asr_v4:on_demand")
    assert (r.hourly_price, r.gpu, r.gpu_count, r.gpu_memory_gb) == (27.197, "A100-40GB-SXM", 8, 40)
    assert r.accelerator_name == "Standard NDASv4_A100 Family"   # family verbatim, spaces and all


def test_nd96asr_a100_v4_without_family_takes_its_count_from_the_azure_docs_supplement(built):
    r = _row(built[2], "azure:eastus:Standard_ND96asr_A100_v4:on_demand")
    assert (r.hourly_price, r.gpu, r.gpu_known, r.gpu_count, r.gpu_memory_gb) == (27.197, "A100-40GB-SXM", True, 8, 40)
    assert SUPPLEMENT_NOTE in r.note and "gpu_count unknown" not in r.note


def test_blank_count_outside_the_supplement_stays_unknown(built):
    r = _row(built[2], "azure:eastus2:Standard_NG32adms_V620_v1:on_demand")   # partition series: left out
    assert math.isnan(r.gpu_count) and "gpu_count unknown" in r.note and SUPPLEMENT_NOTE not in r.note
    assert PARTITION_NOTE in r.note and math.isnan(r.gpu_memory_gb)   # not the whole V620's 32 GB


def test_partition_size_without_supplement_row_has_unknown_count_and_memory():
    builder = _load_builder()
    sizes = builder._read(FIXTURE / "azure_gpu_vm_sizes.csv")
    facts = builder.azure_size_facts(sizes, builder.read_azure_gpu_counts(SUPPLEMENT))
    nc8 = facts["Standard_NC8ads_A10_v4"]   # NCads A10 v4: A10 partitions, fraction not established
    assert (nc8["gpu"], nc8["gpu_known"]) == ("A10", True)
    assert math.isnan(nc8["gpu_count"]) and math.isnan(nc8["gpu_memory_gb"])
    assert PARTITION_NOTE in nc8["notes"] and SUPPLEMENT_NOTE not in nc8["notes"]
    nv6 = facts["Standard_NV6ads_A10_v5"]   # not a partition family: a fraction, 6/36 (the reference's 0.167 unrounded)
    assert abs(nv6["gpu_count"] - 1 / 6) <= 1e-12 and nv6["gpu_memory_gb"] == 4 and PARTITION_NOTE not in nv6["notes"]


def test_supplement_never_overrides_a_reference_count_outside_partition_families(tmp_path):
    # The fixture gives ND96asr_v4 8 and ND96isr_H100_v5 8 (SkyPilot's 12 already corrected there); a
    # supplement that disagrees must not win, while it still fills a blank count.
    supplement = tmp_path / "azure_gpu_counts.csv"
    supplement.write_text(
        HEADER +
        "Standard_ND96asr_v4,4,,test,disagrees with the reference\n"
        "Standard_ND96isr_H100_v5,12,,test,disagrees with the reference\n"
        "Standard_ND96asr_A100_v4,8,,test,blank in the reference\n"
    )
    _load_builder().build_snapshot(FIXTURE, tmp_path / "out", supplement)
    offers = read_offers_csv(tmp_path / "out" / "azure.csv").set_index("offer_id")
    for oid in ("azure:eastus:Standard_ND96asr_v4:on_demand", "azure:eastus:Standard_ND96asr_v4:spot",
                "azure:eastus:Standard_ND96isr_H100_v5:on_demand"):
        assert offers.loc[oid, "gpu_count"] == 8 and SUPPLEMENT_NOTE not in offers.loc[oid, "note"]
    assert offers.loc["azure:eastus:Standard_ND96asr_A100_v4:on_demand", "gpu_count"] == 8


def test_empty_supplement_leaves_blank_counts_unknown(tmp_path):
    supplement = tmp_path / "azure_gpu_counts.csv"
    supplement.write_text(HEADER)
    _load_builder().build_snapshot(FIXTURE, tmp_path / "out", supplement)
    r = read_offers_csv(tmp_path / "out" / "azure.csv").set_index("offer_id").loc[
        "azure:eastus:Standard_ND96asr_A100_v4:on_demand"]
    assert math.isnan(r.gpu_count) and "gpu_count unknown" in r.note


@pytest.mark.parametrize("body, problem", [
    ("arm_sku_name,gpu_count,source\nStandard_X,8,s\n", "columns"),
    ("arm_sku_name,gpu_count,source,note\nStandard_X,8,s,\n", "columns"),      # the old layout
    (HEADER + "Standard_X,8,,s,\nStandard_X,8,,s,\n", "duplicate"),
    (HEADER + "Standard_X,1.5,,s,\n", "whole number"),
    (HEADER + "Standard_X,0,,s,\n", "whole number"),
    (HEADER + "Standard_X,,,s,\n", "whole number"),
    (HEADER + "Standard_X,0.5,0,s,\n", "gpu_memory_gb"),
    (HEADER + "Standard_X,0.5,two,s,\n", "gpu_memory_gb"),
    (HEADER + "Standard_X,8,,,\n", "no source"),
])
def test_bad_supplement_is_refused(tmp_path, body, problem):
    supplement = tmp_path / "azure_gpu_counts.csv"
    supplement.write_text(body)
    with pytest.raises(SystemExit, match=problem):
        _load_builder().read_azure_gpu_counts(supplement)


def test_supplement_reads_fractions_and_optional_memory(tmp_path):
    supplement = tmp_path / "azure_gpu_counts.csv"
    supplement.write_text(HEADER + "Standard_P,0.125,2,s,\nStandard_W,8,,s,\n")
    table = _load_builder().read_azure_gpu_counts(supplement)
    assert table["Standard_P"] == {"gpu_count": 0.125, "gpu_memory_gb": 2}
    assert table["Standard_W"]["gpu_count"] == 8 and math.isnan(table["Standard_W"]["gpu_memory_gb"])


def _reference_with_nvv4(tmp_path):
    """The fixture plus NV4as_v4 / NV32as_v4 rows copied verbatim from the reference data."""
    ref = tmp_path / "reference"
    shutil.copytree(FIXTURE, ref)
    source = ('az-known_skus;az-pricing;sky-v6,"count as reported by the API/SkyPilot (1); Azure docs describe NVv4'
              ' sizes as MI25 partitions (NV4as_v4=1/8, NV8as_v4=1/4, NV16as_v4=1/2, NV32as_v4=1) - unverified here"')
    with open(ref / "azure_gpu_vm_sizes.csv", "a") as f:
        f.write(f"Standard_NV4as_v4,standardNVSv4Family,Radeon MI25,AMD,1,4,14,{source}\n")
        f.write(f"Standard_NV32as_v4,standardNVSv4Family,Radeon MI25,AMD,1,32,112,{source}\n")
    price_src = ("Azure/karpenter-provider-azure@2b431da1:pkg/providers/pricing/zz_generated.pricing.go "
                 "(generated 2026-06-18T03:43:41Z)")
    with open(ref / "azure_ondemand_linux_prices.csv", "a") as f:
        f.write(f"azure,eastus,Standard_NV4as_v4,0.233,2026-06-18,{price_src},\n")
        f.write(f"azure,eastus,Standard_NV32as_v4,1.864,2026-06-18,{price_src},\n")
    return ref


def test_partition_supplement_row_replaces_the_reference_count_of_one(tmp_path):
    ref = _reference_with_nvv4(tmp_path)
    builder = _load_builder()
    # without a supplement row, a partition size's count of 1 is not trusted: unknown
    empty = tmp_path / "empty.csv"
    empty.write_text(HEADER)
    builder.build_snapshot(ref, tmp_path / "a", empty, retired=None)   # NVv4 is retired: keep it to test the rule
    r = read_offers_csv(tmp_path / "a" / "azure.csv").set_index("offer_id").loc["azure:eastus:Standard_NV4as_v4:on_demand"]
    assert math.isnan(r.gpu_count) and math.isnan(r.gpu_memory_gb) and PARTITION_NOTE in r.note
    # with the packaged supplement: the Azure docs share and its memory
    builder.build_snapshot(ref, tmp_path / "b", retired=None)
    offers = read_offers_csv(tmp_path / "b" / "azure.csv").set_index("offer_id")
    nv4 = offers.loc["azure:eastus:Standard_NV4as_v4:on_demand"]
    assert (nv4.gpu, nv4.gpu_count, nv4.gpu_memory_gb) == ("MI25", 0.125, 2)
    assert SUPPLEMENT_NOTE in nv4.note and "reference count 1 replaced" in nv4.note and PARTITION_NOTE not in nv4.note
    nv32 = offers.loc["azure:eastus:Standard_NV32as_v4:on_demand"]
    assert (nv32.gpu_count, nv32.gpu_memory_gb) == (1, 16) and "reference count 1 matches" in nv32.note


def test_nv6ads_a10_v5_is_a_sixth_of_an_a10(built):
    # fixture reference row: count 0.167 (rounded), 6 vCPUs; eastus on-demand 0.454 USD/h.
    # By hand: 6 / 36 = 1/6 of an A10, 24 GB / 6 = 4 GB, one A10-hour 0.454 x 6 = 2.724 (not 0.454 / 0.167 = 2.7186)
    r = _row(built[2], "azure:eastus:Standard_NV6ads_A10_v5:on_demand")
    assert (r.gpu, r.gpu_memory_gb, r.hourly_price) == ("A10", 4, 0.454)
    assert abs(r.gpu_count - 1 / 6) <= 1e-12
    assert abs(r.hourly_price / r.gpu_count - 2.724) <= 1e-9
    assert r.note == "fractional GPU: 1/6 of one per unit | fractional A10: vCPUs/36 = 6/36 (the reference's 0.167 is rounded)"


def _a10_v5_sizes(counts: dict[str, str]) -> pd.DataFrame:
    """azure_gpu_vm_sizes.csv rows of NV*ads_A10_v5 sizes in the reference's shape, with the given counts."""
    rows = [{"arm_sku_name": f"Standard_NV{v}ads_A10_v5", "family": "StandardNVADSA10v5Family", "accelerator_name": "A10",
             "accelerator_manufacturer": "NVIDIA", "accelerator_count": c, "vcpus": v, "memory_gib": "",
             "source": "test", "note": ""} for v, c in counts.items()]
    return pd.DataFrame(rows, dtype=str)


def test_fractional_a10_counts_from_the_reference_are_made_exact():
    # the reference's counts (0.167, 0.333 rounded to 3 decimals; 0.5, 1, 2) -> 6/36, 12/36, 18/36, 36/36, 72/36
    facts = _load_builder().azure_size_facts(_a10_v5_sizes({"6": "0.167", "12": "0.333", "18": "0.5", "36": "1",
                                                            "72": "2"}))
    expected = {6: (1 / 6, 4, "1/6"), 12: (1 / 3, 8, "1/3"), 18: (1 / 2, 12, "1/2"), 36: (1, 24, None), 72: (2, 24, None)}
    for vcpus, (share, memory, label) in expected.items():
        f = facts[f"Standard_NV{vcpus}ads_A10_v5"]
        assert abs(f["gpu_count"] - share) <= 1e-12 and f["gpu_memory_gb"] == memory, vcpus
        if label is None:
            assert f["notes"] == [], vcpus
        else:
            assert f["notes"][0] == f"fractional GPU: {label} of one per unit", vcpus
            assert f"fractional A10: vCPUs/36 = {vcpus}/36" in f["notes"][1]
    assert "the reference's 0.167 is rounded" in facts["Standard_NV6ads_A10_v5"]["notes"][1]
    assert facts["Standard_NV18ads_A10_v5"]["notes"][1].endswith("(as the reference)")


def test_fractional_a10_reference_count_that_is_not_vcpus_over_36_is_kept_with_a_warning(capsys):
    facts = _load_builder().azure_size_facts(_a10_v5_sizes({"6": "0.25", "12": "0.3333"}))
    assert facts["Standard_NV6ads_A10_v5"]["gpu_count"] == 0.25          # 6/36 is 0.1667: not a rounding of it
    assert facts["Standard_NV6ads_A10_v5"]["notes"] == ["fractional GPU: 0.25 of one per unit"]
    assert "Standard_NV6ads_A10_v5: reference count 0.25 kept; vCPUs/36 = 6/36 is 0.166667" in capsys.readouterr().err
    assert abs(facts["Standard_NV12ads_A10_v5"]["gpu_count"] - 1 / 3) <= 1e-12   # 0.3333 is 1/3 to 3 decimals


def test_other_fractional_counts_keep_their_notes(built):
    # the exact-fraction rule is the A10 v5 family's: AWS g6f stays as the reference has it
    r = _row(built[2], "aws:us-east-1:g6f.large:on_demand")
    assert (r.gpu_count, r.gpu_memory_gb) == (0.125, 3) and "fractional GPU: 0.125 of one per unit" in r.note


def test_unknown_azure_accelerator_is_flagged_not_dropped(built):
    r = _row(built[2], "azure:eastus:Standard_ND40s_v2:on_demand")
    assert (r.gpu_known, r.gpu, r.hourly_price) == (False, "Standard_ND40s_v2", 12.24)
    assert "unknown accelerator" in r.note
    assert list(built[2].query("not gpu_known").sku.unique()) == ["Standard_ND40s_v2"]


def test_azure_spot_drops_quotes_equal_to_on_demand(built):
    offers = built[2]
    assert "azure:eastus:Standard_NC40ads_H100_v5:spot" not in offers.index   # 6.98 == 6.98
    assert "azure:eastus:Standard_ND96isr_H100_v5:spot" not in offers.index   # 98.32 == 98.32
    r = _row(offers, "azure:eastus:Standard_NC24ads_A100_v4:spot")
    assert (r.hourly_price, r.gpu, r.as_of) == (0.444433, "A100-80GB-PCIE", "")


def test_azure_pricing_key_note_is_carried(built):
    r = _row(built[2], "azure:eastus2:Standard_NG32adms_V620_v1:on_demand")
    assert (r.gpu, r.hourly_price) == ("V620", 3.302)
    assert "Standard_NG32adms_V620'" in r.note


def test_offer_ids_are_unique(built):
    assert built[2].offer_id.is_unique


def test_manifest_states_the_as_of_range(built):
    out, manifest, _ = built
    assert json.loads((out / "manifest.json").read_text()) == manifest
    aws = manifest["files"]["aws.csv"]
    assert (aws["as_of_min"], aws["as_of_max"]) == ("2024-04-04", "2026-07-20")
    azure = manifest["files"]["azure.csv"]
    assert (azure["as_of_min"], azure["as_of_max"]) == ("2026-06-18", "2026-06-18")


def test_rebuild_gives_identical_bytes(built, tmp_path):
    out = built[0]
    _load_builder().build_snapshot(FIXTURE, tmp_path)
    for name in ("aws.csv", "azure.csv"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes()
    _load_builder().build_snapshot(FIXTURE, tmp_path)  # same content: built_at kept, manifest unchanged
    before = (tmp_path / "manifest.json").read_bytes()
    _load_builder().build_snapshot(FIXTURE, tmp_path)
    assert (tmp_path / "manifest.json").read_bytes() == before


def test_built_at_moves_when_a_table_changes_though_the_manifest_would_not(built, tmp_path):
    builder = _load_builder()
    builder.build_snapshot(FIXTURE, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    manifest["built_at"] = "2000-01-01"   # as if built long ago
    (tmp_path / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    assert builder.build_snapshot(FIXTURE, tmp_path)["built_at"] == "2000-01-01"   # nothing changed: kept
    # a table that differs only in values the manifest does not count (here the old rounded A10 count)
    old = (tmp_path / "azure.csv").read_text(encoding="utf-8").replace("0.16666666666666666,", "0.167,")
    assert old != (tmp_path / "azure.csv").read_text(encoding="utf-8")
    (tmp_path / "azure.csv").write_text(old, encoding="utf-8")
    assert builder.build_snapshot(FIXTURE, tmp_path)["built_at"] != "2000-01-01"   # rebuilt content: dated now
    assert (tmp_path / "azure.csv").read_bytes() == (built[0] / "azure.csv").read_bytes()


def test_builder_main_takes_reference_and_out_dirs(tmp_path):
    assert _load_builder().main(["--reference", str(FIXTURE), "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["aws.csv", "azure.csv", "manifest.json"]


# ---------------------------------------------------------------- the Azure GPU count supplement

def test_supplement_rows_are_sourced_to_azure_docs_and_leave_out_unknown_partitions():
    table = pd.read_csv(SUPPLEMENT, dtype=str, keep_default_na=False)
    assert list(table.columns) == ["arm_sku_name", "gpu_count", "gpu_memory_gb", "source", "note"]
    assert table.arm_sku_name.is_unique and len(table) == 18
    assert table.source.str.startswith("Azure docs: ").all()
    assert table.source.str.contains("learn.microsoft.com/azure/virtual-machines/").all()
    nvv4 = table.arm_sku_name.str.fullmatch(r"Standard_NV\d+as_v4")
    assert nvv4.sum() == 4
    assert table[~nvv4].note.str.startswith("count not in the reference data; taken from Azure docs").all()
    assert (table[~nvv4].gpu_memory_gb == "").all()
    assert table[nvv4].source.str.contains("NVv4 series").all()
    assert table[nvv4].source.str.contains("sizes/gpu-accelerated/nvv4-series", regex=False).all()
    assert table[nvv4].note.str.contains("overrides the reference count of 1").all()
    assert table[nvv4].note.str.contains("reference itself notes").all()
    # partition sizes whose fraction is not established, and RTX PRO 6000 BSE sizes: never in the table
    assert not table.arm_sku_name.str.contains("A10_v4|V620|V710|RTXPRO6000BSE").any()
    counts = dict(zip(table.arm_sku_name, table.gpu_count.astype(float)))
    assert counts["Standard_ND96isr_MI300X_v5"] == 8 and counts["Standard_ND128isrf_NDR_GB200_v6"] == 4
    assert counts["Standard_NCC40ads_H100_v5"] == 1
    assert [counts[f"Standard_NV{n}s_v2"] for n in (6, 12, 24)] == [1, 2, 4]
    memory = dict(zip(table.arm_sku_name, table.gpu_memory_gb))
    assert [(counts[f"Standard_NV{n}as_v4"], float(memory[f"Standard_NV{n}as_v4"])) for n in (4, 8, 16, 32)] == [
        (0.125, 2), (0.25, 4), (0.5, 8), (1, 16)]


# ---------------------------------------------------------------- the packaged snapshot

def test_packaged_snapshot_loads_and_validates():
    offers = load_snapshot()
    assert set(offers.provider) == {"aws", "azure"}
    assert offers.offer_id.is_unique
    assert set(load_snapshot(["azure"]).provider) == {"azure"}


def test_packaged_snapshot_rejects_unknown_provider():
    with pytest.raises(ValueError, match="gcp"):
        load_snapshot(["gcp"])


def test_packaged_snapshot_holds_the_reference_prices():
    offers = load_snapshot().set_index("offer_id")
    assert offers.loc["aws:us-east-1:p4d.24xlarge:on_demand", "hourly_price"] == 21.957642
    assert offers.loc["aws:us-east-1:p5.48xlarge:spot", "hourly_price"] == 17.6289
    assert offers.loc["azure:eastus:Standard_ND96asr_v4:on_demand", "hourly_price"] == 27.197
    assert not offers.query("not gpu_known").note.str.contains("unknown accelerator").eq(False).any()


def test_packaged_nd96ams_a100_v4_has_8_a100_80gb_from_the_supplement():
    r = load_snapshot(["azure"]).set_index("offer_id").loc["azure:eastus:Standard_ND96ams_A100_v4:on_demand"]
    assert (r.gpu, r.gpu_count, r.gpu_memory_gb) == ("A100-80GB-SXM", 8, 80)
    assert SUPPLEMENT_NOTE in r.note and "gpu_count unknown" not in r.note


def test_packaged_partition_size_keeps_an_unknown_count():
    rows = load_snapshot(["azure"]).query("sku == 'Standard_NC8ads_A10_v4'")
    assert len(rows) and rows.gpu_count.isna().all() and rows.gpu_memory_gb.isna().all()
    assert rows.note.str.contains("gpu_count unknown").all()
    assert rows.note.str.contains(PARTITION_NOTE, regex=False).all()
    assert not rows.note.str.contains(SUPPLEMENT_NOTE, regex=False).any()


def test_retired_nvv4_is_dropped_by_default_and_listed_in_the_manifest(tmp_path):
    ref = _reference_with_nvv4(tmp_path)
    manifest = _load_builder().build_snapshot(ref, tmp_path / "c")
    offers = read_offers_csv(tmp_path / "c" / "azure.csv")
    assert not offers.sku.str.fullmatch(r"Standard_NV\d+as_v4").any()
    dropped = {r["sku"]: r for r in manifest["retired_sizes_dropped"]}
    assert dropped["Standard_NV4as_v4"]["rows_dropped"] == 1 and dropped["Standard_NV32as_v4"]["rows_dropped"] == 1
    assert dropped["Standard_NV4as_v4"]["retired_on"] == "2026-09-30" and "NVv4" in dropped["Standard_NV4as_v4"]["source"]


def test_packaged_nv6ads_a10_v5_is_still_a_sixth_of_an_a10():
    r = load_snapshot(["azure"]).set_index("offer_id").loc["azure:eastus:Standard_NV6ads_A10_v5:on_demand"]
    assert (r.gpu, r.gpu_memory_gb) == ("A10", 4)
    assert abs(r.gpu_count - 1 / 6) <= 1e-12


def test_packaged_fractional_a10_counts_are_exact_in_every_row():
    # NV6/12/18ads_A10_v5 = 1/6, 1/3, 1/2 of an A10 (6, 12, 18 of its 36 vCPUs) in all 36 regions, never 0.167 / 0.333
    azure = load_snapshot(["azure"])
    shares = {"Standard_NV6ads_A10_v5": 1 / 6, "Standard_NV12ads_A10_v5": 1 / 3, "Standard_NV18ads_A10_v5": 1 / 2,
              "Standard_NV36ads_A10_v5": 1, "Standard_NV36adms_A10_v5": 1, "Standard_NV72ads_A10_v5": 2}
    a10 = azure[azure.sku.isin(list(shares))]
    assert len(a10) and set(a10.sku) == set(shares)
    assert ((a10.gpu_count - a10.sku.map(shares)).abs() <= 1e-12).all()
    assert (a10.gpu == "A10").all()
    fractional = a10[a10.gpu_count < 1]
    assert len(fractional) == 3 * 36
    assert fractional.note.str.contains(r"fractional GPU: 1/[236] of one per unit", regex=True).all()


def test_packaged_fractional_a10_per_gpu_price_through_the_planner():
    # the planner's per-GPU price (usd_per_hour / gpu_count) of the eastus A10 v5 slices, by hand from the
    # snapshot's hourly prices: NV6ads 0.454 x 6 = 2.724, NV12ads 0.908 x 3 = 2.724, NV18ads 1.6 x 2 = 3.2
    from planner.engine.offer_costs import offers_in_usd

    azure = load_snapshot(["azure"])
    rows = azure[(azure.region == "eastus") & (azure.purchase_option == "on_demand")
                 & azure.sku.isin(["Standard_NV6ads_A10_v5", "Standard_NV12ads_A10_v5", "Standard_NV18ads_A10_v5"])]
    priced = offers_in_usd(rows, pd.DataFrame(), {}, 0.0, 1.0).set_index("sku")
    assert priced.hourly_price.to_dict() == {"Standard_NV12ads_A10_v5": 0.908, "Standard_NV18ads_A10_v5": 1.6,
                                             "Standard_NV6ads_A10_v5": 0.454}
    per_gpu = priced.usd_per_gpu_hour
    assert abs(per_gpu["Standard_NV6ads_A10_v5"] - 2.724) <= 1e-9      # was 0.454 / 0.167 = 2.7186
    assert abs(per_gpu["Standard_NV12ads_A10_v5"] - 2.724) <= 1e-9     # was 0.908 / 0.333 = 2.7267
    assert abs(per_gpu["Standard_NV18ads_A10_v5"] - 3.2) <= 1e-9


def test_packaged_partition_sizes_are_fractions_or_unknown():
    # every size of a partition family either has a sourced Azure docs share or an unknown count:
    # none keeps the reference's whole-GPU count of 1 with the whole card's memory
    from pricing_adapters.gpu_names import azure_is_partition_family
    offers = load_snapshot(["azure"])
    part = offers[offers.accelerator_name.map(azure_is_partition_family)]
    # NVv4 (the one partition family with a sourced share) is retired and dropped (2026-09-30)
    assert set(part.sku.str.extract(r"(A10_v4|V620|V710|as_v4)")[0]) == {"A10_v4", "V620", "V710"}
    assert part.gpu_count.isna().all()
    assert part.note.str.contains(PARTITION_NOTE, regex=False).all()


def test_packaged_snapshot_applies_every_supplement_count_with_its_note():
    offers = load_snapshot(["azure"])
    table = pd.read_csv(SUPPLEMENT, dtype=str, keep_default_na=False)
    table = table[~table.arm_sku_name.map(is_retired_azure_size)]   # retired sizes are not in the snapshot
    noted = offers[offers.note.str.contains(SUPPLEMENT_NOTE, regex=False)]
    assert set(noted.sku) == set(table.arm_sku_name)           # every live size is priced, so every one is filled
    for sku, count in zip(table.arm_sku_name, table.gpu_count.astype(float)):
        rows = offers[offers.sku == sku]
        assert (rows.gpu_count == count).all(), sku
        assert not rows.note.str.contains("gpu_count unknown").any(), sku


def test_snapshot_info_matches_the_files():
    info = snapshot_info()
    assert (info["providers"]["aws"]["as_of_min"], info["providers"]["aws"]["as_of_max"]) == ("2024-04-04", "2026-07-20")
    assert info["providers"]["azure"]["as_of_max"] == "2026-06-18"
    for provider in ("aws", "azure"):
        assert info["providers"][provider]["rows"] == len(load_snapshot([provider]))


# ------------------------------------------------------------------ retired sizes, dates, commitments

def test_manifest_lists_every_retired_size_with_its_notice_and_none_is_in_the_snapshot():
    info = snapshot_info()
    listed = {r["sku"]: r for r in info["retired_sizes_dropped"]}
    table = read_retired_table()
    assert set(listed) == set(table.arm_sku_name)
    # the K80 NC sizes the issue names, with Azure's notice (retired 6 September 2023)
    for sku in ("Standard_NC6", "Standard_NC12", "Standard_NC24", "Standard_NC24r", "Standard_NC6_Promo"):
        assert listed[sku]["retired_on"] == "2023-09-06" and "nc-series-retirement.md" in listed[sku]["source"]
    assert listed["Standard_NC6s_v3"]["retired_on"] == "2025-09-30"
    # rows were really dropped: the reference quotes NC6_Promo in 9 regions and NC6s_v3 in 30 offers
    assert listed["Standard_NC6_Promo"]["rows_dropped"] == 9 and listed["Standard_NC6s_v3"]["rows_dropped"] == 30
    azure = load_snapshot(["azure"])
    assert not azure.sku.map(is_retired_azure_size).any()
    assert not azure.sku.str.fullmatch(r"Standard_(NC|NV)\d+r?(_Promo)?").any()    # no K80 / M60 v1 size at all


def test_retired_table_rows_have_an_iso_date_and_a_source(tmp_path):
    bad = tmp_path / "retired.csv"
    bad.write_text("arm_sku_name,series,gpu,retired_on,source\nStandard_X,NC,K80,6 Sept 2023,notice\n")
    with pytest.raises(ValueError, match="ISO retired_on"):
        read_retired_table(bad)


def test_spot_rows_stay_undated_and_are_counted():
    info = snapshot_info()["providers"]
    for provider in ("aws", "azure"):
        offers = load_snapshot([provider])
        undated = offers[offers.as_of == ""]
        assert info[provider]["rows_without_as_of"] == len(undated)
        assert info[provider]["rows_without_as_of_by_purchase_option"]["spot"] == (offers.purchase_option == "spot").sum()
    # AWS: the 10 SkyPilot on-demand rows of regions without a Karpenter file are undated too
    assert info["aws"]["rows_without_as_of_by_purchase_option"]["on_demand"] == 10


COMMITMENT_HEADER = "provider,region,sku,purchase_option,hourly_price,upfront_price,term_months,offer_suffix,as_of,source,note\n"


def test_commitment_rows_need_a_date_a_source_and_a_matching_term(tmp_path):
    builder = _load_builder()
    undated = tmp_path / "c1.csv"
    undated.write_text(COMMITMENT_HEADER + "aws,us-east-1,p4d.24xlarge,reserved_1y,13.0,0,12,,,somewhere,\n")
    with pytest.raises(SystemExit, match="ISO as_of"):
        builder.read_commitments(undated)
    term = tmp_path / "c2.csv"
    term.write_text(COMMITMENT_HEADER + "aws,us-east-1,p4d.24xlarge,reserved_3y,13.0,0,12,,2026-07-20,s,\n")
    with pytest.raises(SystemExit, match="do not match"):
        builder.read_commitments(term)


def test_a_cited_commitment_row_enters_the_snapshot_with_its_date(tmp_path):
    # a hand-made table row (not a real quote): the builder copies it with the type's GPU facts
    table = tmp_path / "c.csv"
    table.write_text(COMMITMENT_HEADER
                     + "aws,us-east-1,p4d.24xlarge,reserved_1y,6.625,58035,12,partial_upfront:standard,2026-01-02,test,\n")
    manifest = _load_builder().build_snapshot(FIXTURE, tmp_path / "out", commitments=table)
    offers = read_offers_csv(tmp_path / "out" / "aws.csv").set_index("offer_id")
    r = offers.loc["aws:us-east-1:p4d.24xlarge:reserved_1y:partial_upfront:standard"]
    assert (r.hourly_price, r.upfront_price, r.term_months, r.as_of, r.gpu, r.gpu_count) == \
        (6.625, 58035, 12, "2026-01-02", "A100-40GB-SXM", 8)
    assert manifest["commitments"]["priced"] == {"aws": {"reserved_1y": ["us-east-1"]}}


def test_packaged_snapshot_has_only_cited_commitment_rows():
    offers = load_snapshot()
    commitments = offers[offers.purchase_option.isin(["reserved_1y", "reserved_3y", "savings_plan_1y", "savings_plan_3y"])]
    table = pd.read_csv(REPO / "pricing_adapters" / "data" / "commitment_prices.csv", dtype=str, keep_default_na=False)
    assert len(commitments) == len(table)
    assert (commitments.as_of != "").all() and (commitments.source != "").all()


def test_an_offers_csv_that_is_empty_or_has_a_bad_number_names_the_file_and_the_row(tmp_path):
    from pricing_adapters.schema import OffersSchemaError

    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(OffersSchemaError, match=rf"^{empty}: the file is empty; expected a header line"):
        read_offers_csv(empty, origin=str(empty))   # pandas said only "No columns to parse from file"
    lines = (Path(__file__).resolve().parents[2] / "examples" / "offers-g5-us-east-1.csv").read_text().splitlines()
    bad = tmp_path / "nan.csv"
    bad.write_text("\n".join([lines[0], lines[1].replace(",1.006,", ",nan,")]) + "\n")
    with pytest.raises(OffersSchemaError) as caught:
        read_offers_csv(bad, origin=str(bad))   # was "1 rows with empty 'hourly_price'": no row, and nan is not empty
    assert str(caught.value) == (f"{bad}: line 2 (offer aws:us-east-1:g5.xlarge:on_demand): "
                                 "empty or not a number 'hourly_price'")
