"""Optional dependencies: import one, or say in one line which extra of the package to install.

The core install (`pip install gpu-fleet-planner`) plans, validates and exports without any of them;
live AWS prices need `[aws]`, Azure VM size facts `[azure]`, the dashboard `[dashboard]`, sweeps on a
Dask cluster `[dask]`. This module lives in pricing_adapters because the adapters may not import the
planner (import contract); the planner may import it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from pricing_adapters.errors import SourceConfigError

DISTRIBUTION = "gpu-fleet-planner"


class MissingExtraError(SourceConfigError, ImportError):
    """An optional dependency is not installed. A SourceConfigError, so `fleetplan prices refresh` exits 2
    with this one line; an ImportError, so code that guards an optional import with `except ImportError`
    still works."""


def install_hint(extra: str) -> str:
    """The pip command that installs `extra`, quoted for a POSIX shell."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def require(module: str, extra: str, name: str | None = None) -> ModuleType:
    """The imported `module`; MissingExtraError naming `name` (default: the top-level package) and `extra`
    when it, or a package it is in, is not installed. A module missing *inside* an installed package (a
    broken install) is re-raised as it is rather than disguised as a missing extra."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        if missing != module and not module.startswith(missing + "."):
            raise
        raise MissingExtraError(f"{name or module.partition('.')[0]} is not installed: {install_hint(extra)}") from None
