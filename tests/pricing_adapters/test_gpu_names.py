"""Cloud accelerator names -> canonical GPU ids. Facts from the public data (docs/data-sources.md) and vendor datasheets."""

import csv
import math
from pathlib import Path

import pytest

from pricing_adapters.gpu_names import (
    AWS_GPU_NAMES,
    AWS_MEMORY_SPLIT,
    AZURE_FAMILIES,
    GPU_MEMORY_GB,
    aws_gpu_id,
    azure_a10_share,
    azure_gpu_id,
    fraction_text,
    nominal_memory_gb,
)

# The canonical ids this module may produce (fixed; planner/data/gpus.csv carries the same ids).
CANONICAL = {
    "A100-40GB-SXM", "A100-80GB-SXM", "A100-80GB-PCIE", "V100-16GB-SXM2", "V100-32GB-SXM2",
    "V100-16GB-PCIE", "H100-SXM", "H100-NVL", "H200-SXM", "A10G", "A10", "T4", "L4", "L40S", "K80",
    "K520", "M60", "MI25", "B200", "B300", "GB200", "GB300", "MI300X", "RTX-PRO-6000-SE",
    "RTX-PRO-4500", "RADEON-PRO-V520", "GAUDI-HL-205", "INFERENTIA", "INFERENTIA2", "TRAINIUM",
    "TRAINIUM2", "QUALCOMM-AI100", "V620", "V710",
}


@pytest.mark.parametrize(
    ("name", "mib", "itype", "expected"),
    [
        ("A100", 40960, "p4d.24xlarge", "A100-40GB-SXM"),
        ("A100", 81920, "p4de.24xlarge", "A100-80GB-SXM"),   # trap 2: same API name as p4d
        ("V100", 16384, "p3.2xlarge", "V100-16GB-SXM2"),
        ("V100", 32768, "p3dn.24xlarge", "V100-32GB-SXM2"),
        ("H100", 81920, "p5.48xlarge", "H100-SXM"),
        ("H200", 144384, "p5e.48xlarge", "H200-SXM"),
        ("NVIDIA", 144384, "p5en.48xlarge", "H200-SXM"),     # trap 3: API once said 'NVIDIA'
        ("A10G", 22888, "g5.xlarge", "A10G"),
        ("T4", 16384, "g4dn.xlarge", "T4"),
        ("T4g", 16384, "g5g.xlarge", "T4"),
        ("L4", 22888, "g6.xlarge", "L4"),
        ("L4", 2861, "g6f.large", "L4"),                    # fractional L4 is still an L4
        ("L40S", 45776, "g6e.xlarge", "L40S"),
        ("K80", 12288, "p2.xlarge", "K80"),
        ("K520", 4096, "g2.2xlarge", "K520"),
        ("M60", 8192, "g3.4xlarge", "M60"),
        ("B200", 183359, "p6-b200.48xlarge", "B200"),
        ("B300", 275040, "p6-b300.48xlarge", "B300"),
        ("RTX PRO Server 6000", 98304, "g7e.2xlarge", "RTX-PRO-6000-SE"),
        ("RTX PRO 4500", 32768, "g7.2xlarge", "RTX-PRO-4500"),
        ("Radeon Pro V520", 8192, "g4ad.xlarge", "RADEON-PRO-V520"),
        ("Gaudi HL-205", None, "dl1.24xlarge", "GAUDI-HL-205"),
        ("Inferentia", None, "inf1.xlarge", "INFERENTIA"),
        ("Inferentia2", 32768, "inf2.xlarge", "INFERENTIA2"),
        ("Trainium", 32768, "trn1.2xlarge", "TRAINIUM"),
        ("Trainium2", None, "trn2.48xlarge", "TRAINIUM2"),
        ("Qualcomm AI100", 16384, "dl2q.24xlarge", "QUALCOMM-AI100"),
    ],
)
def test_aws_names_map_to_canonical_ids(name, mib, itype, expected):
    assert aws_gpu_id(name, mib, itype) == expected


