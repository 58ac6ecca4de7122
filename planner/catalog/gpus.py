"""GPU specs and on-prem cards (packaged data) and name resolution.

Tables:
- gpus: one row per canonical GPU id (`planner/data/gpus.csv`), datasheet values with their source.
- cards: one row per purchasable on-prem card (`planner/data/onprem_cards.csv`), in its own currency.
- gpu_table: gpus plus the custom GPUs (`onprem.custom_cards.*.gpu_specs`) registered in this process,
  under ids that carry a hash of their specs; what the engine reads GPU facts from.

Each CSV is parsed once, by `data_rows` (the stdlib csv module): name checks, did-you-mean and
`fleetplan validate` use those rows and never import pandas; `load_gpus` and `load_cards` build their
DataFrames from the same rows.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import json
import math
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from planner.errors import CatalogError
from planner.text import series, shortened

if TYPE_CHECKING:
    import pandas as pd

DATA = Path(__file__).resolve().parents[1] / "data"   # planner/data: the packaged CSVs

GPU_NUMERIC = ["memory_gb", "memory_bandwidth_gbps", "tdp_watts", "fp32_tflops",
               "fp16_tensor_tflops", "bf16_tensor_tflops", "compute_capability"]
CARD_NUMERIC = ["price", "busy_watts", "idle_watts", "host_cost_per_card", "cards_per_server",
                "life_years", "maintenance_rate_per_year", "sold_in_units_of"]
THROUGHPUT_METRICS = ("fp16_tensor_tflops", "bf16_tensor_tflops", "fp32_tflops", "memory_bandwidth_gbps")


@cache
def data_rows(name: str) -> tuple[tuple[str, ...], tuple[dict[str, str], ...]]:
    """(columns, rows) of the packaged CSV `name` in planner/data; every cell is text as written ('' when empty)."""
    with (DATA / name).open("r", encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        rows = tuple(reader)
        return tuple(reader.fieldnames or ()), rows


def data_frame(name: str) -> pd.DataFrame:
    """The packaged CSV `name` as a DataFrame of text cells (a copy: callers convert columns in place)."""
    import pandas as pd

    columns, rows = data_rows(name)
    return pd.DataFrame(list(rows), columns=list(columns), dtype=str)


def _numeric(col: pd.Series) -> pd.Series:
    """Floats from a text column; an empty cell is NaN (unknown), never zero; ValueError naming the column
    and cell for text that is no number. (Python's float per cell: the catalogs' few hundred cells convert
    in a fraction of what pandas' string methods and to_numeric take on a plan's first read.)"""
    import pandas as pd

    values = []
    for cell in col.tolist():
        text = cell.strip() if isinstance(cell, str) else ""   # a row cut short reads its missing cells as NaN
        try:
            if "_" in text:   # float() reads "1_000" as 1000; a catalog cell with it is a typo
                raise ValueError
            values.append(float(text) if text else math.nan)
        except ValueError:
            raise ValueError(f"column {col.name!r}: {cell!r} is not a number") from None
    return pd.Series(values, index=col.index, name=col.name, dtype=float)


def _split(cell: str) -> list[str]:
    return [p.strip() for p in cell.split(";") if p.strip()]


@lru_cache(maxsize=1)
def gpu_rows() -> dict[str, dict[str, str]]:
    """gpus.csv as text rows by canonical id, in file order; CatalogError for an id given twice."""
    _, rows = data_rows("gpus.csv")
    ids = [row["gpu"] for row in rows]
    duplicated = [g for i, g in enumerate(ids) if g in ids[:i]]
    if duplicated:
        raise CatalogError(f"gpus.csv: duplicate ids {duplicated}")
    return {row["gpu"]: row for row in rows}


@lru_cache(maxsize=1)
def card_rows() -> dict[str, dict[str, str]]:
    """onprem_cards.csv as text rows by card id, in file order (e.g. `card_rows()[card]["currency"]`);
    CatalogError when a card names a GPU that gpus.csv lacks."""
    _, rows = data_rows("onprem_cards.csv")
    unknown = sorted({row["gpu"] for row in rows} - set(gpu_rows()))
    if unknown:
        raise CatalogError(f"onprem_cards.csv: cards name GPUs missing from gpus.csv: {unknown}")
    return {row["card_id"]: row for row in rows}


def board_gpus(card_id: str) -> int:
    """The GPUs of the whole board catalog card `card_id` is sold as only (onprem_cards.csv `sold_in_units_of`: 8 for
    the HGX rows, priced per GPU); 1 for a card sold one at a time (an empty cell) or not in the catalog (a custom
    card). The one reader of that column: the engine's board rule, the quote check, `offers` and the dashboard."""
    cell = str((card_rows().get(card_id) or {}).get("sold_in_units_of") or "").strip()
    try:
        return int(float(cell)) if cell else 1
    except ValueError:
        raise CatalogError(f"onprem_cards.csv: card {card_id!r}: sold_in_units_of {cell!r} is not a number") from None


