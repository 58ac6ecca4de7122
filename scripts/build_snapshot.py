"""Build the packaged price snapshot (pricing_adapters/snapshots/) from the public reference data.

    python scripts/build_snapshot.py [--reference ../shared/reference] [--out pricing_adapters/snapshots]
                                     [--azure-gpu-counts pricing_adapters/data/azure_gpu_counts.csv]

Reads the compiled public CSVs described in docs/data-sources.md and writes `aws.csv`, `azure.csv` (offers
table, validated) and `manifest.json`, each atomically. Rows are sorted, so a rebuild from the same
data gives the same bytes; `built_at` is kept from the previous manifest when nothing else changed (the
manifest's other fields and the bytes of every table it describes).

Rules (docs/offers-contract.md; docs/data-sources.md, traps 1-15):
- on_demand: one row per (region, type) of the on-demand price file; `as_of` and `source` from it.
- spot: quotes equal to on-demand (no real spot quote) and AWS Local Zone quotes are dropped; AWS keeps
  the lowest remaining zone per (region, type) with its zone id in `zone`; spot time is unknown, so
  `as_of` is blank.
- spot rows whose source row gave an on-demand price other than the snapshot's on-demand row of the same
  region and type (Azure NCC40ads_H100_v5 eastus2: SkyPilot 6.98, Retail Prices 8.82; reference README §5)
  say so in `note`: set against this snapshot's on-demand price, the spot saving is overstated (or understated).
- an AWS SkyPilot on-demand price whose only zone rows in the spot sample are Local Zones (us-west-2
  g4dn.xlarge: usw2-lax1-az1; reference README §2) is kept, as the only price of that region and type, with a
  note that it is a Local Zone price, not the region's.
- GPU facts come from the type tables; unknown accelerators are kept with `gpu_known=False`.
- Azure GPU counts the reference leaves blank are filled from the packaged, sourced supplement
  `pricing_adapters/data/azure_gpu_counts.csv` (counts from Azure's docs). A count in the reference
  wins, except for sizes of a GPU-partition family (`azure_is_partition_family`, reference trap 8: the
  reference itself says its count of 1 is not the partition), where a supplement row (e.g. NVv4's
  fractions of an MI25) replaces it. Partition sizes the supplement lacks get gpu_count NaN with the
  note "GPU partition; fraction unknown" (the planner excludes NaN counts); other sizes in neither stay
  NaN with the note "gpu_count unknown".
- Fractional A10 (NV*ads_A10_v5, reference trap 8): a size holds exactly vCPUs / 36 of an A10. The reference
  rounds the fractions to 3 decimals (NV6ads 0.167, NV12ads 0.333), which would overstate their capacity and
  understate their per-GPU price by 0.2 %, so a fractional count of that family that is vCPUs / 36 to 3
  decimals becomes vCPUs / 36, unrounded (1/6, 1/3, 1/2); the note names the fraction ("fractional GPU: 1/6
  of one per unit | fractional A10: vCPUs/36 = 6/36 (the reference's 0.167 is rounded)"). A reference
  fraction farther from vCPUs / 36 is kept, with a warning.
- `gpu_memory_gb` is per GPU, nominal GB as sold (`pricing_adapters.gpu_names.nominal_memory_gb`): the
  canonical GPU's datasheet memory (AWS A10G 22888 MiB -> 24, L40S 45776 MiB -> 48), scaled for fractional
  GPUs (g6f.large = 1/8 of an L4 = 3 GB, NV6ads_A10_v5 = 1/6 of an A10 = 4 GB); Azure the supplement's
  figure when given (the memory of the VM's GPU share, from Azure's docs). `gpu_memory_mib` keeps the AWS
  API's per-device MiB as the reference gives it; Azure reports none (empty).
- Retired sizes (`pricing_adapters/data/azure_retired_sizes.csv`: Azure NC K80, NCv2, ND v1, NV v1, NCv3,
  NVv3, NVv4, each with its retirement notice) are dropped; the manifest lists them with the rows dropped.
- Commitment prices (reserved, savings plans) come only from `pricing_adapters/data/commitment_prices.csv`,
  every row dated and cited; options with no row there are absent from the snapshot, and the manifest's
  `commitments` says which options have prices.
- `memory_gb` copies the type tables' `memory_gib` (AWS MiB / 1024; Azure's `MemoryGB` is GiB too).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import sys
import tempfile
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pricing_adapters import registry  # noqa: E402
from pricing_adapters.gpu_names import (  # noqa: E402
    A10_VCPUS_PER_GPU,
    GPU_MEMORY_GB,
    aws_gpu_id,
    azure_a10_share,
    azure_gpu_id,
    azure_is_partition_family,
    fraction_text,
    nominal_memory_gb,
)
from pricing_adapters.retired import read_retired_table  # noqa: E402
from pricing_adapters.schema import OFFER_COLUMNS, offer_row, validate_offers  # noqa: E402
from pricing_adapters.shown import counted  # noqa: E402

DEFAULT_OUT = REPO / "pricing_adapters" / "snapshots"
DEFAULT_AZURE_GPU_COUNTS = REPO / "pricing_adapters" / "data" / "azure_gpu_counts.csv"
DEFAULT_RETIRED = REPO / "pricing_adapters" / "data" / "azure_retired_sizes.csv"
DEFAULT_COMMITMENTS = REPO / "pricing_adapters" / "data" / "commitment_prices.csv"
COMMITMENT_COLUMNS = ["provider", "region", "sku", "purchase_option", "hourly_price", "upfront_price", "term_months",
                      "offer_suffix", "as_of", "source", "note"]
COMMITMENT_OPTIONS = {"reserved_1y": 12, "reserved_3y": 36, "savings_plan_1y": 12, "savings_plan_3y": 36}
AZURE_GPU_COUNTS_COLUMNS = ["arm_sku_name", "gpu_count", "gpu_memory_gb", "source", "note"]
AZURE_GPU_COUNT_NOTE = "gpu_count from Azure docs (pricing_adapters/data/azure_gpu_counts.csv)"
AZURE_PARTITION_UNKNOWN_NOTE = "GPU partition; fraction unknown"
REFERENCE_COUNT_DECIMALS = 3   # azure_gpu_vm_sizes.csv rounds fractional counts to 3 decimals (1/6 -> 0.167)
NAN = float("nan")
SAME_PRICE_USD = 0.0001   # reference README §3: spot quotes carry 4 decimals, so closer prices count as equal
# AWS Local Zone codes in zone ids (usw2-lax1-az1) -> city (AWS Local Zones locations: us-west-2-lax-1 Los Angeles,
# us-east-1-atl-1 Atlanta); a code not listed is named by its zone id alone.
LOCAL_ZONE_CITIES = {"lax": "Los Angeles", "atl": "Atlanta"}

# Where the GPU facts (not the prices) come from; the price sources are read from the rows.
FACT_SOURCES = {
    "aws_gpu_instance_types.csv": (
        "DescribeInstanceTypes facts: aws/karpenter-provider-aws@6fc13b52 pkg/fake/zz_generated.describe_instance_types.go"
        " and @692ccdd0 website/content/en/docs/reference/instance-types.md; skypilot-org/skypilot-catalog@00148f2a"
        " catalogs/v8/aws/vms.csv; vantage-sh/ec2instances.info @4fb36180 scraper/aws/ec2/gpu_data.go and"
        " refs/pull/735/head@a19cd859 opszero-app/instances.json"
    ),
    "azure_gpu_vm_sizes.csv": (
        "ResourceSku facts: Azure/karpenter-provider-azure@f4fb1c1d pkg/fake/zz_generated.sku.southcentralus.go,"
        " @2b431da1 pkg/providers/instancetype/known_skus.yaml, @61b488c4 pkg/utils/supported-gpus.yaml;"
        " skypilot-org/skypilot-catalog@098741e7 catalogs/v6/azure/vms.csv; SkyPilot fetch_azure.py"
    ),
    "azure_gpu_counts.csv": (
        "pricing_adapters/data/azure_gpu_counts.csv: GPU counts (and GPU memory of partition sizes) from"
        " Azure docs (source per row), used where azure_gpu_vm_sizes.csv leaves accelerator_count blank"
        " and, for GPU-partition families, in place of its count"
    ),
}


def _read(path: Path) -> pd.DataFrame:
    """A reference CSV as text cells; blank cells are ""."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _num(text: str) -> float:
    return float(text) if text.strip() else NAN


