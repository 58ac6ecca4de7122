"""The dashboard's Streamlit entry point: `fleetplan dashboard`, `streamlit run <this file>`, or the
repository's `app.py` (`make run`), which calls `main()`.

It listens on 127.0.0.1 only and sends no usage statistics (`fleetplan dashboard` passes both on the
command line, the repository's .streamlit/config.toml says the same): it has no login and plans with
this machine's files. Serving it to a network is a decision: `--host` / `--server.address`.

Layout and widgets only: every number comes from the engine (`planner.engine.plan`, the offers view).
Pages (st.navigation): Plan, Prices, Compare, Export — their scripts are in `pages/` next to this file,
found from this file's own path, so they are found in the repository and in an installed package alike;
their helpers (session state, cached plans, tables, plotly figures) are the modules of this package.
"""

from __future__ import annotations

from pathlib import Path

PAGES = Path(__file__).resolve().parent / "pages"
# The tab icon: a chip drawn for this project (scripts/draw_icon.py), shipped as package data. A file, not
# ":material/…:", whose favicon Streamlit's frontend fetches from fonts.gstatic.com: the dashboard works offline
# and its pages ask no host but their own server. A PNG, which Streamlit serves from its own /media/ (an SVG it
# would inline as a data: URL).
ICON = Path(__file__).resolve().parent / "icon.png"


def main() -> None:
    """Draw the app: page config, the navigation and the chosen page."""
    # Imported here, not above: the dashboard's worker processes import this file as `__mp_main__` (the
    # `spawn` start method) and need neither Streamlit nor the page state.
    import gc
    import sys

    import streamlit as st

    from fleetplan_dashboard import trace
    from fleetplan_dashboard.layout import close_sidebar_on_pick

    trace.mark("start")
    # The first run imports the engine (pandas, pydantic, the solvers) and loads the price data: without the
    # garbage collector's passes over every object made so far (a tenth of a second each, nothing to free),
    # until `state.settle_heap` collects once and freezes what is alive.
    if "fleetplan_dashboard.state" not in sys.modules:
        gc.disable()
    from fleetplan_dashboard.state import settle_heap_soon, undo_default_flood
    from fleetplan_dashboard.tables import message_block
    from planner.errors import PlannerError

    settle_heap_soon()
    st.set_page_config(page_title="GPU fleet planner", page_icon=ICON, layout="wide")
    # widget values the browser lost, reported as changes, taken back before any page reads the scenario
    undo_default_flood()

    # Picking a page in the sidebar closes it wherever it covers the page: on a phone (Streamlit's own), in a desktop
    # browser narrowed to a phone's width or on a tablet (layout.close_sidebar_on_pick: a script, as Streamlit 1.67
    # offers no call to close it)
    close_sidebar_on_pick()
    page = st.navigation([
        st.Page(PAGES / "plan.py", title="Plan", icon=":material/insights:", default=True),
        st.Page(PAGES / "prices.py", title="Prices", icon=":material/sell:"),
        st.Page(PAGES / "compare.py", title="Compare", icon=":material/compare_arrows:"),
        st.Page(PAGES / "export.py", title="Export", icon=":material/download:"),
    ])
    try:
        page.run()
    except PlannerError as exc:
        # what the planner says to its user, which client.showErrorDetails (.streamlit/config.toml) would hide as
        # an unexpected error's: said in full, as the pages say the ones they expect
        st.error(message_block([str(exc)]))


if __name__ == "__main__":  # `streamlit run` runs its script as __main__
    main()
