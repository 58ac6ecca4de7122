"""Run at the start-up of every Python process a test starts (tests/conftest.py puts this folder first on
PYTHONPATH): the network guard of tests/netguard/netguard.py, logging to $FLEETPLAN_TEST_NETWORK_LOG."""

import os

if os.environ.get("FLEETPLAN_TEST_NETWORK_LOG"):
    import netguard

    netguard.install_logging_to(os.environ["FLEETPLAN_TEST_NETWORK_LOG"])