def _isnan(x: float) -> bool:
    return isinstance(x, float) and math.isnan(x)


def _gpu_fields(gpu_id: str | None, raw_name: str, sku: str, count: float, exact: bool = False) -> dict:
    """gpu / gpu_known / gpu_count plus the notes they call for; `exact`: name a fractional count as a
    fraction ("1/6"), for a count known to be one (it would print as 0.166667)."""
    notes = []
    if gpu_id is None:
        notes.append(f"unknown accelerator: {raw_name or sku}" + ("" if raw_name else " (no accelerator name in source)"))
    if _isnan(count):
        notes.append("gpu_count unknown")
    elif 0 < count < 1:
        notes.append(f"fractional GPU: {fraction_text(count) if exact else f'{count:g}'} of one per unit")
    return {"gpu": gpu_id or raw_name or sku, "gpu_known": gpu_id is not None, "gpu_count": count, "notes": notes}


def _row(provider, region, sku, option, price, as_of, source, facts, zone="", extra_notes=()) -> dict:
    notes = [*facts["notes"], *[n for n in extra_notes if n]]
    return offer_row(provider, region, sku, option, facts, price, zone=zone, as_of=as_of, source=source,
                     note=" | ".join(notes))


def on_demand_mismatch_note(source_on_demand: str, on_demand: float | None) -> str:
    """Note for a spot row whose source quoted on-demand at `source_on_demand` while the snapshot's on-demand
    row of the same region and type says `on_demand` (USD per hour); "" when they agree or there is no such row."""
    quoted = _num(source_on_demand)
    if on_demand is None or _isnan(quoted) or math.isclose(quoted, on_demand, rel_tol=0, abs_tol=SAME_PRICE_USD):
        return ""
    how = "overstated" if quoted < on_demand else "understated"
    return (f"the spot quote's source gave on-demand {quoted:g}, not this snapshot's {on_demand:g}: "
            f"the spot saving against this snapshot's on-demand price is {how}")


