"""The `fleetplan` CLI run in this process (typer's CliRunner), for tests that check its exit codes and output."""

from typer.testing import CliRunner

from planner.cli import app

runner = CliRunner()


def run(*args):
    """`fleetplan *args` (each arg as text): the CliRunner's Result."""
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(result) -> str:
    """The error `result` printed: one line on stderr, no traceback."""
    text = result.stderr.strip()
    assert "Traceback" not in result.output and len(text.splitlines()) == 1, result.output
    return text
