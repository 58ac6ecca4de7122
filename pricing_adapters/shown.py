"""How a message quotes what a user supplied (a rejected value, key or cell): whole when short, else its start
and its length. Plain Python, no import: the planner's messages (planner.text) use it as the adapters' do."""

SHOWN_CHARS = 60   # of a rejected value, key or cell in a message: a pasted file must not come back whole


def shortened(text: str, show=str) -> str:
    """`text` as `show` gives it (str, repr); a longer one as its first SHOWN_CHARS characters, shown so, and its
    length."""
    if len(text) <= SHOWN_CHARS + 20:
        return show(text)
    return f"{show(text[:SHOWN_CHARS])}… ({len(text):,} characters)"
