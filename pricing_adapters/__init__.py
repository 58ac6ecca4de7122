"""Price sources for the GPU fleet planner: packaged snapshot, price store, live AWS and Azure adapters.

Everything here yields the offers table of `pricing_adapters.schema`; nothing here imports the planner.
"""

from pathlib import Path

# The package's folder, where its data/ and snapshots/ are (installed as files, as planner/data is):
# importlib.resources.files would find them too, but its import and first call are 2.5-3.5 ms of a
# `fleetplan plan` process (2026-12-03) that reads one snapshot file.
PACKAGE_DIR = Path(__file__).resolve().parent
