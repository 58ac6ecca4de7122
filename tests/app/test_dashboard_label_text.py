"""Widget labels name a workload as typed, with no backslash a screen reader would say: a label is Markdown on
the page, but the control's accessible name is the label as given, and `llm\\-finetune: GPU-hours per month`
was read out with its backslash. Only what Markdown would act on is escaped.

Oracles: the workload names of startup-hybrid.yaml and CommonMark's rules (a hyphen inside a line is text; at
the start of one it opens a list, as `1.` does)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["llm-finetune", "inference-batch", "v1.2 (eu), 50% spot", "team's jobs / night"])
def test_a_name_markdown_leaves_alone_is_given_as_typed(name):
    assert tables.label_text(name) == name


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


def test_the_demand_sliders_are_named_without_a_backslash():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key="edit:demand:llm-finetune").label == "llm-finetune: GPU-hours per month"
    assert at.slider(key="edit:growth:llm-finetune").label == "llm-finetune: growth, % per month"
