"""Where a relative scenario path not found was looked for (an audit, 2026-12-07): from notebooks/,
`load_scenario("scenarios/startup-hybrid.yaml")` (the README's path, relative to the repository's root) said only
"file not found", and so did `fleetplan plan scenarios/x.yaml` from another folder. The message names the working
folder it was looked for in and, where the same relative path names a file a few folders up (or from the repository's
root), offers it."""

from __future__ import annotations

from pathlib import Path

import pytest

import planner
from planner import load_scenario
from planner.errors import ScenarioError
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "name: x\nworkloads:\n  - {name: a, gpu_hours_per_month: 10, reference_gpu: RTX-4090}\n"


def _problems(path) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return info.value.problems


@pytest.fixture
def project(tmp_path_factory) -> Path:
    """A short folder (the message shortens a folder beyond 80 characters) holding scenarios/s.yaml and an empty
    notebooks/deep/ folder."""
    root = tmp_path_factory.mktemp("p").resolve()
    (root / "scenarios").mkdir()
    (root / "scenarios" / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    (root / "notebooks" / "deep").mkdir(parents=True)
    return root


def test_a_scenario_path_of_the_root_given_in_notebooks_is_offered_one_folder_up(project, monkeypatch):
    monkeypatch.chdir(project / "notebooks")
    assert _problems("scenarios/s.yaml") == [
        f"scenarios/s.yaml: file not found (looked for in the working folder, {project}/notebooks); "
        "did you mean '../scenarios/s.yaml'?"]


def test_two_folders_down_it_is_offered_two_folders_up(project, monkeypatch):
    monkeypatch.chdir(project / "notebooks" / "deep")
    assert _problems("scenarios/s.yaml") == [
        f"scenarios/s.yaml: file not found (looked for in the working folder, {project}/notebooks/deep); "
        "did you mean '../../scenarios/s.yaml'?"]


def test_a_path_found_nowhere_names_the_working_folder_alone(project, monkeypatch):
    monkeypatch.chdir(project / "notebooks")
    assert _problems("scenarios/other.yaml") == [
        f"scenarios/other.yaml: file not found (looked for in the working folder, {project}/notebooks)"]


def test_a_name_misspelt_in_the_working_folder_is_still_offered_the_one_spelt_alike(project, monkeypatch):
    monkeypatch.chdir(project)
    assert _problems("scenarios/ss.yaml") == [
        f"scenarios/ss.yaml: file not found (looked for in the working folder, {project}); "
        "did you mean 'scenarios/s.yaml'?"]


def test_an_absolute_path_names_no_working_folder(project, monkeypatch):
    monkeypatch.chdir(project / "notebooks")
    missing = project / "notebooks" / "scenarios" / "s.yaml"
    assert _problems(missing) == [f"{missing}: file not found"]


def test_outside_the_repository_the_readme_path_is_offered_from_its_root(tmp_path_factory, monkeypatch):
    if Path(planner.__file__).resolve().parents[1] != ROOT:
        pytest.skip("the planner imported is not this checkout's")
    elsewhere = tmp_path_factory.mktemp("e").resolve()
    monkeypatch.chdir(elsewhere)
    assert _problems("scenarios/startup-hybrid.yaml") == [
        f"scenarios/startup-hybrid.yaml: file not found (looked for in the working folder, {elsewhere}); "
        f"did you mean '{ROOT / 'scenarios' / 'startup-hybrid.yaml'}'?"]


def test_the_cli_says_the_same(project, monkeypatch):
    monkeypatch.chdir(project / "notebooks")
    for command in ("validate", "plan"):
        result = run(command, "scenarios/s.yaml")
        assert result.exit_code == 2, result.output
        assert (f"scenarios/s.yaml: file not found (looked for in the working folder, {project}/notebooks); "
                "did you mean '../scenarios/s.yaml'?") in result.stderr
        assert "Traceback" not in result.output
