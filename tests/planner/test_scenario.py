"""Scenario files: every example validates; bad files name every problem with its line."""

from pathlib import Path

import pydantic
import pytest

from planner import load_scenario
from planner.errors import ScenarioError
from planner.scenario import Scenario, load_scenario_file, load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "scenarios"


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_validates(path):
    scenario = load_scenario_file(path)
    assert scenario.workloads
    assert path.read_text().startswith("# yaml-language-server: $schema=../schema/scenario.schema.json")


def test_the_four_seed_tiers_are_there():
    names = {p.name for p in (ROOT / "scenarios").glob("*.yaml")}
    assert {"entry.yaml", "mid-research.yaml", "industrial.yaml", "startup-hybrid.yaml"} <= names


def test_design_example_fields_are_read_as_written():
    s = load_scenario_file(ROOT / "scenarios" / "startup-hybrid.yaml")
    assert s.horizon_months == 36 and s.fx == {"CNY": 0.14}
    assert s.onprem.card_overrides["a100-80gb-pcie"].price == 14000
    assert s.onprem.owned_count("rtx-3060-12gb") == 2 and s.onprem.owned_age_months("rtx-3060-12gb") == 0
    ft = s.workloads[0]
    assert ft.framework == "tensorflow==2.12" and ft.throughput == {"A100-80GB-PCIE": 1.0, "H100-SXM": 2.4}
    assert s.workloads[1].interruption_overhead == 0.1
    assert s.constraints.max_cloud_share == 0.6


def test_models_are_frozen():
    s = load_scenario_file(ROOT / "scenarios" / "entry.yaml")
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        s.horizon_months = 12  # type: ignore[misc]


def problems_of(path: Path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    return info.value.problems


def test_bad_file_reports_every_problem_with_its_line():
    problems = problems_of(FIXTURES / "bad.yaml")
    text = "\n".join(problems)
    origin = str(FIXTURES / "bad.yaml")
    # misspelt key, line 2
    assert f"{origin}:2:1: horizon_month: unknown key; did you mean 'horizon_months'?" in problems
    # broken indentation, line 5
    assert any(p.startswith(f"{origin}:5:") and "YAML syntax" in p and "indentation" in p for p in problems)
    # unknown card on line 6 with its suggestion
    assert any(p.startswith(f"{origin}:6:") and "unknown card 'rtx-409'" in p and "'rtx-4090'" in p
               for p in problems)
    # a string where a number belongs, line 9
    assert any(p.startswith(f"{origin}:9:") and "workloads[0].gpu_hours_per_month" in p
               and "expected a number, got 'lots'" in p for p in problems)
    # unknown GPU id, line 10, with suggestion
    assert any(p.startswith(f"{origin}:10:") and "unknown GPU 'A100-80GB-PCI'" in p
               and "did you mean 'A100-80GB-PCIE'" in p for p in problems)
    assert "Traceback" not in text
    assert len(problems) == 5, text


def test_problems_are_listed_in_line_order():
    problems = problems_of(FIXTURES / "bad.yaml")
    prefix = str(FIXTURES / "bad.yaml") + ":"
    lines = [int(p[len(prefix):].split(":")[0]) for p in problems]
    assert lines == sorted(lines)


def test_missing_required_fields_are_named():
    with pytest.raises(ScenarioError) as info:
        load_scenario_text("name: x\n", origin="t.yaml")
    assert any("workloads: required field is missing" in p for p in info.value.problems)


def test_unknown_key_at_wrong_level_points_to_where_it_belongs():
    text = "name: x\npue: 1.3\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:2:1: pue: unknown key; 'pue' belongs under onprem — check the indentation")


def test_literal_choice_suggests_the_nearest():
    text = ("name: x\nprices: {purchase_options: [on_demnd]}\n"
            "workloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    (problem,) = info.value.problems
    assert problem.startswith("t.yaml:2:29: prices.purchase_options[0]:") and "did you mean 'on_demand'" in problem


def test_card_in_foreign_currency_needs_an_fx_rate():
    text = ("name: x\nonprem: {cards: [rtx-3060-12gb]}\n"
            "workloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    assert any("priced in CNY" in p and "fx: {CNY:" in p for p in info.value.problems)


def test_unknown_framework_version_is_reported():
    text = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4,"
            " framework: tensorflow==1.2}\n  - {name: b, gpu_hours_per_month: 1, reference_gpu: T4,"
            " framework: tensorflo==2.12}\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    text = "\n".join(info.value.problems)
    assert "no GPU build of tensorflow 1.2" in text and "did you mean 'tensorflow'" in text


def test_duplicate_workload_names_are_rejected():
    text = ("name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 1, reference_gpu: T4}\n"
            "  - {name: a, gpu_hours_per_month: 2, reference_gpu: T4}\n")
    with pytest.raises(ScenarioError, match="repeated: \\['a'\\]"):
        load_scenario_text(text)


def test_yaml_tags_are_not_executed(tmp_path):
    text = "name: !!python/object/apply:os.system ['echo pwned']\nworkloads: []\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, origin="t.yaml")
    assert any("YAML syntax" in p for p in info.value.problems)


def test_load_scenario_accepts_path_dict_and_text():
    path = ROOT / "scenarios" / "entry.yaml"
    a = load_scenario(str(path))
    b = load_scenario(path.read_text())
    c = load_scenario({"name": "Entry — small datasets", "workloads": [
        {"name": "w", "gpu_hours_per_month": 10, "reference_gpu": "T4"}]})
    assert isinstance(a, Scenario) and a.name == b.name == c.name
