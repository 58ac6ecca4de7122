"""How the pages lay out a table wider than a phone's screen (390 px: 356 px inside the page's margins).

Such a table shows its first columns on a phone, the name (pinned) and the money, and under it a line says the rest
is a swipe away: a phone shows no scroll bar. The pages put it in the container `wide` gives.
"""

from __future__ import annotations

import streamlit as st

WIDE = "phone_swipe_"     # the key prefix of the containers holding such tables
SWIPE_HINT = "↔ Swipe the table sideways for its other columns."
# Under each such container, on a phone only. Style alone: Streamlit sends it to the page's event container, where it
# takes no room, whichever container draws it.
_SWIPE_STYLE = ("<style>@media (max-width: 640px) { "
                f'[class*="st-key-{WIDE}"]::after {{ content: "{SWIPE_HINT}"; font-size: 0.8rem; opacity: 0.65; }} '
                "}</style>")


def wide(key: str, slot=None):
    """A container for a table wider than a phone's screen, keyed `WIDE` + `key`, in `slot` (an st.empty) or the page:
    under it, on a phone only, the line saying it scrolls sideways."""
    st.html(_SWIPE_STYLE)
    return (slot or st).container(key=WIDE + key)
