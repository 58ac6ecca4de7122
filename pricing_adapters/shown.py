"""How a message quotes what a user supplied (a rejected value, key or cell): whole when short, else its start
and its length; how it shows a URL (without the credentials it may carry); and how it counts ("1 region",
"3 regions"), and how it says a snapshot's age ("339 days old"). The standard library only: the planner's messages
(planner.text) use it as the adapters' do, as the adapters may not import the planner."""

import re
from datetime import date, datetime, timezone
from urllib.parse import unquote_plus

SHOWN_CHARS = 60   # of a rejected value, key or cell in a message: a pasted file must not come back whole


def shortened(text: str, show=str) -> str:
    """`text` as `show` gives it (str, repr); a longer one as its first SHOWN_CHARS characters, shown so, and its
    length."""
    if len(text) <= SHOWN_CHARS + 20:
        return show(text)
    return f"{show(text[:SHOWN_CHARS])}… ({len(text):,} characters)"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`noun` for a count of one, else `nouns` (`noun` + "s" unless given): "region 2", "regions 1, 2"."""
    return noun if count == 1 else nouns or f"{noun}s"


def series(items, last: str = "and") -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c" (`last`: the word before the last item, "or")."""
    items = list(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}" if len(items) > 1 else items[0]


def counted(count: int, noun: str, nouns: str | None = None) -> str:
    """`count` with thousands separators and its noun agreeing: "1 region", "0 regions", "1,000 regions"."""
    return f"{count:,} {plural(count, noun, nouns)}"


# -- ages -----------------------------------------------------------------------------------------------------

def utc_today() -> date:
    """Today's UTC date: the one clock a snapshot's age is counted on (a test freezes it here, so an age it checks
    cannot change when the run crosses midnight)."""
    return datetime.now(timezone.utc).date()


def calendar_days(fetched_at: str | datetime, today: date | None = None) -> int:
    """Whole calendar days from the UTC date of `fetched_at` (an ISO 8601 time with its zone, as a snapshot keeps
    it) to `today` (default: today's UTC date): a snapshot fetched yesterday at 23:59 is 1 day old at 00:01, as a
    price's `as_of` date is counted (the stale-price warnings count days between dates). 0 for a time ahead of
    today (a clock slightly ahead)."""
    when = datetime.fromisoformat(fetched_at) if isinstance(fetched_at, str) else fetched_at
    if when.tzinfo is None:   # a store refuses such a time; a hand-made dict may hold one: taken as UTC
        when = when.replace(tzinfo=timezone.utc)
    today = today or utc_today()
    return max(0, (today - when.astimezone(timezone.utc).date()).days)


def days_old(fetched_at: str | datetime, today: date | None = None) -> str:
    """A snapshot's age as every message says it: "339 days old", "1 day old", "0 days old" (`calendar_days`)."""
    return f"{counted(calendar_days(fetched_at, today), 'day')} old"


# -- URLs -----------------------------------------------------------------------------------------------------

HIDDEN = "***"   # what a URL shows in place of a credential
# The query parameters whose values a URL shows: those of the price APIs the adapters call (Azure Retail Prices: the
# API version, the currency, the filter, the page and the meter region), which name what was asked and carry no
# secret. Any other parameter of a URL a user configured may carry one (an Azure SAS's `sig`, an Azure Functions
# `code`, a proxy's `key` or `token`): its name is shown, its value hidden. Names of the harmless ones rather than of
# the secret ones: a secret under a name no one foresaw (`auth`, `pw`) is hidden too.
SHOWN_QUERY_VALUES = frozenset({"api-version", "currencycode", "$filter", "$skip", "$top", "meterregion"})
_AUTHORITY = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?//([^/?#]*)")   # `scheme://` or `//`, then user@host:port
# a URL in a text, from its `//` (the scheme before it holds no secret) up to a space, a quote or an angle bracket,
# less the punctuation that ends a sentence or an aside. No scheme is looked for: scanning back over letters from
# every position would take time growing with the square of a long run of them
_URL_IN_TEXT = re.compile(r"//[^\s\"'<>]*[^\s\"'<>.,;:!?)\]}]")


def url_shown(url: str) -> str:
    """`url` as a message, a stored snapshot's source or a plan's export may show it: a user name and password
    (`user:pass@`) as `***@`, the value of each query parameter but those of SHOWN_QUERY_VALUES as `***`, and a
    fragment as `#***`. The scheme, host, port and path, which say where requests went, stay as written. Read as
    text, never parsed strictly: a URL too malformed to use is shown without its credentials too."""
    head, rest = "", url
    if match := _AUTHORITY.match(url):
        authority = match.group(1)
        if "@" in authority:
            authority = f"{HIDDEN}@{authority.rpartition('@')[2]}"
        head, rest = url[:match.start(1)] + authority, url[match.end():]
    rest, hash_mark, fragment = rest.partition("#")
    path, question_mark, query = rest.partition("?")
    return (head + path + question_mark + "&".join(map(_parameter_shown, query.split("&"))) + hash_mark
            + (HIDDEN if fragment else ""))


def _parameter_shown(parameter: str) -> str:
    """One `name=value` of a query as `url_shown` shows it; a bare word that is no known name (a token) hidden."""
    name, equals, value = parameter.partition("=")
    if not parameter or (equals and not value) or unquote_plus(name).lower() in SHOWN_QUERY_VALUES:
        return parameter
    return f"{name}={HIDDEN}" if equals else HIDDEN


def urls_shown(text: str) -> str:
    """`text` (an exception's words, an answer's body, a snapshot's source) with each URL in it as `url_shown`
    shows it."""
    if "//" not in text:
        return text
    return _URL_IN_TEXT.sub(lambda match: url_shown(match.group()), text)
