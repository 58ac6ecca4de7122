"""The dashboard's scenario YAML names where the scenario came from in a comment. An uploaded file's name is the
browser's to choose and may hold line breaks: a review (2026-12-05) uploaded entry.yaml as
"x\\nprofile_slots: 1\\n#.yaml", and the export read `profile_slots: 1` as a field of the scenario, which then
loaded back different from the one exported (with `name: …` injected, not at all)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fleetplan_dashboard import exports
from planner import load_scenario
from planner.scenario import load_scenario_text
from tests.planner.test_cli_prices_sides_and_ages import freeze_today

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("origin", [
    "x\nprofile_slots: 1\n#.yaml",
    "x\r\nname: hacked\n#.yaml",
    "x\u2028profile_slots: 1\u2029#.yaml",   # YAML's own line and paragraph separators
    "x\x85profile_slots: 1\n#.yaml",         # and NEL
])
def test_an_origin_with_line_breaks_stays_in_its_comment(origin, monkeypatch):
    # the comment's date is read from a frozen clock: the expected one, read after the export, was a day later when
    # the run crossed midnight UTC between the two
    freeze_today(monkeypatch)   # 2026-12-07
    s = load_scenario(ROOT / "scenarios" / "entry.yaml")
    assert s.profile_slots is None
    text = exports.scenario_yaml(s, origin)
    assert load_scenario_text(text) == s
    # one comment line (no schema line: its relative path leads nowhere from a download), then the first field
    lines = text.splitlines()
    assert lines[0].startswith("# Exported from x") and lines[0].endswith("#.yaml on 2026-12-07 (UTC).")
    assert lines[1].startswith("name: ")


def test_an_exported_scenario_leaves_the_default_purchase_options_unlisted_and_keeps_listed_ones():
    # a scenario that leaves its purchase options to the default is not warned of the default's reservations,
    # which the packaged prices lack (catalog.option_gaps); listed in the export, they came back as if chosen
    from planner import catalog

    minimal = load_scenario_text("name: minimal\nworkloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    coverage, _ = catalog.price_coverage("snapshot")
    exported = load_scenario_text(exports.scenario_yaml(minimal, "minimal.yaml"))
    assert "purchase_options" not in exports.scenario_yaml(minimal, "minimal.yaml")
    assert exported == minimal and catalog.option_gaps(exported, coverage) == []
    # a list given stays given: startup-hybrid lists all four, two of them reservations the snapshot lacks
    hybrid = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    again = load_scenario_text(exports.scenario_yaml(hybrid, "startup-hybrid.yaml"))
    assert again.prices.purchase_options == ("on_demand", "spot", "reserved_1y", "reserved_3y")
    assert [gap.split(":")[0] for gap in catalog.option_gaps(again, coverage)] == ["reserved_1y", "reserved_3y"]