def test_aws_lookup_ignores_case_and_karpenter_label_spelling():
    assert aws_gpu_id("a10g", 22888) == "A10G"
    assert aws_gpu_id("rtx-pro-server-6000", 98304) == "RTX-PRO-6000-SE"
    assert aws_gpu_id("INFERENTIA2", None) == "INFERENTIA2"


def test_aws_a100_without_memory_falls_back_on_instance_family():
    assert aws_gpu_id("A100", None, "p4de.24xlarge") == "A100-80GB-SXM"
    assert aws_gpu_id("A100", None, "p4d.24xlarge") == "A100-40GB-SXM"
    assert aws_gpu_id("A100", None, "") is None  # cannot tell 40 GB from 80 GB


def test_aws_unknown_names_are_none():
    assert aws_gpu_id("Xilinx VU9P", 65536, "f1.2xlarge") is None
    assert aws_gpu_id("NVIDIA", 81920, "p5.48xlarge") is None  # 'NVIDIA' only means H200 on p5e/p5en
    assert aws_gpu_id("", None) is None


@pytest.mark.parametrize(
    ("family", "expected"),
    [
        ("StandardNCADSA100v4Family", "A100-80GB-PCIE"),
        ("standard NDAMSv4_A100Family", "A100-80GB-SXM"),   # verbatim, with a space (trap 7)
        ("standardNDAMSv4A100noRDMAFamily", "A100-80GB-SXM"),
        ("Standard NDASv4_A100 Family", "A100-40GB-SXM"),
        ("standardNCSv3Family", "V100-16GB-PCIE"),
        ("standardNDSv2Family", "V100-32GB-SXM2"),
        ("Standard NCASv3_T4 Family", "T4"),
        ("StandardNCADSA10v4Family", "A10"),
        ("StandardNVADSA10v5Family", "A10"),
        ("standardNCFamily", "K80"),
        ("standardNCPromoFamily", "K80"),
        ("standardNVFamily", "M60"),
        ("standardNVPromoFamily", "M60"),
        ("standardNVSv2Family", "M60"),
        ("standardNVSv3Family", "M60"),
        ("standardNVSv4Family", "MI25"),
        ("StandardNCadsH100v5Family", "H100-NVL"),
        ("StandardNCCads2023Family", "H100-NVL"),
        ("standardNDSH100v5Family", "H100-SXM"),
        ("standardNDSFH100v5Family", "H100-SXM"),
        ("standardNDISRH200V5Family", "H200-SXM"),
        ("standardNDISRGB200V6NDRFamily", "GB200"),
        ("standardNDISRGB300V6Family", "GB300"),
        ("standardNDISv5MI300XFamily", "MI300X"),
        ("StandardNCdsRTXPRO6000BSEv6XLFamily", "RTX-PRO-6000-SE"),
        ("StandardNGADSV620v1Family", "V620"),
        ("StandardNVadsV710v5Family", "V710"),
    ],
)
def test_azure_families_map_to_canonical_ids(family, expected):
    assert azure_gpu_id(family) == expected


def test_azure_family_lookup_ignores_spaces_and_case():
    assert azure_gpu_id("STANDARD ncasv3_t4 family") == "T4"
    assert azure_gpu_id("NDAMSv4_A100") == "A100-80GB-SXM"


def test_azure_without_family_uses_skypilot_name_and_size_series():
    # Standard_ND96asr_A100_v4 has no family locally; SkyPilot's 'A100' on an ND size is the 40 GB SXM4 board
    assert azure_gpu_id("", "Standard_ND96asr_A100_v4", "A100") == "A100-40GB-SXM"
    assert azure_gpu_id("", "Standard_NC24ads_A100_v4", "A100-80GB") == "A100-80GB-PCIE"
    assert azure_gpu_id("", "Standard_ND96amsr_A100_v4", "A100-80GB") == "A100-80GB-SXM"
    assert azure_gpu_id("", "Standard_NC40ads_H100_v5", "H100") == "H100-NVL"
    assert azure_gpu_id("", "Standard_ND96isr_H100_v5", "H100") == "H100-SXM"
    assert azure_gpu_id("", "Standard_ND128isrf_NDR_GB200_v6", "GB200") == "GB200"
    assert azure_gpu_id("", "Standard_NV16as_v4", "Radeon MI25") == "MI25"


