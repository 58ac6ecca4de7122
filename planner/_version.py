"""gpu-fleet-planner's version, in one place: pyproject.toml reads it from here (setuptools' `attr:`, by
parsing, not importing), so the installed distribution's version and `planner.__version__` agree without
reading package metadata (importlib.metadata: 10 ms to import and 2.5 ms to read a version in a plan's
process, 2026-12-03)."""

__version__ = "0.1.0"
