"""Derive the packaged measured-speed and multi-GPU scaling tables from Lambda's raw benchmark CSVs.

    python scripts/build_speed_table.py [--input DIR] [--output DIR]

Input: `lambda_pytorch_train_throughput_fp16.csv` and `..._fp32.csv` (Lambda's deeplearning-benchmark,
pytorch/pytorch-train-throughput-*.csv at commit 0551cb70, 2024-05-02), samples/s per model for a whole
machine. Output (docs/speed-model.md explains every choice):

- measured_speed.csv: metric, gpu, relative_speed (vs A100-80GB-PCIE = 1), models, lambda_rows, source, as_of
- measured_scaling.csv: metric, interconnect, gpus, efficiency_median, efficiency (applied), machines, source, as_of

Rules: `ncf` left out (outliers by orders of magnitude); 0.0 = not run, skipped; several single-GPU rows of
one GPU (vendor H100 rows) are combined per model by geometric mean; a GPU's speed is the geometric mean
over models of its per-model ratio to the base GPU. Scaling: per machine and model, throughput of k GPUs /
(k × throughput of one GPU of the same vendor's row, else Lambda's own row); a machine's efficiency is the
median over models; a class's (interconnect, k) efficiency is the median over its machines; the applied
efficiency is capped at 1 and never rises with k (the running minimum over 2, 4, 8: different machines were
measured at different counts).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = REPO.parent / "shared" / "reference" / "benchmarks"
DEFAULT_OUTPUT = REPO / "planner" / "data"

BASE_GPU = "A100-80GB-PCIE"
PRECISIONS = {"fp16": "measured", "fp32": "measured_fp32"}   # file suffix -> metric name prefix
LEFT_OUT = ("ncf",)                                           # outliers by orders of magnitude (Lambda README)
NOT_MODELS = ("name_gpu", "num_gpu", "watt", "price")
SOURCE = ("Lambda deeplearning-benchmark, pytorch/pytorch-train-throughput-{precision}.csv at commit 0551cb70 "
          "(github.com/lambdal/deeplearning-benchmark)")
AS_OF = "2024-05-02"   # date of commit 0551cb70

# Lambda's GPU name (vendor and count prefixes removed) -> (canonical id, interconnect of its multi-GPU machines).
# The V100 rows ran on Tesla V100-SXM2-16GB: Lambda's raw logs, pytorch/results/LambdaCloud_*V100_16GB_v1/*.txt.
# PCIe machines may or may not carry 2-way bridges (Lambda does not say); SXM machines use NVLink/NVSwitch.
LAMBDA_GPUS: dict[str, tuple[str | None, str]] = {
    "Quadro RTX 8000": (None, "pcie"),            # not in planner/data/gpus.csv
    "V100 16GB": ("V100-16GB-SXM2", "nvlink"),
    "RTX 3090": ("RTX-3090", "pcie"),
    "A10": ("A10", "pcie"),
    "A100 40GB PCIe": ("A100-40GB-PCIE", "pcie"),
    "A100 80GB PCIe": ("A100-80GB-PCIE", "pcie"),
    "A100 80GB SXM4": ("A100-80GB-SXM", "nvlink"),
    "RTX 6000 Ada": ("RTX-6000-ADA", "pcie"),
    "RTX A6000": ("RTX-A6000", "pcie"),
    "RTX 4090": ("RTX-4090", "pcie"),
    "H100 80GB PCIe Gen5": ("H100-PCIE", "pcie"),
    "H100 80GB SXM5": ("H100-SXM", "nvlink"),
}
NAME = re.compile(r"^(?:(?P<vendor>LambdaCloud|Dell|SMC|1CC) )?(?:\d+x ?)?(?P<base>.+)$")


def geomean(values) -> float:
    return float(np.exp(np.mean(np.log(np.asarray(list(values), dtype=float)))))


def read_rows(path: Path) -> pd.DataFrame:
    """Lambda's table with `vendor`, `base`, `gpu`, `interconnect` added; rows of unmapped GPUs dropped."""
    df = pd.read_csv(path)
    parts = df["name_gpu"].str.extract(NAME)
    df["vendor"], df["base"] = parts["vendor"].fillna(""), parts["base"]
    unknown = sorted(set(df["base"]) - set(LAMBDA_GPUS))
    if unknown:
        raise SystemExit(f"{path.name}: Lambda GPU names with no mapping in LAMBDA_GPUS: {unknown}")
    df["gpu"] = df["base"].map(lambda b: LAMBDA_GPUS[b][0])
    df["interconnect"] = df["base"].map(lambda b: LAMBDA_GPUS[b][1])
    return df[df["gpu"].notna()].reset_index(drop=True)


def model_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if c not in NOT_MODELS + LEFT_OUT + ("vendor", "base", "gpu", "interconnect")]


