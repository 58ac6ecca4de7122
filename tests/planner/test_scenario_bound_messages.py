"""Bounds said once and in whole numbers (README walk-through audit, 2026-12-07)."""

import pytest

from planner.errors import ScenarioError
from planner.scenario import load_scenario


def _problems(data: dict) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(data)
    return [line.strip() for line in str(caught.value).splitlines()[1:] if line.strip()]


def _workload(**demand) -> dict:
    return {"name": "w", "reference_gpu": "A100-80GB-PCIE", **demand}


def test_reference_gpus_limit_reads_as_a_whole_number():
    # 1e9 GPU-hours a month (the gpu_hours_per_month limit) ÷ 730 h = 1,369,863.01…: the whole 1369863 is the limit
    problems = _problems({"name": "s", "workloads": [_workload(reference_gpus=2_000_000)]})
    assert problems == ["<dict>: workloads[0].reference_gpus: expected a number ≤ 1369863, got 2000000"]
    assert 1_369_863 * 730 <= 1e9 < 1_369_864 * 730
    load_scenario({"name": "s", "workloads": [_workload(reference_gpus=1_369_863)]})   # at the limit: accepted


def test_an_owned_age_above_its_bound_is_one_problem_not_two():
    owned = {"rtx-4090": {"count": 1, "age_months": 1300}}
    problems = _problems({"name": "s", "workloads": [_workload(gpu_hours_per_month=100)],
                          "onprem": {"cards": ["rtx-4090"], "existing": owned}})
    assert problems == ["<dict>: onprem.existing.rtx-4090.age_months: expected a number ≤ 1200, got 1300"]


def test_an_owned_age_within_its_bound_past_the_life_is_still_refused():
    owned = {"rtx-4090": {"count": 1, "age_months": 1200}}
    problems = _problems({"name": "s", "workloads": [_workload(gpu_hours_per_month=100)],
                          "onprem": {"cards": ["rtx-4090"], "existing": owned}})
    assert len(problems) == 1 and "1200 months is not below the card's life of" in problems[0]
