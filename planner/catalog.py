"""GPU specs and on-prem cards (packaged data), name resolution, and offers assembly for a scenario.

Tables:
- gpus: one row per canonical GPU id (`planner/data/gpus.csv`), datasheet values with their source.
- cards: one row per purchasable on-prem card (`planner/data/onprem_cards.csv`), in its own currency.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path

import pandas as pd

from planner.errors import CatalogError

DATA = Path(__file__).resolve().parent / "data"

GPU_NUMERIC = ["memory_gb", "memory_bandwidth_gbps", "tdp_watts", "fp32_tflops",
               "fp16_tensor_tflops", "bf16_tensor_tflops", "compute_capability"]
CARD_NUMERIC = ["price", "busy_watts", "idle_watts", "host_cost_per_card", "cards_per_server",
                "life_years", "maintenance_rate_per_year"]
THROUGHPUT_METRICS = ("fp16_tensor_tflops", "bf16_tensor_tflops", "fp32_tflops", "memory_bandwidth_gbps")


def _read_csv(name: str) -> pd.DataFrame:
    with (DATA / name).open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh, dtype=str, keep_default_na=False)


def _split(cell: str) -> list[str]:
    return [p.strip() for p in cell.split(";") if p.strip()]


@lru_cache(maxsize=1)
def load_gpus() -> pd.DataFrame:
    """The GPU catalog indexed by canonical id; numeric columns as floats (NaN = not verified)."""
    df = _read_csv("gpus.csv")
    for col in GPU_NUMERIC:
        df[col] = pd.to_numeric(df[col].replace("", None), errors="raise").astype(float)
    for col in ("mig", "nvlink"):
        df[col] = df[col].str.lower().eq("true")
    if df["gpu"].duplicated().any():
        raise CatalogError(f"gpus.csv: duplicate ids {list(df['gpu'][df['gpu'].duplicated()])}")
    return df.set_index("gpu", drop=False)


@lru_cache(maxsize=1)
def load_cards() -> pd.DataFrame:
    """The on-prem card catalog indexed by card id; prices in the row's own `currency`."""
    df = _read_csv("onprem_cards.csv")
    for col in CARD_NUMERIC:
        df[col] = pd.to_numeric(df[col].replace("", None), errors="raise").astype(float)
    unknown = sorted(set(df["gpu"]) - set(load_gpus().index))
    if unknown:
        raise CatalogError(f"onprem_cards.csv: cards name GPUs missing from gpus.csv: {unknown}")
    return df.set_index("card_id", drop=False)


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@lru_cache(maxsize=1)
def _gpu_name_index() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """(exact name -> id) for ids and aliases; (family -> ids) for group names, all normalised."""
    exact: dict[str, str] = {}
    families: dict[str, list[str]] = {}
    for row in load_gpus().itertuples():
        exact[_norm(row.gpu)] = row.gpu
        for alias in _split(row.aliases):
            exact.setdefault(_norm(alias), row.gpu)
        for fam in _split(row.family):
            families.setdefault(_norm(fam), []).append(row.gpu)
    return exact, {k: tuple(v) for k, v in families.items()}


def resolve_gpu(name: str) -> str | None:
    """Canonical id for an id or alias (case, spaces and dashes ignored), else None.

    A name that is also a family of several GPUs (`A100`, `V100`) is ambiguous unless it is an id.
    """
    exact, families = _gpu_name_index()
    key = _norm(name)
    found = exact.get(key)
    if found is not None and _norm(found) != key and len(families.get(key, ())) > 1:
        return None
    return found


def match_gpus(query: str) -> tuple[str, ...]:
    """Every canonical id that `query` names: an id, an alias, or a family (`A100-80GB` → PCIe and SXM)."""
    exact, families = _gpu_name_index()
    key = _norm(query)
    found = set(families.get(key, ()))
    if key in exact:
        found.add(exact[key])
    return tuple(sorted(found))


def suggest(name: str, choices: list[str] | tuple[str, ...], n: int = 3) -> list[str]:
    """Closest spellings of `name` among `choices` (case-insensitive)."""
    lowered = {c.lower(): c for c in choices}
    return [lowered[m] for m in difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)]


def suggest_gpu(name: str) -> list[str]:
    """Canonical ids whose id or alias is spelt like `name`."""
    exact, _ = _gpu_name_index()
    hits = difflib.get_close_matches(_norm(name), list(exact), n=6, cutoff=0.6)
    return list(dict.fromkeys(exact[h] for h in hits))[:3]


