"""What a link (the page's URL query) had wrong is said in words: each part as the link writes it, the sidebar's input
it sets, and what was expected — not a bare "URL …" line. A "did you mean" offers only a close match, by the scenario
loader's rule (difflib's cutoff 0.6 on the names without their shared .yaml): `?scenario=nope.yaml` was offered
entry.yaml, alike only in ".yaml" (an audit in a real browser); without a close match the example files are listed.

Oracles: the example scenarios' names (the files in scenarios/, listed by hand) and the sidebar's labels as read on the
page; similarity ratios worked by hand: "nope" and "entry" share only "e" (2·1/9 ≈ 0.22, below 0.6), "entri" and
"entry" four letters of five (2·4/10 = 0.8).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import load_scenario

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = "entry.yaml, industrial.yaml, mid-research.yaml, startup-hybrid.yaml"


def test_a_scenario_named_like_none_of_the_examples_lists_them_and_offers_none():
    assert state.base_from_params({"scenario": "nope.yaml"}) == (
        None, [f"scenario=nope.yaml: not one of the example scenarios; expected one of {EXAMPLES}"])


@pytest.mark.parametrize(("typed", "meant"), [("entri.yaml", "entry.yaml"), ("entry.yml", "entry.yaml"),
                                              ("Industrial.yaml", "industrial.yaml")])
def test_a_scenario_spelt_close_to_an_example_is_offered_it(typed, meant):
    assert state.base_from_params({"scenario": typed}) == (
        None, [f"scenario={typed}: not one of the example scenarios; did you mean '{meant}'?"])


def test_an_input_the_page_has_not_says_how_a_link_names_them():
    entry = load_scenario(ROOT / "scenarios" / "entry.yaml")
    _, problems = state.values_from_params(entry, {"scenario": "entry.yaml", "budget": "5000"})
    assert problems == ["budget=5000: not one of this page's inputs; a link names them by the scenario file's fields, "
                        "such as horizon_months, onprem.pue or workloads.NAME.growth_per_month"]


def test_the_page_says_each_part_in_words_not_after_a_bare_url():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "startup-hybrid.yaml"
    at.query_params["workloads.llm-finetune.growth_per_month"] = "lots"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [w.value.replace("\\", "") for w in at.warning if w.value.startswith("Parts of the link were ignored")]
    assert "URL" not in said
    # the slider's own label on the page names the input the line names
    assert any(m.value == "llm-finetune: growth, % per month" for m in at.markdown) or \
        any(s.label == "llm-finetune: growth, % per month" for s in at.slider)
    assert ("workloads.llm-finetune.growth_per_month=lots (the sidebar's “llm-finetune: growth, % per month”): "
            "expected a number") in said


def test_the_words_for_each_input_begin_its_label_in_the_sidebar():
    """The link's problems name each input by the words its widget's label begins with (a quote box's apart: its label
    says whether the catalog has a price)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    s = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    shown = [m.value for m in at.sidebar.markdown]   # a workload's slider: its label drawn above it as text
    for name in state.default_edits(s):
        if name.startswith(state.PRICE_PREFIX):
            continue
        key = state.edit_key(name)
        widget = next(w for kind in (at.slider, at.number_input, at.multiselect) for w in kind if w.key == key)
        words = state.edit_words(s, name)
        assert widget.label.startswith(words) or words in shown, (name, widget.label, words)
