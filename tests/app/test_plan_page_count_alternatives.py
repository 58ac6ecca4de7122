"""The Plan page's *One card more or fewer* and the Export page's caption, what a browser audit found (2026-12-06):
- the table showed "alternative units 87" beside "held units 80" (industrial.yaml): two counts that read as a
  contradiction (87 meant at most 87, said only in a tooltip); on a phone only card, total and increase were on the
  first screen, so two rows of one card could not be told apart;
- the line under it, "1 of 5 not shown: no plan holds that many (1)" (startup-hybrid.yaml), named no row, though the
  scenario's own rule `constraints.min_units: {a100-80gb-pcie: 1}` forbids its "at most 0";
- its title said "each card type the plan holds", though a row is the owned RTX 3060 the plan sells (0 units);
- the Export page said the decisions' values are "made on the Plan page" while that page was computing them.

Facts from outside the code, read off scenarios/startup-hybrid.yaml and docs/decisions.md (hand-checked there): the
plan holds 0 RTX 3060 (its 2 owned sold), 1 RTX 4090, 1 A100; one more RTX 3060 keeps one (held 1), two RTX 4090s
(held 2), none (held 0), two A100s (held 2); at most 0 A100 is below min_units 1. The phone's expander holds 322 px
(tests/app/test_plan_page_table_widths.py)."""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state, tables
from planner.scenario import load_scenario
from tests.app.test_money_basis_labels import _plan_page

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
PHONE_EXPANDER_PX = 322


def _count_table(at: AppTest):
    (found,) = [d for d in at.dataframe if "held_units" in d.value.columns]
    return found


def test_the_count_alternatives_show_what_was_asked_and_held_first(fresh_cache):
    at = _plan_page("startup-hybrid.yaml")
    found = _count_table(at)
    order, settings, data = list(found.proto.column_order), json.loads(found.proto.columns), found.value
    assert order[:5] == ["card", "asked", "held_units", "total", "increase"]
    assert settings["card"].get("pinned") is True
    assert sum(settings[c]["width"] for c in order[:4]) <= PHONE_EXPANDER_PX   # asked, held and total on a phone
    assert settings["asked"].get("label", "asked") == "asked" and settings["held_units"]["label"] == "held"
    rows = list(zip(data["card"], data["asked"], data["held_units"]))
    assert rows == [("rtx-3060-12gb", "≥ 1", 1), ("rtx-4090", "≥ 2", 2), ("rtx-4090", "≤ 0", 0),
                    ("a100-80gb-pcie", "≥ 2", 2)]
    headings = [m.value for m in at.markdown if m.value.startswith("**One card more or fewer**")]
    assert len(headings) == 1 and "each card type the plan holds or owned" in headings[0]
    captions = [c.value for c in at.caption]
    assert tables.plain("One card more or fewer: 1 of 5 not shown: at most 0 a100-80gb-pcie: below "
                        "constraints.min_units (1).") in captions, captions


def test_the_asked_count_reads_at_most_beside_a_smaller_held_count():
    # industrial.yaml's row from the audit: 88 A100s, at most 87 asked, 80 held
    runner = {"count_alternatives": [
        {"card": "a100-80gb-pcie", "units": 88, "alternative_units": 89, "held_units": 89, "status": "optimal",
         "total": 2_020_288.0, "increase": 1.0, "increase_pct": 0.0},
        {"card": "a100-80gb-pcie", "units": 88, "alternative_units": 87, "held_units": 80, "status": "optimal",
         "total": 2_024_151.0, "increase": 1.0, "increase_pct": 0.0}]}
    table = tables.count_alternatives(runner)
    assert table[["asked", "held_units"]].values.tolist() == [["≥ 89", 89], ["≤ 87", 80]]


def _export_captions(at: AppTest) -> list[str]:
    at.switch_page("fleetplan_dashboard/pages/export.py").run()
    assert not at.exception, at.exception
    return [c.value for c in at.caption]


def test_the_export_page_says_the_decisions_are_being_computed_while_they_are(fresh_cache):
    base = load_scenario(STARTUP)
    s = state.apply_edits(base, state.default_edits(base))
    pending = Future()   # as the Plan page leaves it while its worker re-solves (state.decisions_future)
    state._remember(state._key("decisions", s, state.DEFAULT_SOLVER), pending)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    said = " ".join(_export_captions(at))
    assert "What each decision is worth and the runner-up are being computed" in said
    assert "once done, they will be in the JSON and the workbook" in said
    assert "it is made on the Plan page, after the plan is shown" not in said
    pending.cancel()


def test_the_export_page_starts_the_decisions_when_none_are_under_way(fresh_cache):
    # it said "not included: it is made on the Plan page" and never had them (tests/app/test_export_decisions.py)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    said = " ".join(_export_captions(at))
    assert "What each decision is worth and the runner-up are being computed" in said
    assert "not included" not in said
