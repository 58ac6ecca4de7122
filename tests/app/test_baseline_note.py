"""The Plan page's baseline card says why a baseline costs less than the plan: it names the caps the
baselines drop (engine.baselines.baseline_table's note), where before it said only "cheaper, ignoring the
capex budget and mix caps" whichever cap it was (a review, 2026-12-04)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


def test_a_cheaper_baseline_names_the_caps_it_drops_in_its_help():
    # three A100s in house (min_units) cost more than the baseline that may drop them; the caps are the file's own
    text = STARTUP.read_text(encoding="utf-8")
    assert "min_units: {a100-80gb-pcie: 1}" in text
    text = text.replace("min_units: {a100-80gb-pcie: 1}", "min_units: {a100-80gb-pcie: 3}", 1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("three.yaml", text.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:three.yaml:"), [e.value for e in at.error]
    assert not at.exception, [e.value for e in at.exception]
    card = next(m for m in at.metric if m.label == "All on-prem")
    help_text = card.proto.help.replace("\\", "")   # the note is escaped for Markdown (tables.plain)
    assert card.proto.delta.startswith("-")
    assert ("It costs less than the plan: it drops the capex budget of 60,000 USD, the cloud share cap of 60 %, "
            "min_units.a100-80gb-pcie = 3, max_units.rtx-4090 = 4, which the plan keeps.") in help_text
    other = next(m for m in at.metric if m.label == "All cloud")   # costs more: nothing to explain
    assert "costs less" not in other.proto.help
