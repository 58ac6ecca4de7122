"""A count in a message agrees with its noun: "1 GPU per job", "2 GPUs per job", never "GPU(s)" (as d51a72e
words "1 month" and affa575 "4 workloads")."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from planner.catalog.servable import workload_needs as _needs


@pytest.mark.parametrize(("gpus", "said"), [(1, "≥ 40 GB, 1 GPU per job"), (2, "≥ 40 GB, 2 GPUs per job"),
                                            (8, "≥ 40 GB, 8 GPUs per job")])
def test_a_workload_s_needs_count_its_gpus_in_words(gpus, said):
    w = SimpleNamespace(min_gpu_memory_gb=40, gpus_per_job=gpus, framework=None, min_compute_capability=None)
    assert _needs(w) == said
