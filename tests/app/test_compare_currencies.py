"""The Compare page refuses two scenarios in different currencies before it prices or solves either, in its own names
for the sides (A and B): it solved both (startup-hybrid.yaml takes seconds) before `compare` refused them, and its
message said "a" and "b" (a review, 2026-12-08).

Facts by hand: startup-hybrid.yaml is in USD; the upload is the same file in EUR (with the rates of the USD and CNY
prices it holds), and the page calls it "eur.yaml (uploaded) on the Plan page, not edited"."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"


def _in_euros() -> str:
    text = STARTUP.read_text(encoding="utf-8")
    assert "currency: USD\n" in text and "fx: {CNY: 0.13749}" in text
    return text.replace("currency: USD\n", "currency: EUR\n", 1).replace("fx: {CNY: 0.13749}", "fx: {CNY: 0.13, USD: 0.92}", 1)


def _unescaped(markdown: str) -> str:
    """A message as the page's `tables.plain` escaped it, as typed."""
    return re.sub(r"\\(.)", r"\1", markdown)


def test_sides_in_two_currencies_are_refused_before_either_is_priced_or_solved_naming_them_a_and_b(fresh_cache,
                                                                                                     monkeypatch):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("eur.yaml", _in_euros().encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:eur.yaml:"), [e.value for e in at.error]
    asked = []

    def noted(name: str):
        """state.`name`, its call noted: it still does its work, only asking it is the fault."""
        done = getattr(state, name)
        return lambda *args, **kwargs: asked.append(name) or done(*args, **kwargs)

    for name in ("prepared", "recommended"):
        monkeypatch.setattr(state, name, noted(name))
    at.session_state["compare_a"] = "file:startup-hybrid.yaml"   # B: the current edits, of the upload
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [_unescaped(e.value) for e in at.error] == [
        "cannot compare plans in different currencies: A (startup-hybrid.yaml) is in USD, B (eur.yaml (uploaded) on the "
        "Plan page, not edited) in EUR; plan both in the same currency (a scenario's `currency`, with `fx` rates for the prices "
        "in others)"]
    assert asked == [] and not at.metric
