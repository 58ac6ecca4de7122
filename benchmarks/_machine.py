"""What every benchmark prints about the machine it ran on: the load average and core count (a busy
machine stretches every time), and the speed of one core on a fixed pure-Python loop, so that figures
measured on different machines can be compared (sessions here have run on machines about 2× apart)."""

from __future__ import annotations

import os
import timeit

REFERENCE_LOOP = "sum(range(10**6))"


def reference_loop_ms() -> float:
    """Milliseconds of REFERENCE_LOOP on this core: the best of 5 rounds of 10."""
    return min(timeit.repeat(REFERENCE_LOOP, number=10, repeat=5)) / 10 * 1000


def report(when: str) -> None:
    """One line: load average, cores, whether the machine is busy (load > half the cores), and (before a
    run) the reference loop's time."""
    load, cores = os.getloadavg(), os.cpu_count() or 1
    busy = "  — machine busy: times are stretched" if load[0] > 0.5 * cores else ""
    speed = f"; one core: {REFERENCE_LOOP} in {reference_loop_ms():.1f} ms" if when == "before" else ""
    print(f"load average {when}: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {cores} cores{speed}{busy}")
