"""A file that is no YAML text at all (an image, under its own name or renamed .yaml) uploaded as a scenario is told
what it is and what a scenario file is, not asked to "fix these lines": it has none (an audit in a real browser: a
PNG was told "Fix these lines in chart.png and upload it again"). A file with a mistake at a line is still asked to fix
its lines.

Oracle: the PNG signature, the 8 bytes every PNG file begins with (the PNG specification, ISO/IEC 15948, section 5.2:
137 80 78 71 13 10 26 10), written here by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PNG = bytes([137, 80, 78, 71, 13, 10, 26, 10]) + b"\x00\x00\x00\rIHDR" + bytes(13)


def _not_loaded(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "").replace("**", "") for e in at.error if "was not loaded" in e.value]


@pytest.mark.parametrize("name", ["chart.png", "chart.yaml"])
def test_an_image_is_told_it_is_no_scenario_yaml_text_file(name):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value((name, PNG, "image/png")).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = _not_loaded(at)
    assert f"{name}: is a PNG image, not a scenario YAML file" in said
    assert "Fix these lines" not in said and "file:line:column" not in said
    assert "A scenario is a YAML text file, named .yaml or .yml, of at most 1 MB: upload one, or pick another " \
           "scenario." in said


def test_a_yaml_file_with_a_mistake_at_a_line_is_still_asked_to_fix_its_lines():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("bad.yaml", b"name: [", "application/x-yaml")).run()
    (said,) = _not_loaded(at)
    assert "Fix these lines in bad.yaml and upload it again" in said
