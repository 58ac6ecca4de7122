"""gpu-fleet-planner's version, in one place: pyproject.toml reads it from here (setuptools' `attr:`, by
parsing, not importing), so the installed distribution's version and `planner.__version__` agree without
reading package metadata — importlib.metadata takes about 0.02 s to import, a few % of a plan's process."""

__version__ = "0.1.0"
