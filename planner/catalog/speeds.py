"""How fast each GPU trains, relative to another: the speed models a workload may pick, and multi-GPU scaling.

Speed models (`throughput_metric`), every speed relative to BASE_GPU (ratios between GPUs do not depend on
the base):
- `measured` (default): Lambda's measured PyTorch training throughput with mixed precision (AMP), geometric
  mean over 9 models; `measured_fp32` the same in FP32/TF32; `measured:<model>` and `measured_fp32:<model>`
  one model. Packaged in planner/data/measured_speed.csv by scripts/build_speed_table.py.
  A GPU the table lacks (a scenario's custom GPU too: `gpus.gpu_table`) gets an estimate: a log-log
  least-squares fit of the measured speeds on datasheet
  figures (fp16 tensor TFLOPS and memory bandwidth; bandwidth alone when the GPU has no tensor figure),
  fitted at run time on the covered GPUs' rows of gpus.csv, and scaled by the fit's error on measured GPUs of
  the same family (gpus.csv `family`) when there are any.
- `fp16_tensor_tflops`, `bf16_tensor_tflops`, `fp32_tflops`, `memory_bandwidth_gbps`: datasheet ratios.

Scaling: a job on k GPUs of one node delivers k × efficiency(k, interconnect) GPUs' worth of work, from
Lambda's 2/4/8-GPU machines (planner/data/measured_scaling.csv). docs/speed-model.md has the derivation,
the fit's leave-one-out error per GPU and the efficiencies.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from planner.catalog.gpus import DATA, THROUGHPUT_METRICS, gpu_table, load_gpus

# numpy and pandas are imported by the functions that use them: the scenario model imports this module for
# METRIC_NAMES, and `fleetplan validate` and `fleetplan --help` load no pandas.
if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

BASE_GPU = "A100-80GB-PCIE"   # measured_speed.csv gives every speed relative to this GPU
# Lambda's benchmark models kept (ncf is left out: its values are outliers by orders of magnitude)
MEASURED_MODELS = ("ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2",
                   "transformerxlbase", "transformerxllarge", "waveglow")
MEASURED_METRICS: tuple[str, ...] = tuple(
    name for prefix in ("measured", "measured_fp32") for name in (prefix, *(f"{prefix}:{m}" for m in MEASURED_MODELS)))
DATASHEET_METRICS: tuple[str, ...] = THROUGHPUT_METRICS

# every value a workload's `throughput_metric` may take; the scenario model builds its Literal from it
METRIC_NAMES: tuple[str, ...] = MEASURED_METRICS + DATASHEET_METRICS
DEFAULT_METRIC = "measured"

# datasheet figures the estimate is fitted on, best first; a GPU uses the first set it has every figure of
FIT_FEATURES: tuple[tuple[str, ...], ...] = (("fp16_tensor_tflops", "memory_bandwidth_gbps"), ("memory_bandwidth_gbps",))
# PCIe cards: their NVLink (if any) is a 2-way bridge, not a switch joining every GPU of the node
PCIE_KINDS = ("consumer", "workstation")
PCIE_ID_SUFFIXES = ("-PCIE", "-NVL")


class Speed(NamedTuple):
    relative_speed: float    # vs BASE_GPU; NaN when no figure exists
    source: str              # measured | estimated | datasheet | none
    detail: str


class Fit(NamedTuple):
    features: tuple[str, ...]
    coefficients: np.ndarray   # intercept, then one slope per feature (natural logs)
    gpus: tuple[str, ...]      # the measured GPUs it was fitted on


def is_measured(metric: str) -> bool:
    return metric in MEASURED_METRICS


@lru_cache(maxsize=1)
def load_measured() -> pd.DataFrame:
    """measured_speed.csv: metric, gpu, relative_speed (vs BASE_GPU), models, lambda_rows, source, as_of."""
    import pandas as pd

    with (DATA / "measured_speed.csv").open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh)


@lru_cache(maxsize=1)
def load_scaling() -> pd.DataFrame:
    """measured_scaling.csv: metric, interconnect, gpus, efficiency_median, efficiency, machines, source, as_of."""
    import pandas as pd

    with (DATA / "measured_scaling.csv").open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh)


@lru_cache(maxsize=1)
def _measured_index() -> dict[tuple[str, str], Speed]:
    """The Speed of each (metric, gpu) row of measured_speed.csv: looked up per GPU, without a table filter."""
    t = load_measured()
    return {(metric, gpu): Speed(float(value), "measured", f"Lambda rows {rows} ({source}, {as_of})")
            for metric, gpu, value, rows, source, as_of in zip(t["metric"], t["gpu"], t["relative_speed"],
                                                                t["lambda_rows"], t["source"], t["as_of"])}


@lru_cache(maxsize=1)
def _scaling_index() -> dict[tuple[str, str], list[dict]]:
    """measured_scaling.csv rows by (metric, interconnect), fewest GPUs first."""
    index: dict[tuple[str, str], list[dict]] = {}
    for row in load_scaling().to_dict("records"):
        index.setdefault((row["metric"], row["interconnect"]), []).append(row)
    return {key: sorted(rows, key=lambda r: r["gpus"]) for key, rows in index.items()}


@lru_cache(maxsize=16)
def measured_speeds(metric: str) -> pd.Series:
    """Measured relative speed (vs BASE_GPU) per GPU id for a measured metric."""
    table = load_measured()
    return table[table["metric"] == metric].set_index("gpu")["relative_speed"].astype(float)


def _features(gpus: pd.DataFrame, features: tuple[str, ...]) -> pd.DataFrame:
    """Rows of `gpus` with every figure of `features` > 0, those columns only."""
    values = gpus[list(features)]
    return values[(values > 0).all(axis=1)]


@lru_cache(maxsize=16)
def _catalog_features(features: tuple[str, ...]) -> pd.DataFrame:
    """`_features` of the packaged catalog, once per feature set (a plan asks for it per GPU and sibling)."""
    return _features(load_gpus(), features)   # the fit is on catalog GPUs (a custom GPU is never measured)


@lru_cache(maxsize=16)
def _catalog_vectors(features: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The rows of `_catalog_features` as arrays by GPU id (a row lookup without pandas indexing)."""
    x = _catalog_features(features)
    return dict(zip(x.index, x.to_numpy(dtype=float)))


