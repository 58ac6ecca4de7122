"""ISO 4217 currency codes: the codes a price or a scenario may be in (list one), the withdrawn codes a file may still
carry (list three), and what a code that is none meant.

Both lists are packaged data files with their source and date on each row (docs/data-sources.md): `data/currencies.csv`
(list one: current currencies and funds) and `data/currencies_withdrawn.csv` (list three: codes withdrawn since
1999-01 that list one no longer holds, each with its month of withdrawal and, where list one gives one, the code in use
there now). Here, below the planner, so that an offers table and a scenario are held to one list with one "did you
mean" (the planner imports this; nothing here imports the planner).
"""

from __future__ import annotations

import csv
import difflib
import functools
import os
import re

from pricing_adapters import PACKAGE_DIR

LIST_ONE_FILE = "pricing_adapters/data/currencies.csv"   # as messages name it
LIST_ONE_COLUMNS = ["code", "number", "minor_unit", "name", "as_of", "source"]
WITHDRAWN_COLUMNS = ["code", "name", "withdrawn", "countries", "successor", "as_of", "source"]
_CODE = re.compile(r"[A-Z]{3}")
# English month names, as messages say a month (calendar.month_name follows the process's locale)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")

# Names of currencies in common use that are no ISO 4217 code, and the code they mean: the renminbi, the offshore
# yuan's trading code, the New Taiwan dollar's abbreviation, the yen
CURRENCY_NICKNAMES = {"RMB": "CNY", "CNH": "CNY", "NTD": "TWD", "YEN": "JPY"}


def _rows(name: str, columns: list[str]) -> tuple[dict[str, str], ...]:
    """The rows of the packaged CSV data/`name`, every cell as text; ValueError when its header is not `columns`."""
    with (PACKAGE_DIR / "data" / name).open("r", encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        rows = tuple(reader)
    if reader.fieldnames != columns:
        raise ValueError(f"pricing_adapters/data/{name}: columns {reader.fieldnames}, expected {columns}")
    return rows


@functools.cache
def list_one() -> tuple[dict[str, str], ...]:
    """The rows of ISO 4217 list one (data/currencies.csv: code, number, minor_unit, name, as_of, source), by code."""
    return _rows("currencies.csv", LIST_ONE_COLUMNS)


@functools.cache
def iso_4217_codes() -> tuple[str, ...]:
    """The alphabetic codes of ISO 4217 list one, current currencies and funds, sorted."""
    return tuple(row["code"] for row in list_one())


@functools.cache
def _code_set() -> frozenset[str]:
    return frozenset(iso_4217_codes())


def is_iso_4217(code: object) -> bool:
    """Whether `code` is a code of ISO 4217 list one, as written (`usd`, ` USD` and the withdrawn `BGN` are not)."""
    return isinstance(code, str) and code in _code_set()


@functools.cache
def withdrawn() -> dict[str, dict[str, str]]:
    """Codes of ISO 4217 list three withdrawn since 1999-01 that list one no longer holds → their row of
    data/currencies_withdrawn.csv (name, withdrawn as YYYY-MM, countries, successor or '', as_of, source)."""
    return {row["code"]: row for row in _rows("currencies_withdrawn.csv", WITHDRAWN_COLUMNS)}


def currency_meant(text: str) -> str:
    """What a currency `text` that is no code of ISO 4217 list one meant, in words a message ends with ('' when it
    cannot tell): "did you mean 'EUR'?" for the code in small letters or with spaces (`eur`), a name in common use
    (`RMB`: CNY), the same letters in another order ('GPB': GBP) or the nearest spelling, one letter off, that keeps
    the most of its beginning ('USB': USD, 'EUE': EUR; difflib alone ranks codes one letter off alike, and offered
    PAB for GPB and UZS for USB); for a withdrawn code, when it was withdrawn and the code in use there now where list
    one gives one ('BGN' was sent to BND, the Brunei dollar, and 'HRK' to KHR, the riel)."""
    code = text.strip().upper() if isinstance(text, str) else ""
    if not _CODE.fullmatch(code):
        return ""
    codes = iso_4217_codes()
    if code in _code_set() or code in CURRENCY_NICKNAMES:
        return f"did you mean '{CURRENCY_NICKNAMES.get(code, code)}'?"
    if code in withdrawn():
        return withdrawn_words(code)
    near = ([c for c in codes if sorted(c) == sorted(code)]
            or sorted(difflib.get_close_matches(code, codes, n=len(codes), cutoff=0.6),
                      key=lambda c: (-len(os.path.commonprefix([c, code])), c)))
    return f"did you mean '{near[0]}'?" if near else ""


def withdrawn_words(code: str) -> str:
    """'BGN, the Bulgarian Lev, was withdrawn in January 2026: did you mean 'EUR', the code in use there now?' for a
    withdrawn `code` (list three gives the month); without a question where list one gives no code in its place."""
    row = withdrawn()[code]
    year, month = row["withdrawn"].split("-")
    said = f"{code}, the {row['name']}, was withdrawn in {MONTHS[int(month) - 1]} {year}"
    return f"{said}: did you mean '{row['successor']}', the code in use there now?" if row["successor"] else said
