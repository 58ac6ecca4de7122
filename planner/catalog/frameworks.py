"""Software-stack compatibility: framework version → CUDA build → compute capabilities it can run on.

Tables (packaged, with sources): `frameworks.csv` (TensorFlow's tested GPU build configurations and
PyTorch's default pip CUDA; where a build's kernels start at a later architecture than its toolkit's, that floor as
`min_compute_capability`) and `cuda_compute.csv` (the compute-capability range of each CUDA toolkit).
A GPU outside the toolkit's range is excluded: below it, the toolkit dropped the architecture (CUDA 12
dropped Kepler, 3.x); above it, the build has no kernels for it (TensorFlow 2.12 with CUDA 11.8 stops at
Hopper, 9.0, so no Blackwell).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from planner.catalog.gpus import data_frame, data_rows, suggest

if TYPE_CHECKING:
    import pandas as pd


@lru_cache(maxsize=1)
def frameworks() -> pd.DataFrame:
    """framework, version (major.minor), cuda, cudnn, source, note — one row per tested build.

    `cuda` is '' for a release whose build configuration is not verified (no compatibility check possible).
    """
    return data_frame("frameworks.csv")


@lru_cache(maxsize=1)
def cuda_ranges() -> pd.DataFrame:
    """cuda version -> min/max compute capability it can build for."""
    df = data_frame("cuda_compute.csv")
    for col in ("min_compute_capability", "max_compute_capability"):
        df[col] = df[col].astype(float)
    return df.set_index("cuda")


def _split_spec(spec: str) -> tuple[str, str]:
    name, _, version = spec.strip().partition("==")
    return name.strip().lower(), ".".join(version.strip().split(".")[:2])


def _row(spec: str) -> dict[str, str] | None:
    """The frameworks.csv row of `spec` (text cells), None when the table lacks it."""
    name, version = _split_spec(spec)
    return next((row for row in data_rows("frameworks.csv")[1]
                 if row["framework"] == name and row["version"] == version), None)


def framework_problem(spec: str) -> str | None:
    """Why `spec` (e.g. tensorflow==2.12) is not in the table, with suggestions; None when it is."""
    name, version = _split_spec(spec)
    rows = data_rows("frameworks.csv")[1]
    known = sorted({row["framework"] for row in rows})
    if name not in known:
        near = suggest(name, known)
        return f"unknown framework '{name}'" + (f"; did you mean '{near[0]}'?" if near else f" (known: {', '.join(known)})")
    row = _row(spec)
    if row is None:
        versions = [r["version"] for r in rows if r["framework"] == name]
        return f"no GPU build of {name} {version} in the table (known: {', '.join(versions)})"
    if not row["cuda"]:
        return (f"the CUDA version of the {name} {version} GPU build is not verified in planner/data/frameworks.csv, "
                f"so its GPU compatibility cannot be checked; name a version with a known build or leave `framework` out")
    return None


@lru_cache(maxsize=64)
def stack(spec: str) -> dict:
    """{framework, version, cuda, cudnn, min_compute_capability} for a known spec."""
    row = _row(spec)
    if row is None or not row["cuda"]:
        raise KeyError(spec)
    rng = {r["cuda"]: r for r in data_rows("cuda_compute.csv")[1]}[row["cuda"]]
    # a build may carry kernels from a later architecture than its toolkit reaches back to: PyTorch 2.8's CUDA 12.8
    # wheels start at Volta (7.0), CUDA 12.8 itself at Maxwell (5.0) — frameworks.csv's min_compute_capability
    floor = max(float(rng["min_compute_capability"]), float(row.get("min_compute_capability") or 0))
    return {"framework": row["framework"], "version": row["version"], "cuda": row["cuda"],
            "cudnn": row["cudnn"], "min_compute_capability": floor,
            "max_compute_capability": float(rng["max_compute_capability"])}


def capability_reason(gpu: str, compute_capability: float, needed: float) -> str:
    """Why `gpu` falls short of a workload's min_compute_capability `needed`: a GPU with none (NaN: MI300X) said as
    exclusion_reason says it, not "compute capability nan < 8 needed"."""
    if compute_capability != compute_capability:
        return f"{gpu} has no CUDA compute capability; {needed:g} needed"
    return f"compute capability {compute_capability:g} < {needed:g} needed"


def exclusion_reason(spec: str, gpu: str, compute_capability: float) -> str | None:
    """Why GPU `gpu` cannot run `spec`, or None when it can."""
    s = stack(spec)
    label = f"{s['framework']} {s['version']} (CUDA {s['cuda']})"
    if compute_capability is None or (isinstance(compute_capability, float) and math.isnan(compute_capability)):
        return f"{label} needs a CUDA GPU; {gpu} has no CUDA compute capability"
    if compute_capability < s["min_compute_capability"]:
        return (f"{label} supports compute capability ≥ {s['min_compute_capability']:g}; "
                f"{gpu} is {compute_capability:g}")
    if compute_capability > s["max_compute_capability"]:
        return (f"{label} supports compute capability ≤ {s['max_compute_capability']:g}; "
                f"{gpu} is {compute_capability:g}")
    return None
