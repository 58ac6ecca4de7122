"""A made-up third cloud ("acme") for the registry tests: two offers per region, no network."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from pricing_adapters.base import Progress, no_progress
from pricing_adapters.schema import offer_id, validate_offers

PROVIDER = "acme"


class AcmePriceSource:
    """Returns an on-demand and a spot offer of one H100 instance for each region asked for."""

    provider = PROVIDER
    source = "Acme fake price list"

    def __init__(self, hourly_price: float = 10.0):
        self.hourly_price = hourly_price

    def fetch(self, regions: Sequence[str], progress: Progress = no_progress) -> pd.DataFrame:
        """The offers table of `regions`: two rows per region."""
        rows = [{
            "offer_id": offer_id(PROVIDER, region, "acme.h100x1", option), "provider": PROVIDER,
            "region": region, "sku": "acme.h100x1", "purchase_option": option, "gpu": "H100-SXM",
            "gpu_count": 1.0, "gpu_memory_gb": 80.0, "vcpus": 16.0, "memory_gb": 128.0,
            "hourly_price": price, "upfront_price": 0.0, "currency": "USD", "term_months": 0,
            "source": self.source,
        } for region in regions for option, price in (("on_demand", self.hourly_price),
                                                       ("spot", self.hourly_price / 2))]
        progress("acme regions", len(regions), len(regions))
        return validate_offers(pd.DataFrame(rows), origin="acme fetch")
