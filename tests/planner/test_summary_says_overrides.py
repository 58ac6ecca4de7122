"""The summary for a planning review (summary.md) of a plan made with overrides says so under its header line, and
which fields they changed, the value given → the value planned: `plan(s, horizon_months=48)` kept the file's title and
"3-year view" beside a total over 48 months, nothing saying the horizon was not the file's (as the dashboard's summary
of an edited scenario says its edits: tests/app/test_summary_says_edited.py). A plan without overrides, or with ones
that change nothing, has no note; a note given to the writer (the dashboard's) is said instead of the plan's own.

Oracle: scenarios/startup-hybrid.yaml's own lines (horizon_months: 36; providers [aws, azure]; its title)."""

from __future__ import annotations

import pickle
from pathlib import Path

import yaml

from planner import add_decisions, plan
from planner.reports import plan_to_markdown, write_plan_files
from planner.reports.markdown import Edited

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "scenarios" / "startup-hybrid.yaml"
GIVEN = yaml.safe_load(FILE.read_text(encoding="utf-8"))
NOTE = ("**Changed with overrides: the name and description are the file's own and may not describe the edits. "
        "Changed from the scenario given:**")


def _top(md: str) -> list[str]:
    """The lines between the header line ("Planned with fleetplan …") and the total."""
    lines = md.split("**Total:")[0].split("\n")
    header = next(i for i, line in enumerate(lines) if line.startswith("Planned with fleetplan "))
    return lines[header + 1:]


def test_the_file_horizon_is_36_months():   # what the notes below rest on
    assert GIVEN["horizon_months"] == 36 and GIVEN["prices"]["providers"] == ["aws", "azure"]


def test_a_plan_with_a_48_month_override_says_36_to_48_under_its_header():
    md = plan_to_markdown(plan(FILE, baselines=False, horizon_months=48))
    assert md.startswith(f"# {GIVEN['name']}\n")   # the file's title, as before
    assert _top(md) == ["", NOTE, "", "- horizon_months: 36 → 48", "", ""]
    assert "over 48 months" in md


def test_overrides_given_as_a_mapping_say_each_field_changed_as_typed():
    p = plan(FILE, baselines=False, overrides={"horizon_months": 48, "prices.providers": ["aws"]})
    assert _top(plan_to_markdown(p)) == ["", NOTE, "", "- horizon_months: 36 → 48",
                                         "- prices.providers: \\[aws, azure\\] → \\[aws\\]", "", ""]


def test_a_plan_without_overrides_goes_from_its_header_to_its_total():
    assert _top(plan_to_markdown(plan(FILE, baselines=False))) == ["", ""]


def test_overrides_that_change_no_value_have_no_note():
    assert _top(plan_to_markdown(plan(FILE, baselines=False, horizon_months=36))) == ["", ""]


def test_a_note_given_to_the_writer_is_said_instead_of_the_plans_own():
    given = Edited("Edited somewhere else: see below.", (("horizon_months", "36", "48"),))
    md = plan_to_markdown(plan(FILE, baselines=False, horizon_months=48), edited=given)
    assert _top(md) == ["", "**Edited somewhere else: see below.**", "", "- horizon_months: 36 → 48", "", ""]
    assert md.count("may not describe the edits") == 0


def test_the_out_folders_summary_and_the_decisions_keep_the_note(tmp_path):
    p = add_decisions(plan(FILE, horizon_months=48))
    write_plan_files(p, tmp_path / "out")
    md = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert _top(md) == ["", NOTE, "", "- horizon_months: 36 → 48", "", ""]
    assert md.count(NOTE) == 1
    # a pickled plan (the dashboard's cache) keeps it; one pickled before plans kept it has none, and no error
    again = pickle.loads(pickle.dumps(p))
    assert _top(plan_to_markdown(again)) == _top(md)
    del again.__dict__["_overrides_changed"]
    assert _top(plan_to_markdown(again)) == ["", ""]