def single_gpu_throughput(df: pd.DataFrame, models: list[str]) -> pd.DataFrame:
    """[gpu × model] samples/s of one GPU: geometric mean over that GPU's single-GPU rows that ran the model."""
    single = df[df["num_gpu"] == 1]
    out = {}
    for gpu, rows in single.groupby("gpu"):
        out[gpu] = {m: geomean(rows[m][rows[m] > 0]) if (rows[m] > 0).any() else np.nan for m in models}
    return pd.DataFrame(out).T


def speed_rows(df: pd.DataFrame, prefix: str, precision: str) -> list[dict]:
    """One row per (metric, gpu): the combined metric and one per model, relative to BASE_GPU."""
    models = model_columns(df)
    per_model = single_gpu_throughput(df, models)
    ratio = per_model / per_model.loc[BASE_GPU]
    names = df[df["num_gpu"] == 1].groupby("gpu")["name_gpu"].agg("; ".join)
    rows = []
    for gpu in sorted(ratio.index):
        have = ratio.loc[gpu].dropna()
        common = {"gpu": gpu, "lambda_rows": names[gpu], "source": SOURCE.format(precision=precision), "as_of": AS_OF}
        rows.append({"metric": prefix, "relative_speed": round(geomean(have), 4), "models": len(have), **common})
        rows += [{"metric": f"{prefix}:{m}", "relative_speed": round(float(have[m]), 4), "models": 1, **common}
                 for m in have.index]
    return rows


def machine_efficiencies(df: pd.DataFrame) -> pd.DataFrame:
    """One row per multi-GPU machine: per-model efficiency T_k / (k × T_1), T_1 from the same vendor's row."""
    models = model_columns(df)
    single = df[df["num_gpu"] == 1]
    rows = []
    for r in df[df["num_gpu"] > 1].itertuples(index=False):
        same = single[(single["gpu"] == r.gpu) & (single["vendor"] == r.vendor)]
        one = (same if len(same) else single[(single["gpu"] == r.gpu) & (single["vendor"] == "")]).iloc[0]
        k = int(r.num_gpu)
        eff = {m: getattr(r, m) / (k * one[m]) for m in models if getattr(r, m) > 0 and one[m] > 0}
        rows.append({"machine": r.name_gpu, "gpu": r.gpu, "interconnect": r.interconnect, "gpus": k,
                     "baseline": one["name_gpu"], "median": statistics.median(eff.values()), **eff})
    return pd.DataFrame(rows)


def scaling_rows(df: pd.DataFrame, prefix: str, precision: str) -> list[dict]:
    """One row per (metric, interconnect, gpus): median over machines; applied: capped at 1 and never rising with k."""
    machines = machine_efficiencies(df)
    rows = []
    for interconnect, by_link in machines.groupby("interconnect"):
        for metric, column in [(prefix, "median")] + [(f"{prefix}:{m}", m) for m in model_columns(df)]:
            applied = 1.0
            for k, group in by_link.groupby("gpus"):
                values = group[column].dropna()
                if not len(values):
                    continue
                median = statistics.median(values)
                applied = min(applied, median)
                rows.append({"metric": metric, "interconnect": interconnect, "gpus": int(k),
                             "efficiency_median": round(median, 4), "efficiency": round(applied, 4),
                             "machines": len(values), "source": SOURCE.format(precision=precision), "as_of": AS_OF})
    return rows


def build(input_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(measured_speed, measured_scaling) tables from the two raw CSVs in `input_dir`."""
    speeds, scaling = [], []
    for precision, prefix in PRECISIONS.items():
        df = read_rows(input_dir / f"lambda_pytorch_train_throughput_{precision}.csv")
        speeds += speed_rows(df, prefix, precision)
        scaling += scaling_rows(df, prefix, precision)
    speed_cols = ["metric", "gpu", "relative_speed", "models", "lambda_rows", "source", "as_of"]
    scaling_cols = ["metric", "interconnect", "gpus", "efficiency_median", "efficiency", "machines", "source", "as_of"]
    return pd.DataFrame(speeds)[speed_cols], pd.DataFrame(scaling)[scaling_cols]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT, help="folder with Lambda's two CSVs")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="folder to write the two tables to")
    parser.add_argument("--show-machines", action="store_true", help="print per-machine scaling efficiencies")
    args = parser.parse_args(argv)
    speeds, scaling = build(args.input)
    speeds.to_csv(args.output / "measured_speed.csv", index=False, lineterminator="\n")
    scaling.to_csv(args.output / "measured_scaling.csv", index=False, lineterminator="\n")
    if args.show_machines:
        for precision in PRECISIONS:
            table = machine_efficiencies(read_rows(args.input / f"lambda_pytorch_train_throughput_{precision}.csv"))
            print(f"\n{precision}\n" + table.round(3).to_string(index=False))
    print(f"wrote {len(speeds)} speed rows and {len(scaling)} scaling rows to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