def fit_speed_model(metric: str, features: tuple[str, ...], leave_out: str | None = None) -> Fit:
    """log(speed) = a + Σ b_i log(feature_i), least squares over the measured GPUs (but `leave_out`)."""
    import numpy as np

    measured = measured_speeds(metric)
    x = _catalog_features(features)
    gpus = tuple(g for g in measured.index if g in x.index and g != leave_out)
    design = np.column_stack([np.ones(len(gpus)), np.log(x.loc[list(gpus)].to_numpy(dtype=float))])
    coefficients = np.linalg.lstsq(design, np.log(measured[list(gpus)].to_numpy()), rcond=None)[0]
    return Fit(features, coefficients, gpus)


@lru_cache(maxsize=64)
def _fit(metric: str, features: tuple[str, ...]) -> Fit:
    return fit_speed_model(metric, features)


def predict(fit: Fit, gpu: str) -> float:
    """The fit's relative speed for `gpu`, NaN when the catalog lacks one of its figures."""
    import numpy as np

    figures = _catalog_vectors(fit.features).get(gpu)
    if figures is None and gpu not in load_gpus().index and gpu in gpu_table().index:   # a custom GPU: its own figures
        own = _features(gpu_table().loc[[gpu]], fit.features)
        figures = own.loc[gpu].to_numpy(dtype=float) if gpu in own.index else None
    if figures is None:
        return math.nan
    return float(np.exp(fit.coefficients[0] + np.log(figures) @ fit.coefficients[1:]))


@lru_cache(maxsize=256)
def _families(gpu: str) -> frozenset[str]:
    return frozenset(f.strip() for f in str(gpu_table().loc[gpu, "family"]).split(";") if f.strip())