def onprem_offers(card_ids: list[str] | None = None, overrides: dict | None = None) -> pd.DataFrame:
    """On-prem cards as offers-table rows (`purchase`), in each card's own currency.

    upfront_price is the capex of one unit (card + host share); hourly_price is 0 because running
    costs (energy, maintenance) depend on the site and are costed by `planner.costs`.
    """
    from pricing_adapters.schema import offer_id, validate_offers

    cards = load_cards()
    gpus = load_gpus()
    overrides = overrides or {}
    rows = []
    for card_id in (card_ids if card_ids is not None else list(cards.index)):
        card = dict(cards.loc[card_id])
        card.update({k: v for k, v in dict(overrides.get(card_id) or {}).items() if v is not None})
        gpu = gpus.loc[card["gpu"]]
        rows.append({
            "offer_id": offer_id("onprem", "onprem", card_id, "purchase"),
            "provider": "onprem", "region": "onprem", "sku": card_id, "purchase_option": "purchase",
            "gpu": card["gpu"], "gpu_known": True, "accelerator_name": gpu["gpu"],
            "gpu_count": 1.0, "gpu_memory_gb": gpu["memory_gb"], "vcpus": float("nan"),
            "memory_gb": float("nan"), "hourly_price": 0.0,
            "upfront_price": float(card["price"]) + float(card["host_cost_per_card"]),
            "currency": card["currency"], "term_months": 0, "zone": "", "as_of": card["as_of"],
            "source": card["source"], "note": "capex = card + host share; running costs per scenario",
        })
    return validate_offers(pd.DataFrame(rows), origin="onprem cards")


# ---------------------------------------------------------------------------------------------------
# Offers for one scenario


def _cloud_prices(source: str) -> pd.DataFrame:
    """The whole offers table of a price source (see `price_table`)."""
    return price_table(source)[0]