def _local_zone_note(zones: pd.DataFrame, region: str) -> str:
    """Note for a SkyPilot on-demand price whose zone rows (`zones`, spot-sample rows of its region and type)
    are all Local Zones: the price is a Local Zone's, not the region's; "" otherwise."""
    if zones.empty or not (zones["is_local_zone"] == "true").all():
        return ""
    names = []
    for zone in sorted(zones["availability_zone"].unique()):
        code = zone.split("-")[1].rstrip("0123456789") if zone.count("-") >= 2 else ""
        names.append(f"{zone} ({LOCAL_ZONE_CITIES[code]})" if code in LOCAL_ZONE_CITIES else zone)
    return (f"Local Zone price: SkyPilot's row for {', '.join(names)}, not a {region} regional price "
            f"(no regional price in the source data)")


# ---------------------------------------------------------------- AWS

def aws_type_facts(types: pd.DataFrame) -> dict[str, dict]:
    """instance_type -> GPU facts of the offers table, from aws_gpu_instance_types.csv."""
    out = {}
    for t in types.itertuples(index=False):
        mib = _num(t.accelerator_memory_mib)
        gpu_id = aws_gpu_id(t.accelerator_name, None if _isnan(mib) else mib, t.instance_type)
        facts = _gpu_fields(gpu_id, t.accelerator_name, t.instance_type, _num(t.accelerator_count))
        nominal = nominal_memory_gb(gpu_id, None if _isnan(mib) else mib, facts["gpu_count"])
        if _isnan(nominal):
            facts["notes"].append("gpu_memory_gb unknown")
        facts.update(accelerator_name=t.accelerator_name, gpu_memory_gb=nominal, gpu_memory_mib=mib,
                     vcpus=_num(t.vcpus), memory_gb=_num(t.memory_gib))
        out[t.instance_type] = facts
    return out


