"""The dashboard's scenario YAML names where the scenario came from in a comment. An uploaded file's name is the
browser's to choose and may hold line breaks: a review (2026-12-05) uploaded entry.yaml as
"x\\nprofile_slots: 1\\n#.yaml", and the export read `profile_slots: 1` as a field of the scenario, which then
loaded back different from the one exported (with `name: …` injected, not at all)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fleetplan_dashboard import exports
from planner import load_scenario
from planner.catalog.prices import utc_today
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("origin", [
    "x\nprofile_slots: 1\n#.yaml",
    "x\r\nname: hacked\n#.yaml",
    "x\u2028profile_slots: 1\u2029#.yaml",   # YAML's own line and paragraph separators
    "x\x85profile_slots: 1\n#.yaml",         # and NEL
])
def test_an_origin_with_line_breaks_stays_in_its_comment(origin):
    s = load_scenario(ROOT / "scenarios" / "entry.yaml")
    assert s.profile_slots is None
    text = exports.scenario_yaml(s, origin)
    assert load_scenario_text(text) == s
    # the schema line, then one comment line, then the scenario's first field
    lines = text.splitlines()
    assert lines[1].startswith("# Exported from x") and lines[1].endswith(f"#.yaml on {utc_today().isoformat()} (UTC).")
    assert lines[2].startswith("name: ")
