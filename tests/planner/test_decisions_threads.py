"""add_decisions(p, threads=…) takes a whole number from 1 (None: one per usable core, at most MAX_THREADS):
`threads=0`, -2, 2.5 or "2" was taken without a word (as one thread, or two: `max(1, int(threads))`), so a caller
who meant "the default" by 0 got one thread. scenarios/entry.yaml's plan has 2 re-solves (docs/decisions.md)."""

from pathlib import Path

import numpy as np
import pytest

from planner import add_decisions, plan
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"


@pytest.fixture(scope="module")
def entry_plan():
    return plan(ENTRY, baselines=False)


@pytest.mark.parametrize(("threads", "shown"), [(0, "0"), (-2, "-2"), (2.5, "2.5"), ("2", "'2'"), (True, "True")])
def test_threads_that_are_no_whole_number_from_1_are_refused(entry_plan, threads, shown):
    with pytest.raises(PlannerError) as refused:
        add_decisions(entry_plan, threads=threads)
    assert str(refused.value) == ("add_decisions: threads: expected a whole number from 1 (or None: one per usable "
                                  f"core, at most 8), got {shown}")
    assert entry_plan.decisions is None   # refused before any re-solve


def test_a_numpy_whole_number_is_taken():
    p = add_decisions(plan(ENTRY, baselines=False), threads=np.int64(1))
    assert p.solver["decisions"]["threads"] == 1 and p.decisions is not None
