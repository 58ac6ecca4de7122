"""What you already own: nvidia-smi output → card ids → the `onprem.existing` block of a scenario."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from planner.catalog import gpus as catalog
from planner.errors import PlannerError

NVIDIA_SMI_ARGS = ["--query-gpu=name,memory.total,power.limit", "--format=csv,noheader"]
MEMORY_TOLERANCE = 0.15  # nvidia-smi reports usable MiB, a little under the marketed GB
# nvidia-smi prints about 100 bytes per GPU: 1 MB is 10,000 GPUs. Reading no more keeps `--from /dev/zero`
# (or a wrong, huge file) from filling memory.
MAX_INVENTORY_BYTES = 1_000_000


@dataclass
class Inventory:
    existing: Counter = field(default_factory=Counter)       # card id -> count
    unknown: list[tuple[str, str]] = field(default_factory=list)  # (line, suggestion)

    def yaml_block(self) -> str:
        """The block to paste under a scenario's `onprem:`."""
        if not self.existing:
            return "onprem:\n  existing: {}\n"
        lines = [f"    {card}: {n}" for card, n in sorted(self.existing.items())]
        return "onprem:\n  existing:\n" + "\n".join(lines) + "\n"


def read_nvidia_smi() -> str:
    """Run nvidia-smi; PlannerError in one line when it is missing or fails."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        raise PlannerError("nvidia-smi not found on this machine (no NVIDIA driver); "
                           "run it where the GPUs are and pass its output with --from FILE")
    try:
        done = subprocess.run([exe, *NVIDIA_SMI_ARGS], capture_output=True, text=True, timeout=30, check=True)
    except (subprocess.SubprocessError, OSError) as exc:
        raise PlannerError(f"nvidia-smi failed: {exc}") from None
    return done.stdout


def read_inventory_file(path: Path) -> str:
    """The text of saved nvidia-smi output; PlannerError when it cannot be read or is over MAX_INVENTORY_BYTES."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_INVENTORY_BYTES + 1)
    except OSError as exc:
        raise PlannerError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_INVENTORY_BYTES:
        raise PlannerError(f"{path}: more than {MAX_INVENTORY_BYTES:,} bytes; nvidia-smi output is about 100 bytes "
                           f"per GPU — is this the output of nvidia-smi --query-gpu=name,memory.total,power.limit?")
    return data.decode("utf-8", errors="replace")


def _mib(cell: str) -> float | None:
    try:
        return float(cell.strip().split()[0])
    except (ValueError, IndexError):
        return None


def parse_inventory(text: str) -> Inventory:
    """Map each GPU line (`name, memory.total, power.limit`) to an on-prem card id.

    A header line (`name, memory.total [MiB], ...`) is skipped. A GPU of an 8-GPU HGX server maps to the
    HGX card row of its GPU (one unit per GPU, as the catalog counts them).
    """
    cards = catalog.load_cards()
    gpus = catalog.load_gpus()
    inv = Inventory()
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        cells = [c.strip() for c in line.split(",")]
        if cells[0].lower() == "name":
            continue  # the header of `--format=csv` (without noheader)
        name, memory_mib = cells[0], _mib(cells[1]) if len(cells) > 1 else None
        gpu = catalog.resolve_gpu(name)
        if gpu is not None and memory_mib is not None:
            nominal_mib = gpus.loc[gpu, "memory_gb"] * 1024
            if abs(memory_mib - nominal_mib) > MEMORY_TOLERANCE * nominal_mib:
                inv.unknown.append((line, f"{name} with {memory_mib:.0f} MiB is not the "
                                          f"{gpus.loc[gpu, 'memory_gb']:g} GB {gpu} of the catalog"))
                continue
        matches = list(cards.index[cards["gpu"] == gpu]) if gpu else []
        if not matches:
            near = catalog.suggest_gpu(name)
            hint = f"did you mean {near[0]}?" if near else "not in planner/data/gpus.csv"
            if gpu:
                hint = f"GPU {gpu} has no on-prem card in planner/data/onprem_cards.csv"
            inv.unknown.append((line, hint))
            continue
        inv.existing[matches[0]] += 1
    return inv