def test_azure_unknowns_are_none():
    assert azure_gpu_id("", "Standard_ND40s_v2", "") is None             # no family, no name
    assert azure_gpu_id("standardNDSv3Family", "Standard_ND40s_v3", "") is None
    assert azure_gpu_id("", "Standard_NC24_A100", "A100") is None         # no 40 GB PCIe A100 on Azure
    assert azure_gpu_id("", "Standard_ND40s_v3", "V100") is None          # ND V100 variant unknown


def test_every_mapped_id_is_canonical_and_memory_keys_too():
    produced = set(AWS_GPU_NAMES.values()) | set(AZURE_FAMILIES.values())
    produced |= {v for _, small, large in AWS_MEMORY_SPLIT.values() for v in (small, large)}
    assert produced <= CANONICAL
    assert set(GPU_MEMORY_GB) <= CANONICAL


def test_every_azure_family_gpu_has_a_nominal_memory():
    assert set(AZURE_FAMILIES.values()) <= set(GPU_MEMORY_GB)


def test_ids_exist_in_the_gpu_catalog_when_present():
    gpus_csv = Path(__file__).resolve().parents[2] / "planner" / "data" / "gpus.csv"
    if not gpus_csv.exists():
        pytest.skip("planner/data/gpus.csv not built yet")
    with gpus_csv.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    id_col = next((c for c in ("gpu_id", "id", "gpu") if rows and c in rows[0]), None)
    if id_col is None:
        pytest.skip("gpus.csv has no id column this test knows")
    assert CANONICAL <= {r[id_col] for r in rows}


# ------------------------------------------------------------------ memory: nominal GB from the API's MiB

# Per-device MiB as DescribeInstanceTypes reports it (reference aws_gpu_instance_types.csv, trap 1 and 4),
# and the GB the vendor sells the part with (NVIDIA datasheets: A10G/L4 24 GB, L40S 48, H100 SXM 80, H200 141,
# B200 in HGX B200 180 (1,440 GB for 8), B300 288; AWS: Inferentia2 32 GB).
@pytest.mark.parametrize(("gpu", "mib", "count", "nominal"), [
    ("A10G", 22888, 1, 24),          # g5: 22.35 GiB as the API counts it
    ("L4", 22888, 1, 24),            # g6
    ("L40S", 45776, 4, 48),          # g6e.12xlarge
    ("H100-SXM", 81920, 8, 80),      # p5.48xlarge
    ("H200-SXM", 144384, 8, 141),    # p5e / p5en
    ("B200", 183359, 8, 180),        # p6-b200.48xlarge
    ("B300", 275040, 8, 288),        # p6-b300.48xlarge
    ("A100-40GB-SXM", 40960, 8, 40),  # p4d
    ("INFERENTIA2", 32768, 1, 32),   # inf2
    ("L4", 2861, 0.125, 3),          # g6f.large: an eighth of a 24 GB L4
    ("L4", 11444, 0.5, 12),          # g6f.4xlarge
    ("A10", None, 0.167, 4),         # Azure NV6ads_A10_v5 as the reference rounds it: still a 4 GB sixth
    ("A10", None, 1 / 6, 4),         # NV6ads_A10_v5, exact: 24 / 6
    ("A10", None, 1 / 3, 8),         # NV12ads_A10_v5: 24 / 3
    ("A10", None, 1 / 2, 12),        # NV18ads_A10_v5: 24 / 2
])
def test_nominal_memory_of_real_api_values(gpu, mib, count, nominal):
    assert nominal_memory_gb(gpu, mib, count) == nominal


