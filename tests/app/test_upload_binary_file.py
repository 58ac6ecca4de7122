"""A binary file uploaded as a scenario (a gzip, a workbook, a PDF, the price store renamed .yaml) is told what it is,
in the words the command line uses for the same file (pricing_adapters.signatures); before, the upload said "not
UTF-8 text (byte 0x8b); save the file as UTF-8 (… often a Latin-1 accent)", sending the user to their editor."""

from __future__ import annotations

import gzip

import pytest

from fleetplan_dashboard.state import read_upload
from planner import load_scenario
from planner.errors import ScenarioError
from tests.planner.test_scenario_file_not_yaml import SCENARIO, _sqlite, _xlsx


@pytest.mark.parametrize(("make", "said"), [
    (lambda tmp: gzip.compress(SCENARIO.encode()), "is a gzip-compressed file, not a scenario YAML file; decompress it first"),
    (lambda tmp: _xlsx(), "is an Excel workbook (a zip file), not a scenario YAML file"),
    (lambda tmp: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "is a PDF document, not a scenario YAML file"),
    (lambda tmp: _sqlite(tmp / "made.sqlite"),
     "is an SQLite database, not a scenario YAML file; a price store is given with --store (plan(store=…) in Python)"),
])
def test_a_binary_upload_is_named_as_the_command_line_names_it(tmp_path, make, said):
    data = make(tmp_path)
    scenario, problems, text = read_upload("plan.yaml", data)
    assert (scenario, problems, text) == (None, [f"plan.yaml: {said}"], "")
    path = tmp_path / "plan.yaml"
    path.write_bytes(data)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.problems == [f"{path}: {said}"]


def test_a_binary_file_among_the_example_scenarios_is_named_too(tmp_path, monkeypatch):
    from fleetplan_dashboard import state

    monkeypatch.setattr(state, "SCENARIO_DIR", tmp_path)
    (tmp_path / "old.yaml").write_bytes(gzip.compress(SCENARIO.encode()))
    assert state.load_file("old.yaml") == (
        None, ("scenarios/old.yaml: is a gzip-compressed file, not a scenario YAML file; decompress it first",))
