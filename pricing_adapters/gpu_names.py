"""Cloud accelerator names -> canonical GPU ids (the ids of `planner/data/gpus.csv`).

AWS names come from DescribeInstanceTypes (`GpuInfo.Gpus[].Name`, `NeuronInfo`, `InferenceAcceleratorInfo`);
Azure names are ResourceSku `family` strings, with SkyPilot's accelerator names as a fallback.
Nothing here guesses: a name that is not in a table maps to None, and the caller keeps the offer
flagged (`gpu_known=False`) instead of dropping it.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

# AWS DescribeInstanceTypes accelerator names, as the public data lists them (docs/data-sources.md)
# (k-dit, k-docs, sky-v8 GpuInfo cells; case rebuilt from Karpenter labels where noted there).
# Keys are normalised with `_key` (lower case, letters and digits only), so Karpenter's hyphenated
# labels (`rtx-pro-server-6000`) and the API spelling (`RTX PRO Server 6000`) both match.
# A100 and V100 are split by device memory in `aws_gpu_id` (p4d/p4de, p3/p3dn share one API name).
AWS_GPU_NAMES: dict[str, str] = {
    "H100": "H100-SXM",              # p5, p5.4xlarge: H100 80GB HBM3 (SXM5)
    "H200": "H200-SXM",              # p5e, p5en (Karpenter v1.14 label 'h200')
    "A10G": "A10G",
    "T4": "T4",
    "T4g": "T4",                     # g5g: the same T4 silicon, paired with Graviton
    "L4": "L4",                      # g6, gr6; fractional g6f/gr6f too
    "L40S": "L40S",
    "K80": "K80",
    "K520": "K520",
    "M60": "M60",
    "B200": "B200",
    "B300": "B300",
    "RTX PRO Server 6000": "RTX-PRO-6000-SE",  # g7e: RTX PRO 6000 Blackwell Server Edition
    "RTX PRO 4500": "RTX-PRO-4500",            # g7
    "Radeon Pro V520": "RADEON-PRO-V520",      # g4ad
    "Gaudi HL-205": "GAUDI-HL-205",            # dl1 (name from SkyPilot accelerators.csv)
    "Inferentia": "INFERENTIA",
    "Inferentia2": "INFERENTIA2",
    "Trainium": "TRAINIUM",
    "Trainium2": "TRAINIUM2",
    "Qualcomm AI100": "QUALCOMM-AI100",        # dl2q
}

# Names that need device memory (MiB, as the API reports it) to pick a variant.
# Reference README trap 2: p4de reports Name 'A100' with 81920 MiB devices, p4d 'A100' with 40960;
# p3dn reports 'V100' with 32768 MiB, the other p3 sizes 16384.
AWS_MEMORY_SPLIT: dict[str, tuple[float, str, str]] = {
    # name: (threshold MiB, id below threshold, id at or above)
    "A100": (61440, "A100-40GB-SXM", "A100-80GB-SXM"),
    "V100": (24576, "V100-16GB-SXM2", "V100-32GB-SXM2"),
}
# When the memory is unknown, the instance family still tells the variant apart.
AWS_FAMILY_VARIANT: dict[str, str] = {
    "p4d": "A100-40GB-SXM",
    "p4de": "A100-80GB-SXM",
    "p3": "V100-16GB-SXM2",
    "p3dn": "V100-32GB-SXM2",
}
# SkyPilot fetch_aws.py: the API once returned Name 'NVIDIA' for p5e/p5en (overridden there to H200).
AWS_UNNAMED_NVIDIA: dict[str, str] = {"p5e": "H200-SXM", "p5en": "H200-SXM"}

# Azure ResourceSku `family` -> GPU. Sources: SkyPilot fetch_azure.py FAMILY_NAME_TO_SKYPILOT_GPU_NAME
# (fork 93a24d47 and upstream @0089fca0) and Karpenter-Azure supported-gpus.yaml comment headers, as
# quoted in docs/data-sources.md. The variant (PCIe/SXM, memory) follows the Azure series:
# NC A100 v4 = A100 80GB PCIe; ND A100 v4 = A100 40GB SXM4; NDm A100 v4 = A100 80GB SXM4;
# NCv3 = V100 16GB PCIe; NDv2 = V100 32GB SXM2; NC H100 v5 / NCC H100 v5 = H100 NVL 94GB.
# Keys are normalised with `family_key` (spaces removed, lower case, 'standard' prefix and
# 'family' suffix dropped), so 'standard NDAMSv4_A100Family' and 'NDAMSv4_A100' are the same key.
AZURE_FAMILIES: dict[str, str] = {
    "NCADSA100v4": "A100-80GB-PCIE",
    "NDAMSv4_A100": "A100-80GB-SXM",
    "NDAMSv4A100noRDMA": "A100-80GB-SXM",
    "NDASv4_A100": "A100-40GB-SXM",
    "NCSv3": "V100-16GB-PCIE",
    "NDSv2": "V100-32GB-SXM2",
    "NCASv3_T4": "T4",
    "NCADSA10v4": "A10",
    "NVADSA10v5": "A10",
    "NC": "K80",
    "NCPromo": "K80",
    "NV": "M60",
    "NVPromo": "M60",
    "NVSv2": "M60",
    "NVSv3": "M60",
    "NVSv4": "MI25",
    "NCadsH100v5": "H100-NVL",
    "NCCads2023": "H100-NVL",
    "NDSH100v5": "H100-SXM",
    "NDSFH100v5": "H100-SXM",
    "NDISRH200V5": "H200-SXM",
    "NDISRGB200V6NDR": "GB200",
    "NDISRGB300V6": "GB300",
    "NDISv5MI300X": "MI300X",
    "NCdsRTXPRO6000BSEv6XL": "RTX-PRO-6000-SE",
    "NGADSV620v1": "V620",
    "NVadsV710v5": "V710",
}
# Families whose sizes are GPU partitions per Azure docs (docs/data-sources.md, trap 8); counts in the
# reference are 1 or blank, so the planner should not trust per-GPU memory for them blindly.
AZURE_PARTITION_FAMILIES: frozenset[str] = frozenset({"NCADSA10v4", "NVSv4", "NGADSV620v1", "NVadsV710v5"})
# NV*ads_A10_v5 (reference trap 8): a size has vCPUs / 36 of one A10 (NV6ads 1/6, NV12ads 1/3, NV18ads 1/2,
# NV36ads 1, NV72ads 2; SkyPilot AZURE_FRACTIONAL_A10_INS_TYPE_TO_NUM_GPUS), whatever the API's GPUs says (1).
# The exact ratio, never rounded: 0.167 for 1/6 overstates the slice, and understates its per-GPU price, by 0.2 %.
AZURE_FRACTIONAL_A10_FAMILY = "NVADSA10v5"
A10_VCPUS_PER_GPU = 36

# SkyPilot-style accelerator names (reference azure_gpu_vm_sizes.csv `accelerator_name`), used only
# when the family is empty or not in AZURE_FAMILIES. A value of (nc_id, nd_id) depends on the size's
# series: Azure NC* sizes carry PCIe/NVL cards, ND* sizes SXM boards. None = no such size on Azure.
AZURE_SKYPILOT_NAMES: dict[str, str | tuple[str | None, str | None]] = {
    "A100-80GB": ("A100-80GB-PCIE", "A100-80GB-SXM"),   # NC A100 v4 | NDm A100 v4
    "A100": (None, "A100-40GB-SXM"),                     # only ND A100 v4 has 40 GB A100s
    "V100": ("V100-16GB-PCIE", None),                    # NCv3; ND40s_v3's GPU is not known locally
    "V100-32GB": (None, "V100-32GB-SXM2"),               # NDv2
    "H100": ("H100-NVL", "H100-SXM"),                    # NC(C) H100 v5 | ND H100 v5
    "H200": "H200-SXM",
    "GB200": "GB200",
    "GB300": "GB300",
    "MI300X": "MI300X",
    "T4": "T4",
    "A10": "A10",
    "K80": "K80",
    "M60": "M60",
    "Radeon MI25": "MI25",
    "V620": "V620",
    "V710": "V710",
    "RTXPRO6000BSE": "RTX-PRO-6000-SE",
}

# Nominal memory per GPU in GB, as the vendor sells the part: the `gpu_memory_gb` of every offer row, so a
# 24 GB workload means the same on AWS, Azure and on-prem (docs/offers-contract.md, "Memory"). Cloud APIs
# report usable MiB instead (AWS A10G and L4 22888 MiB, L40S 45776, H200 144384); the adapters keep that
# figure in `gpu_memory_mib`. Vendor datasheets: NVIDIA (A100 40/80 GB, V100 16/32 GB, T4 16, A10 and A10G
# 24, L4 24, L40S 48, K80 12 per GK210 die — clouds expose each die as one GPU, M60 8 per GM204 die, K520 4
# per GK104 die, H100 NVL 94, H100 SXM 80, H200 141, B200 180 (HGX B200: 1,440 GB for 8), B300 and GB300
# 288 HBM3e per Blackwell Ultra GPU, GB200 NVL72 13.4 TB / 72 GPUs = 186, RTX PRO 6000 Blackwell Server
# Edition 96, RTX PRO 4500 Blackwell 32), AMD (Radeon Instinct MI25 16, MI300X 192, Radeon PRO V620 32,
# Radeon Pro V710 28, Radeon Pro V520 8), AWS (Inferentia2 32 GB and Trainium 32 GB HBM per device,
# Trainium2 96 GB: trn2.48xlarge 1.5 TB for 16), Habana Gaudi HL-205 32 GB, Qualcomm Cloud AI 100 16 GB
# (dl2q.24xlarge: 128 GB for 8). Inferentia (inf1) has no figure here and stays unknown.
GPU_MEMORY_GB: dict[str, float] = {
    "A100-80GB-PCIE": 80,
    "A100-80GB-SXM": 80,
    "A100-40GB-SXM": 40,
    "V100-16GB-PCIE": 16,
    "V100-16GB-SXM2": 16,
    "V100-32GB-SXM2": 32,
    "T4": 16,
    "A10": 24,
    "A10G": 24,
    "L4": 24,
    "L40S": 48,
    "K80": 12,
    "K520": 4,
    "M60": 8,
    "MI25": 16,
    "H100-NVL": 94,
    "H100-SXM": 80,
    "H200-SXM": 141,
    "B200": 180,
    "B300": 288,
    "MI300X": 192,
    "GB200": 186,
    "GB300": 288,
    "RTX-PRO-6000-SE": 96,
    "RTX-PRO-4500": 32,
    "V620": 32,
    "V710": 28,
    "RADEON-PRO-V520": 8,
    "INFERENTIA2": 32,
    "TRAINIUM": 32,
    "TRAINIUM2": 96,
    "GAUDI-HL-205": 32,
    "QUALCOMM-AI100": 16,
}

# Marketed memory sizes, for an accelerator that GPU_MEMORY_GB does not know: its API MiB is rounded to the
# nearest of these when within NOMINAL_TOLERANCE (22888 MiB = 22.35 GiB -> 24), else kept as MiB / 1024.
STANDARD_MEMORY_GB = (1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 94, 96, 128, 141, 180, 186, 192,
                      256, 288)
NOMINAL_TOLERANCE = 0.10


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def nominal_memory_gb(gpu_id: str | None, memory_mib: float | None = None, gpu_count: float | None = None) -> float:
    """Nominal GB of one GPU of an offer (of the VM's slice when `gpu_count` is a fraction: 1/8 of an L4 =
    3 GB), from GPU_MEMORY_GB by canonical id. For an id the table lacks, the API's `memory_mib` rounded to
    the nearest STANDARD_MEMORY_GB size within 10 %, else MiB / 1024; NaN when neither is known."""
    nominal = GPU_MEMORY_GB.get(gpu_id or "", math.nan)
    if not math.isnan(nominal):
        if not _nan(gpu_count) and 0 < float(gpu_count) < 1:
            return nominal / round(1 / float(gpu_count))
        return float(nominal)
    if _nan(memory_mib) or float(memory_mib) <= 0:
        return math.nan
    gib = float(memory_mib) / 1024
    best = min(STANDARD_MEMORY_GB, key=lambda size: abs(size - gib))
    return float(best) if abs(best - gib) <= NOMINAL_TOLERANCE * best else gib


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", (name or "").lower())


def family_key(family: str) -> str:
    """An Azure VM family as the tables here key it: 'Standard NCASv3_T4 Family' → 'ncasv3_t4'."""
    key = (family or "").replace(" ", "").lower()
    key = key.removeprefix("standard")
    return key.removesuffix("family")


_AWS_BY_KEY = {_key(k): v for k, v in AWS_GPU_NAMES.items()}
_AWS_SPLIT_BY_KEY = {_key(k): v for k, v in AWS_MEMORY_SPLIT.items()}
_AZURE_BY_KEY = {family_key(k): v for k, v in AZURE_FAMILIES.items()}
_AZURE_PARTITION_KEYS = {family_key(k) for k in AZURE_PARTITION_FAMILIES}
_AZURE_SKY_BY_KEY = {_key(k): v for k, v in AZURE_SKYPILOT_NAMES.items()}


def _aws_family(instance_type: str) -> str:
    return (instance_type or "").split(".", 1)[0].lower()


def aws_gpu_id(name: str, memory_mib: float | None, instance_type: str = "") -> str | None:
    """Canonical GPU id for an AWS accelerator name (case-insensitive), or None when unknown.

    `memory_mib` is the per-device memory as DescribeInstanceTypes reports it; it splits A100 and V100
    variants. Without it the instance family (p4d/p4de, p3/p3dn) decides, or the result is None.
    """
    key = _key(name)
    family = _aws_family(instance_type)
    if key in _AWS_SPLIT_BY_KEY:
        threshold, small, large = _AWS_SPLIT_BY_KEY[key]
        if memory_mib is not None and not (isinstance(memory_mib, float) and math.isnan(memory_mib)):
            return large if float(memory_mib) >= threshold else small
        variant = AWS_FAMILY_VARIANT.get(family)
        return variant if variant in (small, large) else None
    if key == "nvidia":
        return AWS_UNNAMED_NVIDIA.get(family)
    return _AWS_BY_KEY.get(key)


def _azure_series(sku_name: str) -> str:
    """'NC', 'ND', 'NV', 'NG' … from 'Standard_ND96asr_v4' (empty when the name has no series)."""
    m = re.match(r"(?:standard_)?(n[a-z])", (sku_name or "").strip().lower())
    return m.group(1).upper() if m else ""


def azure_gpu_id(family: str, sku_name: str = "", accelerator_name: str = "") -> str | None:
    """Canonical GPU id for an Azure VM size, or None when unknown.

    The ResourceSku `family` decides (spaces removed, case ignored, as SkyPilot does). When the family
    is empty or not in AZURE_FAMILIES, the SkyPilot-style `accelerator_name` decides, with the size's
    series (NC* PCIe/NVL cards, ND* SXM boards) splitting A100, V100 and H100; a name whose variant
    the series cannot settle (e.g. 'A100' on an NC size) gives None.
    """
    gpu = _AZURE_BY_KEY.get(family_key(family))
    if gpu is not None or not accelerator_name:
        return gpu
    entry = _AZURE_SKY_BY_KEY.get(_key(accelerator_name))
    if entry is None or isinstance(entry, str):
        return entry
    nc_id, nd_id = entry
    series = _azure_series(sku_name)
    if series == "NC":
        return nc_id
    if series == "ND":
        return nd_id
    return None


def azure_is_partition_family(family: str) -> bool:
    """True for Azure families whose sizes are GPU partitions per Azure docs (counts unreliable)."""
    return family_key(family) in _AZURE_PARTITION_KEYS


def azure_is_fractional_a10_family(family: str) -> bool:
    """True for the NV*ads_A10_v5 family, whose sizes hold vCPUs / 36 of an A10 (`azure_a10_share`)."""
    return family_key(family) == family_key(AZURE_FRACTIONAL_A10_FAMILY)


def azure_a10_share(family: str, vcpus: float | None) -> float | None:
    """A10s per VM of an NV*ads_A10_v5 size, exactly vCPUs / 36 (6 vCPUs: 1/6, not 0.167); None for another
    family or unknown vCPUs."""
    if not azure_is_fractional_a10_family(family) or _nan(vcpus):
        return None
    vcpus = float(vcpus)
    return vcpus / A10_VCPUS_PER_GPU if math.isfinite(vcpus) and vcpus > 0 else None


def fraction_text(x: float) -> str:
    """A GPU count for a note: "1/6" when `x` is (to float precision) a fraction with a denominator up to 100,
    "2" for a whole number, else 4 significant digits (0.167 stays "0.167": it is not 1/6)."""
    f = Fraction(x).limit_denominator(100)
    if not math.isclose(float(f), x, rel_tol=1e-12, abs_tol=0.0):
        return f"{x:.4g}"
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
