"""An offer whose GPU memory is unknown is excluded from a workload with a memory floor in words: the reason read
"nan GB per GPU < 16 GB needed" (Azure's V710 and V620 sizes in the packaged snapshot have no memory figure)."""

from __future__ import annotations

from pathlib import Path

from planner.engine import inputs_for
from planner.engine.workloads import work_matrix
from planner.scenario import load_scenario_file

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "worked-example.yaml"


def test_an_offer_of_unknown_memory_is_excluded_for_that_reason():
    scenario = load_scenario_file(EXAMPLE)   # training needs 16 GB per GPU
    units = inputs_for(scenario).units.copy()
    cloud = units["kind"] != "card"
    units.loc[cloud, "gpu_memory_gb"] = float("nan")   # the g5.xlarge row, with its A10G's memory not known
    work, exclusions = work_matrix(scenario, units)
    reasons = exclusions.set_index("sku")["reason"].to_dict()
    assert reasons == {"g5.xlarge": "GPU memory unknown; 16 GB per GPU needed"}
    assert work[cloud.to_numpy(), 0].tolist() == [0.0]
    assert work[~cloud.to_numpy(), 0].tolist() == [1.0]   # the A5000 (24 GB) still serves it: the reference GPU


def test_without_a_memory_floor_the_reason_names_no_floor():
    scenario = load_scenario_file(EXAMPLE)
    data = scenario.model_dump(mode="json", exclude_unset=True)
    data["workloads"][0].pop("min_gpu_memory_gb")   # the default, 0 GB: "0 GB per GPU needed" said nothing true
    units = inputs_for(scenario).units.copy()
    units.loc[units["kind"] != "card", "gpu_memory_gb"] = float("nan")
    _, exclusions = work_matrix(type(scenario).model_validate(data), units)
    assert exclusions.set_index("sku")["reason"].to_dict() == {"g5.xlarge": "GPU memory unknown"}
