"""Widget labels name a workload as typed, on the page and to a screen reader: a label is Markdown on the page, but
the control's accessible name is the label string as given (Streamlit 1.67's slider: `"aria-label": label`), and
`llm\\-finetune: GPU-hours per month` was read out with its backslash. A name Markdown leaves alone is the label
itself; a name it would act on (`train *big* _run_`, `#1 [eu] a\\b`) gets its label drawn above the slider as text,
the slider's own label collapsed and holding the name as typed.

Oracles: the workload names of startup-hybrid.yaml, CommonMark's rules (a hyphen inside a line is text; at the start
of one it opens a list, as `1.` does; `*x*` is emphasis) and the names written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


@pytest.mark.parametrize("name", ["llm-finetune", "inference-batch", "v1.2 (eu), 50% spot", "team's jobs / night"])
def test_a_name_markdown_leaves_alone_is_given_as_typed(name):
    assert tables.label_text(name) == name
    assert tables.widget_label(name, ": growth, % per month") == tables.WidgetLabel(f"{name}: growth, % per month",
                                                                                    None)


@pytest.mark.parametrize(("name", "label"), [
    ("**bold**", r"\*\*bold\*\*"),                  # emphasis
    ("a_b_", r"a\_b\_"),
    ("[x](http://h)", r"\[x\](http\://h)"),          # a link: its brackets and the scheme's colon
    ("![i](x.png)", r"\!\[i\](x.png)"),              # an image
    (":red[x]", r"\:red\[x\]"),                      # Streamlit's coloured text and :emoji: / :material/icon:
    ("`code`", r"\`code\`"),
    ("$x$", r"\$x\$"),                               # LaTeX
    ("<b>", r"\<b\>"),
    ("www.example.com", r"www\.example.com"),        # an autolink
    ("- not a list", r"\- not a list"),
    ("1. not a list", r"1\. not a list"),
    ("# not a heading", r"\# not a heading"),
    ("two\nlines", "two lines"),
])
def test_what_markdown_would_act_on_is_escaped(name, label):
    assert tables.label_text(name) == label


def _text(markdown: str) -> str:
    """What a reader sees of one line of Markdown: CommonMark's rendering, tags and the `:small[…]` directive off."""
    html = MarkdownIt("commonmark").render(markdown).strip()
    assert html.startswith("<p>:small[") and html.endswith("]</p>"), html   # no emphasis, link, heading, image
    return html.removeprefix("<p>:small[").removesuffix("]</p>").replace("&amp;", "&")


@pytest.mark.parametrize(("name", "accessible"), [
    ("train *big* _run_", "train *big* _run_"),
    ("#1 [eu] a\\b", "#1 [eu] a\\b"),                # the name's own backslash, as typed
    ("two\nlines & `x`", "two lines & `x`"),
    # what a hidden label would still fetch (an image, HTML): the one backslash a reader hears
    ("![w](http://127.0.0.1:9/w.png)", "\\![w](http://127.0.0.1:9/w.png)"),
    ("a <b>", "a \\<b>"),
])
def test_a_name_markdown_acts_on_is_drawn_as_text_and_named_as_typed(name, accessible):
    named = tables.widget_label(name, ": GPU-hours per month")
    assert named.label == f"{accessible}: GPU-hours per month" and named.visibility == "collapsed"
    assert _text(named.shown) == " ".join(name.splitlines()).replace("<", "&lt;").replace(">", "&gt;") + \
        ": GPU-hours per month"


def test_the_demand_sliders_are_named_without_a_backslash():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key="edit:demand:llm-finetune").label == "llm-finetune: GPU-hours per month"
    assert at.slider(key="edit:growth:llm-finetune").label == "llm-finetune: growth, % per month"


def test_an_uploaded_workload_named_with_markdown_signs_is_shown_and_named_as_typed():
    # the slider's label was "train \*big\* \_run\_: GPU-hours per month", which a screen reader read out
    text = STARTUP.read_text(encoding="utf-8").replace("- name: llm-finetune", "- name: 'train *big* _run_'")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("named.yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="base").value.startswith("upload:named.yaml:")
    for key, words in (("demand", "GPU-hours per month"), ("growth", "growth, % per month")):
        slider = at.slider(key=f"edit:{key}:train *big* _run_")
        assert slider.label == f"train *big* _run_: {words}"
        assert slider.proto.label_visibility.value == slider.proto.label_visibility.COLLAPSED
        assert f"train *big* _run_: {words}" in [_text(m.value) for m in at.sidebar.markdown if m.value.startswith(":small[")]
    # the help moves with the label: on the text drawn above the slider
    shown = next(m for m in at.sidebar.markdown if _text(m.value) == "train *big* _run_: GPU-hours per month")
    assert shown.proto.help.startswith("Hours of work per month") and not at.slider(key="edit:demand:train *big* _run_").help