@lru_cache(maxsize=1)
def load_gpus() -> pd.DataFrame:
    """The GPU catalog indexed by canonical id; numeric columns as floats (NaN = not verified)."""
    gpu_rows()   # checks the ids
    df = data_frame("gpus.csv")
    for col in GPU_NUMERIC:
        df[col] = _numeric(df[col])
    for col in ("mig", "nvlink"):
        df[col] = df[col].str.lower().eq("true")
    return df.set_index("gpu", drop=False)


@lru_cache(maxsize=1)
def load_cards() -> pd.DataFrame:
    """The on-prem card catalog indexed by card id; prices in the row's own `currency`.

    An empty cell is NaN: a card whose `price` is NaN has no sourced price (its `note` says why) and can be
    planned only when a scenario's `card_overrides` gives one. `as_of` is '' when the source is undated.
    """
    card_rows()  # checks the GPU ids
    df = data_frame("onprem_cards.csv")
    for col in CARD_NUMERIC:
        df[col] = _numeric(df[col])
    return df.set_index("card_id", drop=False)


CUSTOM_SOURCE = "scenario custom_cards"   # the `source` of a custom card's price starts with this
OVERRIDE_SOURCE = "scenario card_overrides"   # … and that of a catalog card's price an override replaces
QUOTED_SOURCES = (CUSTOM_SOURCE, OVERRIDE_SOURCE)   # prices the scenario gives: a quote, not catalog data


def custom_card_row(card_id: str, card, currency: str) -> dict:
    """A scenario's custom card (`onprem.custom_cards`, a CustomCard) as a row of the card catalog: the same
    columns as `load_cards`, priced in its own currency (default `currency`, the scenario's); `as_of` is
    empty and `source` names the scenario as where the price came from."""
    gpu = card.gpu if card.gpu_specs is None else register_custom_gpu(card_id, card.gpu_specs)
    return {"card_id": card_id, "gpu": gpu, "price": float(card.price), "currency": card.currency or currency,
            "busy_watts": float(card.busy_watts), "idle_watts": float(card.idle_watts),
            "host_cost_per_card": float(card.host_cost_per_card), "cards_per_server": float(card.cards_per_server),
            "life_years": float(card.life_years), "maintenance_rate_per_year": float(card.maintenance_rate_per_year),
            "as_of": "", "source": f"{CUSTOM_SOURCE}: {card.source or 'no source given'}"}


# ---------------------------------------------------------------------------------------------------
# Custom GPUs: a custom card's `gpu_specs`, the GPU the catalog lacks
#
# The engine reads GPU facts by id through caches shared by every scenario of the process (speeds are
# cached per (metric, GPU id)). A custom GPU's id ends with a hash of its specs, so one id always means
# the same specs and those caches stay right when two scenarios give the same card different specs.

CUSTOM_GPU_PREFIX = "CUSTOM-"   # no catalog id starts with it
_custom_gpus: dict[str, dict] = {}   # custom GPU id -> its row (the columns of load_gpus); rows are only added


