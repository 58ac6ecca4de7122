"""The Plan page's sidebar download ("Download this scenario with the edits") and the Export page's "Scenario (YAML)"
were two files: one the file's own lines with the edits, the other written whole without a comment, named otherwise.
Now one file (state.scenario_download) wherever it is offered, its help saying so. Oracle: scenarios/startup-hybrid.yaml's
own lines (horizon_months: 36; the comment on discount_rate)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_export_pages_scenario_is_the_sidebars_file_with_its_comments():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.slider(key="edit:horizon_months").set_value(24).run()
    assert not at.exception, [e.value for e in at.exception]
    (sidebar,) = [b for b in at.get("download_button") if b.proto.label.startswith("Download this scenario")]
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (export,) = [b for b in at.get("download_button") if b.proto.label == "Scenario (YAML)"]
    assert "the same file from the Plan page's sidebar and the Export page" in sidebar.proto.help
    assert "the same file from the Plan page's sidebar and the Export page" in export.proto.help
    yaml_text = next(c.value for c in at.code)
    assert "horizon_months: 24  # set in the dashboard (the file said 36)\n" in yaml_text
    assert "discount_rate: 0.0            # annual; 0 = undiscounted, so totals are plain sums\n" in yaml_text
    assert "$schema=../" not in yaml_text
    assert load_scenario_text(yaml_text).horizon_months == 24
