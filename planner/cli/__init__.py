"""The `fleetplan` command line (typer): console helpers, the plan commands, the prices commands and
`fleetplan dashboard` (which starts the dashboard by its file path, never importing it)."""

from planner.cli.commands import app
from planner.cli.dashboard import dashboard
from planner.cli.prices import prices_app

app.add_typer(prices_app, name="prices")
app.command("dashboard")(dashboard)

__all__ = ["app"]