def _facts_for(facts: dict[str, dict], sku: str, table: str) -> dict:
    if sku not in facts:
        raise SystemExit(f"{sku!r} has a price but no row in {table}")
    return facts[sku]


def aws_offers(reference: Path, commitments: pd.DataFrame | None = None) -> pd.DataFrame:
    """AWS offers: on-demand rows, one spot row (cheapest usable zone) per region and type, and the AWS
    rows of the cited `commitments` table."""
    facts = aws_type_facts(_read(reference / "aws_gpu_instance_types.csv"))
    spot = _read(reference / "aws_spot_prices_sample.csv")
    spot["price"] = spot["usd_per_hour"].astype(float)
    zones = dict(iter(spot.groupby(["region", "instance_type"], sort=False)))
    rows, on_demand = [], {}
    for p in _read(reference / "aws_ondemand_linux_prices.csv").itertuples(index=False):
        f = _facts_for(facts, p.instance_type, "aws_gpu_instance_types.csv")
        on_demand[p.region, p.instance_type] = float(p.usd_per_hour)
        # SkyPilot prices come from a zone row; the spot sample names the zones of that row
        local = (_local_zone_note(zones.get((p.region, p.instance_type), spot.iloc[0:0]), p.region)
                 if p.source.startswith("skypilot-org/") else "")
        rows.append(_row(registry.AWS, p.region, p.instance_type, "on_demand", p.usd_per_hour, p.as_of, p.source, f,
                         extra_notes=[local]))

    for (region, sku), quotes in spot.groupby(["region", "instance_type"], sort=True):
        equal = quotes["equals_on_demand"] == "true"
        local = quotes["is_local_zone"] == "true"
        usable = quotes[~equal & ~local].sort_values(["price", "availability_zone"], kind="mergesort")
        if usable.empty:
            continue
        best = usable.iloc[0]
        dropped = []
        if equal.any():
            dropped.append(f"{int(equal.sum())} equal to on-demand")
        if (local & ~equal).any():
            dropped.append(f"{int((local & ~equal).sum())} Local Zone")
        how = (f"lowest of {counted(len(usable), 'zone quote')}"
               + (f"; dropped {', '.join(dropped)}" if dropped else ""))
        f = _facts_for(facts, sku, "aws_gpu_instance_types.csv")
        rows.append(_row(registry.AWS, region, sku, "spot", best["price"], "", best["source"], f,
                         zone=best["availability_zone"],
                         extra_notes=[how, "spot time unknown",
                                      on_demand_mismatch_note(best["on_demand_usd_per_hour"],
                                                              on_demand.get((region, sku)))]))
    if commitments is not None:
        rows += commitment_rows(commitments, facts, registry.AWS)
    return _finish(rows, registry.AWS)


# ---------------------------------------------------------------- Azure

def _azure_memory_gb(gpu_id: str | None, count: float) -> float:
    nominal = GPU_MEMORY_GB.get(gpu_id, NAN) if gpu_id else NAN
    if not _isnan(count) and 0 < count < 1:
        # 1/6 of the card (or a rounded 0.167): the VM sees a 1/6 slice of the framebuffer.
        return nominal / round(1 / count)
    return nominal


def read_azure_gpu_counts(path: Path | str = DEFAULT_AZURE_GPU_COUNTS) -> dict[str, dict]:
    """arm_sku_name -> {"gpu_count", "gpu_memory_gb"} from the supplement table; checked: columns, unique
    sizes, counts that are whole (>= 1) or a partition fraction (0 < count < 1), memory blank (derive
    it from the GPU) or positive, a source on every row."""
    path = Path(path)
    table = _read(path)
    if list(table.columns) != AZURE_GPU_COUNTS_COLUMNS:
        raise SystemExit(f"{path}: columns {list(table.columns)}, expected {AZURE_GPU_COUNTS_COLUMNS}")
    dupes = sorted(table.loc[table["arm_sku_name"].duplicated(), "arm_sku_name"].unique())
    if dupes:
        raise SystemExit(f"{path}: duplicate arm_sku_name {dupes}")
    out = {}
    for r in table.itertuples(index=False):
        try:
            count = float(r.gpu_count)
        except ValueError:
            count = NAN
        if not (0 < count < 1 or (count >= 1 and count.is_integer())):
            raise SystemExit(f"{path}: {r.arm_sku_name}: gpu_count {r.gpu_count!r} is not a whole number >= 1"
                             " or a fraction between 0 and 1")
        try:
            memory = _num(r.gpu_memory_gb)
        except ValueError:
            memory = -1.0
        if not (_isnan(memory) or memory > 0):
            raise SystemExit(f"{path}: {r.arm_sku_name}: gpu_memory_gb {r.gpu_memory_gb!r} is not blank or > 0")
        if not r.source.strip():
            raise SystemExit(f"{path}: {r.arm_sku_name}: no source")
        out[r.arm_sku_name] = {"gpu_count": count, "gpu_memory_gb": memory}
    return out


