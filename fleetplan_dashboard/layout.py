"""How the pages lay out on a phone's screen (390 px: 356 px inside the page's margins).

A table wider than that shows its first columns, the name (pinned) and the money, and under it a line says the rest
is a swipe away: a phone shows no scroll bar. The pages put it in the container `wide` gives.

The sidebar closes once a page is picked in it wherever it covers the page (`close_sidebar_on_pick`), as Streamlit
closes it on a phone.
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

# Streamlit 1.67 closes the sidebar when a page is picked in it on a phone only: its frontend asks the browser's user
# agent (a "mobile" device), not the window's width. A desktop browser narrowed to a phone's width, or a tablet,
# keeps it open over the page just picked; set_page_config's initial_sidebar_state cannot close it (the user's own
# toggle, kept in the browser's localStorage, wins; Streamlit issue #12065). So, where the sidebar covers the page
# (a window narrower than Streamlit's `md` breakpoint, 768 px, the width below which it overlays the page), a click on
# one of its page links presses its own collapse button once Streamlit has handled the click, as Streamlit does on a
# phone. That button is drawn only while the sidebar is open: a phone's own closing is not undone. The script is the
# same text on every run and page (no user input in it) and adds its listener once per browser tab.
SIDEBAR_CLOSER = "phone_sidebar_closer"   # the key of the hidden container holding the script
_CLOSE_SIDEBAR_ON_PICK = """<script>
if (!window.fleetplanClosesSidebarOnPick) {
  window.fleetplanClosesSidebarOnPick = true;
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('[data-testid="stSidebarNav"] a');
    if (!link || !window.matchMedia("(max-width: 767.98px)").matches) return;
    setTimeout(() => {
      const open = document.querySelector('[data-testid="stSidebar"][data-collapsed="false"]');
      const close = open && open.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (close) close.click();
    });
  }, true);
}
</script>"""
# the container takes no room on the page: its wrapper, the item of the page's column, not displayed (no gap above the
# title)
_CLOSER_STYLE = f'<style>[data-testid="stLayoutWrapper"]:has(> .st-key-{SIDEBAR_CLOSER}) {{ display: none; }}</style>'


def wide(key: str, slot=None):
    """A container for a table wider than a phone's screen, keyed `WIDE` + `key`, in `slot` (an st.empty) or the page:
    under it, on a phone only, the line saying it scrolls sideways."""
    st.html(_SWIPE_STYLE)
    return (slot or st).container(key=WIDE + key)


def close_sidebar_on_pick() -> None:
    """Draw, hidden, the script closing the sidebar once a page is picked in it where it covers the page."""
    st.html(_CLOSER_STYLE)
    st.container(key=SIDEBAR_CLOSER).html(_CLOSE_SIDEBAR_ON_PICK, unsafe_allow_javascript=True)

