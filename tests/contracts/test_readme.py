"""The README's notebook screen is real: its `>>>` lines run as a doctest against the packaged snapshot."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readmes_library_session_prints_what_it_shows(monkeypatch):
    monkeypatch.chdir(ROOT)   # the session opens scenarios/… relative to the clone
    # code fences end an example's expected output, as a blank line would
    text = "\n".join("" if line.startswith("```") else line for line in (ROOT / "README.md").read_text().splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 5 and result.failed == 0, result
