"""A workload addressed as a message names it (`workloads[0].profil`) with a misspelt field: the "did you mean"
names the field meant, as `workloads.0.profil` does ("did you mean 'profile'?"); it repeated the typo, "did you
mean workloads.0.profil (or workloads.coursework-and-kaggle.profil)?" (an audit, 2026-12-06)."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.scenario import apply_overrides

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"   # one workload, coursework-and-kaggle


def problem(path: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        apply_overrides(load_scenario(ENTRY), {path: "flat"})
    return str(caught.value).splitlines()[-1].strip()


def test_a_misspelt_field_after_a_bracketed_workload_is_corrected_in_both_spellings():
    assert problem("workloads[0].profil") == ("workloads[0].profil: did you mean workloads.0.profile "
                                              "(or workloads.coursework-and-kaggle.profile)?")


def test_the_rest_of_the_path_is_kept_after_the_field_meant():
    assert problem("workloads[0].throughpt.A100-80GB-PCIE") == (
        "workloads[0].throughpt.A100-80GB-PCIE: did you mean workloads.0.throughput.A100-80GB-PCIE "
        "(or workloads.coursework-and-kaggle.throughput.A100-80GB-PCIE)?")


def test_a_field_near_no_field_is_named_unknown_with_the_fields_allowed():
    message = problem("workloads[0].zzzz")
    assert message.startswith("workloads[0].zzzz: unknown key 'zzzz' of a workload (allowed: name, gpu_hours_per_month, ")
    assert message.endswith("did you mean workloads.0.FIELD (or workloads.coursework-and-kaggle.FIELD)?")


def test_an_index_past_the_workloads_names_the_field_meant_too():
    assert problem("workloads[5].profil") == ("workloads[5].profil: no workload at index 5 (0-based; known: "
                                              "coursework-and-kaggle); a workload's field is workloads.INDEX.profile "
                                              "or workloads.NAME.profile")


def test_plan_says_the_same():
    with pytest.raises(ScenarioError, match=r"did you mean workloads\.0\.profile \(or "):
        plan(load_scenario(ENTRY), overrides={"workloads[0].profil": "flat"})
