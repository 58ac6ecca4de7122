"""Run at the start-up of every Python process a test starts (tests/conftest.py puts this folder first on
PYTHONPATH): the network guard of tests/netguard/netguard.py, logging to $FLEETPLAN_TEST_NETWORK_LOG. Then the
next `sitecustomize` on the path, if any (a distribution's, coverage's), which this one would otherwise hide."""

import importlib.machinery
import importlib.util
import os
import sys

if os.environ.get("FLEETPLAN_TEST_NETWORK_LOG"):
    import netguard

    netguard.install_logging_to(os.environ["FLEETPLAN_TEST_NETWORK_LOG"])

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.machinery.PathFinder.find_spec(
    "sitecustomize", [p for p in sys.path if os.path.abspath(p or os.curdir) != _here])
if _spec is not None and _spec.loader is not None:
    _spec.loader.exec_module(importlib.util.module_from_spec(_spec))