def test_unknown_accelerator_memory_rounds_to_a_marketed_size_only_when_close():
    assert nominal_memory_gb(None, 22888) == 24            # 22.35 GiB is 7 % below 24
    assert nominal_memory_gb("Zeta 9", 45776) == 48
    assert nominal_memory_gb(None, 5000) == pytest.approx(5000 / 1024)   # 4.88: no size within 10 %
    assert math.isnan(nominal_memory_gb(None, None)) and math.isnan(nominal_memory_gb("INFERENTIA", None))


def test_a_24_gb_workload_fits_every_g5_g6_and_l40s_row_of_the_packaged_snapshot():
    from pricing_adapters.snapshot import load_snapshot
    aws = load_snapshot(["aws"])
    fam = aws[aws.sku.str.match(r"(g5|g6|g6e)\.")]
    assert len(fam) and (fam.gpu_memory_gb >= 24).all()
    assert set(fam.gpu_memory_mib) == {22888.0, 45776.0}


def test_nominal_memory_agrees_with_the_gpu_catalog_where_both_have_one():
    gpus_csv = Path(__file__).resolve().parents[2] / "planner" / "data" / "gpus.csv"
    with gpus_csv.open(encoding="utf-8") as f:
        rows = {r["gpu"]: r for r in csv.DictReader(line for line in f if not line.startswith("#"))}
    both = {g: float(rows[g]["memory_gb"]) for g in GPU_MEMORY_GB if g in rows and rows[g].get("memory_gb")}
    assert {g: GPU_MEMORY_GB[g] for g in both if GPU_MEMORY_GB[g] != both[g]} == {}


# NV*ads_A10_v5 sizes hold vCPUs / 36 of an A10 (reference trap 8): 6 vCPUs = 1/6, 12 = 1/3, 18 = 1/2, 36 = 1,
# 72 = 2 -- the exact ratio, not the reference's 3-decimal 0.167 / 0.333 (0.2 % too much GPU).
@pytest.mark.parametrize(("family", "vcpus", "share"), [
    ("StandardNVADSA10v5Family", 6, 1 / 6),
    ("StandardNVADSA10v5Family", 12.0, 1 / 3),
    ("StandardNVADSA10v5Family", 18, 0.5),
    ("StandardNVADSA10v5Family", 36, 1.0),
    ("StandardNVADSA10v5Family", 72, 2.0),
    ("Standard NVADSA10v5 Family", 6, 1 / 6),    # spaces and case as the API may spell it
])
def test_azure_a10_share_is_the_exact_fraction_of_vcpus_over_36(family, vcpus, share):
    got = azure_a10_share(family, vcpus)
    assert abs(got - share) <= 1e-12
    assert got != 0.167 and got != 0.333


@pytest.mark.parametrize(("family", "vcpus"), [
    ("StandardNCADSA10v4Family", 8),        # NC A10 v4: a partition of unknown share, not vCPUs / 36
    ("standardNVSv3Family", 12),            # M60, whole GPUs
    ("StandardNVADSA10v5Family", float("nan")),
    ("StandardNVADSA10v5Family", None),
    ("StandardNVADSA10v5Family", 0),
])
def test_azure_a10_share_is_none_outside_the_family_or_without_vcpus(family, vcpus):
    assert azure_a10_share(family, vcpus) is None


@pytest.mark.parametrize(("x", "text"), [
    (1 / 6, "1/6"), (1 / 3, "1/3"), (0.5, "1/2"), (0.125, "1/8"), (1.0, "1"), (2.0, "2"),
    (0.167, "0.167"), (0.333, "0.333"),          # rounded decimals are not named as fractions they are not
    (0.1666667, "0.1667"),
])
def test_fraction_text_names_exact_fractions_only(x, text):
    assert fraction_text(x) == text
