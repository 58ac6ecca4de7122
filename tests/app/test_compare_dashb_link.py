"""A Compare or Export page opened straight from its address (a bookmark, a shared link: a new browser tab, no
session yet) reads the scenario from the link as the Plan page does, and writes the scenario it shows into its own
address. An audit (2026-12-07): `/compare?scenario=entry.yaml&onprem.pue=1.3` showed startup-hybrid.yaml against
itself ("nothing is edited on the Plan page yet"), `/export?…` exported startup-hybrid.yaml as saved, and a page
reached from the Plan page had a bare address (`/compare`), so its bookmark could not carry the scenario at all.

Facts by hand, from scenarios/entry.yaml: pue 1.0, horizon_months 24, cards [rtx-3060-12gb, rtx-4060-ti-16gb];
startup-hybrid.yaml (the default scenario) has horizon_months 36."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
EXPORT_PAGE = "fleetplan_dashboard/pages/export.py"
PLAN_PAGE = "fleetplan_dashboard/pages/plan.py"


def _fresh(page: str, query: dict[str, str]) -> AppTest:
    """`page` opened in a new tab at an address with `query`: its first run, no other page run before."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.switch_page(page)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _inputs(at: AppTest) -> dict[str, tuple[str, str]]:
    table = next(d.value for d in at.dataframe if "path" in d.value.columns)
    a_col = next(c for c in table.columns if c.startswith("A: "))
    b_col = next(c for c in table.columns if c.startswith("B: "))
    return {path: (a, b) for path, a, b in zip(table["path"], table[a_col], table[b_col])}


def _query(at: AppTest) -> dict[str, str]:
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def test_a_compare_link_opens_its_scenario_and_edits_as_the_plan_page_does():
    at = _fresh(COMPARE_PAGE, {"scenario": "entry.yaml", "onprem.pue": "1.3"})
    assert at.selectbox(key="compare_a").value == "file:entry.yaml"
    assert _inputs(at) == {"onprem.pue": ("1", "1.3")}
    assert not [i.value for i in at.info if "the same scenario" in i.value]
    # the Plan page, reached from here, shows the same scenario and edit
    at.switch_page(PLAN_PAGE).run()
    assert at.selectbox(key="base").value == "file:entry.yaml"
    assert at.slider(key="edit:pue").value == 1.3


def test_an_export_link_exports_its_scenario_with_its_edits():
    at = _fresh(EXPORT_PAGE, {"scenario": "entry.yaml", "horizon_months": "12"})
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert any(c.endswith("from entry.yaml, with the Plan page's edits.") for c in captions), captions
    assert any(c.startswith("Total ") and " over 12 months " in c for c in captions), captions
    yaml_text = next(c.value for c in at.code if c.language == "yaml")
    assert "horizon_months: 12" in yaml_text and "horizon_months: 24" not in yaml_text


def test_a_link_whose_parts_are_ignored_says_so_on_compare_and_export():
    for page in (COMPARE_PAGE, EXPORT_PAGE):
        at = _fresh(page, {"scenario": "entry.yaml", "onprem.pu": "1.3"})
        warnings = [w.value.replace("\\", "") for w in at.warning]
        assert any(w.startswith("Parts of the link were ignored:") and "did you mean 'onprem.pue'" in w
                   for w in warnings), warnings


def test_the_compare_and_export_pages_write_the_scenario_they_show_into_their_address():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.slider(key="edit:horizon_months").set_value(40).run()
    for page in (COMPARE_PAGE, EXPORT_PAGE):
        at.query_params.clear()   # a page picked in the sidebar is asked for with a bare address
        at.switch_page(page).run()
        assert not at.exception, [e.value for e in at.exception]
        assert _query(at) == {"scenario": "startup-hybrid.yaml", "horizon_months": "40"}, page
    # that address, opened in a new tab, shows the same comparison
    again = _fresh(COMPARE_PAGE, _query(at))
    assert _inputs(again) == {"horizon_months": ("36", "40")}
