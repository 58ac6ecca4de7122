"""The plan's clock: months of 730 hours, weeks of 168, and the discount factor of each month."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

HOURS_PER_MONTH = 730.0
HOURS_PER_WEEK = 168
MONTHS_PER_YEAR = 12


def discount_factors(annual_rate: float, months: int) -> np.ndarray:
    """d(m) = 1/(1+r)^((m−1)/12) for m = 1..months (index 0 is month 1)."""
    # imported here, not at the top: the scenario model reads HOURS_PER_MONTH, and `validate` imports no numpy
    import numpy as np
    return (1.0 + annual_rate) ** (-np.arange(months) / MONTHS_PER_YEAR)
