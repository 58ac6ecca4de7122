"""How fast each GPU trains, relative to another: the names of the speed models a workload may pick.

(To be filled by the measured-throughput work: packaged measured table, datasheet fit for the GPUs it
does not cover, and multi-GPU scaling.)
"""

from __future__ import annotations

from planner.catalog.gpus import THROUGHPUT_METRICS

# every value a workload's `throughput_metric` may take; the scenario model builds its Literal from it
METRIC_NAMES: tuple[str, ...] = THROUGHPUT_METRICS
DEFAULT_METRIC = "fp16_tensor_tflops"
