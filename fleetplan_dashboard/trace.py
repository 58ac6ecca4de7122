"""Server-side timing of the dashboard's script runs, for `benchmarks/dashboard_browser.py`.

With `FLEETPLAN_DASHBOARD_TRACE=FILE` in the environment, each run appends lines
`EPOCH_SECONDS EVENT` to FILE: `start` when a run begins; on the Plan page `p:page` before the
recommended plan is asked for (the widgets and the edited scenario done), `p:plan` when it is there,
`total` when the total is written, `end` when the run is done. Epoch seconds, so that the benchmark
can line them up with the browser's clock (`performance.timeOrigin + performance.now()`) on the same
machine. Without the variable this does nothing.
"""

from __future__ import annotations

import os
import time

TRACE_FILE = os.environ.get("FLEETPLAN_DASHBOARD_TRACE")


def mark(event: str) -> None:
    """Append `EPOCH_SECONDS EVENT` to the trace file (when tracing)."""
    if TRACE_FILE:
        with open(TRACE_FILE, "a", encoding="utf-8") as f:
            f.write(f"{time.time():.4f} {event}\n")

