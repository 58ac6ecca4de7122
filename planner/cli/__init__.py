"""The `fleetplan` command line (typer): console helpers, the plan commands and the prices commands."""

from planner.cli.commands import app
from planner.cli.prices import prices_app

app.add_typer(prices_app, name="prices")

__all__ = ["app"]