def custom_gpu_id(card_id: str, specs) -> str:
    """The GPU id of custom card `card_id` with `specs` (a GpuSpecs): CUSTOM-<CARD ID>-<8 hex of the specs>."""
    digest = hashlib.sha256(json.dumps(specs.model_dump(), sort_keys=True).encode()).hexdigest()[:8]
    return f"{CUSTOM_GPU_PREFIX}{card_id.upper()}-{digest}"


def custom_gpu_ids(custom_cards: dict) -> dict[str, str]:
    """Custom card id -> the id of its GPU (a catalog id, or the custom GPU id of its gpu_specs)."""
    return {card_id: card.gpu if card.gpu_specs is None else custom_gpu_id(card_id, card.gpu_specs)
            for card_id, card in custom_cards.items()}


def register_custom_gpu(card_id: str, specs) -> str:
    """The custom GPU id of `specs`, its row added to `gpu_table()` (once: the id fixes the row)."""
    gpu = custom_gpu_id(card_id, specs)
    if gpu in gpu_rows():
        raise CatalogError(f"gpus.csv: id {gpu} is reserved for custom GPUs (ids starting {CUSTOM_GPU_PREFIX})")
    if gpu not in _custom_gpus:
        figures = {col: math.nan if getattr(specs, col, None) is None else float(getattr(specs, col))
                   for col in GPU_NUMERIC}
        _custom_gpus[gpu] = {
            "gpu": gpu, "family": "", "aliases": "", "vendor": specs.vendor, "kind": "custom", **figures,
            "mig": False, "nvlink": bool(specs.nvlink),
            "source": f"scenario custom_cards.{card_id}.gpu_specs: {specs.name or 'unnamed'}",
            "note": specs.name or "",
        }
    return gpu


def gpu_table() -> pd.DataFrame:
    """`load_gpus()` plus the custom GPUs registered in this process (the engine's view of GPU facts)."""
    return _gpu_table(len(_custom_gpus))


@lru_cache(maxsize=1)
def _gpu_table(custom_count: int) -> pd.DataFrame:
    # keyed by the count: rows are only added, so a count names one table (a row added meanwhile is harmless)
    import pandas as pd

    catalog = load_gpus()
    if not custom_count:
        return catalog
    custom = pd.DataFrame(list(_custom_gpus.values()), columns=list(catalog.columns)).set_index("gpu", drop=False)
    return pd.concat([catalog, custom.astype(catalog.dtypes.to_dict())])


def gpu_kinds() -> dict[str, tuple[str, float]]:
    """GPU id -> (kind, compute capability) of every row of `gpu_table()`: the facts that decide what a GPU
    can run, as a plain dict (one per table, shared: do not change it)."""
    return _gpu_kinds(len(_custom_gpus))


@lru_cache(maxsize=1)
def _gpu_kinds(custom_count: int) -> dict[str, tuple[str, float]]:
    table = _gpu_table(custom_count)
    capability = table["compute_capability"].astype(float).tolist()
    return dict(zip(table.index.tolist(), zip(table["kind"].tolist(), capability)))


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@lru_cache(maxsize=1)
def _gpu_name_index() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """(exact name -> id) for ids and aliases; (family -> ids) for group names, all normalised."""
    exact: dict[str, str] = {}
    families: dict[str, list[str]] = {}
    for gpu, row in gpu_rows().items():
        exact[_norm(gpu)] = gpu
        for alias in _split(row["aliases"]):
            exact.setdefault(_norm(alias), gpu)
        for fam in _split(row["family"]):
            families.setdefault(_norm(fam), []).append(gpu)
    return exact, {k: tuple(v) for k, v in families.items()}


