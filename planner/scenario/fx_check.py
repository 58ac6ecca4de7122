"""A scenario's fx rate for the yuan held against a sourced rate: one turned round (yuan per dollar where the scenario
wants dollars per yuan) sells two used RTX 3060s, priced in CNY in the catalog, for 57,460 USD and gives a plan total
below zero without a word (a notebook audit, 2026-12-07). The catalog's only price in another currency than USD is
in CNY, so that is the rate checked; no sourced reference is shipped for other currencies, and their rates are not
judged.

The reference: the Federal Reserve's February 2025 monthly average, 7.2734 yuan per US dollar (noon buying rates in
New York, G.5 release; FRED series EXCHUS, https://alfred.stlouisfed.org/series?seid=EXCHUS, updated 2025-03-03), as
docs/data-sources.md cites it for the packaged scenarios' fx.CNY. A rate more than FX_FACTOR times it or less than
1/FX_FACTOR of it is warned of: a factor of 5 is no market move of the yuan but a rate turned round (53 times off)
or typed in another unit.
"""

from __future__ import annotations

CNY_PER_USD = 7.2734
CNY_PER_USD_SOURCE = "the Federal Reserve's February 2025 average, FRED EXCHUS"
FX_FACTOR = 5.0


def _figure(value: float) -> str:
    return f"{value:.5g}"


def implausible_fx(currency: str | None, fx: dict[str, float]) -> list[tuple[tuple, str]]:
    """(field path, warning) for the scenario's yuan rate (`fx`: `currency` per 1 unit of each key) when the yuan per
    dollar it implies is more than FX_FACTOR times CNY_PER_USD or less than 1/FX_FACTOR of it; [] where the scenario
    gives no rate that sets it (a USD or CNY scenario needs the other's rate; any other currency, both)."""
    if currency is None:
        return []
    field = "USD" if currency == "CNY" else "CNY"   # the rate judged
    usd = 1.0 if currency == "USD" else fx.get("USD")   # currency per 1 USD
    cny = 1.0 if currency == "CNY" else fx.get("CNY")   # currency per 1 CNY
    if usd is None or cny is None or usd <= 0 or cny <= 0 or currency in ("USD", "CNY") and field not in fx:
        return []
    implied = usd / cny   # CNY per 1 USD
    ratio = implied / CNY_PER_USD
    if 1 / FX_FACTOR <= ratio <= FX_FACTOR:
        return []
    given = fx[field]
    meant = CNY_PER_USD if field == "USD" else usd / CNY_PER_USD   # the rate at the reference, in the field's terms
    times = f"{ratio:.3g} times" if ratio > 1 else f"1/{1 / ratio:.3g} of"
    text = (f"fx.{field} {given:g}: the scenario's rates give {_figure(implied)} CNY per USD, {times} "
            f"{_figure(CNY_PER_USD)} ({CNY_PER_USD_SOURCE}); expected {currency} per 1 {field}, about {_figure(meant)}")
    if abs(given * meant - 1) < 0.2:
        text += f": {given:g} looks turned round ({field} per {currency}: 1 / {given:g} = {_figure(1 / given)})"
    elif currency not in ("USD", "CNY"):
        text += f" at fx.USD {usd:g} (the one wrong may be fx.USD)"
    return [(("fx", field), text)]
