"""A scenario with on-prem cards that leaves its site figures out (pue, availability, electricity_per_kwh) plans in the
dashboard on the defaults (pue 1.58: Uptime Institute's industry average of 2023; availability 1; electricity 0.12,
no source), and the plan's warnings say so, as plan() gives them; the sliders showing the defaults are no edit, and
the YAML export leaves the defaults out as the file did (a file loaded from it is warned the same).

Oracles: the warning's text as the planner's docs give it (docs/scenario-format.md), and `planner.plan` of the
scenario, never the dashboard's output read back."""

from __future__ import annotations

from fleetplan_dashboard import exports, state
from planner.scenario.loading import load_scenario_text
from planner.scenario.model import assumed_site_figures
from tests.app.test_dashboard_links_uploads import _app

LEFT_OUT = """\
name: Site left out
horizon_months: 12
onprem:
  cards: [a100-80gb-pcie]
workloads:
  - name: w
    gpu_hours_per_month: 120
    reference_gpu: A10G
"""
WARNING = ("onprem: site figures not given, assumed: pue 1.58 (industry average of 2023, Uptime Institute), availability 1 (no "
           "hours lost; no public per-card figure), electricity_per_kwh 0.12 USD a kWh (no source): give your site's "
           "figures")


def test_the_sliders_at_the_defaults_are_no_edit_and_a_moved_one_gives_its_figure():
    base = load_scenario_text(LEFT_OUT, origin="left-out.yaml")
    values = state.default_edits(base)
    assert (values["pue"], values["electricity_per_kwh"]) == (1.58, 0.12)
    assert state.edits_to_overrides(base, values) == {}
    moved = state.apply_edits(base, {**values, "pue": 1.3})
    assert [text for _, text in assumed_site_figures(moved)] == [WARNING.replace(
        "pue 1.58 (industry average of 2023, Uptime Institute), ", "")]


def test_the_export_leaves_the_defaults_out_as_the_file_did():
    base = load_scenario_text(LEFT_OUT, origin="left-out.yaml")
    text = exports.scenario_yaml(base, "left-out.yaml")
    assert "pue" not in text and "availability" not in text and "electricity_per_kwh" not in text
    again = load_scenario_text(text, origin="exported.yaml")
    assert again == base
    assert [t for _, t in assumed_site_figures(again)] == [WARNING]


def test_the_plan_page_plans_on_the_defaults_and_lists_the_warning():
    at = _app()
    at.file_uploader(key="upload_file").set_value(("left-out.yaml", LEFT_OUT.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key="edit:pue").value == 1.58
    boxed = [block.value for block in at.code]
    assert any(WARNING in block for block in boxed), boxed