@lru_cache(maxsize=4096)
def resolve_gpu(name: str) -> str | None:
    """Canonical id for an id or alias (case, spaces and dashes ignored), else None.

    A name that is also a family of several GPUs (`A100`, `V100`) is ambiguous unless it is an id.
    Cached: the name index is the packaged catalog's (custom GPUs never enter it), so a name always
    resolves the same, and the engine resolves the same few names for every unit and workload.
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


def family_members(name: str) -> tuple[str, ...]:
    """The canonical ids of the family `name` names when it names no one GPU (`A100-80GB`: its PCIe and SXM
    boards; `A100`: all four), else (). Such a name is also an alias of one member (A100 of A100-40GB-SXM),
    whose did-you-mean sent a PCIe user to SXM speeds: the caller names every member instead."""
    if resolve_gpu(name) is not None:
        return ()
    members = match_gpus(name)
    return members if len(members) > 1 else ()


def card_name_hint(name: str) -> str | None:
    """The tail of "unknown card 'A100'" for a GPU name given where a card id is expected, else None (the caller's
    nearest spelling): a family (`A100`, `H100`) names every card of its GPUs and whether the catalog has a sourced
    price for it, since the nearest spelling (a100-40gb-pcie, h100-pcie) was a card with none, which the plan then
    never bought; a GPU with one card (`H100-SXM`), that card (the nearest spelling was h100-nvl)."""
    members = family_members(name)
    gpus = members or ((resolve_gpu(name),) if resolve_gpu(name) else ())
    cards = [(card, row) for card, row in card_rows().items() if row["gpu"] in gpus]
    if not members:
        if gpus and not cards:   # the nearest spelling was another GPU's card (A100-80GB-SXM: a100-80gb-pcie)
            return f": GPU {gpus[0]} has no on-prem card in the catalog; describe yours in onprem.custom_cards"
        return f"; did you mean '{cards[0][0]}'?" if len(cards) == 1 else None
    if not cards:
        return (f": it names a family of GPUs ({series(members)}), none with an on-prem card in the catalog; "
                "describe yours in onprem.custom_cards")
    # priced as the plan reads it (offers.unpriced_card_rows): a card lacking either figure is never bought
    said = [f"{card} ({'sourced price' if row['price'].strip() and row['host_cost_per_card'].strip() else 'no sourced price'})"
            for card, row in cards]
    cardless = [gpu for gpu in members if gpu not in {row["gpu"] for _, row in cards}]
    return (f": it names a family of GPUs; give {'one of ' if len(cards) > 1 else ''}{series(said, 'or')}"
            + (f"; the catalog has no on-prem card of {series(cardless, 'or')}" if cardless else ""))


def gpus_named(query: str, flag: str = "--gpu") -> tuple[str, ...]:
    """The canonical ids `query` names (match_gpus) for a filter such as `--gpu`; CatalogError (bad input)
    when it is empty (it listed every offer) or names nothing, with the nearest id, alias or family:
    'A100-80G' is the family A100-80GB (both boards), where ids and aliases alone gave A100-80GB-SXM."""
    if not query.strip():
        raise CatalogError(f"{flag}: empty; expected a GPU id, alias or family, e.g. A100-80GB")
    ids = match_gpus(query)
    if not ids:
        near = _suggest_gpu_or_family(query)
        raise CatalogError(f"{flag} {shortened(query, repr)}: no such GPU, alias or family"
                           + (f"; did you mean '{near}'?" if near else ""))
    return ids


def _suggest_gpu_or_family(name: str) -> str | None:
    """The id, alias or family spelt most like `name` (as the catalog spells it), or None."""
    spelt: dict[str, str] = {}
    for gpu, row in gpu_rows().items():
        for written in (gpu, *_split(row["aliases"]), *_split(row["family"])):
            spelt.setdefault(_norm(written), written)
    key = _norm(name)
    hits = [h for h in difflib.get_close_matches(key, list(spelt), n=20, cutoff=0.6)
            if _same_model(key, h) and _model_letters(name) == _model_letters(spelt[h])]
    return spelt[hits[0]] if hits else None


def suggest(name: str, choices: list[str] | tuple[str, ...], n: int = 3) -> list[str]:
    """Closest spellings of `name` among `choices` (case-insensitive). A choice that begins with `name` when
    both are spelt without separators comes first: 'rtx3060' is the RTX 3060 (rtx-3060-12gb), which
    difflib alone put after 'rtx-3090'."""
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    if not close and len(name) >= 3:   # a choice's beginning ('fp32' for 'fp32_tflops'), spelt too short to be close
        close = [c for c in lowered if c.startswith(name.lower())][:n]
    bare = _bare(name)
    if len(bare) >= 3:
        begins = [c for c in lowered if _bare(c).startswith(bare) and c != name.lower()]
        close = list(dict.fromkeys([*begins, *close]))[:n]
    return [lowered[m] for m in close]


def _bare(text: str) -> str:
    """`text` in lower case without separators (- _ . space): how a name is typed in a hurry."""
    return re.sub(r"[-_.\s]", "", text.lower())


def suggest_gpu(name: str, same_model: bool = False) -> list[str]:
    """Canonical ids whose id or alias is spelt like `name`; with `same_model`, only those that can name the model
    meant (`_same_model`): what a "did you mean" offers. Without it, the nearest spellings of other models too,
    for a caller that says so (the inventory's "the nearest name there is …, another GPU unless this line
    misspells it")."""
    exact, _ = _gpu_name_index()
    key = _norm(name)
    hits = [h for h in difflib.get_close_matches(key, list(exact), n=20, cutoff=0.6)
            if not same_model or (_same_model(key, h) and _model_letters(name) == _model_letters(_spellings()[h]))]
    return list(dict.fromkeys(exact[h] for h in hits))[:3]


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    """Each GPU id and alias as the catalog writes it, by its normalised name (_gpu_name_index's keys)."""
    spelt: dict[str, str] = {}
    for gpu, row in gpu_rows().items():
        for written in (gpu, *_split(row["aliases"])):
            spelt.setdefault(_norm(written), written)
    return spelt


def _model_letters(written: str) -> str:
    """The letters written onto a GPU's model number, which make it another model: the S of L40S, the G of A10G, the
    X of MI300X ('' for H100-SXM, whose form factor follows a separator, and for a name with no number)."""
    found = re.match(r"\D*\d+([A-Za-z]*)", written)
    return found[1].lower() if found else ""


def _same_model(typed: str, known: str) -> bool:
    """Whether `known` (a normalised id, alias or family) can be what `typed` (normalised) meant, as
    docs/scenario-format.md states the rule: the same model number (all digits, in order) under another spelling of its
    series (`rxt4090`, `4090`, `nvidial40s`: _series_spelt), or the same series letters (those before the first digit)
    with the number mistyped by one digit dropped, doubled or swapped with its neighbour (`rtxa500`: RTX-A5000); a
    name with no number by its spelling alone. difflib alone found `l20` close to `hl205` (Gaudi HL-205), and
    `nvidial20` to `nvidial40s`; the number alone offered V100 for `h100` and B300 for `mi300`, the digit added L4 for
    `l40`: other models, not typos. The letters written onto the number are the callers' check (_model_letters: L40
    is not the L40S), as normalised names no longer show where the number ends."""
    digits_typed, digits_known = re.sub(r"\D", "", typed), re.sub(r"\D", "", known)
    series_typed, series_known = re.match(r"\D*", typed)[0], re.match(r"\D*", known)[0]
    if digits_typed == digits_known:
        return not digits_typed or _series_spelt(series_typed, series_known)
    return series_typed == series_known and _one_digit_slip(digits_typed, digits_known)


def _series_spelt(typed: str, known: str) -> bool:
    """Whether series letters `typed` can spell `known`: none typed (the number alone), its letters in another order
    (`rxt`), or with or without a maker's name before them (`nvidial` for `l`)."""
    return not typed or sorted(typed) == sorted(known) or typed.endswith(known) or known.endswith(typed)


def _one_digit_slip(typed: str, known: str) -> bool:
    """Whether the number `typed` is `known` with one digit dropped, one doubled, or two neighbours swapped."""
    if len(known) == len(typed) + 1:
        return any(known[:i] + known[i + 1:] == typed for i in range(len(known)))
    if len(typed) == len(known) + 1:
        return any(typed[i] == typed[i + 1] and typed[:i] + typed[i + 1:] == known for i in range(len(typed) - 1))
    return len(typed) == len(known) and any(typed[:i] + typed[i + 1] + typed[i] + typed[i + 2:] == known
                                            for i in range(len(typed) - 1))
