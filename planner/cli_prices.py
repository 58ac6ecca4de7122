"""`fleetplan prices …`: refresh the local price store from live APIs, show and diff snapshots."""

from __future__ import annotations

import typer

prices_app = typer.Typer(add_completion=False, no_args_is_help=True,
                         help="Live prices: refresh into the local store, show what is in use, diff snapshots.")
