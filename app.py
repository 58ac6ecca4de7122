"""Streamlit entry point: layout and widgets only; every number comes from the engine.

This first page lists the offers of the packaged snapshot and the on-prem cards (the dashboard with
plans, charts and downloads is its own issue).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from planner.offers_view import OfferFilter, offers_table
from pricing_adapters.snapshot import snapshot_info

st.set_page_config(page_title="GPU fleet planner", layout="wide")


@st.cache_data
def _offers(fx_cny: float, electricity: float, pue: float) -> tuple[pd.DataFrame, list[str]]:
    return offers_table(OfferFilter(), fx_to_usd={"CNY": fx_cny}, electricity_usd_per_kwh=electricity, pue=pue)


st.title("GPU fleet planner — offers")
info = snapshot_info()
dates = [p.get("as_of_max") for p in info["providers"].values() if p.get("as_of_max")]
st.caption(f"Packaged price snapshot built {info['built_at']}; newest price as of {max(dates) if dates else 'unknown'}.")

with st.sidebar:
    fx_cny = st.number_input("USD per 1 CNY (for cards priced in yuan)", value=0.14, min_value=0.0, step=0.01)
    electricity = st.number_input("Electricity, USD per kWh", value=0.12, min_value=0.0, step=0.01)
    pue = st.number_input("PUE", value=1.4, min_value=1.0, max_value=3.0, step=0.05)

table, warnings = _offers(fx_cny, electricity, pue)
for w in warnings:
    st.warning(w)
c1, c2, c3, c4 = st.columns(4)
providers = c1.multiselect("Provider", sorted(table["provider"].unique()))
gpus = c2.multiselect("GPU", sorted(table["gpu"].unique()))
options = c3.multiselect("Purchase option", sorted(table["purchase_option"].unique()))
min_memory = c4.number_input("Least GB per GPU", value=0.0, min_value=0.0, step=8.0)
view = table[table["gpu_memory_gb"].fillna(0) >= min_memory]
if providers:
    view = view[view["provider"].isin(providers)]
if gpus:
    view = view[view["gpu"].isin(gpus)]
if options:
    view = view[view["purchase_option"].isin(options)]
st.dataframe(view, hide_index=True, width="stretch")
st.caption("On-prem cards: owned and busy every hour of their life (capex over the life, maintenance, "
           "busy watts × PUE × electricity).")
