"""The one date a scenario holds, a card override's `as_of` (the day of the quote): an ISO date YYYY-MM-DD that
is a real calendar day, as catalog.prices reads it to tell a stale price from a fresh one. Any other text (a
`05/10/2026`, a `Nov 2026`) passed the scenario's checks and then counted as no date at all."""

from __future__ import annotations

import calendar
import re
from datetime import date
from typing import Any

from pydantic_core import PydanticCustomError

ISO_DATE_EXAMPLE = "2026-11-20"
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
# no date written any way is longer: a longer text gets no hint (and no pattern runs over a pasted page)
_LONGEST_DATE = 40
# month names in English, whatever the locale (calendar.month_name follows it)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_SEP = r"\s*[-/.]\s*"
_YEAR_FIRST = re.compile(rf"(\d{{4}}){_SEP}(\d{{1,2}}){_SEP}(\d{{1,2}})")             # 2026/11/20, 2026-1-5
_YEAR_LAST = re.compile(rf"(\d{{1,2}}){_SEP}(\d{{1,2}}){_SEP}(\d{{4}})")              # 20.11.2026, 05/10/2026
_COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})")                                       # 20261120
_WITH_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ]\S.*)")                           # 2026-11-20T10:00
_DAY_NAMED_MONTH = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\.?\s+([A-Za-z]{3,})\.?,?\s+(\d{4})")   # 20 Nov 2026
_NAMED_MONTH_DAY = re.compile(r"([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})")      # Nov 20, 2026
_MONTH_ONLY = re.compile(rf"(\d{{4}}){_SEP}(\d{{1,2}})|([A-Za-z]{{3,}})\.?,?\s+(\d{{4}})|(\d{{1,2}}){_SEP}(\d{{4}})")


def _day(year: Any, month: Any, day: Any) -> date | None:
    """The calendar day, or None when there is none (month 13, 31 November)."""
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


def _month_number(name: str) -> int | None:
    """1-12 for an English month name or its first three letters or more (`Nov`, `Sept`), else None."""
    name = name.lower()
    return next((i for i, full in enumerate(_MONTHS, 1) if len(name) >= 3 and full.startswith(name)), None)


def _calendar_problem(text: str) -> str | None:
    """Why YYYY-MM-DD `text` is no calendar day (no month 13, no 31 November), else None."""
    year, month, day = map(int, _ISO.fullmatch(text).groups())
    if year < 1:   # calendar takes year 0; datetime.date, and every reader of the date after it, does not
        return "there is no year 0000 (the years start at 0001)"
    if not 1 <= month <= 12:
        return f"there is no month {month:02d} (the month comes second: YYYY-MM-DD)"
    days = calendar.monthrange(year, month)[1]
    if not 1 <= day <= days:
        return f"{_MONTHS[month - 1].capitalize()} {year} has {days} days"
    return None


def _other_forms(text: str) -> list[date]:
    """The calendar days `text` may mean when written in another form than YYYY-MM-DD (both readings of
    day and month in `05/10/2026`), in order; [] when it is no date this recognises."""
    if m := _WITH_TIME.fullmatch(text):
        return [d] if (d := _day(*m[1].split("-"))) else []
    if m := _YEAR_FIRST.fullmatch(text) or _COMPACT.fullmatch(text):
        return [d] if (d := _day(*m.groups())) else []
    if m := _YEAR_LAST.fullmatch(text):
        first, second, year = m.groups()
        readings = [_day(year, second, first), _day(year, first, second)]   # day first, month first
        return list(dict.fromkeys(d for d in readings if d))
    for pattern, order in ((_DAY_NAMED_MONTH, (0, 1, 2)), (_NAMED_MONTH_DAY, (1, 0, 2))):
        if m := pattern.fullmatch(text):
            day, name, year = (m.groups()[i] for i in order)
            month = _month_number(name)
            return [d] if month and (d := _day(year, month, day)) else []
    return []


def iso_date_problem(text: str) -> str | None:
    """None when `text` is a calendar day written YYYY-MM-DD, else a hint for the message after what was got:
    "; did you mean '2026-10-25'?" for a date written in another form, both readings where day and month
    could be swapped (`05/10/2026` is 5 October or May 10: say so rather than guess), the day a month lacks,
    or that a month (`2026-11`, `Nov 2026`) needs its day; "" when the text is no date this recognises."""
    cleaned = text.strip()
    if len(cleaned) > _LONGEST_DATE:
        return ""
    if _ISO.fullmatch(cleaned):
        problem = _calendar_problem(cleaned)
        if problem:
            return f"; {problem}"
        return None if cleaned == text else f"; did you mean '{cleaned}'?"
    days = _other_forms(cleaned)
    if len(days) == 1:
        return f"; did you mean '{days[0].isoformat()}'?"
    if len(days) == 2:
        return (f"; day and month could be either way round: did you mean '{days[0].isoformat()}' (day first) "
                f"or '{days[1].isoformat()}' (month first)?")
    if _names_a_month(cleaned):
        return "; that is a month: give the day of the quote too"
    return ""


def _names_a_month(text: str) -> bool:
    """Whether `text` is a month of a year without its day (`2026-11`, `11/2026`, `Nov 2026`)."""
    m = _MONTH_ONLY.fullmatch(text)
    if not m:
        return False
    return _month_number(m[3]) is not None if m[3] else 1 <= int(m[2] or m[5]) <= 12


def date_as_text(value: Any) -> Any:
    """A date object (a dict the caller read with PyYAML's YAML 1.1 safe_load, an explicit `!!timestamp`) as
    its ISO text, and a whole number (`20261120`, a year `2026`: YAML reads them as numbers) as its digits, which
    the check then reads like any other text; any other value unchanged."""
    if isinstance(value, date):
        return value.isoformat()
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def iso_date(text: str) -> str:
    """`text` when it is a calendar day written YYYY-MM-DD; else the error a scenario message words."""
    hint = iso_date_problem(text)
    if hint is not None:
        raise PydanticCustomError("iso_date", f"expected an ISO date YYYY-MM-DD (e.g. {ISO_DATE_EXAMPLE})",
                                  {"hint": hint})
    return text
