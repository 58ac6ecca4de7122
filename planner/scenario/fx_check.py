"""A scenario's fx rates held against sourced rates: a rate turned round (yuan per dollar where the scenario wants
dollars per yuan) or typed in another unit (92 for 0.92) is warned of at its field. A yuan rate turned round sold two
used RTX 3060s, priced in CNY in the catalog, for 57,460 USD and gave a plan total below zero without a word (a
notebook audit, 2026-12-07); a EUR scenario's `fx: {USD: 92}` planned 15.6 million EUR and blamed the capex budget
(a review, 2026-12-07).

The references, each the units of a currency per US dollar (REFERENCE_PER_USD):
- CNY: the Federal Reserve's February 2025 monthly average, 7.2734 yuan per US dollar (noon buying rates in New
  York, G.5 release; FRED series EXCHUS, https://alfred.stlouisfed.org/series?seid=EXCHUS, updated 2025-03-03), as
  docs/data-sources.md cites it for the packaged scenarios' fx.CNY.
- The others: the Federal Reserve's H.10 release of 2023-12-18 (https://www.federalreserve.gov/releases/h10/20231218/),
  noon buying rates in New York on 2023-12-15; the release gives the euro, pound, Australian and New Zealand dollars
  in US dollars per unit, inverted here (1 / 1.0906 for the euro). Currencies it lists that moved several-fold in
  a few years (the Sri Lankan rupee, the bolivar) are left out.
A rate that puts a currency more than FX_FACTOR times above or below its reference is warned of: a factor of 5 is no
market move of these currencies in the references' years but a rate turned round (0.0067 for 150 yen) or typed in
another unit. A euro rate turned round (1.087 for 0.92, 18 % apart) stays inside it: it cannot be told from a real
rate. A currency without a reference is not judged.
"""

from __future__ import annotations

CNY_SOURCE = "the Federal Reserve's February 2025 average, FRED EXCHUS"
H10_SOURCE = "the Federal Reserve's H.10 noon buying rate of 2023-12-15"
# units of each currency per 1 US dollar, and where that figure comes from (module docstring)
REFERENCE_PER_USD: dict[str, tuple[float, str]] = {
    "CNY": (7.2734, CNY_SOURCE),
    **{code: (per_usd, H10_SOURCE) for code, per_usd in {
        "AUD": 1 / 0.6715, "BRL": 4.9391, "CAD": 1.3374, "CHF": 0.8688, "DKK": 6.8352, "EUR": 1 / 1.0906,
        "GBP": 1 / 1.2709, "HKD": 7.8032, "INR": 83.02, "JPY": 141.80, "KRW": 1295.92, "MXN": 17.181, "MYR": 4.669,
        "NOK": 10.4461, "NZD": 1 / 0.6221, "SEK": 10.2539, "SGD": 1.3312, "THB": 34.83, "TWD": 31.22, "ZAR": 18.2575,
    }.items()},
}
CNY_PER_USD = REFERENCE_PER_USD["CNY"][0]
FX_FACTOR = 5.0


def _figure(value: float) -> str:
    return f"{value:.5g}"


def implausible_fx(currency: str | None, fx: dict[str, float]) -> list[tuple[tuple, str]]:
    """(field path, warning) for each of the scenario's rates (`fx`: `currency` per 1 unit of each key) that puts a
    currency more than FX_FACTOR times above or below its reference against the US dollar (REFERENCE_PER_USD): fx.USD
    itself, where `currency` has a reference, and each other rate through fx.USD (a USD scenario's directly). Where
    fx.USD is off, only it is said: the others are read through it. [] where the scenario gives no dollar rate."""
    if currency is None:
        return []
    usd = 1.0 if currency == "USD" else fx.get("USD")   # currency per 1 USD, as the scenario gives it
    if usd is None or usd <= 0:
        return []
    if currency != "USD" and "USD" in fx and currency in REFERENCE_PER_USD:
        said = _judged(currency, "USD", fx["USD"], implied=usd, code=currency, meant=REFERENCE_PER_USD[currency][0])
        if said:
            return said
    found = []
    for field, given in fx.items():
        if field in ("USD", currency) or field not in REFERENCE_PER_USD or given <= 0:
            continue
        reference = REFERENCE_PER_USD[field][0]
        found += _judged(currency, field, given, implied=usd / given, code=field, meant=usd / reference,
                         usd_unjudged=usd if currency != "USD" and currency not in REFERENCE_PER_USD else None)
    return found


def _judged(currency: str, field: str, given: float, implied: float, code: str, meant: float,
            usd_unjudged: float | None = None) -> list[tuple[tuple, str]]:
    """The warning of fx.`field` (`given`) where the `code` per USD it implies (`implied`) is more than FX_FACTOR times
    off `code`'s reference; `meant`: the rate at the reference, in the field's terms; `usd_unjudged`: fx.USD, where the
    rate was read through it and it has no reference of its own to be held against (the scenario's currency has none)."""
    reference, source = REFERENCE_PER_USD[code]
    ratio = implied / reference
    if 1 / FX_FACTOR <= ratio <= FX_FACTOR:
        return []
    times = f"{ratio:.3g} times" if ratio > 1 else f"1/{1 / ratio:.3g} of"
    text = (f"fx.{field}: at {given:g} the scenario's rates give {_figure(implied)} {code} per USD, {times} "
            f"{_figure(reference)} ({source}); expected {currency} per 1 {field}, about {_figure(meant)}")
    if abs(given * meant - 1) < 0.2:
        text += f": {given:g} looks turned round ({field} per {currency}: 1 / {given:g} = {_figure(1 / given)})"
    elif usd_unjudged is not None:
        text += f" at fx.USD {usd_unjudged:g} (the one wrong may be fx.USD)"
    return [(("fx", field), text)]
