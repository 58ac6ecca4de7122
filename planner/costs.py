"""Unit economics: what an hour of capacity costs, per offer, in one currency.

These are the per-unit figures of DESIGN section 5 that views and the optimiser share.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

HOURS_PER_MONTH = 730.0
HOURS_PER_YEAR = 8760.0


def card_capex(price: float, host_cost_per_card: float) -> float:
    """Capex of one new unit: card price + its share of the host, in the card's currency."""
    return price + host_cost_per_card


def owned_cost_per_hour(capex: float, life_years: float, maintenance_rate_per_year: float,
                        busy_watts: float, pue: float, electricity_per_kwh: float) -> float:
    """Cost of one owned unit per hour of work when busy every hour of its life.

    Straight-line capex over the life (no residual left at its end) + maintenance + energy at busy
    power × PUE. The same currency as `capex` and `electricity_per_kwh` (convert before calling).
    """
    depreciation = capex / (life_years * HOURS_PER_YEAR)
    maintenance = capex * maintenance_rate_per_year / HOURS_PER_YEAR
    energy = busy_watts / 1000.0 * pue * electricity_per_kwh
    return depreciation + maintenance + energy


def cloud_cost_per_hour(hourly_price: pd.Series, upfront_price: pd.Series, term_months: pd.Series) -> pd.Series:
    """Effective hourly price of a cloud offer: hourly + upfront spread over the term's hours."""
    term_hours = term_months.astype(float) * HOURS_PER_MONTH
    spread = np.where(term_hours > 0, upfront_price / term_hours.where(term_hours > 0, 1.0), 0.0)
    return hourly_price + spread


def offers_in_usd(offers: pd.DataFrame, cards: pd.DataFrame, fx_to_usd: dict[str, float],
                  electricity_usd_per_kwh: float, pue: float) -> pd.DataFrame:
    """Add `usd_per_hour` and `usd_per_gpu_hour` to an offers table (cloud and on-prem rows).

    Cloud rows: effective hourly price. On-prem rows: `owned_cost_per_hour` of the card. Rows whose
    currency has no rate in `fx_to_usd` get NaN (the caller says which rate is missing).
    """
    out = offers.copy()
    rate = out["currency"].map(lambda c: 1.0 if c == "USD" else fx_to_usd.get(c, np.nan)).astype(float)
    usd = cloud_cost_per_hour(out["hourly_price"], out["upfront_price"], out["term_months"]) * rate
    onprem = out["provider"] == "onprem"
    for idx in out.index[onprem]:
        card = cards.loc[out.at[idx, "sku"]]
        capex_usd = out.at[idx, "upfront_price"] * rate[idx]
        usd[idx] = owned_cost_per_hour(capex_usd, card["life_years"], card["maintenance_rate_per_year"],
                                       card["busy_watts"], pue, electricity_usd_per_kwh)
    out["usd_per_hour"] = usd.astype(float)
    out["usd_per_gpu_hour"] = out["usd_per_hour"] / out["gpu_count"].where(out["gpu_count"] > 0)
    return out