def price_table(source: str) -> tuple[pd.DataFrame, dict]:
    """(offers, provenance) of a price source: `snapshot`, `store` or an offers CSV path.

    Cached; a CSV or the store is read again when its file changes. provenance says what was used:
    {"source", "snapshots": [{id, provider, regions, fetched_at, age_days}], "warning"}.
    """
    from pricing_adapters.store import default_store_path

    path = default_store_path() if source == "store" else (None if source == "snapshot" else Path(source))
    stamp = None
    if path is not None:
        try:
            st = path.stat()
            stamp = (str(path), st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = (str(path), None)
    offers, provenance = _read_prices(source, stamp)
    if source == "store":  # ages move on while the cache holds
        from pricing_adapters.store import SnapshotInfo

        provenance = dict(provenance, snapshots=[
            dict(s, age_days=round(SnapshotInfo(**{k: s[k] for k in ("id", "provider", "regions", "fetched_at",
                                                                  "source", "row_count")}).age_days(), 2))
            for s in provenance["snapshots"]])
    return offers, provenance


def _packaged() -> tuple[pd.DataFrame, dict]:
    from pricing_adapters.snapshot import load_snapshot, snapshot_info

    info = snapshot_info()
    return load_snapshot(), {"source": "snapshot", "built_at": info["built_at"], "snapshots": [], "warning": None}


def _from_store() -> tuple[pd.DataFrame, dict]:
    """The newest stored snapshot of each provider; the packaged snapshot for providers never refreshed."""
    from pricing_adapters.store import default_store_path, open_store

    store, warning = open_store(default_store_path())
    packaged, _ = _packaged()
    if store is None:
        return packaged, {"source": "snapshot", "snapshots": [], "warning": warning}
    offers, infos = store.latest_offers()
    if not infos:
        return packaged, {"source": "snapshot", "snapshots": [], "warning":
                          f"the price store {store.path} has no snapshot yet (run `fleetplan prices refresh`); "
                          "using the packaged snapshot"}
    covered = store.coverage(infos)
    pairs = pd.Series(list(zip(packaged["provider"], packaged["region"])), index=packaged.index)
    rest = packaged[~pairs.isin(covered)]
    from pricing_adapters.schema import validate_offers

    refreshed = {p for p, _ in covered}
    notes = [f"{p}: packaged snapshot (never refreshed)" for p in sorted(set(rest["provider"]) - refreshed)]
    notes += [f"{p}: packaged prices for regions never refreshed" for p in sorted(refreshed & set(rest["provider"]))]
    return validate_offers(pd.concat([offers, rest], ignore_index=True), origin="store"), {
        "source": "store", "store": str(store.path),
        "snapshots": [{"id": i.id, "provider": i.provider, "regions": list(i.regions), "fetched_at": i.fetched_at,
                       "source": i.source, "row_count": i.row_count} for i in infos],
        "warning": "; ".join(notes) or None}


@lru_cache(maxsize=8)
def _read_prices(source: str, stamp) -> tuple[pd.DataFrame, dict]:
    from pricing_adapters.errors import PriceSourceError as AdapterError
    from pricing_adapters.snapshot import read_offers_csv

    from planner.errors import PriceSourceError

    if source == "snapshot":
        return _packaged()
    if source == "store":
        try:
            return _from_store()
        except AdapterError as exc:
            raise PriceSourceError(str(exc)) from None
    path = Path(source)
    if not path.is_file():
        raise PriceSourceError(f"prices.source: offers CSV not found: {path}")
    try:
        return read_offers_csv(str(path), origin=str(path)), {"source": str(path), "snapshots": [], "warning": None}
    except ValueError as exc:
        raise PriceSourceError(str(exc)) from None


def cloud_offers(scenario, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The scenario's allowed cloud offers, prices converted to the scenario currency.

    Filters: providers, regions (None = all), purchase options. Adds `price_currency_rate`.
    """
    from planner.errors import PriceSourceError

    p = scenario.prices
    df = _cloud_prices(p.source) if table is None else table
    keep = df["provider"].isin(p.providers) & df["purchase_option"].isin(p.purchase_options)
    if p.regions is not None:
        # A region no provider has is a typo; one of a provider not allowed here is simply unused.
        known = sorted(set(df["region"]))
        unknown = [r for r in p.regions if r not in known]
        if unknown:
            hints = [f"'{r}'" + (f" (did you mean '{suggest(r, known)[0]}'?)" if suggest(r, known) else "")
                     for r in unknown]
            raise PriceSourceError(f"prices.regions: no offers in {', '.join(hints)} in the {p.source} prices")
        keep &= df["region"].isin(p.regions)
    df = df[keep].copy()
    rates = {cur: scenario.fx_rate(cur) for cur in set(df["currency"])}
    missing = sorted(c for c, r in rates.items() if r is None)
    if missing:
        raise PriceSourceError(f"offers priced in {missing} but fx has no rate for them; "
                               f"add fx: {{{missing[0]}: <{scenario.currency} per 1 {missing[0]}>}}")
    rate = df["currency"].map(rates).astype(float)
    df["hourly_price"] = df["hourly_price"] * rate
    df["upfront_price"] = df["upfront_price"] * rate
    df["currency"] = scenario.currency
    return df.reset_index(drop=True)


def site_cards(scenario) -> pd.DataFrame:
    """The scenario's candidate and owned cards with overrides applied, money in the scenario currency.

    Columns: card_id, gpu, buyable (listed in onprem.cards; others are only owned or required),
    capex (per new unit: price + host share), busy_watts, idle_watts,
    cards_per_server, life_years, maintenance_rate_per_year, existing, min_units, max_units (NaN = none),
    as_of, source.
    """
    o, c = scenario.onprem, scenario.constraints
    cards = load_cards()
    ids = list(dict.fromkeys([*o.cards, *o.existing, *c.min_units]))
    rows = []
    for card_id in ids:
        row = dict(cards.loc[card_id])
        catalog_currency = row["currency"]
        override = o.card_overrides.get(card_id)
        given = {k: v for k, v in override.model_dump().items() if v is not None} if override else {}
        row.update(given)
        # An override's currency applies to the amounts it gives; catalog amounts keep their own.
        price_rate = scenario.fx_rate(row["currency"] if "price" in given else catalog_currency)
        host_rate = scenario.fx_rate(row["currency"] if "host_cost_per_card" in given else catalog_currency)
        rows.append({
            "card_id": card_id, "gpu": row["gpu"], "buyable": card_id in o.cards,
            "capex": float(row["price"]) * price_rate + float(row["host_cost_per_card"]) * host_rate,
            "busy_watts": float(row["busy_watts"]), "idle_watts": float(row["idle_watts"]),
            "cards_per_server": float(row["cards_per_server"]), "life_years": float(row["life_years"]),
            "maintenance_rate_per_year": float(row["maintenance_rate_per_year"]),
            "existing": int(o.existing.get(card_id, 0)),
            "min_units": int(c.min_units.get(card_id, 0)),
            "max_units": float(c.max_units[card_id]) if card_id in c.max_units else float("nan"),
            "as_of": row["as_of"], "source": row["source"],
        })
    cols = ["card_id", "gpu", "buyable", "capex", "busy_watts", "idle_watts", "cards_per_server", "life_years",
            "maintenance_rate_per_year", "existing", "min_units", "max_units", "as_of", "source"]
    return pd.DataFrame(rows, columns=cols)