def siblings(gpu: str, fit: Fit) -> tuple[str, ...]:
    """The fit's measured GPUs that share a gpus.csv family with `gpu` (same chip, other board or memory)."""
    mine = _families(gpu)
    return tuple(g for g in fit.gpus if g != gpu and mine & _families(g))


def estimate(metric: str, fit: Fit, gpu: str) -> tuple[float, tuple[str, ...]]:
    """(relative speed, siblings used): the fit's prediction, times the geometric mean of measured / fitted
    over the measured GPUs of the same family when there are any (a V100 PCIe is then scaled from the
    measured V100 SXM2, not from the fit's line)."""
    import numpy as np

    value = predict(fit, gpu)
    near = siblings(gpu, fit)
    if near and not math.isnan(value):
        measured = measured_speeds(metric)
        value *= float(np.exp(np.mean([math.log(measured[g] / predict(fit, g)) for g in near])))
    return value, near


# the words of an estimate's detail that the plan's warning on estimated speeds reads (engine.run._estimate_caveats)
EXTRAPOLATED = "extrapolated"            # a figure outside the range of the GPUs the fit was made on
NVIDIA_ONLY = "fitted on NVIDIA GPUs only"   # a GPU of another maker


@lru_cache(maxsize=64)
def _fitted_range(metric: str, features: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    """(least, greatest) of each feature over the GPUs the fit was made on."""
    fitted = _catalog_features(features).loc[list(_fit(metric, features).gpus)]
    return {f: (fitted[f].min(), fitted[f].max()) for f in features}


def _estimate(metric: str, gpu: str) -> Speed:
    row = gpu_table().loc[gpu]
    for features in FIT_FEATURES:
        fit = _fit(metric, features)
        value, near = estimate(metric, fit, gpu)
        if math.isnan(value):
            continue
        span = _fitted_range(metric, features)
        outside = [f for f in features if not span[f][0] <= row[f] <= span[f][1]]
        notes = [f"log-log fit of {metric} on {' and '.join(features)} over {len(fit.gpus)} measured GPUs"]
        if near:
            notes.append(f"scaled by the fit's error on {', '.join(near)} (same family, measured)")
        if outside:
            notes.append(f"{EXTRAPOLATED}: {', '.join(outside)} outside the fitted range")
        if row["vendor"] != "NVIDIA":
            notes.append(NVIDIA_ONLY)
        if row["kind"] == "custom":
            notes.append(f"figures from {row['source']}")
        return Speed(value, "estimated", "; ".join(notes))
    wanted = " or ".join("+".join(f) for f in FIT_FEATURES)
    where = "its gpu_specs" if row["kind"] == "custom" else "gpus.csv"   # a custom card's figures are the user's
    return Speed(math.nan, "none", f"no measured speed under {metric} and no {wanted} figure in {where} to estimate from")


def _datasheet(metric: str, gpu: str) -> Speed:
    gpus = gpu_table()
    value = float(gpus.loc[gpu, metric]) / float(gpus.loc[BASE_GPU, metric])
    if math.isnan(value):
        where = "its gpu_specs" if gpus.loc[gpu, "kind"] == "custom" else "gpus.csv"   # a custom card's are the user's
        return Speed(math.nan, "none", f"no {metric} figure in {where}")
    return Speed(value, "datasheet", f"{metric} ratio ({gpus.loc[gpu, 'source']})")


@lru_cache(maxsize=4096)
def gpu_speed(metric: str, gpu: str) -> Speed:
    """Relative speed of one `gpu` (vs BASE_GPU) under `metric`, with where it comes from."""
    if gpu not in gpu_table().index:
        return Speed(math.nan, "none", f"{gpu} is not in the GPU catalog")
    if not is_measured(metric):
        return _datasheet(metric, gpu)
    return _measured_index().get((metric, gpu)) or _estimate(metric, gpu)


@lru_cache(maxsize=1)
def _measured_pairs() -> frozenset[tuple[str, str]]:
    """The (metric, gpu) of each row of measured_speed.csv with a figure, read with the csv module (no pandas)."""
    with (DATA / "measured_speed.csv").open("r", encoding="utf-8", newline="") as fh:
        return frozenset((row["metric"], row["gpu"]) for row in csv.DictReader(fh) if _figure(row["relative_speed"]) > 0)


def _figure(cell: Any) -> float:
    """A figure of a gpus.csv row (text) or of a gpu_specs (a number or None): NaN for none."""
    try:
        return float(cell) if cell is not None and str(cell).strip() else math.nan
    except ValueError:
        return math.nan


def no_speed_detail(metric: str, gpu: str, figures: Mapping[str, Any], custom: bool = False) -> str | None:
    """`gpu_speed(metric, gpu).detail` where `gpu` has no speed under `metric`, None where it has one; read without
    pandas, for `fleetplan validate` (catalog.servable). `figures`: the GPU's gpus.csv row (text cells) or the
    figures of a custom card's gpu_specs (`custom`: its detail names them). A measured metric has a speed for a GPU
    it measured, else an estimate from the first FIT_FEATURES set the GPU has every figure of (above 0); a datasheet
    metric has one where the GPU has that figure."""
    where = "its gpu_specs" if custom else "gpus.csv"
    if not is_measured(metric):
        return f"no {metric} figure in {where}" if math.isnan(_figure(figures.get(metric))) else None
    if (metric, gpu) in _measured_pairs():
        return None
    if any(all(_figure(figures.get(f)) > 0 for f in features) for features in FIT_FEATURES):
        return None
    wanted = " or ".join("+".join(f) for f in FIT_FEATURES)
    return f"no measured speed under {metric} and no {wanted} figure in {where} to estimate from"


def leave_one_out(metric: str, features: tuple[str, ...] = FIT_FEATURES[0]) -> pd.DataFrame:
    """Per measured GPU: measured, `fit` (the fit without it), `estimate` (with the family scaling the planner
    applies), their errors (estimate / measured − 1) and the siblings used."""
    import pandas as pd

    rows = []
    for gpu in fit_speed_model(metric, features).gpus:
        fit = fit_speed_model(metric, features, leave_out=gpu)
        value, near = estimate(metric, fit, gpu)
        measured = float(measured_speeds(metric)[gpu])
        rows.append({"gpu": gpu, "measured": measured, "fit": predict(fit, gpu), "estimate": value,
                     "fit_error": predict(fit, gpu) / measured - 1.0, "error": value / measured - 1.0,
                     "siblings": ", ".join(near)})
    return pd.DataFrame(rows)


def interconnect(gpu: str) -> str:
    """`nvlink` for SXM-style GPUs whose node joins every GPU by NVLink/NVSwitch, else `pcie`."""
    row = gpu_table().loc[gpu]
    pcie_card = row["kind"] in PCIE_KINDS or gpu.upper().endswith(PCIE_ID_SUFFIXES)
    return "nvlink" if bool(row["nvlink"]) and not pcie_card else "pcie"


def scaling_metric(metric: str) -> str:
    """The measured table whose multi-GPU rows apply: the metric itself, or AMP (FP32 for fp32_tflops)."""
    if is_measured(metric):
        return metric
    return "measured_fp32" if metric == "fp32_tflops" else "measured"


@lru_cache(maxsize=1024)
def scaling_efficiency(metric: str, gpu: str, gpus_per_job: int) -> tuple[float, str]:
    """(efficiency, detail): a job on `gpus_per_job` GPUs runs at gpus_per_job × efficiency single GPUs.

    Measured at 2, 4 and 8 GPUs per node; another count uses the next measured count above it (8 for more).
    """
    if gpus_per_job <= 1:
        return 1.0, "one GPU per job"
    link = interconnect(gpu) if gpu in gpu_table().index else "pcie"
    rows = _scaling_index()[scaling_metric(metric), link]
    row = next((r for r in rows if r["gpus"] >= gpus_per_job), rows[-1])
    detail = (f"{gpus_per_job} GPUs per job over {link}: {row['efficiency']:.1%} of linear, measured on "
              f"{int(row['machines'])} {int(row['gpus'])}-GPU machines ({row['source']}, {row['as_of']})")
    return float(row["efficiency"]), detail