def _fractional_a10_count(size, count: float) -> tuple[float, str]:
    """(count, note) of a size whose reference count is a fraction: for an NV*ads_A10_v5 size whose count is
    vCPUs / 36 rounded to REFERENCE_COUNT_DECIMALS, exactly vCPUs / 36 and a note saying so; otherwise the
    count as given and no note (with a warning when an A10 v5 fraction is not vCPUs / 36)."""
    vcpus = _num(size.vcpus)
    exact = azure_a10_share(size.family, vcpus)
    if exact is None:
        return count, ""
    if abs(count - exact) > 0.5 * 10 ** -REFERENCE_COUNT_DECIMALS + 1e-12:
        print(f"note: {size.arm_sku_name}: reference count {count:g} kept; vCPUs/{A10_VCPUS_PER_GPU} = "
              f"{vcpus:g}/{A10_VCPUS_PER_GPU} is {exact:.6g}", file=sys.stderr)
        return count, ""
    how = "as the reference" if count == exact else f"the reference's {count:g} is rounded"
    return exact, f"fractional A10: vCPUs/{A10_VCPUS_PER_GPU} = {vcpus:g}/{A10_VCPUS_PER_GPU} ({how})"


def azure_size_facts(sizes: pd.DataFrame, supplement: dict[str, dict | float] | None = None) -> dict[str, dict]:
    """arm_sku_name -> GPU facts of the offers table, from azure_gpu_vm_sizes.csv. `supplement`
    (arm_sku_name -> {"gpu_count", "gpu_memory_gb"}, or a bare count) fills a blank count, and replaces
    the count of a GPU-partition size; partition sizes it lacks get an unknown (NaN) count."""
    supplement = {k: v if isinstance(v, dict) else {"gpu_count": v, "gpu_memory_gb": NAN}
                  for k, v in (supplement or {}).items()}
    out = {}
    for s in sizes.itertuples(index=False):
        gpu_id = azure_gpu_id(s.family, s.arm_sku_name, s.accelerator_name)
        partition = azure_is_partition_family(s.family)
        reference_count = count = _num(s.accelerator_count)
        extra = supplement.get(s.arm_sku_name)
        use = extra is not None and (_isnan(count) or partition)
        memory = NAN
        if use:
            count, memory = extra["gpu_count"], extra["gpu_memory_gb"]
        elif extra is not None and count != extra["gpu_count"]:
            print(f"note: {s.arm_sku_name}: reference count {count:g} kept; supplement says "
                  f"{extra['gpu_count']:g}", file=sys.stderr)
        elif partition:
            count = NAN  # the reference's 1 (or blank) is not the partition's share of a GPU
        a10_note = ""
        if not use and 0 < count < 1:
            count, a10_note = _fractional_a10_count(s, count)
        facts = _gpu_fields(gpu_id, s.accelerator_name or s.family, s.arm_sku_name, count, exact=bool(a10_note))
        if a10_note:
            facts["notes"].append(a10_note)
        if use:
            facts["notes"].append(AZURE_GPU_COUNT_NOTE)
        if partition:
            if not use:
                facts["notes"].append(AZURE_PARTITION_UNKNOWN_NOTE)
            elif not _isnan(reference_count):
                how = "matches" if reference_count == count else "replaced by"
                facts["notes"].append(f"GPU partition: reference count {reference_count:g} {how} the Azure docs share")
        if gpu_id is not None and not s.family.strip():
            facts["notes"].append(f"family unknown; GPU from SkyPilot-style name '{s.accelerator_name}' and size series")
        derived = _azure_memory_gb(gpu_id, count)
        if partition and not use:
            memory = NAN  # the slice's memory is as unknown as its fraction; not the whole card's
        elif _isnan(memory):
            memory = derived
        elif not _isnan(derived) and not math.isclose(memory, derived, rel_tol=0.01):
            print(f"note: {s.arm_sku_name}: supplement gpu_memory_gb {memory:g} kept; the GPU's nominal"
                  f" memory gives {derived:g}", file=sys.stderr)
        if gpu_id is not None and _isnan(memory):
            facts["notes"].append("gpu_memory_gb unknown")
        facts.update(accelerator_name=s.family, gpu_memory_gb=memory, gpu_memory_mib=NAN,
                     vcpus=_num(s.vcpus), memory_gb=_num(s.memory_gib))
        out[s.arm_sku_name] = facts
    return out


