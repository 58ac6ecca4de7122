"""Helpers of the Streamlit dashboard (`app.py`): scenario state, cached plans, tables and charts.

Nothing here computes a cost: every number comes from `planner.engine.plan` (or the offers view);
this package only chooses what to show and how.
"""
