"""The offers table: the one contract between price sources and the planner (docs/offers-contract.md).

One row per way of getting capacity: a cloud instance type under one purchase option in one region,
or an on-prem card bought outright. Prices are per unit (instance or card) in the row's `currency`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date

import numpy as np
import pandas as pd

from pricing_adapters import registry
from pricing_adapters.currencies import currency_meant, is_iso_4217
from pricing_adapters.shown import plural, shortened

PROVIDERS = registry.names()  # the rows at import; validate_offers reads the registry at each call
PURCHASE_OPTIONS = (
    "on_demand",
    "spot",
    "reserved_1y",
    "reserved_3y",
    "savings_plan_1y",
    "savings_plan_3y",
    "low_priority",
    "purchase",
)
HOURS_PER_MONTH = 730.0  # 8760 a year, as the planner and the adapters count a term's hours

# column -> pandas dtype. Documented in the README ("The offers table").
OFFER_COLUMNS: dict[str, str] = {
    "offer_id": "string",          # provider:region:sku:purchase_option[:payment_option:class]
    "provider": "string",          # a registry name (pricing_adapters.registry): aws | azure | onprem
    "region": "string",            # cloud region code; "onprem" for cards
    "sku": "string",               # instance type / VM size / card id
    "purchase_option": "string",   # one of PURCHASE_OPTIONS
    "gpu": "string",               # canonical GPU id (planner/data/gpus.csv); raw name when unknown
    "gpu_known": "bool",           # False: accelerator name not mapped to a canonical id (kept, flagged)
    "accelerator_name": "string",  # the name as the source spells it (GpuInfo.Name, Azure family …)
    "gpu_count": "float64",        # GPUs per unit; fractional for partial-GPU VMs
    "gpu_memory_gb": "float64",    # per GPU (or per slice of a partial GPU), nominal GB as the vendor sells it
    "gpu_memory_mib": "float64",   # per GPU (or slice), usable MiB as the cloud API reports it; empty when not given
    "vcpus": "float64",            # per unit
    "memory_gb": "float64",        # RAM per unit
    "hourly_price": "float64",     # per unit-hour, in `currency`; reservations: the recurring hourly fee
    "upfront_price": "float64",    # per unit, paid at the start of each term (effective = hourly + upfront / term hours)
    "currency": "string",          # a code of ISO 4217 list one (pricing_adapters/data/currencies.csv)
    "term_months": "int64",        # 0, 12 or 36
    "zone": "string",              # availability zone the price was read in (spot), else empty
    "as_of": "string",             # ISO date the price was read; empty when the source does not say
    "source": "string",            # where the price came from (repository@commit:path, API, vendor)
    "note": "string",              # flags: unknown accelerator, restrictions, inferred values
}

# A GPU-hour is never free: for these options the hourly rate is the whole price, so 0 is a data error
# (a typo or a placeholder), and planning on it would cost a fleet at 0. Reservations may have a zero
# hourly fee (All Upfront) but not a zero fee in total; on-prem `purchase` rows carry no hourly price.
HOURLY_OPTIONS = ("on_demand", "spot", "low_priority", "savings_plan_1y", "savings_plan_3y")
# the term of each commitment option, in months. A commitment row may say 0 for its option's own term (read
# as that term); any other figure contradicts the option (a reserved_1y row of 36 months was charged three
# years). Other options have no term: the planner ignores theirs.
TERM_MONTHS_OF_OPTION = {"reserved_1y": 12, "savings_plan_1y": 12, "reserved_3y": 36, "savings_plan_3y": 36}
# GPUs in one unit (instance, VM, card). The biggest units sold today hold 8-16 GPUs (p5, ND H100 v5,
# trn1/trn2 with 16 devices); a rack sold as one unit (GB200 NVL72) holds 72. 128 leaves room for that
# and rejects what is certainly a unit error (a price or a memory size in the count column, 1e400).
MAX_GPUS_PER_UNIT = 128
# Prices no offer can have, in any currency: the dearest GPU instance rents for about 100 USD an hour
# (15,000 JPY) and a 3-year all-upfront reservation of one costs about 1.1 million USD. A larger figure
# is a broken feed or a typo (1e300 reads as a number), and as an LP cost it would swamp every other one.
MAX_HOURLY_PRICE = 1e9
MAX_UPFRONT_PRICE = 1e12
# In USD, the currency every live source here asks for and the packaged snapshot is in, the scale of a rented
# offer is known and a far tighter bound holds. The dearest unit-hour packaged is 216.32 USD (Azure
# ND128isr_NDR_GB200_v6 in brazilsouth, 4 GPUs: 54 USD a GPU-hour); MAX_GPUS_PER_UNIT such GPUs in one unit would
# rent for 6,922 USD an hour. 100,000 cannot refuse a real price and still refuses a feed scaled by a million (an
# A100's 3.673 USD/h read as 3,673,000: the hostile-input audit). A reservation's upfront: a 3-year term paid at
# that rate, 2.6 billion USD (the largest in the API samples is 283,824). On-prem purchases keep the bound of any
# currency: a scenario may price a card up to its own MAX_MONEY.
MAX_USD_HOURLY_PRICE = 1e5
MAX_USD_UPFRONT_PRICE = MAX_USD_HOURLY_PRICE * 36 * HOURS_PER_MONTH
# … and the cheapest: the cheapest GPU instance-hour in the packaged snapshot is 0.0579 USD (Azure
# NC4as_T4_v3 spot), about 0.018 in the dearest currency unit (KWD). A price per unit-hour below 1e-4 in any
# currency — hourly, or a reservation's hourly fee and upfront spread over its term — is a unit error or a
# broken feed (an Azure price per "100000000 Hours", 1e-300 in a CSV), and would plan a fleet at a cost of 0.
MIN_HOURLY_PRICE = 1e-4
# A term longer than this is a unit error (hours or days in the months column), not a contract: clouds sell
# reservations and savings plans of 1 or 3 years (Azure some of 5), and 1200 months is a century.
MAX_TERM_MONTHS = 1200
TERM_MONTHS_EXPECTED = f"expected a whole number of months from 0 to {MAX_TERM_MONTHS} (0, 12 or 36)"
# A term_months cell as text: ASCII digits (\d also takes ١٢, which int() reads as 12), at most 9 (more is over
# MAX_TERM_MONTHS, and int() of more than 4,300 raised Python's "Exceeds the limit … for integer string conversion",
# naming no row), and a whole number as pandas writes a float column (12.0: a plan's offers, whose cards have no term)
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}(?:\.0*)?")
ROWS_NAMED = 5  # a message names this many bad rows, then counts the rest
FACT_NUMBERS = ("gpu_memory_gb", "gpu_memory_mib", "vcpus", "memory_gb")   # number columns that may be empty
_CURRENCY = re.compile(r"[A-Z]{3}")   # the shape of an ISO 4217 code; is_iso_4217: a code of list one


# an ISO date, and a time after T or a space as the price APIs write it (2023-11-01T00:00:00Z)
_ISO_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ][0-9:.]+(?:Z|[+-][0-9:]+)?)?")


def is_iso_date(text: str) -> bool:
    """Whether `text` is an ISO date (YYYY-MM-DD), with a time after it or not."""
    found = _ISO_DATE.fullmatch(text.strip())
    try:
        return found is not None and bool(date.fromisoformat(found[1]))
    except ValueError:   # 2026-13-01
        return False

# Columns a table may lack (older offers CSVs and price stores), and what they then hold: optional text is
# empty (a missing cell too), an accelerator is taken as mapped, the usable memory as unknown.
OPTIONAL_TEXT = ("zone", "note", "accelerator_name", "as_of")
OPTIONAL_DEFAULTS = {**dict.fromkeys(OPTIONAL_TEXT, ""), "gpu_known": True, "gpu_memory_mib": np.nan}

REQUIRED_NON_NULL = ("offer_id", "provider", "region", "sku", "purchase_option", "gpu",
                     "hourly_price", "upfront_price", "currency", "term_months", "source")


class OffersSchemaError(ValueError):
    """An offers table broke the contract; the message lists every problem found."""


def empty_offers() -> pd.DataFrame:
    """An offers table with no rows and every column typed."""
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in OFFER_COLUMNS.items()})


def validate_offers(df: pd.DataFrame, origin: str = "offers", check: bool = True,
                    usd_bounds: bool = True, lines: Sequence[int] | None = None) -> pd.DataFrame:
    """Return `df` with the contract's columns, in order and typed; raise listing every violation.

    Optional text columns (`zone`, `note`, `accelerator_name`, `as_of`) may be missing and are filled
    with empty strings; `gpu_known` defaults to True and `gpu_memory_mib` to unknown (NaN), so offers
    CSVs and price stores written before that column existed still load. `check=False` only types and orders the columns
    (for a caller that sorts good rows from bad ones itself, with `row_problems`). `usd_bounds=False` lets USD
    prices above USD's own bounds through (a fetch, whose refresh first compares them with the prices in force).
    `lines`: the file line each row starts on (a CSV's), named in the messages instead of the row's number.
    """
    twice = sorted({c for c in df.columns[df.columns.duplicated()] if c in OFFER_COLUMNS})
    if twice:
        raise OffersSchemaError(f"{origin}: columns given twice {twice}; expected each once")
    # a missing column is said with the file's other problems, not alone first (its rows are checked without it)
    missing = missing_columns(df.columns)
    problems: list[str] = []   # what the columns cannot hold, found while typing them
    typed = {}
    cells = np.full(len(df), "", dtype=object)   # per row: cells its column cannot hold (term_months, gpu_known)
    for col, dtype in OFFER_COLUMNS.items():
        if col in missing:   # a stand-in no check flags: empty, a term of 0 (its option's own)
            column = pd.Series(_STAND_IN[dtype], index=df.index, dtype=dtype)
        elif col not in df.columns:
            column = pd.Series(OPTIONAL_DEFAULTS[col], index=df.index)
        else:
            column = df[col]
            if col in OPTIONAL_TEXT:   # empty text, also in a column pandas read as all NaN (float: "" no fill for it)
                column = (column.astype(object) if column.dtype.kind == "f" else column).fillna("")
        want = pd.api.types.pandas_dtype(dtype)
        if column.dtype == want:   # a column read as its type already (a snapshot, a store) is kept: astype would copy it
            typed[col] = column
        elif col in _CELL_TYPED:   # read as read_offers_csv reads the CSV's text: `bool("False")` was True, 12.7 was 12
            try:
                typed[col], said = _CELL_TYPED[col](column)
            except TypeError as exc:   # a cell that is no value at all (a list: unhashable)
                problems.append(f"column {col!r} is not {dtype}: {exc}")
                continue
            cells = np.where(said == "", cells, np.where(cells == "", said, cells + ", " + said))
        else:
            try:
                typed[col] = column.astype(want)
            except (TypeError, ValueError) as exc:
                problems.append(f"column {col!r} is not {dtype}: {exc}")
    # one frame from the typed columns, in contract order, with a fresh index (never `df` itself)
    df = pd.DataFrame(typed, copy=False).reset_index(drop=True)
    with_ids = df if "offer_id" not in missing else df.drop(columns="offer_id")   # rows named by their place alone
    if (cells != "").any():
        problems.append(name_rows(with_ids, pd.Series(cells, dtype=object), lines))
    missing_said = [f"missing columns {missing}"] if missing else []
    if problems:   # a cell its column cannot hold: the row checks would read a stand-in
        raise OffersSchemaError(f"{origin}: " + "; ".join(missing_said + problems))
    problems = missing_said
    if missing and not check:
        raise OffersSchemaError(f"{origin}: " + "; ".join(problems))
    # a commitment row's term 0 is its option's own term: said here once, so that every reader (the plan's
    # costs, the offers' ranking, the price floor below) spreads its upfront over the same hours
    own = df["purchase_option"].astype(object).map(TERM_MONTHS_OF_OPTION)
    if ((df["term_months"] == 0) & own.notna()).any():
        df["term_months"] = df["term_months"].mask((df["term_months"] == 0) & own.notna(), own).astype("int64")
    if not check:
        return df

    def named(per_row) -> str:   # the rows of `per_row` as name_rows names them, by their file lines where known
        return name_rows(with_ids, per_row, lines)

    # an empty text cell reads as "" (read_offers_csv keeps no NA in text): as missing as NaN
    empty = {col: _rows(df[col].isna() | (df[col] == "") if OFFER_COLUMNS[col] == "string" else df[col].isna())
             for col in REQUIRED_NON_NULL if col not in missing}
    if any(mask.any() for mask in empty.values()):   # the text per row only when some row is bad
        # a number column reads "nan" or "" alike as NaN: the row is named, with what was expected
        said = {col: f"empty or not a number {col!r}" if OFFER_COLUMNS[col] == "float64" else f"empty {col!r}"
                for col in REQUIRED_NON_NULL}
        problems.append(named(pd.Series([", ".join(said[c] for c, mask in empty.items() if mask[i])
                                                 for i in range(len(df))], dtype=object)))
    known = registry.names()
    # the distinct values only: iterating a text column cell by cell costs more than the rest of the checks
    bad_provider = sorted(set(df["provider"].dropna().unique()) - set(known))
    if bad_provider:
        problems.append(f"unknown {plural(len(bad_provider), 'provider')} {bad_provider}; expected one of {list(known)}")
    bad_option = sorted(set(df["purchase_option"].dropna().unique()) - set(PURCHASE_OPTIONS))
    if bad_option:
        problems.append(f"unknown {plural(len(bad_option), 'purchase_option')} {bad_option}; "
                        f"expected one of {list(PURCHASE_OPTIONS)}")
    # a code of ISO 4217 list one as written: a lower-case one would ask for a rate under a key no fx names, and one
    # outside the list (the withdrawn BGN, a typo EUE) for a rate the scenario refuses (an empty one is named above)
    bad_currency = {c: _currency_problem(c) for c in df["currency"].dropna().unique() if c and not is_iso_4217(c)}
    if bad_currency:
        problems.append(named(pd.Series([bad_currency.get(c, "") if isinstance(c, str) else ""
                                                 for c in df["currency"].astype(object)], dtype=object)))
    if any(_rows(mask).any() for mask, _ in _number_flags(df, usd_bounds)):   # the text per row only when some row is bad
        problems.append(named(number_problems(df, usd_bounds)))
    if df["offer_id"].duplicated().any():
        repeated = _repeated_ids(df["offer_id"], lines)
        if (repeated != "").any():   # an empty offer_id given twice is named above
            problems.append(named(repeated))
    dates = _bad_dates(df)
    if dates.any():
        problems.append(named(pd.Series([f"as_of {shown_cell(str(d))} is not an ISO date (YYYY-MM-DD; empty for "
                                         "undated)" if bad else "" for d, bad in zip(df["as_of"], dates)], dtype=object)))
    if problems:
        raise OffersSchemaError(f"{origin}: " + "; ".join(problems))
    return df


def missing_columns(columns) -> list[str]:
    """The contract's columns that `columns` lacks, leaving out those a table may lack (OPTIONAL_DEFAULTS)."""
    return [c for c in OFFER_COLUMNS if c not in columns and c not in OPTIONAL_DEFAULTS]


def cell_shown(value) -> str:
    """A cell as a message quotes it: a text as shown_cell shows it ('12.7'), anything else as it prints (12.7)."""
    return shown_cell(value) if isinstance(value, str) else shortened(str(value))


def whole_months(column: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """(term_months as int64, the problem of each row: '' or "term_months '12.7': expected a whole number of months
    …") of a column of any type: whole numbers from 0 to MAX_TERM_MONTHS, as integers, as text (`12`, and `12.0` as
    pandas writes a float column) or as floats (12.0, not 12.7). A bad cell reads as 0."""
    if pd.api.types.is_bool_dtype(column.dtype):   # True is no number of months (int64 would take it as 1)
        months, ok = pd.Series(0, index=column.index, dtype="int64"), np.zeros(len(column), dtype=bool)
    elif pd.api.types.is_integer_dtype(column.dtype) and not column.isna().any():
        months, ok = column.astype("int64"), np.ones(len(column), dtype=bool)
    elif pd.api.types.is_numeric_dtype(column.dtype):   # floats, or integers with an empty cell (Int64's NA)
        values = column.astype("float64").to_numpy()
        with np.errstate(invalid="ignore"):
            ok = np.isfinite(values) & (values == np.floor(values))
        months = pd.Series(np.where(ok, values, 0), index=column.index).astype("int64")
    else:   # text, or Python objects: each distinct cell read once (a column holds a few)
        read = {v: _whole_month(v) for v in column.astype(object).unique()}
        got = column.astype(object).map(read)
        ok = got.notna().to_numpy()
        months = got.fillna(0).astype("int64")
    ok = ok & (months.to_numpy() >= 0) & (months.to_numpy() <= MAX_TERM_MONTHS)
    said = np.full(len(column), "", dtype=object)
    for i in np.flatnonzero(~ok):
        said[i] = f"term_months {cell_shown(_empty_as_text(column.iloc[i]))}: {TERM_MONTHS_EXPECTED}"
    return months.where(ok, 0), said


def _whole_month(value) -> int | None:
    """The whole number of months a cell holds (a text as _WHOLE reads it, an int, a whole float), else None."""
    if isinstance(value, str):
        return int(float(value)) if _WHOLE.fullmatch(value.strip()) else None
    if isinstance(value, (bool, np.bool_)) or value is None or value is pd.NA:
        return None
    if isinstance(value, (int, np.integer)):
        return int(value) if abs(value) < 2**53 else None
    if isinstance(value, (float, np.floating)) and np.isfinite(value) and value == np.floor(value) and abs(value) < 2**53:
        return int(value)
    return None


def known_flags(column: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """(gpu_known as bool, the problem of each row: '' or "gpu_known 'maybe': expected True or False") of a column of
    any type: True and False as booleans, or as text in any case (`True`, `false`) as a CSV writes them. A bad cell
    (an empty one, 1, 'yes') reads as True."""
    def flag(value):
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        text = value.strip().lower() if isinstance(value, str) else None
        return {"true": True, "false": False}.get(text)

    read = {v: flag(v) for v in column.astype(object).unique()}   # each distinct cell once
    got = column.astype(object).map(read)
    ok = got.notna().to_numpy()
    said = np.full(len(column), "", dtype=object)
    for i in np.flatnonzero(~ok):
        said[i] = f"gpu_known {cell_shown(_empty_as_text(column.iloc[i]))}: expected True or False"
    return got.where(ok, True).astype("bool"), said


def _empty_as_text(value):
    """A missing cell (NaN, None, NA) as the empty text a CSV holds there; anything else as it is."""
    return "" if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)) else value


# what validate_offers puts in a missing column of each type, for the checks of the other columns
_STAND_IN = {"string": pd.NA, "float64": np.nan, "int64": 0}
# the columns validate_offers reads cell by cell when they do not come typed
_CELL_TYPED = {"term_months": whole_months, "gpu_known": known_flags}


def _currency_problem(code: str) -> str:
    """What is wrong with the currency cell `code`, which is no code of ISO 4217 list one, with the code meant where
    currencies.currency_meant can tell ('usd': did you mean 'USD'?; 'BGN': withdrawn, and the code in use there now)."""
    meant = currency_meant(code)
    expected = ("a code of ISO 4217 list one" if _CURRENCY.fullmatch(code)
                else "an ISO 4217 code of three capital letters")
    return f"currency {shown_cell(code)}: expected {expected}" + (f" ({meant})" if meant else ", e.g. USD")


def _repeated_ids(offer_ids: pd.Series, lines: Sequence[int] | None = None) -> pd.Series:
    """For each row, 'duplicate offer_id, first at row N' (1-based data rows; 'at line N' where `lines` gives the
    rows' file lines) when an earlier row has its offer_id, else ''; empty ids are not compared (validate_offers
    names them)."""
    first: dict[str, int] = {}
    out = []
    for i, oid in enumerate(offer_ids.astype(object)):
        if not isinstance(oid, str) or not oid or first.setdefault(oid, i) == i:
            out.append("")
        else:
            out.append(f"duplicate offer_id, first at {row_place(first[oid], lines)}")
    return pd.Series(out, dtype=object)


def _bad_dates(df: pd.DataFrame) -> np.ndarray:
    """Rows whose as_of is neither empty nor an ISO date: "yesterday" was read as undated without a word."""
    as_of = df["as_of"].astype(object).fillna("")
    bad = {d for d in as_of.unique() if str(d).strip() and not is_iso_date(str(d))}   # distinct values: cheap
    return _rows(as_of.isin(list(bad))) if bad else np.zeros(len(df), dtype=bool)


def _rows(mask) -> np.ndarray:
    """A row mask as a numpy bool array, a missing value (NA) as False."""
    if getattr(mask, "dtype", None) == np.bool_:   # numpy's bool holds no NA: nothing to fill
        return np.asarray(mask)
    return np.asarray(pd.Series(mask).fillna(False), dtype=bool)


def _flag(out: list[list[str]], mask, text) -> None:
    """Add `text` to each row of `mask`: a text, or a function of the row's position giving it."""
    for i in np.flatnonzero(_rows(mask)):
        out[i].append(text(i) if callable(text) else text)


def _number_flags(df: pd.DataFrame, usd_bounds: bool = True) -> list[tuple[pd.Series, str | Callable[[int], str]]]:
    """(row mask, problem) of each bad-number check of a typed offers table, the problem a text or a function of
    the row's position (_flag); `usd_bounds=False` leaves out the bounds of USD prices (MAX_USD_HOURLY_PRICE,
    MAX_USD_UPFRONT_PRICE)."""
    hourly, upfront, count = df["hourly_price"], df["upfront_price"], df["gpu_count"]
    option = df["purchase_option"].astype(object)
    usd_hourly, usd_upfront = _above_usd_bounds(df) if usd_bounds else (False, False)
    with np.errstate(invalid="ignore", over="ignore"):   # NaN and inf cells are flagged by the checks below
        effective = effective_hourly(hourly, upfront, df["term_months"])
    # a negative price with its column and value ("negative prices" left the reader to find which cell)
    return [*((df[col] < 0, lambda i, col=col: f"negative {col} {cell_shown(float(df[col].iat[i]))}")
              for col in ("hourly_price", "upfront_price")),
            (np.isinf(hourly) | np.isinf(upfront), "a price that is not finite"),
            (np.isfinite(hourly) & (hourly > MAX_HOURLY_PRICE), f"hourly_price above {MAX_HOURLY_PRICE:,.0f}"),
            (np.isfinite(upfront) & (upfront > MAX_UPFRONT_PRICE), f"upfront_price above {MAX_UPFRONT_PRICE:,.0f}"),
            (usd_hourly, f"hourly_price above {MAX_USD_HOURLY_PRICE:,.0f} USD"),
            (usd_upfront, f"upfront_price above {MAX_USD_UPFRONT_PRICE:,.0f} USD"),
            (option.isin(HOURLY_OPTIONS) & (hourly == 0), "hourly_price 0 (a free GPU-hour is never a real offer)"),
            (option.isin(("reserved_1y", "reserved_3y")) & (hourly == 0) & (upfront == 0), "price 0"),
            (option.isin((*HOURLY_OPTIONS, "reserved_1y", "reserved_3y")) & (effective > 0)
             & (effective < MIN_HOURLY_PRICE), f"a price below {MIN_HOURLY_PRICE:g} per unit-hour (a unit error?)"),
            (count < 0, "negative gpu_count"),
            (option.isin(tuple(TERM_MONTHS_OF_OPTION)) & (df["term_months"] != option.map(TERM_MONTHS_OF_OPTION)),
             "term_months not its purchase option's (12 for a *_1y option, 36 for *_3y)"),
            (np.isinf(count) | (count > MAX_GPUS_PER_UNIT), f"gpu_count above {MAX_GPUS_PER_UNIT} per unit"),
            # a table handed over typed (an adapter's, a notebook's): a text or float column is checked as it is typed
            ((df["term_months"] < 0) | (df["term_months"] > MAX_TERM_MONTHS),
             f"term_months out of range: {TERM_MONTHS_EXPECTED}"),
            # facts may be empty (unknown) but never infinite: 1e999 or 400 digits read as inf, and an
            # infinite gpu_memory_gb met every memory floor
            *((np.isinf(df[col]), f"{col} not finite (expected a number, or empty for unknown)") for col in FACT_NUMBERS),
            # a negative memory or vCPU figure is a typo, not a fact: refused as a negative gpu_count is
            *((df[col] < 0, f"negative {col}") for col in FACT_NUMBERS)]


def _above_usd_bounds(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(rows whose hourly_price, rows whose upfront_price lies above USD's bound) of a typed offers table: rented
    offers in USD only, and only the prices the bounds of any currency let through (those name the others)."""
    usd = _rows(df["currency"] == "USD") & _rows(df["purchase_option"] != "purchase")
    hourly, upfront = df["hourly_price"], df["upfront_price"]
    return (usd & _rows((hourly > MAX_USD_HOURLY_PRICE) & (hourly <= MAX_HOURLY_PRICE)),
            usd & _rows((upfront > MAX_USD_UPFRONT_PRICE) & (upfront <= MAX_UPFRONT_PRICE)))


def number_problems(df: pd.DataFrame, usd_bounds: bool = True) -> pd.Series:
    """For each row of a typed offers table, its bad numbers ('' for none; several joined by ', '):
    negative, non-finite or absurd prices, a zero price, a gpu_count that is negative, infinite or absurd,
    an infinite or negative memory or vCPU figure. `usd_bounds=False`: a USD price above USD's own bound
    (but within every currency's) is not one of them."""
    out: list[list[str]] = [[] for _ in range(len(df))]
    for mask, text in _number_flags(df, usd_bounds):
        _flag(out, mask, text)
    return pd.Series([", ".join(p) for p in out], index=df.index, dtype=object)


def row_problems(df: pd.DataFrame) -> pd.Series:
    """For each row of a typed offers table, everything that breaks the contract ('' for a good row):
    empty required cells, unknown provider or purchase option, a currency that is no code of ISO 4217 list one,
    an as_of that is no ISO date, bad numbers, a repeated offer_id. Every check of `validate_offers` is here:
    a table of the rows this leaves passes it, so one bad row never fails a whole table (the price store
    relies on that)."""
    out: list[list[str]] = [[] for _ in range(len(df))]
    for col in REQUIRED_NON_NULL:
        _flag(out, df[col].isna(), f"empty {col!r}")
    _flag(out, df["provider"].notna() & ~df["provider"].astype(object).isin(registry.names()), "unknown provider")
    _flag(out, df["purchase_option"].notna() & ~df["purchase_option"].astype(object).isin(PURCHASE_OPTIONS),
          "unknown purchase_option")
    currency = df["currency"].astype(object)
    bad_currency = {c for c in currency.dropna().unique() if not is_iso_4217(c)}   # distinct values: cheap
    unlisted = {c for c in bad_currency if _CURRENCY.fullmatch(c)}   # the withdrawn BGN, a typo EUE
    _flag(out, currency.isin(list(bad_currency - unlisted)), "currency not an ISO 4217 code of three capital letters")
    _flag(out, currency.isin(list(unlisted)), "currency not a code of ISO 4217 list one")
    _flag(out, df["offer_id"].notna() & df["offer_id"].duplicated(), "duplicate offer_id")
    _flag(out, _bad_dates(df), "as_of not an ISO date (YYYY-MM-DD; empty for undated)")
    numbers = number_problems(df)
    text = [", ".join(p) for p in out]
    return pd.Series([", ".join(x for x in (a, b) if x) for a, b in zip(text, numbers)], index=df.index, dtype=object)


def name_rows(df: pd.DataFrame, problems: pd.Series, lines: Sequence[int] | None = None) -> str:
    """'row 3 (offer aws:…): negative hourly_price -1.5; …' for the first ROWS_NAMED bad rows (1-based data rows), or 'line 4
    (offer …)' where `lines` gives the file line each row starts on (a CSV's: "row 1" read as the header line)."""
    lines = lines if lines is not None and len(lines) == len(df) else None   # (rows taken out since: numbered)
    bad = [(i, text) for i, text in enumerate(problems) if text]
    ids = df["offer_id"] if "offer_id" in df.columns else None   # a table without the column: rows by place alone
    shown = [f"{row_place(i, lines)}{'' if ids is None else f' (offer {ids.iloc[i]})'}: {text}"
             for i, text in bad[:ROWS_NAMED]]
    more = f"; and {len(bad) - ROWS_NAMED} more rows" if len(bad) > ROWS_NAMED else ""
    return "; ".join(shown) + more


def row_place(i: int, lines: Sequence[int] | None = None) -> str:
    """Where the row at position `i` is: 'line N' of its file where `lines` says, else 'row i + 1'."""
    return f"line {lines[i]}" if lines is not None and i < len(lines) else f"row {i + 1}"


def shown_cell(text: str) -> str:
    """A cell as a message quotes it: its repr, or that of its first SHOWN_CHARS characters and its length."""
    return shortened(text, repr)


def effective_hourly(hourly_price, upfront_price, term_months):
    """Cost per unit-hour of an offer (floats or table columns): `hourly_price` plus `upfront_price`
    spread over the term's hours (730 a month); offers without a term (0 months) cost `hourly_price`."""
    term_hours = np.asarray(term_months, dtype=float) * HOURS_PER_MONTH
    spread = np.divide(np.asarray(upfront_price, dtype=float), term_hours, out=np.zeros_like(term_hours),
                       where=term_hours > 0)
    return hourly_price + spread


FACT_COLUMNS = ("gpu", "gpu_known", "accelerator_name", "gpu_count", "gpu_memory_gb", "gpu_memory_mib", "vcpus",
                "memory_gb")


def offer_row(provider: str, region: str, sku: str, purchase_option: str, facts: dict, hourly_price: float,
              upfront_price: float = 0.0, term_months: int = 0, zone: str = "", as_of: str = "", source: str = "",
              note: str = "", id_suffix: str = "") -> dict:
    """One offers-table row in USD; `facts` holds the instance's FACT_COLUMNS."""
    return {"offer_id": offer_id(provider, region, sku, purchase_option) + id_suffix, "provider": provider,
            "region": region, "sku": sku, "purchase_option": purchase_option,
            **{c: facts.get(c, np.nan) if c == "gpu_memory_mib" else facts[c] for c in FACT_COLUMNS},
            "hourly_price": float(hourly_price), "upfront_price": float(upfront_price), "currency": "USD",
            "term_months": int(term_months), "zone": zone, "as_of": as_of, "source": source, "note": note}


def offer_id(provider: str, region: str, sku: str, purchase_option: str, zone: str = "") -> str:
    """The offers table's key: `aws:us-east-1:p4d.24xlarge:on_demand` (zone appended when set)."""
    parts = [provider, region, sku, purchase_option] + ([zone] if zone else [])
    return ":".join(parts)
