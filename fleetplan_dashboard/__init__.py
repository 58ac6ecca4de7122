"""The Streamlit dashboard: `app.py` (the entry point, `fleetplan dashboard`), its pages in `pages/`,
and their helpers: scenario state, cached plans, tables and charts. `scenarios/` and `schema/` are
package data: the example scenarios the dashboard lists and their JSON Schema.

Nothing here computes a cost: every number comes from `planner.engine.plan` (or the offers view);
this package only chooses what to show and how.
"""