def azure_offers(reference: Path, gpu_counts: Path | str = DEFAULT_AZURE_GPU_COUNTS,
                 retired: pd.DataFrame | None = None, dropped: dict[str, int] | None = None,
                 commitments: pd.DataFrame | None = None) -> pd.DataFrame:
    """Azure offers: on-demand rows, and spot rows that carry a real spot quote. Blank GPU counts are
    filled from the `gpu_counts` supplement table. Sizes in `retired` (the retired-size table) are left
    out; `dropped` (size -> rows) records what was left out."""
    facts = azure_size_facts(_read(reference / "azure_gpu_vm_sizes.csv"), read_azure_gpu_counts(gpu_counts))
    gone = set(retired["arm_sku_name"]) if retired is not None else set()
    dropped = {} if dropped is None else dropped
    rows, on_demand = [], {}

    def keep(sku: str) -> bool:
        if sku in gone:
            dropped[sku] = dropped.get(sku, 0) + 1
            return False
        return True

    for p in _read(reference / "azure_ondemand_linux_prices.csv").itertuples(index=False):
        if not keep(p.arm_sku_name):
            continue
        f = _facts_for(facts, p.arm_sku_name, "azure_gpu_vm_sizes.csv")
        promo = "promo size: on-demand promo rate" if p.arm_sku_name.endswith("_Promo") else ""
        on_demand[p.region, p.arm_sku_name] = float(p.usd_per_hour)
        rows.append(_row(registry.AZURE, p.region, p.arm_sku_name, "on_demand", p.usd_per_hour, p.as_of, p.source, f,
                         extra_notes=[p.note, promo]))
    for p in _read(reference / "azure_spot_prices_sample.csv").itertuples(index=False):
        if p.equals_on_demand == "true" or not keep(p.arm_sku_name):
            continue
        f = _facts_for(facts, p.arm_sku_name, "azure_gpu_vm_sizes.csv")
        mismatch = on_demand_mismatch_note(p.on_demand_usd_per_hour, on_demand.get((p.region, p.arm_sku_name)))
        rows.append(_row(registry.AZURE, p.region, p.arm_sku_name, "spot", p.usd_per_hour, "", p.source, f,
                         extra_notes=["spot time unknown", mismatch]))
    if commitments is not None:
        azure = commitments[commitments["provider"] == registry.AZURE]
        live = pd.Series([keep(sku) for sku in azure["sku"]], index=azure.index, dtype=bool)
        rows += commitment_rows(azure.loc[live], facts, registry.AZURE)
    return _finish(rows, registry.AZURE)


# ---------------------------------------------------------------- commitments

