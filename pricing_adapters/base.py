"""The interface every price source implements (one module per cloud: aws.py, azure.py; see registry.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import pandas as pd


class Progress(Protocol):
    def __call__(self, step: str, done: int, total: int | None = None) -> None:
        """Report that `done` of `total` units of `step` are finished (pages, regions …)."""


def no_progress(step: str, done: int, total: int | None = None) -> None:
    """A Progress that reports nothing."""


class PriceSource(Protocol):
    provider: str   # its name in pricing_adapters.registry: aws | azure
    source: str     # what a snapshot records as its origin, e.g. "AWS Price List Query API"

    def fetch(self, regions: Sequence[str], progress: Progress = no_progress) -> pd.DataFrame:
        """Every GPU offer of `regions` as an offers table (pricing_adapters.schema), or raise
        PriceSourceError. Must not return a partial table: any failure raises."""
        ...
