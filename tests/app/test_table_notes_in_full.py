"""A table note longer than its column shows (the grid's cells do not wrap: "the power cap of 60 kW cannot be met with
this…" at 1366 px) is said in full under the table (tables.notes_in_full): the baselines, what each decision is worth,
flip points and what each limit costs. Oracle: startup-hybrid.yaml with three A100s required, whose all on-prem
baseline drops the file's caps (tests/app/test_baseline_note.py), a note of 150 characters in a 285 px column."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


def test_notes_longer_than_their_column_are_listed_in_full_and_short_ones_are_not():
    long = "the power cap of 60 kW cannot be met with this kind of capacity alone: 3 × a100 need 0.9 kW"
    said = tables.notes_in_full(["All cloud", "All on-prem", "Best"], [long, "ok", None], 285)
    assert said == "Notes in full:\n- **All cloud**: " + tables.plain(long)
    assert tables.notes_in_full(["All cloud"], ["short"], 285) is None


def test_the_baselines_table_says_a_long_note_in_full_under_it():
    text = STARTUP.read_text(encoding="utf-8")
    assert "min_units: {a100-80gb-pcie: 1}" in text
    text = text.replace("min_units: {a100-80gb-pcie: 1}", "min_units: {a100-80gb-pcie: 3}", 1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("three.yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    said = [c.value.replace("\\", "") for c in at.caption if c.value.startswith("Notes in full:")]
    assert any("- **all on-prem (no cloud)**: costs less than the plan: it drops the capex budget of 60,000 USD, the cloud share "
               "cap of 60 %" in c for c in said), said


def test_the_notes_in_full_follow_the_baselines_tables_box_not_inside_it():
    # a browser check (2026-12-06): on a phone, the "swipe sideways" line is drawn after the keyed box of a wide table
    # (layout.wide); the notes inside that box came before it, and the line read as the next table's
    text = STARTUP.read_text(encoding="utf-8").replace("min_units: {a100-80gb-pcie: 1}", "min_units: {a100-80gb-pcie: 3}", 1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("three.yaml", text.encode(), "application/x-yaml")).run()

    def boxes(node):
        for child in getattr(node, "children", {}).values():
            yield child
            yield from boxes(child)

    (box,) = [b for b in boxes(at.main) if str(getattr(getattr(b, "proto", None), "id", "")).endswith(
        "phone_swipe_baselines_table")]
    inside = [n for n in boxes(box) if getattr(n, "type", "") == "caption"]
    assert inside == []
    assert any(c.value.startswith("Notes in full:") for c in at.caption)
