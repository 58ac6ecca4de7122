"""The ISO 4217 lists an offers table and a scenario are held to (pricing_adapters/currencies.py), and the one "did you
mean" for a code that is none. A withdrawn code was sent to an unrelated currency one letter off or spelt with the
same letters: BGN to BND (the Brunei dollar), HRK to KHR (the riel). The dates and successors below are read by hand
from ISO 4217 list three and list one (SIX Group's list-three.xml and list-one.xml, as github.com/datasets/
currency-codes@ab9b0ae data/codes-all.csv gives them)."""

from __future__ import annotations

import csv
import fnmatch
from pathlib import Path

import pytest

from pricing_adapters.currencies import WITHDRAWN_COLUMNS, currency_meant, iso_4217_codes, withdrawn

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "pricing_adapters" / "data"


@pytest.mark.parametrize(("code", "said"), [
    # Bulgaria joined the euro on 2026-01-01: list three's row BULGARIA, Bulgarian Lev, BGN, 2026-01
    ("BGN", "BGN, the Bulgarian Lev, was withdrawn in January 2026: did you mean 'EUR', the code in use there now?"),
    ("HRK", "HRK, the Kuna, was withdrawn in January 2023: did you mean 'EUR', the code in use there now?"),
    ("EEK", "EEK, the Kroon, was withdrawn in January 2011: did you mean 'EUR', the code in use there now?"),
    ("LTL", "LTL, the Lithuanian Litas, was withdrawn in December 2014: did you mean 'EUR', the code in use there now?"),
    # Curaçao and Sint Maarten both moved to the Caribbean guilder
    ("ANG", "ANG, the Netherlands Antillean Guilder, was withdrawn in March 2025: did you mean 'XCG', the code in use "
            "there now?"),
    ("SLL", "SLL, the Leone, was withdrawn in December 2023: did you mean 'SLE', the code in use there now?"),
    ("CUC", "CUC, the Peso Convertible, was withdrawn in June 2021: did you mean 'CUP', the code in use there now?"),
    # list one gives Venezuela two codes (VES, VED): none is named in its place
    ("VEF", "VEF, the Bolívar, was withdrawn in August 2018"),
    # the ECU's fund is in no list today
    ("XEU", "XEU, the European Currency Unit (E.C.U), was withdrawn in January 1999"),
    ("bgn", "BGN, the Bulgarian Lev, was withdrawn in January 2026: did you mean 'EUR', the code in use there now?"),
])
def test_a_withdrawn_code_says_when_and_the_code_in_use_there_now(code, said):
    assert currency_meant(code) == said


@pytest.mark.parametrize(("written", "said"), [
    ("EUE", "did you mean 'EUR'?"),
    ("eue", "did you mean 'EUR'?"),   # the code meant, not the EUE it spells
    (" usd", "did you mean 'USD'?"),
    ("GPB", "did you mean 'GBP'?"),
    ("CNH", "did you mean 'CNY'?"),
    ("XYZ", ""),
    ("US$", ""),
])
def test_a_code_that_is_none_is_sent_to_the_code_meant(written, said):
    assert currency_meant(written) == said


def test_the_withdrawn_list_holds_no_current_code_and_every_row_has_its_source():
    with (DATA / "currencies_withdrawn.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == WITHDRAWN_COLUMNS
    codes = [row["code"] for row in rows]
    assert len(codes) == len(set(codes)) == len(withdrawn()) == 65   # list three since 1999-01, less the codes in use
    assert not set(codes) & set(iso_4217_codes())   # TRY, RON, PEN, MWK, SDG… are in list three as names changed
    for row in rows:
        assert row["withdrawn"] >= "1999-01" and len(row["withdrawn"]) == 7, row
        assert row["successor"] in ("", *iso_4217_codes()), row
        assert row["as_of"] == "2026-02-01" and "list-three.xml" in row["source"] and "ab9b0ae" in row["source"], row


def test_both_lists_ship_in_the_wheel():
    # the wheel carries what pyproject's package-data names for pricing_adapters (tests/app/test_packaged.py builds one)
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["pricing_adapters"]
    for name in ("currencies.csv", "currencies_withdrawn.csv"):
        assert (DATA / name).is_file()
        assert any(fnmatch.fnmatch(f"data/{name}", p) for p in patterns), patterns
