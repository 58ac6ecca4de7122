"""Streamlit entry point of the GPU fleet planner dashboard in this repository: `make run` (or
`streamlit run app.py`). The app itself is `fleetplan_dashboard/app.py`, the file an installed
package runs (`fleetplan dashboard`); this one only calls it, so both show the same pages.

It listens on 127.0.0.1 only and sends no usage statistics (.streamlit/config.toml): it has no login
and plans with this machine's files. Serving it to a network is a decision: `--server.address`.
"""

# Streamlit runs this file as `__main__`. The dashboard's worker processes (started with `spawn`) import
# it again as `__mp_main__`: there it must neither draw the app nor import Streamlit.
if __name__ == "__main__":
    from fleetplan_dashboard.app import main

    main()
