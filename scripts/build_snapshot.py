"""Build the packaged price snapshot (pricing_adapters/snapshots/) from the public reference data.

    python scripts/build_snapshot.py [--reference ../shared/reference] [--out pricing_adapters/snapshots]
                                     [--azure-gpu-counts pricing_adapters/data/azure_gpu_counts.csv]

Reads the compiled public CSVs described in docs/data-sources.md and writes `aws.csv`, `azure.csv` (offers
table, validated) and `manifest.json`, each atomically. Rows are sorted, so a rebuild from the same
data gives the same bytes; `built_at` is kept from the previous manifest when nothing else changed.

Rules (docs/offers-contract.md; docs/data-sources.md, traps 1-15):
- on_demand: one row per (region, type) of the on-demand price file; `as_of` and `source` from it.
- spot: quotes equal to on-demand (no real spot quote) and AWS Local Zone quotes are dropped; AWS keeps
  the lowest remaining zone per (region, type) with its zone id in `zone`; spot time is unknown, so
  `as_of` is blank.
- GPU facts come from the type tables; unknown accelerators are kept with `gpu_known=False`.
- Azure GPU counts the reference leaves blank are filled from the packaged, sourced supplement
  `pricing_adapters/data/azure_gpu_counts.csv` (counts from Azure's docs). A count in the reference
  wins, except for sizes of a GPU-partition family (`azure_is_partition_family`, reference trap 8: the
  reference itself says its count of 1 is not the partition), where a supplement row (e.g. NVv4's
  fractions of an MI25) replaces it. Partition sizes the supplement lacks get gpu_count NaN with the
  note "GPU partition; fraction unknown" (the planner excludes NaN counts); other sizes in neither stay
  NaN with the note "gpu_count unknown".
- `gpu_memory_gb` is per GPU: AWS MiB / 1024; Azure the supplement's `gpu_memory_gb` when given (the
  memory of the VM's GPU share, from Azure's docs), else the canonical GPU's nominal memory, scaled for
  fractional GPUs (NV6ads_A10_v5 = 1/6 of an A10 = 4 GB, the slice the VM sees, as AWS reports g6f).
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
    GPU_MEMORY_GB,
    aws_gpu_id,
    azure_gpu_id,
    azure_is_partition_family,
)
from pricing_adapters.schema import OFFER_COLUMNS, offer_row, validate_offers  # noqa: E402

DEFAULT_OUT = REPO / "pricing_adapters" / "snapshots"
DEFAULT_AZURE_GPU_COUNTS = REPO / "pricing_adapters" / "data" / "azure_gpu_counts.csv"
AZURE_GPU_COUNTS_COLUMNS = ["arm_sku_name", "gpu_count", "gpu_memory_gb", "source", "note"]
AZURE_GPU_COUNT_NOTE = "gpu_count from Azure docs (pricing_adapters/data/azure_gpu_counts.csv)"
AZURE_PARTITION_UNKNOWN_NOTE = "GPU partition; fraction unknown"
NAN = float("nan")

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


def _gpu_fields(gpu_id: str | None, raw_name: str, sku: str, count: float) -> dict:
    """gpu / gpu_known / gpu_count plus the notes they call for."""
    notes = []
    if gpu_id is None:
        notes.append(f"unknown accelerator: {raw_name or sku}" + ("" if raw_name else " (no accelerator name in source)"))
    if _isnan(count):
        notes.append("gpu_count unknown")
    elif 0 < count < 1:
        notes.append(f"fractional GPU: {count:g} of one per unit")
    return {"gpu": gpu_id or raw_name or sku, "gpu_known": gpu_id is not None, "gpu_count": count, "notes": notes}


def _row(provider, region, sku, option, price, as_of, source, facts, zone="", extra_notes=()) -> dict:
    notes = [*facts["notes"], *[n for n in extra_notes if n]]
    return offer_row(provider, region, sku, option, facts, price, zone=zone, as_of=as_of, source=source,
                     note=" | ".join(notes))


# ---------------------------------------------------------------- AWS

def aws_type_facts(types: pd.DataFrame) -> dict[str, dict]:
    """instance_type -> GPU facts of the offers table, from aws_gpu_instance_types.csv."""
    out = {}
    for t in types.itertuples(index=False):
        mib = _num(t.accelerator_memory_mib)
        gpu_id = aws_gpu_id(t.accelerator_name, None if _isnan(mib) else mib, t.instance_type)
        facts = _gpu_fields(gpu_id, t.accelerator_name, t.instance_type, _num(t.accelerator_count))
        if _isnan(mib):
            facts["notes"].append("gpu_memory_gb unknown")
        facts.update(accelerator_name=t.accelerator_name, gpu_memory_gb=mib / 1024,
                     vcpus=_num(t.vcpus), memory_gb=_num(t.memory_gib))
        out[t.instance_type] = facts
    return out


def _facts_for(facts: dict[str, dict], sku: str, table: str) -> dict:
    if sku not in facts:
        raise SystemExit(f"{sku!r} has a price but no row in {table}")
    return facts[sku]


def aws_offers(reference: Path) -> pd.DataFrame:
    """AWS offers: on-demand rows and one spot row (cheapest usable zone) per region and type."""
    facts = aws_type_facts(_read(reference / "aws_gpu_instance_types.csv"))
    rows = []
    for p in _read(reference / "aws_ondemand_linux_prices.csv").itertuples(index=False):
        f = _facts_for(facts, p.instance_type, "aws_gpu_instance_types.csv")
        rows.append(_row(registry.AWS, p.region, p.instance_type, "on_demand", p.usd_per_hour, p.as_of, p.source, f))

    spot = _read(reference / "aws_spot_prices_sample.csv")
    spot["price"] = spot["usd_per_hour"].astype(float)
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
        how = f"lowest of {len(usable)} zone quote(s)" + (f"; dropped {', '.join(dropped)}" if dropped else "")
        f = _facts_for(facts, sku, "aws_gpu_instance_types.csv")
        rows.append(_row(registry.AWS, region, sku, "spot", best["price"], "", best["source"], f,
                         zone=best["availability_zone"], extra_notes=[how, "spot time unknown"]))
    return _finish(rows, registry.AWS)


# ---------------------------------------------------------------- Azure

def _azure_memory_gb(gpu_id: str | None, count: float) -> float:
    nominal = GPU_MEMORY_GB.get(gpu_id, NAN) if gpu_id else NAN
    if not _isnan(count) and 0 < count < 1:
        # 0.167 -> 1/6 of the card: the VM sees a 1/6 slice of the framebuffer.
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
        facts = _gpu_fields(gpu_id, s.accelerator_name or s.family, s.arm_sku_name, count)
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
        facts.update(accelerator_name=s.family, gpu_memory_gb=memory,
                     vcpus=_num(s.vcpus), memory_gb=_num(s.memory_gib))
        out[s.arm_sku_name] = facts
    return out


def azure_offers(reference: Path, gpu_counts: Path | str = DEFAULT_AZURE_GPU_COUNTS) -> pd.DataFrame:
    """Azure offers: on-demand rows, and spot rows that carry a real spot quote. Blank GPU counts are
    filled from the `gpu_counts` supplement table."""
    facts = azure_size_facts(_read(reference / "azure_gpu_vm_sizes.csv"), read_azure_gpu_counts(gpu_counts))
    rows = []
    for p in _read(reference / "azure_ondemand_linux_prices.csv").itertuples(index=False):
        f = _facts_for(facts, p.arm_sku_name, "azure_gpu_vm_sizes.csv")
        promo = "promo size: on-demand promo rate" if p.arm_sku_name.endswith("_Promo") else ""
        rows.append(_row(registry.AZURE, p.region, p.arm_sku_name, "on_demand", p.usd_per_hour, p.as_of, p.source, f,
                         extra_notes=[p.note, promo]))
    for p in _read(reference / "azure_spot_prices_sample.csv").itertuples(index=False):
        if p.equals_on_demand == "true":
            continue
        f = _facts_for(facts, p.arm_sku_name, "azure_gpu_vm_sizes.csv")
        rows.append(_row(registry.AZURE, p.region, p.arm_sku_name, "spot", p.usd_per_hour, "", p.source, f,
                         extra_notes=["spot time unknown"]))
    return _finish(rows, registry.AZURE)


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
    return {
        "rows": int(len(df)),
        "rows_by_purchase_option": {k: int(v) for k, v in sorted(df["purchase_option"].value_counts().items())},
        "rows_without_as_of": int((df["as_of"] == "").sum()),
        "as_of_min": str(dated.min()) if len(dated) else None,
        "as_of_max": str(dated.max()) if len(dated) else None,
        "unknown_accelerator_rows": int((~df["gpu_known"]).sum()),
        "sources": sorted(df["source"].unique().tolist()),
    }


def build_snapshot(reference: Path | str, out: Path | str = DEFAULT_OUT,
                   azure_gpu_counts: Path | str = DEFAULT_AZURE_GPU_COUNTS) -> dict:
    """Write the `snapshot_file` of each registry row that has one (aws.csv, azure.csv) and manifest.json
    into `out` from the reference CSVs (and the Azure GPU count supplement); return the manifest."""
    reference, out = Path(reference), Path(out)
    out.mkdir(parents=True, exist_ok=True)
    builders = {registry.AWS: lambda: aws_offers(reference),
                registry.AZURE: lambda: azure_offers(reference, azure_gpu_counts)}
    packaged = [p for p in registry.providers() if p.snapshot_file]
    missing = [p.name for p in packaged if p.name not in builders]
    if missing:
        raise SystemExit(f"no snapshot builder for provider(s) {missing}")
    tables = {p.snapshot_file: builders[p.name]() for p in packaged}
    for name, df in tables.items():
        _atomic_write(out / name, df.to_csv(index=False, lineterminator="\n"))

    manifest = {
        "built_from": {
            "reference": "../shared/reference (public AWS/Azure GPU data; sources listed in its README.md)",
            "facts": FACT_SOURCES,
            "script": "scripts/build_snapshot.py",
        },
        "built_at": dt.datetime.now(dt.timezone.utc).date().isoformat(),
        "files": {name: _file_info(df) for name, df in tables.items()},
    }
    previous = out / "manifest.json"
    if previous.exists():
        try:
            old = json.loads(previous.read_text(encoding="utf-8"))
        except ValueError:
            old = {}
        if {**old, "built_at": None} == {**manifest, "built_at": None}:
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
    args = parser.parse_args(argv)
    manifest = build_snapshot(args.reference, args.out, args.azure_gpu_counts)
    for name, info in manifest["files"].items():
        print(f"{name}: {info['rows']} rows {info['rows_by_purchase_option']}, "
              f"as_of {info['as_of_min']}..{info['as_of_max']}, "
              f"{info['unknown_accelerator_rows']} unknown-accelerator rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