def read_commitments(path: Path | str = DEFAULT_COMMITMENTS) -> pd.DataFrame:
    """The cited commitment-price table (reserved, savings plans); checked: columns, a known commitment
    option with its term, prices >= 0 and not both 0, an ISO `as_of` and a `source` on every row."""
    path = Path(path)
    table = _read(path)
    if list(table.columns) != COMMITMENT_COLUMNS:
        raise SystemExit(f"{path}: columns {list(table.columns)}, expected {COMMITMENT_COLUMNS}")
    for r in table.itertuples(index=False):
        where = f"{path}: {r.provider} {r.region} {r.sku} {r.purchase_option}"
        if COMMITMENT_OPTIONS.get(r.purchase_option) != int(r.term_months or 0):
            raise SystemExit(f"{where}: purchase_option/term_months {r.purchase_option}/{r.term_months} do not match")
        hourly, upfront = _num(r.hourly_price), _num(r.upfront_price or "0")
        if _isnan(hourly) or hourly < 0 or upfront < 0 or hourly + upfront == 0:
            raise SystemExit(f"{where}: prices {r.hourly_price!r}/{r.upfront_price!r} are not a real quote")
        if not r.source.strip() or not _is_iso_date(r.as_of):
            raise SystemExit(f"{where}: every commitment price needs an ISO as_of date and a source")
    return table


def _is_iso_date(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def commitment_rows(table: pd.DataFrame, facts: dict[str, dict], provider: str) -> list[dict]:
    """Offer rows of `provider` from the commitment table, with the instance facts of its on-demand rows."""
    rows = []
    for r in table[table["provider"] == provider].itertuples(index=False):
        if r.sku not in facts:
            raise SystemExit(f"commitment price for {r.sku!r}, which has no GPU facts")
        suffix = f":{r.offer_suffix}" if r.offer_suffix else ""
        rows.append(offer_row(provider, r.region, r.sku, r.purchase_option, facts[r.sku], _num(r.hourly_price),
                              _num(r.upfront_price or "0"), int(r.term_months), as_of=r.as_of, source=r.source,
                              note=" | ".join(n for n in [*facts[r.sku]["notes"], r.note] if n), id_suffix=suffix))
    return rows


def _finish(rows: list[dict], provider: str) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(OFFER_COLUMNS))
    df = df.sort_values(["region", "sku", "purchase_option"], kind="mergesort")
    return validate_offers(df, origin=f"{provider} snapshot")


# ---------------------------------------------------------------- writing

def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _file_info(df: pd.DataFrame) -> dict:
    dated = df["as_of"][df["as_of"] != ""]
    undated = df[df["as_of"] == ""]
    return {
        "rows": int(len(df)),
        "rows_by_purchase_option": {k: int(v) for k, v in sorted(df["purchase_option"].value_counts().items())},
        "rows_without_as_of": int(len(undated)),
        "rows_without_as_of_by_purchase_option": {k: int(v) for k, v in
                                                  sorted(undated["purchase_option"].value_counts().items())},
        "as_of_min": str(dated.min()) if len(dated) else None,
        "as_of_max": str(dated.max()) if len(dated) else None,
        "unknown_accelerator_rows": int((~df["gpu_known"]).sum()),
        "sources": sorted(df["source"].unique().tolist()),
    }


UNDATED_WHY = ("spot rows (SkyPilot catalog rows; the catalog commits' dates are unknown) and the SkyPilot "
               "on-demand rows of AWS regions without a Karpenter price file have no date: their as_of is "
               "empty, they are counted in rows_without_as_of, and plans name them as undated")


def _commitment_info(tables: dict[str, pd.DataFrame]) -> dict:
    """Which commitment options have prices, per provider and region; the options without any."""
    priced: dict[str, dict[str, list[str]]] = {}
    for df in tables.values():
        rows = df[df["purchase_option"].isin(list(COMMITMENT_OPTIONS))]
        for (provider, option), part in rows.groupby(["provider", "purchase_option"]):
            priced.setdefault(provider, {})[option] = sorted(part["region"].unique().tolist())
    return {"priced": priced,
            "note": "reserved and savings-plan prices only where a dated public source was found "
                    "(pricing_adapters/data/commitment_prices.csv, docs/price-sources.md); other options are "
                    "absent, and planner.catalog.prices.option_gaps warns when a scenario allows one"}


