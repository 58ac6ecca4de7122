"""How a message quotes what a user supplied (a rejected value, key or cell): whole when short, else its start
and its length; and how it counts ("1 region", "3 regions"). Plain Python, no import: the planner's messages
(planner.text) use it as the adapters' do, as the adapters may not import the planner."""

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


def counted(count: int, noun: str, nouns: str | None = None) -> str:
    """`count` with thousands separators and its noun agreeing: "1 region", "0 regions", "1,000 regions"."""
    return f"{count:,} {plural(count, noun, nouns)}"
