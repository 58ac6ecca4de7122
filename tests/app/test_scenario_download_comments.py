"""The scenario download with the edits (state.edited_text), the one file the Plan page's sidebar and the Export page
offer: an edited value's line keeps the file's own comment (a unit hint, "# USD per kWh", holds for the new value too)
and adds that it was set in the dashboard and what the file said, so what the comment said of the file's value ("the
example's assumption, no source" beside a 0.15 the user set) reads as the file's; the lines not edited stay as they
are; a first comment says the name and description are the file's ("3-year view" at 37 months); no editor schema line
naming a relative path, which leads nowhere from a download folder. Oracle: scenarios/startup-hybrid.yaml's own lines."""

from __future__ import annotations

from pathlib import Path

from fleetplan_dashboard import exports, state
from planner import load_scenario
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "scenarios" / "startup-hybrid.yaml"


def _edited():
    text, base = FILE.read_text(encoding="utf-8"), load_scenario(FILE)
    values = {**state.default_edits(base), "horizon_months": 37, "electricity_per_kwh": 0.15}
    return text, base, values, state.edited_text(text, base, values, origin="startup-hybrid.yaml")


def test_an_edited_values_comment_says_it_was_set_in_the_dashboard_and_what_the_file_said():
    text, base, values, (out, kept) = _edited()
    assert kept
    # the file's lines, by hand
    assert "horizon_months: 36\n" in text
    assert "  electricity_per_kwh: 0.12   # USD per kWh: the example's assumption, no source; put your site's tariff\n" in text
    lines = out.splitlines()
    assert "horizon_months: 37  # set in the dashboard (the file said 36)" in lines
    # the file's comment kept, in its column, the dashboard's note after it
    assert ("  electricity_per_kwh: 0.15   # USD per kWh: the example's assumption, no source; put your site's tariff — "
            "set in the dashboard (the file said 0.12)") in lines
    # a line not edited is as the file has it
    assert ("  pue: 1.4                    # the example's assumption, no source (small server rooms measured 1.5-2.1: "
            "LBNL, 2013)") in lines
    assert load_scenario_text(out, base_dir=FILE.parent) == state.apply_edits(base, values)


def test_the_download_says_the_description_is_the_files_and_names_no_relative_schema():
    text, _, _, (out, _) = _edited()
    assert text.startswith("# yaml-language-server: $schema=../schema/scenario.schema.json\n")
    assert "$schema=../" not in out
    head = out.split("\nname:")[0]
    assert head.startswith("# Edited in the dashboard from startup-hybrid.yaml on ")
    assert "description are the file's own and may not describe the edits" in " ".join(head.replace("#", "").split())
    assert "description: One flagship + several mid-range cards, cloud for peaks; 3-year view.\n" in out


def test_the_export_pages_fallback_names_no_relative_schema():
    # the scenario written whole (a file whose text the dashboard has not: exports.scenario_yaml)
    text = exports.scenario_yaml(load_scenario(FILE), "startup-hybrid.yaml", edited=True)
    assert "$schema=../" not in text


# a scenario whose edited values carry comments of their own: a unit hint, and a note an earlier download left
HINTED = FILE.read_text(encoding="utf-8").replace(
    "  electricity_per_kwh: 0.12   # USD per kWh: the example's assumption, no source; put your site's tariff\n",
    "  electricity_per_kwh: 0.12 # USD per kWh\n").replace(
    "horizon_months: 36", "horizon_months: 36  # three years — set in the dashboard (the file said 24)")


def test_an_edited_values_own_comment_is_kept_and_the_dashboards_note_added():
    assert "  electricity_per_kwh: 0.12 # USD per kWh\n" in HINTED
    base = load_scenario_text(HINTED, base_dir=FILE.parent)
    values = {**state.default_edits(base), "horizon_months": 37, "electricity_per_kwh": 0.15}
    out, kept = state.edited_text(HINTED, base, values, origin="hinted.yaml")
    assert kept
    lines = out.splitlines()
    assert "  electricity_per_kwh: 0.15 # USD per kWh — set in the dashboard (the file said 0.12)" in lines
    # an earlier download's note is replaced, not said twice: the file now said 36
    assert "horizon_months: 37  # three years — set in the dashboard (the file said 36)" in lines
    assert load_scenario_text(out, base_dir=FILE.parent) == state.apply_edits(base, values)
    # a value the user did not change keeps its line as the file has it
    same = {**state.default_edits(base), "horizon_months": 37}
    out, _ = state.edited_text(HINTED, base, same, origin="hinted.yaml")
    assert "  electricity_per_kwh: 0.12 # USD per kWh\n" in out


def test_a_whole_amount_set_in_the_dashboard_is_written_as_the_file_writes_it():
    # the sidebar's number inputs give floats (20000.0): the file's budget line reads 20000, as a person writes it
    text, base = FILE.read_text(encoding="utf-8"), load_scenario(FILE)
    values = {**state.default_edits(base), "capex_budget": 20000.0, "electricity_per_kwh": 0.15}
    out, kept = state.edited_text(text, base, values, origin="startup-hybrid.yaml")
    assert kept
    (line,) = [line for line in out.splitlines() if line.strip().startswith("capex_budget:")]
    assert line.split("#")[0].split(":", 1)[1].strip() == "20000"
    assert any(line.split("#")[0].strip() == "electricity_per_kwh: 0.15" for line in out.splitlines())
    assert load_scenario_text(out, base_dir=FILE.parent) == state.apply_edits(base, values)