def _retired_info(retired: pd.DataFrame, dropped: dict[str, int]) -> list[dict]:
    return [{"sku": r.arm_sku_name, "series": r.series, "gpu": r.gpu, "retired_on": r.retired_on,
             "rows_dropped": int(dropped.get(r.arm_sku_name, 0)), "source": r.source}
            for r in retired.itertuples(index=False)]


def build_snapshot(reference: Path | str, out: Path | str = DEFAULT_OUT,
                   azure_gpu_counts: Path | str = DEFAULT_AZURE_GPU_COUNTS,
                   retired: Path | str | None = DEFAULT_RETIRED,
                   commitments: Path | str | None = DEFAULT_COMMITMENTS) -> dict:
    """Write the `snapshot_file` of each registry row that has one (aws.csv, azure.csv) and manifest.json
    into `out` from the reference CSVs (and the Azure GPU count supplement, the retired-size table and
    the cited commitment prices; None leaves either table out); return the manifest."""
    reference, out = Path(reference), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    retired_table = read_retired_table(retired) if retired is not None else read_retired_table().iloc[0:0]
    commitment_table = read_commitments(commitments) if commitments is not None else None
    dropped: dict[str, int] = {}
    builders = {registry.AWS: lambda: aws_offers(reference, commitment_table),
                registry.AZURE: lambda: azure_offers(reference, azure_gpu_counts, retired_table, dropped,
                                                     commitment_table)}
    packaged = [p for p in registry.providers() if p.snapshot_file]
    missing = [p.name for p in packaged if p.name not in builders]
    if missing:
        raise SystemExit(f"no snapshot builder for provider(s) {missing}")
    tables = {p.snapshot_file: builders[p.name]() for p in packaged}
    same_tables = True   # every table byte-identical to the one it replaces (the manifest holds no hashes)
    for name, df in tables.items():
        text = df.to_csv(index=False, lineterminator="\n")
        same_tables &= (out / name).exists() and (out / name).read_text(encoding="utf-8") == text
        _atomic_write(out / name, text)

    manifest = {
        "built_from": {
            "reference": "../shared/reference (public AWS/Azure GPU data; sources listed in its README.md)",
            "facts": FACT_SOURCES,
            "script": "scripts/build_snapshot.py",
        },
        "built_at": dt.datetime.now(dt.timezone.utc).date().isoformat(),
        "files": {name: _file_info(df) for name, df in tables.items()},
        "undated": UNDATED_WHY,
        "commitments": _commitment_info(tables),
        "retired_sizes_dropped": _retired_info(retired_table, dropped),
    }
    previous = out / "manifest.json"
    if previous.exists():
        try:
            old = json.loads(previous.read_text(encoding="utf-8"))
        except ValueError:
            old = {}
        if same_tables and {**old, "built_at": None} == {**manifest, "built_at": None}:
            manifest["built_at"] = old["built_at"]  # same content: keep the file byte-identical
    _atomic_write(previous, json.dumps(manifest, indent=2, sort_keys=False) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", default="../shared/reference", type=Path,
                        help="folder with the reference CSVs (default: ../shared/reference)")
    parser.add_argument("--out", default=DEFAULT_OUT, type=Path,
                        help="output folder (default: pricing_adapters/snapshots)")
    parser.add_argument("--azure-gpu-counts", default=DEFAULT_AZURE_GPU_COUNTS, type=Path,
                        help="Azure GPU count supplement (default: pricing_adapters/data/azure_gpu_counts.csv)")
    parser.add_argument("--retired", default=DEFAULT_RETIRED, type=Path,
                        help="retired-size table (default: pricing_adapters/data/azure_retired_sizes.csv)")
    parser.add_argument("--commitments", default=DEFAULT_COMMITMENTS, type=Path,
                        help="cited commitment prices (default: pricing_adapters/data/commitment_prices.csv)")
    args = parser.parse_args(argv)
    manifest = build_snapshot(args.reference, args.out, args.azure_gpu_counts, args.retired, args.commitments)
    for name, info in manifest["files"].items():
        print(f"{name}: {info['rows']} rows {info['rows_by_purchase_option']}, "
              f"as_of {info['as_of_min']}..{info['as_of_max']}, "
              f"{info['unknown_accelerator_rows']} unknown-accelerator rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
