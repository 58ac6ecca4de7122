"""The plan summary (summary.md) of a scenario edited in the dashboard says so near its top, and which fields changed
from the file, the file's value → the edited one: a budget-holder's audit read the file's title and "3-year view"
beside "over 48 months", nothing saying the horizon had been edited. The command line's summary of the file has no
such note. The Plan page marks the file's description as the file's once something is edited.

Oracle: scenarios/startup-hybrid.yaml's own lines (horizon_months: 36; providers [aws, azure]; its description)."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from fleetplan_dashboard import exports, state
from planner import load_scenario, plan
from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "scenarios" / "startup-hybrid.yaml"
DESCRIPTION = yaml.safe_load(FILE.read_text(encoding="utf-8"))["description"]
NOTE = "Edited in the dashboard from startup-hybrid.yaml"


def _edited(**edits):
    base = load_scenario(FILE)
    edited = state.apply_edits(base, {**state.default_edits(base), **edits})
    return state.Current("file:startup-hybrid.yaml", base, edited)


def test_the_summary_of_an_edited_horizon_says_it_was_edited_and_36_to_48():
    cur = _edited(horizon_months=48)
    md = exports.plan_markdown(plan(cur.edited, baselines=False), edited=state.summary_edits(cur))
    top = md.split("**Total:")[0]   # near the top: above the total
    assert f"**{NOTE}: the name and description are the file's own and may not describe the edits." in top
    assert "- horizon_months: 36 → 48\n" in top
    # one note: the plan is made from the edited scenario, with no overrides of its own to note again
    assert md.count("may not describe the edits") == 1 and "Changed with overrides" not in md
    # still told as a summary (its "Planned with fleetplan" line within its first lines: scenario.loading)
    assert md.split("\n")[4].startswith("Planned with fleetplan ")
    assert "over 48 months" in md


def test_the_summary_shows_an_edited_list_as_typed():
    cur = _edited(providers=["aws"])
    md = exports.plan_markdown(plan(cur.edited, baselines=False), edited=state.summary_edits(cur))
    # a link's brackets escaped, as the writer shows the scenario's text
    assert "- prices.providers: \\[aws, azure\\] → \\[aws\\]\n" in md


def test_an_unedited_scenario_has_no_note():
    assert state.summary_edits(_edited()) is None


def test_the_command_lines_summary_of_the_file_has_no_note():   # a guard: the command line's summary is unchanged
    out = CliRunner().invoke(app, ["plan", str(FILE), "--format", "md", "--no-baselines"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("# Start-up hybrid fleet\n")
    assert "Edited in the dashboard" not in out.output and "→ 48" not in out.output


def _captions(at: AppTest) -> list[str]:
    return [c.value.replace("\\", "") for c in at.caption]


def test_the_plan_page_marks_the_description_as_the_files_and_the_export_summary_says_the_edit(monkeypatch):
    files: dict[str, object] = {}
    add = MediaFileManager.add

    def kept(self, data, mimetype, coordinates, file_name=None, *args, **kwargs):   # the page's downloads, by name
        files[file_name] = data
        return add(self, data, mimetype, coordinates, file_name, *args, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add", kept)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(c.endswith(f" · {DESCRIPTION}") for c in _captions(at))
    assert not any("the file's description" in c for c in _captions(at))
    at.slider(key="edit:horizon_months").set_value(48).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(c.endswith(f" · the file's description: {DESCRIPTION}") for c in _captions(at))
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, [e.value for e in at.exception]
    (summary,) = [data for name, data in files.items() if name and name.endswith("-edited-summary.md")]
    summary = summary.decode() if isinstance(summary, bytes) else summary
    top = summary.split("**Total:")[0]
    assert f"**{NOTE}: " in top and "- horizon_months: 36 → 48\n" in top
    assert summary.count("may not describe the edits") == 1
