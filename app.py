"""Streamlit entry point of the GPU fleet planner dashboard: `make run` (or `streamlit run app.py`).

It listens on 127.0.0.1 only and sends no usage statistics (.streamlit/config.toml): it has no login
and plans with this machine's files. Serving it to a network is a decision: `--server.address`.

Layout and widgets only: every number comes from the engine (`planner.engine.plan`, the offers view).
Pages (st.navigation): Plan, Prices, Compare, Export — their scripts are in `dashboard/pages/`, their
helpers (session state, cached plans, tables, plotly figures) in `dashboard/`.
"""

from __future__ import annotations

import streamlit as st

from dashboard.state import EDIT_PREFIX

st.set_page_config(page_title="GPU fleet planner", page_icon=":material/memory:", layout="wide")

# Widgets forget their values when their page is not drawn; the Plan page's edits must outlive a visit
# to Compare or Export (which read them), so they are handed back to the session on every run.
for _key in [k for k in st.session_state if str(k).startswith(EDIT_PREFIX) or k == "base"]:
    st.session_state[_key] = st.session_state[_key]

st.navigation([
    st.Page("dashboard/pages/plan.py", title="Plan", icon=":material/insights:", default=True),
    st.Page("dashboard/pages/prices.py", title="Prices", icon=":material/sell:"),
    st.Page("dashboard/pages/compare.py", title="Compare", icon=":material/compare_arrows:"),
    st.Page("dashboard/pages/export.py", title="Export", icon=":material/download:"),
]).run()
