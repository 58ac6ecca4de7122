"""The Compare page says the problems of both sides when neither loads, each under its own column: it loads each side
itself, so `compare`'s SidesUnreadable (now a ScenarioError) never reaches it. A guard for that change; the problems
are written out by hand, escaped for Markdown by the page's `tables.message_block`."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state

ROOT = Path(__file__).resolve().parents[2]
TYPO = "name: x\nhorizn_months: 12\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n"
DUP = "name: x\nname: y\nworkloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n"


def test_two_sides_that_do_not_load_each_say_their_problems(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    typo, dup = state.upload_id("typo.yaml", TYPO), state.upload_id("dup.yaml", DUP)
    at.session_state["uploads"] = {typo: TYPO, dup: DUP}
    at.session_state["compare_a"], at.session_state["compare_b"] = typo, dup
    at.switch_page("fleetplan_dashboard/pages/compare.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [re.sub(r"\\(.)", r"\1", e.value) for e in at.error] == [
        "Cannot load this scenario:\n\ntypo.yaml:2:1: horizn_months: unknown key; did you mean 'horizon_months'?",
        "Cannot load this scenario:\n\ndup.yaml:2:1: duplicate key 'name' (first on line 1); YAML keeps only the last — "
        "remove one"]
    assert not at.metric   # nothing compared
