"""The Plan page's baseline card says why a baseline costs less than the plan: it names the caps the
baselines drop (engine.baselines.baseline_table's note), where before it said only "cheaper, ignoring the
capex budget and mix caps" whichever cap it was (a review, 2026-12-04); once what each limit costs is made,
the card and the baselines table say which of them binds, as add_decisions tells it (before, they kept the
list of every candidate)."""

from __future__ import annotations

from concurrent.futures import wait
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import plan
from planner.scenario import load_scenario_text

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
            "the least of 3 × a100-80gb-pcie, the most of 4 × rtx-4090, which the plan keeps.") in help_text
    other = next(m for m in at.metric if m.label == "All cloud")   # costs more: nothing to explain
    assert "costs less" not in other.proto.help


# --- once the cap costs are made, the card says which limit binds (add_decisions' note) ---------------

def _three_a100s() -> str:
    text = STARTUP.read_text(encoding="utf-8")
    return text.replace("min_units: {a100-80gb-pcie: 1}", "min_units: {a100-80gb-pcie: 3}", 1)


def _told_note() -> str:
    """The note add_decisions tells, from two plans made here: the minimum of three A100s is the one limit that
    binds (startup-hybrid's other limits bind in none of its plans: tests/planner/test_cap_costs.py), and what
    it costs is the plan's total less the total of the plan without it."""
    three = _three_a100s()
    without = three.replace("min_units: {a100-80gb-pcie: 3}", "min_units: {}", 1)
    cost = plan(three, baselines=False).total - plan(without, baselines=False).total
    assert cost > 0
    # the limit as the Plan page words it (tables.note_words): constraints.min_units.a100-80gb-pcie = 3
    return ("It costs less than the plan: it drops the least of 3 × a100-80gb-pcie, which alone costs the plan "
            f"{cost:,.0f} USD.")


def _card_help(at: AppTest, label: str) -> str:
    return next(m for m in at.metric if m.label == label).proto.help.replace("\\", "")


def test_the_card_tells_the_binding_limit_once_the_cap_costs_are_made(fresh_cache):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("three.yaml", _three_a100s().encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "drops the capex budget" in _card_help(at, "All on-prem")      # every candidate, before
    s = load_scenario_text(_three_a100s(), origin="three.yaml")
    wait([state.decisions_future(s, state.recommended(s))], timeout=180)
    at.run()                                                            # the page's next run, decisions made
    assert not at.exception, [e.value for e in at.exception]
    told = _told_note()
    assert told in _card_help(at, "All on-prem")
    assert "drops the capex budget" not in _card_help(at, "All on-prem")
    [table] = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["baseline", "label"]]
    note = table.set_index("baseline").loc["All on-prem", "note"]   # in words (tables.baselines_table)
    assert told == f"It {note}."


def test_a_page_that_makes_the_cap_costs_in_its_own_run_draws_the_cards_again(fresh_cache, monkeypatch):
    # without worker processes a session's first plan makes its decisions in the page's run, after the cards
    monkeypatch.setattr(state, "WORKERS", False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("three.yaml", _three_a100s().encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    del at.session_state["values_before"]                               # the page takes the next run for a first
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert _told_note() in _card_help(at, "All on-prem")
    tables = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["baseline", "label"]]
    assert tables and all("drops the capex budget" not in n for n in tables[-1]["note"])
