"""The packaged price snapshot: the embedded default offers table, readable offline.

The `snapshot_file` of each registry row that has one (`snapshots/aws.csv`, `snapshots/azure.csv`) holds
offers-table rows (see `schema.OFFER_COLUMNS`) built by `scripts/build_snapshot.py` from public price
data; `snapshots/manifest.json` says what they were built from and the `as_of` range of each file.
"""

from __future__ import annotations

import difflib
import io
import json
import os
import re
import warnings
from collections.abc import Sequence
from typing import IO

import pandas as pd

from pricing_adapters import PACKAGE_DIR, registry
from pricing_adapters.schema import OFFER_COLUMNS, OffersSchemaError, name_rows, shown_cell, validate_offers
from pricing_adapters.shown import plural

SNAPSHOT_PROVIDERS = tuple(p.name for p in registry.providers() if p.snapshot_file)  # ("aws", "azure")
_TEXT = [c for c, t in OFFER_COLUMNS.items() if t == "string"]
_NUMERIC = [c for c, t in OFFER_COLUMNS.items() if t == "float64"]


def _snapshot_dir():
    return PACKAGE_DIR / "snapshots"


def _read_csv(f: IO[str] | str) -> pd.DataFrame:
    """CSV text as read, not yet checked: empty text cells stay "", empty numeric cells become NaN."""
    return pd.read_csv(
        f,
        dtype={**dict.fromkeys(_TEXT, "string"), "gpu_known": "bool", "term_months": "int64"},
        keep_default_na=False,
        na_values={c: [""] for c in _NUMERIC},
    )


# A term longer than this is a unit error (hours or days in the months column), not a contract: clouds sell
# reservations and savings plans of 1 or 3 years (Azure some of 5), and 1200 months is a century.
MAX_TERM_MONTHS = 1200
# ASCII digits (\d also takes ١٢, which int() reads as 12), at most 9: more is over MAX_TERM_MONTHS, and int()
# of more than 4,300 raised Python's "Exceeds the limit … for integer string conversion", naming no row
_WHOLE = r"[+-]?[0-9]{1,9}"


# A row of an offers CSV is about 320 bytes (the packaged snapshot's 1,897 rows: 228 to 437, 324 on average).
# Every GPU offer of AWS and Azure, in every region and purchase option, is at most some 100,000 rows: 32 MB
# (44 MB were every row as long as the longest). 64 MiB holds twice that (200,000 average rows) and stops a
# wrong or endless file before pandas parses it: a 147 MB CSV of 400,000 rows was read whole, 595 MB of memory.
MAX_OFFERS_CSV_BYTES = 64 * 1024 * 1024


