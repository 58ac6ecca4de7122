"""`python -m planner.cli`: the `fleetplan` command."""

from planner.cli import main

main()