def _bounded(f: IO[str] | str | os.PathLike, origin: str) -> IO:
    """The offers CSV `f` (a path or an open text stream) read to at most MAX_OFFERS_CSV_BYTES, one more to
    tell; OffersSchemaError when it is longer (a text stream's characters counted as bytes)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            data = fh.read(MAX_OFFERS_CSV_BYTES + 1)
    else:
        data = f.read(MAX_OFFERS_CSV_BYTES + 1)
    if len(data) > MAX_OFFERS_CSV_BYTES:
        raise OffersSchemaError(f"{origin}: larger than {MAX_OFFERS_CSV_BYTES // 2**20} MiB; not an offers table "
                                "(every GPU offer of AWS and Azure, in every region and purchase option, is "
                                "at most about 45 MB)")
    return io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)


def read_offers_csv(f: IO[str] | str, origin: str = "offers CSV") -> pd.DataFrame:
    """An offers table from CSV text, validated: empty text cells stay "", empty numeric cells become NaN.

    A user's file, so every cell is read as text first and each number or flag checked on its own: a bad
    cell raises OffersSchemaError naming the file, the row (its offer), the column and what was expected,
    where a typed read would stop at the first one with pandas' words (or an OverflowError). A file over
    MAX_OFFERS_CSV_BYTES is refused before it is parsed."""
    text = _bounded(f, origin)
    try:
        with warnings.catch_warnings():
            # a data row longer than the header: pandas would warn and drop the extra fields
            warnings.simplefilter("error", pd.errors.ParserWarning)
            raw = pd.read_csv(text, dtype=str, keep_default_na=False, index_col=False)
    except pd.errors.EmptyDataError:   # pandas says "No columns to parse from file", naming no file
        raise OffersSchemaError(f"{origin}: the file is empty; expected a header line naming the offers columns "
                                "(offer_id, provider, region, sku, … as docs/offers-contract.md lists them) and a "
                                "row per offer") from None
    except UnicodeDecodeError as exc:
        raise OffersSchemaError(f"{origin}: not UTF-8 text (byte {exc.object[exc.start:exc.start + 1]!r} at offset "
                                f"{exc.start}); expected an offers CSV file in UTF-8") from None
    except pd.errors.ParserWarning:
        raise OffersSchemaError(f"{origin}: the data rows have more fields than the header line has columns (an "
                                "unquoted comma in a text cell?); expected one field per header column") from None
    except pd.errors.ParserError as exc:
        text = str(exc).removeprefix("Error tokenizing data. C error: ").strip()
        raise OffersSchemaError(f"{origin}: not readable as CSV: {text}") from None
    _check_header(list(raw.columns), origin)
    return validate_offers(_typed(raw, origin), origin=origin)


# how close an unknown header name must be to a contract column to be taken for a misspelling of it (difflib's
# ratio: "asof" and "as_of" 0.89, "hourly_usd" and "hourly_price" 0.64)
NEAR_COLUMN = 0.8


def _check_header(columns: list[str], origin: str) -> None:
    """OffersSchemaError for a contract column given twice — pandas reads the second `hourly_price` as
    `hourly_price.1`, which validate_offers then ignored, so the first copy priced the plan without a word —
    and for an unknown column that is a contract column misspelt (`asof`: the dates were read as missing), when
    that column is not there too. Other columns (a comment of the user's, `notes` beside `note`) are ignored,
    as before."""
    known = list(OFFER_COLUMNS)
    twice = sorted({m[1] for c in columns if (m := re.fullmatch(r"(.+)\.[0-9]+", c)) and m[1] in known})
    if twice:
        raise OffersSchemaError(f"{origin}: columns given twice {twice}; expected each once")
    near = {c: close[0] for c in columns if c not in known
            and (close := difflib.get_close_matches(c.strip().lower(), known, n=1, cutoff=NEAR_COLUMN))
            and close[0] not in columns}   # `notes` beside `note`: a column of the user's own
    if near:
        raise OffersSchemaError(f"{origin}: unknown {plural(len(near), 'column')} "
                                + ", ".join(f"{shown_cell(c)} (did you mean {m!r}?)" for c, m in near.items())
                                + "; expected the columns of docs/offers-contract.md")


def _typed(raw: pd.DataFrame, origin: str) -> pd.DataFrame:
    """`raw` (every cell text) with its number and flag columns typed; OffersSchemaError naming every cell
    that is not what its column holds. Empty number cells become NaN (validate_offers names the required ones)."""
    out = raw.copy()
    problems = pd.Series([""] * len(raw), index=raw.index, dtype=object)

    def flag(mask: pd.Series, text) -> None:
        for i in mask[mask].index:
            problems[i] = ", ".join(x for x in (problems[i], text(raw.at[i, col])) if x)

    for col in [c for c in _NUMERIC if c in raw.columns]:
        cells = raw[col].fillna("").str.strip()   # a short row leaves its last cells NaN
        numbers = pd.to_numeric(cells.mask(cells == ""), errors="coerce").astype("float64")   # 1e400: inf, flagged later
        # pandas reads an integer of 310 to 4,300 digits as inf but one of more as NaN (Python's int limit): inf too
        huge = numbers.isna() & cells.str.fullmatch(r"[+-]?[0-9]+")
        numbers[huge] = [float(v) for v in cells[huge]]
        flag((cells != "") & numbers.isna() & (cells.str.lower() != "nan"),
             lambda v, col=col: f"{col} {shown_cell(v)} is not a number")
        out[col] = numbers.astype("float64")
    if (col := "term_months") in raw.columns:
        cells = raw[col].fillna("").str.strip()   # a short row leaves its last cells NaN
        whole = cells.str.fullmatch(_WHOLE)
        months = pd.Series([int(v) if ok else -1 for v, ok in zip(cells, whole)], index=raw.index, dtype=object)
        flag(~whole | (months < 0) | (months > MAX_TERM_MONTHS),
             lambda v: f"term_months {shown_cell(v)}: expected a whole number of months from 0 to {MAX_TERM_MONTHS} "
                       "(0, 12 or 36)")
        out[col] = months.where(whole & (months >= 0) & (months <= MAX_TERM_MONTHS), 0).astype("int64")
    if (col := "gpu_known") in raw.columns:
        cells = raw[col].fillna("").str.strip().str.lower()
        flag(~cells.isin(("true", "false")), lambda v: f"gpu_known {shown_cell(v)}: expected True or False")
        out[col] = cells == "true"
    if (problems != "").any():
        if "offer_id" not in raw.columns:
            raise OffersSchemaError(f"{origin}: " + "; ".join(f"row {i + 1}: {p}" for i, p in enumerate(problems) if p))
        raise OffersSchemaError(f"{origin}: " + name_rows(raw.reset_index(drop=True), problems.reset_index(drop=True)))
    return out


def load_snapshot(providers: Sequence[str] | None = None) -> pd.DataFrame:
    """The packaged offers of `providers` (default: every registry row with a snapshot file), validated,
    in registry order (aws, then azure)."""
    packaged = [p for p in registry.providers() if p.snapshot_file]
    have = [p.name for p in packaged]
    wanted = list(have if providers is None else providers)
    unknown = sorted(set(wanted) - set(have))
    if unknown:
        raise ValueError(f"no packaged snapshot for {plural(len(unknown), 'provider')} {unknown}; have {have}")
    frames, names = [], []
    for provider in packaged:
        if provider.name in wanted:
            with (_snapshot_dir() / provider.snapshot_file).open("r", encoding="utf-8") as f:
                frames.append(_read_csv(f))
            names.append(provider.snapshot_file)
    if not frames:
        return validate_offers(pd.DataFrame({c: [] for c in OFFER_COLUMNS}), origin="snapshot")
    # checked once, all files together (each file alone would be checked again after the concat)
    return validate_offers(pd.concat(frames, ignore_index=True), origin=f"snapshot {' + '.join(names)}")


def snapshot_info() -> dict:
    """What the packaged snapshot holds: `built_at`, `built_from`, and per provider the row count, the
    `as_of` range (`as_of_min`, `as_of_max`; ISO dates, None when no row states a date) and the undated
    rows (`rows_without_as_of`); `commitments` (which reserved / savings-plan options have prices, per
    provider and region) and `retired_sizes_dropped` (size, series, GPU, retired_on, rows dropped, source)."""
    manifest = json.loads((_snapshot_dir() / "manifest.json").read_text(encoding="utf-8"))
    providers = {p.name: manifest["files"][p.snapshot_file] for p in registry.providers()
                 if p.snapshot_file in manifest["files"]}
    return {"built_at": manifest["built_at"], "built_from": manifest["built_from"], "providers": providers,
            "commitments": manifest.get("commitments", {"priced": {}}),
            "retired_sizes_dropped": manifest.get("retired_sizes_dropped", [])}
